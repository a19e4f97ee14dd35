/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Two-way constant-time exponentiation with AVX-512 IFMA (see exp_ifma.h).
 *
 * Representation.  A number below 2^(52 L) is L digits of 52 bits.  The two
 * lanes (the CRT halves mod p and mod q) are stored interleaved, digit j of
 * lane l in 64-bit word 2 j + l, so that one 8-word vector holds 4 digits of
 * each lane and one VPMADD52 works on both: W = ceil(2 L / 8) vectors, zero
 * padded.  For moduli of n 64-bit limbs, L = ceil(64 n / 52): n = 8, 16, 24,
 * 32 give L = 10, 20, 30, 40 and W = 3, 5, 8, 10 (20 digits fill 5 vectors
 * exactly: no lane of the multiplier is wasted at RSA-2048).  R' = 2^(52 L).
 *
 * Almost-Montgomery multiplication (amm).  amm(a, b) = (a b + Y m) / R' for
 * the Y < R' that makes the division exact, computed digit by digit of b
 * (operand scanning, Montgomery's REDC per digit with k0 = -m^-1 mod 2^52).
 * No final subtraction: if a, b < 2m and 4m <= R' then
 *   amm(a, b) < 4m^2 / R' + m <= 2m,
 * and 4m <= R' holds for every supported size (m < 2^(64 n) and
 * 52 L >= 64 n + 2: 1040 >= 1026, 1560 >= 1538, 2080 >= 2050, 520 >= 514).
 * Every value in the exponentiation therefore stays below 2m, and only the
 * last step, amm(x, 1) = (x + Y m) / R' < m + 1 (so x R'^-1 mod m or m
 * itself), is followed by one constant-time subtraction.
 *
 * One step i of amm, per lane, with the accumulator X (digits lazily
 * carried: each word holds up to 64 bits) and s standing for digit 0 with
 * the carry into it:
 *   t   = s + lo52(a_0 b_i)              (scalar: the digit-0 column)
 *   y   = t k0 mod 2^52                  (so that t + lo52(m_0 y) = 0 mod 2^52)
 *   s   = X_1 + lo52(a_1 b_i) + hi52(a_0 b_i) + lo52(m_1 y)
 *         + (t + m_0 y) / 2^52           (the next digit 0, carry included)
 *   X   = ((X + lo52(a b_i) + lo52(m y)) >> one digit) + hi52(a b_i) + hi52(m y)
 * (the high half of the product of digit j belongs to digit j + 1, so after
 * the shift it is added at digit j).  The low halves are accumulated into X
 * in place before the shift; the high halves are summed apart (they do not
 * depend on X) and added after it, so the chain through X is two VPMADD52,
 * a shift and an addition.  Vector digit 0 is never read during the loop:
 * s stands for it, computed in scalar from X_1 (read before the step) and
 * the four products that reach it, so that the chain from one y to the next
 * is a few scalar multiplications; at the end s replaces it.  A digit
 * receives at most 4 products of 52 bits per step during L steps plus
 * carries below 2^12, under 4 * 40 * 2^52 + 2^12 < 2^60: no overflow.  At
 * the end the carries are propagated (d52_normalise) so that the digits are
 * again below 2^52, as VPMADD52 reads only the low 52 bits of its inputs.
 *
 * Squaring (sqr_x2, 5/6 of the exponentiation's products): the same steps
 * with b = a, but step i multiplies a_i by V_i, the part of a at and above
 * digit i with the digits above i doubled (see sqr_x2_body), so that each
 * symmetric product a_i a_j is formed once; the vectors below digit i then
 * have no product with a, and the VPMADD52 count falls by about a fifth at
 * RSA-2048.  The result is the value of amm(a, a).
 *
 * Constant time.  No branch and no memory address depends on a secret:
 * - amm, sqr and d52_normalise are straight-line for a given (L, W) (sqr's
 *   masks and skipped vectors depend on the public step number only); the scalar
 *   steps are multiplications, additions and shifts; the carry propagation
 *   turns the per-digit "generate" and "propagate" conditions into opmasks
 *   (VPCMPUQ) and integers and applies the carries with a masked add, whose
 *   timing does not depend on the mask;
 * - the window table is read whole on every lookup, entries selected with
 *   all-ones / all-zeros masks made from a vector comparison's opmask
 *   (table_gather_body);
 * - exponent windows are extracted at public bit positions (exp_window);
 * - the conversions between radix 2^64 and 2^52 move bits at public
 *   positions; R'^2 mod m comes from R^2 mod m by two products.
 * Memory holding secrets (table, accumulators, digits of the moduli) is
 * wiped before it is freed. */
#include "bn/exp_ifma.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bn/ifma_d52.h"
#include "bn/internal.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/zeroize.h"

int quill_mont_exp_x2_ifma_supported_size(size_t n) {
    return n == 8 || n == 16 || n == 24 || n == 32;
}

#if defined(QUILL_EXP_IFMA)

#include <immintrin.h>

#define MAX_WINDOW 5

/* QUILL_PLAIN_LOOPS (defined for this file by the sanitizer builds with
 * clang, cmake/fuzz.cmake) keeps the step loop of sqr_x2_body a loop: the
 * same steps, with the masks and skipped vectors computed from i at run
 * time (i is public: still no secret-dependent branch or address).  Reason: unrolled 40 times
 * in four instances, under clang 14 -O2 -g with AddressSanitizer and UBSan,
 * the file took 213 CPU-seconds to compile; as a loop, about 5. */
#if defined(QUILL_PLAIN_LOOPS)
#define SQR_UNROLL_L
#else
#define SQR_UNROLL_L _Pragma("GCC unroll 40")
#endif

/* Two numbers in radix 2^52, interleaved (digit j of lane l in d[2j + l]),
 * zero-padded. */
typedef struct {
    _Alignas(64) uint64_t d[D52_MAXW * 8];
} d52x2;

/* The moduli of both lanes: digits of m (interleaved) and
 * k0_l = -m_l^-1 mod 2^52. */
typedef struct {
    d52x2 m;
    uint64_t k0[2];
} mod_x2;

typedef quill_u128 u128;

/* amm on both lanes: r = amm(a, b) lane by lane (inputs below 2 m_l,
 * normalised digits; output likewise).  r may alias a or b. */
typedef void (*amm_x2_fn)(d52x2 *r, const d52x2 *a, const d52x2 *b, const mod_x2 *mod);

/* The body of amm_x2 for L digits per lane in W vectors (constants after
 * inlining).  Per step, the low halves of the products are added in place
 * before the shift (at their own digit), the high halves summed apart and
 * added after it (where they land at their digit + 1): the chain through X
 * is two VPMADD52, a shift and an addition, shorter than the issue time of
 * the step's 4 W VPMADD52.  With GE > 0 (amm_gather_x2_20) step i also
 * ORs entries i and i + L of the GE-entry table under the masks of
 * table_gather_body (want: the two lanes' indices) into G, stored to g at
 * the end (g must not alias r, a or b): a lookup whose loads and masks
 * issue beside the products. */
IFMA_INLINE void amm_x2_body(d52x2 *r, const d52x2 *a, const d52x2 *b, const mod_x2 *mod,
                             size_t L, size_t W, d52x2 *g, const d52x2 *table, size_t GE,
                             __m512i want) {
    __m512i A[D52_MAXW], M[D52_MAXW], X[D52_MAXW], G[D52_MAXW];
    const __m512i ones = _mm512_set1_epi64(-1);
    D52_UNROLL_W for (size_t v = 0; v < W; v++)
        G[v] = _mm512_setzero_si512();
    const __m512i zero = _mm512_setzero_si512();
    d52_load(A, M, X, a->d, mod->m.d, W);
    /* The digit-0 and digit-1 products with a of every step, for the
     * scalar part: ls[4i + l] = lo52(a_0 b_i) and ls[4i + 2 + l] =
     * lo52(a_1 b_i) + hi52(a_0 b_i) in lane l, computed on vectors of the
     * digits of b and stored step by step (one base for both). */
    _Alignas(64) uint64_t ls[D52_MAXW * 16];
    {
        const __m512i A0 = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)a->d));
        const __m512i A1 = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(a->d + 2)));
        const __m512i lo_pairs = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
        const __m512i hi_pairs = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
        D52_UNROLL_W for (size_t v = 0; v < W; v++) {
            const __m512i Bv = _mm512_load_si512((const void *)(b->d + 8 * v));
            const __m512i La = _mm512_madd52lo_epu64(zero, Bv, A0);
            __m512i Sa = _mm512_madd52lo_epu64(zero, Bv, A1);
            Sa = _mm512_madd52hi_epu64(Sa, Bv, A0);
            _mm512_store_si512((void *)(ls + 16 * v),
                               _mm512_permutex2var_epi64(La, lo_pairs, Sa));
            _mm512_store_si512((void *)(ls + 16 * v + 8),
                               _mm512_permutex2var_epi64(La, hi_pairs, Sa));
        }
    }
    /* digit 0 of both lanes before the step, with the carry in */
    uint64_t s0 = 0, s1 = 0;
    _Alignas(16) uint64_t xs[2];
    for (size_t i = 0; i < L; i++) {
        /* The scalar constants are read from memory in every step (mod made
         * opaque): held in registers they crowd the general registers, the
         * compiler parks them in vector registers, and the moves back cost
         * vector issue slots, which bound the step. */
        const mod_x2 *mc = mod;
        __asm__("" : "+r"(mc));
        const uint64_t m00 = mc->m.d[0], m10 = mc->m.d[1], m01 = mc->m.d[2], m11 = mc->m.d[3];
        const uint64_t k00 = mc->k0[0], k10 = mc->k0[1];
        /* (b_i of lane 0, b_i of lane 1) in every pair of words */
        const __m512i B = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(b->d + 2 * i)));
        /* digit 1 of both lanes before this step (through memory: fewer
         * vector operations than two extractions to registers) */
        _mm_store_si128((__m128i *)xs, _mm512_extracti32x4_epi32(X[0], 1));
        const uint64_t e0 = xs[0], e1 = xs[1];
        const uint64_t t0 = s0 + ls[4 * i];
        const uint64_t t1 = s1 + ls[4 * i + 1];
        const uint64_t y0 = (t0 * k00) & D52_MASK;
        const uint64_t y1 = (t1 * k10) & D52_MASK;
        const __m512i Y = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)y0), 0xaa,
                                                 (long long)y1);
        /* the next digit 0: digit 1, the four products that reach it and
         * the carry out of t + m_0 y (whose low 52 bits are 0) */
        s0 = e0 + ls[4 * i + 2] + ((m01 * y0) & D52_MASK) +
             (uint64_t)(((u128)m00 * y0 + t0) >> 52);
        s1 = e1 + ls[4 * i + 3] + ((m11 * y1) & D52_MASK) +
             (uint64_t)(((u128)m10 * y1 + t1) >> 52);
        /* a share of the lookup (GE > 0): entries i and i + L */
        for (size_t t = i; t < GE; t += L) {
            const __m512i k = _mm512_maskz_mov_epi64(
                _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((long long)t), want), ones);
            D52_UNROLL_W for (size_t v = 0; v < W; v++)
                G[v] = _mm512_ternarylogic_epi64(
                    G[v], _mm512_load_si512((const void *)(table[t].d + 8 * v)), k, 0xf8);
        }
        __m512i H[D52_MAXW];
        d52_products(X, H, A, M, B, Y, W);
        d52_shift_digit(X, H, W, 2);
    }
    if (GE > 0)
        D52_UNROLL_W for (size_t v = 0; v < W; v++)
            _mm512_store_si512((void *)(g->d + 8 * v), G[v]);
    /* digit 0 of the result: the vector holds it without the last carry */
    X[0] = _mm512_mask_set1_epi64(X[0], 1, (long long)s0);
    X[0] = _mm512_mask_set1_epi64(X[0], 2, (long long)s1);
    d52_normalise(X, W, 2);
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        _mm512_store_si512((void *)(r->d + 8 * v), X[v]);
        _mm512_store_si512((void *)(ls + 16 * v), zero);
        _mm512_store_si512((void *)(ls + 16 * v + 8), zero);
    }
    _mm_store_si128((__m128i *)xs, _mm_setzero_si128());
    __asm__ __volatile__("" : : "r"(ls), "r"(xs) : "memory"); /* keep the wipes */
}

