/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * provider_basic: quill.so as OpenSSL sees it.  Loads quill beside the
 * default provider in fresh library contexts (qt_libctx_new) and checks:
 *   - the provider parameters (name, version, buildinfo, status);
 *   - that quill's RSA signature and RSA / RSA-PSS key managers are fetchable
 *     with "provider=quill";
 *   - key generation by quill, export of the whole key (components readable,
 *     RSA decryption by the default provider with the quill-held key);
 *     the sizes and exponents OpenSSL's default provider also generates
 *     (512..2047 bits, e = 3): checked, duplicated, matched, signed by quill
 *     and verified by the default provider; what quill refuses (3 primes,
 *     < 512 or > 16384 bits, even e, e = 1) refused with quill's reason;
 *   - PKCS#1 v1.5 and PSS round trips through EVP_DigestSign/Verify and
 *     EVP_PKEY_sign/verify/verify_recover served by quill (provider of the
 *     EVP_PKEY_CTX), cross-verified by the default provider, with a
 *     mid-stream EVP_MD_CTX_copy;
 *   - context parameters (strings and integers), PSS salt-length keywords,
 *     and the restrictions of an RSA-PSS key served by quill;
 *   - algorithm-id DER identical to the default provider's;
 *   - security-bits against the default provider over key sizes;
 *   - import refusal (512-bit key) with fallback to the default provider
 *     under default properties ?quill.sig=yes;
 *   - a bad input raising an error whose reason string is quill's, in
 *     the library "quill", printed "error:CODE:quill::REASON"; every
 *     reason quill serves without a "quill" prefix or a ':';
 *   - QUILL_STATS: one well-formed line per provider teardown, with exact
 *     counts. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "test_util.h"

static const char *const QUILL = "provider=quill";
static const char *const DEFAULT = "provider=default";

/* ---- Provider parameters and fetchability ---- */

static void test_params(OSSL_PROVIDER *quill) {
    const char *name = NULL, *version = NULL, *buildinfo = NULL;
    int status = 0;
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0),
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0),
        OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
        OSSL_PARAM_construct_end(),
    };
    QT_CHECK(OSSL_PROVIDER_get_params(quill, p) == 1);
    QT_CHECK(name != NULL && strcmp(name, "quill") == 0);
    QT_CHECK(version != NULL && strcmp(version, "0.1.0") == 0);
    QT_CHECK(buildinfo != NULL && strstr(buildinfo, "quill") != NULL);
    QT_CHECK(status == 1);
    QT_CHECK(OSSL_PROVIDER_gettable_params(quill) != NULL);
}

static void test_fetch(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill) {
    EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(ctx, "RSA", QUILL);
    QT_CHECK(sig != NULL && EVP_SIGNATURE_get0_provider(sig) == quill);
    EVP_SIGNATURE_free(sig);
    sig = EVP_SIGNATURE_fetch(ctx, "rsaEncryption", "quill.sig=yes");
    QT_CHECK(sig != NULL && EVP_SIGNATURE_get0_provider(sig) == quill);
    EVP_SIGNATURE_free(sig);
    const char *kms[] = {"RSA", "RSA-PSS", "1.2.840.113549.1.1.10"};
    for (size_t i = 0; i < 3; i++) {
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(ctx, kms[i], QUILL);
        QT_CHECK(km != NULL && EVP_KEYMGMT_get0_provider(km) == quill);
        EVP_KEYMGMT_free(km);
    }
    /* Key managers do not carry quill.sig=yes (only signatures are
     * preferred by openssl.cnf.example). */
    EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(ctx, "RSA", "provider=quill,quill.sig=yes");
    QT_CHECK(km == NULL);
    EVP_KEYMGMT_free(km);
    ERR_clear_error();
}

/* ---- Keys ---- */

static EVP_PKEY *gen_key(OSSL_LIB_CTX *ctx, const char *propq, unsigned int bits) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA", propq);
    if (g != NULL && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(g, (int)bits) == 1)
        EVP_PKEY_generate(g, &key);
    EVP_PKEY_CTX_free(g);
    return key;
}

static void test_keygen_and_export(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, EVP_PKEY *qkey) {
    QT_CHECK(qkey != NULL);
    if (qkey == NULL)
        return;
    QT_CHECK(EVP_PKEY_get0_provider(qkey) == quill);
    QT_CHECK(EVP_PKEY_get_bits(qkey) == 2048);
    QT_CHECK(EVP_PKEY_get_security_bits(qkey) == 112);
    QT_CHECK(EVP_PKEY_get_size(qkey) == 256);
    char mdname[64] = "";
    QT_CHECK(EVP_PKEY_get_default_digest_name(qkey, mdname, sizeof(mdname)) > 0 &&
             strcmp(mdname, "SHA256") == 0);
    /* Every component is readable and consistent: n = p * q, e = 65537. */
    const char *names[] = {"n", "e", "d", "rsa-factor1", "rsa-factor2", "rsa-exponent1",
                           "rsa-exponent2", "rsa-coefficient1"};
    BIGNUM *bn[8] = {0};
    for (size_t i = 0; i < 8; i++)
        QT_CHECK(EVP_PKEY_get_bn_param(qkey, names[i], &bn[i]) == 1 && bn[i] != NULL);
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *t = BN_new();
    if (bn[0] && bn[1] && bn[3] && bn[4]) {
        QT_CHECK(BN_mul(t, bn[3], bn[4], bctx) && BN_cmp(t, bn[0]) == 0);
        QT_CHECK(BN_is_word(bn[1], 65537));
        QT_CHECK(BN_num_bits(bn[0]) == 2048);
    }
    for (size_t i = 0; i < 8; i++)
        BN_clear_free(bn[i]);
    BN_free(t);
    BN_CTX_free(bctx);

    /* The default provider decrypts with the quill-held key (export). */
    uint8_t msg[32], ct[256], pt[256];
    size_t ctlen = sizeof(ct), ptlen = sizeof(pt);
    qt_rng_bytes(msg, sizeof(msg));
    EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(ctx, qkey, DEFAULT);
    QT_CHECK(e != NULL && EVP_PKEY_encrypt_init(e) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(e, RSA_PKCS1_OAEP_PADDING) == 1 &&
             EVP_PKEY_encrypt(e, ct, &ctlen, msg, sizeof(msg)) == 1);
    EVP_PKEY_CTX_free(e);
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(ctx, qkey, DEFAULT);
    QT_CHECK(d != NULL && EVP_PKEY_decrypt_init(d) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(d, RSA_PKCS1_OAEP_PADDING) == 1 &&
             EVP_PKEY_decrypt(d, pt, &ptlen, ct, ctlen) == 1);
    QT_CHECK(ptlen == sizeof(msg) && memcmp(pt, msg, sizeof(msg)) == 0);
    EVP_PKEY_CTX_free(d);

    /* Validation (quill_rsa_key_check) accepts it; the default provider's
     * view of the exported copy matches. */
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, qkey, QUILL);
    QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1);
    QT_CHECK(c != NULL && EVP_PKEY_public_check(c) == 1);
    EVP_PKEY_CTX_free(c);
    EVP_PKEY *dup = EVP_PKEY_dup(qkey);
    QT_CHECK(dup != NULL && EVP_PKEY_eq(dup, qkey) == 1);
    EVP_PKEY_free(dup);
    ERR_clear_error();
}

/* Whether |err| was raised by quill: its library is the provider's name
 * (OpenSSL names a provider's error library after the provider), and it has
 * a reason string. */
