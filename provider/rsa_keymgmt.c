/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA and RSA-PSS key managers: OSSL_PARAM glue around quill_prov_rsa_key
 * (rsa_key.c) and the core's key generation and validation. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "common/zeroize.h"
#include "digest.h"
#include "params.h"
#include "prov_err.h"
#include "algorithms.h"
#include "rng.h"
#include "rsa_key.h"

static OSSL_FUNC_keymgmt_new_fn rsa_new;
static OSSL_FUNC_keymgmt_new_fn rsapss_new;
static OSSL_FUNC_keymgmt_free_fn rsa_free;
static OSSL_FUNC_keymgmt_has_fn rsa_has;
static OSSL_FUNC_keymgmt_match_fn rsa_match;
static OSSL_FUNC_keymgmt_validate_fn rsa_validate;
static OSSL_FUNC_keymgmt_import_fn rsa_import;
static OSSL_FUNC_keymgmt_import_types_fn rsa_import_types;
static OSSL_FUNC_keymgmt_import_types_fn rsapss_import_types;
static OSSL_FUNC_keymgmt_export_fn rsa_export;
static OSSL_FUNC_keymgmt_export_types_fn rsa_export_types;
static OSSL_FUNC_keymgmt_export_types_fn rsapss_export_types;
static OSSL_FUNC_keymgmt_dup_fn rsa_dup;
static OSSL_FUNC_keymgmt_get_params_fn rsa_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn rsa_gettable_params;
static OSSL_FUNC_keymgmt_gettable_params_fn rsapss_gettable_params;
static OSSL_FUNC_keymgmt_query_operation_name_fn rsa_query_operation_name;
static OSSL_FUNC_keymgmt_gen_init_fn rsa_gen_init;
static OSSL_FUNC_keymgmt_gen_init_fn rsapss_gen_init;
static OSSL_FUNC_keymgmt_gen_set_params_fn rsapss_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn rsapss_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_set_params_fn rsa_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn rsa_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_set_template_fn rsa_gen_set_template;
static OSSL_FUNC_keymgmt_gen_fn rsa_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn rsa_gen_cleanup;

static void *rsa_new(void *provctx) {
    return quill_prov_rsa_key_new(provctx, QUILL_PROV_RSA);
}

static void *rsapss_new(void *provctx) {
    return quill_prov_rsa_key_new(provctx, QUILL_PROV_RSA_PSS);
}

static void rsa_free(void *keydata) {
    quill_prov_rsa_key_free(keydata);
}

static int rsa_has(const void *keydata, int selection) {
    const quill_prov_rsa_key *k = keydata;
    if (k == NULL)
        return 0;
    int ok = 1;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
        ok = ok && k->key != NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && k->key != NULL && quill_rsa_key_has_private(k->key);
    return ok;
}

static int rsa_match(const void *keydata1, const void *keydata2, int selection) {
    const quill_prov_rsa_key *a = keydata1, *b = keydata2;
    if (a == NULL || b == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    /* Matching public parts is what matching a key pair means for RSA
     * (d is determined by n and e). */
    return a->key != NULL && b->key != NULL && quill_rsa_key_public_equal(a->key, b->key);
}

static int rsa_validate(const void *keydata, int selection, int checktype) {
    const quill_prov_rsa_key *k = keydata;
    if (k == NULL)
        return 0;
    if (k->key == NULL) {
        QUILL_RAISE(k->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !quill_rsa_key_has_private(k->key)) {
        QUILL_RAISE(k->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    /* As OpenSSL's default provider: a public-key selection checks n and e
     * only, even on a key that holds private components
     * (EVP_PKEY_public_check); a private-key selection alone checks
     * 0 < d < n (EVP_PKEY_private_check), which every imported or generated
     * key already satisfies; the key pair gets the full check. */
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
        return 1;
    quill_rng rng = quill_prov_rng_private(k->prov);
    quill_err err = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0
                        ? quill_rsa_key_check_public(k->key)
                        : quill_rsa_key_check(k->key, &rng);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        return 0;
    }
    return 1;
}

static int rsa_import(void *keydata, int selection, const OSSL_PARAM params[]) {
    return quill_prov_rsa_key_import(keydata, selection, params);
}

#define RSA_KEY_TYPES                                                \
    OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),                   \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),               \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0),               \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0),         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),         \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),       \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),       \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0)

