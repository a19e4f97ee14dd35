/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The one-lane radix-2^27 AVX2 Montgomery squaring for public 2048-bit
 * operands (mont_d27_avx2.h).  Four digits of one number per vector,
 * columns summed in 64-bit lanes: the multiplicand is stored reversed,
 * brev[Z + 75 - j] = b_j between zeros, so that the multiplier vector s
 * (a_4s .. a_4s+3) times the window at Z + 75 - k + 4s adds four products
 * of column k to one accumulator.  The windows come from four shifted
 * copies (aligned loads); eight columns per block, and the windows of
 * columns k0..k0+3 at step s are those of k0+4..k0+7 at step s + 1, kept
 * in registers.  The squaring takes the cross products once from a doubled
 * copy (2a reversed), the vector on the diagonal masked, the squares apart.
 * Reduction: U = (T mod R') N' mod R' (a low half product), then the
 * columns of U m from 72 up; T + U m = 0 mod R' and its carry into column
 * 76 is ceil((w_75 2^27 + w_74) / 2^54) since columns 0..73 (each below
 * 2^63) add less than 2^2035 = 2^1998 2^37.  Carries by one parallel pass
 * (each column split in three 27-bit parts for the digit and its next
 * two).  Bounds: digits < 2^28 + 2^10, products < 2^56.0001, a column of
 * T < 2^62.3, of U m < 2^61.3.  For a < 2^2051: T / R' < 2^2050 and
 * U m / R' < 2.01 m, so r < 2^2050 + 2.01 2^2048 < 0.76 2^2051. */
#include "bn/mont_d27_avx2.h"

#include <string.h>

#define D QUILL_D27_DIGITS
#define Z 16
#define RW QUILL_D27_RW
#define M27 ((1ull << 27) - 1)

void quill_d27_from_limbs(uint64_t x[D], const quill_limb *a, size_t n) {
    for (size_t k = 0; k < D; k++) {
        size_t bit = 27 * k, w = bit / 64;
        unsigned o = (unsigned)(bit % 64);
        uint64_t v = w < n ? a[w] >> o : 0;
        if (o > 37 && w + 1 < n)
            v |= a[w + 1] << (64 - o);
        x[k] = v & M27;
    }
}

void quill_d27_to_limbs(quill_limb r[33], const uint64_t x[D]) {
    memset(r, 0, 33 * sizeof(quill_limb));
    uint64_t c = 0;
    for (size_t k = 0; k < D; k++) {
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

static void rev_store(uint64_t rev[4 * RW], const uint64_t d[D]) {
    memset(rev, 0, 4 * RW * sizeof(uint64_t));
    for (int j = 0; j < D; j++)
        for (int o = 0; o < 4; o++)
            rev[o * RW + Z + 75 - j - o] = d[j];
}

void quill_d27_mod_init(quill_d27_mod *md, const quill_limb m[32]) {
    quill_limb mm[33], x[33], t[33], u[33];
    uint64_t d[D];
    memcpy(mm, m, 32 * sizeof(quill_limb));
    mm[32] = 0;
    quill_d27_from_limbs(d, mm, 33);
    rev_store(md->mrev, d);
    /* m^-1 mod 2^2112 by Newton's iteration x <- x (2 - m x), which doubles
     * the number of correct low limbs h: 1 (five steps in one limb, x = m
     * correct to 3 bits) -> 2 -> ... -> 32 -> 33.  With m x = 1 + 2^(64h) g
     * mod 2^(64L), the new x is x - 2^(64h) (x g mod 2^(64(L - h))): its low
     * h limbs stay, the next L - h are -(x g). */
    memset(x, 0, sizeof x);
    x[0] = m[0];
    for (int i = 0; i < 5; i++)
        x[0] *= 2 - m[0] * x[0];
    for (size_t h = 1; h < 33;) {
        size_t L = 2 * h > 33 ? 33 : 2 * h;
        mullo(t, mm, L, x, h, L);                /* t = m x, t[0..h) = 1, 0, ... */
        mullo(u, x, h, t + h, L - h, L - h);     /* x g */
        quill_limb borrow = 0;
        for (size_t i = 0; i < L - h; i++) {     /* x[h..L) = -(x g) */
            quill_dlimb s = (quill_dlimb)0 - u[i] - borrow;
            x[h + i] = (quill_limb)s;
            borrow = (quill_limb)(s >> 64) & 1;
        }
        h = L;
    }
    /* N' = -m^-1 mod 2^2112 (its low 2052 bits are used) */
    quill_limb borrow = 0;
    for (size_t i = 0; i < 33; i++) {
        quill_dlimb s = (quill_dlimb)0 - x[i] - borrow;
        x[i] = (quill_limb)s;
        borrow = (quill_limb)(s >> 64) & 1;
    }
    quill_d27_from_limbs(d, x, 33);
    rev_store(md->nprev, d);
}

#if QUILL_BN_HAVE_D27
#include <immintrin.h>

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
TGT void quill_mont_sqr_d27_avx2_public(uint64_t *r, const uint64_t *a, const quill_d27_mod *md) {
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

#endif
