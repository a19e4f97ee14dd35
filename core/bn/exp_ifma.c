/* Copyright quill authors.
 *
 * Two-way constant-time exponentiation with AVX-512 IFMA (see exp_ifma.h).
 *
 * Representation.  A number below 2^(52 L) is L digits of 52 bits, one per
 * 64-bit lane, zero-padded to V vectors of 8 lanes (V = ceil((L + 1) / 8):
 * one spare digit for the top of the high products).  For moduli of n
 * 64-bit limbs, L = ceil(64 n / 52): n = 8, 16, 24, 32 give L = 10, 20, 30,
 * 40.  R' = 2^(52 L).
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
 * One step i of amm, per lane, with B = b_i and X the accumulator (digits
 * lazily carried: each lane holds up to 64 bits):
 *   t   = X_0 + c + lo52(a_0 b_i)        (scalar: the digit-0 column)
 *   y   = t k0 mod 2^52                  (so that t + lo52(m_0 y) = 0 mod 2^52)
 *   c   = (t + lo52(m_0 y)) >> 52        (the carry out of digit 0)
 *   X  += lo52(a b_i) + hi52(a' b_i) + lo52(m y) + hi52(m' y)   (vectors)
 *   X >>= one digit
 * where a' and m' are a and m moved up by one digit (the high half of the
 * product of digit j belongs to digit j + 1, so it is accumulated before the
 * shift).  Vector digit 0 is never read: the scalar t and c stand for it.
 * A digit receives at most 4 products of 52 bits per step during L steps
 * plus carries below 2^12, under 4 * 40 * 2^52 + 2^12 < 2^60: no overflow.
 * At the end the carries are propagated (normalise) so that the digits are
 * again below 2^52, as VPMADD52 reads only the low 52 bits of its inputs.
 *
 * The two lanes (the CRT halves mod p and mod q) run interleaved in one
 * loop: their dependency chains (the scalar y of each step) are
 * independent, so each fills the other's latency.
 *
 * Constant time.  No branch and no memory address depends on a secret:
 * - amm and normalise are straight-line for a given (L, V); the scalar
 *   steps are multiplications, additions and shifts; the carry propagation
 *   turns the per-digit "generate" and "propagate" conditions into opmasks
 *   (VPCMPUQ) and integers and applies the carries with a masked add, whose
 *   timing does not depend on the mask;
 * - the window table is read whole on every lookup, entries selected with
 *   an all-ones / all-zeros mask from quill_ct_eq_mask behind a value
 *   barrier (table_gather_x2_body);
 * - exponent windows are extracted at public bit positions (exp_window);
 * - the conversions between radix 2^64 and 2^52 move bits at public
 *   positions; R'^2 mod m comes from R^2 mod m by branch-free doublings.
 * Memory holding secrets (table, accumulators, digits of the moduli) is
 * wiped before it is freed or goes out of scope. */
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
/* Largest vector count: L = 40 digits plus the spare one, 8 per vector. */
#define MAXV 6
#define MAX_WINDOW 5

/* A number in radix 2^52, zero-padded. */
typedef struct {
    _Alignas(64) uint64_t d[MAXV * 8];
} d52;

/* One lane's modulus: digits of m and k0 = -m^-1 mod 2^52. */
typedef struct {
    d52 m;
    uint64_t k0;
} lane_mod;

/* amm on both lanes: r_l = amm(a_l, b_l) for lanes 0 and 1 (inputs below
 * 2 m_l, normalised digits; output likewise).  r_l may alias a_l or b_l. */
typedef void (*amm_x2_fn)(d52 *r0, const d52 *a0, const d52 *b0, const lane_mod *p0,
                          d52 *r1, const d52 *a1, const d52 *b1, const lane_mod *p1);

/* The digits of X one position up: lane k of vector v gets digit
 * 8 v + k - 1 (zero for digit -1). */