static int raised_by_quill(unsigned long err) {
    const char *lib = err != 0 ? ERR_lib_error_string(err) : NULL;
    return lib != NULL && strcmp(lib, "quill") == 0 && ERR_reason_error_string(err) != NULL;
}

/* Key generation parameters: e is honoured; other prime counts, sizes
 * outside 512..16384 bits and even or unit exponents are refused with
 * quill's reason. */
static int refused_by_quill(void) {
    unsigned long err = ERR_peek_last_error();
    ERR_clear_error();
    return raised_by_quill(err);
}

static void test_keygen_params(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, unsigned long *n_keygen) {
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA", QUILL);
    QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) == 1);
    if (g == NULL)
        return;
    QT_CHECK(EVP_PKEY_CTX_get0_provider(g) == quill);
    QT_CHECK(EVP_PKEY_CTX_set_rsa_keygen_primes(g, 3) != 1 && refused_by_quill());
    QT_CHECK(EVP_PKEY_CTX_set_rsa_keygen_bits(g, 511) != 1 && refused_by_quill());
    QT_CHECK(EVP_PKEY_CTX_set_rsa_keygen_bits(g, 16385) != 1 && refused_by_quill());
    BIGNUM *e = BN_new();
    EVP_PKEY *key = NULL;
    /* Even and unit exponents: refused at generation. */
    const unsigned long bad_e[] = {1, 4, 65536};
    for (size_t i = 0; i < QT_ARRAY_LEN(bad_e); i++) {
        BN_set_word(e, bad_e[i]);
        QT_CHECK(EVP_PKEY_CTX_set_rsa_keygen_bits(g, 1024) == 1 &&
                 EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) == 1 &&
                 EVP_PKEY_generate(g, &key) != 1 && key == NULL && refused_by_quill());
    }
    BN_set_word(e, 65539);
    QT_CHECK(EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) == 1 &&
             EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) == 1 && EVP_PKEY_generate(g, &key) == 1);
    BIGNUM *got = NULL;
    QT_CHECK(key != NULL && EVP_PKEY_get_bn_param(key, "e", &got) == 1 && BN_cmp(got, e) == 0);
    if (key != NULL)
        (*n_keygen)++;
    EVP_PKEY_free(key);
    BN_free(got);
    BN_free(e);
    EVP_PKEY_CTX_free(g);
    ERR_clear_error();
}

/* ---- Signatures ---- */

typedef struct sigcase {
    int pad;
    const char *md;
    const char *saltlen; /* NULL: provider default */
} sigcase;

/* Signs |msg| with EVP_DigestSign* using |propq|; returns the signature
 * length or 0.  *served receives the provider that ran it. */
static size_t digest_sign(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const sigcase *sc,
                          const uint8_t *msg, size_t len, uint8_t *sig, size_t cap,
                          const OSSL_PROVIDER **served) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    size_t siglen = cap;
    int ok = m != NULL && EVP_DigestSignInit_ex(m, &pc, sc->md, ctx, propq, key, NULL) == 1;
    if (ok && served != NULL)
        *served = EVP_PKEY_CTX_get0_provider(pc);
    ok = ok && EVP_PKEY_CTX_set_rsa_padding(pc, sc->pad) == 1;
    if (ok && sc->saltlen != NULL)
        ok = EVP_PKEY_CTX_ctrl_str(pc, "rsa_pss_saltlen", sc->saltlen) == 1;
    ok = ok && EVP_DigestSignUpdate(m, msg, len / 2) == 1 &&
         EVP_DigestSignUpdate(m, msg + len / 2, len - len / 2) == 1 &&
         EVP_DigestSignFinal(m, sig, &siglen) == 1;
    EVP_MD_CTX_free(m);
    return ok ? siglen : 0;
}

static int digest_verify(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const sigcase *sc,
                         const uint8_t *msg, size_t len, const uint8_t *sig, size_t siglen,
                         const OSSL_PROVIDER **served) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    int ok = m != NULL && EVP_DigestVerifyInit_ex(m, &pc, sc->md, ctx, propq, key, NULL) == 1;
    if (ok && served != NULL)
        *served = EVP_PKEY_CTX_get0_provider(pc);
    ok = ok && EVP_PKEY_CTX_set_rsa_padding(pc, sc->pad) == 1;
    if (ok && sc->saltlen != NULL)
        ok = EVP_PKEY_CTX_ctrl_str(pc, "rsa_pss_saltlen", sc->saltlen) == 1;
    ok = ok && EVP_DigestVerify(m, sig, siglen, msg, len) == 1;
    EVP_MD_CTX_free(m);
    return ok;
}

static unsigned long n_sign, n_verify; /* operations quill performed */

/* The compatibility sizes and exponents (what OpenSSL's default provider
 * generates too): quill holds the key and it is fully usable. */
static void test_keygen_compat(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *def, OSSL_PROVIDER *quill,
                               unsigned long *n_keygen) {
    static const struct {
        unsigned bits;
        unsigned long e;
    } cases[] = {{512, 65537}, {512, 3}, {1024, 3}, {1031, 17}, {2047, 65537}};
    for (size_t i = 0; i < QT_ARRAY_LEN(cases); i++) {
        EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA", QUILL);
        BIGNUM *e = BN_new(), *got = NULL;
        EVP_PKEY *key = NULL;
        BN_set_word(e, cases[i].e);
        QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) == 1 &&
                 EVP_PKEY_CTX_set_rsa_keygen_bits(g, (int)cases[i].bits) == 1 &&
                 EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) == 1 &&
                 EVP_PKEY_generate(g, &key) == 1);
        EVP_PKEY_CTX_free(g);
        if (key == NULL) {
            ERR_print_errors_fp(stderr);
            BN_free(e);
            continue;
        }
        (*n_keygen)++;
        QT_CHECK(EVP_PKEY_get0_provider(key) == quill);
        QT_CHECK(EVP_PKEY_get_bits(key) == (int)cases[i].bits);
        QT_CHECK(EVP_PKEY_get_bn_param(key, "e", &got) == 1 && BN_cmp(got, e) == 0);
        /* Checked by quill and by the default provider (on the export). */
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
        QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1 && EVP_PKEY_public_check(c) == 1);
        EVP_PKEY_CTX_free(c);
        c = EVP_PKEY_CTX_new_from_pkey(ctx, key, DEFAULT);
        QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1 && EVP_PKEY_pairwise_check(c) == 1);
        EVP_PKEY_CTX_free(c);
        /* Dup stays with quill and matches; so does a public-only copy. */
        EVP_PKEY *dup = EVP_PKEY_dup(key);
        QT_CHECK(dup != NULL && EVP_PKEY_get0_provider(dup) == quill && EVP_PKEY_eq(dup, key) == 1);
        /* Signed by quill, verified by the default provider, both ways
         * through the duplicate too. */
        sigcase sc = {RSA_PKCS1_PADDING, "SHA256", NULL};
        uint8_t sig[256];
        const OSSL_PROVIDER *by = NULL;
        size_t len = digest_sign(ctx, QUILL, key, &sc, (const uint8_t *)"small", 5, sig,
                                 sizeof(sig), &by);
        QT_CHECK(len == (cases[i].bits + 7) / 8 && by == quill);
        if (len != 0 && by == quill)
            n_sign++;
        QT_CHECK(len != 0 &&
                 digest_verify(ctx, DEFAULT, key, &sc, (const uint8_t *)"small", 5, sig, len, &by));
        QT_CHECK(by == def);
        if (dup != NULL) {
            QT_CHECK(len != 0 && digest_verify(ctx, DEFAULT, dup, &sc, (const uint8_t *)"small", 5,
                                               sig, len, &by));
            sigcase pss = {RSA_PKCS1_PSS_PADDING, "SHA256", "20"};
            len = digest_sign(ctx, QUILL, dup, &pss, (const uint8_t *)"pss", 3, sig, sizeof(sig),
                              &by);
            QT_CHECK(len != 0 && by == quill);
            if (len != 0 && by == quill)
                n_sign++;
            QT_CHECK(len != 0 && digest_verify(ctx, DEFAULT, key, &pss, (const uint8_t *)"pss", 3,
                                               sig, len, &by));
        }
        EVP_PKEY_free(dup);
        EVP_PKEY_free(key);
        BN_free(got);
        BN_free(e);
        ERR_clear_error();
    }
}

