/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_fallback: with quill preferred the way openssl.cnf.example does it
 * (default_properties "?quill.sig=yes"), everything quill does not take
 * still works through the default provider:
 *
 *   - a 512-bit RSA key and a 3-prime RSA key (made by the default
 *     provider): quill refuses them at import, so signing and verifying
 *     fall back to the default provider;
 *   - RSA key generation with the library defaults (1024 bits, e = 3),
 *     RSA decryption, ECDH on P-256, ECDSA on P-384 (on a 3.4+ core
 *     served by quill with the key held for it by the default provider);
 *   - generic RSA key generation after quill has served a signature, which
 *     OpenSSL 3.0's method cache may route to quill's key manager: it must
 *     succeed (1024 bits, e = 3; 512 bits) whichever provider serves it;
 *     likewise RSA-PSS key generation after an RSA-PSS key of the default
 *     provider has signed through quill, unrestricted and restricted
 *     (SHA-256, salt >= 32: kept, enforced, and the key signs).
 *
 * The control: an ordinary 2048-bit key in the same library context is
 * served by quill. */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "qt_evp.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov_default, *prov_quill;

static EVP_PKEY *keygen(const char *alg, unsigned bits, unsigned primes, const char *curve) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(libctx, alg, "provider=default");
    int ok = g != NULL && EVP_PKEY_keygen_init(g) > 0;
    if (ok && bits != 0)
        ok = EVP_PKEY_CTX_set_rsa_keygen_bits(g, (int)bits) > 0;
    if (ok && primes != 0)
        ok = EVP_PKEY_CTX_set_rsa_keygen_primes(g, (int)primes) > 0;
    if (ok && curve != NULL)
        ok = EVP_PKEY_CTX_set_group_name(g, curve) > 0;
    if (!ok || EVP_PKEY_generate(g, &key) <= 0) {
        ERR_print_errors_fp(stderr);
        key = NULL;
    }
    EVP_PKEY_CTX_free(g);
    return key;
}

/* Signs and verifies with the library defaults; checks who served. */
static void sign_verify(EVP_PKEY *key, const qt_sigparams *sp, const OSSL_PROVIDER *want,
                        const char *what) {
    uint8_t msg[100], sig[1024];
    size_t sig_len = sizeof(sig);
    qt_rng_bytes(msg, sizeof(msg));
    const OSSL_PROVIDER *sserved = NULL, *vserved = NULL;
    int ok = qt_digest_sign(libctx, NULL, key, sp, msg, sizeof(msg), QT_ONESHOT, sig, &sig_len,
                            &sserved);
    QT_CHECK(ok);
    int r = ok ? qt_digest_verify(libctx, NULL, key, sp, msg, sizeof(msg), QT_STREAMED, sig,
                                  sig_len, &vserved)
               : -1;
    QT_CHECK(r == 1);
    QT_CHECK(sserved == want);
    QT_CHECK(vserved == want);
    /* And the other provider agrees with the signature, where it can. */
    if (ok && want == prov_quill)
        QT_CHECK(qt_digest_verify(libctx, "provider=default", key, sp, msg, sizeof(msg),
                                  QT_ONESHOT, sig, sig_len, NULL) == 1);
    sig[3] ^= 0x40;
    QT_CHECK(qt_digest_verify(libctx, NULL, key, sp, msg, sizeof(msg), QT_ONESHOT, sig, sig_len,
                              NULL) == 0);
    printf("%-44s signed by %s, verified by %s: %s\n", what, qt_prov_name(sserved),
           qt_prov_name(vserved), ok && r == 1 ? "ok" : "FAILED");
    if (!ok || r != 1)
        ERR_print_errors_fp(stderr);
    ERR_clear_error();
}

