/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers of the RSA core suites (test/rsa/): OpenSSL is the oracle.  Keys
 * come from OpenSSL's default provider (in a private library context) and
 * are imported into the core; hashing for PSS goes through EVP_Digest. */
#ifndef QUILL_TEST_RSA_COMMON_H
#define QUILL_TEST_RSA_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "rsa/rsa.h"

/* The library context with only the default provider (created on first
 * use, freed by qr_cleanup). */
OSSL_LIB_CTX *qr_ctx(void);
void qr_cleanup(void);

/* A key's components as owned byte strings (big-endian, minimal). */
typedef struct qr_comps {
    uint8_t *buf[8];
    quill_rsa_components c;
} qr_comps;

/* qr_comps_from_pkey fills |out| from an OpenSSL RSA key; with crt == 0 the
 * CRT values are left absent, with priv == 0 d as well.  Returns 1 on
 * success. */
int qr_comps_from_pkey(qr_comps *out, EVP_PKEY *pkey, int priv, int crt);
/* qr_comps_from_bn: the same from BIGNUMs (any may be NULL). */
int qr_comps_from_bn(qr_comps *out, const BIGNUM *n, const BIGNUM *e, const BIGNUM *d,
                     const BIGNUM *p, const BIGNUM *q, const BIGNUM *dp, const BIGNUM *dq,
                     const BIGNUM *qinv);
void qr_comps_free(qr_comps *c);

/* qr_pkey_from_bn builds an OpenSSL RSA key (default provider) from BIGNUMs
 * (CRT values may be NULL).  NULL on failure. */
EVP_PKEY *qr_pkey_from_bn(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d, const BIGNUM *p,
                          const BIGNUM *q, const BIGNUM *dp, const BIGNUM *dq,
                          const BIGNUM *qinv);

/* qr_pkey_from_quill exports a quill key (with its private part if any) to
 * an OpenSSL key.  NULL on failure. */
EVP_PKEY *qr_pkey_from_quill(const quill_rsa_key *key);

/* qr_gen_pkey generates an OpenSSL RSA key of |bits| bits with e = 65537. */
EVP_PKEY *qr_gen_pkey(unsigned bits);

/* qr_key_from_pkey imports an OpenSSL key into the core (asserting
 * success); NULL on failure. */
quill_rsa_key *qr_key_from_pkey(EVP_PKEY *pkey, int priv, int crt);

/* Random generators for the core: qr_rng draws from the deterministic
 * qt_rng stream; qr_rng_failing always fails. */
extern const quill_rng qr_rng;
extern const quill_rng qr_rng_failing;

/* A quill_hash over EVP_Digest for the named digest ("SHA256", ...). */
typedef struct qr_hash {
    quill_hash h;
    EVP_MD *md;
} qr_hash;
int qr_hash_init(qr_hash *h, const char *name);
void qr_hash_free(qr_hash *h);

/* The OpenSSL name of a quill_md (NULL for QUILL_MD_NONE). */
const char *qr_md_name(quill_md md);

/* Raw RSA with OpenSSL (RSA_NO_PADDING): out = in^e or in^d mod n, k bytes.
 * Return 1 on success. */
int qr_ossl_public(EVP_PKEY *pkey, uint8_t *out, const uint8_t *in, size_t k);
int qr_ossl_private(EVP_PKEY *pkey, uint8_t *out, const uint8_t *in, size_t k);

/* Fills k bytes with a random value below n (top byte cleared). */
void qr_random_below_n(uint8_t *out, size_t k);

#endif