#define RSA_PSS_TYPES                                                          \
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST, NULL, 0),               \
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST_PROPS, NULL, 0),     \
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MASKGENFUNC, NULL, 0),      \
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, NULL, 0),      \
        OSSL_PARAM_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, NULL)

static const OSSL_PARAM rsa_key_types[] = {RSA_KEY_TYPES, OSSL_PARAM_END};
static const OSSL_PARAM rsapss_key_types[] = {RSA_KEY_TYPES, RSA_PSS_TYPES, OSSL_PARAM_END};
static const OSSL_PARAM rsapss_param_types[] = {RSA_PSS_TYPES, OSSL_PARAM_END};

static const OSSL_PARAM *rsa_import_types(int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 ? rsa_key_types : NULL;
}

static const OSSL_PARAM *rsapss_import_types(int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0)
        return (selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0 ? rsapss_key_types
                                                                       : rsa_key_types;
    return (selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0 ? rsapss_param_types : NULL;
}

static int rsa_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg) {
    return quill_prov_rsa_key_export(keydata, selection, cb, cbarg);
}

static const OSSL_PARAM *rsa_export_types(int selection) {
    return rsa_import_types(selection);
}

static const OSSL_PARAM *rsapss_export_types(int selection) {
    return rsapss_import_types(selection);
}

static void *rsa_dup(const void *keydata, int selection) {
    if (keydata == NULL)
        return NULL;
    return quill_prov_rsa_key_dup(keydata, selection);
}

static int rsa_get_params(void *keydata, OSSL_PARAM params[]) {
    const quill_prov_rsa_key *k = keydata;
    if (k == NULL)
        return 0;
    OSSL_PARAM *p;
    if (k->key != NULL) {
        size_t bits = quill_rsa_key_bits(k->key);
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
            !OSSL_PARAM_set_int(p, (int)bits))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
            !OSSL_PARAM_set_int(p, quill_prov_rsa_security_bits(bits)))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
            !OSSL_PARAM_set_int(p, (int)quill_rsa_key_size(k->key)))
            return 0;
    }
    const char *mddefault = "SHA256";
    if (k->type == QUILL_PROV_RSA_PSS && k->pss.restricted) {
        /* The restrictions, as OpenSSL's RSA-PSS key manager reports them. */
        mddefault = quill_prov_md_name(k->pss.md);
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, mddefault))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_DIGEST)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, mddefault))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_MASKGENFUNC)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, "MGF1"))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, quill_prov_md_name(k->pss.mgf1)))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN)) != NULL &&
            !OSSL_PARAM_set_int(p, (int)k->pss.min_salt))
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, mddefault))
        return 0;
    return quill_prov_rsa_key_get_components(k, params);
}

static const OSSL_PARAM rsa_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
    RSA_KEY_TYPES,
    OSSL_PARAM_END,
};

static const OSSL_PARAM rsapss_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    RSA_KEY_TYPES,
    RSA_PSS_TYPES,
    OSSL_PARAM_END,
};

static const OSSL_PARAM *rsa_gettable_params(void *provctx) {
    return rsa_gettable;
}

static const OSSL_PARAM *rsapss_gettable_params(void *provctx) {
    return rsapss_gettable;
}

static const char *rsa_query_operation_name(int operation_id) {
    /* RSA-PSS keys sign with the "RSA" signature (restricted to PSS). */
    return operation_id == OSSL_OP_SIGNATURE ? "RSA" : NULL;
}

/* ---- Key generation ---- */

/* An RSA-PSS key's restrictions as set so far (set_params may come in
 * several calls, each with some of them); the key's own parser reads them
 * at generation (quill_prov_rsa_key_set_pss). */
typedef struct pss_gen_params {
    char md[64], mgf1[64], mgf[16], props[128];
    int saltlen, has_saltlen;
} pss_gen_params;

typedef struct rsa_gen_ctx {
    quill_provctx *prov;
    quill_prov_rsa_type type;
    size_t bits;
    uint8_t e[32]; /* big-endian public exponent, e_len bytes */
    size_t e_len;
    int selection;
    pss_gen_params pss; /* RSA-PSS only */
} rsa_gen_ctx;

