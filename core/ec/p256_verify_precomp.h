/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Per-key precomputation for repeated ECDSA P-256 verification with one
 * public key Q (a server or token verifier checking many signatures).
 * Writing u = u_0 + u_1 2^64 + u_2 2^128 + u_3 2^192, both u1 G and u2 Q
 * become sums over four 64-bit slices with the points 2^(64 j) G (static,
 * quill_p256_base_wnaf in p256_table.h) and 2^(64 j) Q (here), so the two multiplications
 * share a chain of 64 doublings instead of 256.  All data is public and
 * everything is variable time.  Internal to core/ec; ecdsa.h's
 * quill_p256_verify_cache decides when a table is worth building. */
#ifndef QUILL_EC_P256_VERIFY_PRECOMP_H
#define QUILL_EC_P256_VERIFY_PRECOMP_H

#include "common/compiler.h"
#include "ec/p256_point.h"

/* wNAF width for the slices of u2: 16 odd multiples per slice, a 4 KB
 * table.  (Width 5 halves it for ~6 more additions per verification.) */
#define QUILL_P256_VERIFY_Q_WIDTH 6
#define QUILL_P256_VERIFY_Q_ODD (1 << (QUILL_P256_VERIFY_Q_WIDTH - 2))

/* The table for one key: t[j][k] = (2k + 1) 2^(64 j) Q, affine (Montgomery
 * domain), and the key it belongs to. */
typedef struct quill_p256_verify_precomp {
    quill_p256_affine t[4][QUILL_P256_VERIFY_Q_ODD];
    quill_p256_affine q;
} quill_p256_verify_precomp;

/* quill_p256_verify_precomp_new_vartime allocates and fills the table for
 * the finite public point q (192 doublings, 60 additions, one batched
 * inversion: about one verification's work).  Returns NULL if the
 * allocation fails.  Free with quill_p256_verify_precomp_free. */
quill_p256_verify_precomp *quill_p256_verify_precomp_new_vartime(const quill_p256_affine *q);

/* quill_p256_verify_precomp_free releases p (NULL is fine).  Nothing in it
 * is secret, so it is not zeroised. */
void quill_p256_verify_precomp_free(quill_p256_verify_precomp *p);

/* quill_p256_point_mul_double_precomp_vartime sets out = u1 G + u2 Q for
 * public u1, u2 (plain, < 2^256) and the key Q of pre: 64 doublings and
 * the mixed additions of the width-7 (u1) and width-6 (u2) NAF digits,
 * each slice reading its own table.  Complete: intermediate or final
 * infinity is handled. */
void quill_p256_point_mul_double_precomp_vartime(quill_p256_jacobian *out,
                                                 const quill_p256_scalar_plain *u1,
                                                 const quill_p256_scalar_plain *u2,
                                                 const quill_p256_verify_precomp *pre);

#endif
