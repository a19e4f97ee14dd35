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
 * carried: each word holds up to 64 bits):
 *   t   = X_0 + c + lo52(a_0 b_i)        (scalar: the digit-0 column)
 *   y   = t k0 mod 2^52                  (so that t + lo52(m_0 y) = 0 mod 2^52)
 *   c   = (t + lo52(m_0 y)) >> 52        (the carry out of digit 0)
 *   X   = ((X + lo52(a b_i) + lo52(m y)) >> one digit) + hi52(a b_i) + hi52(m y)
 * (the high half of the product of digit j belongs to digit j + 1, so after
 * the shift it is added at digit j).  The products with b_i do not depend
 * on X and are summed apart, so the chain through X is two additions and a
 * shift.  Vector digit 0 is never read: the scalar t and c stand for it, and
 * the next step's digit 0 is computed in scalar from X_1 (read before the
 * step) and the four products that reach it, so that the chain from one y to
 * the next is a few scalar multiplications.  A digit receives at most 4
 * products of 52 bits per step during L steps plus carries below 2^12,
 * under 4 * 40 * 2^52 + 2^12 < 2^60: no overflow.  At the end the carries
 * are propagated (normalise) so that the digits are again below 2^52, as
 * VPMADD52 reads only the low 52 bits of its inputs.
 *
 * Constant time.  No branch and no memory address depends on a secret:
 * - amm and normalise are straight-line for a given (L, W); the scalar
 *   steps are multiplications, additions and shifts; the carry propagation
 *   turns the per-digit "generate" and "propagate" conditions into opmasks
 *   (VPCMPUQ) and integers and applies the carries with a masked add, whose
 *   timing does not depend on the mask;
 * - the window table is read whole on every lookup, entries selected with
 *   all-ones / all-zeros masks from quill_ct_eq_mask behind a value barrier
 *   (table_gather_body);
 * - exponent windows are extracted at public bit positions (exp_window);
 * - the conversions between radix 2^64 and 2^52 move bits at public
 *   positions; R'^2 mod m comes from R^2 mod m by branch-free doublings.
 * Memory holding secrets (table, accumulators, digits of the moduli) is
 * wiped before it is freed. */
#include "bn/exp_ifma.h"

#include <stdlib.h>
#include <string.h>

#include "bn/internal.h"
#include "common/cpu.h"
#include "common/zeroize.h"

int quill_mont_exp_x2_ifma_supported_size(size_t n) {
    return n == 8 || n == 16 || n == 24 || n == 32;
}

#if !defined(QUILL_NO_ASM) && defined(__x86_64__) && defined(__GNUC__)
#define QUILL_EXP_IFMA 1
#endif

#if defined(QUILL_EXP_IFMA)

#include <immintrin.h>

#define IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define IFMA_INLINE                                                                         \
    static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))

#define D52_MASK (((uint64_t)1 << 52) - 1)
/* Largest vector count: 2 lanes of L = 40 digits, 8 words per vector. */
#define MAXW 10
#define MAX_WINDOW 5

/* Two numbers in radix 2^52, interleaved (digit j of lane l in d[2j + l]),
 * zero-padded. */
typedef struct {
    _Alignas(64) uint64_t d[MAXW * 8];
} d52x2;

/* The moduli of both lanes: digits of m (interleaved) and
 * k0_l = -m_l^-1 mod 2^52. */
typedef struct {
    d52x2 m;
    uint64_t k0[2];
} mod_x2;

typedef unsigned __int128 u128;

/* amm on both lanes: r = amm(a, b) lane by lane (inputs below 2 m_l,
 * normalised digits; output likewise).  r may alias a or b. */
typedef void (*amm_x2_fn)(d52x2 *r, const d52x2 *a, const d52x2 *b, const mod_x2 *mod);

/* normalise: digits of up to 60 bits to digits of 52 bits (the value of each
 * lane below 2^(52 * 4 W)).  One carry round leaves digits below
 * 2^52 + 2^12, after which a carry leaves digit j exactly when digit
 * j >= 2^52 ("generate", bit of g) or digit j = 2^52 - 1 ("propagate", bit
 * of p) and a carry comes in.  With the digits of one lane at every other
 * bit and the bits in between set as "propagate", these are the carries of
 * the binary addition g + (g | p), so the carries in are
 * (g + (g | p)) ^ g ^ (g | p); they are added with a masked add and the
 * digits masked to 52 bits. */
#define EVEN_BITS (((u128)0x5555555555555555u << 64) | 0x5555555555555555u)
#define ODD_BITS (EVEN_BITS << 1)

