/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_sigalg: ML-DSA through OpenSSL 3.4's message API
 * (EVP_PKEY_sign_message_init / EVP_PKEY_verify_message_init, then the
 * whole message in one EVP_PKEY_sign / EVP_PKEY_verify, as OpenSSL 3.5's
 * own ML-DSA has it), in a library context configured as
 * openssl.cnf.example (default_properties ?quill.sig=yes): key generation
 * and signatures on quill (counted), fetched by name and by OID, with a
 * context string.  Where the default provider has ML-DSA too (3.5+):
 * deterministic signatures byte for byte the same as its, and each
 * verifies the other's.  A message update (which 3.5's ML-DSA does not
 * offer) is refused with an error.  Skipped (77) on a core older than 3.4. */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "qt_evp.h"
#include "qt_msgapi.h"
#include "test_util.h"

static const struct {
    const char *name, *oid;
    size_t sig;
} sets[] = {
    {"ML-DSA-44", "2.16.840.1.101.3.4.3.17", 2420},
    {"ML-DSA-65", "2.16.840.1.101.3.4.3.18", 3309},
    {"ML-DSA-87", "2.16.840.1.101.3.4.3.19", 4627},
};

static OSSL_LIB_CTX *ctx;
static qt_msgapi api;

/* Signs |msg| with |alg| (context "quill", deterministic); returns the
 * length or 0; *served is the provider. */
static size_t sign(EVP_SIGNATURE *alg, EVP_PKEY *key, const uint8_t *msg, size_t len, uint8_t *sig,
                   size_t cap, const OSSL_PROVIDER **served) {
    int det = 1;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("context-string", (char *)"quill", 5),
                      OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_end()};
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
    size_t n = cap;
    int ok = c != NULL && api.sign_message_init(c, alg, p) == 1;
    if (ok && served != NULL)
        *served = EVP_PKEY_CTX_get0_provider(c);
    ok = ok && EVP_PKEY_sign(c, sig, &n, msg, len) == 1;
    EVP_PKEY_CTX_free(c);
    if (!ok)
        ERR_print_errors_fp(stderr);
    return ok ? n : 0;
}

/* 1 good, 0 refused, -1 setup failed; |context| is the context string. */
static int verify(EVP_SIGNATURE *alg, EVP_PKEY *key, const char *context, const uint8_t *msg,
                  size_t len, const uint8_t *sig, size_t siglen, const OSSL_PROVIDER **served) {
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("context-string", (char *)context,
                                                        strlen(context)),
                      OSSL_PARAM_construct_end()};
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
    int r = -1;
    if (c != NULL && api.verify_message_init(c, alg, p) == 1) {
        if (served != NULL)
            *served = EVP_PKEY_CTX_get0_provider(c);
        r = EVP_PKEY_verify(c, sig, siglen, msg, len) == 1;
    }
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return r;
}

int main(void) {
    if (!qt_msgapi_load(&api))
        return QT_SKIP;
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    ctx = qt_evp_libctx_new(&def, &quill);
    if (ctx == NULL)
        return 1;
    qt_rng_seed(0x6d6c6473615f6dULL);
    for (size_t i = 0; i < QT_ARRAY_LEN(sets); i++) {
        unsigned long before = qt_failed;
        /* Key generation by name, no query: quill's, counted. */
        long kg = qt_counter(quill, "mldsa-keygen");
        EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, sets[i].name, NULL);
        EVP_PKEY *key = NULL;
        QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_generate(g, &key) == 1);
        QT_CHECK(g != NULL && EVP_PKEY_CTX_get0_provider(g) == quill);
        QT_CHECK(qt_counter(quill, "mldsa-keygen") == kg + 1);
        EVP_PKEY_CTX_free(g);
        EVP_SIGNATURE *q = EVP_SIGNATURE_fetch(ctx, sets[i].name, NULL);
        EVP_SIGNATURE *qo = EVP_SIGNATURE_fetch(ctx, sets[i].oid, NULL);
        QT_CHECK(q != NULL && EVP_SIGNATURE_get0_provider(q) == quill);
        QT_CHECK(qo != NULL && EVP_SIGNATURE_get0_provider(qo) == quill);
        if (key == NULL || q == NULL) {
            ERR_print_errors_fp(stderr);
            EVP_SIGNATURE_free(q);
            EVP_SIGNATURE_free(qo);
            EVP_PKEY_free(key);
            continue;
        }
        uint8_t msg[77], qs[5000], qs2[5000], ds[5000];
        qt_rng_bytes(msg, sizeof(msg));
        const OSSL_PROVIDER *served = NULL, *vserved = NULL;
        long sg = qt_counter(quill, "mldsa-sign");
        size_t ql = sign(q, key, msg, sizeof(msg), qs, sizeof(qs), &served);
        QT_CHECK(ql == sets[i].sig && served == quill);
        QT_CHECK(qt_counter(quill, "mldsa-sign") == sg + 1);
        size_t ql2 = qo != NULL ? sign(qo, key, msg, sizeof(msg), qs2, sizeof(qs2), NULL) : 0;
        QT_CHECK(ql2 == ql && memcmp(qs, qs2, ql) == 0); /* deterministic */
        QT_CHECK(verify(q, key, "quill", msg, sizeof(msg), qs, ql, &vserved) == 1 &&
                 vserved == quill);
        QT_CHECK(verify(q, key, "quilt", msg, sizeof(msg), qs, ql, NULL) == 0);
        QT_CHECK(verify(q, key, "quill", msg, sizeof(msg) - 1, qs, ql, NULL) == 0);
        /* No message update, as in OpenSSL 3.5's ML-DSA. */
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
        QT_CHECK(c != NULL && api.sign_message_init(c, q, NULL) == 1 &&
                 api.sign_message_update(c, msg, sizeof(msg)) != 1);
        EVP_PKEY_CTX_free(c);
        ERR_clear_error();
        /* Against the default provider's ML-DSA, where it has one. */
        ERR_set_mark();
        EVP_SIGNATURE *d = EVP_SIGNATURE_fetch(ctx, sets[i].name, "provider=default");
        ERR_pop_to_mark();
        if (d != NULL) {
            size_t dl = sign(d, key, msg, sizeof(msg), ds, sizeof(ds), &served);
            QT_CHECK(dl == ql && served == def && memcmp(ds, qs, ql) == 0);
            QT_CHECK(verify(d, key, "quill", msg, sizeof(msg), qs, ql, NULL) == 1);
            QT_CHECK(verify(q, key, "quill", msg, sizeof(msg), ds, dl, NULL) == 1);
            QT_CHECK(verify(d, key, "quilt", msg, sizeof(msg), qs, ql, NULL) == 0);
        }
        printf("%s: %s%s\n", sets[i].name, qt_failed == before ? "ok" : "FAILED",
               d != NULL ? " (the default provider's ML-DSA agrees byte for byte)"
                         : " (no ML-DSA in the default provider)");
        EVP_SIGNATURE_free(d);
        EVP_SIGNATURE_free(q);
        EVP_SIGNATURE_free(qo);
        EVP_PKEY_free(key);
    }
    qt_libctx_free(ctx, def, quill);
    return qt_finish("mldsa_sigalg");
}
