/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Points of P-256 (y^2 = x^3 - 3x + b).  Coordinates are field elements in
 * the Montgomery domain (p256_fe.h).
 *
 *   quill_p256_jacobian  (X, Y, Z) stands for (X/Z^2, Y/Z^3); Z = 0 is the
 *                        point at infinity.
 *   quill_p256_affine    (x, y); the pair (0, 0), which is not on the curve,
 *                        stands for infinity where a function says so.
 *
 * Constant-time functions (names without _vartime) may take secret points
 * and scalars.  _vartime functions are for public data only (verification,
 * table generation).  None can fail unless they return a status. */
#ifndef QUILL_EC_P256_POINT_H
#define QUILL_EC_P256_POINT_H

#include <stdint.h>

#include "common/ct.h"
#include "ec/p256_fe.h"
#include "ec/p256_scalar.h"

typedef struct quill_p256_jacobian {
    quill_p256_fe x, y, z;
} quill_p256_jacobian;

typedef struct quill_p256_affine {
    quill_p256_fe x, y;
} quill_p256_affine;

/* quill_p256_generator sets out to the base point G (FIPS 186-5). */
void quill_p256_generator(quill_p256_affine *out);

/* quill_p256_point_double sets out = 2 * a with the a = -3 formulas
 * (dbl-2001-b): delta = Z^2, gamma = Y^2, beta = X * gamma,
 * alpha = 3 (X - delta)(X + delta), X3 = alpha^2 - 8 beta, Z3 = 2 Y Z,
 * Y3 = alpha (4 beta - X3) - 8 gamma^2, evaluated as 4M + 4S (see
 * p256_point.c).
 * Complete for P-256: infinity (Z = 0) gives Z3 = 0, and no point has
 * Y = 0 (the group order is odd).  Constant time.  out may alias a. */
void quill_p256_point_double(quill_p256_jacobian *out, const quill_p256_jacobian *a);

/* quill_p256_point_add_mixed sets out = a + b for Jacobian a and affine b
 * (madd-2007-bl, 7M + 4S), constant time, handling the cases in constant
 * time: a at infinity gives b; b_is_inf (mask all-ones) gives a.  NOT
 * handled: a == b or a == -b, both finite (the result is then wrong); the
 * callers rule it out (fixed-base comb, see p256_base.c).  out may alias a. */
void quill_p256_point_add_mixed(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                const quill_p256_affine *b, quill_word b_is_inf);

/* quill_p256_madd_scratch holds the temporaries of one mixed addition
 * (secret on the signing path). */
typedef struct quill_p256_madd_scratch {
    quill_p256_fe z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3;
    quill_p256_jacobian sum, bj;
} quill_p256_madd_scratch;

/* quill_p256_point_add_mixed_scratch is quill_p256_point_add_mixed with the
 * temporaries in *w, which the caller zeroises when done (once after a
 * loop of additions instead of once per addition). */
void quill_p256_point_add_mixed_scratch(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                        const quill_p256_affine *b, quill_word b_is_inf,
                                        quill_p256_madd_scratch *w);

/* quill_p256_point_add_mixed_gather_scratch is
 * quill_p256_point_add_mixed_scratch on quill_p256_point_add_mixed_gather_adx
 * (p256_adx.h): the same out, and gxy = x || y of row[abs - 1] (zeros for
 * abs = 0), scanned during the addition.  x86-64 only; call only when
 * quill_p256_adx_gather_capable() is true.  gxy must not alias b. */
void quill_p256_point_add_mixed_gather_scratch(quill_p256_jacobian *out,
                                               const quill_p256_jacobian *a,
                                               const quill_p256_affine *b, quill_word b_is_inf,
                                               quill_p256_madd_scratch *w, uint64_t gxy[8],
                                               const quill_p256_affine *row, quill_word abs);

/* quill_p256_point_add_mixed_raw_c is the formula of
 * quill_p256_point_add_mixed without the case handling, in portable C (the
 * twin of quill_p256_point_add_mixed_adx, p256_adx.h; exposed for its
 * test).  out may alias a. */
void quill_p256_point_add_mixed_raw_c(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                      const quill_p256_affine *b, quill_p256_madd_scratch *w);

