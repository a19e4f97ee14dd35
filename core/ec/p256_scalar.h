/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Arithmetic modulo the P-256 group order
 * n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
 * same conventions as p256_fe.h: four 64-bit little-endian limbs, outputs
 * first, distinct types for the Montgomery domain (quill_p256_scalar,
 * a * R mod n with R = 2^256) and plain integers (quill_p256_scalar_plain).
 * Inputs must be < n unless stated otherwise; outputs are < n.  Constant
 * time except functions named _vartime.  None can fail. */
#ifndef QUILL_EC_P256_SCALAR_H
#define QUILL_EC_P256_SCALAR_H

#include <stdint.h>

#include "common/ct.h"
#include "ec/p256_fe.h"

typedef struct quill_p256_scalar {
    uint64_t v[4];
} quill_p256_scalar;

typedef struct quill_p256_scalar_plain {
    uint64_t v[4];
} quill_p256_scalar_plain;

/* quill_p256_scalar_mul sets out = a * b * R^-1 mod n (word-by-word
 * Montgomery multiplication, n0 = -n^-1 mod 2^64).  In: a, b < n.
 * Out: < n. */
void quill_p256_scalar_mul(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b);

/* quill_p256_scalar_mul_c is the portable body of quill_p256_scalar_mul
 * (which calls quill_p256_scalar_mul_adx instead when the CPU has BMI2 and
 * ADX); same contract.  Exposed for the tests that compare the two. */
void quill_p256_scalar_mul_c(quill_p256_scalar *out, const quill_p256_scalar *a,
                             const quill_p256_scalar *b);

/* quill_p256_scalar_sqr sets out = a^2 * R^-1 mod n.  In: a < n.  Out: < n. */
void quill_p256_scalar_sqr(quill_p256_scalar *out, const quill_p256_scalar *a);

/* quill_p256_scalar_add / _sub set out = a + b / a - b mod n.  In: a, b < n.
 * Out: < n. */
void quill_p256_scalar_add(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b);
void quill_p256_scalar_sub(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b);

/* quill_p256_scalar_opp sets out = -a mod n.  In: a < n.  Out: < n. */
void quill_p256_scalar_opp(quill_p256_scalar *out, const quill_p256_scalar *a);

/* quill_p256_scalar_selectznz sets out = z if mask is zero, nz if all-ones. */
void quill_p256_scalar_selectznz(quill_p256_scalar *out, quill_word mask,
                                 const quill_p256_scalar *z, const quill_p256_scalar *nz);

/* quill_p256_scalar_nonzero returns all-ones if a != 0.  In: a < n. */
quill_word quill_p256_scalar_nonzero(const quill_p256_scalar *a);

/* quill_p256_scalar_plain_nonzero returns all-ones if a != 0. */
quill_word quill_p256_scalar_plain_nonzero(const quill_p256_scalar_plain *a);

/* quill_p256_scalar_to_mont sets out = a * R mod n.  In: any a < 2^256
 * (reduced on the way).  Out: < n. */
void quill_p256_scalar_to_mont(quill_p256_scalar *out, const quill_p256_scalar_plain *a);

/* quill_p256_scalar_from_mont sets out = a * R^-1 mod n.  In: a < n.
 * Out: < n. */
void quill_p256_scalar_from_mont(quill_p256_scalar_plain *out, const quill_p256_scalar *a);

/* quill_p256_scalar_plain_from_bytes reads 32 big-endian bytes (any value)
 * and returns all-ones if the value is < n, zero otherwise. */
quill_word quill_p256_scalar_plain_from_bytes(quill_p256_scalar_plain *out, const uint8_t in[32]);

/* quill_p256_scalar_plain_to_bytes writes a (any value) as 32 bytes
 * big-endian. */
void quill_p256_scalar_plain_to_bytes(uint8_t out[32], const quill_p256_scalar_plain *a);

/* quill_p256_scalar_plain_reduce sets out = a mod n for any a < 2^256 (one
 * conditional subtraction, since 2^256 < 2n).  Out: < n. */
void quill_p256_scalar_plain_reduce(quill_p256_scalar_plain *out,
                                    const quill_p256_scalar_plain *a);

/* quill_p256_scalar_inv_consttime sets out = a^-1 mod n (Montgomery domain
 * in and out) with Bernstein-Yang divsteps (p256_inv.h: a fixed number of
 * steps and limb operations), then one product by R^3; constant time in a.
 * In: a < n; a = 0 gives 0.  Out: < n. */
void quill_p256_scalar_inv_consttime(quill_p256_scalar *out, const quill_p256_scalar *a);

/* quill_p256_inv_pair_consttime sets zinv = z^-1 mod p (as
 * quill_p256_fe_inv) and kinv = k^-1 mod n (as
 * quill_p256_scalar_inv_consttime), Montgomery domain in and out, 0 for 0,
 * with the two inversions' divsteps run side by side in one kernel (the
 * AVX2 one of p256_inv_avx2.h where the CPU has AVX2, else the portable
 * two-lane quill_inv_divsteps_x2 of p256_inv.h): each is a chain of
 * dependent single-cycle operations, so the pair costs much less than
 * two inversions, and with AVX2 less than one (Zen 4, TSC ticks: 4,600-4,630 with AVX2, 5,880-5,920
 * portable, against 5,300 for one inversion).
 * Constant time in z and k.  For ECDSA signing, which needs Z^-1 of k G
 * and k^-1. */
void quill_p256_inv_pair_consttime(quill_p256_fe *zinv, const quill_p256_fe *z,
                                   quill_p256_scalar *kinv, const quill_p256_scalar *k);

/* quill_p256_scalar_inv_vartime sets out = a^-1 mod n for plain values by
 * Bernstein-Yang divsteps in variable time (p256_inv.h,
 * quill_p256_inv_vartime: runs of even values skipped, stopping at
 * convergence); running time depends on a, so a must be public (the s of a
 * signature being verified).  Returns 1, or 0 if a == 0 (out untouched).
 * In: a < n.  Out: < n. */
int quill_p256_scalar_inv_vartime(quill_p256_scalar_plain *out, const quill_p256_scalar_plain *a);

#endif
