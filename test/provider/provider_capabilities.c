/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * provider_capabilities: quill's provider capabilities
 * (provider/tls_sigalg.h), on whatever core runs the test:
 *   - "TLS-SIGALG" (any case) succeeds; on a 3.5+ core it gives exactly
 *     ML-DSA-44/65/87 with the parameters written below, and each entry is
 *     equal, key by key, to the default provider's entry of the same name;
 *     before 3.5 it gives nothing;
 *   - a callback that returns 0 stops the enumeration, which then fails;
 *   - "TLS-GROUP" and an unknown name succeed and give nothing;
 *   - libssl: SSL_CTX_new succeeds with quill loaded, and the ML-DSA TLS
 *     signature schemes are known to it (SSL_CTX_set1_sigalgs_list) on a
 *     3.5+ core, under openssl.cnf.example's default_properties
 *     ?quill.sig=yes (quill's ML-DSA key manager fetched, so only quill's
 *     announcement counts: the case that failed without it) and without
 *     it; on an older core libssl knows none. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/ssl.h>

#include "test_util.h"

/* Every TLS-SIGALG parameter OpenSSL 3.5 defines (core_names.h; the 3.0
 * headers the test builds against have none). */
static const char *const sigalg_keys[] = {
    "tls-sigalg-iana-name", "tls-sigalg-name",     "tls-sigalg-oid",       "tls-sigalg-code-point",
    "tls-sigalg-sec-bits",  "tls-min-tls",         "tls-max-tls",          "tls-min-dtls",
    "tls-max-dtls",         "tls-sigalg-sig-name", "tls-sigalg-sig-oid",   "tls-sigalg-hash-name",
    "tls-sigalg-hash-oid",  "tls-sigalg-keytype",  "tls-sigalg-keytype-oid",
};

/* What quill announces on a 3.5+ core: the parameters present, in the
 * form render() writes. */
static const char *const expected[] = {
    "tls-sigalg-iana-name=mldsa44 tls-sigalg-name=ML-DSA-44 tls-sigalg-oid=2.16.840.1.101.3.4.3.17 "
    "tls-sigalg-code-point=2308 tls-sigalg-sec-bits=128 tls-min-tls=772 tls-max-tls=0 "
    "tls-min-dtls=-1 tls-max-dtls=-1 ",
    "tls-sigalg-iana-name=mldsa65 tls-sigalg-name=ML-DSA-65 tls-sigalg-oid=2.16.840.1.101.3.4.3.18 "
    "tls-sigalg-code-point=2309 tls-sigalg-sec-bits=192 tls-min-tls=772 tls-max-tls=0 "
    "tls-min-dtls=-1 tls-max-dtls=-1 ",
    "tls-sigalg-iana-name=mldsa87 tls-sigalg-name=ML-DSA-87 tls-sigalg-oid=2.16.840.1.101.3.4.3.19 "
    "tls-sigalg-code-point=2310 tls-sigalg-sec-bits=256 tls-min-tls=772 tls-max-tls=0 "
    "tls-min-dtls=-1 tls-max-dtls=-1 ",
};

#define MAX_ENTRIES 16

/* The entries one enumeration gave, each rendered as "key=value " for the
 * keys of sigalg_keys present (strings as text, integers in decimal);
 * stop_after > 0 makes the callback return 0 at that call. */
typedef struct {
    int calls, stop_after, bad;
    char entry[MAX_ENTRIES][512];
} collected;

static void render(const OSSL_PARAM params[], char *out, size_t cap) {
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < QT_ARRAY_LEN(sigalg_keys); i++) {
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, sigalg_keys[i]);
        const char *s = NULL;
        int64_t v = 0;
        int w;
        if (p == NULL)
            continue;
        if (p->data_type == OSSL_PARAM_UTF8_STRING && OSSL_PARAM_get_utf8_string_ptr(p, &s))
            w = snprintf(out + n, cap - n, "%s=%s ", sigalg_keys[i], s);
        else if (p->data_type != OSSL_PARAM_UTF8_STRING && OSSL_PARAM_get_int64(p, &v))
            w = snprintf(out + n, cap - n, "%s=%" PRId64 " ", sigalg_keys[i], v);
        else
            w = snprintf(out + n, cap - n, "%s=? ", sigalg_keys[i]);
        if (w < 0 || (size_t)w >= cap - n)
            return;
        n += (size_t)w;
    }
}

static int collect(const OSSL_PARAM params[], void *arg) {
    collected *c = arg;
    if (c->calls >= MAX_ENTRIES) {
        c->bad = 1;
        return 0;
    }
    render(params, c->entry[c->calls], sizeof(c->entry[0]));
    c->calls++;
    return c->stop_after == 0 || c->calls < c->stop_after;
}

