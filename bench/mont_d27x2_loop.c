/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The first loop form of the two-way 1536-bit radix-2^27 kernels, kept
 * for mont_d27x2_ab (the library's, core/bn/mont_d27x2_avx2.c, use blocks
 * of six columns and took 0.885x against this one's 0.91x of the MULX
 * time in EXPO): the layout, bounds and reduction of the generated
 * straight-line ones (tools/gen_mont_d28x2_avx2.py big) as loops, so that
 * the code fits the L1I: each phase (T, U = T N' mod R, T + U m) runs over
 * blocks of four columns whose accumulators stay in registers; inside a block the rows t
 * of the full rectangle (every column valid) run in a loop, two rows per
 * step with the multiplicand window sliding by two vectors, and the
 * block's edge rows (the same shape in every block) are written out with
 * public bounds checks.  The squaring's rows use 2 a (Ad) for j >= 2t + 3
 * and a separate pass adds the three terms per t near the diagonal.
 * Constant time: every branch and address depends on the sizes only.
 * Experiment of issue 24, built only into the A/B bench. */
#include <immintrin.h>
#include <stdint.h>

#include "bn/mont_d27x2_avx2.h"

#define P 29
#define ND 57
#define W 27
#define NCOL 114 /* product columns 0..113 */
#define KB 4

void d27_bench_mul_loop4(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const quill_d27x2_mod *md);
void d27_bench_sqr_loop4(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);

#define TGT __attribute__((target("avx2")))
#define INL __attribute__((target("avx2"), always_inline)) static inline
#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
/* c += a b kept as a chain (no reassociation by the compiler) */
#define ACC(c, a, b)                                                                     \
    do {                                                                                 \
        c = ADD(c, MUL(a, b));                                                           \
        __asm__("" : "+x"(c));                                                           \
    } while (0)

INL __m256i pairsum(__m256i c0, __m256i c1) {
    return ADD(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
}

INL void norm(__m256i X[P]) {
    const __m256i mw = _mm256_set1_epi64x((1 << W) - 1);
    __m256i pmid = _mm256_setzero_si256(), phi = _mm256_setzero_si256();
    for (int s = 0; s < P; s++) {
        __m256i mid = _mm256_and_si256(_mm256_srli_epi64(X[s], W), mw);
        __m256i hi = _mm256_srli_epi64(X[s], 2 * W);
        X[s] = ADD(ADD(_mm256_and_si256(X[s], mw), _mm256_alignr_epi8(mid, pmid, 8)), phi);
        pmid = mid;
        phi = hi;
    }
}

INL void low(__m256i X[P], const __m256i *C) {
    const __m256i lo = _mm256_set_epi64x(0, (1 << W) - 1, 0, (1 << W) - 1);
    for (int s = 0; s < P - 1; s++)
        X[s] = pairsum(C[2 * s], C[2 * s + 1]);
    X[P - 1] = pairsum(C[ND - 1], _mm256_setzero_si256());
    norm(X);
    X[P - 1] = _mm256_and_si256(X[P - 1], lo);
    for (int s = 0; s < P; s++)
        X[s] = _mm256_shuffle_epi32(X[s], 0x4E);
}

INL void high(uint64_t *r, const __m256i *C) {
    const __m256i mw = _mm256_set1_epi64x((1 << W) - 1);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i X[P];
    __m256i z = pairsum(C[ND - 2], C[ND - 1]);
    __m256i y = ADD(z, _mm256_slli_si256(_mm256_srli_epi64(z, W), 8));
    __m256i g = _mm256_and_si256(y, mw);
    __m256i nz = _mm256_or_si256(g, _mm256_slli_si256(g, 8));
    __m256i inc = ADD(one, _mm256_cmpeq_epi64(nz, _mm256_setzero_si256()));
    __m256i carry = _mm256_srli_si256(ADD(_mm256_srli_epi64(y, W), inc), 8);
    for (int s = 0; s < P; s++)
        X[s] = pairsum(C[ND + 2 * s], C[ND + 1 + 2 * s]);
    X[0] = ADD(X[0], carry);
    norm(X);
    for (int s = 0; s < P; s++)
        _mm256_storeu_si256((__m256i *)r + s, X[s]);
}

/* The rows t = tlo..thi (all four columns valid) of C[k0 + q] += A[t] B[k0 + q - 2t]. */
INL void rect(__m256i *c0, __m256i *c1, __m256i *c2, __m256i *c3, const __m256i *A,
              const __m256i *B, int k0, int tlo, int thi) {
    if (tlo > thi)
        return;
    __m256i x0 = *c0, x1 = *c1, x2 = *c2, x3 = *c3;
    int t = tlo;
    const __m256i *b = B + k0 - 2 * tlo;
    __m256i b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    for (;;) {
        __m256i a = A[t];
        ACC(x0, a, b0);
        ACC(x1, a, b1);
        ACC(x2, a, b2);
        ACC(x3, a, b3);
        if (t == thi)
            break;
        b2 = b[-2];
        b3 = b[-1];
        a = A[t + 1];
        ACC(x0, a, b2);
        ACC(x1, a, b3);
        ACC(x2, a, b0);
        ACC(x3, a, b1);
        if (t + 1 == thi)
            break;
        b0 = b[-4];
        b1 = b[-3];
        /* row t + 2: (b0, b1, b2, b3) */
        t += 2;
        b -= 4;
    }
    *c0 = x0, *c1 = x1, *c2 = x2, *c3 = x3;
}

/* One column k of sum A[t] B[k - 2t] over t = tlo..thi. */
INL __m256i column(const __m256i *A, const __m256i *B, int k, int tlo, int thi) {
    __m256i x = _mm256_setzero_si256(), y = _mm256_setzero_si256();
    int t = tlo;
    for (; t + 1 <= thi; t += 2) {
        ACC(x, A[t], B[k - 2 * t]);
        ACC(y, A[t + 1], B[k - 2 * t - 2]);
    }
    if (t == thi)
        ACC(x, A[t], B[k - 2 * t]);
    return ADD(x, y);
}

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }

/* Columns k0..k0+3 (k0 = 0 mod 4) of the product of A (P vectors) and B
 * (jb vectors, j < jb): C[k] = (add ? C[k] : 0) + sum A[t] B[k - 2t]. */
INL void prod_block(__m256i *C, const __m256i *A, const __m256i *B, int jb, int k0, int add) {
    __m256i c0, c1, c2, c3;
    if (add)
        c0 = C[k0], c1 = C[k0 + 1], c2 = C[k0 + 2], c3 = C[k0 + 3];
    else
        c0 = c1 = c2 = c3 = _mm256_setzero_si256();
    int tb = k0 / 2 + 1 - jb / 2; /* the bottom edge row: q = 0, 1 (j = jb - 2 + q) */
    if (tb >= 0 && tb < P) {
        ACC(c0, A[tb], B[jb - 2]);
        ACC(c1, A[tb], B[jb - 1]);
    }
    rect(&c0, &c1, &c2, &c3, A, B, k0, imax(0, tb + 1), imin(P - 1, k0 / 2));
    int tt = k0 / 2 + 1; /* the top edge row: q = 2, 3 (j = 0, 1) */
    if (tt < P) {
        ACC(c2, A[tt], B[0]);
        ACC(c3, A[tt], B[1]);
    }
    C[k0] = c0, C[k0 + 1] = c1, C[k0 + 2] = c2, C[k0 + 3] = c3;
}

/* Columns k0..k0+3 of the squaring's rows with j >= 2t + 3 (Ad = 2 As). */
INL void sqr_block(__m256i *C, const __m256i *Ad, const __m256i *B, int k0) {
    __m256i c0, c1, c2, c3;
    c0 = c1 = c2 = c3 = _mm256_setzero_si256();
    int tb = k0 / 2 + 1 - P; /* bottom edge row, j = 2P - 2 + q, q = 0, 1 */
    if (tb >= 0 && tb < P) {
        if (4 * tb + 3 <= k0)
            ACC(c0, Ad[tb], B[2 * P - 2]);
        if (4 * tb + 3 <= k0 + 1)
            ACC(c1, Ad[tb], B[2 * P - 1]);
    }
    rect(&c0, &c1, &c2, &c3, Ad, B, k0, imax(0, tb + 1), imin(P - 1, k0 / 4 - 1));
    int tt = k0 / 4; /* top edge row: q = 3 only (j = k0 / 2 + 3 = 2t + 3) */
    if (tt < P && tt > tb && k0 / 2 + 3 <= 2 * P - 1)
        ACC(c3, Ad[tt], B[k0 / 2 + 3]);
    C[k0] = c0, C[k0 + 1] = c1, C[k0 + 2] = c2, C[k0 + 3] = c3;
}

__attribute__((target("avx2"), noinline)) static void redc(uint64_t *r, __m256i *C,
                                                           const quill_d27x2_mod *md) {
    __m256i CU[ND + 3], X[P];
    const __m256i *Mr = (const __m256i *)md->m, *Nr = (const __m256i *)md->np;
    low(X, C);
    for (int k0 = 0; k0 + 3 < ND; k0 += KB)
        prod_block(CU, X, Nr, ND, k0, 0);
    CU[ND - 1] = column(X, Nr, ND - 1, 0, (ND - 1) / 2);
    low(X, CU);
    /* T + U m from column ND - 2 = 55 */
    C[ND - 2] = ADD(C[ND - 2], column(X, Mr, ND - 2, 0, (ND - 2) / 2));
    for (int k0 = ND - 1; k0 < NCOL; k0 += KB)
        prod_block(C, X, Mr, 2 * P, k0, 1);
    high(r, C);
}

INL void operands(__m256i As[P], __m256i Br[2 * P], const uint64_t *a, const uint64_t *b) {
    __m256i prev = _mm256_setzero_si256();
    for (int s = 0; s < P; s++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + s);
        __m256i y = _mm256_loadu_si256((const __m256i *)b + s);
        As[s] = _mm256_shuffle_epi32(x, 0x4E);
        Br[2 * s] = _mm256_alignr_epi8(y, prev, 8);
        Br[2 * s + 1] = y;
        prev = y;
    }
}

