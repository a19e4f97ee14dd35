/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Checks of one OpenSSL 3.4+ signature algorithm named for key and digest
 * ("RSA-SHA2-256", "ECDSA-SHA2-256", ...) on quill against the default
 * provider's algorithm of the same name, through the message API
 * (qt_msgapi.h): fetched on quill under openssl.cnf.example's properties
 * by its name and by its OID; one-shot and streamed message signatures,
 * with the streamed signature given by EVP_PKEY_CTX_set_signature; the
 * digest form (EVP_PKEY_sign_init_ex2); both providers' signatures
 * verified by the other; the same bytes where the scheme is deterministic;
 * the same AlgorithmIdentifier; the gettable parameters without a
 * context; a wrong message or signature refused.
 * Header only (static inline): used by rsa_sigalg and ec_sigalg. */
#ifndef QUILL_TEST_QT_SIGALG_H
#define QUILL_TEST_QT_SIGALG_H

#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "qt_msgapi.h"
#include "test_util.h"

#define QT_SIGALG_MAX_SIG 1024

typedef struct qt_sigalg_env {
    OSSL_LIB_CTX *ctx;           /* default + quill, ?quill.sig=yes */
    const OSSL_PROVIDER *quill;
    const OSSL_PROVIDER *deflt;
    const qt_msgapi *api;
    const OSSL_PARAM *sign_params; /* e.g. ECDSA's nonce-type = 1, or NULL */
    int deterministic;             /* both providers sign the same bytes */
} qt_sigalg_env;

/* Signs |msg| with |alg| on |key|: in one call, or streamed in pieces of
 * 7 bytes when |streamed|.  Returns the length, 0 on failure; *served is
 * the provider that ran it. */
static inline size_t qt_sigalg_sign(const qt_sigalg_env *e, EVP_SIGNATURE *alg, EVP_PKEY *key,
                                    const uint8_t *msg, size_t len, int streamed, uint8_t *sig,
                                    const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->ctx, key, NULL);
    size_t siglen = 0, n = QT_SIGALG_MAX_SIG;
    int ok = c != NULL && e->api->sign_message_init(c, alg, e->sign_params) == 1;
    if (ok && served != NULL)
        *served = EVP_PKEY_CTX_get0_provider(c);
    if (ok && streamed) {
        for (size_t off = 0; ok && off < len; off += 7)
            ok = e->api->sign_message_update(c, msg + off, len - off < 7 ? len - off : 7) == 1;
        ok = ok && e->api->sign_message_final(c, NULL, &siglen) == 1 && siglen <= n &&
             e->api->sign_message_final(c, sig, &n) == 1;
    } else if (ok) {
        ok = EVP_PKEY_sign(c, NULL, &siglen, msg, len) == 1 && siglen <= n &&
             EVP_PKEY_sign(c, sig, &n, msg, len) == 1;
    }
    EVP_PKEY_CTX_free(c);
    if (!ok)
        ERR_print_errors_fp(stderr);
    return ok ? n : 0;
}

/* Verifies: 1 good, 0 refused, -1 the setup failed. */
static inline int qt_sigalg_verify(const qt_sigalg_env *e, EVP_SIGNATURE *alg, EVP_PKEY *key,
                                   const uint8_t *msg, size_t len, int streamed,
                                   const uint8_t *sig, size_t siglen,
                                   const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->ctx, key, NULL);
    int r = -1;
    if (c == NULL || e->api->verify_message_init(c, alg, NULL) != 1)
        goto done;
    if (served != NULL)
        *served = EVP_PKEY_CTX_get0_provider(c);
    if (streamed) {
        if (e->api->set_signature(c, sig, siglen) != 1)
            goto done;
        int ok = 1;
        for (size_t off = 0; ok && off < len; off += 7)
            ok = e->api->verify_message_update(c, msg + off, len - off < 7 ? len - off : 7) == 1;
        r = ok && e->api->verify_message_final(c) == 1;
    } else {
        r = EVP_PKEY_verify(c, sig, siglen, msg, len) == 1;
    }
done:
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return r;
}

/* The AlgorithmIdentifier of |alg| after a message signing init. */
static inline size_t qt_sigalg_algid(const qt_sigalg_env *e, EVP_SIGNATURE *alg, EVP_PKEY *key,
                                     uint8_t *out, size_t cap) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->ctx, key, NULL);
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, out, cap),
                      OSSL_PARAM_construct_end()};
    int ok = c != NULL && e->api->sign_message_init(c, alg, NULL) == 1 &&
             EVP_PKEY_CTX_get_params(c, p) == 1 && OSSL_PARAM_modified(p);
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return ok ? p[0].return_size : 0;
}

