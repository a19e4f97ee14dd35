/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "ec_foreign.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "prov_err.h"

void quill_prov_ec_foreign_failed(const quill_provctx *prov, const char *what) {
    QUILL_RAISE_MSG(prov, QUILL_R_NOT_SUPPORTED, "EC key (other curve): %s failed", what);
}

#define failed quill_prov_ec_foreign_failed

EVP_PKEY *quill_prov_ec_foreign_fromdata(quill_provctx *prov, int selection,
                                         const OSSL_PARAM params[]) {
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(prov->libctx, "EC", QUILL_EC_FOREIGN_PROPQ);
    if (c == NULL || EVP_PKEY_fromdata_init(c) != 1 ||
        EVP_PKEY_fromdata(c, &k, selection, (OSSL_PARAM *)params) != 1) {
        failed(prov, "import");
        k = NULL;
    }
    EVP_PKEY_CTX_free(c);
    return k;
}

/* 1 if |k| answers the parameter |name| (its size only: no copy of a
 * secret is made). */
static int has_param(const EVP_PKEY *k, const char *name, int bn) {
    OSSL_PARAM p[] = {bn ? OSSL_PARAM_construct_BN(name, NULL, 0)
                         : OSSL_PARAM_construct_octet_string(name, NULL, 0),
                      OSSL_PARAM_END};
    return EVP_PKEY_get_params(k, p) == 1 && OSSL_PARAM_modified(p) && p[0].return_size > 0;
}

int quill_prov_ec_foreign_has(const EVP_PKEY *k, int selection) {
    /* "has" only asks: whatever the queries raise is dropped, and nothing
     * already on the queue. */
    ERR_set_mark();
    int ok = 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = has_param(k, OSSL_PKEY_PARAM_PUB_KEY, 0);
    if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = has_param(k, OSSL_PKEY_PARAM_PRIV_KEY, 1);
    ERR_pop_to_mark();
    /* Domain parameters: an EC key of the default provider always has them
     * (it cannot be imported without). */
    return ok;
}

int quill_prov_ec_foreign_match(const EVP_PKEY *a, const EVP_PKEY *b, int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
        return EVP_PKEY_eq(a, b) == 1;
    return EVP_PKEY_parameters_eq(a, b) == 1;
}

int quill_prov_ec_foreign_validate(quill_provctx *prov, const EVP_PKEY *k, int selection) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(prov->libctx, (EVP_PKEY *)k,
                                                 QUILL_EC_FOREIGN_PROPQ);
    int ok = c != NULL;
    const int pair = OSSL_KEYMGMT_SELECT_KEYPAIR;
    if (ok && (selection & pair) == pair)
        ok = EVP_PKEY_check(c) == 1;
    else if (ok && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = EVP_PKEY_public_check(c) == 1;
    else if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = EVP_PKEY_private_check(c) == 1;
    else if (ok && (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0)
        ok = EVP_PKEY_param_check(c) == 1;
    if (!ok)
        failed(prov, "validation");
    EVP_PKEY_CTX_free(c);
    return ok;
}

EVP_PKEY *quill_prov_ec_foreign_dup(quill_provctx *prov, const EVP_PKEY *k, int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_ALL) == OSSL_KEYMGMT_SELECT_ALL) {
        EVP_PKEY *d = EVP_PKEY_dup((EVP_PKEY *)k);
        if (d == NULL)
            failed(prov, "copy");
        return d;
    }
    OSSL_PARAM *params = NULL;
    EVP_PKEY *d = NULL;
    if (EVP_PKEY_todata(k, selection, &params) == 1)
        d = quill_prov_ec_foreign_fromdata(prov, selection, params);
    else
        failed(prov, "copy");
    /* OSSL_PARAM_free does not clear an ordinary allocation: the private
     * key is wiped here. */
    OSSL_PARAM *priv = params != NULL ? OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY) : NULL;
    if (priv != NULL && priv->data != NULL)
        OPENSSL_cleanse(priv->data, priv->data_size);
    OSSL_PARAM_free(params);
    return d;
}

EVP_PKEY_CTX *quill_prov_ec_foreign_genctx(quill_provctx *prov, int selection,
                                           const EVP_PKEY *templ) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(prov->libctx, "EC", QUILL_EC_FOREIGN_PROPQ);
    int ok = c != NULL && ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0
                               ? EVP_PKEY_keygen_init(c) == 1
                               : EVP_PKEY_paramgen_init(c) == 1);
    if (ok && templ != NULL) {
        OSSL_PARAM *domain = NULL;
        ok = EVP_PKEY_todata(templ, EVP_PKEY_KEY_PARAMETERS, &domain) == 1 &&
             EVP_PKEY_CTX_set_params(c, domain) == 1;
        OSSL_PARAM_free(domain);
    }
    if (!ok) {
        failed(prov, "key generation");
        EVP_PKEY_CTX_free(c);
        return NULL;
    }
    return c;
}
