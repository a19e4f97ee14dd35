/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * What quill's ML-DSA encoders and decoders share (mldsa_codec.h): their
 * context, importing a foreign key, checking the key handed to an encoder,
 * and choosing the private key form from the provider configuration. */
#include "mldsa_codec.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "names.h"
#include "prov_err.h"

quill_mldsa_codec_ctx *quill_mldsa_codec_ctx_new(void *provctx, quill_mldsa_set set,
                                                 quill_mldsa_codec_kind kind, int pem) {
    quill_provctx *prov = provctx;
    quill_mldsa_codec_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));
    if (ctx == NULL) {
        QUILL_RAISE(prov, QUILL_R_MEMORY);
        return NULL;
    }
    ctx->prov = prov;
    ctx->alg = quill_mldsa_alg_get(set);
    ctx->kind = kind;
    ctx->pem = pem;
    return ctx;
}

void quill_mldsa_codec_ctx_free(void *vctx) {
    quill_mldsa_codec_ctx *ctx = vctx;
    if (ctx == NULL)
        return;
    EVP_CIPHER_free(ctx->cipher);
    OPENSSL_free(ctx);
}

/* Returns the octet string parameter |name| of |params|, if present and
 * wanted: 1 with *p (NULL when absent or unwanted), 0 for a parameter of
 * another type. */
static int get_octets(const OSSL_PARAM params[], const char *name, int wanted,
                      const OSSL_PARAM **p) {
    *p = wanted ? OSSL_PARAM_locate_const(params, name) : NULL;
    return *p == NULL || (*p)->data_type == OSSL_PARAM_OCTET_STRING;
}

void *quill_mldsa_codec_import(quill_mldsa_codec_ctx *ctx, int selection,
                               const OSSL_PARAM params[]) {
    int want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    int want_pub = (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
    const OSSL_PARAM *seed, *priv, *pub;
    if (!get_octets(params, OSSL_PKEY_PARAM_ML_DSA_SEED, want_priv, &seed) ||
        !get_octets(params, OSSL_PKEY_PARAM_PRIV_KEY, want_priv, &priv) ||
        !get_octets(params, OSSL_PKEY_PARAM_PUB_KEY, want_pub, &pub)) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_PARAMETER);
        return NULL;
    }
    quill_prov_mldsa_key *k = quill_prov_mldsa_key_new(ctx->prov, ctx->alg->set);
    if (k == NULL)
        return NULL;
    if (!quill_prov_mldsa_key_set_parts(k, seed ? seed->data : NULL, seed ? seed->data_size : 0,
                                        priv ? priv->data : NULL, priv ? priv->data_size : 0,
                                        pub ? pub->data : NULL, pub ? pub->data_size : 0)) {
        quill_prov_mldsa_key_free(k);
        return NULL;
    }
    return k;
}

const quill_prov_mldsa_key *quill_mldsa_codec_key(const quill_mldsa_codec_ctx *ctx,
                                                  const void *obj) {
    const quill_prov_mldsa_key *k = obj;
    if (k == NULL || k->key == NULL) {
        QUILL_RAISE(ctx->prov, QUILL_R_NO_KEY);
        return NULL;
    }
    if (k->alg->set != ctx->alg->set) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_UNSUPPORTED_KEY, "%s key given to a %s encoder",
                        k->alg->name, ctx->alg->name);
        return NULL;
    }
    return k;
}

const quill_prov_mldsa_key *quill_mldsa_codec_encode_key(const quill_mldsa_codec_ctx *ctx,
                                                         const void *obj_raw,
                                                         const OSSL_PARAM obj_abstract[]) {
    if (obj_abstract != NULL) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_NOT_SUPPORTED, "key given as parameters");
        return NULL;
    }
    return quill_mldsa_codec_key(ctx, obj_raw);
}

int quill_mldsa_codec_pick_form(const char *list, int has_seed, quill_mldsa_form *form) {
    static const struct {
        const char *name;
        quill_mldsa_form form;
        int needs_seed;
    } forms[] = {
        {"seed-priv", QUILL_MLDSA_FORM_SEED_PRIV, 1},
        {"seed-only", QUILL_MLDSA_FORM_SEED_ONLY, 1},
        {"priv-only", QUILL_MLDSA_FORM_PRIV_ONLY, 0},
    };
    if (list == NULL)
        list = QUILL_MLDSA_DEFAULT_OUTPUT_FORMATS;
    const char *sep = ", \t:";
    const char *p = list;
    while (*p != '\0') {
        p += strspn(p, sep);
        size_t n = strcspn(p, sep);
        for (size_t i = 0; n > 0 && i < sizeof(forms) / sizeof(forms[0]); i++) {
            if (strlen(forms[i].name) == n && OPENSSL_strncasecmp(p, forms[i].name, n) == 0 &&
                (has_seed || !forms[i].needs_seed)) {
                *form = forms[i].form;
                return 1;
            }
        }
        p += n;
    }
    *form = has_seed ? QUILL_MLDSA_FORM_SEED_PRIV : QUILL_MLDSA_FORM_PRIV_ONLY;
    return 0;
}

/* The provider configuration's "ml-dsa.output_formats" (a string the core
 * owns for as long as the provider is loaded), or NULL. */
static const char *conf_output_formats(const quill_provctx *prov) {
    const char *value = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr(QUILL_MLDSA_CONF_OUTPUT_FORMATS, (char **)&value, 0),
        OSSL_PARAM_END,
    };
    if (prov == NULL || prov->core_get_params == NULL ||
        !prov->core_get_params(prov->handle, params) || !OSSL_PARAM_modified(&params[0]))
        return NULL;
    return value;
}

void quill_mldsa_codec_form(const quill_mldsa_codec_ctx *ctx, int has_seed,
                            quill_mldsa_form *form) {
    (void)quill_mldsa_codec_pick_form(conf_output_formats(ctx->prov), has_seed, form);
}
