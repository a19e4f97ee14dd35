/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time fixed-base multiplication k * G (see p256_point.h) with
 * signed (Booth-recoded) windows of w = QUILL_P256_BASE_WINDOW bits.
 *
 * First k is replaced by k' = n - k when k >= 2^255, then k' < 2^255
 * (n < 2^256) and k G = -(k' G): the y of the result is negated under the
 * same mask at the end (the choice is secret; both are computed).
 *
 * Recoding: with b_j the bits of k' (b_-1 = 0 and b_j = 0 for j > 254),
 * digit i is d_i = b_(wi-1) + sum_(j<w-1) b_(wi+j) 2^j - b_(wi+w-1) 2^(w-1),
 * so that -2^(w-1) <= d_i <= 2^(w-1) and k' = sum_i d_i 2^(wi) (the sum
 * telescopes: each window's top bit counts -2^(w-1) here and +1 in the next
 * window).  256 / w windows (w divides 256) cover k': the top bit of the
 * last window is b_255 = 0, so nothing carries out of it.  k' * G is
 * the sum of the QUILL_P256_BASE_WINDOWS points sign(d_i) T[i][|d_i| - 1]
 * with T[i][j - 1] = j 2^(wi) G (p256_table.h; d_i = 0 adds nothing): one
 * mixed addition per window after the first, whose entry starts the sum,
 * and no doublings: 31 additions where the unsigned 4-bit comb this
 * replaced made 64.  Each entry is read by scanning
 * its whole row with masks and negated (y to p - y) under a mask.
 *
 * Width: w = 8 (33 windows of 128 entries, 264 KiB; 32 additions) against
 * w = 7 (37 of 64, 148 KiB; 36 additions), quill-limits minima on Zen 4
 * (ticks, the two builds alternated three times): k G 14.0-14.5k against
 * 14.8-15.0k, P-256 signing 24.9k against 25.6k.  The scan of a 128-entry
 * row still hides in the vector units beside the MULX chains of the fused
 * addition (asm/x86_64/p256_point_adx.S).  Earlier, w = 7 against w = 6
 * (43 of 32, 86 KiB), cycles per k G, minimum of 400 runs, gcc 12: 25100
 * against 26200 with the AVX2 gather, 36700 against 32900 with the SSE2
 * one (QUILL_CPU_MASK): the portable scan prefers narrow rows, the AVX2
 * path decides.
 *
 * Why the incomplete mixed addition is safe.  Before window i the
 * accumulator holds a G with a = sum_(j<i) d_j 2^(wj) = (k' mod 2^(wi)) -
 * b_(wi-1) 2^(wi), so |a| <= 2^(wi-1); the addend is t G with t = d_i 2^(wi),
 * 2^(wi) <= |t| <= 2^(w(i+1)-1) when d_i != 0.  The formula fails when
 * a = +-t mod n with both nonzero.  a = -t (mod n): a + t is the partial
 * sum a', with |a'| <= 2^(w(i+1)-1) <= 2^255 < n, and a + t = k',
 * 0 < k' < n, for the last window; a' = 0 as an integer would need
 * |a| = |t|.  a = t (mod n): a != t as integers (|a| < |t|), and
 * |a - t| <= |a| + |t| <= 2^(wi-1) + 2^(w(i+1)-1) <= 2^247 + 2^255 < n.
 * Infinity of either operand is handled in constant time by the addition.
 * All this requires k < n (so that 0 < k' < n for k != 0). */
#include <string.h>

#include "common/cpu.h"
#include "common/zeroize.h"
#include "ec/p256_adx.h"
#include "ec/p256_arm64.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_point.h"
#include "ec/p256_scalar.h"
#include "ec/p256_table.h"

#define W QUILL_P256_BASE_WINDOW

_Static_assert(QUILL_P256_BASE_WINDOW * QUILL_P256_BASE_WINDOWS == 256,
               "the windows cover bits 0..255 exactly (see above)");

/* The w + 1 bits b_(wi-1) .. b_(wi+w-1) of k (window i; i is public) read
 * from t = 2k (so that bit wi of t is b_(wi-1)), padded with zero words. */
QUILL_INLINE quill_word booth_window(const uint64_t t[6], unsigned i) {
    const unsigned pos = W * i, word = pos / 64, shift = pos % 64;
    quill_word v = t[word] >> shift;
    if (shift + W + 1 > 64) /* the window straddles two words (public) */
        v |= t[word + 1] << (64 - shift);
    return v & (((quill_word)1 << (W + 1)) - 1);
}

/* The gather: sets x, y (limbs) to row[abs - 1] for abs in 1..2^(w-1), and
 * to zero for abs = 0, reading every entry of the row and keeping the
 * wanted one with a mask (no address and no branch depends on abs).
 * Written with GCC/clang vector extensions so that each entry costs one
 * load, AND and OR per 16 bytes (baseline x86-64: SSE2) or per 32 bytes
 * (AVX2); a plain loop over words gets vectorised across entries, with
 * shuffles, at about twice the cost. */
typedef uint64_t lanes2 __attribute__((vector_size(16), aligned(8), may_alias));

void quill_p256_booth_gather_c(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                               quill_word abs) {
    lanes2 acc[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (unsigned i = 0; i < QUILL_P256_BASE_ROW; i++) {
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

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#include <immintrin.h>

typedef uint64_t lanes4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef int64_t slanes4 __attribute__((vector_size(32)));

/* The same with 32-byte vectors, compiled for AVX2 (the baseline compiler
 * splits a 32-byte vector badly, through the stack). */
__attribute__((target("avx2"))) static void
booth_gather_avx2(uint64_t x[4], uint64_t y[4], const quill_p256_affine row[QUILL_P256_BASE_ROW],
                  quill_word abs) {
    lanes4 acc[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    /* The mask comes from a vector comparison (VPCMPEQQ, all-ones lanes on
     * equality) of a running index with abs: two instructions per entry
     * instead of the scalar mask and its broadcast. */
    const slanes4 want = {(int64_t)abs, (int64_t)abs, (int64_t)abs, (int64_t)abs};
    slanes4 idx = {1, 1, 1, 1};
    for (unsigned i = 0; i < QUILL_P256_BASE_ROW; i++) {
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
/* The same with AVX-512VL on 32-byte vectors: VPTERNLOGQ computes
 * acc | (mask & entry) with the entry as its memory operand, one
 * instruction where AVX2 needs an AND and an OR, so an entry costs four
 * vector operations (compare, index step, two ternary-logic) instead of
 * six.  The mask is a vector (no opmask): every entry is loaded whole and
 * combined by the same operations, whatever abs is.  (64-byte vectors gain
 * nothing on Zen 4, which splits them into two 32-byte halves.) */
__attribute__((target("avx512f,avx512vl"))) static void
booth_gather_avx512vl(uint64_t x[4], uint64_t y[4],
                      const quill_p256_affine row[QUILL_P256_BASE_ROW], quill_word abs) {
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    const __m256i want = _mm256_set1_epi64x((long long)abs);
    const __m256i step = _mm256_set1_epi64x(1);
    __m256i idx = step;
    for (unsigned i = 0; i < QUILL_P256_BASE_ROW; i++) {
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
#define BOOTH_GATHER                                                                   \
    (quill_cpu_has(QUILL_CPU_X86_AVX512VL)                                             \
         ? booth_gather_avx512vl                                                       \
         : (quill_cpu_has(QUILL_CPU_X86_AVX2) ? booth_gather_avx2 : quill_p256_booth_gather_c))
#elif defined(QUILL_P256_HAVE_ARM64)
/* aarch64: the NEON scan (asm/aarch64/p256_gather_neon.S), one 64-byte LD1,
 * CMEQ and four BIT per entry, where gcc's code for the C form takes about
 * 23 instructions. */
_Static_assert(QUILL_P256_BASE_ROW == 128, "the NEON gather scans 128 entries");
#define BOOTH_GATHER                                                                   \
    (quill_p256_neon_capable() ? quill_p256_booth_gather_neon : quill_p256_booth_gather_c)
#else
#define BOOTH_GATHER quill_p256_booth_gather_c
#endif

typedef void booth_gather_fn(uint64_t x[4], uint64_t y[4],
                             const quill_p256_affine row[QUILL_P256_BASE_ROW], quill_word abs);

/* y = p - y under the mask neg (sign(d)); y = 0 (the infinity
 * placeholder) stays 0.  ny is scratch (secret; the caller zeroises it). */
QUILL_INLINE void booth_negate(quill_p256_affine *out, quill_word neg, quill_p256_fe *ny) {
    quill_p256_fe_sub_inline(ny, &(const quill_p256_fe){{0, 0, 0, 0}}, &out->y);
    for (int w = 0; w < 4; w++)
        out->y.v[w] = quill_ct_select_w(neg, ny->v[w], out->y.v[w]);
}

/* Sets out = sign(d) row[|d| - 1] for d != 0 and (0, 0) for d = 0 (neg is
 * the sign of d as a mask, abs its magnitude): the constant-time gather,
 * then y becomes p - y under the mask. */
QUILL_INLINE void booth_row_select(quill_p256_affine *out, booth_gather_fn *gather,
                                   const quill_p256_affine row[QUILL_P256_BASE_ROW], quill_word abs,
                                   quill_word neg, quill_p256_fe *ny) {
    gather(out->x.v, out->y.v, row, abs);
    booth_negate(out, neg, ny);
}

/* The signed digit of window i (public) of k, from t = 2k: neg its sign
 * as a mask, abs its magnitude (0..2^(w-1)). */
QUILL_INLINE void booth_digit(const uint64_t t[6], unsigned i, quill_word *neg, quill_word *abs) {
    const quill_word v = booth_window(t, i);
    /* d = (v >> 1) + (v & 1) - 2^w b_(wi+w-1), as a two's-complement word. */
    const quill_word d = (v >> 1) + (v & 1) - ((v >> W) << W);
    *neg = quill_ct_msb_mask(d);
    *abs = (d ^ *neg) - *neg;
}

void quill_p256_point_mul_base(quill_p256_jacobian *out, const quill_p256_scalar_plain *k) {
    quill_p256_jacobian acc;
    quill_p256_affine t;
    quill_p256_madd_scratch w;
    /* k' = n - k if k >= 2^255 (top, secret), else k: below 2^255. */
    const quill_word top = quill_ct_msb_mask(k->v[3]);
    quill_p256_scalar kk, kn;
    memcpy(kk.v, k->v, sizeof(kk.v));
    quill_p256_scalar_opp(&kn, &kk);
    quill_p256_scalar_selectznz(&kk, top, &kk, &kn);
    /* t = 2k' in six words: bit 0 is the b_-1 = 0 of the first window, the
     * top words the zero bits above 255. */
    uint64_t t2[6] = {kk.v[0] << 1,
                      (kk.v[1] << 1) | (kk.v[0] >> 63),
                      (kk.v[2] << 1) | (kk.v[1] >> 63),
                      (kk.v[3] << 1) | (kk.v[2] >> 63),
                      kk.v[3] >> 63,
                      0};
    booth_gather_fn *const gather = BOOTH_GATHER; /* CPU features, not data */
    /* With AVX2 and ADX the addition of window i scans row i + 1 in the
     * idle vector units (quill_p256_point_add_mixed_gather_adx), into g. */
#if defined(QUILL_P256_HAVE_ADX)
    const int fused = quill_p256_adx_gather_capable(); /* CPU features, not data */
#else
    const int fused = 0;
#endif
    uint64_t g[8] = {0};
    quill_p256_fe one, ny;
    quill_p256_fe_one(&one);
    for (unsigned i = 0; i < QUILL_P256_BASE_WINDOWS; i++) { /* i is public */
        quill_word neg, abs;
        booth_digit(t2, i, &neg, &abs);
        const quill_word is_zero = quill_ct_is_zero_mask(abs);
        if (fused && i >= 2) { /* row i was scanned by the last addition */
            memcpy(t.x.v, g, 32);
            memcpy(t.y.v, g + 4, 32);
            booth_negate(&t, neg, &ny);
        } else {
            booth_row_select(&t, gather, quill_p256_base_booth[i], abs, neg, &ny);
        }
        if (i == 0) {
            /* The first window needs no addition: the accumulator becomes
             * its entry (x, y, 1), or infinity (1, 1, 0) for d = 0. */
            for (int j = 0; j < 4; j++) {
                acc.x.v[j] = quill_ct_select_w(is_zero, one.v[j], t.x.v[j]);
                acc.y.v[j] = quill_ct_select_w(is_zero, one.v[j], t.y.v[j]);
                acc.z.v[j] = one.v[j] & ~is_zero;
            }
            continue;
        }
#if defined(QUILL_P256_HAVE_ADX)
        if (fused && i + 1 < QUILL_P256_BASE_WINDOWS) {
            quill_word neg_next, abs_next;
            booth_digit(t2, i + 1, &neg_next, &abs_next);
            quill_p256_point_add_mixed_gather_scratch(&acc, &acc, &t, is_zero, &w, g,
                                                      quill_p256_base_booth[i + 1], abs_next);
            continue;
        }
#endif
        quill_p256_point_add_mixed_scratch(&acc, &acc, &t, is_zero, &w);
    }
    /* k G = -(k' G) when k' = n - k: y to p - y under top (acc is not
     * infinity then, as 0 < k' < n). */
    quill_p256_fe_sub_inline(&ny, &(const quill_p256_fe){{0, 0, 0, 0}}, &acc.y);
    for (int j = 0; j < 4; j++)
        acc.y.v[j] = quill_ct_select_w(top, ny.v[j], acc.y.v[j]);
    *out = acc;
    quill_zeroize(&acc, sizeof(acc));
    quill_zeroize(&kk, sizeof(kk));
    quill_zeroize(&kn, sizeof(kn));
    quill_zeroize(&t, sizeof(t));
    quill_zeroize(&w, sizeof(w));
    quill_zeroize(t2, sizeof(t2));
    quill_zeroize(g, sizeof(g));
    quill_zeroize(&ny, sizeof(ny));
}
