/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * What the AVX-512 IFMA exponentiations share (exp_ifma.c, two lanes for
 * the CRT halves; exp_ifma_x1.c, one lane for the public operation):
 * numbers in radix 2^52 (VPMADD52LUQ / VPMADD52HUQ multiply the low 52 bits
 * of their operands), the conversions from and to radix 2^64, and the
 * carry-lookahead identity their normalisations use.  Internal to core/bn. */
#ifndef QUILL_BN_IFMA_D52_H
#define QUILL_BN_IFMA_D52_H

#include <stdint.h>
#include <string.h>

#include "bn/bn.h"
#include "bn/internal.h"

/* The IFMA code is built on x86-64 with GCC or Clang unless QUILL_NO_ASM. */
#if !defined(QUILL_NO_ASM) && defined(__x86_64__) && defined(__GNUC__)
#define QUILL_EXP_IFMA 1
#define IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define IFMA_INLINE                                                                         \
    static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))
/* The loops over the vectors (W <= 10) are unrolled in full, so that the
 * vectors stay in registers.  Clang takes "GCC unroll 10" as an unroll
 * count and keeps such a loop when its trip count is below 10, spilling
 * the vectors: with clang 14 the one-lane exponentiation ran 2x slower at
 * 1024 to 3072 bits (bn_speed exp_f4), with branches left in the products. */
#if defined(__clang__)
#define D52_UNROLL_W _Pragma("clang loop unroll(full)")
#else
#define D52_UNROLL_W _Pragma("GCC unroll 10")
#endif
#endif

#define D52_MASK (((uint64_t)1 << 52) - 1)

typedef unsigned __int128 quill_u128;

/* d52_digits returns L = ceil(64 n / 52), the digit count for n limbs. */
static inline size_t d52_digits(size_t n) {
    return (64 * n + 51) / 52;
}

/* d52_from_limbs writes the L digits of a (n limbs) to d[0], d[stride],
 * ..., d[(L - 1) stride]; public bit positions only. */
static inline void d52_from_limbs(uint64_t *d, size_t stride, const quill_limb *a, size_t n,
                                  size_t L) {
    for (size_t j = 0; j < L; j++)
        d[stride * j] = quill_bn_bits(a, n, 52 * j, 52);
}

/* d52_to_limbs is the inverse: r (n limbs) from the L normalised digits at
 * d[0], d[stride], ... (value below 2^(64 n)). */
static inline void d52_to_limbs(quill_limb *r, size_t n, const uint64_t *d, size_t stride,
                                size_t L) {
    memset(r, 0, n * sizeof(quill_limb));
    for (size_t j = 0; j < L; j++) {
        uint64_t v = d[stride * j];
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        if (w < n)
            r[w] |= v << sh;
        if (sh > 12 && w + 1 < n)
            r[w + 1] |= v >> (64 - sh);
    }
}

/* d52_carries_in: with bit j of g set when digit j generates a carry (it is
 * at least 2^52) and bit j of p when it propagates one (it is 2^52 - 1),
 * returns the carries into the digits, bit j for digit j.  These are the
 * carries of the binary addition g + (g | p): digit j passes a carry on
 * exactly when g_j, or p_j and a carry came in, which is the carry rule of
 * that addition (generate g_j & (g | p)_j = g_j, propagate
 * g_j ^ (g | p)_j = p_j & ~g_j); and the carries into the bits of a sum are
 * sum ^ a ^ b. */
static inline quill_u128 d52_carries_in(quill_u128 g, quill_u128 p) {
    quill_u128 gp = g | p;
    return (g + gp) ^ g ^ gp;
}

#if defined(QUILL_EXP_IFMA)
#include <immintrin.h>

/* Largest vector count of either exponentiation: 80 words (two lanes of 40
 * digits, or one of 79). */
#define D52_MAXW 10

/* d52_load: the operand a and the modulus m (W vectors each, from the
 * 64-byte aligned words a and m) into A and M, and the accumulator X
 * cleared: the start of every almost-Montgomery product. */
IFMA_INLINE void d52_load(__m512i *A, __m512i *M, __m512i *X, const uint64_t *a,
                          const uint64_t *m, size_t W) {
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        A[v] = _mm512_load_si512((const void *)(a + 8 * v));
        M[v] = _mm512_load_si512((const void *)(m + 8 * v));
        X[v] = _mm512_setzero_si512();
    }
}