/* quill_p256_booth_gather_c sets x, y to row[abs - 1] for 1 <= abs <= 64
 * (QUILL_P256_BASE_ROW, the row length of p256_table.h) and to zeros
 * otherwise, reading every entry of the row and keeping the wanted one
 * with a mask (no address and no branch depends on abs, which is secret):
 * the portable constant-time gather of quill_p256_point_mul_base and the
 * twin of its NEON and AVX2 forms (p256_base.c). */
void quill_p256_booth_gather_c(uint64_t x[4], uint64_t y[4], const quill_p256_affine *row,
                               quill_word abs);

/* quill_p256_point_add_vartime sets out = a + b for Jacobian points, complete
 * (infinity, a == b, a == -b), branching on the (public) points.
 * add-2007-bl.  out may alias a or b. */
void quill_p256_point_add_vartime(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                  const quill_p256_jacobian *b);

/* quill_p256_point_to_affine sets out = a in affine coordinates (one
 * constant-time inversion, quill_p256_fe_inv) and returns all-ones if a is infinity, in
 * which case out is (0, 0). */
quill_word quill_p256_point_to_affine(quill_p256_affine *out, const quill_p256_jacobian *a);

/* quill_p256_point_from_affine sets out = (x, y, 1). */
void quill_p256_point_from_affine(quill_p256_jacobian *out, const quill_p256_affine *a);

/* quill_p256_affine_on_curve returns all-ones if y^2 == x^3 - 3x + b.
 * Constant time. */
quill_word quill_p256_affine_on_curve(const quill_p256_affine *a);

/* quill_p256_point_mul_base sets out = k * G for a secret k (plain, any
 * value below n; k = 0 gives infinity), in constant time: signed
 * (Booth-recoded) windows, each adding +-j * 2^(wi) * G, 0 <= j <= 2^(w-1),
 * from the generated affine tables (p256_table.h) read by a full
 * constant-time scan of its row and negated under a mask.  No doublings.
 * w = 8 (32 windows of k or n - k) where the scan is fused into the ADX
 * addition (quill_p256_adx_gather_capable), w = 7 (37 windows) elsewhere.
 * Requires k < n: the case analysis that makes the incomplete mixed
 * addition safe relies on it (p256_base.c). */
void quill_p256_point_mul_base(quill_p256_jacobian *out, const quill_p256_scalar_plain *k);

/* quill_p256_point_add_consttime sets out = a + b for Jacobian points,
 * complete and constant time: the add-2007-bl sum, the doubling of a, and
 * a and b themselves are all computed and the right one selected with masks
 * (a == b doubles, a == -b or both infinite gives infinity, one infinite
 * gives the other).  About twice the cost of an incomplete addition.
 * out may alias a or b. */
void quill_p256_point_add_consttime(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                    const quill_p256_jacobian *b);

/* quill_p256_point_mul_consttime sets out = k * Q for a secret k (plain, any
 * value below 2^256) and a finite point Q, in constant time: fixed 4-bit
 * windows from the top, four doublings and one complete addition of
 * T[d] = d Q per window, T read by a full masked scan of its 16 entries.
 * For ECDH and tests (p256_point_ct.c). */
void quill_p256_point_mul_consttime(quill_p256_jacobian *out, const quill_p256_scalar_plain *k,
                                    const quill_p256_affine *q);

/* quill_p256_point_mul_double_vartime sets out = u1 * G + u2 * Q for public
 * u1, u2 (plain, < 2^256) and public finite Q: interleaved wNAF, window 7 for
 * G (odd multiples from p256_table.h, mixed additions) and window 5 for Q
 * (odd multiples computed in Chudnovsky form), 256 doublings
 * (p256_point_vartime.c).  For repeated use of one Q see
 * p256_verify_precomp.h (64 doublings).  Complete: any intermediate or
 * final infinity is handled. */
void quill_p256_point_mul_double_vartime(quill_p256_jacobian *out,
                                         const quill_p256_scalar_plain *u1,
                                         const quill_p256_scalar_plain *u2,
                                         const quill_p256_affine *q);

#endif