/* EVP_PKEY_sign of a precomputed SHA-256 digest with the library defaults. */
static void pkey_sign_verify(EVP_PKEY *key, const OSSL_PROVIDER *want, const char *what) {
    uint8_t dgst[32], sig[1024];
    size_t sig_len = sizeof(sig);
    qt_rng_bytes(dgst, sizeof(dgst));
    EVP_MD *md = EVP_MD_fetch(libctx, "SHA256", NULL);
    EVP_PKEY_CTX *s = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    EVP_PKEY_CTX *v = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    int ok = md != NULL && s != NULL && v != NULL && EVP_PKEY_sign_init(s) > 0 &&
             EVP_PKEY_CTX_set_signature_md(s, md) > 0 &&
             EVP_PKEY_sign(s, sig, &sig_len, dgst, sizeof(dgst)) > 0 &&
             EVP_PKEY_verify_init(v) > 0 && EVP_PKEY_CTX_set_signature_md(v, md) > 0 &&
             EVP_PKEY_verify(v, sig, sig_len, dgst, sizeof(dgst)) == 1;
    QT_CHECK(ok);
    QT_CHECK(qt_pctx_provider(s) == want);
    QT_CHECK(qt_pctx_provider(v) == want);
    printf("%-44s EVP_PKEY_sign by %s: %s\n", what, qt_prov_name(qt_pctx_provider(s)),
           ok ? "ok" : "FAILED");
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(s);
    EVP_PKEY_CTX_free(v);
    EVP_MD_free(md);
}

/* Key generation with the library defaults stays with the default provider
 * (quill's keymgmt carries no quill.sig property) while nothing has fetched
 * quill's key manager yet; see keygen_after_use() for the case where it
 * has. */
static void default_keygen(void) {
    EVP_PKEY *key = NULL;
    BIGNUM *e = BN_new();
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(libctx, "RSA", NULL);
    int ok = g != NULL && e != NULL && BN_set_word(e, 3) && EVP_PKEY_keygen_init(g) > 0 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, 1024) > 0 &&
             EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) > 0 && EVP_PKEY_generate(g, &key) > 0;
    QT_CHECK(ok);
    QT_CHECK(qt_pkey_provider(key) == prov_default);
    printf("%-44s by %s: %s\n", "1024-bit e = 3 keygen, library defaults",
           qt_prov_name(qt_pkey_provider(key)), ok ? "ok" : "FAILED");
    if (!ok)
        ERR_print_errors_fp(stderr);
    /* quill takes the key for signing (1024 bits, e = 3 are within its range). */
    qt_sigparams pkcs1 = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
    if (key != NULL)
        sign_verify(key, &pkcs1, prov_quill, "1024-bit e = 3 key, PKCS#1");
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(g);
    BN_free(e);
}

/* Known OpenSSL 3.0 behaviour: OpenSSL caches a fetched method under its
 * property query string, and a provider-specific fetch (quill's RSA key
 * manager, fetched to export a key for a quill signature) lands under the
 * same empty query as a generic fetch.  If that happens first in a library
 * context, library-default RSA key generation there goes to quill.  Loading
 * quill must not break it: quill generates what the default provider
 * generates (two primes), so generic keygen of 1024 bits with e = 3 and of
 * 512 bits must succeed, whichever provider serves it, and give valid keys
 * (EVP_PKEY_check by the default provider, a signature that verifies).
 * Shown in a fresh context. */
