/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The two-way 1536-bit radix-2^27 kernels of mont_d27x2_ab (the layout,
 * bounds and reduction of the generated straight-line ones, tools/
 * gen_mont_d28x2_avx2.py big) as loops, so that the code fits the L1I:
 * each phase (T, U = T N' mod R, T + U m) runs over blocks of four
 * columns whose accumulators stay in registers; inside a block the rows t
 * of the full rectangle (every column valid) run in a loop, two rows per
 * step with the multiplicand window sliding by two vectors, and the
 * block's edge rows (the same shape in every block) are written out with
 * public bounds checks.  The squaring's rows use 2 a (Ad) for j >= 2t + 3
 * and a separate pass adds the three terms per t near the diagonal.
 * Constant time: every branch and address depends on the sizes only.
 * Experiment of issue 24, built only into the A/B bench. */
#include <immintrin.h>
#include <stdint.h>

#define P 29
#define ND 57
#define W 27
#define NCOL 114 /* product columns 0..113 */
#define KB 4

typedef struct __attribute__((aligned(32))) quill_d27x2_mod {
    uint64_t m[2 * P * 4];
    uint64_t np[ND * 4];
} quill_d27x2_mod;

void quill_mont_mul_d27x2_loop(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const quill_d27x2_mod *md);
void quill_mont_sqr_d27x2_loop(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);

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

TGT void quill_mont_mul_d27x2_loop(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                   const quill_d27x2_mod *md) {
    __m256i As[P], Br[2 * P], C[NCOL + 4];
    operands(As, Br, a, b);
    for (int k0 = 0; k0 < NCOL; k0 += KB)
        prod_block(C, As, Br, 2 * P, k0, 0);
    redc(r, C, md);
}

TGT void quill_mont_sqr_d27x2_loop(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md) {
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

/* The same with blocks of six columns (KB6): the window rotates over three
 * rows, and the edge rows are generic (each product under a public
 * validity check), so that the squaring's slope-4 edge needs no per-block
 * shape. */
void quill_mont_mul_d27x2_loop6(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const quill_d27x2_mod *md);
void quill_mont_sqr_d27x2_loop6(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);

#define ROW6(a, w0, w1, w2, w3, w4, w5)                                                  \
    do {                                                                                 \
        ACC(x0, a, w0);                                                                  \
        ACC(x1, a, w1);                                                                  \
        ACC(x2, a, w2);                                                                  \
        ACC(x3, a, w3);                                                                  \
        ACC(x4, a, w4);                                                                  \
        ACC(x5, a, w5);                                                                  \
    } while (0)

/* valid (t, j): 0 <= t < P, jlo(t) <= j < jb; jlo = 2t + 3 for the
 * squaring's doubled rows (sq), else 0. */
static inline int valid(int t, int j, int jb, int sq) {
    return t >= 0 && t < P && j < jb && j >= (sq ? 2 * t + 3 : 0);
}

#define EDGE(q, xq)                                                                      \
    do {                                                                                 \
        if (valid(t, k0 + q - 2 * t, jb, sq))                                           \
            ACC(xq, A[t], B[k0 + q - 2 * t]);                                            \
    } while (0)

/* Columns k0..k0+5 (k0 even, jb even where the bottom edge is reached):
 * C[k] = (add ? C[k] : 0) + sum over valid (t, j = k - 2t) of A[t] B[j].
 * The edge rows have fixed shapes: the bottom ones (j <= jb - 1) q <= 3
 * and q <= 1, the product's top ones (j >= 0) q >= 2 and q >= 4, the
 * squaring's (j >= 2t + 3) q >= 3 (k0 = 0 mod 4) or q >= 1 and q = 5
 * (k0 = 2 mod 4).  Squaring blocks from k0 = 4P - 14 on, where the two
 * edges meet, take every product under its own check (gen). */
INL void block6(__m256i *C, const __m256i *A, const __m256i *B, int jb, int k0, int add,
                int sq) {
    __m256i x0, x1, x2, x3, x4, x5;
    if (add)
        x0 = C[k0], x1 = C[k0 + 1], x2 = C[k0 + 2], x3 = C[k0 + 3], x4 = C[k0 + 4],
        x5 = C[k0 + 5];
    else
        x0 = x1 = x2 = x3 = x4 = x5 = _mm256_setzero_si256();
    int rlo = (k0 + 6 - jb + 1) >> 1; /* ceil((k0 + 6 - jb) / 2), all columns j < jb */
    int rhi = sq ? (k0 - 3) >> 2 : k0 / 2;
    int tlo = imax(0, rlo), thi = imin(P - 1, rhi);
    if (sq && k0 > 4 * P - 16) {
        int elo = imax(0, rlo - 3), ehi = imin(P - 1, (k0 + 2) >> 2);
        for (int t = elo; t <= ehi; t++) {
            EDGE(0, x0);
            EDGE(1, x1);
            EDGE(2, x2);
            EDGE(3, x3);
            EDGE(4, x4);
            EDGE(5, x5);
        }
        tlo = 1, thi = 0;
    } else {
        int t = rlo - 2; /* bottom rows */
        if (t >= 0) {
            ACC(x0, A[t], B[jb - 2]);
            ACC(x1, A[t], B[jb - 1]);
        }
        t = rlo - 1;
        if (t >= 0) {
            ACC(x0, A[t], B[jb - 4]);
            ACC(x1, A[t], B[jb - 3]);
            ACC(x2, A[t], B[jb - 2]);
            ACC(x3, A[t], B[jb - 1]);
        }
        t = rhi + 1; /* top rows */
        if (!sq && t < P) {
            ACC(x2, A[t], B[0]);
            ACC(x3, A[t], B[1]);
            ACC(x4, A[t], B[2]);
            ACC(x5, A[t], B[3]);
            if (t + 1 < P) {
                ACC(x4, A[t + 1], B[0]);
                ACC(x5, A[t + 1], B[1]);
            }
        } else if (sq && (k0 & 3) == 0) {
            int j = k0 - 2 * t; /* = 2t: q = 3, 4, 5 at j + 3.. */
            ACC(x3, A[t], B[j + 3]);
            ACC(x4, A[t], B[j + 4]);
            ACC(x5, A[t], B[j + 5]);
        } else if (sq) {
            int j = k0 - 2 * t; /* = 2t + 2: q = 1..5 at j + 1.., then q = 5 of t + 1 */
            ACC(x1, A[t], B[j + 1]);
            ACC(x2, A[t], B[j + 2]);
            ACC(x3, A[t], B[j + 3]);
            ACC(x4, A[t], B[j + 4]);
            ACC(x5, A[t], B[j + 5]);
            ACC(x5, A[t + 1], B[j + 3]);
        }
    }
    if (tlo <= thi) {
        int t = tlo;
        const __m256i *b = B + k0 - 2 * tlo;
        __m256i b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5];
        for (;;) {
            ROW6(A[t], b0, b1, b2, b3, b4, b5);
            if (t == thi)
                break;
            b4 = b[-2];
            b5 = b[-1];
            ROW6(A[t + 1], b4, b5, b0, b1, b2, b3);
            if (t + 1 == thi)
                break;
            b2 = b[-4];
            b3 = b[-3];
            ROW6(A[t + 2], b2, b3, b4, b5, b0, b1);
            if (t + 2 == thi)
                break;
            b0 = b[-6];
            b1 = b[-5];
            t += 3;
            b -= 6;
        }
    }
    C[k0] = x0, C[k0 + 1] = x1, C[k0 + 2] = x2, C[k0 + 3] = x3, C[k0 + 4] = x4, C[k0 + 5] = x5;
}

__attribute__((target("avx2"), noinline)) static void redc6(uint64_t *r, __m256i *C,
                                                            const quill_d27x2_mod *md) {
    __m256i CU[ND + 3], X[P];
    const __m256i *Mr = (const __m256i *)md->m, *Nr = (const __m256i *)md->np;
    low(X, C);
    for (int k0 = 0; k0 + 5 < ND; k0 += 6)
        block6(CU, X, Nr, ND, k0, 0, 0);
    for (int k = ND - ND % 6; k < ND; k++)
        CU[k] = column(X, Nr, k, 0, k / 2);
    low(X, CU);
    /* T + U m from column 54 (column 54 itself is not needed) */
    for (int k0 = ND - 3; k0 < NCOL; k0 += 6)
        block6(C, X, Mr, 2 * P, k0, 1, 0);
    high(r, C);
}

TGT void quill_mont_mul_d27x2_loop6(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const quill_d27x2_mod *md) {
    __m256i As[P], Br[2 * P], C[NCOL + 6];
    operands(As, Br, a, b);
    for (int k0 = 0; k0 < NCOL; k0 += 6)
        block6(C, As, Br, 2 * P, k0, 0, 0);
    C[NCOL] = _mm256_setzero_si256();
    redc6(r, C, md);
}

TGT void quill_mont_sqr_d27x2_loop6(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md) {
    __m256i As[P], Br[2 * P], Ad[P], C[NCOL + 6];
    const __m256i hi = _mm256_set_epi64x(-1, 0, -1, 0);
    const __m256i lo = _mm256_set_epi64x(0, -1, 0, -1);
    operands(As, Br, a, a);
    for (int s = 0; s < P; s++)
        Ad[s] = ADD(As[s], As[s]);
    for (int k0 = 0; k0 < NCOL; k0 += 6)
        block6(C, Ad, Br, 2 * P, k0, 0, 1);
    C[NCOL] = _mm256_setzero_si256();
    for (int t = 0; t < P; t++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + t);
        C[4 * t] = ADD(C[4 * t], MUL(_mm256_and_si256(x, lo), x));
        if (t < P - 1) {
            __m256i am = ADD(As[t], _mm256_and_si256(As[t], hi));
            C[4 * t + 1] = ADD(C[4 * t + 1], MUL(As[t], Br[2 * t + 1]));
            C[4 * t + 2] = ADD(C[4 * t + 2], MUL(am, Br[2 * t + 2]));
        }
    }
    redc6(r, C, md);
}
