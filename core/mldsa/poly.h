/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Polynomials of Z_q[X]/(X^256 + 1) as 256 signed 32-bit coefficients, and
 * the coefficient-wise operations ML-DSA needs.  Everything here is
 * constant time; bounds are stated per function (In/Out).  Vectors of
 * polynomials are plain arrays of quill_mldsa_poly with their length passed
 * alongside (k or l of the parameter set). */
#ifndef QUILL_MLDSA_POLY_H
#define QUILL_MLDSA_POLY_H

#include <stdint.h>

#include "common/ct.h"
#include "params.h"

typedef struct quill_mldsa_poly {
    _Alignas(32) int32_t c[QUILL_MLDSA_N];
} quill_mldsa_poly;

/* quill_mldsa_poly_add / _sub set r = a + b / a - b (no reduction).  In: the
 * sums must fit in int32. */
void quill_mldsa_poly_add(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                          const quill_mldsa_poly *b);
void quill_mldsa_poly_sub(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                          const quill_mldsa_poly *b);

/* quill_mldsa_poly_shiftl multiplies by 2^d.  In: 0 <= a_i < 2^10. */
void quill_mldsa_poly_shiftl(quill_mldsa_poly *a);

/* quill_mldsa_poly_reduce32 applies quill_mldsa_reduce32 (out within
 * +-6283009); _freeze maps every coefficient to [0, q); _centre maps
 * [0, q) to the centred residues.  In: a_i <= 2^31 - 2^22 - 1. */
void quill_mldsa_poly_reduce32(quill_mldsa_poly *a);
void quill_mldsa_poly_freeze(quill_mldsa_poly *a);
void quill_mldsa_poly_centre(quill_mldsa_poly *a);

/* quill_mldsa_poly_ntt / _invntt_tomont / _pointwise_mont / _matvec_mont:
 * see ntt.h.  _matvec_mont sets r = sum_j a[j] o b[j] 2^-32 mod q over
 * n <= 8 consecutive pairs (the exact sum of the products, reduced once:
 * quill_mldsa_dot_mont).  In: 0 <= a[j]_i < q (A-hat), |b[j]_i| < 17q.
 * Out: |r_i| < q. */
void quill_mldsa_poly_ntt(quill_mldsa_poly *a);
void quill_mldsa_poly_invntt_tomont(quill_mldsa_poly *a);
void quill_mldsa_poly_pointwise_mont(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                                     const quill_mldsa_poly *b);
void quill_mldsa_poly_matvec_mont(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                                  const quill_mldsa_poly *b, unsigned n);

/* quill_mldsa_poly_norm_ge_mask returns all-ones if some |a_i| >= bound,
 * zero otherwise, looking at every coefficient (no early exit).
 * In: |a_i| < 2^31, 0 < bound <= 2^30. */
quill_word quill_mldsa_poly_norm_ge_mask(const quill_mldsa_poly *a, int32_t bound);

/* quill_mldsa_poly_norm_ge_public is the variable-time form for public
 * polynomials (z in verification): 1 if some |a_i| >= bound. */
int quill_mldsa_poly_norm_ge_public(const quill_mldsa_poly *a, int32_t bound);

#endif
