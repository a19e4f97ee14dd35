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

/* The IFMA code is built on x86-64 with GCC or Clang unless QUILL_NO_ASM. */
#if !defined(QUILL_NO_ASM) && defined(__x86_64__) && defined(__GNUC__)
#define QUILL_EXP_IFMA 1
#define IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define IFMA_INLINE                                                                         \
    static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))
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
    for (size_t j = 0; j < L; j++) {
        size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
        uint64_t v = 0;
        if (w < n)
            v = a[w] >> sh;
        if (sh > 12 && w + 1 < n)
            v |= a[w + 1] << (64 - sh);
        d[stride * j] = v & D52_MASK;
    }
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

#endif