static void test_roundtrips(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, EVP_PKEY *key) {
    static const sigcase cases[] = {
        {RSA_PKCS1_PADDING, "SHA256", NULL},     {RSA_PKCS1_PADDING, "SHA1", NULL},
        {RSA_PKCS1_PADDING, "SHA512", NULL},     {RSA_PKCS1_PADDING, "SHA3-256", NULL},
        {RSA_PKCS1_PSS_PADDING, "SHA256", NULL}, {RSA_PKCS1_PSS_PADDING, "SHA256", "digest"},
        {RSA_PKCS1_PSS_PADDING, "SHA384", "max"}, {RSA_PKCS1_PSS_PADDING, "SHA512", "0"},
        {RSA_PKCS1_PSS_PADDING, "SHA1", "20"},
    };
    uint8_t msg[1000], sig[512];
    qt_rng_bytes(msg, sizeof(msg));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const sigcase *sc = &cases[i];
        const OSSL_PROVIDER *by = NULL;
        size_t siglen = digest_sign(ctx, QUILL, key, sc, msg, sizeof(msg), sig, sizeof(sig), &by);
        QT_CHECK(siglen == 256);
        QT_CHECK(by == quill);
        if (siglen == 0) {
            fprintf(stderr, "sign failed: pad %d md %s\n", sc->pad, sc->md);
            ERR_print_errors_fp(stderr);
            continue;
        }
        n_sign++;
        /* quill verifies its own signature; so does the default provider. */
        by = NULL;
        QT_CHECK(digest_verify(ctx, QUILL, key, sc, msg, sizeof(msg), sig, siglen, &by) == 1);
        QT_CHECK(by == quill);
        n_verify++;
        QT_CHECK(digest_verify(ctx, DEFAULT, key, sc, msg, sizeof(msg), sig, siglen, NULL) == 1);
        /* A flipped bit anywhere is rejected. */
        sig[i * 17 % siglen] ^= 0x10;
        QT_CHECK(digest_verify(ctx, QUILL, key, sc, msg, sizeof(msg), sig, siglen, NULL) == 0);
        ERR_clear_error();
        sig[i * 17 % siglen] ^= 0x10;
        msg[3] ^= 1;
        QT_CHECK(digest_verify(ctx, QUILL, key, sc, msg, sizeof(msg), sig, siglen, NULL) == 0);
        ERR_clear_error();
        msg[3] ^= 1;
        /* The default provider's signature verifies under quill. */
        siglen = digest_sign(ctx, DEFAULT, key, sc, msg, sizeof(msg), sig, sizeof(sig), NULL);
        QT_CHECK(siglen == 256);
        QT_CHECK(digest_verify(ctx, QUILL, key, sc, msg, sizeof(msg), sig, siglen, NULL) == 1);
        n_verify++;
    }
    ERR_clear_error();
}

/* Mid-stream EVP_MD_CTX_copy: both copies finish into valid signatures of
 * their own messages. */
static void test_dup_midstream(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, EVP_PKEY *key) {
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    uint8_t sa[256], sb[256];
    size_t la = sizeof(sa), lb = sizeof(sb);
    int ok = EVP_DigestSignInit_ex(a, &pc, "SHA384", ctx, QUILL, key, NULL) == 1 &&
             EVP_PKEY_CTX_get0_provider(pc) == quill &&
             EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
             EVP_DigestSignUpdate(a, "hello ", 6) == 1 && EVP_MD_CTX_copy_ex(b, a) == 1 &&
             EVP_DigestSignUpdate(a, "world", 5) == 1 && EVP_DigestSignUpdate(b, "there", 5) == 1 &&
             EVP_DigestSignFinal(a, sa, &la) == 1 && EVP_DigestSignFinal(b, sb, &lb) == 1;
    QT_CHECK(ok);
    if (ok)
        n_sign += 2;
    sigcase sc = {RSA_PKCS1_PSS_PADDING, "SHA384", NULL};
    QT_CHECK(digest_verify(ctx, DEFAULT, key, &sc, (const uint8_t *)"hello world", 11, sa, la, NULL));
    QT_CHECK(digest_verify(ctx, DEFAULT, key, &sc, (const uint8_t *)"hello there", 11, sb, lb, NULL));
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
    ERR_clear_error();

    /* A one-shot signature into a short buffer fails without consuming the
     * message; the retry signs exactly the message. */
    EVP_MD_CTX *o = EVP_MD_CTX_new();
    uint8_t so[256];
    size_t lo = 255;
    QT_CHECK(EVP_DigestSignInit_ex(o, &pc, "SHA256", ctx, QUILL, key, NULL) == 1);
    QT_CHECK(EVP_DigestSign(o, so, &lo, (const uint8_t *)"retry", 5) != 1);
    QT_CHECK(ERR_peek_last_error() != 0);
    ERR_clear_error();
    lo = sizeof(so);
    if (qt_core_at_least(3, 2)) {
        /* From OpenSSL 3.2 on, EVP marks a one-shot EVP_DigestSign
         * context finished even when the provider refused it: the retry
         * is EVP's error, and a fresh initialisation signs. */
        QT_CHECK(EVP_DigestSign(o, so, &lo, (const uint8_t *)"retry", 5) != 1);
        ERR_clear_error();
        lo = sizeof(so);
        QT_CHECK(EVP_DigestSignInit_ex(o, &pc, "SHA256", ctx, QUILL, key, NULL) == 1);
    }
    ok = EVP_DigestSign(o, so, &lo, (const uint8_t *)"retry", 5) == 1 && lo == 256;
    QT_CHECK(ok);
    if (ok)
        n_sign++;
    sigcase pk = {RSA_PKCS1_PADDING, "SHA256", NULL};
    QT_CHECK(digest_verify(ctx, DEFAULT, key, &pk, (const uint8_t *)"retry", 5, so, lo, NULL));
    EVP_MD_CTX_free(o);
    ERR_clear_error();
}

/* EVP_PKEY_sign on a digest and on raw bytes (as `openssl speed` does),
 * verify and verify_recover. */