IFMA_INLINE void shift_up(__m512i *out, const __m512i *in, size_t V) {
    const __m512i zero = _mm512_setzero_si512();
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++)
        out[v] = _mm512_alignr_epi64(in[v], v > 0 ? in[v - 1] : zero, 7);
}

/* X >>= one digit (the top lane of the last vector becomes zero). */
IFMA_INLINE void shift_down(__m512i *x, size_t V) {
    const __m512i zero = _mm512_setzero_si512();
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++)
        x[v] = _mm512_alignr_epi64(v + 1 < V ? x[v + 1] : zero, x[v], 1);
}

/* normalise: digits of up to 60 bits (value below 2^(52 * 8 V)) to digits
 * of 52 bits.  One carry round leaves digits below 2^52 + 2^12, after which
 * a carry out of digit j is 1 exactly when digit j >= 2^52 ("generate",
 * bit j of g) or digit j = 2^52 - 1 ("propagate", bit j of p) with a carry
 * in.  These are the carries of the binary addition g + (g | p) = 2g + p
 * (g and p are disjoint), so the carries in are (2g + p) ^ p; they are
 * added with a masked add and the digits masked to 52 bits. */
IFMA_INLINE void normalise(__m512i *x, size_t V) {
    const __m512i mask = _mm512_set1_epi64((long long)D52_MASK);
    const __m512i one = _mm512_set1_epi64(1);
    __m512i c[MAXV], cu[MAXV];
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        c[v] = _mm512_srli_epi64(x[v], 52);
        x[v] = _mm512_and_si512(x[v], mask);
    }
    shift_up(cu, c, V);
    uint64_t g = 0, p = 0;
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        x[v] = _mm512_add_epi64(x[v], cu[v]);
        g |= (uint64_t)_mm512_cmpgt_epu64_mask(x[v], mask) << (8 * v);
        p |= (uint64_t)_mm512_cmpeq_epu64_mask(x[v], mask) << (8 * v);
    }
    uint64_t k = ((g << 1) + p) ^ p;
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        x[v] = _mm512_mask_add_epi64(x[v], (__mmask8)(k >> (8 * v)), x[v], one);
        x[v] = _mm512_and_si512(x[v], mask);
    }
}

/* The body of amm_x2 for L digits in V vectors (constants after
 * inlining). */