#define AMM_X2_INSTANCE(L_, W_)                                                             \
    IFMA_TARGET static void amm_x2_##L_(d52x2 *r, const d52x2 *a, const d52x2 *b,           \
                                        const mod_x2 *mod) {                                \
        amm_x2_body(r, a, b, mod, L_, W_, NULL, NULL, 0, _mm512_setzero_si512());           \
    }

AMM_X2_INSTANCE(10, 3)
AMM_X2_INSTANCE(20, 5)
AMM_X2_INSTANCE(30, 8)
AMM_X2_INSTANCE(40, 10)

/* amm_gather_x2_20: amm_x2_20, and g = table_gather_5's lookup of entry
 * idx0 (lane 0) and idx1 (lane 1) of a 32-entry table, spread over its
 * steps (one or two entries per step, every entry read). */
IFMA_TARGET static void amm_gather_x2_20(d52x2 *r, const d52x2 *a, const d52x2 *b,
                                         const mod_x2 *mod, d52x2 *g, const d52x2 *table,
                                         uint64_t idx0, uint64_t idx1) {
    const __m512i want = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)idx0), 0xaa,
                                                (long long)idx1);
    amm_x2_body(r, a, b, mod, 20, 5, g, table, 32, want);
}

/* The word mask of vector v (digits 4v to 4v + 3, two words each) for the
 * digits k with lo <= k < hi.  Arguments are public (constants after
 * unrolling). */
