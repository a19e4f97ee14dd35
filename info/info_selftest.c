/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * One signature and its verification per algorithm, as an application
 * makes them (EVP_DigestSign/Verify through the default property query, on
 * keys generated the usual way), each checked three ways: the operation's
 * own provider (EVP_PKEY_CTX_get0_provider) is quill, quill's counters
 * (info_params.h) went up by one, and the signature verifies while the
 * same signature over another message does not. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "info.h"
#include "info_params.h"

enum { KEY_RSA, KEY_EC, KEY_MLDSA, KEY_COUNT };

typedef struct selftest_case {
    const char *key;   /* report key */
    const char *label; /* report label, also in messages */
    int keyidx;
    const char *md; /* digest, NULL for ML-DSA (it hashes itself) */
    int pss;
    const char *sign_counter;
    const char *verify_counter;
} selftest_case;

static const selftest_case cases[] = {
    {"test.rsa-2048-pkcs1", "RSA-2048 PKCS#1 v1.5", KEY_RSA, "SHA256", 0, "rsa-sign",
     "rsa-verify"},
    {"test.rsa-2048-pss", "RSA-2048 PSS", KEY_RSA, "SHA256", 1, "rsa-sign", "rsa-verify"},
    {"test.ecdsa-p256", "ECDSA P-256", KEY_EC, "SHA256", 0, "ecdsa-sign", "ecdsa-verify"},
    {"test.ml-dsa-65", "ML-DSA-65", KEY_MLDSA, NULL, 0, "mldsa-sign", "mldsa-verify"},
};

static const char *const keygen_counters[KEY_COUNT] = {"rsa-keygen", "ec-keygen",
                                                        "mldsa-keygen"};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A key as applications make one: by name, through the default query. */
static EVP_PKEY *make_key(int which) {
    static const char *const types[KEY_COUNT] = {"RSA", "EC", "ML-DSA-65"};
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, types[which], NULL);
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1)
        goto end;
    if (which == KEY_RSA && EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 2048) != 1)
        goto end;
    if (which == KEY_EC && EVP_PKEY_CTX_set_group_name(ctx, "P-256") != 1)
        goto end;
    if (EVP_PKEY_generate(ctx, &pkey) != 1)
        pkey = NULL;
end:
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* Counter |name| now, or -1 without counters. */
static long counter(const quill_info_quill *q, const char *name) {
    char line[QUILL_PARAM_COUNTERS_MAX];
    if (!quill_info_counters(q->prov, line, sizeof(line)))
        return -1;
    return quill_info_counter(line, name);
}

/* Signs (sign != 0) or verifies msg with |pkey| as case |t| says; *prov is
 * the operation's provider.  Returns 1 on success (a valid signature), 0 on
 * a verification that says no, -1 on an error. */
static int sign_or_verify(const selftest_case *t, EVP_PKEY *pkey, int sign, const unsigned char *msg,
                          size_t msglen, unsigned char *sig, size_t *siglen,
                          const OSSL_PROVIDER **prov) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int rc = -1;
    *prov = NULL;
    if (md == NULL)
        return -1;
    int init = sign ? EVP_DigestSignInit_ex(md, &pctx, t->md, NULL, NULL, pkey, NULL)
                    : EVP_DigestVerifyInit_ex(md, &pctx, t->md, NULL, NULL, pkey, NULL);
    if (init != 1)
        goto end;
    if (t->pss && EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1)
        goto end;
    *prov = EVP_PKEY_CTX_get0_provider(pctx);
    if (sign) {
        rc = EVP_DigestSign(md, sig, siglen, msg, msglen) == 1 ? 1 : -1;
    } else {
        int v = EVP_DigestVerify(md, sig, *siglen, msg, msglen);
        rc = v == 1 ? 1 : v == 0 ? 0 : -1;
    }
end:
    EVP_MD_CTX_free(md);
    return rc;
}