IFMA_INLINE void amm_x2_body(d52 *r0, const d52 *a0, const d52 *b0, const lane_mod *p0,
                             d52 *r1, const d52 *a1, const d52 *b1, const lane_mod *p1,
                             size_t L, size_t V) {
    __m512i A0[MAXV], A1[MAXV], As0[MAXV], As1[MAXV];
    __m512i M0[MAXV], M1[MAXV], Ms0[MAXV], Ms1[MAXV];
    __m512i X0[MAXV], X1[MAXV];
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        A0[v] = _mm512_load_si512((const void *)(a0->d + 8 * v));
        A1[v] = _mm512_load_si512((const void *)(a1->d + 8 * v));
        M0[v] = _mm512_load_si512((const void *)(p0->m.d + 8 * v));
        M1[v] = _mm512_load_si512((const void *)(p1->m.d + 8 * v));
        X0[v] = _mm512_setzero_si512();
        X1[v] = _mm512_setzero_si512();
    }
    shift_up(As0, A0, V);
    shift_up(As1, A1, V);
    shift_up(Ms0, M0, V);
    shift_up(Ms1, M1, V);
    const uint64_t a00 = a0->d[0], a10 = a1->d[0];
    const uint64_t m00 = p0->m.d[0], m10 = p1->m.d[0];
    const uint64_t m01 = p0->m.d[1], m11 = p1->m.d[1];
    const uint64_t k00 = p0->k0, k10 = p1->k0;
    const __m512i zero = _mm512_setzero_si512();
    uint64_t s0 = 0, s1 = 0, c0 = 0, c1 = 0;
    for (size_t i = 0; i < L; i++) {
        const uint64_t bi0 = b0->d[i], bi1 = b1->d[i];
        const __m512i B0 = _mm512_set1_epi64((long long)bi0);
        const __m512i B1 = _mm512_set1_epi64((long long)bi1);
        /* X += lo(a b_i) + hi(a' b_i): the products are summed apart from X
         * (they do not depend on it) so that the chain through X is short */
        _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
            __m512i P0 = _mm512_madd52lo_epu64(zero, A0[v], B0);
            __m512i P1 = _mm512_madd52lo_epu64(zero, A1[v], B1);
            P0 = _mm512_madd52hi_epu64(P0, As0[v], B0);
            P1 = _mm512_madd52hi_epu64(P1, As1[v], B1);
            X0[v] = _mm512_add_epi64(X0[v], P0);
            X1[v] = _mm512_add_epi64(X1[v], P1);
        }
        /* digit 1 before the m y products; those it gets, lo52(m_1 y) and
         * hi52(m_0 y), are added in scalar below */
        const uint64_t e0 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(X0[0]), 1);
        const uint64_t e1 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(X1[0]), 1);
        const uint64_t t0 = s0 + c0 + ((a00 * bi0) & D52_MASK);
        const uint64_t t1 = s1 + c1 + ((a10 * bi1) & D52_MASK);
        const uint64_t y0 = (t0 * k00) & D52_MASK;
        const uint64_t y1 = (t1 * k10) & D52_MASK;
        const __m512i Y0 = _mm512_set1_epi64((long long)y0);
        const __m512i Y1 = _mm512_set1_epi64((long long)y1);
        c0 = (t0 + ((m00 * y0) & D52_MASK)) >> 52;
        c1 = (t1 + ((m10 * y1) & D52_MASK)) >> 52;
        s0 = e0 + ((m01 * y0) & D52_MASK) + (uint64_t)(((quill_dlimb)m00 * y0) >> 52);
        s1 = e1 + ((m11 * y1) & D52_MASK) + (uint64_t)(((quill_dlimb)m10 * y1) >> 52);
        /* X += lo(m y) + hi(m' y), then X >>= one digit */
        _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
            __m512i Q0 = _mm512_madd52lo_epu64(zero, M0[v], Y0);
            __m512i Q1 = _mm512_madd52lo_epu64(zero, M1[v], Y1);
            Q0 = _mm512_madd52hi_epu64(Q0, Ms0[v], Y0);
            Q1 = _mm512_madd52hi_epu64(Q1, Ms1[v], Y1);
            X0[v] = _mm512_add_epi64(X0[v], Q0);
            X1[v] = _mm512_add_epi64(X1[v], Q1);
        }
        shift_down(X0, V);
        shift_down(X1, V);
    }
    /* the carry out of the last digit 0 */
    X0[0] = _mm512_add_epi64(X0[0], _mm512_maskz_set1_epi64(1, (long long)c0));
    X1[0] = _mm512_add_epi64(X1[0], _mm512_maskz_set1_epi64(1, (long long)c1));
    normalise(X0, V);
    normalise(X1, V);
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        _mm512_store_si512((void *)(r0->d + 8 * v), X0[v]);
        _mm512_store_si512((void *)(r1->d + 8 * v), X1[v]);
    }
    /* Registers holding secrets die here; the compiler may have spilled some
     * of them to this frame, which the next call overwrites (the caller's
     * buffers are wiped at the end of the exponentiation). */
}

#define AMM_X2_INSTANCE(L_, V_)                                                             \
    IFMA_TARGET static void amm_x2_##L_(d52 *r0, const d52 *a0, const d52 *b0,              \
                                        const lane_mod *p0, d52 *r1, const d52 *a1,         \
                                        const d52 *b1, const lane_mod *p1) {                \
        amm_x2_body(r0, a0, b0, p0, r1, a1, b1, p1, L_, V_);                                \
    }

AMM_X2_INSTANCE(10, 2)
AMM_X2_INSTANCE(20, 3)
AMM_X2_INSTANCE(30, 4)
AMM_X2_INSTANCE(40, 6)