static inline __mmask8 digit_mask(size_t v, size_t lo, size_t hi) {
    unsigned m = 0;
    for (size_t k = 4 * v; k < 4 * v + 4; k++)
        if (k >= lo && k < hi)
            m |= 3u << (2 * (k - 4 * v));
    return (__mmask8)m;
}

/* The body of sqr_x2: r = amm(a, a) lane by lane, with the square's
 * symmetric products computed once.  a^2 = sum_i a_i 2^(52 i) V_i with
 *   V_i = a_i + 2 sum_(j > i) a_j 2^(52 (j - i)) = a_i + 2^52 U_i,
 *   U_i = 2 floor(a / 2^(52 (i + 1))),
 * whose digits are all below 2^52: digit i of V_i is a_i, digit i + 1 is
 * 2 a_(i+1) mod 2^52 (the doubling of the lowest digit of the upper part
 * has no carry in) and digit j >= i + 2 is d_j = (2 a_j mod 2^52) +
 * floor(a_(j-1) / 2^51), digit j of 2a; digits below i are 0.  Step i of
 * amm(a, b) multiplies a by b_i; here it multiplies V_i by a_i, which is
 * zero below digit i, so the vectors wholly below digit i get only the
 * reduction's products: with W = 5, 16 VPMADD52 per step on average
 * instead of 20.  The reduction (y, the scalar digit-0 chain, m y) is that
 * of amm, and so is every bound: a digit still receives at most four
 * products below 2^52 per step, and the result is the value of amm(a, a).
 * VPMADD52 reads the low 52 bits of its inputs, so 2 a_j needs no masking;
 * 2a has no digit L since a < 2m < 2^(52 L - 1).  Measured on Zen 4 the
 * square takes about 0.9 of amm(a, a) at RSA-2048 (the step is not bound by
 * the VPMADD52 alone).  The loop is unrolled: i, the masks and the vectors
 * skipped are constants (i is public). */
