/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The body of the two-way Montgomery product and squaring in radix 2^27
 * with AVX2 VPMULUDQ (mont_d27x2_avx2.h; issue 24, docs/limits.md),
 * included by mont_d27x2_avx2.c (1536 bits) and mont_d27x2_32_avx2.c
 * (2048 bits), which define P (vectors per number pair), D27_MOD (the
 * moduli's type) and the names D27_MUL and D27_SQR.  Described here at
 * 1536 bits (P = 29; at 2048, P = 39, 77 digits, R = 2^2079, a lane of a
 * column < 2^61.9, the same argument).  The column arithmetic and the
 * reduction of mont_d28x2_avx2.c at 57 digits of 27 bits (R = 2^1539),
 * padded to 58, in 29 vectors:
 *   C[k] += A[t] * B[j],  k = 2t + j,  A[t] = (a_2t+1, a_2t),  B[j] = (b_j-1, b_j)
 * U = (T mod R) N' mod R, then the columns of U m from 55 up; the carry of
 * T + U m into column 57 is ceil((w_56 2^27 + w_55) / 2^54), the columns
 * 0..54 (each below 2^62.5) adding less than R 2^-18.  One carry pass
 * splits each 64-bit digit in three 27-bit parts (digit, next, next but
 * one), leaving digits below 2^28 + 2^10.  Bounds: a 64-bit lane of a
 * column holds at most 29 products of T (< 2^56.01 each: < 2^60.9) and
 * 29 of U m (< 2^55.01: < 2^59.9), the two lanes together < 2^62.5.
 * a, b < 2m, m < 2^1536 = R / 8 and U < (1 + 2^-26) R give r < 4m^2/R +
 * (1 + 2^-26) m < 2m.
 *
 * Unlike the generated straight-line 1024-bit kernels, these are loops
 * (the straight-line form at this size is 63 KB of code, twice the L1I,
 * and took 1.12x-1.25x the MULX time): each phase (T, U, T + U m) runs
 * over blocks of six columns whose accumulators stay in registers; inside
 * a block the rows t of the full rectangle (all six columns valid) run in
 * a loop, the multiplicand window sliding by two vectors per row (six
 * registers rotated over three rows), and the block's edge rows, of fixed
 * shape, are written out under public checks of the row index.  The
 * squaring's rows multiply by 2 a (Ad) for j >= 2t + 3; a separate pass
 * adds the three terms of each t next to the diagonal.
 *
 * The carry passes run at the blocks' ends (issue 24, docs/limits.md),
 * so that no phase stores its columns but T's upper ones: a block's six
 * columns are three digit pairs, summed and passed while in registers,
 * the pass's state (the previous vector's middle and top parts) carried
 * from block to block.  T's blocks write T mod R's digits (X) and store
 * only the columns ND - 3 and up, which T + U m starts from (the
 * squaring's terms next to the diagonal are added in the block that holds
 * their column); U's blocks write U's digits; T + U m's blocks the vectors
 * of r, the carry from the columns ND - 2 and ND - 1 added to the first
 * pair before its pass.  Each column's sum and the pass applied to it are
 * the old ones (column ND, now in the top pair's masked lane, reaches no
 * kept digit), so the bounds above hold unchanged: a column lane < 2^60.9
 * + 2^59.9 (2^61.9 at 2048 bits), both lanes < 2^62.5 (2^62.9; < 2^63),
 * each digit out of a pass below 2^27 + 2^27 + 2^9 < 2^28 + 2^10, and r's
 * lowest digit at most 2^36 more before its pass.
 *
 * Constant time: every branch, loop bound and address depends on the
 * column and row indices only, never on the data.  Not a public header. */
#include <immintrin.h>

#define ND (2 * P - 1)
#define W 27
#define NCOL (4 * P - 2) /* product columns 0..NCOL-1 */

/* The kernels (redc, D27_MUL, D27_SQR) start at 64 bytes: that makes the
 * object's .text 64-byte aligned, so that every loop of the file keeps its
 * offset mod 64 (the op cache's line) wherever the link puts the file; at
 * the default 16, 32 bytes more before it made RSA-3072 signing at the AVX2
 * level 1.7% slower (docs/limits.md, "Code placement"). */
