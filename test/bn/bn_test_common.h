/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Shared helpers of the bignum differential tests:
 * operand generators and conversions to and from OpenSSL's BIGNUM. */
#ifndef QUILL_TEST_BN_COMMON_H
#define QUILL_TEST_BN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/err.h>

#include "bn/bn.h"

/* The sizes every suite covers, in bits. */
extern const size_t bt_sizes[];
extern const size_t bt_num_sizes;

/* Seeds qt_rng from $QUILL_TEST_SEED (decimal or 0x-hex) or a fixed default,
 * printing the seed. */
void bt_seed(const char *suite);

/* BIGNUM <-> limbs (little-endian host).  bt_to_limbs aborts if x does not
 * fit in n limbs. */
BIGNUM *bt_bn(const quill_limb *a, size_t n);
void bt_to_limbs(quill_limb *r, size_t n, const BIGNUM *x);
/* 1 if a (n limbs) equals x. */
int bt_eq(const quill_limb *a, size_t n, const BIGNUM *x);

/* A random odd modulus of exactly n limbs; kind selects a shape: 0 random
 * with top bit set, 1 random top limb (any non-zero), 2 top limb 1, 3 all
 * ones, 4 2^(64n) - small, 5 sparse limbs. */
void bt_modulus(quill_limb *m, size_t n, unsigned kind);
#define BT_MODULUS_KINDS 6

/* A value of n limbs; kind selects: 0 zero, 1 one, 2 all ones, 3 top bit
 * only, 4 random, 5 sparse (limbs from {0, 1, ~0, 2^63, random}),
 * 6 random with a short length. */
void bt_value(quill_limb *a, size_t n, unsigned kind);
#define BT_VALUE_KINDS 7

/* An operand below m: kinds as bt_value plus 7 m - 1, 8 m - 2, 9 (m - 1)/2,
 * all reduced mod m. */
void bt_operand(quill_limb *a, const quill_limb *m, size_t n, unsigned kind);
#define BT_OPERAND_KINDS 10

/* The shared BN_CTX. */
BN_CTX *bt_ctx(void);

#endif