static inline u128 carries_in(u128 g, u128 p) {
    u128 gp = g | p;
    return (g + gp) ^ g ^ gp;
}

IFMA_INLINE void normalise(__m512i *x, size_t W) {
    const __m512i mask = _mm512_set1_epi64((long long)D52_MASK);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i zero = _mm512_setzero_si512();
    __m512i c[MAXW];
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
        c[v] = _mm512_srli_epi64(x[v], 52);
        x[v] = _mm512_and_si512(x[v], mask);
    }
    u128 g = 0, p = 0;
    /* carries one digit (two words) up */
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
        x[v] = _mm512_add_epi64(x[v], _mm512_alignr_epi64(c[v], v > 0 ? c[v - 1] : zero, 6));
        g |= (u128)_mm512_cmpgt_epu64_mask(x[v], mask) << (8 * v);
        p |= (u128)_mm512_cmpeq_epu64_mask(x[v], mask) << (8 * v);
    }
    u128 k0 = carries_in(g & EVEN_BITS, (p & EVEN_BITS) | ODD_BITS) & EVEN_BITS;
    u128 k1 = carries_in((g >> 1) & EVEN_BITS, ((p >> 1) & EVEN_BITS) | ODD_BITS) & EVEN_BITS;
    u128 k = k0 | (k1 << 1);
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
        x[v] = _mm512_mask_add_epi64(x[v], (__mmask8)(uint8_t)(k >> (8 * v)), x[v], one);
        x[v] = _mm512_and_si512(x[v], mask);
    }
}

/* The body of amm_x2 for L digits per lane in W vectors (constants after
 * inlining). */
IFMA_INLINE void amm_x2_body(d52x2 *r, const d52x2 *a, const d52x2 *b, const mod_x2 *mod,
                             size_t L, size_t W) {
    __m512i A[MAXW], M[MAXW], X[MAXW];
    const __m512i zero = _mm512_setzero_si512();
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
        A[v] = _mm512_load_si512((const void *)(a->d + 8 * v));
        M[v] = _mm512_load_si512((const void *)(mod->m.d + 8 * v));
        X[v] = zero;
    }
    /* The digit-0 and digit-1 products with a of every step, for the
     * scalar part: la[2i + l] = lo52(a_0 b_i) and sa[2i + l] = lo52(a_1 b_i)
     * + hi52(a_0 b_i) in lane l, computed on vectors of the digits of b. */
    _Alignas(64) uint64_t la[MAXW * 8], sa[MAXW * 8];
    {
        const __m512i A0 = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)a->d));
        const __m512i A1 = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(a->d + 2)));
        _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
            const __m512i Bv = _mm512_load_si512((const void *)(b->d + 8 * v));
            _mm512_store_si512((void *)(la + 8 * v), _mm512_madd52lo_epu64(zero, Bv, A0));
            __m512i S = _mm512_madd52lo_epu64(zero, Bv, A1);
            S = _mm512_madd52hi_epu64(S, Bv, A0);
            _mm512_store_si512((void *)(sa + 8 * v), S);
        }
    }
    const uint64_t m00 = mod->m.d[0], m10 = mod->m.d[1], m01 = mod->m.d[2], m11 = mod->m.d[3];
    const uint64_t k00 = mod->k0[0], k10 = mod->k0[1];
    uint64_t s0 = 0, s1 = 0, c0 = 0, c1 = 0;
    for (size_t i = 0; i < L; i++) {
        /* (b_i of lane 0, b_i of lane 1) in every pair of words */
        const __m512i B = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(b->d + 2 * i)));
        /* digit 1 of both lanes before this step */
        const __m128i x1 = _mm512_extracti32x4_epi32(X[0], 1);
        const uint64_t e0 = (uint64_t)_mm_cvtsi128_si64(x1);
        const uint64_t e1 = (uint64_t)_mm_extract_epi64(x1, 1);
        const uint64_t t0 = s0 + c0 + la[2 * i];
        const uint64_t t1 = s1 + c1 + la[2 * i + 1];
        const uint64_t y0 = (t0 * k00) & D52_MASK;
        const uint64_t y1 = (t1 * k10) & D52_MASK;
        const __m512i Y = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)y0), 0xaa,
                                                 (long long)y1);
        const u128 my0 = (u128)m00 * y0, my1 = (u128)m10 * y1;
        c0 = (t0 + ((uint64_t)my0 & D52_MASK)) >> 52;
        c1 = (t1 + ((uint64_t)my1 & D52_MASK)) >> 52;
        /* the next digit 0: digit 1 plus the four products that reach it */
        s0 = e0 + sa[2 * i] + ((m01 * y0) & D52_MASK) + (uint64_t)(my0 >> 52);
        s1 = e1 + sa[2 * i + 1] + ((m11 * y1) & D52_MASK) + (uint64_t)(my1 >> 52);
        __m512i H[MAXW];
        _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
            __m512i P = _mm512_madd52lo_epu64(zero, A[v], B);
            H[v] = _mm512_madd52hi_epu64(zero, A[v], B);
            P = _mm512_madd52lo_epu64(P, M[v], Y);
            H[v] = _mm512_madd52hi_epu64(H[v], M[v], Y);
            X[v] = _mm512_add_epi64(X[v], P);
        }
        /* X >>= one digit (two words), then the high halves */
        _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
            X[v] = _mm512_alignr_epi64(v + 1 < W ? X[v + 1] : zero, X[v], 2);
            X[v] = _mm512_add_epi64(X[v], H[v]);
        }
    }
    /* the carries out of the last digit 0 */
    X[0] = _mm512_add_epi64(X[0], _mm512_maskz_set1_epi64(1, (long long)c0));
    X[0] = _mm512_add_epi64(X[0], _mm512_maskz_set1_epi64(2, (long long)c1));
    normalise(X, W);
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
        _mm512_store_si512((void *)(r->d + 8 * v), X[v]);
        _mm512_store_si512((void *)(la + 8 * v), zero);
        _mm512_store_si512((void *)(sa + 8 * v), zero);
    }
    __asm__ __volatile__("" : : "r"(la), "r"(sa) : "memory"); /* keep the wipes */
}