/* Signs the digest |dg| with |alg| in digest form (EVP_PKEY_sign_init_ex2). */
static inline size_t qt_sigalg_sign_digest(const qt_sigalg_env *e, EVP_SIGNATURE *alg,
                                           EVP_PKEY *key, const uint8_t *dg, size_t dglen,
                                           uint8_t *sig) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->ctx, key, NULL);
    size_t n = QT_SIGALG_MAX_SIG;
    int ok = c != NULL && e->api->sign_init_ex2(c, alg, e->sign_params) == 1 &&
             EVP_PKEY_sign(c, sig, &n, dg, dglen) == 1;
    EVP_PKEY_CTX_free(c);
    if (!ok)
        ERR_print_errors_fp(stderr);
    return ok ? n : 0;
}

/* Runs every check on algorithm |name| (alias |oid|) with |key|, whose
 * messages are hashed with digest |md|.  Prints one line. */
static inline void qt_sigalg_check(const qt_sigalg_env *e, const char *name, const char *oid,
                                   const char *md, EVP_PKEY *key) {
    unsigned long before = qt_failed;
    EVP_SIGNATURE *q = EVP_SIGNATURE_fetch(e->ctx, name, NULL);
    EVP_SIGNATURE *qo = EVP_SIGNATURE_fetch(e->ctx, oid, NULL);
    EVP_SIGNATURE *d = EVP_SIGNATURE_fetch(e->ctx, name, "provider=default");
    QT_CHECK(q != NULL && EVP_SIGNATURE_get0_provider(q) == e->quill);
    QT_CHECK(qo != NULL && EVP_SIGNATURE_get0_provider(qo) == e->quill);
    QT_CHECK(q != NULL && qo != NULL && EVP_SIGNATURE_is_a(q, oid) && EVP_SIGNATURE_is_a(qo, name));
    QT_CHECK(d != NULL && EVP_SIGNATURE_get0_provider(d) == e->deflt);
    if (q == NULL || d == NULL) {
        ERR_print_errors_fp(stderr);
        goto done;
    }
    uint8_t msg[100], qs[QT_SIGALG_MAX_SIG], qs2[QT_SIGALG_MAX_SIG], ds[QT_SIGALG_MAX_SIG];
    qt_rng_bytes(msg, sizeof(msg));
    const OSSL_PROVIDER *served = NULL, *vserved = NULL;
    size_t ql = qt_sigalg_sign(e, q, key, msg, sizeof(msg), 0, qs, &served);
    QT_CHECK(ql > 0 && served == e->quill);
    size_t ql2 = qt_sigalg_sign(e, q, key, msg, sizeof(msg), 1, qs2, NULL);
    QT_CHECK(ql2 > 0);
    size_t dl = qt_sigalg_sign(e, d, key, msg, sizeof(msg), 0, ds, NULL);
    QT_CHECK(dl > 0);
    if (e->deterministic)
        QT_CHECK(ql > 0 && ql == dl && ql2 == dl && memcmp(qs, ds, dl) == 0 &&
                 memcmp(qs2, ds, dl) == 0);
    /* Each verifies the other's, in one call and streamed. */
    for (int streamed = 0; streamed < 2; streamed++) {
        QT_CHECK(qt_sigalg_verify(e, q, key, msg, sizeof(msg), streamed, ds, dl, &vserved) == 1);
        QT_CHECK(vserved == e->quill);
        QT_CHECK(qt_sigalg_verify(e, q, key, msg, sizeof(msg), streamed, qs2, ql2, NULL) == 1);
        QT_CHECK(qt_sigalg_verify(e, d, key, msg, sizeof(msg), streamed, qs, ql, NULL) == 1);
        QT_CHECK(qt_sigalg_verify(e, d, key, msg, sizeof(msg), streamed, qs2, ql2, NULL) == 1);
    }
    /* A wrong message, a damaged signature: refused by quill. */
    QT_CHECK(qt_sigalg_verify(e, q, key, msg, sizeof(msg) - 1, 0, ds, dl, NULL) == 0);
    QT_CHECK(qt_sigalg_verify(e, q, key, msg, sizeof(msg) - 1, 1, ds, dl, NULL) == 0);
    ds[dl / 2] ^= 0x10;
    QT_CHECK(qt_sigalg_verify(e, q, key, msg, sizeof(msg), 1, ds, dl, NULL) == 0);
    ds[dl / 2] ^= 0x10;
    /* The digest form: sign H(msg), verified as a message by the other. */
    uint8_t dg[EVP_MAX_MD_SIZE];
    size_t dgl = 0;
    QT_CHECK(EVP_Q_digest(e->ctx, md, NULL, msg, sizeof(msg), dg, &dgl) == 1);
    size_t pl = qt_sigalg_sign_digest(e, q, key, dg, dgl, qs);
    QT_CHECK(pl > 0 && qt_sigalg_verify(e, d, key, msg, sizeof(msg), 0, qs, pl, NULL) == 1);
    if (e->deterministic)
        QT_CHECK(pl == dl && memcmp(qs, ds, dl) == 0);
    /* The same AlgorithmIdentifier (the signature OID of certificates). */
    uint8_t qa[128], da[128];
    size_t qal = qt_sigalg_algid(e, q, key, qa, sizeof(qa));
    size_t dal = qt_sigalg_algid(e, d, key, da, sizeof(da));
    QT_CHECK(qal == dal && memcmp(qa, da, qal) == 0);
    /* The gettable table without a context (EVP_SIGNATURE_gettable_ctx_params,
     * as `openssl list -signature-algorithms -verbose` asks): quill's names
     * algorithm-id too where the default provider's does. */
    if (OSSL_PARAM_locate_const(EVP_SIGNATURE_gettable_ctx_params(d),
                                OSSL_SIGNATURE_PARAM_ALGORITHM_ID) != NULL)
        QT_CHECK(OSSL_PARAM_locate_const(EVP_SIGNATURE_gettable_ctx_params(q),
                                         OSSL_SIGNATURE_PARAM_ALGORITHM_ID) != NULL);
done:
    printf("%-16s (%s): %s\n", name, oid, qt_failed == before ? "ok" : "FAILED");
    EVP_SIGNATURE_free(q);
    EVP_SIGNATURE_free(qo);
    EVP_SIGNATURE_free(d);
}

