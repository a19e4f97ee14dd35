/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Helpers shared by the core/ec suites. */
#ifndef QUILL_TEST_EC_COMMON_H
#define QUILL_TEST_EC_COMMON_H

#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/ec.h>

#include "ec/p256_point.h"

/* ect_limbs_to_bn sets bn to the integer with 4 little-endian limbs v. */
void ect_limbs_to_bn(BIGNUM *bn, const uint64_t v[4]);

/* ect_bn_to_limbs writes bn (< 2^256) as 4 limbs; returns 0 if too big. */
int ect_bn_to_limbs(uint64_t v[4], const BIGNUM *bn);

/* ect_random_below fills v with a value below m (or below 2^256 if m is
 * NULL) from the seeded test PRNG, biased towards edge shapes sometimes:
 * all-ones limbs, zero limbs, tiny values, m - small. */
void ect_random_below(uint64_t v[4], const BIGNUM *m, BN_CTX *ctx);

/* ect_p256_p / ect_p256_n return the field prime and group order (static). */
const BIGNUM *ect_p256_p(void);
const BIGNUM *ect_p256_n(void);

/* ect_make_q sets q (and oq on group, an OpenSSL P-256 group) to the public
 * point qv * G, qv in [1, n - 1], from quill's base multiplication. */
void ect_make_q(quill_p256_affine *q, EC_POINT *oq, const uint64_t qv[4], const EC_GROUP *group,
                BN_CTX *ctx);

#endif