/* One generic (library-default) keygen in |ctx|, checked. */
static void generic_keygen(OSSL_LIB_CTX *ctx, unsigned bits, unsigned long e_word) {
    EVP_PKEY *key = NULL;
    BIGNUM *e = BN_new(), *got = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA", NULL);
    int ok = g != NULL && e != NULL && BN_set_word(e, e_word) && EVP_PKEY_keygen_init(g) > 0 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, (int)bits) > 0 &&
             EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) > 0 && EVP_PKEY_generate(g, &key) > 0;
    QT_CHECK(ok && key != NULL);
    printf("fresh context, a quill signature, then %u-bit e = %lu keygen with library "
           "defaults: %s, key by %s\n",
           bits, e_word, ok ? "ok" : "FAILED", qt_prov_name(qt_pkey_provider(key)));
    if (!ok)
        ERR_print_errors_fp(stderr);
    if (key != NULL) {
        QT_CHECK(EVP_PKEY_get_bits(key) == (int)bits);
        QT_CHECK(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &got) == 1 &&
                 BN_cmp(got, e) == 0);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, "provider=default");
        QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1);
        EVP_PKEY_CTX_free(c);
        /* The key signs (library defaults) and the default provider
         * verifies; a flipped bit is rejected. */
        uint8_t msg[32] = "generated after use", sig[256];
        size_t sig_len = sizeof(sig);
        qt_sigparams sp = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
        QT_CHECK(qt_digest_sign(ctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig, &sig_len,
                                NULL) == 1);
        QT_CHECK(qt_digest_verify(ctx, "provider=default", key, &sp, msg, sizeof(msg),
                                  QT_ONESHOT, sig, sig_len, NULL) == 1);
        sig[sig_len / 2] ^= 0x10;
        QT_CHECK(qt_digest_verify(ctx, "provider=default", key, &sp, msg, sizeof(msg),
                                  QT_ONESHOT, sig, sig_len, NULL) == 0);
    }
    ERR_clear_error();
    BN_free(got);
    BN_free(e);
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(g);
}

static void keygen_after_use(void) {
    OSSL_PROVIDER *d = NULL, *q = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&d, &q);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL)
        return;
    EVP_PKEY *other = qt_rsa_keygen(ctx, "provider=default", 2048);
    uint8_t msg[32] = "keygen after use", sig[256];
    size_t sig_len = sizeof(sig);
    const OSSL_PROVIDER *by = NULL;
    qt_sigparams sp = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
    int signed_ok = other != NULL && qt_digest_sign(ctx, NULL, other, &sp, msg, sizeof(msg),
                                                    QT_ONESHOT, sig, &sig_len, &by);
    QT_CHECK(signed_ok && by == q);
    generic_keygen(ctx, 1024, 3);
    generic_keygen(ctx, 512, 65537);
    generic_keygen(ctx, 1024, 65537);
    EVP_PKEY_free(other);
    qt_libctx_free(ctx, d, q);
}

/* One generic RSA-PSS keygen in |ctx| (restricted to SHA-256 with salt
 * >= 32 if |restricted|), checked as generic_keygen's keys are, plus the
 * restrictions: kept, and SHA-1 refused when restricted. */
static void generic_pss_keygen(OSSL_LIB_CTX *ctx, int restricted) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA-PSS", NULL);
    int ok = g != NULL && EVP_PKEY_keygen_init(g) > 0 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) > 0;
    if (ok && restricted)
        ok = EVP_PKEY_CTX_set_rsa_pss_keygen_md_name(g, "SHA256", NULL) > 0 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_saltlen(g, 32) > 0;
    ok = ok && EVP_PKEY_generate(g, &key) > 0;
    QT_CHECK(ok && key != NULL && EVP_PKEY_is_a(key, "RSA-PSS"));
    printf("a quill RSA-PSS signature, then %s RSA-PSS keygen with library defaults: %s, key "
           "by %s\n",
           restricted ? "restricted" : "unrestricted", ok ? "ok" : "FAILED",
           qt_prov_name(qt_pkey_provider(key)));
    if (!ok)
        ERR_print_errors_fp(stderr);
    if (key != NULL) {
        char md[32] = "";
        int salt = 0;
        if (restricted) {
            QT_CHECK(EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_RSA_DIGEST, md,
                                                    sizeof(md), NULL) == 1 &&
                     OPENSSL_strcasecmp(md, "SHA256") == 0);
            QT_CHECK(EVP_PKEY_get_int_param(key, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &salt) == 1 &&
                     salt == 32);
        }
        uint8_t msg[32] = "pss generated after use", sig[256];
        size_t sig_len = sizeof(sig);
        qt_sigparams sp = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "32", 0};
        QT_CHECK(qt_digest_sign(ctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig, &sig_len,
                                NULL) == 1);
        QT_CHECK(qt_digest_verify(ctx, "provider=default", key, &sp, msg, sizeof(msg),
                                  QT_ONESHOT, sig, sig_len, NULL) == 1);
        qt_sigparams sha1 = {RSA_PKCS1_PSS_PADDING, "SHA1", NULL, "20", 0};
        sig_len = sizeof(sig);
        QT_CHECK(qt_digest_sign(ctx, NULL, key, &sha1, msg, sizeof(msg), QT_ONESHOT, sig,
                                &sig_len, NULL) == !restricted);
    }
    ERR_clear_error();
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(g);
}

