/* Copyright quill authors.
 *
 * The number-theoretic transform over Z_q[X]/(X^256 + 1) (FIPS 204,
 * Algorithms 41 and 42), the backend interface for polynomial arithmetic:
 * every function here has a portable C body; a native backend (AVX2) would
 * slot in behind these names with a _capable() predicate and be compared
 * against the C path.  All constant time (no branch or index on values).
 *
 * Domains: quill_mldsa_ntt maps a polynomial to its NTT (bit-reversed order,
 * FIPS 204's convention); the pointwise product of two NTTs multiplied in
 * Montgomery form (a * b * 2^-32) and sent through quill_mldsa_invntt_tomont
 * (which multiplies by 2^32) gives the plain product. */
#ifndef QUILL_MLDSA_NTT_H
#define QUILL_MLDSA_NTT_H

#include <stdint.h>

#include "params.h"

/* quill_mldsa_zetas[i] = 1753^brv8(i) * 2^32 mod± q for i = 1..255 (1753 is
 * FIPS 204's primitive 512th root of unity zeta), [0] = 0.  Listed in
 * ntt.c and recomputed by test_mldsa_arith. */
extern const int32_t quill_mldsa_zetas[QUILL_MLDSA_N];

/* quill_mldsa_ntt transforms a in place.  In: |a_i| < B with B + 8q < 2^31
 * (callers use B <= 2^22 or B < q).  Out: |a_i| < B + 8q (so < 9q for B <= q). */
void quill_mldsa_ntt(int32_t a[QUILL_MLDSA_N]);

/* quill_mldsa_invntt_tomont computes 2^32 * NTT^-1(a) mod q in place.
 * In: |a_i| < q.  Out: |a_i| < q. */
void quill_mldsa_invntt_tomont(int32_t a[QUILL_MLDSA_N]);

/* quill_mldsa_pointwise_mont sets c_i = a_i b_i 2^-32 mod q.
 * In: |a_i b_i| < 2^31 q.  Out: |c_i| < q. */
void quill_mldsa_pointwise_mont(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                const int32_t b[QUILL_MLDSA_N]);

#endif
