/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Reductions modulo q = 8380417 on signed 32-bit coefficients, all inline,
 * branch-free and without value barriers (they sit inside the NTT).  Right
 * shifts of negative values are arithmetic on every compiler quill supports
 * (gcc, clang).  Montgomery factor R = 2^32. */
#ifndef QUILL_MLDSA_REDUCE_H
#define QUILL_MLDSA_REDUCE_H

#include <stdint.h>
#include <string.h>

#include "common/compiler.h"
#include "params.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* ---- Four coefficients at a time ----
 *
 * The portable NTT and pointwise products (ntt_c.c) work on GCC/clang generic
 * vectors of four int32 lanes: SSE2 on baseline x86-64, NEON on AArch64,
 * plain scalar code where the target has no SIMD.  Baseline x86-64 has no
 * 32-bit vector multiply, neither the low nor the high half; its only one
 * is pmuludq (unsigned 32 x 32 -> 64 bits on lanes 0 and 2), so products
 * are formed as unsigned 64-bit numbers and corrected for the signs
 * (quill_mldsa_v4_mul_even below).  Loads and stores are unaligned
 * memcpys. */
typedef int32_t quill_mldsa_v4 __attribute__((vector_size(16)));
typedef uint64_t quill_mldsa_v2x64 __attribute__((vector_size(16)));
/* Unsigned lanes, for sums that wrap modulo 2^32 by design (signed vector
 * overflow is undefined, as for scalars). */
typedef uint32_t quill_mldsa_v4u __attribute__((vector_size(16)));

/* QUILL_MLDSA_SHUFFLE(a, b, mask type, indices...): lanes of the
 * concatenation a || b, for generic vectors of any lane width (the mask
 * type: integer lanes as wide as a's; gcc wants the indices as a vector of
 * it, clang as a list); QUILL_MLDSA_V4_SHUFFLE for four int32 lanes. */
#if defined(__clang__)
#define QUILL_MLDSA_SHUFFLE(a, b, t, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define QUILL_MLDSA_SHUFFLE(a, b, t, ...) __builtin_shuffle(a, b, (t){__VA_ARGS__})
#endif
#define QUILL_MLDSA_V4_SHUFFLE(a, b, i0, i1, i2, i3) \
    QUILL_MLDSA_SHUFFLE(a, b, quill_mldsa_v4, i0, i1, i2, i3)
/* The 32-bit lane holding the low half of a 64-bit lane. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define QUILL_MLDSA_V4_LO 1
#else
#define QUILL_MLDSA_V4_LO 0
#endif

QUILL_INLINE quill_mldsa_v4 quill_mldsa_v4_load(const int32_t *p) {
    quill_mldsa_v4 v;
    memcpy(&v, p, sizeof(v));
    return v;
}

QUILL_INLINE void quill_mldsa_v4_store(int32_t *p, quill_mldsa_v4 v) {
    memcpy(p, &v, sizeof(v));
}

QUILL_INLINE quill_mldsa_v4 quill_mldsa_v4_dup(int32_t x) {
    return (quill_mldsa_v4){x, x, x, x};
}

/* quill_mldsa_v4_mul_even returns the unsigned 64-bit products of the low
 * 32-bit halves of the two 64-bit lanes of a and b (SSE2's pmuludq; lanes
 * 0 and 2 on little-endian targets).  gcc does not find pmuludq in the
 * generic form, so x86 uses the intrinsic. */
QUILL_INLINE quill_mldsa_v2x64 quill_mldsa_v4_mul_even(quill_mldsa_v4 a, quill_mldsa_v4 b) {
#if defined(__SSE2__)
    return (quill_mldsa_v2x64)_mm_mul_epu32((__m128i)a, (__m128i)b);
#elif defined(__clang__)
    const quill_mldsa_v2x64 m = {0xffffffffu, 0xffffffffu};
    return ((quill_mldsa_v2x64)a & m) * ((quill_mldsa_v2x64)b & m);
#else
    uint32_t x[4], y[4];
    uint64_t r[2];
    memcpy(x, &a, sizeof(x));
    memcpy(y, &b, sizeof(y));
#pragma GCC unroll 1
    for (unsigned i = 0; i < 2; i++)
        r[i] = (uint64_t)x[2 * i + QUILL_MLDSA_V4_LO] * y[2 * i + QUILL_MLDSA_V4_LO];
    quill_mldsa_v2x64 v;
    memcpy(&v, r, sizeof(v));
    return v;
#endif
}