static void test_pkey_sign(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, EVP_PKEY *key) {
    uint8_t dgst[32], sig[256], rec[256];
    size_t siglen = sizeof(sig), reclen = sizeof(rec);
    qt_rng_bytes(dgst, sizeof(dgst));
    for (int raw = 0; raw <= 1; raw++) {
        size_t tbslen = raw ? 36 : 32;
        uint8_t tbs[36];
        qt_rng_bytes(tbs, sizeof(tbs));
        EVP_PKEY_CTX *s = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
        siglen = sizeof(sig);
        int ok = s != NULL && EVP_PKEY_sign_init(s) == 1 &&
                 (raw || EVP_PKEY_CTX_set_signature_md(s, EVP_sha256()) == 1) &&
                 EVP_PKEY_sign(s, sig, &siglen, tbs, tbslen) == 1;
        QT_CHECK(ok && siglen == 256);
        QT_CHECK(s != NULL && EVP_PKEY_CTX_get0_provider(s) == quill);
        if (ok)
            n_sign++;
        EVP_PKEY_CTX_free(s);
        EVP_PKEY_CTX *v = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
        ok = v != NULL && EVP_PKEY_verify_init(v) == 1 &&
             (raw || EVP_PKEY_CTX_set_signature_md(v, EVP_sha256()) == 1) &&
             EVP_PKEY_verify(v, sig, siglen, tbs, tbslen) == 1;
        QT_CHECK(ok);
        if (ok)
            n_verify++;
        QT_CHECK(EVP_PKEY_verify(v, sig, siglen, tbs, tbslen - 1) != 1);
        ERR_clear_error();
        EVP_PKEY_CTX_free(v);
        EVP_PKEY_CTX *r = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
        reclen = sizeof(rec);
        ok = r != NULL && EVP_PKEY_verify_recover_init(r) == 1 &&
             (raw || EVP_PKEY_CTX_set_signature_md(r, EVP_sha256()) == 1) &&
             EVP_PKEY_verify_recover(r, rec, &reclen, sig, siglen) == 1;
        QT_CHECK(ok && reclen == tbslen && memcmp(rec, tbs, tbslen) == 0);
        QT_CHECK(r != NULL && EVP_PKEY_CTX_get0_provider(r) == quill);
        if (ok)
            n_verify++;
        EVP_PKEY_CTX_free(r);
    }
    ERR_clear_error();
}

/* ---- Context parameters and PSS salt lengths ---- */

