/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_d27_ab: an experiment of issue 24 (docs/limits.md, "A one-lane
 * radix-2^27 AVX2 squaring for verification").  A one-lane 2048-bit
 * Montgomery squaring for public operands in radix 2^27 with AVX2 VPMULUDQ
 * (76 digits, R = 2^2052, four digits of one number per vector, columns
 * summed in 64-bit lanes, the multiplicand stored reversed so that one
 * multiplier vector times a loaded window adds four products of the same
 * column), checked against OpenSSL's BN and timed against
 * quill_mont_sqr_adx_public_32 in the same process.  Not a test; needs
 * AVX2, BMI2 and ADX.
 *
 *   mont_d27_ab [ROUNDS]     (default 31, at most 201)
 *   mont_d27_ab count        (1,000 calls of each, for callgrind's counts)
 *
 * Layout.  x[0..75] digits of 27 bits (x_k may reach 2^28 + 2^10 after one
 * carry pass), 19 vectors.  Column k of a b: the multiplier vector s
 * (a_4s .. a_4s+3) times the window (b_k-4s, .., b_k-4s-3), read at
 * brev + Z + 75 - k + 4s from brev[Z + 75 - j] = b_j with zeros around it.
 * Eight columns per block in registers, the multiplier vector loaded once
 * per block step; four lanes per column added at the end (8 instructions
 * per four columns).  The squaring forms each cross product once (the
 * doubled copy 2a reversed; the vector on the diagonal by masks).
 * Reduction as the two-way kernels: U = (T mod R) N' mod R (a low half
 * product), then the columns of U m from 72 up; T + U m = 0 mod R and its
 * carry into column 76 is ceil((w_75 2^27 + w_74) / 2^54).  Carries by one
 * parallel pass: each 64-bit column split in three 27-bit parts for the
 * digit and its next two (unaligned loads line them up).  Bounds: digits
 * < 2^28 + 2^10, products < 2^56.0001, a column of T (squaring: the doubled
 * half) < 2^62.3, of U m < 2^61.3: w_k < 2^63.  Inputs below 2^2051 give
 * outputs below (2^2051 / 2 + 2.01 m) < 0.76 2^2051 (almost Montgomery).
 * Variable time in nothing but the modulus-independent loop bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <immintrin.h>
#include <x86intrin.h>

#include <openssl/bn.h>

#include "bn/mont_adx.h"
#include "common/cpu.h"

#define D 76    /* digits */
#define Z 16    /* zero words before a reversed operand */
#define RW 112  /* words of a reversed operand: Z + 76 + 20 */
#define M27 ((1ull << 27) - 1)

/* A reversed operand in four shifted copies, cp[o RW + x] = brev[x + o], so
 * that every window is an aligned load. */
typedef struct __attribute__((aligned(32))) d27_mod {
    uint64_t mrev[4 * RW];  /* m reversed */
    uint64_t nprev[4 * RW]; /* N' = -m^-1 mod R reversed */
} d27_mod;

#define TGT __attribute__((target("avx2")))
#define INL __attribute__((target("avx2"), always_inline)) static inline

/* Four column sums of c0..c3 in one vector (lane q = sum of c_q's lanes). */
INL __m256i hsum4(__m256i c0, __m256i c1, __m256i c2, __m256i c3) {
    __m256i t0 = _mm256_add_epi64(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
    __m256i t1 = _mm256_add_epi64(_mm256_unpacklo_epi64(c2, c3), _mm256_unpackhi_epi64(c2, c3));
    return _mm256_add_epi64(_mm256_permute2x128_si256(t0, t1, 0x20),
                            _mm256_permute2x128_si256(t0, t1, 0x31));
}

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define MAC(c, A, p) c = _mm256_add_epi64(c, _mm256_mul_epu32(A, LD(p)))

/* The window at brev + base, in the shifted copies cp. */
#define WIN(cp, base) ((cp) + ((base)&3) * RW + ((base) & ~3))

/* Columns k0 .. k0+7 of a b, multiplier vectors s0 .. s1 - 1 of a, added to
 * c[0..7]; E = (Z + 68 - k0) & 3 known at compile time. */
INL void cols8(__m256i c[8], const uint64_t *a, const uint64_t *cp, int k0, int s0, int s1,
               const int E, int lead, int trail) {
    __m256i c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5], c6 = c[6],
            c7 = c[7];
    const uint64_t *w = cp + (((Z + 68 - k0) & ~3) + 4 * s0);
    const uint64_t *ap = a + 4 * s0;
#define AL(q) (((E + (q)) & 3) * RW + ((E + (q)) & ~3))
#define WL(q) _mm256_load_si256((const __m256i *)(w + AL(q)))
#define MACR(c, W) c = _mm256_add_epi64(c, _mm256_mul_epu32(A, W)); __asm__("" : "+x"(c))
    /* step s's windows 4..7 are step s + 1's windows 0..3: kept in W0..W3 */
    __m256i W0, W1, W2, W3;
    if (lead) { /* vector s0 for columns k0 .. k0+3 only */
        __m256i A = _mm256_load_si256((const __m256i *)ap);
        W0 = WL(4);
        MACR(c3, W0);
        W1 = WL(5);
        MACR(c2, W1);
        W2 = WL(6);
        MACR(c1, W2);
        W3 = WL(7);
        MACR(c0, W3);
        w += 4, ap += 4, s0++;
    } else {
        W0 = WL(0), W1 = WL(1), W2 = WL(2), W3 = WL(3);
    }
    if (trail) /* vector s1 - 1 for columns k0+4 .. k0+7 only */
        s1--;
    for (int s = s0; s < s1; s++, w += 4, ap += 4) {
        __m256i A = _mm256_load_si256((const __m256i *)ap);
        MACR(c7, W0);
        MACR(c6, W1);
        MACR(c5, W2);
        MACR(c4, W3);
        W0 = WL(4);
        MACR(c3, W0);
        W1 = WL(5);
        MACR(c2, W1);
        W2 = WL(6);
        MACR(c1, W2);
        W3 = WL(7);
        MACR(c0, W3);
    }
    if (trail) {
        __m256i A = _mm256_load_si256((const __m256i *)ap);
        MACR(c7, W0);
        MACR(c6, W1);
        MACR(c5, W2);
        MACR(c4, W3);
    }
#undef WL
#undef MACR
#undef AL
    c[0] = c0, c[1] = c1, c[2] = c2, c[3] = c3, c[4] = c4, c[5] = c5, c[6] = c6, c[7] = c7;
}

/* k0 = 0 mod 8 everywhere, so that E = 0. */
INL void cols8_any(__m256i c[8], const uint64_t *a, const uint64_t *cp, int k0, int s0, int s1,
                   int lead, int trail) {
    if (s1 <= s0)
        return;
    cols8(c, a, cp, k0, s0, s1, 0, lead, trail);
}

INL void store8(uint64_t *out, __m256i c[8], const uint64_t *add) {
    __m256i lo = hsum4(c[0], c[1], c[2], c[3]), hi = hsum4(c[4], c[5], c[6], c[7]);
    if (add) {
        lo = _mm256_add_epi64(lo, _mm256_load_si256((const __m256i *)add));
        hi = _mm256_add_epi64(hi, _mm256_load_si256((const __m256i *)(add + 4)));
    }
    _mm256_store_si256((__m256i *)out, lo);
    _mm256_store_si256((__m256i *)(out + 4), hi);
}

INL void block8(uint64_t *out, const uint64_t *a, const uint64_t *cp, int k0, int s0, int s1,
                int lead, int trail, const uint64_t *add) {
    __m256i c[8];
    for (int q = 0; q < 8; q++)
        c[q] = _mm256_setzero_si256();
    cols8_any(c, a, cp, k0, s0, s1, lead, trail);
    store8(out, c, add);
}

/* Columns k0 .. k0+3 of a b (the windows 4..7 of cols8). */
INL __m256i block4(const uint64_t *a, const uint64_t *cp, int k0, int s0, int s1) {
    __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;
    const uint64_t *w = cp + (((Z + 68 - k0) & ~3) + 4 * s0);
    const uint64_t *ap = a + 4 * s0;
    for (int s = s0; s < s1; s++, w += 4, ap += 4) {
        __m256i A = _mm256_load_si256((const __m256i *)ap);
        MAC(c3, A, w + 0 * RW + 4);
        MAC(c2, A, w + 1 * RW + 4);
        MAC(c1, A, w + 2 * RW + 4);
        MAC(c0, A, w + 3 * RW + 4);
    }
    return hsum4(c0, c1, c2, c3);
}

/* The masks of the vector on the diagonal: r = k - 8s, lane l holds
 * i = 4s + l, j = k - i; lt: i < j (2l < r), eq: i = j (2l = r). */
static const uint64_t diag_lt[8][4] __attribute__((aligned(32))) = {
    {0, 0, 0, 0}, {~0ull, 0, 0, 0}, {~0ull, 0, 0, 0}, {~0ull, ~0ull, 0, 0},
    {~0ull, ~0ull, 0, 0}, {~0ull, ~0ull, ~0ull, 0}, {~0ull, ~0ull, ~0ull, 0},
    {~0ull, ~0ull, ~0ull, ~0ull}};

/* Columns k0 .. k0+7 (k0 = 8t) of the cross products 2 a_i a_j, i < j (cp:
 * 2a reversed, shifted copies): the vectors s < t whole (every lane has
 * i < j), then vector t (i = 8t + l, j = k0 + q - i) masked to 2l < q.  The
 * squares a_i^2 (sq) in column 2i. */
INL void sqr_block8(uint64_t *out, const uint64_t *a, const uint64_t *cp, int k0,
                    const uint64_t *sq) {
    int t = k0 / 8;
    int s0 = k0 >= 76 ? (k0 - 76) / 4 : 0; /* column k0 needs i >= k0 - 75 */
    __m256i c[8];
    for (int q = 0; q < 8; q++)
        c[q] = _mm256_setzero_si256();
    if (t > s0)
        cols8(c, a, cp, k0, s0, t, 0, k0 >= 80, 0);
    {
        __m256i A = _mm256_load_si256((const __m256i *)(a + 4 * t));
        /* the window of column k0 + q at vector t: brev + Z + 75 - k0 - q + 4t,
         * Z + 75 - 4t = 3 mod 4 */
        const uint64_t *w = cp + (Z + 72 - 4 * t);
#define DG(q)                                                                              \
    c[q] = _mm256_add_epi64(                                                               \
        c[q], _mm256_mul_epu32(                                                            \
                  _mm256_and_si256(A, _mm256_load_si256((const __m256i *)diag_lt[q])),     \
                  _mm256_load_si256((const __m256i *)(w + ((3 - (q)) & 3) * RW +           \
                                                      ((3 - (q)) & ~3)))))
        DG(1);
        DG(2);
        DG(3);
        DG(4);
        DG(5);
        DG(6);
        DG(7);
#undef DG
    }
    /* squares: a_i^2 in column 2i; k0 = 8t holds those of vector t */
    __m256i lo = hsum4(c[0], c[1], c[2], c[3]), hi = hsum4(c[4], c[5], c[6], c[7]);
    if (k0 / 8 < 19) {
        __m256i q = _mm256_load_si256((const __m256i *)(sq + k0 / 2));
        lo = _mm256_add_epi64(lo, _mm256_blend_epi32(_mm256_permute4x64_epi64(q, 0x50),
                                                     _mm256_setzero_si256(), 0xCC));
        hi = _mm256_add_epi64(hi, _mm256_blend_epi32(_mm256_permute4x64_epi64(q, 0xFA),
                                                     _mm256_setzero_si256(), 0xCC));
    }
    _mm256_store_si256((__m256i *)out, lo);
    _mm256_store_si256((__m256i *)(out + 4), hi);
}

/* d[4v ..] for v in [v0, v1): digits of the columns x (x[-1], x[-2] read,
 * zero or the columns below). */
INL void carry_pass(uint64_t *d, const uint64_t *x, int v0, int v1) {
    const __m256i m = _mm256_set1_epi64x((long long)M27);
    for (int v = v0; v < v1; v++) {
        __m256i l0 = LD(x + 4 * v), l1 = LD(x + 4 * v - 1), l2 = LD(x + 4 * v - 2);
        __m256i t = _mm256_add_epi64(_mm256_and_si256(l0, m),
                                     _mm256_and_si256(_mm256_srli_epi64(l1, 27), m));
        _mm256_store_si256((__m256i *)(d + 4 * v), _mm256_add_epi64(t, _mm256_srli_epi64(l2, 54)));
    }
}

/* r = a^2 R^-1 (almost: r < 0.76 2^2051 for a < 2^2051), r may alias a. */
TGT __attribute__((noinline)) static void mont_sqr_d27_public(uint64_t *r, const uint64_t *a,
                                                              const d27_mod *md) {
    uint64_t b2[4 * RW] __attribute__((aligned(32)));
    uint64_t sq[80] __attribute__((aligned(32)));
    uint64_t tc[8 + 160] __attribute__((aligned(32))); /* T's columns at tc + 8 */
    uint64_t td[160] __attribute__((aligned(32)));      /* T's digits */
    uint64_t uc[8 + 80] __attribute__((aligned(32)));   /* U's columns at uc + 8 */
    uint64_t ud[80] __attribute__((aligned(32)));
    uint64_t w[160] __attribute__((aligned(32)));
    const __m256i z = _mm256_setzero_si256();
    for (int i = 0; i < Z; i += 4)
        _mm256_store_si256((__m256i *)(b2 + i), z);
    for (int i = Z + 76; i < RW; i += 4)
        _mm256_store_si256((__m256i *)(b2 + i), z);
    for (int v = 0; v < 19; v++) {
        __m256i x = _mm256_load_si256((const __m256i *)(a + 4 * v));
        _mm256_store_si256((__m256i *)(sq + 4 * v), _mm256_mul_epu32(x, x));
        x = _mm256_permute4x64_epi64(x, 0x1B);
        _mm256_store_si256((__m256i *)(b2 + Z + 72 - 4 * v), _mm256_add_epi64(x, x));
    }
    /* the shifted copies from aligned loads of copy 0 (b2[RW..] read as 0) */
    for (int i = 0; i < RW; i += 4) {
        __m256i cur = _mm256_load_si256((const __m256i *)(b2 + i));
        __m256i nxt = i + 4 < RW ? _mm256_load_si256((const __m256i *)(b2 + i + 4)) : z;
        __m256i o2 = _mm256_permute2x128_si256(cur, nxt, 0x21);
        _mm256_store_si256((__m256i *)(b2 + RW + i), _mm256_alignr_epi8(o2, cur, 8));
        _mm256_store_si256((__m256i *)(b2 + 2 * RW + i), o2);
        _mm256_store_si256((__m256i *)(b2 + 3 * RW + i), _mm256_alignr_epi8(nxt, o2, 8));
    }
    /* T = a^2, columns 0..151 */
    _mm256_store_si256((__m256i *)tc, z);
    _mm256_store_si256((__m256i *)(tc + 4), z);
    _mm256_store_si256((__m256i *)(tc + 8 + 152), z);
    _mm256_store_si256((__m256i *)(tc + 8 + 156), z);
    for (int k0 = 0; k0 < 152; k0 += 8)
        sqr_block8(tc + 8 + k0, a, b2, k0, sq);
    /* Only T mod R is carried (U reads it); the upper columns (< 2^62.3) go
     * into w as they are, with the low part's carry out of columns 74, 75 */
    carry_pass(td, tc + 8, 0, 19); /* digits 0..75 */
    tc[8 + 76] += ((tc[8 + 75] >> 27) & M27) + (tc[8 + 74] >> 54);
    tc[8 + 77] += tc[8 + 75] >> 54;
    _mm256_store_si256((__m256i *)(tc + 8 + 72), _mm256_load_si256((const __m256i *)(td + 72)));
    /* U = (T mod R) N' mod R */
    _mm256_store_si256((__m256i *)(uc + 4), z);
    for (int k0 = 0; k0 < 72; k0 += 8)
        block8(uc + 8 + k0, td, md->nprev, k0, 0, k0 / 4 + 2, 0, 1, NULL);
    _mm256_store_si256((__m256i *)(uc + 8 + 72), block4(td, md->nprev, 72, 0, 19));
    carry_pass(ud, uc + 8, 0, 19);
    /* w = T + U m, columns 72..151 */
    for (int k0 = 72; k0 < 152; k0 += 8)
        block8(w + k0, ud, md->mrev, k0, k0 >= 76 ? (k0 - 76) / 4 : 0, 19, k0 >= 80, 0, tc + 8 + k0);
    unsigned __int128 lowc = ((unsigned __int128)w[75] << 27) + w[74];
    uint64_t c = (uint64_t)((lowc + ((1ull << 54) - 1)) >> 54);
    w[74] = 0;
    w[75] = 0;
    w[76] += c;
    _mm256_store_si256((__m256i *)(w + 152), z);
    _mm256_store_si256((__m256i *)(w + 156), z);
    carry_pass(r, w + 76, 0, 19);
}

/* ---- conversions and the reference ---- */

static void to_d27(uint64_t d[D], const quill_limb a[32]) {
    for (int k = 0; k < D; k++) {
        unsigned bit = 27u * (unsigned)k, w = bit / 64, o = bit % 64;
        uint64_t v = w < 32 ? a[w] >> o : 0;
        if (o > 37 && w + 1 < 32)
            v |= a[w + 1] << (64 - o);
        d[k] = v & M27;
    }
}

/* Exact value of d (digits may exceed 27 bits) as a BIGNUM. */
static void d27_to_bn(BIGNUM *x, const uint64_t d[D]) {
    BIGNUM *t = BN_new();
    BN_zero(x);
    for (int k = D - 1; k >= 0; k--) {
        BN_lshift(x, x, 27);
        BN_set_word(t, d[k]);
        BN_add(x, x, t);
    }
    BN_free(t);
}

static void bn_to_limbs(quill_limb *r, size_t n, const BIGNUM *x) {
    unsigned char buf[8 * 64];
    BN_bn2lebinpad(x, buf, (int)(8 * n));
    memcpy(r, buf, 8 * n);
}

static void rev_store(uint64_t rev[4 * RW], const uint64_t d[D]) {
    memset(rev, 0, 4 * RW * 8);
    for (int j = 0; j < D; j++)
        for (int o = 0; o < 4; o++)
            if (Z + 75 - j - o >= 0)
                rev[o * RW + Z + 75 - j - o] = d[j];
}

static uint64_t g = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) {
    g ^= g << 13;
    g ^= g >> 7;
    g ^= g << 17;
    return g;
}
static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static d27_mod md;
static quill_limb m[32], n0, xa[32];
static uint64_t xd[D] __attribute__((aligned(32)));

