/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The EC key manager (P-256 only): OSSL_PARAM glue around
 * quill_prov_ec_key (ec_key.c) and the core's key generation and checks. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "common/zeroize.h"
#include "ec/ecdsa_der.h"
#include "ec_domain.h"
#include "ec_foreign.h"
#include "ec_key.h"
#include "names.h"
#include "params.h"
#include "prov_err.h"
#include "rng.h"

static OSSL_FUNC_keymgmt_new_fn ec_new;
static OSSL_FUNC_keymgmt_free_fn ec_free;
static OSSL_FUNC_keymgmt_has_fn ec_has;
static OSSL_FUNC_keymgmt_match_fn ec_match;
static OSSL_FUNC_keymgmt_validate_fn ec_validate;
static OSSL_FUNC_keymgmt_import_fn ec_import;
static OSSL_FUNC_keymgmt_import_types_fn ec_import_types;
static OSSL_FUNC_keymgmt_export_fn ec_export;
static OSSL_FUNC_keymgmt_export_types_fn ec_export_types;
static OSSL_FUNC_keymgmt_dup_fn ec_dup;
static OSSL_FUNC_keymgmt_load_fn ec_load;
static OSSL_FUNC_keymgmt_get_params_fn ec_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn ec_gettable_params;
static OSSL_FUNC_keymgmt_set_params_fn ec_set_params;
static OSSL_FUNC_keymgmt_settable_params_fn ec_settable_params;
static OSSL_FUNC_keymgmt_query_operation_name_fn ec_query_operation_name;
static OSSL_FUNC_keymgmt_gen_init_fn ec_gen_init;
static OSSL_FUNC_keymgmt_gen_set_params_fn ec_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn ec_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_set_template_fn ec_gen_set_template;
static OSSL_FUNC_keymgmt_gen_fn ec_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn ec_gen_cleanup;

static void *ec_new(void *provctx) {
    return quill_prov_ec_key_new(provctx);
}

static void ec_free(void *keydata) {
    quill_prov_ec_key_free(keydata);
}

static int ec_has(const void *keydata, int selection) {
    const quill_prov_ec_key *k = keydata;
    if (k == NULL)
        return 0;
    if (k->foreign != NULL)
        return quill_prov_ec_foreign_has(k->foreign, selection);
    int ok = 1;
    if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0)
        ok = ok && k->has_group;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = ok && quill_prov_ec_key_has_pub(k);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && k->has_priv;
    return ok;
}

static int ec_match(const void *keydata1, const void *keydata2, int selection) {
    const quill_prov_ec_key *a = keydata1, *b = keydata2;
    if (a == NULL || b == NULL)
        return 0;
    if (a->foreign != NULL || b->foreign != NULL) /* P-256 never equals another curve */
        return a->foreign != NULL && b->foreign != NULL &&
               quill_prov_ec_foreign_match(a->foreign, b->foreign, selection);
    int ok = 1;
    if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0)
        ok = ok && a->has_group && b->has_group;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0) {
        /* As OpenSSL does: public keys decide when both have one (the
         * private key determines it), else the private keys. */
        if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && quill_prov_ec_key_has_pub(a) &&
            quill_prov_ec_key_has_pub(b))
            ok = ok && quill_prov_ec_key_pub_equal(a, b);
        else if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->has_priv && b->has_priv)
            ok = ok && CRYPTO_memcmp(a->priv, b->priv, sizeof(a->priv)) == 0;
        else
            ok = 0;
    }
    return ok;
}