/* r_l = entry idx_l (secret) of table_l, for both lanes, reading every
 * entry: each is combined under an all-ones or all-zeros mask (r |= t &
 * mask in one VPTERNLOGQ). */
IFMA_INLINE void table_gather_x2_body(d52 *r0, d52 *r1, const d52 *t0, const d52 *t1,
                                      size_t entries, uint64_t idx0, uint64_t idx1, size_t V) {
    __m512i acc0[MAXV], acc1[MAXV];
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        acc0[v] = _mm512_setzero_si512();
        acc1[v] = _mm512_setzero_si512();
    }
    for (size_t i = 0; i < entries; i++) {
        const __m512i k0 =
            _mm512_set1_epi64((long long)quill_value_barrier_w(quill_ct_eq_mask(i, idx0)));
        const __m512i k1 =
            _mm512_set1_epi64((long long)quill_value_barrier_w(quill_ct_eq_mask(i, idx1)));
        _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
            /* 0xf8: a | (b & c) */
            acc0[v] = _mm512_ternarylogic_epi64(
                acc0[v], _mm512_load_si512((const void *)(t0[i].d + 8 * v)), k0, 0xf8);
            acc1[v] = _mm512_ternarylogic_epi64(
                acc1[v], _mm512_load_si512((const void *)(t1[i].d + 8 * v)), k1, 0xf8);
        }
    }
    _Pragma("GCC unroll 8") for (size_t v = 0; v < V; v++) {
        _mm512_store_si512((void *)(r0->d + 8 * v), acc0[v]);
        _mm512_store_si512((void *)(r1->d + 8 * v), acc1[v]);
    }
}

typedef void (*gather_x2_fn)(d52 *r0, d52 *r1, const d52 *t0, const d52 *t1, size_t entries,
                             uint64_t idx0, uint64_t idx1);

#define GATHER_X2_INSTANCE(V_)                                                              \
    IFMA_TARGET static void table_gather_x2_##V_(d52 *r0, d52 *r1, const d52 *t0,           \
                                                 const d52 *t1, size_t entries,             \
                                                 uint64_t idx0, uint64_t idx1) {            \
        table_gather_x2_body(r0, r1, t0, t1, entries, idx0, idx1, V_);                      \
    }

GATHER_X2_INSTANCE(2)
GATHER_X2_INSTANCE(3)
GATHER_X2_INSTANCE(4)
GATHER_X2_INSTANCE(6)

/* r = the L digits of a (n limbs); public bit positions only. */
static void to_d52(d52 *r, const quill_limb *a, size_t n, size_t L) {
    memset(r, 0, sizeof(*r));
    for (size_t j = 0; j < L; j++) {
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = 0;
        if (w < n)
            v = a[w] >> sh;
        if (sh > 12 && w + 1 < n)
            v |= a[w + 1] << (64 - sh);
        r->d[j] = v & D52_MASK;
    }
}

/* r (n limbs) = a (L normalised digits, value below 2^(64 n)). */
static void from_d52(quill_limb *r, size_t n, const d52 *a, size_t L) {
    memset(r, 0, n * sizeof(quill_limb));
    for (size_t j = 0; j < L; j++) {
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        if (w < n)
            r[w] |= a->d[j] << sh;
        if (sh > 12 && w + 1 < n)
            r[w + 1] |= a->d[j] >> (64 - sh);
    }
}

/* Bits [pos, pos + w) of e (e_limbs limbs), zero beyond the top; pos and w
 * are public, the value secret. */
static uint64_t exp_window(const quill_limb *e, size_t e_limbs, size_t pos, unsigned w) {
    size_t word = pos / 64, shift = pos % 64;
    uint64_t v = 0;
    if (word < e_limbs)
        v = e[word] >> shift;
    if (shift + w > 64 && word + 1 < e_limbs)
        v |= e[word + 1] << (64 - shift);
    return v & (((uint64_t)1 << w) - 1);
}

/* The same window widths as the portable path (the result does not depend
 * on them). */