#define AMM_X2_INSTANCE(L_, W_)                                                             \
    IFMA_TARGET static void amm_x2_##L_(d52x2 *r, const d52x2 *a, const d52x2 *b,           \
                                        const mod_x2 *mod) {                                \
        amm_x2_body(r, a, b, mod, L_, W_);                                                  \
    }

AMM_X2_INSTANCE(10, 3)
AMM_X2_INSTANCE(20, 5)
AMM_X2_INSTANCE(30, 8)
AMM_X2_INSTANCE(40, 10)

/* r = entry idx0 of the table in lane 0 and entry idx1 in lane 1 (secret
 * indices), reading every entry: each is combined under a mask that is
 * all-ones or all-zeros per lane (r |= t & mask, one VPTERNLOGQ). */
IFMA_INLINE void table_gather_body(d52x2 *r, const d52x2 *table, size_t entries,
                                   uint64_t idx0, uint64_t idx1, size_t W) {
    __m512i acc[MAXW];
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++)
        acc[v] = _mm512_setzero_si512();
    for (size_t i = 0; i < entries; i++) {
        const uint64_t k0 = quill_value_barrier_w(quill_ct_eq_mask(i, idx0));
        const uint64_t k1 = quill_value_barrier_w(quill_ct_eq_mask(i, idx1));
        const __m512i k = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)k0), 0xaa,
                                                 (long long)k1);
        _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++) {
            /* 0xf8: a | (b & c) */
            acc[v] = _mm512_ternarylogic_epi64(
                acc[v], _mm512_load_si512((const void *)(table[i].d + 8 * v)), k, 0xf8);
        }
    }
    _Pragma("GCC unroll 10") for (size_t v = 0; v < W; v++)
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

/* Lane l of r = the L digits of a (n limbs); public bit positions only. */
static void to_d52(d52x2 *r, int l, const quill_limb *a, size_t n, size_t L) {
    for (size_t j = 0; j < L; j++) {
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = 0;
        if (w < n)
            v = a[w] >> sh;
        if (sh > 12 && w + 1 < n)
            v |= a[w + 1] << (64 - sh);
        r->d[2 * j + (size_t)l] = v & D52_MASK;
    }
}

/* r (n limbs) = lane l of a (L normalised digits, value below 2^(64 n)). */
static void from_d52(quill_limb *r, size_t n, const d52x2 *a, int l, size_t L) {
    memset(r, 0, n * sizeof(quill_limb));
    for (size_t j = 0; j < L; j++) {
        uint64_t d = a->d[2 * j + (size_t)l];
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        if (w < n)
            r[w] |= d << sh;
        if (sh > 12 && w + 1 < n)
            r[w + 1] |= d >> (64 - sh);
    }
}

