/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers for the EVP-level ECDSA suites (test/evp_ec/): keys from either
 * provider, message signing and verification through EVP_DigestSign* /
 * EVP_DigestVerify* with a chosen property query, and the provider that
 * served each operation.  Test keys only. */
#ifndef QUILL_TEST_EC_EVP_H
#define QUILL_TEST_EC_EVP_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#define ECT_QUILL "provider=quill"
#define ECT_DEFAULT "provider=default"

/* How ect_sign / ect_verify feed the message. */
enum { ECT_ONESHOT = 0, ECT_STREAMED = 1 };

/* ect_keygen generates an EC key on |group| ("P-256", "P-384", ...) with
 * the key manager |propq| selects.  NULL on failure. */
EVP_PKEY *ect_keygen(OSSL_LIB_CTX *ctx, const char *propq, const char *group);

/* ect_key_copy re-creates |key| (key pair or public key, as |selection|)
 * in the key manager |propq| selects, via EVP_PKEY_todata/fromdata.  NULL
 * on failure (e.g. quill refusing the curve). */
EVP_PKEY *ect_key_copy(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, int selection);

/* ect_key_from_spki decodes a DER SubjectPublicKeyInfo (default
 * provider's decoders).  NULL on failure. */
EVP_PKEY *ect_key_from_spki(OSSL_LIB_CTX *ctx, const uint8_t *der, size_t len);

/* ect_sign signs |msg| with digest |md| (NULL: the key's default) and the
 * signature implementation |propq| selects; *sig_len is the capacity on
 * input.  nonce_type >= 0 sets "nonce-type".  *served (may be NULL)
 * receives the provider that ran it.  Returns 1 on success. */
int ect_sign(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
             const uint8_t *msg, size_t msg_len, int mode, int nonce_type, uint8_t *sig,
             size_t *sig_len, const OSSL_PROVIDER **served);

/* ect_verify returns 1 if the signature verifies, 0 if the verify call
 * rejects it, -1 if initialisation failed. */
int ect_verify(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
               const uint8_t *msg, size_t msg_len, int mode, const uint8_t *sig, size_t sig_len,
               const OSSL_PROVIDER **served);

/* ect_sign_digest / ect_verify_digest: EVP_PKEY_sign / EVP_PKEY_verify on a
 * precomputed digest (md may be NULL: no digest set). */
int ect_sign_digest(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
                    const uint8_t *dgst, size_t dgst_len, uint8_t *sig, size_t *sig_len,
                    const OSSL_PROVIDER **served);
int ect_verify_digest(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
                      const uint8_t *dgst, size_t dgst_len, const uint8_t *sig, size_t sig_len,
                      const OSSL_PROVIDER **served);

/* ect_derive derives the ECDH secret of |a| with |peer| in |ctx| (no
 * property query: the configuration chooses the provider) into out
 * (*len: its size on entry, the secret's length on return); 1 on
 * success, *served (if not NULL) the provider that ran it. */
int ect_derive(OSSL_LIB_CTX *ctx, EVP_PKEY *a, EVP_PKEY *peer, uint8_t *out, size_t *len,
               const OSSL_PROVIDER **served);

/* ect_p1363_to_der turns r || s (64 bytes) into a DER Ecdsa-Sig-Value with
 * OpenSSL's encoder; returns the length (at most cap) or 0. */
size_t ect_p1363_to_der(const uint8_t rs[64], uint8_t *out, size_t cap);

/* ect_der_to_p1363 splits a DER Ecdsa-Sig-Value into r || s (64 bytes)
 * with OpenSSL's parser; returns 1, or 0 if it does not parse or r or s
 * is longer than 32 bytes. */
int ect_der_to_p1363(const uint8_t *der, size_t len, uint8_t rs[64]);

/* ect_is_quill returns 1 if |p| is the quill provider. */
int ect_is_quill(const OSSL_PROVIDER *p);

#endif