static void *gen_init(void *provctx, quill_prov_rsa_type type, int selection,
                      const OSSL_PARAM params[]) {
    rsa_gen_ctx *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    g->prov = provctx;
    g->type = type;
    g->bits = 2048;
    g->e_len = 0; /* 65537 */
    g->selection = selection;
    if (!(type == QUILL_PROV_RSA_PSS ? rsapss_gen_set_params : rsa_gen_set_params)(g, params)) {
        OPENSSL_free(g);
        return NULL;
    }
    return g;
}

static void *rsa_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    return gen_init(provctx, QUILL_PROV_RSA, selection, params);
}

static void *rsapss_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    return gen_init(provctx, QUILL_PROV_RSA_PSS, selection, params);
}

static int rsa_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    rsa_gen_ctx *g = genctx;
    const OSSL_PARAM *p;
    if (g == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_BITS)) != NULL) {
        size_t bits;
        if (!OSSL_PARAM_get_size_t(p, &bits)) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_PARAMETER);
            return 0;
        }
        /* OpenSSL 3.0's default provider generates 512..16384 bits; so does
         * quill (FIPS 186-5 from QUILL_RSA_FIPS_MIN_BITS up). */
        if (bits < QUILL_RSA_MIN_BITS || bits > QUILL_RSA_MAX_BITS) {
            QUILL_RAISE_MSG(g->prov, QUILL_R_BAD_KEY_SIZE, "%zu bits (quill generates %d..%d)",
                            bits, QUILL_RSA_MIN_BITS, QUILL_RSA_MAX_BITS);
            return 0;
        }
        g->bits = bits;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PRIMES)) != NULL) {
        size_t primes;
        if (!OSSL_PARAM_get_size_t(p, &primes)) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_PARAMETER);
            return 0;
        }
        /* Multi-prime generation is quill's one gap against the default
         * provider (which takes 2..5 primes): refused, with the reason. */
        if (primes != 2) {
            QUILL_RAISE_MSG(g->prov, QUILL_R_BAD_PRIMES,
                            "%zu primes (quill generates two-prime keys only)", primes);
            return 0;
        }
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_E)) != NULL) {
        uint8_t *be = NULL;
        size_t len = 0;
        if (!quill_param_get_be(p, &be, &len)) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_PARAMETER);
            return 0;
        }
        size_t skip = 0;
        while (skip + 1 < len && be[skip] == 0)
            skip++;
        if (len - skip > sizeof(g->e)) {
            quill_param_free_be(be, len);
            QUILL_RAISE_CORE(g->prov, QUILL_ERR_BAD_EXPONENT);
            return 0;
        }
        memcpy(g->e, be + skip, len - skip);
        g->e_len = len - skip;
        quill_param_free_be(be, len);
    }
    return 1;
}

#define RSA_GEN_TYPES                                        \
    OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),       \
        OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL), \
        OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0)

static const OSSL_PARAM rsa_gen_settable[] = {RSA_GEN_TYPES, OSSL_PARAM_END};

static const OSSL_PARAM *rsa_gen_settable_params(void *genctx, void *provctx) {
    return rsa_gen_settable;
}

/* Copies the string parameter |name| of |params|, if present, into out
 * (cap bytes).  Returns 0, with an error raised, if it is not a string or
 * too long. */
static int gen_copy_string(const rsa_gen_ctx *g, const OSSL_PARAM params[], const char *name,
                           char *out, size_t cap) {
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    const char *s = NULL;
    if (p == NULL)
        return 1;
    if (!quill_param_get_utf8(p, &s) || strlen(s) >= cap) {
        QUILL_RAISE_MSG(g->prov, QUILL_R_BAD_PARAMETER, "%s", name);
        return 0;
    }
    memcpy(out, s, strlen(s) + 1);
    return 1;
}

/* RSA-PSS key generation takes the RSA parameters and the restrictions
 * OpenSSL's default provider takes: digest, mgf1-digest, mgf (MGF1 only),
 * saltlen and digest-props. */