#define HOT __attribute__((target("avx2"), aligned(64)))
#define INL __attribute__((target("avx2"), always_inline)) static inline
#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
/* c += a b kept as a chain (no reassociation by the compiler) */
#define ACC(c, a, b)                                                                     \
    do {                                                                                 \
        c = ADD(c, MUL(a, b));                                                           \
        __asm__("" : "+x"(c));                                                           \
    } while (0)

/* (c0 lane 0 + lane 1, c1 lane 0 + lane 1) in each 128-bit half. */
INL __m256i pairsum(__m256i c0, __m256i c1) {
    return ADD(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
}

/* The carry of T + U m into column ND (57 at 1536 bits) from its columns
 * ND - 2 and ND - 1 (c55, c56), in lane 0 of each 128-bit half:
 * ceil((w_56 2^27 + w_55) / 2^54), the columns below adding less than R
 * 2^-18 (the file's comment), with w_56 = c56 + (c55 >> 27): (w_56 >> 27)
 * plus 1 if the low 54 bits are not zero, branch-free. */
INL __m256i carry(__m256i c55, __m256i c56) {
    const __m256i mw = _mm256_set1_epi64x((1 << W) - 1);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i z = pairsum(c55, c56);
    __m256i y = ADD(z, _mm256_slli_si256(_mm256_srli_epi64(z, W), 8));
    __m256i g = _mm256_and_si256(y, mw);
    __m256i nz = _mm256_or_si256(g, _mm256_slli_si256(g, 8));
    __m256i inc = ADD(one, _mm256_cmpeq_epi64(nz, _mm256_setzero_si256()));
    return _mm256_srli_si256(ADD(_mm256_srli_epi64(y, W), inc), 8);
}

/* r's vector s = one step of the carry pass on the digit pair y = (x_2s,
 * x_2s+1), x = lo + 2^27 mid + 2^54 hi going to digits i, i + 1, i + 2
 * (digits below 2^28 + 2^10 after it; the
 * carries out of the top digit dropped), *pm, *ph the previous vector's
 * middle and top parts. */
INL void rpass(uint64_t *r, int s, __m256i y, __m256i *pm, __m256i *ph) {
    const __m256i mw = _mm256_set1_epi64x((1 << W) - 1);
    __m256i mid = _mm256_and_si256(_mm256_srli_epi64(y, W), mw);
    __m256i hi = _mm256_srli_epi64(y, 2 * W);
    y = ADD(ADD(_mm256_and_si256(y, mw), _mm256_alignr_epi8(mid, *pm, 8)), *ph);
    *pm = mid;
    *ph = hi;
    _mm256_storeu_si256((__m256i *)r + s, y);
}

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }

/* one row of a block: the six accumulators x0..x5 += a (w0..w5) */
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

/* one product of an edge row, if valid (the corner blocks' rows) */
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
/* The bottom rows are checked against t >= 0 only: t = rlo - 1 < P holds
 * for every block the callers form (the T blocks end below 4P - 5 when
 * 4P - 4 is not a multiple of six; redc keeps the last U m columns out). */
_Static_assert((4 * P - 4) % 6 != 0, "the last T block would reach the row t = P");
INL void block6(__m256i xo[6], const __m256i *C, const __m256i *A, const __m256i *B, int jb,
                int k0, int add, int sq) {
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
    xo[0] = x0, xo[1] = x1, xo[2] = x2, xo[3] = x3, xo[4] = x4, xo[5] = x5;
}

/* One step of the carry pass (rpass) in the multiplier form: y = (x_2s+1,
 * x_2s) (the pairs summed in swapped order, swp), the previous vector's
 * middle and top parts in *pm, *ph; x_2s+1 takes x_2s's middle part (lane
 * 1 of this vector), x_2s x_2s-1's (lane 0 of the previous), each the top
 * part of the digit two below (the same lane of the previous vector). */
INL __m256i swp(__m256i c0, __m256i c1) {
    return ADD(_mm256_unpacklo_epi64(c1, c0), _mm256_unpackhi_epi64(c1, c0));
}
INL __m256i pass(__m256i y, __m256i *pm, __m256i *ph) {
    const __m256i mw = _mm256_set1_epi64x((1 << W) - 1);
    __m256i mid = _mm256_and_si256(_mm256_srli_epi64(y, W), mw);
    __m256i hi = _mm256_srli_epi64(y, 2 * W);
    y = ADD(ADD(_mm256_and_si256(y, mw), _mm256_alignr_epi8(*pm, mid, 8)), *ph);
    *pm = mid;
    *ph = hi;
    return y;
}

