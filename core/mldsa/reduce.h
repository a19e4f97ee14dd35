/* Copyright quill authors.
 *
 * Reductions modulo q = 8380417 on signed 32-bit coefficients, all inline,
 * branch-free and without value barriers (they sit inside the NTT).  Right
 * shifts of negative values are arithmetic on every compiler quill supports
 * (gcc, clang).  Montgomery factor R = 2^32. */
#ifndef QUILL_MLDSA_REDUCE_H
#define QUILL_MLDSA_REDUCE_H

#include <stdint.h>

#include "common/compiler.h"
#include "params.h"

/* q^-1 mod 2^32: q * 58728449 = 1 + 2^32 * 114592 (checked in test_mldsa_arith). */
#define QUILL_MLDSA_QINV 58728449
/* 2^32 mod q, centred: the Montgomery form of 1. */
#define QUILL_MLDSA_MONT (-4186625)

/* quill_mldsa_mont_reduce returns r = a * 2^-32 mod q with -q < r < q.
 * In: |a| < 2^31 q.  t = a * q^-1 mod 2^32 (as a signed word) makes
 * a - t q divisible by 2^32, and |a - t q| < 2^31 q + 2^31 q. */
QUILL_INLINE int32_t quill_mldsa_mont_reduce(int64_t a) {
    int32_t t = (int32_t)((uint32_t)a * (uint32_t)QUILL_MLDSA_QINV);
    return (int32_t)((a - (int64_t)t * QUILL_MLDSA_Q) >> 32);
}

/* quill_mldsa_mulhi returns the high 32 bits of the signed product a b,
 * from the unsigned one (which baseline SIMD has: SSE2's pmuludq), as
 * hi_u(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0) mod 2^32, with sign masks
 * instead of branches. */
QUILL_INLINE int32_t quill_mldsa_mulhi(int32_t a, int32_t b) {
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    uint32_t h = (uint32_t)(((uint64_t)ua * ub) >> 32);
    h -= ub & (uint32_t)(a >> 31);
    h -= ua & (uint32_t)(b >> 31);
    return (int32_t)h;
}

/* quill_mldsa_mont_mul returns a * b * 2^-32 mod q in (-q, q), the same
 * value as quill_mldsa_mont_reduce(a * b), computed as hi(a b) - hi(t q)
 * with t = a b q^-1 mod 2^32: a b - t q is divisible by 2^32, so the low
 * halves of a b and t q are equal and the difference of the high halves is
 * exact (the form the AVX2 backend uses too; gcc vectorises it with
 * baseline SSE2, about 20% faster than the 64-bit form).  In:
 * |a * b| < 2^31 q. */
QUILL_INLINE int32_t quill_mldsa_mont_mul(int32_t a, int32_t b) {
    int32_t t = (int32_t)((uint32_t)a * (uint32_t)b * (uint32_t)QUILL_MLDSA_QINV);
    return (int32_t)((uint32_t)quill_mldsa_mulhi(a, b) - (uint32_t)quill_mldsa_mulhi(t, QUILL_MLDSA_Q));
}

/* quill_mldsa_reduce32 returns r = a mod q with -6283009 <= r <= 6283008,
 * subtracting round(a / 2^23) q (2^23 = q + 8191).  In: a <= 2^31 - 2^22 - 1.
 * For |a mod± q| small relative to q/2 the result is the centred residue
 * whenever |a| <= 256 q. */
QUILL_INLINE int32_t quill_mldsa_reduce32(int32_t a) {
    int32_t t = (a + (1 << 22)) >> 23;
    return a - t * QUILL_MLDSA_Q;
}

/* quill_mldsa_caddq adds q to a negative a.  In: -q <= a.  Out: a mod q if
 * a < q. */
QUILL_INLINE int32_t quill_mldsa_caddq(int32_t a) {
    return a + ((a >> 31) & QUILL_MLDSA_Q);
}

/* quill_mldsa_freeze returns a mod q in [0, q).  In: as quill_mldsa_reduce32. */
QUILL_INLINE int32_t quill_mldsa_freeze(int32_t a) {
    return quill_mldsa_caddq(quill_mldsa_reduce32(a));
}

/* quill_mldsa_centre maps [0, q) to the centred residue a mod± q in
 * [-(q - 1)/2, (q - 1)/2]. */
QUILL_INLINE int32_t quill_mldsa_centre(int32_t a) {
    return a - (((((QUILL_MLDSA_Q - 1) / 2) - a) >> 31) & QUILL_MLDSA_Q);
}

#endif