/* Runs case |t|; returns 1 if quill served and counted both operations. */
static int run_case(quill_info_report *r, const quill_info_quill *q, const selftest_case *t,
                    EVP_PKEY *pkey, int verbose) {
    unsigned char msg[64], sig[8192];
    size_t siglen = sizeof(sig);
    char errs[QUILL_INFO_VALUE_MAX];
    const OSSL_PROVIDER *signer, *verifier, *bad_verifier;
    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (unsigned char)(i * 7 + 1);

    double t0 = now_ms();
    long s0 = counter(q, t->sign_counter), v0 = counter(q, t->verify_counter);
    int rc = sign_or_verify(t, pkey, 1, msg, sizeof(msg), sig, &siglen, &signer);
    long s1 = counter(q, t->sign_counter);
    if (rc != 1) {
        quill_info_add(r, 0, t->key, t->label, "FAILED: signing (%s): %s",
                       quill_info_provider_name(signer), quill_info_errors(errs, sizeof(errs)));
        quill_info_fail(r, "%s signing failed on %s: %s", t->label,
                        quill_info_provider_name(signer), errs);
        return 0;
    }
    rc = sign_or_verify(t, pkey, 0, msg, sizeof(msg), sig, &siglen, &verifier);
    long v1 = counter(q, t->verify_counter);
    if (rc != 1) {
        quill_info_add(r, 0, t->key, t->label, "FAILED: the signature does not verify (%s): %s",
                       quill_info_provider_name(verifier), quill_info_errors(errs, sizeof(errs)));
        quill_info_fail(r, "%s: a fresh signature does not verify on %s", t->label,
                        quill_info_provider_name(verifier));
        return 0;
    }
    msg[0] ^= 1;
    rc = sign_or_verify(t, pkey, 0, msg, sizeof(msg), sig, &siglen, &bad_verifier);
    ERR_clear_error();
    double ms = now_ms() - t0;
    if (rc == 1) {
        quill_info_add(r, 0, t->key, t->label, "FAILED: the signature verifies another message");
        quill_info_fail(r, "%s: a signature verified over another message (%s)", t->label,
                        quill_info_provider_name(bad_verifier));
        return 0;
    }

    char counted[160];
    int have_counters = s0 >= 0 && s1 >= 0 && v0 >= 0 && v1 >= 0;
    if (have_counters)
        quill_info_format(counted, sizeof(counted), "%s +%ld, %s +%ld", t->sign_counter, s1 - s0,
                 t->verify_counter, v1 - v0);
    else
        quill_info_format(counted, sizeof(counted), "quill has no counters");
    char timing[48] = "";
    if (verbose)
        quill_info_format(timing, sizeof(timing), ", %zu-byte signature, %.1f ms", siglen, ms);

    static const char *const families[KEY_COUNT] = {"RSA", "EC", "ML-DSA-65"};
    if (signer != q->prov && verifier != q->prov && signer != NULL &&
        quill_info_declined(q, families[t->keyidx])) {
        quill_info_add(r, 0, t->key, t->label,
                       "ok: declined by quill on this CPU, signed and verified by %s%s",
                       quill_info_provider_name(signer), timing);
        return 1;
    }
    if (signer != q->prov || verifier != q->prov) {
        quill_info_add(r, 0, t->key, t->label, "NOT ON QUILL: signed by %s, verified by %s (%s)",
                       quill_info_provider_name(signer), quill_info_provider_name(verifier),
                       counted);
        quill_info_fail(r, "%s was %s by the %s provider, not quill", t->label,
                        signer != q->prov ? "signed" : "verified",
                        quill_info_provider_name(signer != q->prov ? signer : verifier));
        return 0;
    }
    if (have_counters && (s1 - s0 != 1 || v1 - v0 != 1)) {
        quill_info_add(r, 0, t->key, t->label, "NOT COUNTED: served by quill but %s", counted);
        quill_info_fail(r, "%s was served by quill but not counted (%s)", t->label, counted);
        return 0;
    }
    quill_info_add(r, 0, t->key, t->label, "ok: signed and verified by quill (%s)%s", counted,
                   timing);
    return 1;
}

void quill_info_selftest(quill_info_report *r, const quill_info_quill *q, int verbose) {
    EVP_PKEY *keys[KEY_COUNT] = {NULL, NULL, NULL};
    const char *key_names[KEY_COUNT] = {"RSA-2048", "EC P-256", "ML-DSA-65"};
    char keyinfo[256] = "";
    size_t used = 0;
    for (int k = 0; k < KEY_COUNT; k++) {
        long g0 = counter(q, keygen_counters[k]);
        double t0 = now_ms();
        keys[k] = make_key(k);
        double ms = now_ms() - t0;
        long g1 = counter(q, keygen_counters[k]);
        const char *by = keys[k] != NULL ? quill_info_provider_name(EVP_PKEY_get0_provider(keys[k]))
                                         : "failed";
        int n = snprintf(keyinfo + used, sizeof(keyinfo) - used, "%s%s %s", used ? ", " : "",
                         key_names[k], by);
        if (n > 0 && (size_t)n < sizeof(keyinfo) - used)
            used += (size_t)n;
        if (verbose && keys[k] != NULL && g0 >= 0 && g1 >= 0) {
            n = snprintf(keyinfo + used, sizeof(keyinfo) - used, " (%s +%ld, %.0f ms)",
                         keygen_counters[k], g1 - g0, ms);
            if (n > 0 && (size_t)n < sizeof(keyinfo) - used)
                used += (size_t)n;
        }
        if (keys[k] == NULL) {
            char errs[QUILL_INFO_VALUE_MAX];
            quill_info_fail(r, "%s key generation failed: %s", key_names[k],
                            quill_info_errors(errs, sizeof(errs)));
        }
    }
    quill_info_add(r, 1, "test.keys", "test keys made by", "%s", keyinfo);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const selftest_case *t = &cases[i];
        if (keys[t->keyidx] == NULL) {
            quill_info_add(r, 0, t->key, t->label, "FAILED: no %s key", key_names[t->keyidx]);
            continue;
        }
        run_case(r, q, t, keys[t->keyidx], verbose);
    }
    for (int k = 0; k < KEY_COUNT; k++)
        EVP_PKEY_free(keys[k]);
}
