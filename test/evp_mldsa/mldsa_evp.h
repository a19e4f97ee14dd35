/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers for the EVP-level ML-DSA suites of test/evp_mldsa/ (Wycheproof,
 * bad input, threads, the noble cross-check driver): keys from their parts
 * (EVP_PKEY_fromdata with "seed", "priv", "pub") or from DER through
 * OSSL_DECODER, and signing / verification through EVP_PKEY_sign /
 * EVP_PKEY_verify on the whole message or EVP_DigestSign* / EVP_DigestVerify*
 * with no digest, with the ML-DSA signature parameters of OpenSSL 3.5
 * ("context-string", "deterministic", "mu", "test-entropy",
 * "message-encoding").  Every helper reports the provider that served the
 * operation.  Test keys only: nothing here is secret. */
#ifndef QUILL_TEST_MLDSA_EVP_H
#define QUILL_TEST_MLDSA_EVP_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

/* The three parameter sets, in the order of core/mldsa/mldsa.h. */
enum { MDT_44 = 0, MDT_65 = 1, MDT_87 = 2, MDT_NSETS = 3 };

/* Largest encodings (ML-DSA-87), FIPS 204 Table 2. */
#define MDT_MAX_PUB 2592
#define MDT_MAX_PRIV 4896
#define MDT_MAX_SIG 4627

/* mdt_name returns "ML-DSA-44" / "-65" / "-87"; mdt_pub_len, mdt_priv_len
 * and mdt_sig_len the sizes of FIPS 204's encodings for the set. */
const char *mdt_name(int set);
size_t mdt_pub_len(int set);
size_t mdt_priv_len(int set);
size_t mdt_sig_len(int set);

/* mdt_key_fromdata imports a key of type |name| into the key manager that
 * qt_quill_propq() selects from any of seed, expanded private key and public
 * key (NULL: absent).  The selection is the key pair when seed or priv is
 * given, the public key otherwise.  NULL on failure (errors left on the
 * queue). */
EVP_PKEY *mdt_key_fromdata(OSSL_LIB_CTX *ctx, const char *name, const uint8_t *seed,
                           size_t seed_len, const uint8_t *priv, size_t priv_len,
                           const uint8_t *pub, size_t pub_len);

/* mdt_key_generate generates a key of type |name| (quill's key manager),
 * from |seed| (32 bytes) if not NULL, else from the provider's RNG. */
EVP_PKEY *mdt_key_generate(OSSL_LIB_CTX *ctx, const char *name, const uint8_t *seed);

/* mdt_key_from_der decodes DER of |structure| ("PrivateKeyInfo" or
 * "SubjectPublicKeyInfo") with OSSL_DECODER, expecting a key of type
 * |name| (NULL: any).  NULL on failure, or if bytes were left over. */
EVP_PKEY *mdt_key_from_der(OSSL_LIB_CTX *ctx, const char *name, const char *structure,
                           const uint8_t *der, size_t len);

/* mdt_key_octets copies the octet-string key parameter |param| ("pub",
 * "priv", "seed") into out (capacity cap); returns its length, 0 if the
 * parameter is absent or does not fit. */
size_t mdt_key_octets(const EVP_PKEY *key, const char *param, uint8_t *out, size_t cap);

/* Signature parameters.  Fields left 0 / NULL are not set, so the
 * provider's defaults apply (no context, hedged, pure message encoding). */
typedef struct mdt_opts {
    const uint8_t *ctx; /* context string, set when has_ctx */
    size_t ctx_len;
    int has_ctx;
    int deterministic;       /* 1: set "deterministic" = 1 */
    int mu;                  /* 1: set "mu" = 1 (the input is the 64-byte mu) */
    const uint8_t *entropy;  /* "test-entropy" (rnd), if not NULL */
    size_t entropy_len;
    int encoding;            /* "message-encoding" if set_encoding */
    int set_encoding;
} mdt_opts;

/* How mdt_sign / mdt_verify call EVP. */
enum {
    MDT_PKEY = 0,      /* EVP_PKEY_sign_init_ex / EVP_PKEY_sign (whole input) */
    MDT_DIGEST = 1,    /* EVP_DigestSignInit_ex(md NULL) / EVP_DigestSign one-shot */
    MDT_STREAMED = 2,  /* EVP_DigestSignInit_ex(md NULL), Update in pieces, Final */
};

/* Results of mdt_sign / mdt_verify: */
#define MDT_OK 1          /* signed / signature accepted */
#define MDT_REJECTED 0    /* the sign / verify call itself failed */
#define MDT_INIT_FAIL -1  /* context creation or init failed */
#define MDT_PARAM_FAIL -2 /* a parameter was refused */

/* mdt_sign signs |in| with |key| in |mode| and |o| (NULL: defaults); the
 * signature implementation is chosen by the library context's default
 * properties (openssl.cnf.example's ?quill.sig=yes).  On input *sig_len is
 * the capacity of |sig|.  *served (may be NULL) receives the provider that
 * ran the operation once initialised.  Returns one of MDT_*. */
int mdt_sign(OSSL_LIB_CTX *ctx, EVP_PKEY *key, int mode, const mdt_opts *o, const uint8_t *in,
             size_t in_len, uint8_t *sig, size_t *sig_len, const OSSL_PROVIDER **served);

/* mdt_verify verifies likewise; MDT_OK if the signature verifies. */
int mdt_verify(OSSL_LIB_CTX *ctx, EVP_PKEY *key, int mode, const mdt_opts *o,
               const uint8_t *in, size_t in_len, const uint8_t *sig, size_t sig_len,
               const OSSL_PROVIDER **served);

/* mdt_libctx_new is qt_evp_libctx_new (default + quill, quill's
 * signatures preferred) for the ML-DSA suites: NULL, with a line on stderr,
 * if it fails or quill offers no ML-DSA-44 key manager.  Free with
 * qt_libctx_free(ctx, *def, *quill). */
OSSL_LIB_CTX *mdt_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill);

/* mdt_is_quill returns 1 if |p| is quill (or the stand-in provider named by
 * QT_STANDIN_PROVIDER). */
int mdt_is_quill(const OSSL_PROVIDER *p);

#endif