IFMA_INLINE void sqr_x2_body(d52x2 *r, const d52x2 *a, const mod_x2 *mod, size_t L, size_t W) {
    __m512i A[D52_MAXW], D[D52_MAXW], M[D52_MAXW], X[D52_MAXW];
    const __m512i zero = _mm512_setzero_si512();
    d52_load(A, M, X, a->d, mod->m.d, W);
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        /* digit j - 1 at j */
        const __m512i Au = _mm512_alignr_epi64(A[v], v > 0 ? A[v - 1] : zero, 6);
        D[v] = _mm512_or_si512(_mm512_slli_epi64(A[v], 1), _mm512_srli_epi64(Au, 51));
    }
    /* the products with a that reach digits 0 and 1 (scalar part): only in
     * steps 0 (a_0 a_0 at 0; 2 a_1 a_0 and the high half of a_0 a_0 at 1)
     * and 1 (a_1 a_1) */
    const uint64_t a00 = a->d[0], a10 = a->d[1], a01 = a->d[2], a11 = a->d[3];
    const uint64_t la0 = (a00 * a00) & D52_MASK, la1 = (a10 * a10) & D52_MASK;
    const uint64_t sq00 = ((2 * a01 * a00) & D52_MASK) + (uint64_t)(((u128)a00 * a00) >> 52);
    const uint64_t sq01 = ((2 * a11 * a10) & D52_MASK) + (uint64_t)(((u128)a10 * a10) >> 52);
    const uint64_t sq10 = (a01 * a01) & D52_MASK, sq11 = (a11 * a11) & D52_MASK;
    uint64_t s0 = 0, s1 = 0;
    SQR_UNROLL_L for (size_t i = 0; i < L; i++) {
        /* as in amm_x2_body */
        const mod_x2 *mc = mod;
        __asm__("" : "+r"(mc));
        const uint64_t m00 = mc->m.d[0], m10 = mc->m.d[1], m01 = mc->m.d[2], m11 = mc->m.d[3];
        const uint64_t k00 = mc->k0[0], k10 = mc->k0[1];
        const __m512i B = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(a->d + 2 * i)));
        const __m128i x1 = _mm512_extracti32x4_epi32(X[0], 1);
        const uint64_t e0 = (uint64_t)_mm_cvtsi128_si64(x1);
        const uint64_t e1 = (uint64_t)_mm_extract_epi64(x1, 1);
        const uint64_t t0 = s0 + (i == 0 ? la0 : 0);
        const uint64_t t1 = s1 + (i == 0 ? la1 : 0);
        const uint64_t y0 = (t0 * k00) & D52_MASK;
        const uint64_t y1 = (t1 * k10) & D52_MASK;
        const __m512i Y = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)y0), 0xaa,
                                                 (long long)y1);
        const uint64_t sa0 = i == 0 ? sq00 : i == 1 ? sq10 : 0;
        const uint64_t sa1 = i == 0 ? sq01 : i == 1 ? sq11 : 0;
        s0 = e0 + sa0 + ((m01 * y0) & D52_MASK) + (uint64_t)(((u128)m00 * y0 + t0) >> 52);
        s1 = e1 + sa1 + ((m11 * y1) & D52_MASK) + (uint64_t)(((u128)m10 * y1 + t1) >> 52);
        /* the products with a first: they do not wait for y */
        __m512i H[D52_MAXW];
        D52_UNROLL_W for (size_t v = 0; v < W; v++) {
            H[v] = zero;
            if (4 * v + 3 >= i) { /* digits of V_i in this vector */
                __m512i V = D[v];
                if (4 * v < i + 2) {
                    /* digit i: a_i; digit i + 1: 2 a_(i+1); below: 0 */
                    const __mmask8 kd = digit_mask(v, i + 2, 4 * v + 4);
                    const __mmask8 kf = digit_mask(v, i + 1, i + 2);
                    const __mmask8 ka = digit_mask(v, i, i + 1);
                    V = _mm512_maskz_mov_epi64(kd, D[v]);
                    if (kf != 0)
                        V = _mm512_mask_slli_epi64(V, kf, A[v], 1);
                    if (ka != 0)
                        V = _mm512_mask_mov_epi64(V, ka, A[v]);
                }
                H[v] = _mm512_madd52hi_epu64(H[v], V, B);
                X[v] = _mm512_madd52lo_epu64(X[v], V, B);
            }
            H[v] = _mm512_madd52hi_epu64(H[v], M[v], Y);
            X[v] = _mm512_madd52lo_epu64(X[v], M[v], Y);
        }
        d52_shift_digit(X, H, W, 2);
    }
    /* digit 0 of the result: the vector holds it without the last carry */
    X[0] = _mm512_mask_set1_epi64(X[0], 1, (long long)s0);
    X[0] = _mm512_mask_set1_epi64(X[0], 2, (long long)s1);
    d52_normalise(X, W, 2);
    D52_UNROLL_W for (size_t v = 0; v < W; v++)
        _mm512_store_si512((void *)(r->d + 8 * v), X[v]);
}

