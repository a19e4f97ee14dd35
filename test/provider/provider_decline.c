/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * provider_decline: the families quill declines at load on this CPU
 * (provider/decline.h) are served end to end by the default provider, even under the configuration that prefers quill most
 * (default_properties ?quill.sig=yes,?quill.keygen=yes): quill offers no
 * signature or key manager for them, key generation, signing and
 * verification land on the default provider and the signatures verify.
 * The families it keeps are still served by quill.  On x86-64 the list is
 * empty ("none") where the CPU has BMI2 and ADX and names RSA where it has
 * not; the _bmi2 and _x86_64 copies mask those features (QUILL_CPU_MASK),
 * and the _portable copy masks quill's assembly, which declines nothing.
 * The expectation is computed here from the same CPU probe quill.so runs at
 * load.  On aarch64 nothing is declined at present (quill's P-256 signing
 * is estimated faster than OpenSSL's armv8 code there).  With
 * QUILL_DECLINE=none in the environment at load,
 * quill registers every family again and says so in its parameter.
 * The suite clears QUILL_DECLINE itself (the aarch64 test environment sets
 * it for the other suites). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "common/cpu.h"
#include "info_params.h"
#include "test_util.h"

typedef struct family {
    const char *prefix;  /* as QUILL_PARAM_DECLINED names it */
    const char *sig;     /* signature algorithm */
    const char *keytype; /* key manager */
    const char *group;   /* EC group, or NULL */
    int bits;            /* RSA modulus size, or 0 */
} family;

static const family families[] = {
    {"RSA", "RSA", "RSA", NULL, 2048},
    {"EC", "ECDSA", "EC", "P-256", 0},
    {"ML-DSA-44", "ML-DSA-44", "ML-DSA-44", NULL, 0},
};

static const char *declined_param(OSSL_PROVIDER *quill) {
    const char *v = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_ptr(QUILL_PARAM_DECLINED, (char **)&v, 0), OSSL_PARAM_END};
    if (!OSSL_PROVIDER_get_params(quill, p) || !OSSL_PARAM_modified(p) || v == NULL)
        return NULL;
    return v;
}

/* Whether |text| ("EC (why); RSA (why)") names |prefix|. */
static int names(const char *text, const char *prefix) {
    size_t len = strlen(prefix);
    for (const char *s = text; s != NULL && *s != '\0';) {
        if (strncmp(s, prefix, len) == 0 && s[len] == ' ')
            return 1;
        s = strstr(s, "; ");
        if (s != NULL)
            s += 2;
    }
    return 0;
}

static const OSSL_PROVIDER *sig_provider(OSSL_LIB_CTX *ctx, const char *name, const char *propq) {
    ERR_set_mark();
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(ctx, name, propq);
    ERR_pop_to_mark();
    const OSSL_PROVIDER *p = s != NULL ? EVP_SIGNATURE_get0_provider(s) : NULL;
    EVP_SIGNATURE_free(s);
    return p;
}

static const OSSL_PROVIDER *keymgmt_provider(OSSL_LIB_CTX *ctx, const char *name, const char *propq) {
    ERR_set_mark();
    EVP_KEYMGMT *k = EVP_KEYMGMT_fetch(ctx, name, propq);
    ERR_pop_to_mark();
    const OSSL_PROVIDER *p = k != NULL ? EVP_KEYMGMT_get0_provider(k) : NULL;
    EVP_KEYMGMT_free(k);
    return p;
}

/* Key generation, a SHA-256 signature and its verification with the
 * default query of |ctx|; every step's provider must be |want|. */