static void test_ctx_params(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill, EVP_PKEY *key) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    QT_CHECK(EVP_DigestSignInit_ex(m, &pc, "SHA2-384", ctx, QUILL, key, NULL) == 1);
    QT_CHECK(pc != NULL && EVP_PKEY_CTX_get0_provider(pc) == quill);
    if (pc == NULL) {
        EVP_MD_CTX_free(m);
        return;
    }
    char pad[16] = "", md[32] = "", mgf[32] = "", salt[16] = "";
    int padn = 0, saltn = 0;
    OSSL_PARAM get[] = {
        OSSL_PARAM_construct_utf8_string("pad-mode", pad, sizeof(pad)),
        OSSL_PARAM_construct_utf8_string("digest", md, sizeof(md)),
        OSSL_PARAM_construct_end(),
    };
    QT_CHECK(EVP_PKEY_CTX_get_params(pc, get) == 1);
    QT_CHECK(strcmp(pad, "pkcs1") == 0 && strcmp(md, "SHA384") == 0);
    /* The digest is fixed once hashing has started. */
    OSSL_PARAM setmd[] = {OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0),
                          OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pc, setmd) != 1);
    ERR_clear_error();
    /* Padding as a string, salt length as a keyword string and an int.
     * "auto-digestmax" came with OpenSSL 3.1: on an older core quill
     * refuses it, as the default provider does there, and "digest" stands
     * in for it. */
    const int digestmax = qt_core_at_least(3, 1);
    if (!digestmax) {
        OSSL_PARAM dm[] = {OSSL_PARAM_construct_utf8_string("pad-mode", (char *)"pss", 0),
                           OSSL_PARAM_construct_utf8_string("saltlen", (char *)"auto-digestmax", 0),
                           OSSL_PARAM_construct_end()};
        QT_CHECK(EVP_PKEY_CTX_set_params(pc, dm) != 1);
        QT_CHECK(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    const char *salt_kw = digestmax ? "auto-digestmax" : "digest";
    OSSL_PARAM setp[] = {OSSL_PARAM_construct_utf8_string("pad-mode", (char *)"pss", 0),
                         OSSL_PARAM_construct_utf8_string("saltlen", (char *)salt_kw, 0),
                         OSSL_PARAM_construct_utf8_string("mgf1-digest", (char *)"SHA1", 0),
                         OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pc, setp) == 1);
    OSSL_PARAM get2[] = {
        OSSL_PARAM_construct_int("pad-mode", &padn),
        OSSL_PARAM_construct_utf8_string("saltlen", salt, sizeof(salt)),
        OSSL_PARAM_construct_utf8_string("mgf1-digest", mgf, sizeof(mgf)),
        OSSL_PARAM_construct_end(),
    };
    QT_CHECK(EVP_PKEY_CTX_get_params(pc, get2) == 1);
    QT_CHECK(padn == RSA_PKCS1_PSS_PADDING && strcmp(salt, salt_kw) == 0 &&
             strcmp(mgf, "SHA1") == 0);
    int seven = 7;
    OSSL_PARAM seti[] = {OSSL_PARAM_construct_int("saltlen", &seven), OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pc, seti) == 1);
    OSSL_PARAM get3[] = {OSSL_PARAM_construct_int("saltlen", &saltn), OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_get_params(pc, get3) == 1 && saltn == 7);
    /* Refused: padding modes that cannot sign with this digest (none takes
     * no digest), OAEP, salt lengths below -4, garbage. */
    const char *badpads[] = {"none", "oaep", "pkcs1x"};
    for (size_t i = 0; i < 3; i++) {
        OSSL_PARAM b[] = {OSSL_PARAM_construct_utf8_string("pad-mode", (char *)badpads[i], 0),
                          OSSL_PARAM_construct_end()};
        QT_CHECK(EVP_PKEY_CTX_set_params(pc, b) != 1);
        QT_CHECK(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    const char *badsalts[] = {"-5", "", "1e3", "maximum", "99999999999"};
    for (size_t i = 0; i < 5; i++) {
        OSSL_PARAM b[] = {OSSL_PARAM_construct_utf8_string("saltlen", (char *)badsalts[i], 0),
                          OSSL_PARAM_construct_end()};
        QT_CHECK(EVP_PKEY_CTX_set_params(pc, b) != 1);
        QT_CHECK(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    EVP_MD_CTX_free(m);
}

/* Salt length keywords: what a signature made with each keyword uses is
 * checked by verifying with the exact length expected. */
static void test_pss_saltlens(OSSL_LIB_CTX *ctx, EVP_PKEY *key) {
    static const struct {
        const char *md, *sign, *verify_exact;
    } cases[] = {
        {"SHA256", "digest", "32"},  {"SHA256", "max", "222"},
        {"SHA256", "auto", "222"},   {"SHA256", "auto-digestmax", "32"},
        {"SHA512", "auto-digestmax", "64"}, {"SHA256", "17", "17"},
        {"SHA1", NULL, "234"}, /* the default: "auto" (the maximum) on a 3.0 core */
    };
    uint8_t msg[64], sig[256];
    qt_rng_bytes(msg, sizeof(msg));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sigcase s = {RSA_PKCS1_PSS_PADDING, cases[i].md, cases[i].sign};
        if (cases[i].sign != NULL && strcmp(cases[i].sign, "auto-digestmax") == 0 &&
            !qt_core_at_least(3, 1)) {
            /* Before OpenSSL 3.1 quill refuses it with a clear error.  (3.0's
             * default provider refuses the integer -4, but reads the string
             * through atoi and signs with a salt of 0 bytes.) */
            QT_CHECK(digest_sign(ctx, QUILL, key, &s, msg, sizeof(msg), sig, sizeof(sig), NULL) == 0);
            QT_CHECK(ERR_peek_last_error() != 0);
            ERR_clear_error();
            continue;
        }
        size_t len = digest_sign(ctx, QUILL, key, &s, msg, sizeof(msg), sig, sizeof(sig), NULL);
        QT_CHECK(len == 256);
        if (len == 0)
            continue;
        n_sign++;
        sigcase v = {RSA_PKCS1_PSS_PADDING, cases[i].md, cases[i].verify_exact};
        /* From 3.1 on the default provider's default is "auto-digestmax"
         * (the digest's length), and quill's follows the core. */
        if (cases[i].sign == NULL && qt_core_at_least(3, 1))
            v.saltlen = "20";
        QT_CHECK(digest_verify(ctx, QUILL, key, &v, msg, sizeof(msg), sig, len, NULL) == 1);
        QT_CHECK(digest_verify(ctx, DEFAULT, key, &v, msg, sizeof(msg), sig, len, NULL) == 1);
        sigcase a = {RSA_PKCS1_PSS_PADDING, cases[i].md, "auto"};
        QT_CHECK(digest_verify(ctx, QUILL, key, &a, msg, sizeof(msg), sig, len, NULL) == 1);
        n_verify += 2;
        /* One byte more or less of salt is refused. */
        char other[16];
        snprintf(other, sizeof(other), "%d", atoi(cases[i].verify_exact) + 1);
        sigcase w = {RSA_PKCS1_PSS_PADDING, cases[i].md, other};
        QT_CHECK(digest_verify(ctx, QUILL, key, &w, msg, sizeof(msg), sig, len, NULL) == 0);
        ERR_clear_error();
    }
    /* Impossible salt: larger than the maximum. */
    sigcase big = {RSA_PKCS1_PSS_PADDING, "SHA256", "223"};
    QT_CHECK(digest_sign(ctx, QUILL, key, &big, msg, sizeof(msg), sig, sizeof(sig), NULL) == 0);
    QT_CHECK(ERR_peek_last_error() != 0);
    ERR_clear_error();
}

/* An RSA-PSS key restricted to SHA-256, MGF1-SHA-256, salt >= 32 (generated
 * by the default provider) is served by quill's RSA-PSS key manager, which
 * enforces the restrictions. */
static void test_rsapss_key(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *quill) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA-PSS", DEFAULT);
    QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) == 1 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_md_name(g, "SHA256", NULL) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_mgf1_md_name(g, "SHA256") == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_saltlen(g, 32) == 1 && EVP_PKEY_generate(g, &key) == 1);
    EVP_PKEY_CTX_free(g);
    if (key == NULL)
        return;
    uint8_t msg[100], sig[256];
    qt_rng_bytes(msg, sizeof(msg));
    const OSSL_PROVIDER *by = NULL;
    sigcase s = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL};
    size_t len = digest_sign(ctx, QUILL, key, &s, msg, sizeof(msg), sig, sizeof(sig), &by);
    QT_CHECK(len == 256 && by == quill);
    if (len != 0)
        n_sign++;
    sigcase v = {RSA_PKCS1_PSS_PADDING, "SHA256", "32"};
    QT_CHECK(len != 0 && digest_verify(ctx, DEFAULT, key, &v, msg, sizeof(msg), sig, len, NULL));
    QT_CHECK(len != 0 && digest_verify(ctx, QUILL, key, &s, msg, sizeof(msg), sig, len, &by) == 1);
    QT_CHECK(by == quill);
    if (len != 0)
        n_verify++;
    /* The copy quill holds reports the restrictions. */
    OSSL_PARAM *data = NULL;
    EVP_PKEY *qk = NULL;
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(ctx, "RSA-PSS", QUILL);
    QT_CHECK(EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &data) == 1);
    QT_CHECK(f != NULL && EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &qk, EVP_PKEY_KEYPAIR, data) == 1);
    char qmd[32] = "", qmgf[32] = "", mand[32] = "";
    int qsalt = 0;
    QT_CHECK(qk != NULL && EVP_PKEY_get0_provider(qk) == quill &&
             EVP_PKEY_get_utf8_string_param(qk, "digest", qmd, sizeof(qmd), NULL) == 1 &&
             EVP_PKEY_get_utf8_string_param(qk, "mgf1-digest", qmgf, sizeof(qmgf), NULL) == 1 &&
             EVP_PKEY_get_utf8_string_param(qk, "mandatory-digest", mand, sizeof(mand), NULL) == 1 &&
             EVP_PKEY_get_int_param(qk, "saltlen", &qsalt) == 1);
    QT_CHECK(strcmp(qmd, "SHA256") == 0 && strcmp(qmgf, "SHA256") == 0 &&
             strcmp(mand, "SHA256") == 0 && qsalt == 32);
    EVP_PKEY_free(qk);
    EVP_PKEY_CTX_free(f);
    OSSL_PARAM_free(data);
    ERR_clear_error();

    /* Refused: another digest, a shorter salt, PKCS#1 v1.5 padding. */
    sigcase bad[] = {{RSA_PKCS1_PSS_PADDING, "SHA1", NULL},
                     {RSA_PKCS1_PSS_PADDING, "SHA256", "20"},
                     {RSA_PKCS1_PADDING, "SHA256", NULL}};
    for (size_t i = 0; i < 3; i++) {
        QT_CHECK(digest_sign(ctx, QUILL, key, &bad[i], msg, sizeof(msg), sig, sizeof(sig), NULL) == 0);
        QT_CHECK(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    EVP_PKEY_free(key);
}

/* ---- AlgorithmIdentifier DER, compared with the default provider ---- */

static size_t algid(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const sigcase *sc,
                    uint8_t *out, size_t cap) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, out, cap),
                       OSSL_PARAM_construct_end()};
    int ok = m != NULL && EVP_DigestSignInit_ex(m, &pc, sc->md, ctx, propq, key, NULL) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pc, sc->pad) == 1 &&
             (sc->saltlen == NULL || EVP_PKEY_CTX_ctrl_str(pc, "rsa_pss_saltlen", sc->saltlen) == 1) &&
             EVP_PKEY_CTX_get_params(pc, p) == 1;
    EVP_MD_CTX_free(m);
    return ok ? p[0].return_size : 0;
}

