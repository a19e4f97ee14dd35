/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_badinput: hostile or impossible inputs to quill through EVP.  Each
 * case must fail cleanly: the call reports failure, the error queue holds an
 * error with a reason string, nothing crashes and nothing is accepted.
 *
 *   signatures  truncated, overlong, all-zero, 1, n - 1, = n, > n, all-ones
 *               (PKCS#1 v1.5 and PSS verification by quill)
 *   key import  EVP_PKEY_fromdata into quill's key manager: even or tiny or
 *               huge modulus, e = 1, even e, e >= n, d out of range,
 *               inconsistent CRT values, partial CRT sets (a good key
 *               imported the same way is the control)
 *   parameters  refused or unknown digests, digest length mismatch, pad
 *               modes and inputs the default provider refuses too,
 *               impossible or malformed PSS salt lengths, PSS
 *               with a key too small for digest + salt, signing with a
 *               public key
 *   keygen      quill's key generation: 3 primes, under 512 or over 16384
 *               bits, even e, e = 1 refused; what OpenSSL's default
 *               provider also generates (512..2047 bits, e = 3) accepted,
 *               the keys checked by the default provider (EVP_PKEY_check)
 *               and signed by quill / verified by the default provider */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "qt_evp.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov_default, *prov_quill;
static unsigned long n_cases;

/* A failing case: |failed| says the call failed; the queue must explain. */
static void expect_failure(int failed, const char *what) {
    n_cases++;
    QT_CHECK(failed);
    int reason = qt_error_has_reason();
    if (failed)
        QT_CHECK(reason);
    if (!failed || !reason)
        fprintf(stderr, "case \"%s\": %s\n", what,
                !failed ? "was accepted" : "failed without an error reason");
}

/* ---- signatures ---- */

static void bad_signatures(EVP_PKEY *key) {
    size_t k = (size_t)EVP_PKEY_get_size(key);
    uint8_t msg[] = "bad signatures", good[1024], bad[1040];
    BIGNUM *n = NULL;
    QT_CHECK(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n));
    for (int pss = 0; pss < 2; pss++) {
        qt_sigparams sp = {pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING, "SHA256", NULL,
                           pss ? "digest" : NULL, 0};
        size_t good_len = sizeof(good);
        QT_CHECK(qt_digest_sign(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, good,
                                &good_len, NULL));
        QT_CHECK(good_len == k);
        struct {
            const char *name;
            size_t len;
        } cases[] = {{"truncated", k - 1}, {"overlong", k + 1},     {"empty", 0},
                     {"all-zero", k},      {"one", k},              {"n - 1", k},
                     {"n", k},             {"n + 1", k},            {"all-ones", k},
                     {"leading zero", k + 1}};
        for (size_t i = 0; i < QT_ARRAY_LEN(cases); i++) {
            BIGNUM *x = BN_dup(n);
            memset(bad, 0, sizeof(bad));
            switch (i) {
            case 0: memcpy(bad, good, k - 1); break;
            case 1: memcpy(bad, good, k); bad[k] = 0x5a; break;
            case 4: bad[k - 1] = 1; break;
            case 5: BN_sub_word(x, 1); BN_bn2binpad(x, bad, (int)k); break;
            case 6: BN_bn2binpad(n, bad, (int)k); break;
            case 7: BN_add_word(x, 1); BN_bn2binpad(x, bad, (int)k); break;
            case 8: memset(bad, 0xff, k); break;
            case 9: memcpy(bad + 1, good, k); break;
            default: break;
            }
            BN_free(x);
            char what[64];
            snprintf(what, sizeof(what), "%s signature, %s", cases[i].name, pss ? "PSS" : "PKCS#1");
            const OSSL_PROVIDER *served = NULL;
            ERR_clear_error();
            int r = qt_digest_verify(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, bad,
                                     cases[i].len, &served);
            QT_CHECK(served == prov_quill);
            QT_CHECK(r != -1);
            expect_failure(r != 1, what);
        }
        /* The control: the good signature verifies. */
        QT_CHECK(qt_digest_verify(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, good,
                                  good_len, NULL) == 1);
    }
    BN_free(n);
}