/* The end of a T block (columns k0..k0+5, k0 even): the pairs of columns
 * below ND through the pass into X (the digits of T mod R, the top one
 * masked by the caller), the columns from ND - 3 on, which T + U m starts
 * from, stored in C.  The column ND, in the top pair's odd lane, reaches
 * only digit ND and up, masked off. */
INL void tend(__m256i X[P], __m256i *C, const __m256i x[6], int k0, __m256i *pm, __m256i *ph) {
    for (int q = 0; q < 6; q += 2)
        if ((k0 + q) / 2 < P)
            X[(k0 + q) / 2] = pass(swp(x[q], x[q + 1]), pm, ph);
    if (k0 + 5 >= ND - 3)
        for (int q = 0; q < 6; q++)
            C[k0 + q] = x[q];
}

/* X[P - 1]'s digit 56 (76 at 2048 bits) to 27 bits, digit 57 to zero:
 * X = T mod R.  (Swapped form: the digit in the odd 64-bit lanes.) */
INL void top(__m256i X[P]) {
    X[P - 1] = _mm256_and_si256(X[P - 1], _mm256_set_epi64x((1 << W) - 1, 0, (1 << W) - 1, 0));
}

/* U's column k (k < ND): the sum over t of X[t] Nr[k - 2t], two chains. */
INL __m256i ucol(const __m256i X[P], const __m256i *Nr, int k) {
    __m256i x = _mm256_setzero_si256(), y = _mm256_setzero_si256();
    int t = 0;
    for (; t + 1 <= k / 2; t += 2) {
        ACC(x, X[t], Nr[k - 2 * t]);
        ACC(y, X[t + 1], Nr[k - 2 * t - 2]);
    }
    if (t == k / 2)
        ACC(x, X[t], Nr[k - 2 * t]);
    return ADD(x, y);
}

/* r = (T + U m) / R for T given as X (its digits mod R, the multiplier
 * form) and its columns ND - 3..NCOL in C (C[ND - 3..] are overwritten),
 * U = (T mod R) N' mod R; shared by both kernels.  U's digits come out of
 * the carry pass at each block's end (no column stores). */
__attribute__((target("avx2"), noinline, aligned(64))) static void
redc(uint64_t *r, const __m256i *X, __m256i *C, const D27_MOD *md) {
    __m256i XU[P], x[6];
    __m256i pm = _mm256_setzero_si256(), ph = _mm256_setzero_si256();
    const __m256i *Mr = (const __m256i *)md->m, *Nr = (const __m256i *)md->np;
    for (int k0 = 0; k0 + 5 < ND; k0 += 6) {
        block6(x, 0, X, Nr, ND, k0, 0, 0);
        for (int q = 0; q < 6; q += 2)
            XU[(k0 + q) / 2] = pass(swp(x[q], x[q + 1]), &pm, &ph);
    }
    /* the last ND mod 6 columns one by one, two chains each (N' has ND
     * vectors, an odd count the blocks' edge shapes do not cover; a zero
     * vector after it, so that a block takes them, measured 2% slower
     * signing) */
    for (int k = ND - ND % 6; k < ND; k += 2) {
        __m256i u0 = ucol(X, Nr, k);
        __m256i u1 = k + 1 < ND ? ucol(X, Nr, k + 1) : _mm256_setzero_si256();
        XU[k / 2] = pass(swp(u0, u1), &pm, &ph);
    }
    top(XU);
    /* T + U m from column ND - 3 (that column itself is not needed), in
     * whole blocks, then the columns left (2048 bits: 152 and 153, one
     * product each), whose block would reach the rows t >= P.  r's digit
     * pairs (ND + 2s, ND + 2s + 1) go through the pass (rpass) at each
     * block's end: the first block's columns ND - 2 and ND - 1 give the
     * carry, its pair (ND, ND + 1) takes it; the blocks after it pair the
     * previous block's last column (pend) with their first. */
    __m256i pend = _mm256_setzero_si256();
    int k0 = ND - 3, s = 0;
    pm = ph = _mm256_setzero_si256();
    for (; k0 + 6 <= NCOL; k0 += 6) {
        block6(x, C, XU, Mr, 2 * P, k0, 1, 0);
        if (k0 == ND - 3) {
            rpass(r, s++, ADD(pairsum(x[3], x[4]), carry(x[1], x[2])), &pm, &ph);
        } else {
            rpass(r, s++, pairsum(pend, x[0]), &pm, &ph);
            rpass(r, s++, pairsum(x[1], x[2]), &pm, &ph);
            rpass(r, s++, pairsum(x[3], x[4]), &pm, &ph);
        }
        pend = x[5];
    }
    /* k0 - ND is odd here: column k0 completes the pending pair; the
     * column NCOL is zero */
    for (int k = k0; k <= NCOL; k++) {
        __m256i c = _mm256_setzero_si256();
        if (k < NCOL) {
            c = C[k];
            for (int t = (k - 2 * P + 2) / 2; t < P; t++)
                ACC(c, XU[t], Mr[k - 2 * t]);
        }
        if ((k - ND) & 1)
            rpass(r, s++, pairsum(pend, c), &pm, &ph);
        else
            pend = c;
    }
}