#define SQR_X2_INSTANCE(L_, W_)                                                             \
    IFMA_TARGET static void sqr_x2_##L_(d52x2 *r, const d52x2 *a, const d52x2 *b,           \
                                        const mod_x2 *mod) {                                \
        (void)b;                                                                            \
        sqr_x2_body(r, a, mod, L_, W_);                                                     \
    }

SQR_X2_INSTANCE(10, 3)
SQR_X2_INSTANCE(20, 5)
SQR_X2_INSTANCE(30, 8)
/* Not at L = 40: A, D, M and X would need 40 vector registers and the
 * unrolled loop 40 steps; the spills cost more than the products saved, so
 * RSA-4096 squares with amm_x2_40. */

/* r = entry idx0 of the table in lane 0 and entry idx1 in lane 1 (secret
 * indices), reading every entry: each is combined under a mask that is
 * all-ones or all-zeros per lane (r |= t & mask, one VPTERNLOGQ).  The
 * masks come from one VPCMPEQQ of the entry number (a vector counter) with
 * (idx0, idx1, ...) into an opmask, widened by a zero-masking move, whose
 * timing does not depend on the mask: three vector operations per entry
 * where the scalar quill_ct_eq_mask pair and two broadcasts took about
 * twenty (RSA-2048 signing 0.7% faster, docs/limits.md). */
IFMA_INLINE void table_gather_body(d52x2 *r, const d52x2 *table, size_t entries,
                                   uint64_t idx0, uint64_t idx1, size_t W) {
    __m512i acc[D52_MAXW];
    D52_UNROLL_W for (size_t v = 0; v < W; v++)
        acc[v] = _mm512_setzero_si512();
    const __m512i want = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)idx0), 0xaa,
                                                (long long)idx1);
    const __m512i ones = _mm512_set1_epi64(-1);
    __m512i cnt = _mm512_setzero_si512();
    for (size_t i = 0; i < entries; i++) {
        const __m512i k = _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(cnt, want), ones);
        cnt = _mm512_sub_epi64(cnt, ones);
        D52_UNROLL_W for (size_t v = 0; v < W; v++) {
            /* 0xf8: a | (b & c) */
            acc[v] = _mm512_ternarylogic_epi64(
                acc[v], _mm512_load_si512((const void *)(table[i].d + 8 * v)), k, 0xf8);
        }
    }
    D52_UNROLL_W for (size_t v = 0; v < W; v++)
        _mm512_store_si512((void *)(r->d + 8 * v), acc[v]);
}

typedef void (*gather_fn)(d52x2 *r, const d52x2 *table, size_t entries, uint64_t idx0,
                          uint64_t idx1);

