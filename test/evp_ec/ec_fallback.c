/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_fallback: with quill preferred the way openssl.cnf.example does it
 * (default_properties "?quill.sig=yes"), everything quill does not take
 * keeps working through the default provider:
 *
 *   - ECDSA with P-384 and P-521 keys (quill refuses them at import on a
 *     core before 3.4, and the signature falls back to the default
 *     provider; a 3.4+ core has them held for quill by the default
 *     provider, which then signs for quill), signing and verifying,
 *     one-shot and streamed;
 *   - EC key generation with the library defaults for P-384 and P-521;
 *   - ECDH on P-256 (default-held and quill-held keys) and X25519;
 *   - Ed25519 signatures;
 *   - after quill has signed with a P-256 key of the default provider (in a
 *     fresh library context), generic EC key generation (P-384,
 *     secp256k1), which OpenSSL 3.0's method cache routes to quill's key
 *     manager: it succeeds, and the keys, held for quill by the default
 *     provider, sign and verify (digests and messages, one-shot and
 *     streamed, the default provider agreeing), are checked, compared,
 *     duplicated and used for ECDH; a bad signature leaves quill's reason,
 *     a short buffer is refused before hashing (the retry verifies), and
 *     the key manager's "has" keeps the caller's error queue.  Import by
 *     name of a P-384 key there is the known gap before OpenSSL 3.4:
 *     refused with an error, not a wrong key; a 3.4+ core has it held for
 *     quill by the default provider, like the P-384 and P-521 keys above,
 *     whose operations quill then serves by the default provider.
 *
 * The control: a P-256 key in the same library context is signed for by
 * quill. */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "ec_evp.h"
#include "qt_evp.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;

/* |want_quill|: served by quill (P-256), or, for a key quill refuses on a
 * core before 3.4, by the default provider; a 3.4+ core has such keys held
 * for quill by the default provider (provider/ec_key.c, import_foreign), so
 * quill serves the operation there and has the default provider do it. */
static void sign_verify(EVP_PKEY *key, const char *md, int want_quill, const char *what) {
    want_quill = want_quill || qt_core_at_least(3, 4);
    uint8_t msg[100], sig[256];
    size_t sl = sizeof(sig);
    const OSSL_PROVIDER *ps = NULL, *pv = NULL;
    qt_rng_bytes(msg, sizeof(msg));
    int ok = ect_sign(libctx, NULL, key, md, msg, sizeof(msg), ECT_ONESHOT, -1, sig, &sl, &ps);
    int r = ok ? ect_verify(libctx, NULL, key, md, msg, sizeof(msg), ECT_STREAMED, sig, sl, &pv)
               : -1;
    QT_CHECK(ok);
    QT_CHECK(r == 1);
    QT_CHECK(ps != NULL && ect_is_quill(ps) == want_quill);
    QT_CHECK(pv != NULL && ect_is_quill(pv) == want_quill);
    printf("%s: signed by %s, verified by %s\n", what, qt_prov_name(ps), qt_prov_name(pv));
    if (!ok || r != 1)
        ERR_print_errors_fp(stderr);
    ERR_clear_error();
}

static void check_exchange(EVP_PKEY *a, EVP_PKEY *b, const char *what) {
    uint8_t z1[80], z2[80];
    size_t l1 = sizeof(z1), l2 = sizeof(z2);
    const OSSL_PROVIDER *p1 = NULL, *p2 = NULL;
    QT_CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL)
        return;
    QT_CHECK(ect_derive(libctx, a, b, z1, &l1, &p1));
    QT_CHECK(ect_derive(libctx, b, a, z2, &l2, &p2));
    QT_CHECK(l1 == l2 && l1 > 0 && memcmp(z1, z2, l1) == 0);
    QT_CHECK(p1 != NULL && !ect_is_quill(p1) && p2 != NULL && !ect_is_quill(p2));
    printf("%s: %zu-byte secret by %s\n", what, l1, qt_prov_name(p1));
    ERR_clear_error();
}

static EVP_PKEY *keygen_plain(const char *alg) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(libctx, alg, NULL);
    if (g == NULL || EVP_PKEY_keygen_init(g) <= 0 || EVP_PKEY_generate(g, &key) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(g);
    return key;
}

/* One key made after use (|key|, in |ctx|): signatures both ways with the
 * default provider, a tampered one refused, EVP_PKEY_check, dup and eq,
 * ECDH with a default-provider key of the same curve. */