/* ---- key import ---- */

enum { C_N, C_E, C_D, C_P, C_Q, C_DP, C_DQ, C_QINV, C_COUNT };
static const char *const comp_names[C_COUNT] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};

/* Imports the components |c| (NULL entries left out) into quill's key
 * manager; returns the key or NULL. */
static EVP_PKEY *import_quill(BIGNUM *const c[C_COUNT]) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY *key = NULL;
    int ok = bld != NULL;
    for (int i = 0; ok && i < C_COUNT; i++)
        if (c[i] != NULL)
            ok = OSSL_PARAM_BLD_push_BN(bld, comp_names[i], c[i]);
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", qt_quill_propq());
    if (ok && pctx != NULL && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
        EVP_PKEY_fromdata_init(pctx) > 0) {
        int sel = c[C_D] != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
        if (EVP_PKEY_fromdata(pctx, &key, sel, params) <= 0)
            key = NULL;
    }
    if (key != NULL && EVP_PKEY_get0_provider(key) != prov_quill) {
        fprintf(stderr, "import did not land in quill\n");
        QT_CHECK(0);
    }
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return key;
}

static void get_components(EVP_PKEY *key, BIGNUM *c[C_COUNT]) {
    for (int i = 0; i < C_COUNT; i++) {
        c[i] = NULL;
        QT_CHECK(EVP_PKEY_get_bn_param(key, comp_names[i], &c[i]));
    }
}

static void free_components(BIGNUM *c[C_COUNT]) {
    for (int i = 0; i < C_COUNT; i++) {
        BN_clear_free(c[i]);
        c[i] = NULL;
    }
}

/* Copies the 2-prime key |src| with component |which| replaced by |val|
 * (ownership taken; NULL drops the component) and expects import to fail. */
static void import_must_fail(BIGNUM *const src[C_COUNT], int which, BIGNUM *val, int public_only,
                             const char *what) {
    BIGNUM *c[C_COUNT];
    for (int i = 0; i < C_COUNT; i++)
        c[i] = (public_only && i > C_E) ? NULL : BN_dup(src[i]);
    if (which >= 0) {
        BN_clear_free(c[which]);
        c[which] = val;
    }
    ERR_clear_error();
    EVP_PKEY *key = import_quill(c);
    expect_failure(key == NULL, what);
    EVP_PKEY_free(key);
    free_components(c);
}

static BIGNUM *bn_plus(const BIGNUM *a, long delta) {
    BIGNUM *r = BN_dup(a);
    if (delta >= 0)
        BN_add_word(r, (BN_ULONG)delta);
    else
        BN_sub_word(r, (BN_ULONG)-delta);
    return r;
}

static BIGNUM *bn_word(BN_ULONG w) {
    BIGNUM *r = BN_new();
    BN_set_word(r, w);
    return r;
}

/* A signature attempt with a key whose CRT value is wrong but in range:
 * quill may take the key (its cheap import checks cannot see it), but then
 * the fault check must stop the signature. */
static void wrong_dp_key(BIGNUM *const src[C_COUNT]) {
    BIGNUM *c[C_COUNT];
    for (int i = 0; i < C_COUNT; i++)
        c[i] = BN_dup(src[i]);
    BN_sub_word(c[C_DP], 2);
    ERR_clear_error();
    EVP_PKEY *key = import_quill(c);
    if (key == NULL) {
        expect_failure(1, "wrong dp (refused at import)");
    } else {
        uint8_t msg[] = "fault", sig[512];
        size_t sig_len = sizeof(sig);
        qt_sigparams sp = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
        const OSSL_PROVIDER *served = NULL;
        int ok = qt_digest_sign(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                &sig_len, &served);
        QT_CHECK(served == prov_quill);
        expect_failure(!ok, "wrong dp (must fail the fault check when signing)");
        /* EVP_PKEY_check (quill's validate) must also catch it. */
        EVP_PKEY_CTX *cctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        expect_failure(cctx != NULL && EVP_PKEY_check(cctx) != 1, "wrong dp (key check)");
        EVP_PKEY_CTX_free(cctx);
    }
    EVP_PKEY_free(key);
    free_components(c);
}

