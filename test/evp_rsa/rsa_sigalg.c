/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_sigalg: OpenSSL 3.4's RSA signature algorithms named for the digest
 * ("RSA-SHA2-256", ... with their OIDs) on quill, through the message API
 * (EVP_PKEY_sign_message_init and friends) and the digest form
 * (EVP_PKEY_sign_init_ex2), against the default provider's algorithms of
 * the same names (test/common/qt_sigalg.h): PKCS#1 v1.5 is deterministic,
 * so the signatures must be the same bytes.  quill offers every one the
 * default provider does; an EC or RSA-PSS key is refused.  Skipped (77) on
 * a core older than 3.4, which has neither the API nor the names. */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "qt_evp.h"
#include "qt_msgapi.h"
#include "qt_sigalg.h"
#include "test_util.h"

static const struct {
    const char *name, *oid, *md;
} algs[] = {
    {"RSA-RIPEMD160", "1.3.36.3.3.1.2", "RIPEMD160"},
    {"RSA-SHA1", "1.2.840.113549.1.1.5", "SHA1"},
    {"RSA-SHA2-224", "1.2.840.113549.1.1.14", "SHA224"},
    {"RSA-SHA2-256", "1.2.840.113549.1.1.11", "SHA256"},
    {"RSA-SHA2-384", "1.2.840.113549.1.1.12", "SHA384"},
    {"RSA-SHA2-512", "1.2.840.113549.1.1.13", "SHA512"},
    {"RSA-SHA2-512/224", "1.2.840.113549.1.1.15", "SHA512-224"},
    {"RSA-SHA2-512/256", "1.2.840.113549.1.1.16", "SHA512-256"},
    {"RSA-SHA3-224", "2.16.840.1.101.3.4.3.13", "SHA3-224"},
    {"RSA-SHA3-256", "2.16.840.1.101.3.4.3.14", "SHA3-256"},
    {"RSA-SHA3-384", "2.16.840.1.101.3.4.3.15", "SHA3-384"},
    {"RSA-SHA3-512", "2.16.840.1.101.3.4.3.16", "SHA3-512"},
    {"RSA-SM3", "1.2.156.10197.1.504", "SM3"},
};

int main(void) {
    qt_msgapi api;
    if (!qt_msgapi_load(&api))
        return QT_SKIP;
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&def, &quill);
    if (ctx == NULL)
        return 1;
    qt_rng_seed(0x7273615f736967ULL);
    qt_sigalg_env e = {ctx, quill, def, &api, NULL, 1};
    EVP_PKEY *key = EVP_PKEY_Q_keygen(ctx, "provider=default", "RSA", (size_t)2048);
    QT_CHECK(key != NULL);
    for (size_t i = 0; key != NULL && i < QT_ARRAY_LEN(algs); i++)
        qt_sigalg_check(&e, algs[i].name, algs[i].oid, algs[i].md, key);

    qt_sigalg_census_check(ctx, "RSA-", (int)QT_ARRAY_LEN(algs));

    /* EC and RSA-PSS keys are not for these algorithms (as in the default
     * provider, which refuses PSS here). */
    EVP_PKEY *ec = EVP_PKEY_Q_keygen(ctx, "provider=default", "EC", "P-256");
    EVP_PKEY *pss = EVP_PKEY_Q_keygen(ctx, "provider=default", "RSA-PSS", (size_t)2048);
    QT_CHECK(ec != NULL && pss != NULL);
    if (ec != NULL)
        qt_sigalg_wrong_key(&e, "RSA-SHA2-256", ec);
    if (pss != NULL)
        qt_sigalg_wrong_key(&e, "RSA-SHA2-256", pss);
    EVP_PKEY_free(ec);
    EVP_PKEY_free(pss);
    EVP_PKEY_free(key);
    long signs = qt_counter(quill, "rsa-sign");
    printf("quill's rsa-sign counter: %ld\n", signs);
    QT_CHECK(signs >= (long)(3 * QT_ARRAY_LEN(algs)));
    qt_libctx_free(ctx, def, quill);
    return qt_finish("rsa_sigalg");
}
