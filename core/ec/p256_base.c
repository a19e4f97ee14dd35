/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time fixed-base multiplication k * G (see p256_point.h) with
 * signed (Booth-recoded) windows of w bits: w = 8 where the row scan is
 * fused into the ADX addition (x86-64 with BMI2, ADX and AVX2), w = 7
 * everywhere else (the portable C path, x86-64 without ADX, aarch64).
 *
 * Recoding: with b_j the bits of the scalar s (b_-1 = 0 and b_j = 0 above
 * its top bit), digit i is
 * d_i = b_(wi-1) + sum_(j<w-1) b_(wi+j) 2^j - b_(wi+w-1) 2^(w-1), so that
 * -2^(w-1) <= d_i <= 2^(w-1) and s = sum_i d_i 2^(wi) (the sum telescopes:
 * each window's top bit counts -2^(w-1) here and +1 in the next window).
 * s * G is the sum of the points sign(d_i) T[i][|d_i| - 1] with
 * T[i][j - 1] = j 2^(wi) G (p256_table.h; d_i = 0 adds nothing): one mixed
 * addition per window after the first, whose entry starts the sum, and no
 * doublings.  Each entry is read by scanning its whole row with masks and
 * negated (y to p - y) under a mask.
 *
 * w = 7: s = k, 256 / 7 + 1 = 37 windows of 64 entries (148 KiB) cover the
 * carry out of bit 255; 36 additions.  Recoding n - k when k >= 2^255
 * (below) would not help here: 255 bits still need 37 windows of 7.
 * w = 8: s = k' = n - k when k >= 2^255, else k, so s < 2^255 (n < 2^256)
 * and k G = -(k' G): the y of the result is negated under the same mask at
 * the end (the choice is secret; both are computed).  256 / 8 = 32
 * windows of 128 entries (256 KiB) cover s, the top bit of the last window
 * being b_255 = 0; 31 additions.
 *
 * Widths, quill-limits minima on Zen 4 (ticks, builds alternated): with
 * the fused ADX scan, k G 14.0-14.5k at w = 8 against 14.8-15.0k at w = 7
 * (P-256 signing 24.9k against 25.6k): the scan of a 128-entry row hides
 * in the vector units beside the MULX chains.  Where the scan is a
 * separate pass (the C gather, the SSE2/AVX2/AVX-512 gathers without ADX,
 * NEON), its doubled rows cost more than the five additions saved: w = 8
 * measured +9.6% per k G on the portable path and +1.6% without ADX, and
 * llvm-mca put the NEON scans at +10.4k cycles on Neoverse N1.  Earlier,
 * w = 7 against w = 6 (43 windows of 32, 86 KiB), cycles per k G, minimum
 * of 400 runs, gcc 12: 25100 against 26200 with the AVX2 gather, 36700
 * against 32900 with the SSE2 one (QUILL_CPU_MASK).
 *
 * Why the incomplete mixed addition is safe.  Before window i the
 * accumulator holds a G with a = sum_(j<i) d_j 2^(wj) = (s mod 2^(wi)) -
 * b_(wi-1) 2^(wi), so |a| <= 2^(wi-1); the addend is t G with t = d_i 2^(wi),
 * 2^(wi) <= |t| <= 2^(w(i+1)-1) when d_i != 0.  The formula fails when
 * a = +-t mod n with both nonzero.  a = -t (mod n): a + t is the partial
 * sum a', with |a'| <= 2^(w(i+1)-1) < n for every window but the last, and
 * a + t = s, 0 < s < n, for the last; a' = 0 as an integer would need
 * |a| = |t|.  a = t (mod n): a != t as integers (|a| < |t|), and
 * |a - t| <= |a| + |t| <= 2^(wi-1) + 2^(w(i+1)-1) < n except, for w = 7, in
 * the last window (bit 252, 7 * 36 = 252): there t = d 2^252 with
 * 0 <= d <= 16 (k < 2^256) and a in [-2^251, 2^251), so a - t = -n would
 * need d 2^252 = n + a in [n - 2^251, n), and no multiple of 2^252 lies
 * there (15 * 2^252 < n - 2^251 < n < 2^256).  For w = 8 every window
 * has w(i+1) - 1 <= 255 and wi - 1 <= 247, so |a - t| <= 2^247 + 2^255 < n
 * (and |a'| <= 2^255 < n).  Infinity of either operand is handled in
 * constant time by the addition.  All this requires k < n (so that
 * 0 < s < n for k != 0). */
#include <string.h>

#include "common/cpu.h"
#include "common/zeroize.h"
#include "ec/p256_adx.h"
#include "ec/p256_arm64.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_point.h"
#include "ec/p256_scalar.h"
#include "ec/p256_table.h"

_Static_assert(QUILL_P256_BASE_WINDOW * (QUILL_P256_BASE_WINDOWS - 1) < 256 &&
                   QUILL_P256_BASE_WINDOW * QUILL_P256_BASE_WINDOWS >= 257,
               "w = 7: the windows cover bits 0..255 and the carry out of bit 255");
#if defined(QUILL_P256_HAVE_ADX)
_Static_assert(QUILL_P256_BASE8_WINDOW * QUILL_P256_BASE8_WINDOWS == 256,
               "w = 8: the windows cover bits 0..255 of s < 2^255 exactly");
#endif

/* The w + 1 bits b_(wi-1) .. b_(wi+w-1) of s (window i; w and i are
 * public) read from t = 2s (so that bit wi of t is b_(wi-1)), padded with
 * zero words. */
QUILL_INLINE quill_word booth_window(const uint64_t t[6], unsigned w, unsigned i) {
    const unsigned pos = w * i, word = pos / 64, shift = pos % 64;
    quill_word v = t[word] >> shift;
    if (shift + w + 1 > 64) /* the window straddles two words (public) */
        v |= t[word + 1] << (64 - shift);
    return v & (((quill_word)1 << (w + 1)) - 1);
}

/* The gather: sets x, y (limbs) to row[abs - 1] for abs in 1..n, and to
 * zero for abs = 0, reading every entry of the row (n entries, public)
 * and keeping the wanted one with a mask (no address and no branch
 * depends on abs).  Written with GCC/clang vector extensions so that each
 * entry costs one load, AND and OR per 16 bytes (baseline x86-64: SSE2)
 * or per 32 bytes (AVX2); a plain loop over words gets vectorised across
 * entries, with shuffles, at about twice the cost. */
typedef uint64_t lanes2 __attribute__((vector_size(16), aligned(8), may_alias));

QUILL_INLINE void booth_gather_rows_c(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                                      unsigned n, quill_word abs) {
    lanes2 acc[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (unsigned i = 0; i < n; i++) {
        const quill_word mw = quill_ct_eq_mask(abs, i + 1);
        const lanes2 m = {mw, mw};
        const lanes2 *e = (const lanes2 *)&row[i];
        for (int h = 0; h < 4; h++)
            acc[h] |= e[h] & m;
    }
    memcpy(x, &acc[0], 32);
    memcpy(y, &acc[2], 32);
    quill_zeroize(acc, sizeof(acc)); /* which entry was kept is secret */
}

void quill_p256_booth_gather_c(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                               quill_word abs) {
    booth_gather_rows_c(x, y, row, QUILL_P256_BASE_ROW, abs);
}

#if defined(QUILL_P256_HAVE_ADX)
void quill_p256_booth_gather8_c(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                                quill_word abs) {
    booth_gather_rows_c(x, y, row, QUILL_P256_BASE8_ROW, abs);
}
#endif

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#include <immintrin.h>

typedef uint64_t lanes4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef int64_t slanes4 __attribute__((vector_size(32)));

/* The same with 32-byte vectors, compiled for AVX2 (the baseline compiler
 * splits a 32-byte vector badly, through the stack). */
__attribute__((target("avx2"), always_inline)) static inline void
booth_gather_rows_avx2(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row, unsigned n,
                       quill_word abs) {
    lanes4 acc[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    /* The mask comes from a vector comparison (VPCMPEQQ, all-ones lanes on
     * equality) of a running index with abs: two instructions per entry
     * instead of the scalar mask and its broadcast. */
    const slanes4 want = {(int64_t)abs, (int64_t)abs, (int64_t)abs, (int64_t)abs};
    slanes4 idx = {1, 1, 1, 1};
    for (unsigned i = 0; i < n; i++) {
        const lanes4 m = (lanes4)(idx == want);
        idx += 1;
        const lanes4 *e = (const lanes4 *)&row[i];
        acc[0] |= e[0] & m;
        acc[1] |= e[1] & m;
    }
    memcpy(x, &acc[0], 32);
    memcpy(y, &acc[1], 32);
    quill_zeroize(acc, sizeof(acc)); /* which entry was kept is secret */
}
__attribute__((target("avx2"))) static void
booth_gather_avx2(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row, quill_word abs) {
    booth_gather_rows_avx2(x, y, row, QUILL_P256_BASE_ROW, abs);
}
__attribute__((target("avx2"))) static void
booth_gather8_avx2(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row, quill_word abs) {
    booth_gather_rows_avx2(x, y, row, QUILL_P256_BASE8_ROW, abs);
}
/* The same with AVX-512VL on 32-byte vectors: VPTERNLOGQ computes
 * acc | (mask & entry) with the entry as its memory operand, one
 * instruction where AVX2 needs an AND and an OR, so an entry costs four
 * vector operations (compare, index step, two ternary-logic) instead of
 * six.  The mask is a vector (no opmask): every entry is loaded whole and
 * combined by the same operations, whatever abs is.  (64-byte vectors gain
 * nothing on Zen 4, which splits them into two 32-byte halves.) */
__attribute__((target("avx512f,avx512vl"), always_inline)) static inline void
booth_gather_rows_avx512vl(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                           unsigned n, quill_word abs) {
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    const __m256i want = _mm256_set1_epi64x((long long)abs);
    const __m256i step = _mm256_set1_epi64x(1);
    __m256i idx = step;
    for (unsigned i = 0; i < n; i++) {
        const __m256i m = _mm256_cmpeq_epi64(idx, want);
        const __m256i *e = (const __m256i *)(const void *)&row[i];
        idx = _mm256_add_epi64(idx, step);
        /* 0xf8 = A | (B & C) for A = acc, B = m, C = the entry. */
        acc0 = _mm256_ternarylogic_epi64(acc0, m, _mm256_loadu_si256(e), 0xf8);
        acc1 = _mm256_ternarylogic_epi64(acc1, m, _mm256_loadu_si256(e + 1), 0xf8);
    }
    _mm256_storeu_si256((__m256i *)(void *)x, acc0);
    _mm256_storeu_si256((__m256i *)(void *)y, acc1);
    /* acc0 and acc1 (which entry was kept is secret) die in registers;
     * the caller's copies are zeroised by it. */
}
__attribute__((target("avx512f,avx512vl"))) static void
booth_gather_avx512vl(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                      quill_word abs) {
    booth_gather_rows_avx512vl(x, y, row, QUILL_P256_BASE_ROW, abs);
}
__attribute__((target("avx512f,avx512vl"))) static void
booth_gather8_avx512vl(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                       quill_word abs) {
    booth_gather_rows_avx512vl(x, y, row, QUILL_P256_BASE8_ROW, abs);
}
#define BOOTH_GATHER                                                                   \
    (quill_cpu_has(QUILL_CPU_X86_AVX512VL)                                             \
         ? booth_gather_avx512vl                                                       \
         : (quill_cpu_has(QUILL_CPU_X86_AVX2) ? booth_gather_avx2 : quill_p256_booth_gather_c))
/* The 8-bit path requires AVX2 (quill_p256_adx_gather_capable). */
#define BOOTH_GATHER8                                                                  \
    (quill_cpu_has(QUILL_CPU_X86_AVX512VL) ? booth_gather8_avx512vl : booth_gather8_avx2)
#elif defined(QUILL_P256_HAVE_ARM64)
/* aarch64: the NEON scan (asm/aarch64/p256_gather_neon.S), one 64-byte LD1,
 * CMEQ and four BIT per entry, where gcc's code for the C form takes about
 * 23 instructions. */
_Static_assert(QUILL_P256_BASE_ROW == 64, "the NEON gather scans 64 entries");
#define BOOTH_GATHER                                                                   \
    (quill_p256_neon_capable() ? quill_p256_booth_gather_neon : quill_p256_booth_gather_c)
#else
#define BOOTH_GATHER quill_p256_booth_gather_c
#endif

typedef void booth_gather_fn(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                             quill_word abs);

/* y = p - y under the mask neg (sign(d)); y = 0 (the infinity
 * placeholder) stays 0.  ny is scratch (secret; the caller zeroises it). */
QUILL_INLINE void booth_negate(quill_p256_affine *out, quill_word neg, quill_p256_fe *ny) {
    quill_p256_fe_sub_inline(ny, &(const quill_p256_fe){{0, 0, 0, 0}}, &out->y);
    for (int w = 0; w < 4; w++)
        out->y.v[w] = quill_ct_select_w(neg, ny->v[w], out->y.v[w]);
}

/* The signed digit of window i of s, from t = 2s (w and i public): neg its
 * sign as a mask, abs its magnitude (0..2^(w-1)). */
QUILL_INLINE void booth_digit(const uint64_t t[6], unsigned w, unsigned i, quill_word *neg,
                              quill_word *abs) {
    const quill_word v = booth_window(t, w, i);
    /* d = (v >> 1) + (v & 1) - 2^w b_(wi+w-1), as a two's-complement word. */
    const quill_word d = (v >> 1) + (v & 1) - ((v >> w) << w);
    *neg = quill_ct_msb_mask(d);
    *abs = (d ^ *neg) - *neg;
}

/* Secret temporaries of the window loop, zeroised by its caller. */
typedef struct {
    quill_p256_affine t;
    quill_p256_madd_scratch w;
    uint64_t g[8];
    quill_p256_fe ny;
} booth_scratch;

/* The window loop: acc = s * G from t = 2s (six words), windows windows of
 * w bits over table (rows of 2^(w-1) entries); w, windows, fused and the
 * gather are public (CPU features and constants, inlined).  fused: the
 * addition of window i scans row i + 1 into the scratch's g
 * (quill_p256_point_add_mixed_gather_adx; AVX2 and ADX). */
QUILL_INLINE void booth_mul(quill_p256_jacobian *acc, const uint64_t t2[6], unsigned w,
                            unsigned windows, const quill_p256_affine *table,
                            booth_gather_fn *gather, int fused, booth_scratch *s) {
    const unsigned row = 1u << (w - 1);
    quill_p256_fe one;
    quill_p256_fe_one(&one);
    (void)fused;
    for (unsigned i = 0; i < windows; i++) { /* i is public */
        quill_word neg, abs;
        booth_digit(t2, w, i, &neg, &abs);
        const quill_word is_zero = quill_ct_is_zero_mask(abs);
        if (fused && i >= 2) { /* row i was scanned by the last addition */
            memcpy(s->t.x.v, s->g, 32);
            memcpy(s->t.y.v, s->g + 4, 32);
        } else {
            gather(s->t.x.v, s->t.y.v, table + (size_t)i * row, abs);
        }
        booth_negate(&s->t, neg, &s->ny);
        if (i == 0) {
            /* The first window needs no addition: the accumulator becomes
             * its entry (x, y, 1), or infinity (1, 1, 0) for d = 0. */
            for (int j = 0; j < 4; j++) {
                acc->x.v[j] = quill_ct_select_w(is_zero, one.v[j], s->t.x.v[j]);
                acc->y.v[j] = quill_ct_select_w(is_zero, one.v[j], s->t.y.v[j]);
                acc->z.v[j] = one.v[j] & ~is_zero;
            }
            continue;
        }
#if defined(QUILL_P256_HAVE_ADX)
        if (fused && i + 1 < windows) {
            quill_word neg_next, abs_next;
            booth_digit(t2, w, i + 1, &neg_next, &abs_next);
            quill_p256_point_add_mixed_gather_scratch(acc, acc, &s->t, is_zero, &s->w, s->g,
                                                      table + (size_t)(i + 1) * row, abs_next);
            continue;
        }
#endif
        quill_p256_point_add_mixed_scratch(acc, acc, &s->t, is_zero, &s->w);
    }
}

#if defined(QUILL_P256_HAVE_ADX)
/* w = 8 with the scan fused into the ADX addition: s = k or n - k, below
 * 2^255, 32 windows (see the top of the file). */
static void mul_base8(quill_p256_jacobian *out, const quill_p256_scalar_plain *k) {
    quill_p256_jacobian acc;
    booth_scratch sc, *const s = &sc;
    memset(sc.g, 0, sizeof(sc.g));
    /* s = n - k if k >= 2^255 (top, secret), else k: below 2^255. */
    const quill_word top = quill_ct_msb_mask(k->v[3]);
    quill_p256_scalar kk, kn;
    memcpy(kk.v, k->v, sizeof(kk.v));
    quill_p256_scalar_opp(&kn, &kk);
    quill_p256_scalar_selectznz(&kk, top, &kk, &kn);
    /* t = 2s in six words: bit 0 is the b_-1 = 0 of the first window, the
     * top words the zero bits above 255. */
    uint64_t t2[6] = {kk.v[0] << 1,
                      (kk.v[1] << 1) | (kk.v[0] >> 63),
                      (kk.v[2] << 1) | (kk.v[1] >> 63),
                      (kk.v[3] << 1) | (kk.v[2] >> 63),
                      kk.v[3] >> 63,
                      0};
    booth_mul(&acc, t2, QUILL_P256_BASE8_WINDOW, QUILL_P256_BASE8_WINDOWS,
              &quill_p256_base_booth8[0][0], BOOTH_GATHER8, 1, s);
    /* k G = -(s G) when s = n - k: y to p - y under top (acc is not
     * infinity then, as 0 < s < n). */
    quill_p256_fe_sub_inline(&s->ny, &(const quill_p256_fe){{0, 0, 0, 0}}, &acc.y);
    for (int j = 0; j < 4; j++)
        acc.y.v[j] = quill_ct_select_w(top, s->ny.v[j], acc.y.v[j]);
    *out = acc;
    quill_zeroize(&acc, sizeof(acc));
    quill_zeroize(&kk, sizeof(kk));
    quill_zeroize(&kn, sizeof(kn));
    quill_zeroize(t2, sizeof(t2));
    quill_zeroize(&sc, sizeof(sc));
}
#endif

/* w = 7 with a separate row scan: s = k, 37 windows (see the top). */
static void mul_base7(quill_p256_jacobian *out, const quill_p256_scalar_plain *k) {
    quill_p256_jacobian acc;
    booth_scratch s;
    /* t = 2k in six words: bit 0 is the b_-1 = 0 of the first window, the
     * top words the zero bits above 256. */
    uint64_t t2[6] = {k->v[0] << 1,
                      (k->v[1] << 1) | (k->v[0] >> 63),
                      (k->v[2] << 1) | (k->v[1] >> 63),
                      (k->v[3] << 1) | (k->v[2] >> 63),
                      k->v[3] >> 63,
                      0};
    booth_mul(&acc, t2, QUILL_P256_BASE_WINDOW, QUILL_P256_BASE_WINDOWS,
              &quill_p256_base_booth[0][0], BOOTH_GATHER, 0, &s);
    *out = acc;
    quill_zeroize(&acc, sizeof(acc));
    quill_zeroize(t2, sizeof(t2));
    quill_zeroize(&s, sizeof(s));
}

void quill_p256_point_mul_base(quill_p256_jacobian *out, const quill_p256_scalar_plain *k) {
#if defined(QUILL_P256_HAVE_ADX)
    /* The width follows the addition (CPU features, not data): 8 bits
     * where the ADX addition scans the next row in its idle vector units. */
    if (quill_p256_adx_gather_capable())
        mul_base8(out, k);
    else
#endif
        mul_base7(out, k);
}
