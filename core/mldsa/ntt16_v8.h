/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The 8-lane int16 vectors of ntt16.c's portable build, set up for
 * ntt16_body.h (which this header includes): GCC/clang generic vectors,
 * SSE2 on baseline x86-64, NEON on AArch64.  Also included by
 * test_mldsa_ntt16, to check the body's reductions on every int16. */
#ifndef QUILL_MLDSA_NTT16_V8_H
#define QUILL_MLDSA_NTT16_V8_H

#include <stdint.h>
#include <string.h>

#include "common/compiler.h"
#include "ntt16.h"
#include "reduce.h"

typedef int16_t v8 __attribute__((vector_size(16)));
typedef uint16_t v8u __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));
typedef uint32_t v4u __attribute__((vector_size(16)));
typedef int64_t v2l __attribute__((vector_size(16)));

QUILL_INLINE v8 load8(const int16_t *p) {
    v8 v;
    memcpy(&v, p, sizeof(v));
    return v;
}

QUILL_INLINE void store8(int16_t *p, v8 v) {
    memcpy(p, &v, sizeof(v));
}

#if defined(__SSE2__)
#include <emmintrin.h>
/* pmulhw; gcc does not find it in the widening form below. */
QUILL_INLINE v8 mulhi8(v8 a, v8 b) {
    return (v8)_mm_mulhi_epi16((__m128i)a, (__m128i)b);
}
#else
QUILL_INLINE v8 mulhi8(v8 a, v8 b) {
    v8 r;
    for (unsigned i = 0; i < 8; i++)
        r[i] = (int16_t)(((int32_t)a[i] * b[i]) >> 16);
    return r;
}
#endif

#define NTT16_FN QUILL_INLINE
#if defined(__SSE2__)
#define V_OPAQUE(v) opaque8(v)
QUILL_INLINE v8 opaque8(v8 v) {
    __asm__("" : "+x"(v));
    return v;
}
#else
#define V_OPAQUE(v) (v)
#endif
#define V v8
#define VU v8u
#define V_LOAD(p) load8(p)
#define V_STORE(p, v) store8((p), (v))
#define V_DUP(x) ((v8){(x), (x), (x), (x), (x), (x), (x), (x)})
#define V_ROW(p) load8(p)
#define V_MULHI(a, b) mulhi8((a), (b))
#define V_LO16(a, b) QUILL_MLDSA_SHUFFLE((a), (b), v8, 0, 8, 1, 9, 2, 10, 3, 11)
#define V_HI16(a, b) QUILL_MLDSA_SHUFFLE((a), (b), v8, 4, 12, 5, 13, 6, 14, 7, 15)
#define V_LO32(a, b) ((v8)QUILL_MLDSA_SHUFFLE((v4i)(a), (v4i)(b), v4i, 0, 4, 1, 5))
#define V_HI32(a, b) ((v8)QUILL_MLDSA_SHUFFLE((v4i)(a), (v4i)(b), v4i, 2, 6, 3, 7))
#define V_LO64(a, b) ((v8)QUILL_MLDSA_SHUFFLE((v2l)(a), (v2l)(b), v2l, 0, 2))
#define V_HI64(a, b) ((v8)QUILL_MLDSA_SHUFFLE((v2l)(a), (v2l)(b), v2l, 1, 3))
#include "ntt16_body.h"

#endif