static void bad_imports(EVP_PKEY *good, EVP_PKEY *small) {
    BIGNUM *c[C_COUNT], *s[C_COUNT];
    get_components(good, c);
    get_components(small, s);

    /* Controls: the same path takes the good key, whole and public only. */
    EVP_PKEY *k = import_quill(c);
    QT_CHECK(k != NULL);
    QT_CHECK(k != NULL && EVP_PKEY_eq(k, good) == 1);
    EVP_PKEY_free(k);
    BIGNUM *pub[C_COUNT] = {c[C_N], c[C_E]};
    k = import_quill(pub);
    QT_CHECK(k != NULL);
    EVP_PKEY_free(k);
    ERR_print_errors_fp(stderr);

    /* Size boundaries on public keys (random odd moduli, e = 65537):
     * 1024..16384 bits are taken, 1023 and 16385 refused. */
    static const struct {
        int bits, ok;
    } bounds[] = {{1023, 0}, {1024, 1}, {16384, 1}, {16385, 0}};
    for (size_t i = 0; i < QT_ARRAY_LEN(bounds); i++) {
        BIGNUM *n = BN_new();
        QT_CHECK(n != NULL && BN_rand(n, bounds[i].bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD));
        char what[48];
        snprintf(what, sizeof(what), "%d-bit public modulus", bounds[i].bits);
        if (bounds[i].ok) {
            BIGNUM *b[C_COUNT] = {n, c[C_E]};
            EVP_PKEY *bk = import_quill(b);
            QT_CHECK(bk != NULL && EVP_PKEY_get_bits(bk) == bounds[i].bits);
            if (bk == NULL)
                fprintf(stderr, "%s refused\n", what);
            EVP_PKEY_free(bk);
            BN_free(n);
            ERR_clear_error();
        } else {
            import_must_fail(c, C_N, n, 1, what);
        }
    }
    import_must_fail(c, C_N, bn_plus(c[C_N], 1), 1, "even modulus (public)");
    import_must_fail(c, C_N, bn_plus(c[C_N], 1), 0, "even modulus (private)");
    import_must_fail(s, -1, NULL, 0, "512-bit modulus (private)");
    import_must_fail(s, -1, NULL, 1, "512-bit modulus (public)");
    BIGNUM *tiny = bn_word(3233); /* 61 * 53 */
    import_must_fail(c, C_N, tiny, 1, "12-bit modulus");
    BIGNUM *huge = BN_new();
    BN_rand(huge, 16384 + 64, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    import_must_fail(c, C_N, huge, 1, "16448-bit modulus");
    import_must_fail(c, C_E, bn_word(1), 1, "e = 1 (public)");
    import_must_fail(c, C_E, bn_word(1), 0, "e = 1 (private)");
    import_must_fail(c, C_E, bn_word(65536), 1, "even e (public)");
    import_must_fail(c, C_E, bn_word(2), 0, "e = 2 (private)");
    import_must_fail(c, C_E, BN_dup(c[C_N]), 1, "e = n");
    import_must_fail(c, C_E, bn_plus(c[C_N], 2), 1, "e > n");
    import_must_fail(c, C_E, bn_word(0), 1, "e = 0");
    import_must_fail(c, C_D, bn_word(0), 0, "d = 0");
    import_must_fail(c, C_D, bn_plus(c[C_N], 1), 0, "d > n");
    import_must_fail(c, C_P, bn_plus(c[C_P], 2), 0, "p * q != n");
    import_must_fail(c, C_Q, bn_plus(c[C_Q], -2), 0, "q changed");
    import_must_fail(c, C_DP, BN_dup(c[C_P]), 0, "dp = p");
    import_must_fail(c, C_DQ, bn_plus(c[C_Q], 1), 0, "dq > q");
    import_must_fail(c, C_QINV, bn_plus(c[C_QINV], 1), 0, "qinv * q != 1 mod p");
    import_must_fail(c, C_QINV, BN_dup(c[C_P]), 0, "qinv = p");
    import_must_fail(c, C_Q, NULL, 0, "p without q");
    import_must_fail(c, C_QINV, NULL, 0, "CRT set without qinv");
    wrong_dp_key(c);

    free_components(c);
    free_components(s);
}

/* ---- parameters ---- */

static void bad_params(EVP_PKEY *key, EVP_PKEY *key1024) {
    const char *qpq = qt_quill_propq();
    uint8_t msg[] = "parameters", sig[1024];
    char what[96];

    /* Digests RSA signatures refuse (the default provider too: SM3 is "not
     * allowed" before OpenSSL 3.4, SHAKE has no DigestInfo) or that do not
     * exist.  MD5, RIPEMD-160 and MD5-SHA1 are accepted now, and SM3 on a
     * 3.4+ core, as there by the default provider (rsa_gaps). */
    static const char *const digests[] = {"SM3", "SHAKE128", "SHAKE256", "NOPE-256"};
    for (size_t i = qt_core_at_least(3, 4) ? 1 : 0; i < QT_ARRAY_LEN(digests); i++) {
        for (int verify = 0; verify < 2; verify++) {
            EVP_MD_CTX *md = EVP_MD_CTX_new();
            ERR_clear_error();
            int r = verify ? EVP_DigestVerifyInit_ex(md, NULL, digests[i], libctx, qpq, key, NULL)
                           : EVP_DigestSignInit_ex(md, NULL, digests[i], libctx, qpq, key, NULL);
            snprintf(what, sizeof(what), "digest %s (%s init)", digests[i],
                     verify ? "verify" : "sign");
            expect_failure(r <= 0, what);
            EVP_MD_CTX_free(md);
        }
    }

    /* A digest of the wrong length for EVP_PKEY_sign. */
    EVP_MD *sha256 = EVP_MD_fetch(libctx, "SHA256", "provider=default");
    static const size_t lens[] = {0, 20, 31, 33, 64};
    for (size_t i = 0; i < QT_ARRAY_LEN(lens); i++) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        size_t sig_len = sizeof(sig);
        ERR_clear_error();
        int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
                 EVP_PKEY_CTX_set_signature_md(pctx, sha256) > 0;
        QT_CHECK(ok);
        QT_CHECK(qt_pctx_provider(pctx) == prov_quill);
        ok = ok && EVP_PKEY_sign(pctx, sig, &sig_len, msg, lens[i]) > 0;
        snprintf(what, sizeof(what), "SHA-256 sign of a %zu-byte digest", lens[i]);
        expect_failure(!ok, what);
        EVP_PKEY_CTX_free(pctx);
    }
    /* Raw PKCS#1 input longer than k - 11 bytes. */
    {
        uint8_t big[1024] = {1};
        size_t k = (size_t)EVP_PKEY_get_size(key), sig_len = sizeof(sig);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        ERR_clear_error();
        int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
                 EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
                 EVP_PKEY_sign(pctx, sig, &sig_len, big, k - 10) > 0;
        expect_failure(!ok, "raw PKCS#1 input of k - 10 bytes");
        EVP_PKEY_CTX_free(pctx);
    }

    /* verify_recover is defined for PKCS#1 v1.5 only; an output buffer too
     * small for the signature is refused. */
    {
        uint8_t dgst[32] = {7}, out[1024];
        size_t out_len = sizeof(out), sig_len = sizeof(sig);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        ERR_clear_error();
        int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
                 EVP_PKEY_CTX_set_signature_md(pctx, sha256) > 0 &&
                 EVP_PKEY_sign(pctx, sig, &sig_len, dgst, sizeof(dgst)) > 0;
        QT_CHECK(ok);
        EVP_PKEY_CTX_free(pctx);
        pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        ok = pctx != NULL && EVP_PKEY_verify_recover_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(pctx, sha256) > 0 &&
             EVP_PKEY_verify_recover(pctx, out, &out_len, sig, sig_len) > 0;
        expect_failure(!ok, "verify_recover with PSS padding");
        EVP_PKEY_CTX_free(pctx);
        pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        size_t small = (size_t)EVP_PKEY_get_size(key) - 1;
        ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_signature_md(pctx, sha256) > 0 &&
             EVP_PKEY_sign(pctx, sig, &small, dgst, sizeof(dgst)) > 0;
        expect_failure(!ok, "sign into a buffer one byte too small");
        EVP_PKEY_CTX_free(pctx);
    }

    /* Padding requests that fail in the default provider as well: no
     * padding on a 32-byte input (it must be k bytes), X9.31 with no digest
     * (it needs one with an X9.31 hash id), OAEP and an unknown mode. */
    static const int pads[] = {RSA_NO_PADDING, RSA_X931_PADDING, RSA_PKCS1_OAEP_PADDING, 99};
    for (size_t i = 0; i < QT_ARRAY_LEN(pads); i++) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        size_t sig_len = sizeof(sig);
        uint8_t dgst[32] = {0};
        ERR_clear_error();
        int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0;
        QT_CHECK(ok && qt_pctx_provider(pctx) == prov_quill);
        ok = ok && EVP_PKEY_CTX_set_rsa_padding(pctx, pads[i]) > 0 &&
             EVP_PKEY_sign(pctx, sig, &sig_len, dgst, sizeof(dgst)) > 0;
        snprintf(what, sizeof(what), "padding mode %d", pads[i]);
        expect_failure(!ok, what);
        EVP_PKEY_CTX_free(pctx);
    }

    /* PSS salt lengths: impossible for the key, negative, malformed. */
    long max2048 = EVP_PKEY_get_size(key) - 32 - 2;
    char too_big[24];
    snprintf(too_big, sizeof(too_big), "%ld", max2048 + 1);
    static const char *fixed_salts[] = {"-5", "abc", "12x", ""};
    const char *salts[QT_ARRAY_LEN(fixed_salts) + 1];
    salts[0] = too_big;
    for (size_t i = 0; i < QT_ARRAY_LEN(fixed_salts); i++)
        salts[i + 1] = fixed_salts[i];
    for (size_t i = 0; i < QT_ARRAY_LEN(salts) + 2; i++) {
        for (int verify = 0; verify < 2; verify++) {
            /* The last two rounds pass the first two values as integers. */
            int as_int = i >= QT_ARRAY_LEN(salts);
            const char *salt = salts[as_int ? i - QT_ARRAY_LEN(salts) : i];
            qt_sigparams sp = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, salt, as_int};
            size_t sig_len = sizeof(sig);
            ERR_clear_error();
            int r;
            if (verify) {
                /* a genuine max-salt signature must not verify as salt "too big" */
                qt_sigparams good = {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "max", 0};
                QT_CHECK(qt_digest_sign(libctx, NULL, key, &good, msg, sizeof(msg), QT_ONESHOT,
                                        sig, &sig_len, NULL));
                r = qt_digest_verify(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                     sig_len, NULL) == 1;
            } else {
                r = qt_digest_sign(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                   &sig_len, NULL);
            }
            snprintf(what, sizeof(what), "PSS salt length %s%s (%s)", salt,
                     as_int ? " as integer" : " as string", verify ? "verify" : "sign");
            expect_failure(!r, what);
        }
    }

    /* PSS with SHA-512 and a 64-byte salt needs 64 + 64 + 2 > 128 - 1 bytes:
     * impossible with a 1024-bit key. */
    if (key1024 != NULL) {
        qt_sigparams sp = {RSA_PKCS1_PSS_PADDING, "SHA512", NULL, "digest", 0};
        size_t sig_len = sizeof(sig);
        ERR_clear_error();
        const OSSL_PROVIDER *served = NULL;
        int ok = qt_digest_sign(libctx, NULL, key1024, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                &sig_len, &served);
        QT_CHECK(served == prov_quill);
        expect_failure(!ok, "PSS SHA-512, salt 64, 1024-bit key");
        sp.saltlen = "63";
        sig_len = sizeof(sig);
        ok = qt_digest_sign(libctx, NULL, key1024, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                            &sig_len, NULL);
        expect_failure(!ok, "PSS SHA-512, salt 63, 1024-bit key");
        /* the largest salt that fits does work (control) */
        sp.saltlen = "62";
        sig_len = sizeof(sig);
        QT_CHECK(qt_digest_sign(libctx, NULL, key1024, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                &sig_len, NULL));
        ERR_clear_error();
    }

    /* Signing with a public key. */
    {
        BIGNUM *n = NULL, *e = NULL;
        QT_CHECK(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n));
        QT_CHECK(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e));
        BIGNUM *c[C_COUNT] = {n, e};
        EVP_PKEY *pub = import_quill(c);
        QT_CHECK(pub != NULL);
        if (pub != NULL) {
            qt_sigparams sp = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
            size_t sig_len = sizeof(sig);
            ERR_clear_error();
            int ok = qt_digest_sign(libctx, NULL, pub, &sp, msg, sizeof(msg), QT_ONESHOT, sig,
                                    &sig_len, NULL);
            expect_failure(!ok, "signing with a public key");
        }
        EVP_PKEY_free(pub);
        BN_free(n);
        BN_free(e);
    }
    EVP_MD_free(sha256);
}

