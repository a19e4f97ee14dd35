/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The one-lane radix-2^27 AVX2 Montgomery squaring for public 2048-,
 * 3072- and 4096-bit operands (mont_d27_avx2.h), one body instantiated per
 * digit count D (76, 116, 152; V = D / 4 vectors).  Four digits of one
 * number per vector, columns summed in 64-bit lanes: the multiplicand is
 * stored reversed, brev[Z + D - 1 - j] = b_j between zeros, so that the
 * multiplier vector s (a_4s .. a_4s+3) times the window at Z + D - 1 - k +
 * 4s adds four products of column k to one accumulator.  The windows come
 * from four shifted copies (aligned loads); eight columns per block, and
 * the windows of columns k0..k0+3 at step s are those of k0+4..k0+7 at
 * step s + 1, kept in registers.  The squaring takes the cross products
 * once from a doubled copy (2a reversed), the vector on the diagonal
 * masked, the squares apart.  Reduction: U = (T mod R') N' mod R' (a low
 * half product), then the columns of U m from D - 4 up; T + U m = 0 mod R'
 * and its carry into column D is ceil((w_{D-1} 2^27 + w_{D-2}) / 2^54),
 * since columns 0..D-3 (each below 2^64) add less than 2^(27 D - 17).
 * Carries by one parallel pass (each column split in three 27-bit parts
 * for the digit and its next two).
 *
 * Bounds.  Digits below 2^28 + 2^10 (a carried column below 2^64 gives
 * two 27-bit parts and one of 10 bits), so a product of two digits is
 * below 2^56.00002 and one with a digit of m or N' (exact, below 2^27)
 * below 2^55.00001.  Column k of T = a^2 has at most D products a_i a_j
 * (i + j = k, both below D): as D / 2 doubled cross products 2 a_i a_j
 * (i < j) plus a square; so T_k < D 2^56.00002, and a column of U m or of
 * (T mod R') N' is below D 2^55.00001.  The sum w_k = T_k + (U m)_k (T's
 * upper columns enter uncarried) is below 1.5 D 2^56.00002: 2^62.9 (D =
 * 76), 2^63.42 (116), 2^63.84 (152), all below 2^64; the carries added
 * into columns D, D + 1 are below 2^38.  For a < 2^(64 n + 3): T / R' <
 * 2^(128 n + 6 - 27 D) <= 2^(64 n + 2) (27 D >= 64 n + 4) and U m / R' <
 * 2.0001 m (U < 2.0001 R'), so r < 6.01 2^(64 n) < 2^(64 n + 3): the
 * output is a valid input, and below 2^(27 D - 1), so that the carries out
 * of the top columns are zero. */
#include "bn/mont_d27_avx2.h"

#include <string.h>

#define Z 16
#define M27 ((1ull << 27) - 1)

void quill_d27_from_limbs(uint64_t *x, size_t digits, const quill_limb *a, size_t n) {
    for (size_t k = 0; k < digits; k++)
        x[k] = quill_bn_bits(a, n, 27 * k, 27);
}

void quill_d27_to_limbs(quill_limb *r, const uint64_t *x, size_t digits) {
    memset(r, 0, (27 * digits + 63) / 64 * sizeof(quill_limb));
    uint64_t c = 0;
    for (size_t k = 0; k < digits; k++) {
        uint64_t v = x[k] + c;
        uint64_t d = v & M27;
        c = v >> 27;
        size_t bit = 27 * k, w = bit / 64;
        unsigned o = (unsigned)(bit % 64);
        r[w] |= d << o;
        if (o > 37)
            r[w + 1] |= d >> (64 - o);
    }
}

/* r = a b mod 2^(64 L), a of na limbs, b of nb (r apart from a and b). */
static void mullo(quill_limb *r, const quill_limb *a, size_t na, const quill_limb *b, size_t nb,
                  size_t L) {
    memset(r, 0, L * sizeof(quill_limb));
    for (size_t i = 0; i < na && i < L; i++) {
        quill_limb c = 0;
        size_t j = 0;
        for (; j < nb && i + j < L; j++) {
            quill_dlimb t = (quill_dlimb)a[i] * b[j] + r[i + j] + c;
            r[i + j] = (quill_limb)t;
            c = (quill_limb)(t >> 64);
        }
        if (i + j < L)
            r[i + j] = c;
    }
}

void quill_d27_rev(uint64_t *rev, const uint64_t *d, size_t D) {
    size_t RW = quill_d27_rw(D);
    memset(rev, 0, 4 * RW * sizeof(uint64_t));
    for (size_t j = 0; j < D; j++)
        for (size_t o = 0; o < 4; o++)
            rev[o * RW + Z + D - 1 - j - o] = d[j];
}

void quill_d27_mod_init(quill_d27_mod *md, const quill_limb *m, size_t n) {
    enum { L1 = 64 + 1 };
    size_t D = quill_d27_digits(n), RW = quill_d27_rw(D), L = n + 1;
    quill_limb mm[L1], x[L1], t[L1], u[L1];
    uint64_t d[QUILL_D27_MAX_DIGITS];
    md->n = (uint32_t)n;
    md->digits = (uint32_t)D;
    md->rw = (uint32_t)RW;
    md->shift = (uint32_t)(27 * D - 64 * n);
    md->pad[0] = md->pad[1] = 0;
    memcpy(mm, m, n * sizeof(quill_limb));
    mm[n] = 0;
    quill_d27_from_limbs(d, D, mm, L);
    quill_d27_rev(quill_d27_mrev(md), d, D);
    /* m^-1 mod 2^(64 L) by Newton's iteration x <- x (2 - m x), which
     * doubles the number of correct low limbs h: 1 (quill_bn_inv64) -> 2
     * -> ... -> L.  With m x = 1 + 2^(64h) g mod 2^(64l), the new x is
     * x - 2^(64h) (x g mod 2^(64(l - h))): its low h limbs stay, the next
     * l - h are -(x g). */
    memset(x, 0, sizeof x);
    x[0] = quill_bn_inv64(m[0]);
    for (size_t h = 1; h < L;) {
        size_t l = 2 * h > L ? L : 2 * h;
        mullo(t, mm, l, x, h, l);            /* t = m x, t[0..h) = 1, 0, ... */
        mullo(u, x, h, t + h, l - h, l - h); /* x g */
        quill_limb borrow = 0;
        for (size_t i = 0; i < l - h; i++) { /* x[h..l) = -(x g) */
            quill_dlimb s = (quill_dlimb)0 - u[i] - borrow;
            x[h + i] = (quill_limb)s;
            borrow = (quill_limb)(s >> 64) & 1;
        }
        h = l;
    }
    /* N' = -m^-1 mod 2^(64 L) (its low 27 D bits are used) */
    quill_limb borrow = 0;
    for (size_t i = 0; i < L; i++) {
        quill_dlimb s = (quill_dlimb)0 - x[i] - borrow;
        x[i] = (quill_limb)s;
        borrow = (quill_limb)(s >> 64) & 1;
    }
    quill_d27_from_limbs(d, D, x, L);
    quill_d27_rev(quill_d27_nprev(md), d, D);
}

#if QUILL_BN_HAVE_D27
#include <immintrin.h>

#define TGT __attribute__((target("avx2")))
/* The kernels start at 64 bytes, which pins the object's layout mod 64
 * wherever the link puts it (see mont_d27x2_body.h). */
#define HOT __attribute__((target("avx2"), aligned(64)))
#define INL __attribute__((target("avx2"), always_inline)) static inline

/* Four column sums of c0..c3 in one vector (lane q = sum of c_q's lanes). */
INL __m256i hsum4(__m256i c0, __m256i c1, __m256i c2, __m256i c3) {
    __m256i t0 = _mm256_add_epi64(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
    __m256i t1 = _mm256_add_epi64(_mm256_unpacklo_epi64(c2, c3), _mm256_unpackhi_epi64(c2, c3));
    return _mm256_add_epi64(_mm256_permute2x128_si256(t0, t1, 0x20),
                            _mm256_permute2x128_si256(t0, t1, 0x31));
}

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define LDA(p) _mm256_load_si256((const __m256i *)(p))
#define STA(p, x) _mm256_store_si256((__m256i *)(p), x)

/* Columns k0 .. k0+7 of a b (k0 = D mod 4, so that every window is aligned
 * in one of the shifted copies cp, RW words each), multiplier vectors s0 ..
 * s1 - 1 of a, added to c[0..7].  lead: vector s0 for columns k0 .. k0+3
 * only; trail: vector s1 - 1 for columns k0+4 .. k0+7 only, taken first
 * (its own four windows loaded) so that the block ends with a whole step:
 * what follows a block's last products costs more than its issue slots
 * (docs/limits.md, "The one-lane d27 squaring: its block ends"). */
INL void cols8(__m256i c[8], const uint64_t *a, const uint64_t *cp, const int D, const int k0,
               int s0, int s1, const int lead, const int trail) {
    const int RW = D + 36;
    __m256i c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5], c6 = c[6],
            c7 = c[7];
    const uint64_t *w = cp + (Z + D - 8 - k0) + 4 * s0;
    const uint64_t *ap = a + 4 * s0;
    /* window q (0..7) of step s: column k0 + 7 - q, at w + q */
#define WL(q) LDA(w + ((q)&3) * RW + ((q) & ~3))
#define MACR(c, W) c = _mm256_add_epi64(c, _mm256_mul_epu32(A, W)); __asm__("" : "+x"(c))
    /* the half steps: columns k0+7..k0+4 with the windows kept from the
     * step before (W0..W3), then k0+3..k0 with the next four windows, which
     * the next step's upper half reuses */
#define UPPER() MACR(c7, W0); MACR(c6, W1); MACR(c5, W2); MACR(c4, W3)
#define LOWER()                                                                            \
    W0 = WL(4); MACR(c3, W0); W1 = WL(5); MACR(c2, W1);                                    \
    W2 = WL(6); MACR(c1, W2); W3 = WL(7); MACR(c0, W3)
    __m256i W0, W1, W2, W3, A;
    if (trail) { /* vector s1 - 1's upper half first, from its own windows */
        s1--;
        const uint64_t *w0 = w;
        w += 4 * (s1 - s0);
        A = LDA(ap + 4 * (s1 - s0));
        W0 = WL(0), W1 = WL(1), W2 = WL(2), W3 = WL(3);
        UPPER();
        w = w0;
    }
    if (lead) {
        A = LDA(ap);
        LOWER();
        w += 4, ap += 4, s0++;
    } else {
        W0 = WL(0), W1 = WL(1), W2 = WL(2), W3 = WL(3);
    }
    for (int s = s0; s < s1; s++, w += 4, ap += 4) {
        A = LDA(ap);
        UPPER();
        LOWER();
    }
#undef UPPER
#undef LOWER
#undef WL
#undef MACR
    c[0] = c0, c[1] = c1, c[2] = c2, c[3] = c3, c[4] = c4, c[5] = c5, c[6] = c6, c[7] = c7;
}

/* out[0..7] = the columns c (lanes summed), plus add[0..7] if add. */
INL void store8(uint64_t *out, __m256i c[8], const uint64_t *add) {
    __m256i lo = hsum4(c[0], c[1], c[2], c[3]), hi = hsum4(c[4], c[5], c[6], c[7]);
    if (add) {
        lo = _mm256_add_epi64(lo, LDA(add));
        hi = _mm256_add_epi64(hi, LDA(add + 4));
    }
    STA(out, lo);
    STA(out + 4, hi);
}

INL void block8(uint64_t *out, const uint64_t *a, const uint64_t *cp, const int D, const int k0,
                int s0, int s1, int lead, int trail, const uint64_t *add) {
    __m256i c[8];
    for (int q = 0; q < 8; q++)
        c[q] = _mm256_setzero_si256();
    if (s1 > s0)
        cols8(c, a, cp, D, k0, s0, s1, lead, trail);
    store8(out, c, add);
}

/* Columns k0 .. k0+3 of a b, vectors s0 .. s1 - 1 (the windows 4..7 of
 * cols8 at k0 - 4), lanes summed. */
INL __m256i block4(const uint64_t *a, const uint64_t *cp, const int D, const int k0, int s0,
                   int s1) {
    const int RW = D + 36;
    __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;
    const uint64_t *w = cp + (Z + D - 4 - k0) + 4 * s0;
    const uint64_t *ap = a + 4 * s0;
    for (int s = s0; s < s1; s++, w += 4, ap += 4) {
        __m256i A = LDA(ap);
        c3 = _mm256_add_epi64(c3, _mm256_mul_epu32(A, LDA(w + 0 * RW)));
        c2 = _mm256_add_epi64(c2, _mm256_mul_epu32(A, LDA(w + 1 * RW)));
        c1 = _mm256_add_epi64(c1, _mm256_mul_epu32(A, LDA(w + 2 * RW)));
        c0 = _mm256_add_epi64(c0, _mm256_mul_epu32(A, LDA(w + 3 * RW)));
    }
    return hsum4(c0, c1, c2, c3);
}

/* The masks of the vector on the diagonal: lane l holds i = 4t + l, and in
 * column 8t + q it pairs with j = 8t + q - i; i < j iff 2l < q. */
static const uint64_t diag_lt[8][4] __attribute__((aligned(32))) = {
    {0, 0, 0, 0}, {~0ull, 0, 0, 0}, {~0ull, 0, 0, 0}, {~0ull, ~0ull, 0, 0},
    {~0ull, ~0ull, 0, 0}, {~0ull, ~0ull, ~0ull, 0}, {~0ull, ~0ull, ~0ull, 0},
    {~0ull, ~0ull, ~0ull, ~0ull}};

/* Columns k0 .. k0+7 (k0 = 8t) of a^2: the squares a_i^2 (sq) in column
 * 2i and the cross products 2 a_i a_j, i < j (cp: 2a reversed, shifted
 * copies), of vector t masked to 2l < q, then of the vectors s0 .. t - 1
 * whole (every lane has i < j; s0 the first with a lane i >= k0 - (D - 1)).
 * The squares and the diagonal vector start the accumulators rather than
 * being added after the rows: operations after a block's last row (here
 * only the lane sums and the stores) cost far more than their issue slots
 * (docs/limits.md, "The one-lane d27 squaring: its block ends"). */
INL void sqr_block8(uint64_t *out, const uint64_t *a, const uint64_t *cp, const int D,
                    const int k0, const uint64_t *sq) {
    const int RW = D + 36, t = k0 / 8;
    const int s0 = k0 >= D ? (k0 - D + 1) / 4 : 0;
    __m256i c[8];
    /* the squares of vector t: a_{4t+l}^2 (sq's vector t) in column k0 + 2l,
     * lane l of that column's accumulator */
    {
        __m256i sqv = LDA(sq + k0 / 2), z0 = _mm256_setzero_si256();
        c[0] = _mm256_blend_epi32(z0, sqv, 0x03);
        c[2] = _mm256_blend_epi32(z0, sqv, 0x0C);
        c[4] = _mm256_blend_epi32(z0, sqv, 0x30);
        c[6] = _mm256_blend_epi32(z0, sqv, 0xC0);
        c[1] = c[3] = c[5] = c[7] = z0;
    }
    {
        __m256i A = LDA(a + 4 * t);
        /* the window of column k0 + q at vector t: brev + Z + D - 1 - 4t - q */
        const uint64_t *w = cp + (Z + D - 4 - 4 * t);
#define DG(q)                                                                              \
    c[q] = _mm256_add_epi64(                                                               \
        c[q], _mm256_mul_epu32(_mm256_and_si256(A, LDA(diag_lt[q])),                       \
                               LDA(w + ((3 - (q)) & 3) * RW + ((3 - (q)) & ~3))))
        DG(1);
        DG(2);
        DG(3);
        DG(4);
        DG(5);
        /* columns 8t + 6, 7 pair lanes l <= 3 with j = 4t + q - l > D - 1
         * in the last block: only zeros there */
        if (t < D / 4 - 1) {
            DG(6);
            DG(7);
        }
#undef DG
    }
    /* from k0 = D on, vector s0 has no lane for columns k0+4 .. k0+7 */
    if (t > s0)
        cols8(c, a, cp, D, k0, s0, t, k0 >= D, 0);
    __m256i lo = hsum4(c[0], c[1], c[2], c[3]), hi = hsum4(c[4], c[5], c[6], c[7]);
    STA(out, lo);
    STA(out + 4, hi);
}

/* d[4v ..] for v in [v0, v1): digits of the columns x (x[-1], x[-2] read,
 * zero or the columns below). */
INL void carry_pass(uint64_t *d, const uint64_t *x, int v0, int v1) {
    const __m256i m = _mm256_set1_epi64x((long long)M27);
    for (int v = v0; v < v1; v++) {
        __m256i l0 = LD(x + 4 * v), l1 = LD(x + 4 * v - 1), l2 = LD(x + 4 * v - 2);
        __m256i t = _mm256_add_epi64(_mm256_and_si256(l0, m),
                                     _mm256_and_si256(_mm256_srli_epi64(l1, 27), m));
        STA(d + 4 * v, _mm256_add_epi64(t, _mm256_srli_epi64(l2, 54)));
    }
}

enum { DM = QUILL_D27_MAX_DIGITS };

/* r = T R'^-1 mod m up to multiples of m, T's columns at tc + 8 (2D of
 * them, each below D 2^56.00002; tc[0..7] zero): the Montgomery reduction
 * of the file's comment.  tc is overwritten. */
INL void reduce_d27(uint64_t *r, uint64_t *tc, const quill_d27_mod *md, const int D) {
    const int V = D / 4;
    uint64_t td[DM] __attribute__((aligned(32)));     /* T mod R' carried */
    uint64_t uc[8 + DM] __attribute__((aligned(32))); /* U's columns at uc + 8 */
    uint64_t ud[DM] __attribute__((aligned(32)));
    uint64_t w[2 * DM] __attribute__((aligned(32)));
    const __m256i z = _mm256_setzero_si256();
    /* Only T mod R' is carried (U reads it); the upper columns go into w as
     * they are, with the low part's carry out of columns D - 2, D - 1 */
    carry_pass(td, tc + 8, 0, V);
    tc[8 + D] += ((tc[8 + D - 1] >> 27) & M27) + (tc[8 + D - 2] >> 54);
    tc[8 + D + 1] += tc[8 + D - 1] >> 54;
    STA(tc + 8 + D - 4, LDA(td + D - 4));
    /* U = (T mod R') N' mod R': column k needs the vectors up to k / 4 */
    const uint64_t *np = quill_d27_nprev(md), *mp = quill_d27_mrev(md);
    STA(uc + 4, z);
    for (int k0 = 0; k0 + 8 <= D; k0 += 8)
        block8(uc + 8 + k0, td, np, D, k0, 0, k0 / 4 + 2, 0, 1, NULL);
    if (D % 8 == 4)
        STA(uc + 8 + D - 4, block4(td, np, D, D - 4, 0, V));
    carry_pass(ud, uc + 8, 0, V);
    /* w = T + U m, columns D - 4 .. 2D - 1 (D - 2 and D - 1 for the carry);
     * from k0 = D on, vector s0 has no lane for columns k0+4 .. k0+7 */
    int k1 = D - 4;
    if (D % 8 == 0) {
        STA(w + D - 4, _mm256_add_epi64(block4(ud, mp, D, D - 4, 0, V), LDA(tc + 8 + D - 4)));
        k1 = D;
    }
    for (int k0 = k1; k0 < 2 * D; k0 += 8)
        block8(w + k0, ud, mp, D, k0, k0 >= D ? (k0 - D + 1) / 4 : 0, V, k0 >= D, 0,
               tc + 8 + k0);
    unsigned __int128 lowc = ((unsigned __int128)w[D - 1] << 27) + w[D - 2];
    uint64_t c = (uint64_t)((lowc + ((1ull << 54) - 1)) >> 54);
    w[D - 2] = 0;
    w[D - 1] = 0;
    w[D] += c;
    carry_pass(r, w + D, 0, V);
}

/* r = a^2 R'^-1 mod m up to multiples of m, D digits (the file's comment). */
INL void sqr_d27(uint64_t *r, const uint64_t *a, const quill_d27_mod *md, const int D) {
    const int RW = D + 36, V = D / 4;
    uint64_t b2[4 * (DM + 36)] __attribute__((aligned(32)));
    uint64_t sq[DM] __attribute__((aligned(32)));
    uint64_t tc[8 + 2 * DM] __attribute__((aligned(32))); /* T's columns at tc + 8 */
    const __m256i z = _mm256_setzero_si256();
    /* The blocks read each copy only at the vectors Z - 4 .. Z + D - 4 (the
     * lowest for the windows of the top columns, the highest for the
     * diagonal of block 0), so only those are written: copy 0 holds the
     * digits between one zero vector on each side, which the shifted copies
     * read. */
    STA(b2 + Z - 4, z);
    STA(b2 + Z + D, z);
    for (int v = 0; v < V; v++) {
        __m256i x = LDA(a + 4 * v);
        STA(sq + 4 * v, _mm256_mul_epu32(x, x));
        x = _mm256_permute4x64_epi64(x, 0x1B);
        STA(b2 + Z + D - 4 - 4 * v, _mm256_add_epi64(x, x));
    }
    /* the shifted copies from aligned loads of copy 0 */
    for (int i = Z - 4; i < Z + D; i += 4) {
        __m256i cur = LDA(b2 + i);
        __m256i nxt = LDA(b2 + i + 4);
        __m256i o2 = _mm256_permute2x128_si256(cur, nxt, 0x21);
        STA(b2 + RW + i, _mm256_alignr_epi8(o2, cur, 8));
        STA(b2 + 2 * RW + i, o2);
        STA(b2 + 3 * RW + i, _mm256_alignr_epi8(nxt, o2, 8));
    }
    /* T = a^2, columns 0 .. 2D - 1 (the last is zero) */
    STA(tc, z);
    STA(tc + 4, z);
    for (int k0 = 0; k0 < 2 * D; k0 += 8)
        sqr_block8(tc + 8 + k0, a, b2, D, k0, sq);
    reduce_d27(r, tc, md, D);
}

/* r = x b R'^-1 mod m up to multiples of m, b given reversed (brev): T's
 * columns in 8-column blocks, column k from the vectors of x with a lane
 * i in [k - D + 1, k] (the `trail` half step below D, `lead` above). */
INL void mul_d27(uint64_t *r, const uint64_t *x, const uint64_t *brev, const quill_d27_mod *md,
                 const int D) {
    const int V = D / 4;
    uint64_t tc[8 + 2 * DM] __attribute__((aligned(32))); /* T's columns at tc + 8 */
    STA(tc, _mm256_setzero_si256());
    STA(tc + 4, _mm256_setzero_si256());
    for (int k0 = 0; k0 < 2 * D; k0 += 8) {
        if (k0 >= D)
            block8(tc + 8 + k0, x, brev, D, k0, (k0 - D + 1) / 4, V, 1, 0, NULL);
        else if (k0 / 4 + 2 <= V)
            block8(tc + 8 + k0, x, brev, D, k0, 0, k0 / 4 + 2, 0, 1, NULL);
        else
            block8(tc + 8 + k0, x, brev, D, k0, 0, V, 0, 0, NULL);
    }
    reduce_d27(r, tc, md, D);
}

static HOT void sqr_d27_76(uint64_t *r, const uint64_t *a, const quill_d27_mod *md) {
    sqr_d27(r, a, md, 76);
}
static HOT void sqr_d27_116(uint64_t *r, const uint64_t *a, const quill_d27_mod *md) {
    sqr_d27(r, a, md, 116);
}
static HOT void sqr_d27_152(uint64_t *r, const uint64_t *a, const quill_d27_mod *md) {
    sqr_d27(r, a, md, 152);
}

static HOT void mul_d27_76(uint64_t *r, const uint64_t *x, const uint64_t *brev,
                           const quill_d27_mod *md) {
    mul_d27(r, x, brev, md, 76);
}
static HOT void mul_d27_116(uint64_t *r, const uint64_t *x, const uint64_t *brev,
                            const quill_d27_mod *md) {
    mul_d27(r, x, brev, md, 116);
}
static HOT void mul_d27_152(uint64_t *r, const uint64_t *x, const uint64_t *brev,
                            const quill_d27_mod *md) {
    mul_d27(r, x, brev, md, 152);
}

TGT void quill_mont_mul_d27_avx2_public(uint64_t *r, const uint64_t *x, const uint64_t *brev,
                                        const quill_d27_mod *md) {
    if (md->digits == 76)
        mul_d27_76(r, x, brev, md);
    else if (md->digits == 116)
        mul_d27_116(r, x, brev, md);
    else
        mul_d27_152(r, x, brev, md);
}

TGT void quill_mont_sqr_d27_avx2_public(uint64_t *r, const uint64_t *a, const quill_d27_mod *md) {
    if (md->digits == 76)
        sqr_d27_76(r, a, md);
    else if (md->digits == 116)
        sqr_d27_116(r, a, md);
    else
        sqr_d27_152(r, a, md);
}

#endif