static void test_algids(OSSL_LIB_CTX *ctx, EVP_PKEY *key) {
    static const sigcase cases[] = {
        {RSA_PKCS1_PADDING, "SHA1", NULL},         {RSA_PKCS1_PADDING, "SHA224", NULL},
        {RSA_PKCS1_PADDING, "SHA256", NULL},       {RSA_PKCS1_PADDING, "SHA384", NULL},
        {RSA_PKCS1_PADDING, "SHA512", NULL},       {RSA_PKCS1_PADDING, "SHA512-224", NULL},
        {RSA_PKCS1_PADDING, "SHA512-256", NULL},   {RSA_PKCS1_PADDING, "SHA3-224", NULL},
        {RSA_PKCS1_PADDING, "SHA3-256", NULL},     {RSA_PKCS1_PADDING, "SHA3-384", NULL},
        {RSA_PKCS1_PADDING, "SHA3-512", NULL},     {RSA_PKCS1_PSS_PADDING, "SHA1", NULL},
        {RSA_PKCS1_PSS_PADDING, "SHA1", "20"},     {RSA_PKCS1_PSS_PADDING, "SHA256", NULL},
        {RSA_PKCS1_PSS_PADDING, "SHA256", "digest"}, {RSA_PKCS1_PSS_PADDING, "SHA384", "0"},
        {RSA_PKCS1_PSS_PADDING, "SHA512", "max"},  {RSA_PKCS1_PSS_PADDING, "SHA224", "300"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t a[128], b[128];
        size_t la = algid(ctx, QUILL, key, &cases[i], a, sizeof(a));
        size_t lb = algid(ctx, DEFAULT, key, &cases[i], b, sizeof(b));
        ERR_clear_error();
        QT_CHECK(la == lb && memcmp(a, b, la) == 0);
        if (la != lb || memcmp(a, b, la) != 0)
            fprintf(stderr, "algorithm-id differs: pad %d md %s salt %s (%zu vs %zu)\n",
                    cases[i].pad, cases[i].md, cases[i].saltlen ? cases[i].saltlen : "-", la, lb);
    }
    /* SHA-3 in PSS: OpenSSL 3.0's default provider has no identifier; quill
     * writes RSASSA-PSS with id-sha3-256 (2.16.840.1.101.3.4.2.8). */
    static const uint8_t want[] = {
        0x30, 0x41, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a, 0x30, 0x34,
        0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08,
        0x05, 0x00, 0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01,
        0x01, 0x08, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08,
        0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20};
    sigcase sc = {RSA_PKCS1_PSS_PADDING, "SHA3-256", "digest"};
    uint8_t a[128];
    size_t la = algid(ctx, QUILL, key, &sc, a, sizeof(a));
    QT_CHECK(la == sizeof(want) && memcmp(a, want, la) == 0);
    ERR_clear_error();
}

/* ---- Key import: security bits, refusal and fallback ---- */

/* A public key with modulus 2^(bits-1) + 2^(bits/2) + 1 (odd, exact size)
 * held by the provider |propq| names. */
static EVP_PKEY *public_key_of_size(OSSL_LIB_CTX *ctx, const char *propq, int bits) {
    BIGNUM *n = BN_new(), *e = BN_new();
    BN_set_bit(n, bits - 1);
    BN_set_bit(n, bits / 2);
    BN_set_bit(n, 0);
    BN_set_word(e, 65537);
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_BN(b, "n", n);
    OSSL_PARAM_BLD_push_BN(b, "e", e);
    OSSL_PARAM *p = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(ctx, "RSA", propq);
    if (c == NULL || EVP_PKEY_fromdata_init(c) != 1 ||
        EVP_PKEY_fromdata(c, &key, EVP_PKEY_PUBLIC_KEY, p) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(p);
    OSSL_PARAM_BLD_free(b);
    BN_free(n);
    BN_free(e);
    return key;
}

static void test_security_bits(OSSL_LIB_CTX *ctx) {
    int prev = 0, exact = 0, near = 0, mismatched = 0;
    for (int bits = 1024; bits <= 16384; bits += (bits < 4200 ? 1 : 13)) {
        EVP_PKEY *q = public_key_of_size(ctx, QUILL, bits);
        EVP_PKEY *d = public_key_of_size(ctx, DEFAULT, bits);
        QT_CHECK(q != NULL && d != NULL);
        if (q == NULL || d == NULL) {
            EVP_PKEY_free(q);
            EVP_PKEY_free(d);
            break;
        }
        int sq = EVP_PKEY_get_security_bits(q), sd = EVP_PKEY_get_security_bits(d);
        if (sq == sd)
            exact++;
        else
            mismatched++;
        /* Exact at the common sizes; elsewhere OpenSSL evaluates the same
         * formula in fixed point and may step up a few bits later. */
        if (bits % 256 == 0)
            QT_CHECK(sq == sd);
        else if (sq - sd > 8 || sd - sq > 8)
            QT_CHECK(!"security bits differ by more than one step");
        else
            near++;
        QT_CHECK(sq >= prev);
        prev = sq;
        EVP_PKEY_free(q);
        EVP_PKEY_free(d);
    }
    printf("security-bits: %d sizes equal to the default provider's, %d one step apart\n", exact,
           mismatched);
    (void)near;
    ERR_clear_error();
}

static void test_refusal_and_fallback(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *def,
                                      OSSL_PROVIDER *quill) {
    /* quill refuses a 512-bit key at import, with its own reason. */
    ERR_clear_error();
    EVP_PKEY *small = public_key_of_size(ctx, QUILL, 512);
    QT_CHECK(small == NULL);
    unsigned long err = ERR_peek_last_error();
    QT_CHECK(err != 0 && raised_by_quill(err));
    EVP_PKEY_free(small);
    ERR_clear_error();

    /* So are moduli above 16384 bits, and three-prime keys. */
    EVP_PKEY *huge = public_key_of_size(ctx, QUILL, 16392);
    QT_CHECK(huge == NULL && ERR_peek_last_error() != 0);
    EVP_PKEY_free(huge);
    ERR_clear_error();
    EVP_PKEY *k3 = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "RSA", DEFAULT);
    QT_CHECK(g != NULL && EVP_PKEY_keygen_init(g) == 1 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) == 1 &&
             EVP_PKEY_CTX_set_rsa_keygen_primes(g, 3) == 1 && EVP_PKEY_generate(g, &k3) == 1);
    EVP_PKEY_CTX_free(g);
    OSSL_PARAM *data = NULL;
    QT_CHECK(k3 != NULL && EVP_PKEY_todata(k3, EVP_PKEY_KEYPAIR, &data) == 1);
    EVP_PKEY *q3 = NULL;
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(ctx, "RSA", QUILL);
    QT_CHECK(f != NULL && EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &q3, EVP_PKEY_KEYPAIR, data) != 1 && q3 == NULL);
    err = ERR_peek_last_error();
    QT_CHECK(err != 0 && raised_by_quill(err));
    ERR_clear_error();
    /* The same calls import a two-prime key. */
    EVP_PKEY *k2 = gen_key(ctx, DEFAULT, 2048);
    OSSL_PARAM *data2 = NULL;
    EVP_PKEY *q2 = NULL;
    QT_CHECK(k2 != NULL && EVP_PKEY_todata(k2, EVP_PKEY_KEYPAIR, &data2) == 1);
    QT_CHECK(f != NULL && EVP_PKEY_fromdata(f, &q2, EVP_PKEY_KEYPAIR, data2) == 1 && q2 != NULL);
    QT_CHECK(q2 != NULL && EVP_PKEY_get0_provider(q2) == quill && EVP_PKEY_eq(q2, k2) == 1);
    EVP_PKEY_free(q2);
    EVP_PKEY_free(k2);
    OSSL_PARAM_free(data2);
    EVP_PKEY_CTX_free(f);
    OSSL_PARAM_free(data);
    EVP_PKEY_free(k3);
    ERR_clear_error();

    /* Under ?quill.sig=yes a 512-bit key generated by the default provider
     * is signed by the default provider; a 2048-bit one by quill. */
    QT_CHECK(EVP_set_default_properties(ctx, "?quill.sig=yes") == 1);
    EVP_PKEY *k512 = gen_key(ctx, DEFAULT, 512);
    QT_CHECK(k512 != NULL);
    sigcase sc = {RSA_PKCS1_PADDING, "SHA256", NULL};
    uint8_t sig[512];
    const OSSL_PROVIDER *by = NULL;
    size_t len = k512 != NULL ? digest_sign(ctx, NULL, k512, &sc, (const uint8_t *)"x", 1, sig,
                                            sizeof(sig), &by)
                              : 0;
    QT_CHECK(len == 64 && by == def);
    QT_CHECK(len != 0 && digest_verify(ctx, NULL, k512, &sc, (const uint8_t *)"x", 1, sig, len, &by));
    QT_CHECK(by == def);
    EVP_PKEY_free(k512);
    EVP_PKEY *k2048 = gen_key(ctx, DEFAULT, 2048);
    len = k2048 != NULL ? digest_sign(ctx, NULL, k2048, &sc, (const uint8_t *)"x", 1, sig,
                                      sizeof(sig), &by)
                        : 0;
    QT_CHECK(len == 256 && by == quill);
    if (len == 256)
        n_sign++;
    EVP_PKEY_free(k2048);
    QT_CHECK(EVP_set_default_properties(ctx, "") == 1);
    ERR_clear_error();
}