static int ec_validate(const void *keydata, int selection, int checktype) {
    const quill_prov_ec_key *k = keydata;
    if (k == NULL)
        return 0;
    if (k->foreign != NULL)
        return quill_prov_ec_foreign_validate(k->prov, k->foreign, selection);
    if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0 && !k->has_group) {
        QUILL_RAISE(k->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (!quill_prov_ec_key_has_pub(k) && !k->has_priv) {
        QUILL_RAISE(k->prov, QUILL_R_NO_KEY);
        return 0;
    }
    quill_err err = QUILL_OK;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        /* Re-decode the stored point: on the curve, coordinates < p, not
         * infinity. */
        uint8_t enc[QUILL_P256_PUBLIC_BYTES];
        size_t len = 0;
        quill_p256_public again, scratch;
        const quill_p256_public *q = quill_prov_ec_key_pub(k, &scratch);
        if (q == NULL) {
            QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "no public key");
            return 0;
        }
        err = quill_p256_public_encode(enc, sizeof(enc), &len, q, 0);
        if (err == QUILL_OK)
            err = quill_p256_public_decode(&again, enc, len);
    }
    if (err == QUILL_OK && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        if (!k->has_priv) {
            QUILL_RAISE(k->prov, QUILL_R_NOT_PRIVATE_KEY);
            return 0;
        }
        err = quill_p256_private_check(k->priv);
    }
    if (err == QUILL_OK &&
        (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR &&
        quill_prov_ec_key_has_pub(k) && k->has_priv) {
        /* Pairwise: priv * G must be pub (both public once computed). */
        quill_prov_ec_key derived = {0};
        quill_p256_public q;
        err = quill_p256_public_from_private(&q, k->priv);
        if (err == QUILL_OK) {
            quill_p256_lazy_public_set(&derived.pub, &q);
            if (!quill_prov_ec_key_pub_equal(k, &derived))
                err = QUILL_ERR_KEY_CHECK;
        }
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        return 0;
    }
    return 1;
}

static int ec_import(void *keydata, int selection, const OSSL_PARAM params[]) {
    return quill_prov_ec_key_import(keydata, selection, params);
}

#define EC_DOMAIN_TYPES                                                                   \
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),                          \
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING, NULL, 0),                     \
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, NULL, 0)
#define EC_KEY_TYPES                                                 \
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),       \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0)

static const OSSL_PARAM ec_domain_types[] = {EC_DOMAIN_TYPES, OSSL_PARAM_END};
static const OSSL_PARAM ec_all_types[] = {EC_DOMAIN_TYPES, EC_KEY_TYPES, OSSL_PARAM_END};

static const OSSL_PARAM *ec_import_types(int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
        return ec_all_types;
    return (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) != 0 ? ec_domain_types : NULL;
}

static int ec_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg) {
    return quill_prov_ec_key_export(keydata, selection, cb, cbarg);
}

static const OSSL_PARAM *ec_export_types(int selection) {
    return ec_import_types(selection);
}

/* ec_load takes over a key object quill's decoder made (ec_codec_dec.c):
 * |reference| holds a quill_prov_ec_key pointer, which is cleared so that
 * the decoder does not free it. */
static void *ec_load(const void *reference, size_t reference_sz) {
    if (reference == NULL || reference_sz != sizeof(quill_prov_ec_key *))
        return NULL;
    quill_prov_ec_key **ref = (quill_prov_ec_key **)reference;
    quill_prov_ec_key *k = *ref;
    *ref = NULL;
    return k;
}

static void *ec_dup(const void *keydata, int selection) {
    if (keydata == NULL)
        return NULL;
    return quill_prov_ec_key_dup(keydata, selection);
}

/* The size of a P-256 key named by |key| (bits, security-bits or
 * max-size), or -1 for any other key. */
static int size_param(const char *key) {
    if (strcmp(key, OSSL_PKEY_PARAM_BITS) == 0)
        return QUILL_EC_GROUP_BITS;
    if (strcmp(key, OSSL_PKEY_PARAM_SECURITY_BITS) == 0)
        return QUILL_EC_SECURITY_BITS;
    if (strcmp(key, OSSL_PKEY_PARAM_MAX_SIZE) == 0)
        return QUILL_ECDSA_P256_DER_MAX;
    return -1;
}

/* OpenSSL asks every new key for bits, security-bits and max-size alone
 * (evp_keymgmt_util_cache_keyinfo, after each generation): answered in one
 * pass over params, where ec_get_params's general path locates each of
 * the thirteen names it knows (1.7k instructions per key, callgrind).
 * Returns 1 (answered), 0 (OSSL_PARAM_set_int failed) or -1 (params asks
 * for something else: take the general path). */
static int get_sizes_only(OSSL_PARAM params[]) {
    for (const OSSL_PARAM *p = params; p->key != NULL; p++)
        if (size_param(p->key) < 0)
            return -1;
    for (OSSL_PARAM *p = params; p->key != NULL; p++)
        if (!OSSL_PARAM_set_int(p, size_param(p->key)))
            return 0;
    return 1;
}