TGT void d27_bench_mul_loop4(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                   const quill_d27x2_mod *md) {
    __m256i As[P], Br[2 * P], C[NCOL + 4];
    operands(As, Br, a, b);
    for (int k0 = 0; k0 < NCOL; k0 += KB)
        prod_block(C, As, Br, 2 * P, k0, 0);
    redc(r, C, md);
}

TGT void d27_bench_sqr_loop4(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md) {
    __m256i As[P], Br[2 * P], Ad[P], C[NCOL + 4];
    const __m256i hi = _mm256_set_epi64x(-1, 0, -1, 0);
    const __m256i lo = _mm256_set_epi64x(0, -1, 0, -1);
    operands(As, Br, a, a);
    for (int s = 0; s < P; s++)
        Ad[s] = ADD(As[s], As[s]);
    for (int k0 = 0; k0 < NCOL; k0 += KB)
        sqr_block(C, Ad, Br, k0);
    /* the terms next to the diagonal: a_2t^2 (Ae Av), As Br[2t+1], Am Br[2t+2] */
    for (int t = 0; t < P; t++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + t);
        C[4 * t] = ADD(C[4 * t], MUL(_mm256_and_si256(x, lo), x));
        if (t < P - 1) {
            __m256i am = ADD(As[t], _mm256_and_si256(As[t], hi));
            C[4 * t + 1] = ADD(C[4 * t + 1], MUL(As[t], Br[2 * t + 1]));
            C[4 * t + 2] = ADD(C[4 * t + 2], MUL(am, Br[2 * t + 2]));
        }
    }
    redc(r, C, md);
}

