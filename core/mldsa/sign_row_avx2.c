/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX2 form of sign_row.h: both challenge products' inverse 16-bit
 * transforms (ntt16_body.h on 16 lanes, ntt16_v16.h) run to their last two
 * levels into the workspace; then each column j of both (inv16_column)
 * gives coefficients 8q..8q+7, q = j + 8g, of the two products of each
 * pair as the 128-bit halves of x[g], which the checks and the hints
 * consume at once: about half the instructions of quill_mldsa_mulc16
 * twice plus the two int32 passes over the stored products (sign_row.c).
 *
 * Per 8 coefficients (all int32 lanes; the bounds make every form exact):
 *  - c s1 = low half of the pair product, c s2 = high half (rows i < l;
 *    for i >= l the pair is (s2, 0) and c s2 is the low half);
 *  - c t0 = lo + 2^6 hi from the t0 pair, wrapping as quill_mldsa_mulc16
 *    does (|c t0| <= tau 2^12, so nothing wraps);
 *  - |v| >= b as vpcmpgtd(vpabsd(v), b - 1), ORed into one mask (|v| <
 *    2^31 everywhere: |z| <= gamma1 + beta, |r0| <= gamma2 + beta);
 *  - the hint: with e = -1 where w1 = 0 (else 0) and a0 = r0 + c t0,
 *    u = a0 + gamma2 - 1 - e and B = 2 gamma2 - e, the hint is set exactly
 *    when u >= B as unsigned numbers (vpmaxud(u, B) == u).  Where w1 != 0:
 *    u = a0 + gamma2 - 1 < 0 or >= 2 gamma2 is a0 <= -gamma2 or a0 >
 *    gamma2; where w1 = 0: u = a0 + gamma2 < 0 or > 2 gamma2 is a0 <
 *    -gamma2 or a0 > gamma2: quill_mldsa_hint_low in both cases (|a0| <
 *    2^30, so a negative u reads as at least 2^31 > B).
 * The counts of hints accumulate as the negated masks. */
#include "sign_row.h"

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

#include "ntt16_v16.h"

#define LD32(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define ST32(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))

/* vpabsd(v) > b1 as a mask. */
AVX2 QUILL_INLINE __m256i abs_gt(__m256i v, __m256i b1) {
    return _mm256_cmpgt_epi32(_mm256_abs_epi32(v), b1);
}

/* The row; has_z (a constant once inlined) says whether s_hat pairs c s1
 * with c s2 (rows i < l) or holds c s2 alone. */
AVX2 QUILL_INLINE quill_word row_avx2_body(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                           const quill_mldsa_sign_row_in *in,
                                           quill_mldsa_poly ws[2], const quill_mldsa_params *p,
                                           uint32_t *ones, int has_z) {
    int16_t *ws_s = (int16_t *)(void *)ws[0].c; /* vector access only, as mulc16 */
    int16_t *ws_t = (int16_t *)(void *)ws[1].c;
    const int32_t gamma2 = p->gamma2, beta = (int32_t)p->beta;
    const __m256i zb1 = _mm256_set1_epi32(p->gamma1 - beta - 1);
    const __m256i rb1 = _mm256_set1_epi32(gamma2 - beta - 1);
    const __m256i tb1 = _mm256_set1_epi32(gamma2 - 1);
    const __m256i ubias = _mm256_set1_epi32(gamma2 - 1);
    const __m256i ub = _mm256_set1_epi32(2 * gamma2);
    const __m256i zero = _mm256_setzero_si256();
    __m256i bad = zero, cnt = zero;

    inv16_groups(ws_s, in->s_hat->c, in->chat->m, in->chat->mq);
    inv16_groups(ws_t, in->t0_hat->c, in->chat->m, in->chat->mq);
    for (unsigned j = 0; j < 8; j++) {
        v16 xs[4], xt[4];
        inv16_column(xs, ws_s, j);
        inv16_column(xt, ws_t, j);
        for (unsigned g = 0; g < 4; g++) {
            const unsigned q = 8 * (j + 8 * g);
            __m256i lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128((__m256i)xs[g]));
            __m256i cs2 = lo;
            if (has_z) {
                cs2 = _mm256_cvtepi16_epi32(_mm256_extracti128_si256((__m256i)xs[g], 1));
                __m256i zv = _mm256_add_epi32(LD32(in->y->c + q), lo);
                ST32(z->c + q, zv);
                bad = _mm256_or_si256(bad, abs_gt(zv, zb1));
            }
            __m256i t_lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128((__m256i)xt[g]));
            __m256i t_hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256((__m256i)xt[g], 1));
            __m256i ct0 = _mm256_add_epi32(t_lo, _mm256_slli_epi32(t_hi, QUILL_MLDSA_T0_SPLIT));
            __m256i r0 = _mm256_sub_epi32(LD32(in->w0->c + q), cs2);
            bad = _mm256_or_si256(bad, _mm256_or_si256(abs_gt(r0, rb1), abs_gt(ct0, tb1)));
            __m256i e = _mm256_cmpeq_epi32(LD32(in->w1->c + q), zero);
            __m256i a0 = _mm256_add_epi32(r0, ct0);
            __m256i u = _mm256_sub_epi32(_mm256_add_epi32(a0, ubias), e);
            __m256i hm = _mm256_cmpeq_epi32(_mm256_max_epu32(u, _mm256_sub_epi32(ub, e)), u);
            ST32(h->c + q, _mm256_srli_epi32(hm, 31));
            cnt = _mm256_sub_epi32(cnt, hm);
        }
    }
    /* at most 256 per lane: the horizontal sum cannot wrap */
    __m128i c4 = _mm_add_epi32(_mm256_castsi256_si128(cnt), _mm256_extracti128_si256(cnt, 1));
    c4 = _mm_add_epi32(c4, _mm_shuffle_epi32(c4, 0x4e));
    c4 = _mm_add_epi32(c4, _mm_shuffle_epi32(c4, 0xb1));
    *ones += (uint32_t)_mm_cvtsi128_si32(c4);
    /* all-ones if any lane of bad is set: its sign bits (0..255), then
     * 0 - m has bit 63 set exactly when m != 0, without a branch */
    quill_word m = (quill_word)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bad));
    return (quill_word)0 - (((quill_word)0 - m) >> 63);
}

#ifndef SIGN_ROW_BACKEND
#define SIGN_ROW_BACKEND quill_mldsa_sign_row_avx2
#endif
AVX2 quill_word SIGN_ROW_BACKEND(quill_mldsa_poly *z, quill_mldsa_poly *h,
                        const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                        const quill_mldsa_params *p, uint32_t *ones) {
    if (in->y != NULL) /* public: the row number */
        return row_avx2_body(z, h, in, ws, p, ones, 1);
    return row_avx2_body(z, h, in, ws, p, ones, 0);
}
#endif