static int rsapss_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    rsa_gen_ctx *g = genctx;
    if (!rsa_gen_set_params(g, params))
        return 0;
    pss_gen_params *pp = &g->pss;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN);
    if (p != NULL) {
        if (!OSSL_PARAM_get_int(p, &pp->saltlen) || pp->saltlen < 0) {
            QUILL_RAISE(g->prov, QUILL_R_BAD_SALT_LENGTH);
            return 0;
        }
        pp->has_saltlen = 1;
    }
    return gen_copy_string(g, params, OSSL_PKEY_PARAM_RSA_DIGEST, pp->md, sizeof(pp->md)) &&
           gen_copy_string(g, params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, pp->mgf1,
                           sizeof(pp->mgf1)) &&
           gen_copy_string(g, params, OSSL_PKEY_PARAM_RSA_MASKGENFUNC, pp->mgf,
                           sizeof(pp->mgf)) &&
           gen_copy_string(g, params, OSSL_PKEY_PARAM_RSA_DIGEST_PROPS, pp->props,
                           sizeof(pp->props));
}

static const OSSL_PARAM rsapss_gen_settable[] = {RSA_GEN_TYPES, RSA_PSS_TYPES, OSSL_PARAM_END};

static const OSSL_PARAM *rsapss_gen_settable_params(void *genctx, void *provctx) {
    return rsapss_gen_settable;
}

/* The restrictions gathered by rsapss_gen_set_params, as parameters for
 * quill_prov_rsa_key_set_pss. */
static int apply_pss(quill_prov_rsa_key *k, const pss_gen_params *pp) {
    OSSL_PARAM ps[6];
    size_t n = 0;
    int salt = pp->saltlen;
    if (pp->md[0] != '\0')
        ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST, (char *)pp->md, 0);
    if (pp->mgf1[0] != '\0')
        ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST,
                                                   (char *)pp->mgf1, 0);
    if (pp->mgf[0] != '\0')
        ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_MASKGENFUNC,
                                                   (char *)pp->mgf, 0);
    if (pp->props[0] != '\0')
        ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST_PROPS,
                                                   (char *)pp->props, 0);
    if (pp->has_saltlen)
        ps[n++] = OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &salt);
    ps[n] = OSSL_PARAM_construct_end();
    return quill_prov_rsa_key_set_pss(k, ps);
}

static int rsa_gen_set_template(void *genctx, void *templ) {
    return 1; /* RSA keys have no domain parameters to copy */
}

static void *rsa_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    rsa_gen_ctx *g = genctx;
    if (g == NULL)
        return NULL;
    quill_prov_rsa_key *k = quill_prov_rsa_key_new(g->prov, g->type);
    if (k == NULL)
        return NULL;
    if (g->type == QUILL_PROV_RSA_PSS && !apply_pss(k, &g->pss)) {
        quill_prov_rsa_key_free(k);
        return NULL;
    }
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return k;
    quill_rng rng = quill_prov_rng_private(g->prov);
    quill_bytes e = {g->e, g->e_len};
    quill_err err = quill_rsa_keygen(&k->key, g->bits, g->e_len != 0 ? &e : NULL, &rng);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(g->prov, err);
        quill_prov_rsa_key_free(k);
        return NULL;
    }
    quill_stats_add(&g->prov->stats, QUILL_STAT_RSA_KEYGEN);
    return k;
}

static void rsa_gen_cleanup(void *genctx) {
    if (genctx == NULL)
        return;
    quill_zeroize(genctx, sizeof(rsa_gen_ctx));
    OPENSSL_free(genctx);
}

const OSSL_DISPATCH quill_rsa_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsa_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))rsa_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))rsa_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))rsa_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))rsa_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))rsa_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsa_import_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))rsa_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsa_export_types},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))rsa_dup},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))rsa_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsa_gettable_params},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))rsa_query_operation_name},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))rsa_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))rsa_gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))rsa_gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))rsa_gen_set_template},
    {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))rsa_gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))rsa_gen_cleanup},
    {0, NULL},
};

/* RSA-PSS: the same key object, restricted to PSS signatures, generated
 * with or without restrictions (OpenSSL 3.0's method cache can route a
 * generic RSA-PSS key generation here once quill has served a signature). */
const OSSL_DISPATCH quill_rsapss_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsapss_new},
    {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))rsa_free},
    {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))rsa_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))rsa_match},
    {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))rsa_validate},
    {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))rsa_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))rsapss_import_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))rsa_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))rsapss_export_types},
    {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))rsa_dup},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))rsa_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))rsapss_gettable_params},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))rsa_query_operation_name},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))rsapss_gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))rsapss_gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))rsapss_gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE, (void (*)(void))rsa_gen_set_template},
    {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))rsa_gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))rsa_gen_cleanup},
    {0, NULL},
};
