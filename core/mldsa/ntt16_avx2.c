/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX2 build of ntt16.h's transforms: ntt16_body.h on 16 lanes, the two
 * halves of a pair side by side (half h in 128-bit lane h: the pair layout
 * puts coefficients 8j..8j+7 of both halves in the 32 bytes of vector j),
 * so every instruction works on both polynomials.  The interleaves are
 * AVX2's, which act within 128-bit lanes, exactly the per-half shuffles the
 * transposes need.  Bit-identical to the portable build. */
#include "ntt16.h"

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

#include "common/zeroize.h"
#include "ntt16_v16.h"

AVX2 void quill_mldsa_ntt16_avx2(quill_mldsa_pair16 *pair) {
    ntt16_body(pair->c);
}

/* quill_mldsa_pair16_set(pair, c, c) for |c_i| <= 2^13: vpackssdw of a
 * vector with itself gives, per 128-bit lane, coefficients 8j..8j+3 (or
 * 8j+4..8j+7) twice; vpermq puts the four quarters in the pair's order
 * (both halves of block j hold 8j..8j+7).  The portable form (ntt16.c,
 * narrowing one value at a time) took 40% of mulc16_prepare. */
AVX2 static void pair_twice_avx2(quill_mldsa_pair16 *pair, const int32_t c[QUILL_MLDSA_N]) {
    for (unsigned j = 0; j < QUILL_MLDSA_N / 8; j++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(c + 8 * j));
        v = _mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), 0x88); /* 0, 2, 0, 2 */
        _mm256_storeu_si256((__m256i *)(void *)(pair->c + 16 * j), v);
    }
}

AVX2 void quill_mldsa_mulc16_prepare_avx2(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]) {
    quill_mldsa_pair16 c_hat;
    pair_twice_avx2(&c_hat, c);
    ntt16_body(c_hat.c);
    prepare16_body(m->m, m->mq, c_hat.c, 32);
    quill_zeroize(&c_hat, sizeof(c_hat));
}

/* The same from bytes: vpmovsxbw widens coefficients 8j..8j+7 to one
 * 128-bit lane, broadcast to both halves of block j. */
AVX2 void quill_mldsa_mulc16_prepare_i8_avx2(quill_mldsa_chal16 *m,
                                             const int8_t c[QUILL_MLDSA_N]) {
    quill_mldsa_pair16 c_hat;
    for (unsigned j = 0; j < QUILL_MLDSA_N / 8; j++) {
        __m128i v = _mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(c + 8 * j)));
        _mm256_storeu_si256((__m256i *)(void *)(c_hat.c + 16 * j), _mm256_broadcastsi128_si256(v));
    }
    ntt16_body(c_hat.c);
    prepare16_body(m->m, m->mq, c_hat.c, 32);
    quill_zeroize(&c_hat, sizeof(c_hat));
}

AVX2 void quill_mldsa_mulc16_avx2(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                                  const quill_mldsa_pair16 *s_hat, unsigned shift) {
    int16_t *w = (int16_t *)(void *)out; /* the pair workspace (vector access only) */
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    inv16_groups(w, s_hat->c, m->m, m->mq);
    /* Vector i holds coefficients 8i..8i+7 of both products (a in the low
     * 128-bit lane, b in the high one), which become out's coefficients
     * a + 2^shift b in the same 32 bytes (their int32 form is exactly as
     * long), after the column has read them. */
    for (unsigned j = 0; j < 8; j++) {
        v16 x[4];
        inv16_column(x, w, j);
        for (unsigned g = 0; g < 4; g++) {
            __m256i a = _mm256_cvtepi16_epi32(_mm256_castsi256_si128((__m256i)x[g]));
            __m256i b = _mm256_cvtepi16_epi32(_mm256_extracti128_si256((__m256i)x[g], 1));
            _mm256_storeu_si256((__m256i *)(void *)(out + 8 * (j + 8 * g)),
                                _mm256_add_epi32(a, _mm256_sll_epi32(b, sh)));
        }
    }
}
#endif
