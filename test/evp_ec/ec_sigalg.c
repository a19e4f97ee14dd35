/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_sigalg: OpenSSL 3.4's ECDSA signature algorithms named for the digest
 * ("ECDSA-SHA2-256", ... with their OIDs) on quill, through the message
 * API and the digest form, against the default provider's algorithms of
 * the same names (test/common/qt_sigalg.h), with RFC 6979 nonces
 * ("nonce-type" = 1, settable as in the default provider) so that both
 * sign the same bytes.  On P-256 and on P-384 (which quill hands to the
 * default provider's ECDSA); quill offers every one the default provider
 * does; an RSA key is refused.  Skipped (77) on a core older than 3.4. */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "qt_evp.h"
#include "qt_msgapi.h"
#include "qt_sigalg.h"
#include "test_util.h"

static const struct {
    const char *name, *oid, *md;
} algs[] = {
    {"ECDSA-SHA1", "1.2.840.10045.4.1", "SHA1"},
    {"ECDSA-SHA2-224", "1.2.840.10045.4.3.1", "SHA224"},
    {"ECDSA-SHA2-256", "1.2.840.10045.4.3.2", "SHA256"},
    {"ECDSA-SHA2-384", "1.2.840.10045.4.3.3", "SHA384"},
    {"ECDSA-SHA2-512", "1.2.840.10045.4.3.4", "SHA512"},
    {"ECDSA-SHA3-224", "2.16.840.1.101.3.4.3.9", "SHA3-224"},
    {"ECDSA-SHA3-256", "2.16.840.1.101.3.4.3.10", "SHA3-256"},
    {"ECDSA-SHA3-384", "2.16.840.1.101.3.4.3.11", "SHA3-384"},
    {"ECDSA-SHA3-512", "2.16.840.1.101.3.4.3.12", "SHA3-512"},
};

int main(void) {
    qt_msgapi api;
    if (!qt_msgapi_load(&api))
        return QT_SKIP;
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&def, &quill);
    if (ctx == NULL)
        return 1;
    qt_rng_seed(0x65635f736967ULL);
    unsigned int rfc6979 = 1;
    OSSL_PARAM det[] = {OSSL_PARAM_construct_uint("nonce-type", &rfc6979),
                        OSSL_PARAM_construct_end()};
    qt_sigalg_env e = {ctx, quill, def, &api, det, 1};
    long before = qt_counter(quill, "ecdsa-sign");
    EVP_PKEY *p256 = EVP_PKEY_Q_keygen(ctx, "provider=default", "EC", "P-256");
    EVP_PKEY *p384 = EVP_PKEY_Q_keygen(ctx, "provider=default", "EC", "P-384");
    QT_CHECK(p256 != NULL && p384 != NULL);
    for (size_t i = 0; p256 != NULL && i < QT_ARRAY_LEN(algs); i++)
        qt_sigalg_check(&e, algs[i].name, algs[i].oid, algs[i].md, p256);
    long after = qt_counter(quill, "ecdsa-sign");
    printf("quill's ecdsa-sign counter: %ld -> %ld\n", before, after);
    QT_CHECK(before >= 0 && after - before >= (long)(3 * QT_ARRAY_LEN(algs)));
    printf("P-384:\n");
    if (p384 != NULL)
        qt_sigalg_check(&e, "ECDSA-SHA2-384", "1.2.840.10045.4.3.3", "SHA384", p384);

    qt_sigalg_census_check(ctx, "ECDSA-", (int)QT_ARRAY_LEN(algs));

    EVP_PKEY *rsa = EVP_PKEY_Q_keygen(ctx, "provider=default", "RSA", (size_t)2048);
    QT_CHECK(rsa != NULL);
    if (rsa != NULL)
        qt_sigalg_wrong_key(&e, "ECDSA-SHA2-256", rsa);
    EVP_PKEY_free(rsa);
    EVP_PKEY_free(p256);
    EVP_PKEY_free(p384);
    qt_libctx_free(ctx, def, quill);
    return qt_finish("ec_sigalg");
}