/* ---- Errors with quill's reason strings ---- */

/* Every reason quill serves (the reasons of the library of |quill_err|, an
 * error quill raised) reads well after OpenSSL's "error:CODE:quill:FUNC:":
 * not empty, no "quill" of its own (the library already says it) and no
 * ':' (the field separator of that line; Node.js also makes the reason a
 * code, ERR_OSSL_<REASON>, that must not hold one). */
static void test_reason_texts(unsigned long quill_err) {
    int lib = ERR_GET_LIB(quill_err), n = 0;
    for (int r = 1; r < 1024; r++) {
        const char *t = ERR_reason_error_string(ERR_PACK(lib, 0, r));
        /* ERR_reason_error_string falls back to OpenSSL's common reasons
         * (library 0) for a code the library lacks: not quill's */
        if (t == NULL || t == ERR_reason_error_string(ERR_PACK(0, 0, r)))
            continue;
        n++;
        size_t len = strlen(t);
        int ok = len > 0 && t[0] != ' ' && t[len - 1] != ' ' && strncmp(t, "quill", 5) != 0 &&
                 strchr(t, ':') == NULL;
        if (!ok)
            fprintf(stderr, "  quill's reason %d: '%s'\n", r, t);
        QT_CHECK(ok);
    }
    QT_CHECK(n > 0);
    if (getenv("QT_VERBOSE") != NULL)
        fprintf(stderr, "  %d reason strings checked\n", n);
}

static void test_reason_strings(OSSL_LIB_CTX *ctx, EVP_PKEY *key) {
    /* A 20-byte "digest" declared SHA-256. */
    uint8_t tbs[20] = {0}, sig[256];
    size_t siglen = sizeof(sig);
    ERR_clear_error();
    EVP_PKEY_CTX *s = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
    QT_CHECK(s != NULL && EVP_PKEY_sign_init(s) == 1 &&
             EVP_PKEY_CTX_set_signature_md(s, EVP_sha256()) == 1);
    QT_CHECK(EVP_PKEY_sign(s, sig, &siglen, tbs, sizeof(tbs)) != 1);
    /* quill's reason is in the queue (from OpenSSL 3.2 on, EVP adds its
     * own "provider signature failure" after it), under the library
     * "quill": OpenSSL prints "error:CODE:quill:FUNC:REASON", so the reason
     * has no "quill: " of its own. */
    unsigned long mine = 0, err;
    while ((err = ERR_get_error()) != 0) {
        const char *r = ERR_reason_error_string(err);
        if (raised_by_quill(err) && r != NULL && strcmp(r, "invalid digest length") == 0)
            mine = err;
    }
    QT_CHECK(mine != 0);
    if (mine != 0) {
        char line[256], want[256];
        ERR_error_string_n(mine, line, sizeof(line));
        snprintf(want, sizeof(want), "error:%08lX:quill::invalid digest length", mine);
        QT_CHECK(strcmp(line, want) == 0);
        if (strcmp(line, want) != 0)
            fprintf(stderr, "  ERR_error_string_n: '%s', expected '%s'\n", line, want);
        test_reason_texts(mine);
    }
    const char *reason;
    /* Padding modes that cannot sign are refused with a reason. */
    QT_CHECK(EVP_PKEY_CTX_set_rsa_padding(s, RSA_PKCS1_OAEP_PADDING) != 1);
    err = ERR_peek_last_error();
    reason = ERR_reason_error_string(err);
    QT_CHECK(err != 0 && reason != NULL && strstr(reason, "padding") != NULL);
    ERR_clear_error();
    /* A salt length string that is not one. */
    QT_CHECK(EVP_PKEY_CTX_set_rsa_padding(s, RSA_PKCS1_PSS_PADDING) == 1);
    QT_CHECK(EVP_PKEY_CTX_ctrl_str(s, "rsa_pss_saltlen", "12x") != 1);
    err = ERR_peek_last_error();
    reason = ERR_reason_error_string(err);
    QT_CHECK(err != 0 && reason != NULL && strstr(reason, "salt") != NULL);
    EVP_PKEY_CTX_free(s);
    ERR_clear_error();
}

/* Parameters of the wrong type and empty or oversized signatures give
 * errors, never crashes or acceptance. */