static void check_after_use(OSSL_LIB_CTX *ctx, EVP_PKEY *key, const char *group, const char *md,
                            const char *what) {
    QT_CHECK(key != NULL);
    if (key == NULL) {
        ERR_print_errors_fp(stderr);
        return;
    }
    uint8_t msg[100], sig[256], dg[64];
    size_t sl = sizeof(sig), dl = 0;
    qt_rng_bytes(msg, sizeof(msg));
    const OSSL_PROVIDER *ps = NULL;
    int ok = ect_sign(ctx, NULL, key, md, msg, sizeof(msg), ECT_STREAMED, -1, sig, &sl, &ps);
    QT_CHECK(ok);
    QT_CHECK(ok && ect_verify(ctx, ECT_DEFAULT, key, md, msg, sizeof(msg), ECT_ONESHOT, sig, sl,
                              NULL) == 1);
    QT_CHECK(ok && ect_verify(ctx, NULL, key, md, msg, sizeof(msg), ECT_ONESHOT, sig, sl, NULL) ==
                       1);
    sig[sl / 2] ^= 1;
    QT_CHECK(ok && ect_verify(ctx, NULL, key, md, msg, sizeof(msg), ECT_STREAMED, sig, sl, NULL) ==
                       0);
    ERR_clear_error();
    /* The default provider signs, the key verifies (digest form too). */
    sl = sizeof(sig);
    QT_CHECK(ect_sign(ctx, ECT_DEFAULT, key, md, msg, sizeof(msg), ECT_ONESHOT, -1, sig, &sl,
                      NULL));
    QT_CHECK(ect_verify(ctx, NULL, key, md, msg, sizeof(msg), ECT_STREAMED, sig, sl, NULL) == 1);
    QT_CHECK(EVP_Q_digest(ctx, md, NULL, msg, sizeof(msg), dg, &dl) == 1);
    sl = sizeof(sig);
    QT_CHECK(ect_sign_digest(ctx, NULL, key, md, dg, dl, sig, &sl, NULL));
    QT_CHECK(ect_verify_digest(ctx, ECT_DEFAULT, key, md, dg, dl, sig, sl, NULL) == 1);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
    QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1 && EVP_PKEY_public_check(c) == 1);
    EVP_PKEY_CTX_free(c);
    /* A bad signature leaves quill's reason; a short buffer is refused
     * before the message is hashed, so the retry signs it once. */
    sl = sizeof(sig);
    QT_CHECK(ect_sign(ctx, NULL, key, md, msg, sizeof(msg), ECT_ONESHOT, -1, sig, &sl, NULL));
    sig[3] ^= 0x40;
    QT_CHECK(ect_verify(ctx, NULL, key, md, msg, sizeof(msg), ECT_ONESHOT, sig, sl, NULL) != 1 &&
             qt_error_has_reason());
    ERR_clear_error();
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    size_t small = 8, full = sizeof(sig);
    QT_CHECK(m != NULL && EVP_DigestSignInit_ex(m, NULL, md, ctx, NULL, key, NULL) == 1);
    QT_CHECK(EVP_DigestSign(m, sig, &small, msg, sizeof(msg)) != 1 && qt_error_has_reason());
    ERR_clear_error();
    if (qt_core_at_least(3, 2)) {
        /* From OpenSSL 3.2 on, EVP marks a one-shot EVP_DigestSign context
         * finished even when the provider refused it: the retry is EVP's
         * error, and a fresh initialisation signs. */
        QT_CHECK(EVP_DigestSign(m, sig, &full, msg, sizeof(msg)) != 1);
        ERR_clear_error();
        full = sizeof(sig);
        QT_CHECK(EVP_DigestSignInit_ex(m, NULL, md, ctx, NULL, key, NULL) == 1);
    }
    QT_CHECK(EVP_DigestSign(m, sig, &full, msg, sizeof(msg)) == 1);
    QT_CHECK(ect_verify(ctx, ECT_DEFAULT, key, md, msg, sizeof(msg), ECT_ONESHOT, sig, full,
                        NULL) == 1);
    EVP_MD_CTX_free(m);
    /* Asking whether the key has its parts keeps the caller's errors. */
    ERR_raise_data(ERR_LIB_USER, 42, "the caller's error");
    QT_CHECK(EVP_PKEY_missing_parameters(key) == 0 && ERR_peek_error() != 0);
    ERR_clear_error();
    EVP_PKEY *d = EVP_PKEY_dup(key);
    QT_CHECK(d != NULL && EVP_PKEY_eq(key, d) == 1);
    EVP_PKEY_free(d);
    EVP_PKEY *peer = ect_keygen(ctx, ECT_DEFAULT, group);
    QT_CHECK(peer != NULL && EVP_PKEY_eq(key, peer) == 0);
    uint8_t z1[80], z2[80];
    size_t l1 = sizeof(z1), l2 = sizeof(z2);
    QT_CHECK(ect_derive(libctx, key, peer, z1, &l1, NULL) &&
             ect_derive(libctx, peer, key, z2, &l2, NULL) && l1 == l2 && memcmp(z1, z2, l1) == 0);
    EVP_PKEY_free(peer);
    printf("after a quill signature, %s: key by %s, signed by %s; checks ok\n", what,
           qt_prov_name(qt_pkey_provider(key)), qt_prov_name(ps));
    ERR_clear_error();
}