/* The rendered entry of |c| whose tls-sigalg-name is |name|, or NULL. */
static const char *entry_named(const collected *c, const char *name) {
    char key[64];
    snprintf(key, sizeof(key), "tls-sigalg-name=%s ", name);
    for (int i = 0; i < c->calls; i++)
        if (strstr(c->entry[i], key) != NULL)
            return c->entry[i];
    return NULL;
}

static void check_capabilities(OSSL_PROVIDER *def, OSSL_PROVIDER *quill, int on_35) {
    static const char *const names[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
    static collected q, lower, d, stop, other;

    QT_CHECK(OSSL_PROVIDER_get_capabilities(quill, "TLS-SIGALG", collect, &q) == 1);
    QT_CHECK(!q.bad && q.calls == (on_35 ? 3 : 0));
    for (int i = 0; on_35 && i < q.calls && i < 3; i++) {
        printf("quill TLS-SIGALG: %s\n", q.entry[i]);
        QT_CHECK(strcmp(q.entry[i], expected[i]) == 0);
    }
    /* The name is case-insensitive, as libssl's own providers take it. */
    QT_CHECK(OSSL_PROVIDER_get_capabilities(quill, "tls-sigalg", collect, &lower) == 1);
    QT_CHECK(lower.calls == q.calls);

    /* The same parameters as the default provider's entries. */
    if (on_35 && OSSL_PROVIDER_get_capabilities(def, "TLS-SIGALG", collect, &d) == 1) {
        for (size_t i = 0; i < QT_ARRAY_LEN(names); i++) {
            const char *a = entry_named(&q, names[i]), *b = entry_named(&d, names[i]);
            if (b != NULL)
                printf("default TLS-SIGALG: %s\n", b);
            QT_CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
        }
    } else {
        QT_CHECK(!on_35);
    }

    /* A callback's 0 ends the enumeration with failure. */
    stop.stop_after = 1;
    QT_CHECK(OSSL_PROVIDER_get_capabilities(quill, "TLS-SIGALG", collect, &stop) ==
             (on_35 ? 0 : 1));
    QT_CHECK(stop.calls == (on_35 ? 1 : 0));

    /* No key exchange groups, and nothing for a name quill does not know:
     * success either way (libssl refuses the SSL_CTX on a 0 here). */
    QT_CHECK(OSSL_PROVIDER_get_capabilities(quill, "TLS-GROUP", collect, &other) == 1);
    QT_CHECK(OSSL_PROVIDER_get_capabilities(quill, "QUILL-NO-SUCH-CAPABILITY", collect, &other) ==
             1);
    QT_CHECK(other.calls == 0);
}

/* libssl in a context with the default provider and quill, under
 * default_properties |props| (NULL: none). */
static void check_libssl(const char *props, int on_35) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_libctx_new(&def, &quill);
    QT_CHECK(ctx != NULL);
    if (ctx == NULL)
        return;
    if (props != NULL)
        QT_CHECK(EVP_set_default_properties(ctx, props) == 1);
    SSL_CTX *s = SSL_CTX_new_ex(ctx, NULL, TLS_method());
    QT_CHECK(s != NULL);
    if (s != NULL) {
        static const char *const lists[] = {"mldsa44", "mldsa65", "mldsa87",
                                            "mldsa65:ecdsa_secp256r1_sha256:rsa_pss_rsae_sha256"};
        for (size_t i = 0; i < QT_ARRAY_LEN(lists); i++) {
            int ok = SSL_CTX_set1_sigalgs_list(s, lists[i]) == 1;
            printf("libssl, default_properties %s: sigalgs %s %s\n", props ? props : "(none)",
                   lists[i], ok ? "known" : "unknown");
            QT_CHECK(ok == on_35);
        }
        /* And what every core has. */
        QT_CHECK(SSL_CTX_set1_sigalgs_list(s, "ecdsa_secp256r1_sha256:rsa_pss_rsae_sha256") == 1);
    } else {
        ERR_print_errors_fp(stderr);
    }
    ERR_clear_error();
    SSL_CTX_free(s);
    qt_libctx_free(ctx, def, quill);
}

int main(void) {
    printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
    int on_35 = qt_core_at_least(3, 5);
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_libctx_new(&def, &quill);
    QT_CHECK(ctx != NULL);
    if (ctx != NULL)
        check_capabilities(def, quill, on_35);
    qt_libctx_free(ctx, def, quill);
    check_libssl("?quill.sig=yes", on_35);
    check_libssl(NULL, on_35);
    return qt_finish("provider_capabilities");
}