static int ec_get_params(void *keydata, OSSL_PARAM params[]) {
    const quill_prov_ec_key *k = keydata;
    OSSL_PARAM *p;
    if (k == NULL)
        return 0;
    if (k->foreign != NULL)
        return EVP_PKEY_get_params(k->foreign, params) == 1;
    if (k->has_group && params != NULL) {
        int r = get_sizes_only(params);
        if (r >= 0)
            return r;
    }
    if (k->has_group) {
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
            !OSSL_PARAM_set_int(p, QUILL_EC_GROUP_BITS))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
            !OSSL_PARAM_set_int(p, QUILL_EC_SECURITY_BITS))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
            !OSSL_PARAM_set_int(p, QUILL_ECDSA_P256_DER_MAX))
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, "SHA256"))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_DECODED_FROM_EXPLICIT_PARAMS)) != NULL &&
        !OSSL_PARAM_set_int(p, 0))
        return 0;
    return quill_prov_ec_key_get_components(k, params);
}

static const OSSL_PARAM ec_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_EC_DECODED_FROM_EXPLICIT_PARAMS, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_BN(OSSL_PKEY_PARAM_EC_PUB_X, NULL, 0),
    OSSL_PARAM_BN(OSSL_PKEY_PARAM_EC_PUB_Y, NULL, 0),
    EC_DOMAIN_TYPES,
    EC_KEY_TYPES,
    OSSL_PARAM_END,
};

static const OSSL_PARAM *ec_gettable_params(void *provctx) {
    return ec_gettable;
}

