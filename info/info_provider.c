/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The providers of the default library context: which one is quill (by the
 * name it reports, so a configuration may call it anything), what it says
 * about itself (info_params.h), and which provider the default property
 * query picks for each algorithm quill implements. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "info.h"
#include "info_params.h"

#define COPY(dst, src) quill_info_format((dst), sizeof(dst), "%s", (src))

/* A UTF8 pointer parameter of |prov|, or "" if it has none. */
static const char *prov_string(OSSL_PROVIDER *prov, const char *key) {
    const char *v = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_ptr(key, (char **)&v, 0), OSSL_PARAM_END};
    if (!OSSL_PROVIDER_get_params(prov, p) || !OSSL_PARAM_modified(p) || v == NULL)
        return "";
    return v;
}

static int each_provider(OSSL_PROVIDER *prov, void *arg) {
    quill_info_quill *q = arg;
    const char *name = OSSL_PROVIDER_get0_name(prov);
    size_t used = strlen(q->active);
    quill_info_format(q->active + used, sizeof(q->active) - used, "%s%s", used > 0 ? " " : "",
             name != NULL ? name : "?");
    if (q->prov == NULL && strcmp(prov_string(prov, OSSL_PROV_PARAM_NAME), "quill") == 0) {
        q->prov = prov;
        COPY(q->config_name, name != NULL ? name : "?");
        COPY(q->version, prov_string(prov, OSSL_PROV_PARAM_VERSION));
        COPY(q->buildinfo, prov_string(prov, OSSL_PROV_PARAM_BUILDINFO));
        COPY(q->module_path, prov_string(prov, QUILL_PARAM_MODULE_PATH));
        COPY(q->backends, prov_string(prov, QUILL_PARAM_BACKENDS));
        COPY(q->stats, prov_string(prov, QUILL_PARAM_STATS));
        COPY(q->declined, prov_string(prov, QUILL_PARAM_DECLINED));
    }
    return 1;
}

void quill_info_find_quill(quill_info_quill *q) {
    memset(q, 0, sizeof(*q));
    OSSL_PROVIDER_do_all(NULL, each_provider, q);
}

const char *quill_info_provider_name(const OSSL_PROVIDER *prov) {
    const char *name = prov != NULL ? OSSL_PROVIDER_get0_name(prov) : NULL;
    return name != NULL ? name : "none";
}

int quill_info_counters(OSSL_PROVIDER *quill, char *buf, size_t cap) {
    buf[0] = '\0';
    if (quill == NULL)
        return 0;
    OSSL_PARAM p[] = {OSSL_PARAM_utf8_string(QUILL_PARAM_COUNTERS, buf, cap), OSSL_PARAM_END};
    if (!OSSL_PROVIDER_get_params(quill, p) || !OSSL_PARAM_modified(p)) {
        buf[0] = '\0';
        return 0;
    }
    return buf[0] != '\0';
}

long quill_info_counter(const char *line, const char *name) {
    size_t len = strlen(name);
    for (const char *s = line; s != NULL && *s != '\0';) {
        while (*s == ' ')
            s++;
        if (strncmp(s, name, len) == 0 && s[len] == '=')
            return strtol(s + len + 1, NULL, 10);
        s = strchr(s, ' ');
    }
    return -1;
}

/* The algorithms of the serving table: a signature and the key types whose
 * generation is shown beside it. */
typedef struct serving_alg {
    const char *key;     /* report key */
    const char *label;   /* report label */
    const char *sig;     /* signature algorithm */
    const char *keytype; /* key manager for generation */
    const char *keytype2; /* a second one (RSA-PSS), or NULL */
} serving_alg;

static const serving_alg algs[] = {
    {"serving.rsa", "RSA (PKCS#1, PSS)", "RSA", "RSA", "RSA-PSS"},
    {"serving.ecdsa-p256", "ECDSA P-256", "ECDSA", "EC", NULL},
    {"serving.ml-dsa-44", "ML-DSA-44", "ML-DSA-44", "ML-DSA-44", NULL},
    {"serving.ml-dsa-65", "ML-DSA-65", "ML-DSA-65", "ML-DSA-65", NULL},
    {"serving.ml-dsa-87", "ML-DSA-87", "ML-DSA-87", "ML-DSA-87", NULL},
};

/* The provider the default query picks for a signature or key manager. */
static const OSSL_PROVIDER *sig_provider(const char *name) {
    ERR_set_mark();
    EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(NULL, name, NULL);
    ERR_pop_to_mark();
    const OSSL_PROVIDER *p = s != NULL ? EVP_SIGNATURE_get0_provider(s) : NULL;
    EVP_SIGNATURE_free(s); /* the provider outlives the method */
    return p;
}

static const OSSL_PROVIDER *keymgmt_provider(const char *name) {
    ERR_set_mark();
    EVP_KEYMGMT *k = EVP_KEYMGMT_fetch(NULL, name, NULL);
    ERR_pop_to_mark();
    const OSSL_PROVIDER *p = k != NULL ? EVP_KEYMGMT_get0_provider(k) : NULL;
    EVP_KEYMGMT_free(k);
    return p;
}

int quill_info_declined(const quill_info_quill *q, const char *keytype) {
    size_t len = strlen(keytype);
    /* "none", or "none (QUILL_DECLINE=none overrides this build's list; ...)":
     * the families named after it are served. */
    if (strncmp(q->declined, "none", 4) == 0)
        return 0;
    for (const char *s = q->declined; *s != '\0';) {
        if (strncmp(s, keytype, len) == 0 && s[len] == ' ')
            return 1;
        const char *next = strstr(s, "; ");
        if (next == NULL)
            break;
        s = next + 2;
    }
    return 0;
}

void quill_info_serving(quill_info_report *r, const quill_info_quill *q,
                        const quill_info_config *c) {
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
        const serving_alg *a = &algs[i];
        const OSSL_PROVIDER *sig = sig_provider(a->sig);
        const OSSL_PROVIDER *gen = keymgmt_provider(a->keytype);
        char gen2[160] = "";
        if (a->keytype2 != NULL)
            quill_info_format(gen2, sizeof(gen2), ", %s keys %s", a->keytype2,
                     quill_info_provider_name(keymgmt_provider(a->keytype2)));
        int off = q->prov != NULL && quill_info_declined(q, a->keytype);
        quill_info_add(r, 0, a->key, a->label, "signatures %s, key generation %s%s%s",
                       quill_info_provider_name(sig), quill_info_provider_name(gen), gen2,
                       off ? " (declined by quill on this CPU)" : "");
        if (q->prov == NULL || sig == q->prov || off)
            continue;
        if (sig == NULL)
            quill_info_fail(r, "quill is active but no provider offers %s signatures", a->sig);
        else if (c->default_properties[0] == '\0')
            quill_info_fail(r,
                            "quill is active but %s signatures go to the %s provider: the "
                            "configuration sets no default_properties (add alg_section with "
                            "default_properties = ?quill.sig=yes, see openssl.cnf.example)",
                            a->sig, quill_info_provider_name(sig));
        else
            quill_info_fail(r,
                            "quill is active but %s signatures go to the %s provider (the "
                            "configuration's default_properties = %s; openssl.cnf.example "
                            "uses ?quill.sig=yes)",
                            a->sig, quill_info_provider_name(sig), c->default_properties);
    }
}