/* A key quill refuses, with quill demanded explicitly ("provider=quill"):
 * no fallback is possible, so the operation must fail with a reason.  Among
 * them PSS with SHA-512 on a 512-bit key, too small for the digest. */
static void forced_quill_small_key(EVP_PKEY *small) {
    static const qt_sigparams params[] = {
        {RSA_PKCS1_PSS_PADDING, "SHA512", NULL, "0", 0},
        {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0},
    };
    uint8_t msg[] = "small", sig[128];
    for (size_t i = 0; i < QT_ARRAY_LEN(params); i++) {
        size_t sig_len = sizeof(sig);
        ERR_clear_error();
        int ok = qt_digest_sign(libctx, qt_quill_propq(), small, &params[i], msg, sizeof(msg),
                                QT_ONESHOT, sig, &sig_len, NULL);
        expect_failure(!ok, i == 0 ? "512-bit key, PSS SHA-512, provider=quill"
                                   : "512-bit key, PKCS#1 SHA-256, provider=quill");
    }
}

/* ---- key generation ---- */

/* One generation with quill's key manager: bits, primes (0: default), e
 * (0: default).  Returns the key or NULL (error queue left for the caller). */
static EVP_PKEY *quill_keygen(unsigned bits, unsigned primes, unsigned long e_word) {
    EVP_PKEY *key = NULL;
    BIGNUM *e = NULL;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(libctx, "RSA", qt_quill_propq());
    int ok = g != NULL && EVP_PKEY_keygen_init(g) > 0 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, (int)bits) > 0;
    if (ok && primes != 0)
        ok = EVP_PKEY_CTX_set_rsa_keygen_primes(g, (int)primes) > 0;
    if (ok && e_word != 0)
        ok = (e = bn_word(e_word)) != NULL && EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, e) > 0;
    ok = ok && EVP_PKEY_generate(g, &key) > 0;
    BN_free(e);
    EVP_PKEY_CTX_free(g);
    if (!ok) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    return key;
}

