/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The 16-lane int16 vectors of the AVX2 builds of ntt16.h's transforms
 * (ntt16_avx2.c, and the fused rows of signing, sign_row_avx2.c), set up
 * for ntt16_body.h, which this header includes: the two halves of a pair
 * side by side, half h in 128-bit lane h.  Only where
 * QUILL_MLDSA_HAVE_AVX2; the includer checks. */
#ifndef QUILL_MLDSA_NTT16_V16_H
#define QUILL_MLDSA_NTT16_V16_H

#include <immintrin.h>
#include <stdint.h>

#include "common/compiler.h"
#include "ntt16.h"

/* The includer may build for a wider target (sign_row_avx512vl.c). */
#ifndef QUILL_MLDSA_V16_TARGET
#define QUILL_MLDSA_V16_TARGET "avx2"
#endif
#define AVX2 __attribute__((target(QUILL_MLDSA_V16_TARGET)))

typedef int16_t v16 __attribute__((vector_size(32)));
typedef uint16_t v16u __attribute__((vector_size(32)));

#define V v16
#define VU v16u
#define V_LOAD(p) ((v16)_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define V_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (__m256i)(v))
#define V_DUP(x) ((v16)_mm256_set1_epi16((short)(x)))
#define V_DUP_LOAD(p) V_DUP(*(p))
#define V_ROW(p) ((v16)_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define V_MULHI(a, b) ((v16)_mm256_mulhi_epi16((__m256i)(a), (__m256i)(b)))
#define V_LO16(a, b) ((v16)_mm256_unpacklo_epi16((__m256i)(a), (__m256i)(b)))
#define V_HI16(a, b) ((v16)_mm256_unpackhi_epi16((__m256i)(a), (__m256i)(b)))
#define V_LO32(a, b) ((v16)_mm256_unpacklo_epi32((__m256i)(a), (__m256i)(b)))
#define V_HI32(a, b) ((v16)_mm256_unpackhi_epi32((__m256i)(a), (__m256i)(b)))
#define V_LO64(a, b) ((v16)_mm256_unpacklo_epi64((__m256i)(a), (__m256i)(b)))
#define V_HI64(a, b) ((v16)_mm256_unpackhi_epi64((__m256i)(a), (__m256i)(b)))

#define NTT16_FN AVX2 QUILL_INLINE

AVX2 QUILL_INLINE v16 opaque16(v16 v) {
    __asm__("" : "+x"(v));
    return v;
}
#define V_OPAQUE(v) opaque16(v)

#include "ntt16_body.h"

#endif