static void pss_keygen_after_use(void) {
    OSSL_PROVIDER *d = NULL, *q = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&d, &q);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL)
        return;
    EVP_PKEY *pss = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA-PSS", "provider=default");
    QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) > 0 && EVP_PKEY_generate(g, &pss) > 0);
    EVP_PKEY_CTX_free(g);
    uint8_t msg[32] = "pss keygen after use", sig[256];
    size_t sig_len = sizeof(sig);
    const OSSL_PROVIDER *by = NULL;
    qt_sigparams sp = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "32", 0};
    QT_CHECK(pss != NULL && qt_digest_sign(ctx, NULL, pss, &sp, msg, sizeof(msg), QT_ONESHOT,
                                           sig, &sig_len, &by) == 1 &&
             by == q);
    generic_pss_keygen(ctx, 0);
    generic_pss_keygen(ctx, 1);
    EVP_PKEY_free(pss);
    qt_libctx_free(ctx, d, q);
}

static void rsa_decrypt(EVP_PKEY *key) {
    uint8_t pt[48], ct[512], out[512];
    size_t ct_len = sizeof(ct), out_len = sizeof(out);
    qt_rng_bytes(pt, sizeof(pt));
    EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    int ok = e != NULL && d != NULL && EVP_PKEY_encrypt_init(e) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(e, RSA_PKCS1_OAEP_PADDING) > 0 &&
             EVP_PKEY_encrypt(e, ct, &ct_len, pt, sizeof(pt)) > 0 &&
             EVP_PKEY_decrypt_init(d) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(d, RSA_PKCS1_OAEP_PADDING) > 0 &&
             EVP_PKEY_decrypt(d, out, &out_len, ct, ct_len) > 0 && out_len == sizeof(pt) &&
             memcmp(out, pt, sizeof(pt)) == 0;
    QT_CHECK(ok);
    QT_CHECK(qt_pctx_provider(d) == prov_default);
    printf("%-44s %s\n", "RSA-OAEP decryption", ok ? "ok" : "FAILED");
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(e);
    EVP_PKEY_CTX_free(d);
}

static int derive(EVP_PKEY *mine, EVP_PKEY *peer, uint8_t *out, size_t *out_len) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, mine, NULL);
    int ok = c != NULL && EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_derive_set_peer(c, peer) > 0 &&
             EVP_PKEY_derive(c, out, out_len) > 0;
    QT_CHECK(qt_pctx_provider(c) == prov_default);
    EVP_PKEY_CTX_free(c);
    return ok;
}