/* quill_mldsa_v4_gather returns (de >> 32) + dodd + k in each 32-bit lane,
 * modulo 2^32: the Montgomery products below leave r - k in the high half
 * of each 64-bit lane of de (even lanes) and dodd (odd lanes), and dodd's
 * low halves hold a known constant that k takes back. */
QUILL_INLINE quill_mldsa_v4 quill_mldsa_v4_gather(quill_mldsa_v2x64 de, quill_mldsa_v2x64 dodd,
                                                  quill_mldsa_v4 k) {
    return (quill_mldsa_v4)((quill_mldsa_v4u)(de >> 32) + (quill_mldsa_v4u)dodd +
                            (quill_mldsa_v4u)k);
}

/* quill_mldsa_mont_mul_v4 is quill_mldsa_mont_mul on four lanes (the same
 * results).  With unsigned products hi_u, lo_u:
 *   hi(a b) = hi_u(a b) - (a < 0 ? b : 0) - (b < 0 ? a : 0)  (mod 2^32),
 * t = lo_u(lo_u(a b) q^-1) as in the scalar form, and t q is formed from
 * T = t + 2^31 in [0, 2^32): t q = T q - 2^31 q, so
 *   a b - t q = (P - T q) + 2^31 q - 2^32 (corrections),  P = a_u b_u,
 * whose low half is 0; the low half of P - T q is therefore 2^31 (q is
 * odd), adding 2^31 q carries one, and the result is the high half of
 * P - T q plus (q - 1) / 2 + 1 minus the corrections.  The products are
 * pmuludq's (quill_mldsa_v4_mul_even), the other lane of each 64-bit pair
 * shifted down for its own; t stays in the low halves where the products
 * leave it.  The results are gathered without shuffles: the first P - T q
 * shifted down by 32 gives the low lanes, the second one gives the high
 * lanes from its high half and adds its low half, 2^31, to the low lanes,
 * which the constant takes back (_nocorr: without the corrections).
 * In: |a * b| < 2^31 q.  Out: in (-q, q). */
QUILL_INLINE quill_mldsa_v4 quill_mldsa_mont_mul_v4_nocorr(quill_mldsa_v4 a, quill_mldsa_v4 b) {
    const quill_mldsa_v4 q = quill_mldsa_v4_dup(QUILL_MLDSA_Q);
    const quill_mldsa_v4 qinv = quill_mldsa_v4_dup(QUILL_MLDSA_QINV);
    const quill_mldsa_v4 top = quill_mldsa_v4_dup(INT32_MIN);
    const int32_t c = (QUILL_MLDSA_Q + 1) / 2;
    const int32_t c2 = c + INT32_MIN; /* c and 2^31 in the low lanes */
    const quill_mldsa_v4 k = QUILL_MLDSA_V4_LO ? (quill_mldsa_v4){c, c2, c, c2}
                                               : (quill_mldsa_v4){c2, c, c2, c};
    quill_mldsa_v4 ao = (quill_mldsa_v4)((quill_mldsa_v2x64)a >> 32);
    quill_mldsa_v4 bo = (quill_mldsa_v4)((quill_mldsa_v2x64)b >> 32);
    quill_mldsa_v2x64 pe = quill_mldsa_v4_mul_even(a, b), po = quill_mldsa_v4_mul_even(ao, bo);
    quill_mldsa_v4 te = (quill_mldsa_v4)quill_mldsa_v4_mul_even((quill_mldsa_v4)pe, qinv) ^ top;
    quill_mldsa_v4 to = (quill_mldsa_v4)quill_mldsa_v4_mul_even((quill_mldsa_v4)po, qinv) ^ top;
    quill_mldsa_v2x64 de = pe - quill_mldsa_v4_mul_even(te, q);
    quill_mldsa_v2x64 dodd = po - quill_mldsa_v4_mul_even(to, q);
    return quill_mldsa_v4_gather(de, dodd, k);
}

QUILL_INLINE quill_mldsa_v4 quill_mldsa_mont_mul_v4(quill_mldsa_v4 a, quill_mldsa_v4 b) {
#if defined(__clang__)
    /* clang vectorises the scalar form well, and would turn P - T q below
     * into a full 64-bit multiplication by -q. */
    quill_mldsa_v4 r;
    for (unsigned i = 0; i < 4; i++)
        r[i] = quill_mldsa_mont_mul(a[i], b[i]);
    return r;
#else
    return quill_mldsa_mont_mul_v4_nocorr(a, b) - ((a >> 31) & b) - ((b >> 31) & a);
#endif
}

#endif