/* x = x * 2^count mod m (n limbs, x < m), by branch-free doublings. */
static void double_mod(quill_limb *x, const quill_limb *m, size_t n, unsigned count,
                       quill_limb *t, quill_limb *u) {
    for (unsigned k = 0; k < count; k++) {
        quill_limb carry = quill_bn_add(t, x, x, n);
        quill_limb borrow = quill_bn_sub(u, t, m, n);
        /* 2x >= m when the doubling carried out or t - m did not borrow */
        quill_word take_u = ((quill_word)0 - carry) | ~((quill_word)0 - borrow);
        quill_bn_select(x, take_u, u, t, n);
    }
}

/* Scratch of one exponentiation; 64-byte aligned, wiped before freeing. */
typedef struct {
    mod_x2 mod;
    d52x2 am;  /* a R' mod m (below 2m) */
    d52x2 acc; /* accumulator */
    d52x2 tmp; /* gathered entry, also a in radix 2^52 */
    d52x2 rr;  /* R'^2 mod m */
    d52x2 unit; /* the number 1 in both lanes */
    d52x2 table[1 << MAX_WINDOW];
    quill_limb limbs[3][QUILL_BN_MAX_LIMBS]; /* radix 2^64 scratch */
} ifma_ws;

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
    size_t L = (64 * n + 51) / 52;
    /* R'^2 = R^2 * 2^(104 L - 128 n) */
    unsigned doublings = (unsigned)(104 * L - 128 * n);
    amm_x2_fn amm = n == 8 ? amm_x2_10 : n == 16 ? amm_x2_20 : n == 24 ? amm_x2_30 : amm_x2_40;
    gather_fn gather = n == 8    ? table_gather_3
                       : n == 16 ? table_gather_5
                       : n == 24 ? table_gather_8
                                 : table_gather_10;

    ifma_ws *ws = aligned_alloc(64, sizeof(ifma_ws));
    if (ws == NULL)
        return 0;
    memset(ws, 0, sizeof(*ws));
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
    quill_limb *r[2] = {r0, r1};
    ws->unit.d[0] = 1;
    ws->unit.d[1] = 1;
    for (int l = 0; l < 2; l++) {
        to_d52(&ws->mod.m, l, mont[l]->m, n, L);
        ws->mod.k0[l] = mont[l]->n0 & D52_MASK;
        memcpy(ws->limbs[0], mont[l]->rr, n * sizeof(quill_limb));
        double_mod(ws->limbs[0], mont[l]->m, n, doublings, ws->limbs[1], ws->limbs[2]);
        to_d52(&ws->rr, l, ws->limbs[0], n, L);
        to_d52(&ws->tmp, l, a[l], n, L);
    }
    const mod_x2 *mod = &ws->mod;
    d52x2 *table = ws->table;

    /* am = a R'^2 R'^-1 = a R'; entry 0 = R'^2 * 1 * R'^-1 = R' (one);
     * entry i = a^i R' */
    amm(&ws->am, &ws->tmp, &ws->rr, mod);
    amm(&table[0], &ws->rr, &ws->unit, mod);
    unsigned w = quill_exp_consttime_window(64 * e_limbs);
    size_t entries = (size_t)1 << w;
    table[1] = ws->am;
    for (size_t i = 2; i < entries; i++)
        amm(&table[i], &table[i - 1], &ws->am, mod);

    /* Left to right over windows of w bits; the top window may be short. */
    size_t bits = 64 * e_limbs, windows = (bits + w - 1) / w;
    size_t pos = (windows - 1) * w;
    gather(&ws->acc, table, entries, quill_exp_bits(e[0], e_limbs, pos, w),
           quill_exp_bits(e[1], e_limbs, pos, w));
    while (pos > 0) {
        pos -= w;
        for (unsigned k = 0; k < w; k++)
            amm(&ws->acc, &ws->acc, &ws->acc, mod);
        gather(&ws->tmp, table, entries, quill_exp_bits(e[0], e_limbs, pos, w),
               quill_exp_bits(e[1], e_limbs, pos, w));
        amm(&ws->acc, &ws->acc, &ws->tmp, mod);
    }
    /* out of the Montgomery domain: amm(x, 1) <= m; then subtract m once if
     * it is m itself */
    amm(&ws->acc, &ws->acc, &ws->unit, mod);
    for (int l = 0; l < 2; l++) {
        from_d52(ws->limbs[0], n, &ws->acc, l, L);
        quill_limb borrow = quill_bn_sub(ws->limbs[1], ws->limbs[0], mont[l]->m, n);
        quill_bn_select(r[l], (quill_word)0 - borrow, ws->limbs[0], ws->limbs[1], n);
    }
    quill_zeroize(ws, sizeof(*ws));
    free(ws);
    return 1;
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

#endif