#define GATHER_INSTANCE(W_)                                                                 \
    IFMA_TARGET static void table_gather_##W_(d52x2 *r, const d52x2 *table, size_t entries, \
                                              uint64_t idx0, uint64_t idx1) {               \
        table_gather_body(r, table, entries, idx0, idx1, W_);                               \
    }

GATHER_INSTANCE(3)
GATHER_INSTANCE(5)
GATHER_INSTANCE(8)
GATHER_INSTANCE(10)

/* Scratch of one exponentiation; 64-byte aligned.  Everything before the
 * table is zeroed first (the digits' zero padding, the number 1, 2^c); the
 * table is not: the products write each entry's W vectors before any
 * lookup reads them, and nothing reads beyond.  Wiped before freeing:
 * everything before the table and the W vectors of each entry used. */
typedef struct {
    mod_x2 mod;
    d52x2 am;  /* a R' mod m (below 2m) */
    d52x2 acc; /* accumulator */
    d52x2 tmp; /* gathered entry, also a in radix 2^52 */
    d52x2 tmp2; /* the next window's entry */
    d52x2 rr;  /* R'^2 mod m */
    d52x2 unit; /* the number 1 in both lanes */
    quill_limb limbs[2][32]; /* radix 2^64 scratch (n <= 32) */
    d52x2 table[1 << MAX_WINDOW];
} ifma_ws;

/* Wipes what quill_mont_exp_consttime_x2_ifma wrote to ws (the first
 * |entries| table entries, W vectors each) and frees it. */
static void ifma_ws_free(ifma_ws *ws, size_t entries, size_t W) {
    for (size_t i = 0; i < entries; i++)
        memset(ws->table[i].d, 0, 64 * W);
    /* the barrier in quill_zeroize keeps the stores above as well */
    quill_zeroize(ws, offsetof(ifma_ws, table));
    quill_free(ws);
}

int quill_mont_exp_x2_ifma_capable(size_t n) {
    return quill_mont_exp_x2_ifma_supported_size(n) &&
           quill_cpu_has(QUILL_CPU_X86_AVX512VL | QUILL_CPU_X86_AVX512IFMA);
}