static void after_use(void) {
    OSSL_PROVIDER *d = NULL, *q = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&d, &q);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL)
        return;
    EVP_PKEY *p256 = ect_keygen(ctx, ECT_DEFAULT, "P-256");
    uint8_t msg[32] = "after use", sig[128];
    size_t sl = sizeof(sig);
    const OSSL_PROVIDER *by = NULL;
    QT_CHECK(p256 != NULL && ect_sign(ctx, NULL, p256, "SHA256", msg, sizeof(msg), ECT_ONESHOT,
                                      -1, sig, &sl, &by) &&
             by == q);
    EVP_PKEY *k384 = ect_keygen(ctx, NULL, "P-384");
    check_after_use(ctx, k384, "P-384", "SHA384", "P-384 keygen");
    EVP_PKEY *k256k1 = ect_keygen(ctx, NULL, "secp256k1");
    check_after_use(ctx, k256k1, "secp256k1", "SHA256", "secp256k1 keygen");
    /* Import by name there: the known gap (README), refused with an
     * error from quill. */
    EVP_PKEY *src = ect_keygen(ctx, ECT_DEFAULT, "P-384");
    EVP_PKEY *pub = src != NULL ? ect_key_copy(ctx, NULL, src, EVP_PKEY_PUBLIC_KEY) : NULL;
    if (qt_core_at_least(3, 4)) {
        /* Held for quill by the default provider on a 3.4+ core: the gap
         * is closed there. */
        QT_CHECK(src != NULL && pub != NULL && EVP_PKEY_eq(src, pub) == 1);
    } else {
        QT_CHECK(src != NULL && pub == NULL && qt_error_has_reason());
    }
    printf("after a quill signature, P-384 import by name: %s\n",
           pub == NULL ? "refused (known gap before OpenSSL 3.4)" : "accepted");
    ERR_clear_error();
    EVP_PKEY_free(src);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(k256k1);
    EVP_PKEY_free(k384);
    EVP_PKEY_free(p256);
    qt_libctx_free(ctx, d, q);
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    qt_rng_seed(0x66616c6c6261636bULL);
    /* Key generation with the library defaults for curves quill lacks. */
    EVP_PKEY *k384 = ect_keygen(libctx, NULL, "P-384");
    EVP_PKEY *k521 = ect_keygen(libctx, NULL, "P-521");
    QT_CHECK(k384 != NULL && !ect_is_quill(qt_pkey_provider(k384)));
    QT_CHECK(k521 != NULL && !ect_is_quill(qt_pkey_provider(k521)));
    EVP_PKEY *k256 = ect_keygen(libctx, ECT_DEFAULT, "P-256");
    EVP_PKEY *k256b = ect_keygen(libctx, ECT_DEFAULT, "P-256");
    EVP_PKEY *q256 = ect_keygen(libctx, ECT_QUILL, "P-256");
    QT_CHECK(k256 != NULL && k256b != NULL && q256 != NULL);
    if (k256 != NULL)
        sign_verify(k256, "SHA256", 1, "P-256 (control)");
    if (k384 != NULL) {
        sign_verify(k384, "SHA384", 0, "P-384");
        sign_verify(k384, "SHA256", 0, "P-384 with SHA-256");
    }
    if (k521 != NULL)
        sign_verify(k521, "SHA512", 0, "P-521");
    check_exchange(k256, k256b, "ECDH P-256 (default keys)");
    check_exchange(q256, k256b, "ECDH P-256 (quill-held key)");
    EVP_PKEY *k384b = ect_keygen(libctx, ECT_DEFAULT, "P-384");
    check_exchange(k384, k384b, "ECDH P-384");
    EVP_PKEY_free(k384b);
    EVP_PKEY *x1 = keygen_plain("X25519"), *x2 = keygen_plain("X25519");
    check_exchange(x1, x2, "X25519");
    EVP_PKEY *ed = keygen_plain("ED25519");
    QT_CHECK(ed != NULL);
    if (ed != NULL) {
        uint8_t msg[32] = {9}, sig[64];
        size_t sl = sizeof(sig);
        const OSSL_PROVIDER *ps = NULL;
        QT_CHECK(ect_sign(libctx, NULL, ed, NULL, msg, sizeof(msg), ECT_ONESHOT, -1, sig, &sl,
                          &ps));
        QT_CHECK(ect_verify(libctx, NULL, ed, NULL, msg, sizeof(msg), ECT_ONESHOT, sig, sl, NULL) ==
                 1);
        QT_CHECK(ps != NULL && !ect_is_quill(ps));
    }
    EVP_PKEY_free(k384);
    EVP_PKEY_free(k521);
    EVP_PKEY_free(k256);
    EVP_PKEY_free(k256b);
    EVP_PKEY_free(q256);
    EVP_PKEY_free(x1);
    EVP_PKEY_free(x2);
    EVP_PKEY_free(ed);
    after_use();
    ERR_print_errors_fp(stderr);
    qt_libctx_free(libctx, def, quill);
    return qt_finish("ec_fallback");
}