/* As[s] = (a_2s+1, a_2s), Br[j] = (b_j-1, b_j). */
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

HOT void D27_MUL(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const D27_MOD *md) {
    __m256i As[P], Br[2 * P], C[NCOL + 6], X[P], x[6];
    __m256i pm = _mm256_setzero_si256(), ph = _mm256_setzero_si256();
    operands(As, Br, a, b);
    for (int k0 = 0; k0 < NCOL; k0 += 6) {
        block6(x, 0, As, Br, 2 * P, k0, 0, 0);
        tend(X, C, x, k0, &pm, &ph);
    }
    C[NCOL] = _mm256_setzero_si256();
    top(X);
    redc(r, X, C, md);
}

/* The squaring's terms next to the diagonal, column 4t + q (q = 0, 1, 2):
 * a_2t^2; 2 a_2t a_2t+1; a_2t+1^2 + 2 a_2t a_2t+2 (q > 0 for t < P - 1). */
INL __m256i diag(const uint64_t *a, const __m256i *As, const __m256i *Br, int t, int q) {
    const __m256i hi = _mm256_set_epi64x(-1, 0, -1, 0);
    const __m256i lo = _mm256_set_epi64x(0, -1, 0, -1);
    if (q == 0) {
        __m256i v = _mm256_loadu_si256((const __m256i *)a + t);
        return MUL(_mm256_and_si256(v, lo), v);
    }
    if (q == 1)
        return MUL(As[t], Br[2 * t + 1]);
    return MUL(ADD(As[t], _mm256_and_si256(As[t], hi)), Br[2 * t + 2]);
}

HOT void D27_SQR(uint64_t *r, const uint64_t *a, const D27_MOD *md) {
    __m256i As[P], Br[2 * P], Ad[P], C[NCOL + 6], X[P], x[6];
    __m256i pm = _mm256_setzero_si256(), ph = _mm256_setzero_si256();
    operands(As, Br, a, a);
    for (int s = 0; s < P; s++)
        Ad[s] = ADD(As[s], As[s]);
    for (int k0 = 0; k0 < NCOL; k0 += 6) {
        block6(x, 0, Ad, Br, 2 * P, k0, 0, 1);
        /* the diagonal's terms in columns k0..k0+5: two shapes */
        if ((k0 & 3) == 0) {
            int t = k0 / 4;
            x[0] = ADD(x[0], diag(a, As, Br, t, 0)); /* k0 <= 4P - 8: t < P - 1 */
            x[1] = ADD(x[1], diag(a, As, Br, t, 1));
            x[2] = ADD(x[2], diag(a, As, Br, t, 2));
            if (t + 1 < P)
                x[4] = ADD(x[4], diag(a, As, Br, t + 1, 0));
            if (t + 1 < P - 1)
                x[5] = ADD(x[5], diag(a, As, Br, t + 1, 1));
        } else {
            int t = (k0 - 2) / 4;
            x[0] = ADD(x[0], diag(a, As, Br, t, 2)); /* k0 <= 4P - 8 */
            if (t + 1 < P)
                x[2] = ADD(x[2], diag(a, As, Br, t + 1, 0));
            if (t + 1 < P - 1) {
                x[3] = ADD(x[3], diag(a, As, Br, t + 1, 1));
                x[4] = ADD(x[4], diag(a, As, Br, t + 1, 2));
            }
        }
        tend(X, C, x, k0, &pm, &ph);
    }
    C[NCOL] = _mm256_setzero_si256();
    top(X);
    redc(r, X, C, md);
}
