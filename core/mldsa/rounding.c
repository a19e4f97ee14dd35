/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  FIPS 204, Algorithms 35 to 40, on polynomials. */
#include "rounding.h"

#include "clone.h"

#define GAMMA2_88 ((QUILL_MLDSA_Q - 1) / 88)
#define GAMMA2_32 ((QUILL_MLDSA_Q - 1) / 32)

/* The set's gamma2 is public: one loop per value so that each is compiled
 * with its constants; baseline and AVX2 builds (clone.h). */
QUILL_INLINE void decompose_body(quill_mldsa_poly *r1, quill_mldsa_poly *r0,
                                 const quill_mldsa_poly *r, int32_t gamma2) {
    if (gamma2 == GAMMA2_88) {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            r1->c[i] = quill_mldsa_decompose(&r0->c[i], r->c[i], GAMMA2_88);
    } else {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            r1->c[i] = quill_mldsa_decompose(&r0->c[i], r->c[i], GAMMA2_32);
    }
}
#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* quill_mldsa_decompose on 8 lanes with its constants as multipliers: gcc
 * turns the products by M and by 2 gamma2 into 4-5 shifts and additions
 * each (one vpmulld here) and the wrap test into three instructions (one
 * vpcmpeqd), 15 vector instructions per 8 coefficients where this takes 9;
 * the same values (signing's w1 and w0 are hashed and checked as before,
 * test_mldsa_arith compares every r with the scalar form).  Decompose of a
 * polynomial, Zen 4 (mldsa_kernels, AVX-512VL): 109 / 119 -> ~80 TSC ticks
 * (gamma2 (q - 1) / 88, (q - 1) / 32). */
#define DECOMPOSE_AVX2_LOOP(G2, S, M, K)                                                         \
    do {                                                                                         \
        const __m256i bias = _mm256_set1_epi32((G2)-1), mul = _mm256_set1_epi32(M);             \
        const __m256i two_g2 = _mm256_set1_epi32(2 * (G2));                                      \
        const __m256i top = _mm256_set1_epi32((QUILL_MLDSA_Q - 1) / (2 * (G2)));                 \
        for (unsigned i = 0; i < QUILL_MLDSA_N; i += 8) {                                        \
            __m256i v = _mm256_load_si256((const __m256i *)(const void *)(r->c + i));           \
            __m256i y = _mm256_srai_epi32(_mm256_add_epi32(v, bias), (S));                       \
            __m256i h = _mm256_srai_epi32(_mm256_mullo_epi32(y, mul), (K));                      \
            __m256i lo = _mm256_sub_epi32(v, _mm256_mullo_epi32(h, two_g2));                     \
            __m256i wrap = _mm256_cmpeq_epi32(h, top);                                           \
            _mm256_store_si256((__m256i *)(void *)(r0->c + i), _mm256_add_epi32(lo, wrap));      \
            _mm256_store_si256((__m256i *)(void *)(r1->c + i), _mm256_andnot_si256(wrap, h));    \
        }                                                                                        \
    } while (0)

__attribute__((target("avx2"))) static void decompose_avx2(quill_mldsa_poly *r1,
                                                           quill_mldsa_poly *r0,
                                                           const quill_mldsa_poly *r,
                                                           int32_t gamma2) {
    if (gamma2 == GAMMA2_88)
        DECOMPOSE_AVX2_LOOP(GAMMA2_88, 11, 11276, 20);
    else
        DECOMPOSE_AVX2_LOOP(GAMMA2_32, 9, 65601, 26);
}
#endif

static void decompose_c(quill_mldsa_poly *r1, quill_mldsa_poly *r0, const quill_mldsa_poly *r,
                        int32_t gamma2) {
    decompose_body(r1, r0, r, gamma2);
}

void quill_mldsa_poly_decompose(quill_mldsa_poly *r1, quill_mldsa_poly *r0,
                                const quill_mldsa_poly *r, int32_t gamma2) {
    QUILL_MLDSA_PICK(decompose)(r1, r0, r, gamma2);
}

QUILL_INLINE void highbits_body(quill_mldsa_poly *r1, const quill_mldsa_poly *r, int32_t gamma2) {
    int32_t r0;
    if (gamma2 == GAMMA2_88) {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            r1->c[i] = quill_mldsa_decompose(&r0, r->c[i], GAMMA2_88);
    } else {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            r1->c[i] = quill_mldsa_decompose(&r0, r->c[i], GAMMA2_32);
    }
}
QUILL_MLDSA_CLONE(void, highbits, (quill_mldsa_poly * r1, const quill_mldsa_poly *r, int32_t gamma2),
                  (r1, r, gamma2))

void quill_mldsa_poly_highbits(quill_mldsa_poly *r1, const quill_mldsa_poly *r, int32_t gamma2) {
    QUILL_MLDSA_PICK(highbits)(r1, r, gamma2);
}

/* HintBitUnpack's checks (FIPS 204, Algorithm 21, lines 4-5, 7, 13) made
 * as the hints are applied, one pass over each polynomial's indices (the
 * increase from the previous index ORed into one flag): half the loops of
 * checking first and applying after, and so half the loop exits, which
 * the branch predictor cannot know for a new signature.  The counts are
 * checked before any index is read. */
QUILL_INLINE int use_hints_body(quill_mldsa_poly *w1, const quill_mldsa_poly *w,
                                const uint8_t *hint, const quill_mldsa_params *p,
                                int32_t gamma2) {
    const unsigned omega = p->omega, k = p->k;
    unsigned bad = 0, j = 0;
    for (unsigned i = 0; i < k; i++) {
        bad |= (unsigned)(hint[omega + i] < j) | (unsigned)(hint[omega + i] > omega);
        j = hint[omega + i];
    }
    if (bad)
        return 0;
    j = 0;
    for (unsigned i = 0; i < k; i++) {
        int prev = -1;
        for (const unsigned end = hint[omega + i]; j < end; j++) {
            const unsigned x = hint[j];
            bad |= (unsigned)((int)x <= prev);
            prev = (int)x;
            w1[i].c[x] = quill_mldsa_use_hint_from_high(w[i].c[x], w1[i].c[x], gamma2);
        }
    }
    for (; j < omega; j++)
        bad |= hint[j];
    return bad == 0;
}

int quill_mldsa_use_hints_public(quill_mldsa_poly *w1, const quill_mldsa_poly *w,
                                 const uint8_t *hint, const quill_mldsa_params *p) {
    if (p->gamma2 == GAMMA2_88)
        return use_hints_body(w1, w, hint, p, GAMMA2_88);
    return use_hints_body(w1, w, hint, p, GAMMA2_32);
}