/* 1 in a build with AddressSanitizer (gcc's macro, clang's feature). */
#if defined(__SANITIZE_ADDRESS__)
#define QT_SIGALG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QT_SIGALG_ASAN 1
#endif
#endif
#ifndef QT_SIGALG_ASAN
#define QT_SIGALG_ASAN 0
#endif

/* The wrong key type is refused at init (the algorithm's query_key_types).
 * Not under AddressSanitizer: OpenSSL 3.5.3's evp_pkey_signature_init
 * returns on that refusal without freeing the key manager it fetched (with
 * the default provider's algorithms too), and the leak would fail the
 * run. */
static inline void qt_sigalg_wrong_key(const qt_sigalg_env *e, const char *name, EVP_PKEY *key) {
    if (QT_SIGALG_ASAN) {
        printf("%s with a wrong key type: not checked under AddressSanitizer "
               "(OpenSSL leaks on the refusal)\n", name);
        return;
    }
    EVP_SIGNATURE *q = EVP_SIGNATURE_fetch(e->ctx, name, NULL);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(e->ctx, key, NULL);
    QT_CHECK(q != NULL && c != NULL && e->api->sign_message_init(c, q, NULL) != 1);
    QT_CHECK(ERR_peek_last_error() != 0);
    ERR_clear_error();
    EVP_PKEY_CTX_free(c);
    EVP_SIGNATURE_free(q);
}

/* The census of qt_sigalg_missing. */
typedef struct qt_sigalg_census {
    OSSL_LIB_CTX *ctx;
    const char *prefix;
    int deflt, missing;
} qt_sigalg_census;

static inline void qt_sigalg_count_one(EVP_SIGNATURE *s, void *arg) {
    qt_sigalg_census *c = arg;
    const char *name = EVP_SIGNATURE_get0_name(s);
    if (strcmp(OSSL_PROVIDER_get0_name(EVP_SIGNATURE_get0_provider(s)), "default") != 0 ||
        name == NULL || strncmp(name, c->prefix, strlen(c->prefix)) != 0)
        return;
    c->deflt++;
    EVP_SIGNATURE *q = EVP_SIGNATURE_fetch(c->ctx, name, "provider=quill");
    if (q == NULL) {
        c->missing++;
        fprintf(stderr, "default provider's %s is not on quill\n", name);
    }
    EVP_SIGNATURE_free(q);
}

/* Checks that the default provider offers |want| signature algorithms whose
 * first name starts with |prefix| ("RSA-", "ECDSA-") and that quill offers
 * each of them. */
static inline void qt_sigalg_census_check(OSSL_LIB_CTX *ctx, const char *prefix, int want) {
    qt_sigalg_census c = {ctx, prefix, 0, 0};
    EVP_SIGNATURE_do_all_provided(ctx, qt_sigalg_count_one, &c);
    printf("default provider: %d %s<digest> algorithms, %d not on quill\n", c.deflt, prefix,
           c.missing);
    QT_CHECK(c.deflt == want && c.missing == 0);
}

#endif