/* quill's keygen refuses what it cannot generate (multi-prime, sizes and
 * exponents OpenSSL's default provider refuses as well). */
static void bad_keygen(void) {
    static const struct {
        unsigned bits, primes;
        unsigned long e;
        const char *what;
    } cases[] = {
        {511, 0, 0, "keygen 511 bits"},
        {16385, 0, 0, "keygen 16385 bits"},
        {2048, 3, 0, "keygen 3 primes"},
        {1024, 3, 3, "keygen 3 primes, 1024 bits, e = 3"},
        {2048, 0, 65536, "keygen even e"},
        {1024, 0, 2, "keygen e = 2"},
        {2048, 0, 1, "keygen e = 1"},
        {512, 0, 1, "keygen e = 1, 512 bits"},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(cases); i++) {
        ERR_clear_error();
        EVP_PKEY *key = quill_keygen(cases[i].bits, cases[i].primes, cases[i].e);
        expect_failure(key == NULL, cases[i].what);
        EVP_PKEY_free(key);
    }
}

/* What OpenSSL's default provider generates, quill generates too: the keys
 * pass the default provider's checks and quill's signatures verify there. */
static void good_keygen(void) {
    static const struct {
        unsigned bits;
        unsigned long e;
    } cases[] = {{512, 0}, {512, 3}, {1024, 3}, {1024, 0}, {2047, 0}, {2048, 3}};
    /* PSS salt 20: a 512-bit key has no room for SHA-256 with a 32-byte
     * salt (emLen 64 < 32 + 32 + 2). */
    static const qt_sigparams sp[] = {{RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0},
                                      {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "20", 0}};
    for (size_t i = 0; i < QT_ARRAY_LEN(cases); i++) {
        ERR_clear_error();
        EVP_PKEY *key = quill_keygen(cases[i].bits, 0, cases[i].e);
        QT_CHECK(key != NULL);
        if (key == NULL) {
            fprintf(stderr, "keygen %u bits, e = %lu refused\n", cases[i].bits, cases[i].e);
            ERR_print_errors_fp(stderr);
            continue;
        }
        QT_CHECK(qt_pkey_provider(key) == prov_quill);
        QT_CHECK(EVP_PKEY_get_bits(key) == (int)cases[i].bits);
        BIGNUM *e = NULL;
        QT_CHECK(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) == 1 &&
                 BN_is_word(e, cases[i].e != 0 ? cases[i].e : 65537));
        BN_free(e);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, "provider=default");
        QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1);
        EVP_PKEY_CTX_free(c);
        for (size_t j = 0; j < QT_ARRAY_LEN(sp); j++) {
            uint8_t msg[] = "generated", sig[256];
            size_t len = sizeof(sig);
            const OSSL_PROVIDER *by = NULL;
            QT_CHECK(qt_digest_sign(libctx, qt_quill_propq(), key, &sp[j], msg, sizeof(msg),
                                    QT_ONESHOT, sig, &len, &by) == 1 &&
                     by == prov_quill && len == (cases[i].bits + 7) / 8);
            QT_CHECK(qt_digest_verify(libctx, "provider=default", key, &sp[j], msg, sizeof(msg),
                                      QT_ONESHOT, sig, len, &by) == 1 &&
                     by == prov_default);
            sig[len / 2] ^= 1;
            QT_CHECK(qt_digest_verify(libctx, "provider=default", key, &sp[j], msg, sizeof(msg),
                                      QT_ONESHOT, sig, len, &by) == 0);
        }
        EVP_PKEY_free(key);
        ERR_clear_error();
    }
}

int main(void) {
    qt_rng_seed(0x626164696e707574ull);
    libctx = qt_evp_libctx_new(&prov_default, &prov_quill);
    if (libctx == NULL)
        return 1;
    EVP_PKEY *key = qt_rsa_keygen(libctx, "provider=default", 2048);
    EVP_PKEY *key1024 = qt_rsa_keygen(libctx, "provider=default", 1024);
    EVP_PKEY *small = qt_rsa_keygen(libctx, "provider=default", 512);
    QT_CHECK(key != NULL && key1024 != NULL && small != NULL);
    if (key != NULL && key1024 != NULL && small != NULL) {
        bad_signatures(key);
        bad_imports(key, small);
        bad_params(key, key1024);
        forced_quill_small_key(small);
        bad_keygen();
        good_keygen();
    }
    printf("%lu failure cases\n", n_cases);
    EVP_PKEY_free(key);
    EVP_PKEY_free(key1024);
    EVP_PKEY_free(small);
    qt_libctx_free(libctx, prov_default, prov_quill);
    return qt_finish("rsa_badinput");
}