int quill_mont_exp_consttime_x2_ifma(quill_limb *r0, const quill_limb *a0, const quill_limb *e0,
                                     const quill_mont *mont0, quill_limb *r1,
                                     const quill_limb *a1, const quill_limb *e1,
                                     const quill_mont *mont1, size_t e_limbs) {
    size_t n = mont0->n;
    if (n != mont1->n || !quill_mont_exp_x2_ifma_supported_size(n) || e_limbs == 0)
        return 0;
    size_t L = d52_digits(n);
    /* R'^2 = amm(amm(R^2, R^2), 2^c) mod m: amm(R^2, R^2) = 2^(256 n - 52 L),
     * and the product by 2^c with c = 208 L - 256 n (32, 64, 96, 128 for
     * n = 8, 16, 24, 32) makes it 2^(104 L) (as in exp_ifma_x1.c).  2^c < m
     * since m >= 2^(64 (n - 1)); the values stay below 2m.  The first
     * exponentiation with a context keeps it there (quill_mont_rr52_put). */
    const size_t c = 208 * L - 256 * n;
    amm_x2_fn amm = n == 8 ? amm_x2_10 : n == 16 ? amm_x2_20 : n == 24 ? amm_x2_30 : amm_x2_40;
    amm_x2_fn sqr = n == 8 ? sqr_x2_10 : n == 16 ? sqr_x2_20 : n == 24 ? sqr_x2_30 : amm_x2_40;
    gather_fn gather = n == 8    ? table_gather_3
                       : n == 16 ? table_gather_5
                       : n == 24 ? table_gather_8
                                 : table_gather_10;

    ifma_ws *ws = quill_aligned_alloc(64, sizeof(ifma_ws));
    if (ws == NULL)
        return 0;
    memset(ws, 0, offsetof(ifma_ws, table));
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
    quill_limb *r[2] = {r0, r1};
    ws->unit.d[0] = 1;
    ws->unit.d[1] = 1;
    const uint64_t *rr52[2] = {quill_mont_rr52_get(mont0), quill_mont_rr52_get(mont1)};
    const int cached = rr52[0] != NULL && rr52[1] != NULL;
    for (int l = 0; l < 2; l++) {
        d52_from_limbs(ws->mod.m.d + l, 2, mont[l]->m, n, L);
        ws->mod.k0[l] = mont[l]->n0 & D52_MASK;
        if (cached) {
            for (size_t j = 0; j < L; j++)
                ws->rr.d[2 * j + l] = rr52[l][j];
        } else {
            d52_from_limbs(ws->rr.d + l, 2, mont[l]->rr, n, L);
            ws->acc.d[2 * (c / 52) + l] = (uint64_t)1 << (c % 52);
        }
        d52_from_limbs(ws->tmp.d + l, 2, a[l], n, L);
    }
    const mod_x2 *mod = &ws->mod;
    d52x2 *table = ws->table;
    if (!cached) { /* then kept in the contexts for the next time */
        amm(&ws->rr, &ws->rr, &ws->rr, mod);
        amm(&ws->rr, &ws->rr, &ws->acc, mod); /* acc: 2^c until the first lookup */
        quill_mont_rr52_put(mont0, ws->rr.d, 2);
        quill_mont_rr52_put(mont1, ws->rr.d + 1, 2);
    }

    /* am = a R'^2 R'^-1 = a R'; entry 0 = R'^2 * 1 * R'^-1 = R' (one);
     * entry i = a^i R': the even ones squares of entry i / 2 (the squaring
     * is the cheaper product), the odd ones entry i - 1 times a R' */
    amm(&ws->am, &ws->tmp, &ws->rr, mod);
    amm(&table[0], &ws->rr, &ws->unit, mod);
    unsigned w = quill_exp_consttime_window(64 * e_limbs);
    size_t entries = (size_t)1 << w;
    table[1] = ws->am;
    for (size_t i = 2; i < entries; i++) {
        if (i % 2 == 0)
            sqr(&table[i], &table[i / 2], &table[i / 2], mod);
        else
            amm(&table[i], &table[i - 1], &ws->am, mod);
    }

    /* Left to right over windows of w bits; the top window may be short. */
    size_t bits = 64 * e_limbs, windows = (bits + w - 1) / w;
    size_t pos = (windows - 1) * w;
    gather(&ws->acc, table, entries, quill_bn_bits(e[0], e_limbs, pos, w),
           quill_bn_bits(e[1], e_limbs, pos, w));
    /* At RSA-2048 (L = 20, 32 entries) each window's lookup is spread over
     * the previous window's product (amm_gather_x2_20, into the other of
     * two buffers); elsewhere it comes first in its window: it depends on
     * the exponent and the table only, so its loads and masks overlap the
     * first squaring. */
    const int spread = L == 20 && entries == 32;
    d52x2 *cur = &ws->tmp, *next = &ws->tmp2;
    if (spread && pos > 0)
        gather(cur, table, entries, quill_bn_bits(e[0], e_limbs, pos - w, w),
               quill_bn_bits(e[1], e_limbs, pos - w, w));
    while (pos > 0) {
        pos -= w;
        if (!spread)
            gather(cur, table, entries, quill_bn_bits(e[0], e_limbs, pos, w),
                   quill_bn_bits(e[1], e_limbs, pos, w));
        for (unsigned k = 0; k < w; k++)
            sqr(&ws->acc, &ws->acc, &ws->acc, mod);
        if (spread && pos > 0) {
            amm_gather_x2_20(&ws->acc, &ws->acc, cur, mod, next, table,
                             quill_bn_bits(e[0], e_limbs, pos - w, w),
                             quill_bn_bits(e[1], e_limbs, pos - w, w));
            d52x2 *t = cur;
            cur = next;
            next = t;
        } else {
            amm(&ws->acc, &ws->acc, cur, mod);
        }
    }
    /* out of the Montgomery domain: amm(x, 1) <= m; then subtract m once if
     * it is m itself */
    amm(&ws->acc, &ws->acc, &ws->unit, mod);
    for (int l = 0; l < 2; l++) {
        d52_to_limbs(ws->limbs[0], n, ws->acc.d + l, 2, L);
        quill_limb borrow = quill_bn_sub(ws->limbs[1], ws->limbs[0], mont[l]->m, n);
        quill_bn_select(r[l], (quill_word)0 - borrow, ws->limbs[0], ws->limbs[1], n);
    }
    ifma_ws_free(ws, entries, (2 * L + 7) / 8);
    return 1;
}

