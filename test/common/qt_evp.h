/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * EVP helpers shared by the suites that exercise quill through plain OpenSSL
 * APIs (test/evp_rsa/, evp_ec/, evp_mldsa/).  Nothing here is secret: keys
 * are test keys. */
#ifndef QUILL_TEST_QT_EVP_H
#define QUILL_TEST_QT_EVP_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

/* The default properties openssl.cnf.example installs. */
#define QT_QUILL_DEFAULT_PROPS "?quill.sig=yes"

/* qt_evp_libctx_new is qt_libctx_new (default + quill) plus
 * EVP_set_default_properties(QT_QUILL_DEFAULT_PROPS), the configuration a
 * stock application gets from openssl.cnf.example: quill's signatures are
 * preferred, everything else comes from the default provider.  NULL (with
 * errors printed) on failure; free with qt_libctx_free. */
OSSL_LIB_CTX *qt_evp_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill);

/* Checking the suites themselves: if the environment variable
 * QT_STANDIN_PROVIDER names a provider (e.g. "default"), qt_evp_libctx_new
 * loads it in quill's place and qt_quill_propq() selects it, so a suite can
 * be run against a known-good implementation.  Suites whose expectations are
 * quill-specific (fallback, import refusals) do not support it.  CTest never
 * sets it. */
const char *qt_quill_propq(void);

/* qt_quill_has_keymgmt returns 1 if quill offers a key manager named
 * |name| (EVP_KEYMGMT_fetch with qt_quill_propq()). */
int qt_quill_has_keymgmt(OSSL_LIB_CTX *ctx, const char *name);

/* qt_pctx_provider returns the provider that runs |pctx|'s operation. */
const OSSL_PROVIDER *qt_pctx_provider(const EVP_PKEY_CTX *pctx);

/* qt_prov_name returns the provider's name, or "(none)". */
const char *qt_prov_name(const OSSL_PROVIDER *p);

/* qt_error_has_reason returns 1 if the OpenSSL error queue holds at least
 * one error and the most recent one has a reason string; it prints that
 * error if QT_VERBOSE is set, then clears the queue.  Returns 0 (queue
 * cleared too) otherwise. */
int qt_error_has_reason(void);

/* RSA signature parameters.  md == NULL means: for EVP_DigestSign*, the
 * key's default digest; for EVP_PKEY_sign, no digest (raw PKCS#1 type-1
 * signing of the input; qt_set_sigparams then sets none).  For PSS,
 * mgf1 == NULL keeps the provider's default (the message digest) and
 * saltlen == NULL keeps its default; otherwise saltlen is "digest", "max",
 * "auto", "auto-digestmax" or a decimal number, passed as the string
 * parameter "saltlen" (or as an integer, see int_saltlen).  Positional
 * initialisers list all five members. */
typedef struct qt_sigparams {
    int pad; /* RSA_PKCS1_PADDING or RSA_PKCS1_PSS_PADDING */
    const char *md;
    const char *mgf1;
    const char *saltlen;
    /* Nonzero: pass the salt length as an integer through
     * EVP_PKEY_CTX_set_rsa_pss_saltlen ("digest" -1, "auto" -2, "max" -3,
     * "auto-digestmax" -4, or the number) instead of as a string. */
    int int_saltlen;
} qt_sigparams;

/* qt_set_sigparams applies |p| (other than the digest) to |pctx|.  Returns
 * 1 on success. */
int qt_set_sigparams(EVP_PKEY_CTX *pctx, const qt_sigparams *p);

/* How qt_digest_sign / qt_digest_verify feed the message. */
enum { QT_ONESHOT = 0, QT_STREAMED = 1 };

/* qt_digest_sign signs |msg| with EVP_DigestSignInit_ex(p->md, ctx, propq)
 * and |p|.  On input *sig_len is the capacity of |sig|.  *served (may be
 * NULL) receives the provider that ran it.  Returns 1 on success. */
int qt_digest_sign(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const qt_sigparams *p,
                   const uint8_t *msg, size_t msg_len, int mode, uint8_t *sig, size_t *sig_len,
                   const OSSL_PROVIDER **served);

/* qt_digest_verify verifies likewise.  Returns 1 if the signature verifies,
 * 0 if it is rejected by the verify call, -1 if the set-up (init or
 * parameters) failed.  *served is set once initialisation succeeded. */
int qt_digest_verify(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const qt_sigparams *p,
                     const uint8_t *msg, size_t msg_len, int mode, const uint8_t *sig,
                     size_t sig_len, const OSSL_PROVIDER **served);

/* qt_rsa_keygen generates an RSA key of |bits| bits (e = 65537) with the
 * key manager selected by |propq| ("provider=quill", "provider=default").
 * NULL on failure. */
EVP_PKEY *qt_rsa_keygen(OSSL_LIB_CTX *ctx, const char *propq, unsigned bits);

/* qt_pkey_provider returns the provider holding |key|'s key data. */
const OSSL_PROVIDER *qt_pkey_provider(const EVP_PKEY *key);

#endif