#define CALLS 16

static uint64_t run_adx(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        quill_mont_sqr_adx_public_32(xa, xa, m, n0, 32);
    return __rdtsc() - t0;
}
static uint64_t run_d27(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        mont_sqr_d27_public(xd, xd, &md);
    return __rdtsc() - t0;
}

int main(int argc, char **argv) {
    int count = argc > 1 && strcmp(argv[1], "count") == 0;
    int rounds = argc > 1 && !count ? atoi(argv[1]) : 31;
    if (rounds < 1 || rounds > 201)
        rounds = 31;
    if (!count && !quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX)) {
        printf("needs AVX2, BMI2 and ADX\n");
        return 77;
    }
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = BN_new(), *R = BN_new(), *Ri = BN_new(), *np = BN_new(), *x = BN_new(),
           *y = BN_new(), *t = BN_new();
    long checks = 0, fails = 0;
    uint64_t tmp[D];
    for (int key = 0; key < 20; key++) {
        for (int i = 0; i < 32; i++)
            m[i] = rnd();
        m[0] |= 1;
        m[31] |= 1ull << 63;
        if (key == 1)
            for (int i = 0; i < 32; i++) /* all-ones modulus */
                m[i] = ~0ull;
        BN_lebin2bn((const unsigned char *)m, 256, bm);
        BN_one(R);
        BN_lshift(R, R, 27 * D);
        BN_mod_inverse(Ri, bm, R, ctx); /* m^-1 mod R */
        BN_sub(np, R, Ri);
        BN_mod_inverse(Ri, R, bm, ctx); /* R^-1 mod m */
        quill_limb l[33];
        uint64_t dd[D];
        to_d27(dd, m);
        rev_store(md.mrev, dd);
        memset(l, 0, sizeof l);
        bn_to_limbs(l, 33, np);
        to_d27(dd, l);
        /* digit 75 of N' has bits 2025..2051: l[32] holds bits 2048.. */
        dd[75] = ((l[31] >> 41) | (l[32] << 23)) & M27;
        rev_store(md.nprev, dd);
        /* a < m, a = m - 1, chains of 40 squarings */
        for (int start = 0; start < 3; start++) {
            if (start == 0) {
                BN_rand_range(x, bm);
            } else if (start == 1) {
                BN_sub(x, bm, BN_value_one());
            } else {
                BN_zero(x);
                BN_set_bit(x, 2050); /* above m, below 2^2051 */
                BN_sub_word(x, 1);
            }
            memset(l, 0, sizeof l);
            bn_to_limbs(l, 33, x);
            to_d27(xd, l);
            xd[75] = ((l[31] >> 41) | (l[32] << 23)) & M27;
            for (int it = 0; it < 40; it++) {
                mont_sqr_d27_public(xd, xd, &md);
                BN_mod_mul(x, x, x, bm, ctx);
                BN_mod_mul(x, x, Ri, bm, ctx);
                d27_to_bn(y, xd);
                BN_mod(t, y, bm, ctx);
                checks++;
                int bad = BN_cmp(t, x) != 0;
                BN_one(t);
                BN_lshift(t, t, 2051);
                bad |= BN_cmp(y, t) >= 0;
                for (int k = 0; k < D; k++)
                    bad |= xd[k] >= (1ull << 28) + (1ull << 10);
                if (bad && fails++ < 5)
                    printf("FAIL key %d start %d step %d\n", key, start, it);
            }
        }
        (void)tmp;
    }
    printf("checks %ld, failures %ld\n", checks, fails);

    /* timing: the last modulus, chains of CALLS squarings, alternating */
    for (int i = 0; i < 32; i++)
        xa[i] = rnd();
    xa[31] >>= 1;
    n0 = 0;
    {
        BN_one(R);
        BN_lshift(R, R, 64);
        BN_lebin2bn((const unsigned char *)m, 256, bm);
        BN_mod_inverse(Ri, bm, R, ctx);
        BN_sub(np, R, Ri);
        unsigned char b8[8];
        BN_bn2lebinpad(np, b8, 8);
        memcpy(&n0, b8, 8);
    }
    to_d27(xd, xa);
    if (count) { /* valgrind --tool=callgrind: Ir per call = inclusive / 1,000 */
        for (int i = 0; i < 1000; i++) {
            quill_mont_sqr_adx_public_32(xa, xa, m, n0, 32);
            mont_sqr_d27_public(xd, xd, &md);
        }
        printf("count: 1,000 calls of each\n");
        return fails != 0;
    }
    double *ta = malloc(sizeof(double) * (size_t)rounds * 50), *tb = ta + rounds * 25;
    int nr = rounds * 25;
    for (int i = 0; i < 200; i++) {
        run_adx();
        run_d27();
    }
    for (int i = 0; i < nr; i++) {
        ta[i] = (double)run_adx() / CALLS;
        tb[i] = (double)run_d27() / CALLS;
    }
    qsort(ta, (size_t)nr, sizeof(double), cmpd);
    qsort(tb, (size_t)nr, sizeof(double), cmpd);
    printf("chain of %d squarings, %d rounds: MULX public %.0f (min %.0f)  d27 %.0f (min %.0f)"
           "  ratio %.3f (min %.3f)\n",
           CALLS, nr, ta[nr / 2], ta[0], tb[nr / 2], tb[0], tb[nr / 2] / ta[nr / 2],
           tb[0] / ta[0]);
    free(ta);
    BN_free(bm), BN_free(R), BN_free(Ri), BN_free(np), BN_free(x), BN_free(y), BN_free(t);
    BN_CTX_free(ctx);
    return fails != 0;
}