static int ec_set_params(void *keydata, const OSSL_PARAM params[]) {
    quill_prov_ec_key *k = keydata;
    const OSSL_PARAM *p;
    if (k == NULL)
        return 0;
    const void *buf = NULL;
    size_t len = 0;
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    if (p != NULL && !quill_param_get_octets(p, &buf, &len)) {
        QUILL_RAISE(k->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    if (k->foreign != NULL)
        return EVP_PKEY_set_params(k->foreign, (OSSL_PARAM *)params) == 1 ||
               (quill_prov_ec_foreign_failed(k->prov, "set_params"), 0);
    return p == NULL || quill_prov_ec_key_set_encoded_pub(k, buf, len);
}

static const OSSL_PARAM ec_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *ec_settable_params(void *provctx) {
    return ec_settable;
}

static const char *ec_query_operation_name(int operation_id) {
    switch (operation_id) {
    case OSSL_OP_SIGNATURE:
        return "ECDSA";
    case OSSL_OP_KEYEXCH:
        return "ECDH";
    default:
        return NULL;
    }
}

/* ---- Key generation ---- */

typedef struct ec_gen_ctx {
    quill_provctx *prov;
    int selection;
    int has_group;
    int compressed;
    EVP_PKEY_CTX *foreign; /* another curve: the default provider generates */
} ec_gen_ctx;

static void *ec_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    ec_gen_ctx *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    g->prov = provctx;
    g->selection = selection;
    if (!ec_gen_set_params(g, params)) {
        ec_gen_cleanup(g);
        return NULL;
    }
    return g;
}

static int ec_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    ec_gen_ctx *g = genctx;
    const OSSL_PARAM *p;
    const char *s = NULL;
    if (g == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if (g->foreign == NULL && quill_prov_ec_params_foreign(params)) {
        /* Another curve (ec_foreign.h): from here on every parameter goes
         * to the default provider's generator, the point format set so
         * far too. */
        if ((g->foreign = quill_prov_ec_foreign_genctx(g->prov, g->selection, NULL)) == NULL)
            return 0;
        OSSL_PARAM fmt[] = {OSSL_PARAM_construct_utf8_string(
                                OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                (char *)(g->compressed
                                             ? OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED
                                             : OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED),
                                0),
                            OSSL_PARAM_END};
        if (EVP_PKEY_CTX_set_params(g->foreign, fmt) != 1)
            return 0;
    }
    if (g->foreign != NULL)
        return EVP_PKEY_CTX_set_params(g->foreign, params) == 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME)) != NULL) {
        if (!quill_param_get_utf8(p, &s)) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_PARAMETER);
            return 0;
        }
        if (!quill_prov_ec_group_is_p256(s)) {
            QUILL_RAISE_MSG(g->prov, QUILL_R_UNSUPPORTED_CURVE, "group %s", s);
            return 0;
        }
        g->has_group = 1;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_EC_ENCODING)) != NULL &&
        (!quill_param_get_utf8(p, &s) ||
         OPENSSL_strcasecmp(s, OSSL_PKEY_EC_ENCODING_GROUP) != 0)) {
        QUILL_RAISE_MSG(g->prov, QUILL_R_UNSUPPORTED_CURVE, "encoding (named curves only)");
        return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT)) != NULL) {
        if (!quill_param_get_utf8(p, &s)) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_PARAMETER);
            return 0;
        }
        if (OPENSSL_strcasecmp(s, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) == 0) {
            g->compressed = 0;
        } else if (OPENSSL_strcasecmp(s, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED) == 0) {
            g->compressed = 1;
        } else {
            QUILL_RAISE_MSG(g->prov, QUILL_R_BAD_PARAMETER, "point-format %s", s);
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM ec_gen_settable[] = {
    EC_DOMAIN_TYPES,
    OSSL_PARAM_END,
};

static const OSSL_PARAM *ec_gen_settable_params(void *genctx, void *provctx) {
    return ec_gen_settable;
}

/* The template is a key of this key manager (OpenSSL exports it here
 * first): it carries the group, which on 3.0 is not passed otherwise. */
static int ec_gen_set_template(void *genctx, void *templ) {
    ec_gen_ctx *g = genctx;
    const quill_prov_ec_key *t = templ;
    if (g == NULL || t == NULL)
        return 0;
    if (t->foreign != NULL) {
        EVP_PKEY_CTX_free(g->foreign);
        g->foreign = quill_prov_ec_foreign_genctx(g->prov, g->selection, t->foreign);
        return g->foreign != NULL;
    }
    if (!t->has_group) {
        QUILL_RAISE_MSG(g->prov, QUILL_R_MISSING_KEY_COMPONENT, "template without a group");
        return 0;
    }
    g->has_group = 1;
    g->compressed = t->compressed;
    return 1;
}

static void *ec_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    ec_gen_ctx *g = genctx;
    if (g == NULL)
        return NULL;
    if (g->foreign != NULL) {
        EVP_PKEY *fk = NULL;
        quill_prov_ec_key *k = NULL;
        if (EVP_PKEY_generate(g->foreign, &fk) != 1) {
            quill_prov_ec_foreign_failed(g->prov, "key generation");
            return NULL;
        }
        if ((k = quill_prov_ec_key_new(g->prov)) == NULL) {
            EVP_PKEY_free(fk);
            return NULL;
        }
        k->foreign = fk;
        return k;
    }
    if (!g->has_group) {
        QUILL_RAISE_MSG(g->prov, QUILL_R_MISSING_KEY_COMPONENT, "no group set");
        return NULL;
    }
    quill_prov_ec_key *k = quill_prov_ec_key_new(g->prov);
    if (k == NULL)
        return NULL;
    k->has_group = 1;
    k->compressed = g->compressed;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return k; /* parameter generation: the group alone */
    quill_rng rng = quill_prov_rng_private(g->prov);
    /* The public point stays in Jacobian form until it is first read
     * (ec_key.h). */
    quill_err err = quill_p256_keygen_lazy(k->priv, &k->pub, &rng);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(g->prov, err);
        quill_prov_ec_key_free(k);
        return NULL;
    }
    k->has_priv = 1;
    quill_stats_add(&g->prov->stats, QUILL_STAT_EC_KEYGEN);
    return k;
}

static void ec_gen_cleanup(void *genctx) {
    ec_gen_ctx *g = genctx;
    if (g == NULL)
        return;
    EVP_PKEY_CTX_free(g->foreign);
    quill_zeroize(g, sizeof(*g));
    OPENSSL_free(g);
}

const OSSL_DISPATCH quill_ec_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))ec_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))ec_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))ec_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))ec_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))ec_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))ec_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))ec_import_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))ec_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))ec_export_types},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))ec_dup},
    {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))ec_load},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))ec_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))ec_gettable_params},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))ec_set_params},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))ec_settable_params},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))ec_query_operation_name},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))ec_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))ec_gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))ec_gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))ec_gen_set_template},
    {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))ec_gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))ec_gen_cleanup},
    {0, NULL},
};