/* d52_products: one step's products of an almost-Montgomery product on W
 * vectors, b_i in B and y in Y (in the words of each lane): the low halves
 * added in place, X += lo52(A B) + lo52(M Y), at their own digit; the high
 * halves, which belong one digit up, summed apart, H = hi52(A B) +
 * hi52(M Y), for d52_shift_digit. */
IFMA_INLINE void d52_products(__m512i *X, __m512i *H, const __m512i *A, const __m512i *M,
                              __m512i B, __m512i Y, size_t W) {
    const __m512i zero = _mm512_setzero_si512();
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        H[v] = _mm512_madd52hi_epu64(zero, A[v], B);
        H[v] = _mm512_madd52hi_epu64(H[v], M[v], Y);
        X[v] = _mm512_madd52lo_epu64(X[v], A[v], B);
        X[v] = _mm512_madd52lo_epu64(X[v], M[v], Y);
    }
}

/* d52_shift_digit: the end of a step, X = (X >> one digit) + H, a digit
 * being `lanes' words (1, or 2 interleaved; a constant at every use). */
IFMA_INLINE void d52_shift_digit(__m512i *X, const __m512i *H, size_t W, unsigned lanes) {
    const __m512i zero = _mm512_setzero_si512();
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        const __m512i above = v + 1 < W ? X[v + 1] : zero;
        X[v] = lanes == 1 ? _mm512_alignr_epi64(above, X[v], 1)
                          : _mm512_alignr_epi64(above, X[v], 2);
        X[v] = _mm512_add_epi64(X[v], H[v]);
    }
}

/* d52_normalise: the words of W vectors, holding `lanes' numbers (1, or 2
 * interleaved: digit j of lane l in word 2j + l) in digits lazily carried
 * (up to 64 bits each), back to digits of 52 bits (the value of each lane
 * below 2^(52 * 8 W / lanes)).  One round moves each word's bits above 52
 * one digit up, leaving digits below 2^52 + 2^12; then a carry leaves digit
 * j exactly when it is at least 2^52 or it is 2^52 - 1 and a carry comes in
 * (d52_carries_in, on each lane's bits: with two lanes, the other lane's
 * bits are set as "propagate", so that a carry passes over them), and the
 * carries are added under an opmask.  lanes is a constant at every use. */
#define D52_EVEN_BITS (((quill_u128)0x5555555555555555u << 64) | 0x5555555555555555u)
IFMA_INLINE void d52_normalise(__m512i *x, size_t W, unsigned lanes) {
    const __m512i mask = _mm512_set1_epi64((long long)D52_MASK);
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i zero = _mm512_setzero_si512();
    __m512i c[D52_MAXW];
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        c[v] = _mm512_srli_epi64(x[v], 52);
        x[v] = _mm512_and_si512(x[v], mask);
    }
    quill_u128 g = 0, p = 0;
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        const __m512i below = v > 0 ? c[v - 1] : zero;
        x[v] = _mm512_add_epi64(x[v], lanes == 1 ? _mm512_alignr_epi64(c[v], below, 7)
                                                 : _mm512_alignr_epi64(c[v], below, 6));
        g |= (quill_u128)_mm512_cmpgt_epu64_mask(x[v], mask) << (8 * v);
        p |= (quill_u128)_mm512_cmpeq_epu64_mask(x[v], mask) << (8 * v);
    }
    quill_u128 k;
    if (lanes == 1) {
        k = d52_carries_in(g, p);
    } else {
        const quill_u128 even = D52_EVEN_BITS, odd = D52_EVEN_BITS << 1;
        quill_u128 k0 = d52_carries_in(g & even, (p & even) | odd) & even;
        quill_u128 k1 = d52_carries_in((g >> 1) & even, ((p >> 1) & even) | odd) & even;
        k = k0 | (k1 << 1);
    }
    D52_UNROLL_W for (size_t v = 0; v < W; v++) {
        x[v] = _mm512_mask_add_epi64(x[v], (__mmask8)(uint8_t)(k >> (8 * v)), x[v], one);
        x[v] = _mm512_and_si512(x[v], mask);
    }
}
#endif

#endif