static void end_to_end(OSSL_LIB_CTX *ctx, const family *f, const OSSL_PROVIDER *want) {
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, f->keytype, NULL);
    EVP_PKEY *k = NULL;
    int ok = g != NULL && EVP_PKEY_keygen_init(g) == 1 &&
             (f->group == NULL || EVP_PKEY_CTX_set_group_name(g, f->group) == 1) &&
             (f->bits == 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(g, f->bits) == 1) &&
             EVP_PKEY_generate(g, &k) == 1;
    QT_CHECK(ok);
    QT_CHECK(g != NULL && EVP_PKEY_CTX_get0_provider(g) == want);
    EVP_PKEY_CTX_free(g);
    if (!ok) {
        ERR_print_errors_fp(stderr);
        return;
    }
    const char *md = f->bits != 0 || f->group != NULL ? "SHA256" : NULL;
    static const unsigned char msg[] = "declined at load";
    unsigned char sig[8192];
    size_t sl = sizeof(sig);
    EVP_MD_CTX *s = EVP_MD_CTX_new(), *v = EVP_MD_CTX_new();
    EVP_PKEY_CTX *sp = NULL, *vp = NULL;
    ok = s != NULL && v != NULL && EVP_DigestSignInit_ex(s, &sp, md, ctx, NULL, k, NULL) == 1 &&
         EVP_DigestSign(s, sig, &sl, msg, sizeof(msg)) == 1 &&
         EVP_DigestVerifyInit_ex(v, &vp, md, ctx, NULL, k, NULL) == 1 &&
         EVP_DigestVerify(v, sig, sl, msg, sizeof(msg)) == 1;
    QT_CHECK(ok);
    QT_CHECK(sp != NULL && EVP_PKEY_CTX_get0_provider(sp) == want);
    QT_CHECK(vp != NULL && EVP_PKEY_CTX_get0_provider(vp) == want);
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_MD_CTX_free(s);
    EVP_MD_CTX_free(v);
    EVP_PKEY_free(k);
}

/* One fresh library context: declined families on the default provider,
 * the others on quill.  Returns how many families were declined. */
static int check_context(int overridden) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_libctx_new(&def, &quill);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL)
        return 0;
    QT_CHECK(EVP_set_default_properties(ctx, "?quill.sig=yes,?quill.keygen=yes") == 1);
    const char *text = declined_param(quill);
    QT_CHECK(text != NULL);
    if (text == NULL)
        text = "";
    printf("quill-declined: %s\n", text);
    if (overridden)
        QT_CHECK(strncmp(text, "none", 4) == 0);
#if defined(__x86_64__)
    /* RSA goes where quill's assembly runs without MULX and ADX
     * (decline.c); nothing else is declined on x86-64. */
    uint32_t cpu = quill_cpu_probe();
    int rsa_off = (cpu & QUILL_CPU_X86_64) && (~cpu & (QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX));
    if (!overridden && rsa_off)
        QT_CHECK(names(text, "RSA") && !names(text, "EC") && !names(text, "ML-DSA-44"));
    else if (!overridden)
        QT_CHECK(strcmp(text, "none") == 0);
#else
    QT_CHECK(strcmp(text, "none") == 0); /* nothing declined on aarch64 at present */
#endif
    int n = 0;
    for (size_t i = 0; i < QT_ARRAY_LEN(families); i++) {
        const family *f = &families[i];
        /* ML-DSA: the default provider has it from 3.5 on only. */
        if (f->bits == 0 && f->group == NULL && !qt_core_at_least(3, 5) && names(text, f->prefix)) {
            QT_CHECK(0); /* never declined where nobody else serves it */
            continue;
        }
        int off = !overridden && names(text, f->prefix);
        n += off;
        if (off) {
            QT_CHECK(sig_provider(ctx, f->sig, "provider=quill") == NULL);
            QT_CHECK(keymgmt_provider(ctx, f->keytype, "provider=quill") == NULL);
            QT_CHECK(sig_provider(ctx, f->sig, NULL) == def);
            end_to_end(ctx, f, def);
        } else {
            QT_CHECK(sig_provider(ctx, f->sig, NULL) == quill);
            QT_CHECK(keymgmt_provider(ctx, f->keytype, "provider=quill") == quill);
            end_to_end(ctx, f, quill);
        }
    }
    qt_libctx_free(ctx, def, quill);
    return n;
}

int main(void) {
    unsetenv("QUILL_DECLINE");
    int n = check_context(0);
    printf("provider_decline: %d famil%s declined on this CPU\n", n, n == 1 ? "y" : "ies");
    /* QUILL_DECLINE=none: everything on quill again. */
    setenv("QUILL_DECLINE", "none", 1);
    QT_CHECK(check_context(1) == 0);
    unsetenv("QUILL_DECLINE");
    return qt_finish("provider_decline");
}