int quill_mont_sqr_x2_ifma_for_testing(quill_limb *sq0, quill_limb *am0, const quill_limb *x0,
                                       const quill_mont *mont0, quill_limb *sq1,
                                       quill_limb *am1, const quill_limb *x1,
                                       const quill_mont *mont1) {
    size_t n = mont0->n;
    if (n != mont1->n || !quill_mont_exp_x2_ifma_supported_size(n))
        return 0;
    size_t L = d52_digits(n);
    amm_x2_fn amm = n == 8 ? amm_x2_10 : n == 16 ? amm_x2_20 : n == 24 ? amm_x2_30 : amm_x2_40;
    amm_x2_fn sqr = n == 8 ? sqr_x2_10 : n == 16 ? sqr_x2_20 : n == 24 ? sqr_x2_30 : amm_x2_40;
    ifma_ws *ws = quill_aligned_alloc(64, sizeof(ifma_ws));
    if (ws == NULL)
        return 0;
    memset(ws, 0, sizeof(*ws));
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *x[2] = {x0, x1};
    quill_limb *sq[2] = {sq0, sq1}, *am[2] = {am0, am1};
    for (int l = 0; l < 2; l++) {
        d52_from_limbs(ws->mod.m.d + l, 2, mont[l]->m, n, L);
        ws->mod.k0[l] = mont[l]->n0 & D52_MASK;
        d52_from_limbs(ws->tmp.d + l, 2, x[l], n + 1, L);
    }
    sqr(&ws->acc, &ws->tmp, &ws->tmp, &ws->mod);
    amm(&ws->am, &ws->tmp, &ws->tmp, &ws->mod);
    for (int l = 0; l < 2; l++) {
        d52_to_limbs(sq[l], n + 1, ws->acc.d + l, 2, L);
        d52_to_limbs(am[l], n + 1, ws->am.d + l, 2, L);
    }
    quill_zeroize(ws, sizeof(*ws));
    quill_free(ws);
    return 1;
}

/* Scratch of quill_mont_amm_gather_x2_ifma_for_testing. */
typedef struct {
    mod_x2 mod;
    d52x2 x, p[2], g[2];
    d52x2 table[32];
} amm_gather_test_ws;

int quill_mont_amm_gather_x2_ifma_for_testing(const quill_limb *x0, const quill_mont *mont0,
                                              uint64_t idx0, const quill_limb *x1,
                                              const quill_mont *mont1, uint64_t idx1) {
    const size_t n = 16, L = 20;
    if (mont0->n != n || mont1->n != n)
        return -1;
    amm_gather_test_ws *ws = quill_aligned_alloc(64, sizeof(amm_gather_test_ws));
    if (ws == NULL)
        return -1;
    memset(ws, 0, sizeof(*ws));
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *x[2] = {x0, x1};
    for (int l = 0; l < 2; l++) {
        d52_from_limbs(ws->mod.m.d + l, 2, mont[l]->m, n, L);
        ws->mod.k0[l] = mont[l]->n0 & D52_MASK;
        d52_from_limbs(ws->x.d + l, 2, x[l], n, L);
    }
    for (uint64_t i = 0; i < 32; i++)
        for (size_t j = 0; j < 2 * L; j++)
            ws->table[i].d[j] = ws->x.d[j] ^ i;
    amm_gather_x2_20(&ws->p[0], &ws->x, &ws->x, &ws->mod, &ws->g[0], ws->table, idx0, idx1);
    amm_x2_20(&ws->p[1], &ws->x, &ws->x, &ws->mod);
    table_gather_5(&ws->g[1], ws->table, 32, idx0, idx1);
    uint64_t diff = 0;
    for (size_t j = 0; j < sizeof(ws->p[0].d) / sizeof(uint64_t); j++)
        diff |= (ws->p[0].d[j] ^ ws->p[1].d[j]) | (ws->g[0].d[j] ^ ws->g[1].d[j]);
    quill_zeroize(ws, sizeof(*ws));
    quill_free(ws);
    return (int)(1 & quill_ct_is_zero_mask(diff));
}

#else /* no IFMA code in this build */

int quill_mont_exp_x2_ifma_capable(size_t n) {
    (void)n;
    return 0;
}

int quill_mont_exp_consttime_x2_ifma(quill_limb *r0, const quill_limb *a0, const quill_limb *e0,
                                     const quill_mont *mont0, quill_limb *r1,
                                     const quill_limb *a1, const quill_limb *e1,
                                     const quill_mont *mont1, size_t e_limbs) {
    (void)r0, (void)a0, (void)e0, (void)mont0, (void)r1, (void)a1, (void)e1, (void)mont1;
    (void)e_limbs;
    return 0;
}

int quill_mont_sqr_x2_ifma_for_testing(quill_limb *sq0, quill_limb *am0, const quill_limb *x0,
                                       const quill_mont *mont0, quill_limb *sq1,
                                       quill_limb *am1, const quill_limb *x1,
                                       const quill_mont *mont1) {
    (void)sq0, (void)am0, (void)x0, (void)mont0, (void)sq1, (void)am1, (void)x1, (void)mont1;
    return 0;
}

int quill_mont_amm_gather_x2_ifma_for_testing(const quill_limb *x0, const quill_mont *mont0,
                                              uint64_t idx0, const quill_limb *x1,
                                              const quill_mont *mont1, uint64_t idx1) {
    (void)x0, (void)mont0, (void)idx0, (void)x1, (void)mont1, (void)idx1;
    return -1;
}

#endif