static unsigned window_bits(size_t bits) {
    if (bits > 768)
        return 5;
    if (bits > 160)
        return 4;
    if (bits > 24)
        return 3;
    return 1;
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
    lane_mod mod[2];
    d52 am[2];  /* a R' mod m (below 2m) */
    d52 acc[2]; /* accumulator */
    d52 tmp[2]; /* gathered entry, also a and R'^2 in radix 2^52 */
    d52 unit;   /* the number 1 */
    d52 table[2][1 << MAX_WINDOW];
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
    gather_x2_fn gather = n == 8    ? table_gather_x2_2
                          : n == 16 ? table_gather_x2_3
                          : n == 24 ? table_gather_x2_4
                                    : table_gather_x2_6;

    ifma_ws *ws = aligned_alloc(64, sizeof(ifma_ws));
    if (ws == NULL)
        return 0;
    memset(ws, 0, sizeof(*ws));
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
    quill_limb *r[2] = {r0, r1};
    ws->unit.d[0] = 1;
    for (int l = 0; l < 2; l++) {
        to_d52(&ws->mod[l].m, mont[l]->m, n, L);
        ws->mod[l].k0 = mont[l]->n0 & D52_MASK;
        /* acc = R'^2 mod m, tmp = a, both in radix 2^52 */
        memcpy(ws->limbs[0], mont[l]->rr, n * sizeof(quill_limb));
        double_mod(ws->limbs[0], mont[l]->m, n, doublings, ws->limbs[1], ws->limbs[2]);
        to_d52(&ws->acc[l], ws->limbs[0], n, L);
        to_d52(&ws->tmp[l], a[l], n, L);
    }
    const lane_mod *p0 = &ws->mod[0], *p1 = &ws->mod[1];
    d52 *t0 = ws->table[0], *t1 = ws->table[1];

    /* am = a R'^2 R'^-1 = a R'; entry 0 = R'^2 * 1 * R'^-1 = R' (one);
     * entry i = a^i R' */
    amm(&ws->am[0], &ws->tmp[0], &ws->acc[0], p0, &ws->am[1], &ws->tmp[1], &ws->acc[1], p1);
    amm(&t0[0], &ws->acc[0], &ws->unit, p0, &t1[0], &ws->acc[1], &ws->unit, p1);
    unsigned w = window_bits(64 * e_limbs);
    size_t entries = (size_t)1 << w;
    t0[1] = ws->am[0];
    t1[1] = ws->am[1];
    for (size_t i = 2; i < entries; i++)
        amm(&t0[i], &t0[i - 1], &ws->am[0], p0, &t1[i], &t1[i - 1], &ws->am[1], p1);

    /* Left to right over windows of w bits; the top window may be short. */
    size_t bits = 64 * e_limbs, windows = (bits + w - 1) / w;
    size_t pos = (windows - 1) * w;
    gather(&ws->acc[0], &ws->acc[1], t0, t1, entries, exp_window(e[0], e_limbs, pos, w),
           exp_window(e[1], e_limbs, pos, w));
    while (pos > 0) {
        pos -= w;
        for (unsigned k = 0; k < w; k++)
            amm(&ws->acc[0], &ws->acc[0], &ws->acc[0], p0, &ws->acc[1], &ws->acc[1],
                &ws->acc[1], p1);
        gather(&ws->tmp[0], &ws->tmp[1], t0, t1, entries, exp_window(e[0], e_limbs, pos, w),
               exp_window(e[1], e_limbs, pos, w));
        amm(&ws->acc[0], &ws->acc[0], &ws->tmp[0], p0, &ws->acc[1], &ws->acc[1], &ws->tmp[1],
            p1);
    }
    /* out of the Montgomery domain: amm(x, 1) <= m; then subtract m once if
     * it is m itself */
    amm(&ws->acc[0], &ws->acc[0], &ws->unit, p0, &ws->acc[1], &ws->acc[1], &ws->unit, p1);
    for (int l = 0; l < 2; l++) {
        from_d52(ws->limbs[0], n, &ws->acc[l], L);
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
