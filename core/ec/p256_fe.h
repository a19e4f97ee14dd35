/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Arithmetic in the P-256 base field, p = 2^256 - 2^224 + 2^192 + 2^96 - 1
 * (FIPS 186-5 / SP 800-186), in the style of fiat-crypto's generated code:
 * four 64-bit little-endian limbs, outputs first, no branches or memory
 * indices that depend on values, and every function states its bounds.
 *
 * Two distinct types keep the domains apart:
 *   quill_p256_fe        a value in the Montgomery domain, a * R mod p with
 *                        R = 2^256 (what all arithmetic takes and returns);
 *   quill_p256_fe_plain  an ordinary integer (bytes, comparisons).
 * Unless stated otherwise inputs must be fully reduced (< p) and outputs are
 * fully reduced.  Outputs may alias inputs.  All functions here are constant
 * time except those named _vartime.  None can fail. */
#ifndef QUILL_EC_P256_FE_H
#define QUILL_EC_P256_FE_H

#include <stdint.h>

#include "common/ct.h"

typedef struct quill_p256_fe {
    uint64_t v[4];
} quill_p256_fe;

typedef struct quill_p256_fe_plain {
    uint64_t v[4];
} quill_p256_fe_plain;

/* quill_p256_fe_mul sets out = a * b * R^-1 mod p (Montgomery product).
 * Word-by-word Montgomery multiplication; since p = -1 mod 2^64 the
 * per-word factor is m = t0 (n0 = 1), and because p0 = 2^64 - 1,
 * p1 = 2^32 - 1, p2 = 0, adding m * p costs one multiplication (by p3) and
 * two shifts (m p0 + m p1 2^64 = m 2^96 - m).  In: a, b < p.  Out: < p. */
void quill_p256_fe_mul(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b);

/* quill_p256_fe_sqr sets out = a^2 * R^-1 mod p: a dedicated squaring (each
 * cross product computed once and doubled), then Montgomery reduction.
 * In: a < p.  Out: < p. */
void quill_p256_fe_sqr(quill_p256_fe *out, const quill_p256_fe *a);

/* quill_p256_fe_add sets out = a + b mod p.  In: a, b < p.  Out: < p. */
void quill_p256_fe_add(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b);

/* quill_p256_fe_sub sets out = a - b mod p.  In: a, b < p.  Out: < p. */
void quill_p256_fe_sub(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b);

/* quill_p256_fe_half sets out = a / 2 mod p (a + p shifted when a is
 * odd).  Works in either domain.  In: a < p.  Out: < p. */
void quill_p256_fe_half(quill_p256_fe *out, const quill_p256_fe *a);

/* quill_p256_fe_opp sets out = -a mod p (0 stays 0).  In: a < p.  Out: < p. */
void quill_p256_fe_opp(quill_p256_fe *out, const quill_p256_fe *a);

/* quill_p256_fe_selectznz sets out = z if mask is zero and nz if mask is
 * all-ones (mask must be one of those two).  Any limb values. */
void quill_p256_fe_selectznz(quill_p256_fe *out, quill_word mask, const quill_p256_fe *z,
                             const quill_p256_fe *nz);

/* quill_p256_fe_nonzero returns all-ones if a != 0 and zero if a == 0.
 * In: a < p (so that 0 has one representation). */
quill_word quill_p256_fe_nonzero(const quill_p256_fe *a);

/* quill_p256_fe_equal returns all-ones if a == b.  In: a, b < p. */
quill_word quill_p256_fe_equal(const quill_p256_fe *a, const quill_p256_fe *b);

/* quill_p256_fe_to_mont sets out = a * R mod p.  In: a < p.  Out: < p.
 * (An input in [p, 2^256) is also reduced correctly.) */
void quill_p256_fe_to_mont(quill_p256_fe *out, const quill_p256_fe_plain *a);

/* quill_p256_fe_from_mont sets out = a * R^-1 mod p.  In: a < p.  Out: < p. */
void quill_p256_fe_from_mont(quill_p256_fe_plain *out, const quill_p256_fe *a);

/* quill_p256_fe_plain_from_bytes reads a 32-byte big-endian integer (any
 * value below 2^256) and returns all-ones if it is < p, zero otherwise. */
quill_word quill_p256_fe_plain_from_bytes(quill_p256_fe_plain *out, const uint8_t in[32]);

/* quill_p256_fe_plain_to_bytes writes a (any value < 2^256) as 32 bytes
 * big-endian. */
void quill_p256_fe_plain_to_bytes(uint8_t out[32], const quill_p256_fe_plain *a);

/* quill_p256_fe_one sets out = 1 in the Montgomery domain (R mod p). */
void quill_p256_fe_one(quill_p256_fe *out);

/* quill_p256_fe_inv sets out = a^-1 (Montgomery domain in and out),
 * constant time in a: on aarch64 with the assembly the Fermat chain a^(p-2)
 * (quill_p256_fe_inv_arm64, p256_arm64.h), elsewhere
 * quill_p256_fe_inv_divsteps.  In: a < p; a = 0 gives 0.  Out: < p. */
void quill_p256_fe_inv(quill_p256_fe *out, const quill_p256_fe *a);

/* quill_p256_fe_inv_divsteps is the portable inversion: Bernstein-Yang
 * divsteps (p256_inv.h: a fixed number of steps and limb operations), then
 * one product by R^3; constant time in a.  In: a < p; a = 0 gives 0.
 * Out: < p, equal to quill_p256_fe_inv's. */
void quill_p256_fe_inv_divsteps(quill_p256_fe *out, const quill_p256_fe *a);

/* quill_p256_fe_sqrt_vartime sets out to a square root of a (Montgomery
 * domain) as a^((p+1)/4) (p = 3 mod 4) and returns 1, or returns 0 if a is
 * not a square (out is then unspecified).  For public values only.
 * In: a < p.  Out: < p. */
int quill_p256_fe_sqrt_vartime(quill_p256_fe *out, const quill_p256_fe *a);

#endif