static void ecdh_p256(void) {
    EVP_PKEY *a = keygen("EC", 0, 0, "P-256"), *b = keygen("EC", 0, 0, "P-256");
    uint8_t s1[64], s2[64];
    size_t l1 = sizeof(s1), l2 = sizeof(s2);
    int ok = a != NULL && b != NULL && derive(a, b, s1, &l1) && derive(b, a, s2, &l2) &&
             l1 == 32 && l1 == l2 && memcmp(s1, s2, l1) == 0;
    QT_CHECK(ok);
    printf("%-44s %s\n", "ECDH P-256", ok ? "ok" : "FAILED");
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

static void ecdsa_p384(void) {
    EVP_PKEY *k = keygen("EC", 0, 0, "P-384");
    uint8_t msg[64] = "ecdsa", sig[256];
    size_t sig_len = sizeof(sig);
    EVP_MD_CTX *s = EVP_MD_CTX_new(), *v = EVP_MD_CTX_new();
    EVP_PKEY_CTX *sp = NULL, *vp = NULL;
    int ok = k != NULL && s != NULL && v != NULL &&
             EVP_DigestSignInit_ex(s, &sp, "SHA384", libctx, NULL, k, NULL) > 0 &&
             EVP_DigestSign(s, sig, &sig_len, msg, sizeof(msg)) > 0 &&
             EVP_DigestVerifyInit_ex(v, &vp, "SHA384", libctx, NULL, k, NULL) > 0 &&
             EVP_DigestVerify(v, sig, sig_len, msg, sizeof(msg)) == 1;
    QT_CHECK(ok);
    /* On a 3.4+ core the P-384 key is held for quill by the default
     * provider (provider/ec_key.c, import_foreign) and quill's ECDSA has
     * the default provider sign; before, the signature falls back. */
    QT_CHECK(qt_pctx_provider(sp) == (qt_core_at_least(3, 4) ? prov_quill : prov_default));
    printf("%-44s %s\n", "ECDSA P-384", ok ? "ok" : "FAILED");
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_MD_CTX_free(s);
    EVP_MD_CTX_free(v);
    EVP_PKEY_free(k);
}

int main(void) {
    qt_rng_seed(0x66616c6c6261636bull);
    libctx = qt_evp_libctx_new(&prov_default, &prov_quill);
    if (libctx == NULL)
        return 1;
    /* Keys made by the default provider. */
    EVP_PKEY *k512 = keygen("RSA", 512, 0, NULL);
    EVP_PKEY *k3p = keygen("RSA", 2048, 3, NULL);
    EVP_PKEY *k2048 = keygen("RSA", 2048, 0, NULL);
    QT_CHECK(k512 != NULL && k3p != NULL && k2048 != NULL);
    if (k512 == NULL || k3p == NULL || k2048 == NULL)
        return qt_finish("rsa_fallback");
    QT_CHECK(qt_pkey_provider(k2048) == prov_default);
    BIGNUM *f3 = NULL;
    QT_CHECK(EVP_PKEY_get_bn_param(k3p, OSSL_PKEY_PARAM_RSA_FACTOR3, &f3)); /* really 3 primes */
    BN_free(f3);

    default_keygen();
    qt_sigparams pkcs1 = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
    qt_sigparams pss = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "max", 0};
    qt_sigparams pss_digest = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "digest", 0};
    sign_verify(k2048, &pkcs1, prov_quill, "2048-bit key, PKCS#1 (control)");
    sign_verify(k2048, &pss_digest, prov_quill, "2048-bit key, PSS (control)");
    pkey_sign_verify(k2048, prov_quill, "2048-bit key (control)");
    sign_verify(k512, &pkcs1, prov_default, "512-bit key, PKCS#1");
    sign_verify(k512, &pss, prov_default, "512-bit key, PSS");
    pkey_sign_verify(k512, prov_default, "512-bit key");
    sign_verify(k3p, &pkcs1, prov_default, "3-prime key, PKCS#1");
    sign_verify(k3p, &pss_digest, prov_default, "3-prime key, PSS");
    pkey_sign_verify(k3p, prov_default, "3-prime key");
    keygen_after_use();
    pss_keygen_after_use();
    rsa_decrypt(k2048);
    rsa_decrypt(k3p);
    ecdh_p256();
    ecdsa_p384();

    EVP_PKEY_free(k512);
    EVP_PKEY_free(k3p);
    EVP_PKEY_free(k2048);
    qt_libctx_free(libctx, prov_default, prov_quill);
    return qt_finish("rsa_fallback");
}