static void test_bad_types(OSSL_LIB_CTX *ctx, EVP_PKEY *key) {
    EVP_PKEY_CTX *v = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
    QT_CHECK(v != NULL && EVP_PKEY_verify_init(v) == 1);
    if (v == NULL)
        return;
    int one = 1;
    uint8_t oct[4] = {1, 2, 3, 4};
    OSSL_PARAM bad[][2] = {
        {OSSL_PARAM_construct_int("digest", &one), OSSL_PARAM_construct_end()},
        {OSSL_PARAM_construct_octet_string("pad-mode", oct, sizeof(oct)), OSSL_PARAM_construct_end()},
        {OSSL_PARAM_construct_utf8_string("digest", (char *)"NO-SUCH-MD", 0), OSSL_PARAM_construct_end()},
        {OSSL_PARAM_construct_utf8_string("digest", (char *)"SM3", 0), OSSL_PARAM_construct_end()},
        {OSSL_PARAM_construct_utf8_string("digest", (char *)"SHAKE256", 0), OSSL_PARAM_construct_end()},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        /* From 3.4 on the default provider signs RSA with SM3, and so
         * does quill on such a core. */
        if (i == 3 && qt_core_at_least(3, 4)) {
            QT_CHECK(EVP_PKEY_CTX_set_params(v, bad[i]) == 1);
            continue;
        }
        QT_CHECK(EVP_PKEY_CTX_set_params(v, bad[i]) != 1);
        QT_CHECK(ERR_peek_last_error() != 0);
        ERR_clear_error();
    }
    QT_CHECK(EVP_PKEY_CTX_set_rsa_padding(v, RSA_PKCS1_PSS_PADDING) == 1);
    OSSL_PARAM badsalt[] = {OSSL_PARAM_construct_octet_string("saltlen", oct, sizeof(oct)),
                            OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(v, badsalt) != 1 && ERR_peek_last_error() != 0);
    ERR_clear_error();
    OSSL_PARAM badmgf[] = {OSSL_PARAM_construct_int("mgf1-digest", &one), OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(v, badmgf) != 1 && ERR_peek_last_error() != 0);
    ERR_clear_error();
    /* PSS needs a digest; then empty and oversized signatures fail. */
    uint8_t dgst[32] = {0}, sig[600] = {0};
    QT_CHECK(EVP_PKEY_verify(v, sig, 256, dgst, sizeof(dgst)) != 1 && ERR_peek_last_error() != 0);
    ERR_clear_error();
    QT_CHECK(EVP_PKEY_CTX_set_signature_md(v, EVP_sha256()) == 1);
    QT_CHECK(EVP_PKEY_verify(v, sig, 0, dgst, sizeof(dgst)) != 1 && ERR_peek_last_error() != 0);
    ERR_clear_error();
    QT_CHECK(EVP_PKEY_verify(v, sig, sizeof(sig), dgst, sizeof(dgst)) != 1 &&
             ERR_peek_last_error() != 0);
    ERR_clear_error();
    memset(sig, 0xff, sizeof(sig));
    QT_CHECK(EVP_PKEY_verify(v, sig, 256, dgst, sizeof(dgst)) != 1 && ERR_peek_last_error() != 0);
    ERR_clear_error();
    EVP_PKEY_CTX_free(v);

    /* A digest name given as a UTF-8 pointer parameter is read as the
     * string it points to (provider/params.c reads both kinds itself); a
     * NULL pointer is refused. */
    const char *mdname = "SHA384", *noname = NULL;
    char got[32] = "";
    OSSL_PARAM ptr[] = {OSSL_PARAM_construct_utf8_ptr("digest", (char **)&mdname, 0),
                        OSSL_PARAM_construct_end()};
    OSSL_PARAM nullptr_[] = {OSSL_PARAM_construct_utf8_ptr("digest", (char **)&noname, 0),
                             OSSL_PARAM_construct_end()};
    OSSL_PARAM get[] = {OSSL_PARAM_construct_utf8_string("digest", got, sizeof(got)),
                        OSSL_PARAM_construct_end()};
    v = EVP_PKEY_CTX_new_from_pkey(ctx, key, QUILL);
    QT_CHECK(v != NULL && EVP_PKEY_verify_init(v) == 1);
    QT_CHECK(v != NULL && EVP_PKEY_CTX_set_params(v, ptr) == 1);
    QT_CHECK(v != NULL && EVP_PKEY_CTX_get_params(v, get) == 1 && strcmp(got, "SHA384") == 0);
    QT_CHECK(v != NULL && EVP_PKEY_CTX_set_params(v, nullptr_) != 1 &&
             ERR_peek_last_error() != 0);
    ERR_clear_error();
    EVP_PKEY_CTX_free(v);

    /* A key component of the wrong type is refused at import. */
    OSSL_PARAM kp[] = {OSSL_PARAM_construct_utf8_string("n", (char *)"12345", 0),
                       OSSL_PARAM_construct_int("e", &one), OSSL_PARAM_construct_end()};
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(ctx, "RSA", QUILL);
    QT_CHECK(f != NULL && EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &k, EVP_PKEY_PUBLIC_KEY, kp) != 1 && k == NULL);
    QT_CHECK(ERR_peek_last_error() != 0);
    ERR_clear_error();
    EVP_PKEY_CTX_free(f);
}

/* ---- QUILL_STATS ---- */

/* Parses the RSA fields that open a stats line (later algorithms' counters
 * follow them); returns 1 if they are well formed. */
static int parse_stats(const char *line, long *pid, unsigned long *s, unsigned long *v,
                       unsigned long *g) {
    char tail;
    int n = sscanf(line, "pid=%ld rsa-sign=%lu rsa-verify=%lu rsa-keygen=%lu%c", pid, s, v, g,
                   &tail);
    return n == 5 && (tail == '\n' || tail == ' ');
}

static void test_stats(const char *path, unsigned long want_sign, unsigned long want_verify,
                       unsigned long want_keygen) {
    /* Two more library contexts, one idle and one signing once, write two
     * more lines. */
    OSSL_PROVIDER *d1, *q1, *d2, *q2;
    OSSL_LIB_CTX *c1 = qt_libctx_new(&d1, &q1);
    OSSL_LIB_CTX *c2 = qt_libctx_new(&d2, &q2);
    QT_CHECK(c1 != NULL && c2 != NULL);
    if (c1 == NULL || c2 == NULL)
        return;
    EVP_PKEY *key = gen_key(c2, DEFAULT, 2048);
    sigcase sc = {RSA_PKCS1_PADDING, "SHA256", NULL};
    uint8_t sig[256];
    QT_CHECK(key != NULL &&
             digest_sign(c2, QUILL, key, &sc, (const uint8_t *)"y", 1, sig, sizeof(sig), NULL) == 256);
    EVP_PKEY_free(key);
    qt_libctx_free(c1, d1, q1);
    qt_libctx_free(c2, d2, q2);

    FILE *f = fopen(path, "r");
    QT_CHECK(f != NULL);
    if (f == NULL)
        return;
    char line[256];
    int lines = 0;
    unsigned long ss = 0, sv = 0, sg = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        long pid;
        unsigned long s, v, g;
        int ok = parse_stats(line, &pid, &s, &v, &g);
        QT_CHECK(ok);
        QT_CHECK(ok && pid == (long)getpid());
        if (!ok)
            fprintf(stderr, "bad stats line: %s", line);
        ss += s;
        sv += v;
        sg += g;
        lines++;
    }
    fclose(f);
    QT_CHECK(lines == 3);
    printf("stats: %d lines, rsa-sign=%lu (want %lu) rsa-verify=%lu (want %lu) rsa-keygen=%lu "
           "(want %lu)\n",
           lines, ss, want_sign + 1, sv, want_verify, sg, want_keygen);
    QT_CHECK(ss == want_sign + 1);
    QT_CHECK(sv == want_verify);
    QT_CHECK(sg == want_keygen);
}

int main(void) {
    qt_rng_seed(0x9b0a51c);
    char path[] = "/tmp/quill-stats-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    /* Set before any provider is loaded: every teardown appends a line. */
    setenv("QUILL_STATS", path, 1);

    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_libctx_new(&def, &quill);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL) {
        unlink(path);
        return qt_finish("provider_basic");
    }
    test_params(quill);
    test_fetch(ctx, quill);
    EVP_PKEY *qkey = gen_key(ctx, QUILL, 2048);
    unsigned long n_keygen = qkey != NULL;
    test_keygen_and_export(ctx, quill, qkey);
    test_keygen_params(ctx, quill, &n_keygen);
    test_keygen_compat(ctx, def, quill, &n_keygen);
    EVP_PKEY *key = gen_key(ctx, DEFAULT, 2048);
    QT_CHECK(key != NULL);
    if (key != NULL && qkey != NULL) {
        test_roundtrips(ctx, quill, key);
        test_roundtrips(ctx, quill, qkey);
        test_dup_midstream(ctx, quill, key);
        test_pkey_sign(ctx, quill, key);
        test_algids(ctx, key);
        test_ctx_params(ctx, quill, key);
        test_pss_saltlens(ctx, key);
        test_reason_strings(ctx, key);
        test_bad_types(ctx, key);
    }
    test_rsapss_key(ctx, quill);
    test_security_bits(ctx);
    test_refusal_and_fallback(ctx, def, quill);
    EVP_PKEY_free(key);
    EVP_PKEY_free(qkey);
    qt_libctx_free(ctx, def, quill);
    test_stats(path, n_sign, n_verify, n_keygen);
    unlink(path);
    return qt_finish("provider_basic");
}
