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

/* ect_ge_p returns 1 if v (four little-endian words) is >= p. */
int ect_ge_p(const uint64_t v[4]);

/* ECT_EDGE_MAX bounds the count of ect_edge_values. */
#define ECT_EDGE_MAX 24

/* ect_edge_values writes the edge values below m (m = p or n) into out
 * (ECT_EDGE_MAX rows at most) and returns their count: 0, 1, 2, words of
 * all ones or all zeros, 2^255, values just below 2^256 - 2^224 (the
 * all-ones one 2^256 - 2^224 - 1 only when below m), m - 1, m - 2,
 * m - 2^64, m - 2^128, m - 2^192, and R mod m, R^2 mod m, R^3 mod m with
 * R = 2^256. */
int ect_edge_values(uint64_t out[][4], const BIGNUM *m, BN_CTX *ctx);

/* ect_montmul_ok returns 1 when out == a b R^-1 mod m (R = 2^256), by BN. */
int ect_montmul_ok(const uint64_t out[4], const uint64_t a[4], const uint64_t b[4],
                   const BIGNUM *m, BN_CTX *ctx);

/* A pair of native P-256 field kernels (x86-64 ADX, aarch64) with the
 * signatures of quill_p256_fe_mul_inline / _sqr_inline on limb arrays:
 * out = a b R^-1 mod p and out = a^2 R^-1 mod p, inputs below p, out may
 * alias an input. */
typedef struct ect_fe_kernels {
    const char *name;
    void (*mul)(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);
    void (*sqr)(uint64_t out[4], const uint64_t a[4]);
} ect_fe_kernels;

/* ect_check_fe_pair checks k on (a, b) against the portable twins
 * quill_p256_fe_mul_inline / _sqr_inline, with out aliasing a and b, the
 * dispatching quill_p256_fe_mul / _sqr against the twins, and (with_bn)
 * both results against BN; a mismatch names the kernel and the inputs. */
void ect_check_fe_pair(const ect_fe_kernels *k, const uint64_t a[4], const uint64_t b[4],
                       BN_CTX *ctx, int with_bn);

/* ect_check_fe_kernels runs ect_check_fe_pair on every pair of the edge
 * values below p (with BN) and on n_random pairs from the seeded PRNG (BN
 * on every bn_every-th), then compares a dependent chain of 1000 products
 * and squares (each output the next input, as the point formulas use
 * them) with the twins'. */
void ect_check_fe_kernels(const ect_fe_kernels *k, BN_CTX *ctx, int n_random, int bn_every);

/* ect_same_point returns 1 if quill's Jacobian point j equals OpenSSL's
 * point o on group (an OpenSSL P-256 group): both at infinity, or the same
 * affine coordinates. */
int ect_same_point(const quill_p256_jacobian *j, const EC_POINT *o, const EC_GROUP *group,
                   BN_CTX *ctx);

/* ect_make_q sets q (and oq on group, an OpenSSL P-256 group) to the public
 * point qv * G, qv in [1, n - 1], from quill's base multiplication. */
void ect_make_q(quill_p256_affine *q, EC_POINT *oq, const uint64_t qv[4], const EC_GROUP *group,
                BN_CTX *ctx);

#endif
