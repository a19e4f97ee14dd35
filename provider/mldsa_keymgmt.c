/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA-44/65/87 key managers: OSSL_PARAM glue around
 * quill_prov_mldsa_key (mldsa_key.c).  One dispatch table per parameter
 * set; they differ only in the functions that create keys (new, gen_init,
 * load), which know their set.  Parameters as in OpenSSL 3.5: "pub",
 * "priv" (the expanded private key, FIPS 204 skEncode) and "seed" (xi, 32
 * bytes), all octet strings. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "common/zeroize.h"
#include "mldsa_key.h"
#include "names.h"
#include "params.h"
#include "prov_err.h"
#include "rng.h"

static OSSL_FUNC_keymgmt_free_fn mldsa_free;
static OSSL_FUNC_keymgmt_has_fn mldsa_has;
static OSSL_FUNC_keymgmt_match_fn mldsa_match;
static OSSL_FUNC_keymgmt_validate_fn mldsa_validate;
static OSSL_FUNC_keymgmt_import_fn mldsa_import;
static OSSL_FUNC_keymgmt_import_types_fn mldsa_import_types;
static OSSL_FUNC_keymgmt_export_fn mldsa_export;
static OSSL_FUNC_keymgmt_export_types_fn mldsa_export_types;
static OSSL_FUNC_keymgmt_dup_fn mldsa_dup;
static OSSL_FUNC_keymgmt_get_params_fn mldsa_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn mldsa_gettable_params;
static OSSL_FUNC_keymgmt_gen_set_params_fn mldsa_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn mldsa_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_fn mldsa_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn mldsa_gen_cleanup;

static void mldsa_free(void *keydata) {
    quill_prov_mldsa_key_free(keydata);
}

/* ML-DSA has no domain parameters: a selection without key parts is
 * always satisfied. */
static int mldsa_has(const void *keydata, int selection) {
    const quill_prov_mldsa_key *k = keydata;
    if (k == NULL)
        return 0;
    int ok = 1;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = ok && k->key != NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && k->key != NULL && quill_mldsa_key_has_private(k->key);
    return ok;
}

/* Keys match when they are of the same set and, if key parts are
 * selected, hold the same public key (the private key determines it: a
 * key holding one was checked against its public key when created). */
static int mldsa_match(const void *keydata1, const void *keydata2, int selection) {
    const quill_prov_mldsa_key *a = keydata1, *b = keydata2;
    if (a == NULL || b == NULL || a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (a->key == NULL || b->key == NULL)
        return 0;
    return quill_mldsa_key_public_equal(a->key, b->key);
}

/* Every check FIPS 204 allows is made when a key is created: the core
 * checks an expanded private key (s1, s2 ranges, tr and t0 recomputed) and
 * derives its public key, a seed regenerates the key, and import refuses
 * a public key or seed that does not match (mldsa_key.h).  A key object
 * is immutable afterwards, so validation, pair check included, only has to
 * look at what the key holds. */
static int mldsa_validate(const void *keydata, int selection, int checktype) {
    const quill_prov_mldsa_key *k = keydata;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (k->key == NULL) {
        QUILL_RAISE(k->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
        !quill_mldsa_key_has_private(k->key)) {
        QUILL_RAISE(k->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    return 1;
}

/* Reads the optional octet-string parameter |name|: 1 with *buf and *len set
 * (NULL/0 when absent), 0 with QUILL_R_BAD_PARAMETER raised if it is not an
 * octet string. */
static int get_octets(const quill_prov_mldsa_key *k, const OSSL_PARAM params[], const char *name,
                      const uint8_t **buf, size_t *len) {
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    const void *v = NULL;
    *buf = NULL;
    *len = 0;
    if (p == NULL)
        return 1;
    if (!quill_param_get_octets(p, &v, len)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "%s is not an octet string", name);
        return 0;
    }
    *buf = v;
    return 1;
}

/* Import as OpenSSL 3.5 does: a selection with the private key takes
 * "seed" and "priv" (and "pub" to compare), otherwise only "pub" is read.
 * A private key alone is accepted and its public key derived. */
static int mldsa_import(void *keydata, int selection, const OSSL_PARAM params[]) {
    quill_prov_mldsa_key *k = keydata;
    const uint8_t *seed = NULL, *priv = NULL, *pub = NULL;
    size_t seed_len = 0, priv_len = 0, pub_len = 0;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "no ML-DSA key part selected");
        return 0;
    }
    if (!get_octets(k, params, OSSL_PKEY_PARAM_PUB_KEY, &pub, &pub_len))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
        (!get_octets(k, params, OSSL_PKEY_PARAM_ML_DSA_SEED, &seed, &seed_len) ||
         !get_octets(k, params, OSSL_PKEY_PARAM_PRIV_KEY, &priv, &priv_len)))
        return 0;
    return quill_prov_mldsa_key_set_parts(k, seed, seed_len, priv, priv_len, pub, pub_len);
}

static const OSSL_PARAM key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *mldsa_import_types(int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 ? key_types : NULL;
}

/* Exports the public key and, if selected, the seed (when the key has one)
 * and the expanded private key.  The parameters point into the key itself:
 * no copy of a secret is made. */
static int mldsa_export(void *keydata, int selection, OSSL_CALLBACK *cb, void *cbarg) {
    const quill_prov_mldsa_key *k = keydata;
    if (k == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0 || k->key == NULL) {
        QUILL_RAISE(k->prov, QUILL_R_NO_KEY);
        return 0;
    }
    quill_mldsa_set set = k->alg->set;
    OSSL_PARAM params[4];
    size_t np = 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        params[np++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PUB_KEY, (void *)quill_mldsa_key_pub(k->key), quill_mldsa_pub_bytes(set));
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
        quill_mldsa_key_has_private(k->key)) {
        if (quill_mldsa_key_has_seed(k->key))
            params[np++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED,
                                                             (void *)quill_mldsa_key_seed(k->key),
                                                             QUILL_MLDSA_SEED_BYTES);
        params[np++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY,
                                                         (void *)quill_mldsa_key_priv(k->key),
                                                         quill_mldsa_priv_bytes(set));
    }
    if (np == 0) {
        QUILL_RAISE(k->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    params[np] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

static const OSSL_PARAM *mldsa_export_types(int selection) {
    return mldsa_import_types(selection);
}

static void *mldsa_dup(const void *keydata, int selection) {
    const quill_prov_mldsa_key *k = keydata;
    if (k == NULL)
        return NULL;
    quill_prov_mldsa_key *d = quill_prov_mldsa_key_new(k->prov, k->alg->set);
    if (d == NULL || k->key == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return d;
    int with_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    quill_err err = quill_mldsa_key_dup(&d->key, k->key, with_private);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        quill_prov_mldsa_key_free(d);
        return NULL;
    }
    return d;
}

/* NIST security category of each set (FIPS 204, Table 1). */
static int security_category(quill_mldsa_set set) {
    switch (set) {
    case QUILL_MLDSA_44:
        return 2;
    case QUILL_MLDSA_65:
        return 3;
    default:
        return 5;
    }
}

/* The names mldsa_get_params serves (the bits of its mask of names
 * served), and get_param_id's table of them. */
enum {
    GP_BITS,
    GP_SECURITY_BITS,
    GP_SECURITY_CATEGORY,
    GP_MAX_SIZE,
    GP_MANDATORY_DIGEST,
    GP_PUB,
    GP_PRIV,
    GP_SEED,
    GP_NONE
};

static const struct {
    const char *name;
    unsigned id;
} get_param_names[] = {
    {OSSL_PKEY_PARAM_BITS, GP_BITS},
    {OSSL_PKEY_PARAM_SECURITY_BITS, GP_SECURITY_BITS},
    {OSSL_PKEY_PARAM_SECURITY_CATEGORY, GP_SECURITY_CATEGORY},
    {OSSL_PKEY_PARAM_MAX_SIZE, GP_MAX_SIZE},
    {OSSL_PKEY_PARAM_MANDATORY_DIGEST, GP_MANDATORY_DIGEST},
    {OSSL_PKEY_PARAM_PUB_KEY, GP_PUB},
    {OSSL_PKEY_PARAM_PRIV_KEY, GP_PRIV},
    {OSSL_PKEY_PARAM_ML_DSA_SEED, GP_SEED},
};

/* The GP_* of a requested name, GP_NONE if it is not one of them: the
 * first byte rules out most names before a strcmp. */
static unsigned get_param_id(const char *key) {
    for (size_t i = 0; i < sizeof(get_param_names) / sizeof(get_param_names[0]); i++) {
        const char *name = get_param_names[i].name;
        if (key[0] == name[0] && strcmp(key, name) == 0)
            return get_param_names[i].id;
    }
    return GP_NONE;
}

/* One pass over the request, each name served at its first occurrence
 * only (the one OSSL_PARAM_locate finds), where one OSSL_PARAM_locate per
 * name walked the request eight times: OpenSSL asks for three of them
 * after every key generation (the key-info cache), which cost ~1,200
 * instructions per key that way.  The key parts only when the key has
 * them. */
static int mldsa_get_params(void *keydata, OSSL_PARAM params[]) {
    const quill_prov_mldsa_key *k = keydata;
    if (k == NULL)
        return 0;
    if (params == NULL)
        return 1;
    const quill_mldsa_set set = k->alg->set;
    const quill_mldsa_key *key = k->key;
    unsigned served = 0;
    for (OSSL_PARAM *p = params; p->key != NULL; p++) {
        const unsigned id = get_param_id(p->key);
        if (id == GP_NONE || (served >> id & 1) != 0)
            continue;
        served |= 1u << id;
        int ok = 1;
        switch (id) {
        case GP_BITS: /* 8 * |pk| as in OpenSSL 3.5 (10496, 15616, 20736) */
            ok = OSSL_PARAM_set_int(p, (int)(8 * quill_mldsa_pub_bytes(set)));
            break;
        case GP_SECURITY_BITS:
            ok = OSSL_PARAM_set_int(p, (int)quill_mldsa_security_bits(set));
            break;
        case GP_SECURITY_CATEGORY:
            ok = OSSL_PARAM_set_int(p, security_category(set));
            break;
        case GP_MAX_SIZE:
            ok = OSSL_PARAM_set_int(p, (int)quill_mldsa_sig_bytes(set));
            break;
        case GP_MANDATORY_DIGEST:
            /* Empty: OpenSSL 3.0's EVP_DigestSignInit then passes no
             * digest to digest_sign_init (ML-DSA hashes the message
             * itself). */
            ok = OSSL_PARAM_set_utf8_string(p, "");
            break;
        case GP_PUB:
            if (key != NULL)
                ok = OSSL_PARAM_set_octet_string(p, quill_mldsa_key_pub(key),
                                                 quill_mldsa_pub_bytes(set));
            break;
        case GP_PRIV:
            if (key != NULL && quill_mldsa_key_has_private(key))
                ok = OSSL_PARAM_set_octet_string(p, quill_mldsa_key_priv(key),
                                                 quill_mldsa_priv_bytes(set));
            break;
        default: /* GP_SEED */
            if (key != NULL && quill_mldsa_key_has_seed(key))
                ok = OSSL_PARAM_set_octet_string(p, quill_mldsa_key_seed(key),
                                                 QUILL_MLDSA_SEED_BYTES);
            break;
        }
        if (!ok)
            return 0;
    }
    return 1;
}

static const OSSL_PARAM gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_CATEGORY, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *mldsa_gettable_params(void *provctx) {
    return gettable;
}

/* ---- Key generation ---- */

typedef struct mldsa_gen_ctx {
    quill_provctx *prov;
    quill_mldsa_set set;
    int selection;
    int has_seed;
    uint8_t seed[QUILL_MLDSA_SEED_BYTES]; /* secret */
} mldsa_gen_ctx;

static void *gen_init(void *provctx, quill_mldsa_set set, int selection,
                      const OSSL_PARAM params[]) {
    mldsa_gen_ctx *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    g->prov = provctx;
    g->set = set;
    g->selection = selection;
    if (!mldsa_gen_set_params(g, params)) {
        mldsa_gen_cleanup(g);
        return NULL;
    }
    return g;
}

/* "seed": the 32-byte xi of ML-DSA.KeyGen_internal (secret; for known-answer
 * tests and for keys regenerated from a stored seed). */
static int mldsa_gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    mldsa_gen_ctx *g = genctx;
    const OSSL_PARAM *p;
    if (g == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ML_DSA_SEED)) != NULL) {
        const void *v = NULL;
        size_t len = 0;
        if (!quill_param_get_octets(p, &v, &len)) {
            QUILL_RAISE_MSG(g->prov, QUILL_R_BAD_PARAMETER, "seed is not an octet string");
            return 0;
        }
        if (len != QUILL_MLDSA_SEED_BYTES) {
            QUILL_RAISE_MSG(g->prov, quill_prov_core_reason(QUILL_ERR_KEY_LENGTH),
                            "seed of %zu bytes", len);
            return 0;
        }
        memcpy(g->seed, v, QUILL_MLDSA_SEED_BYTES);
        g->has_seed = 1;
    }
    return 1;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *mldsa_gen_settable_params(void *genctx, void *provctx) {
    return gen_settable;
}

/* Generates from the seed set, or from 32 bytes of the provider's private
 * DRBG.  Without key parts selected, the result is an empty key of the set
 * (as OpenSSL 3.5). */
static void *mldsa_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    mldsa_gen_ctx *g = genctx;
    if (g == NULL)
        return NULL;
    quill_prov_mldsa_key *k = quill_prov_mldsa_key_new(g->prov, g->set);
    if (k == NULL || (g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return k;
    uint8_t seed[QUILL_MLDSA_SEED_BYTES];
    quill_err err = QUILL_OK;
    if (g->has_seed) {
        memcpy(seed, g->seed, sizeof(seed));
    } else {
        quill_rng rng = quill_prov_rng_private(g->prov);
        if (!rng.fill(rng.arg, seed, sizeof(seed)))
            err = QUILL_ERR_RNG;
    }
    if (err == QUILL_OK)
        err = quill_mldsa_key_from_seed(&k->key, g->set, seed);
    quill_zeroize(seed, sizeof(seed));
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(g->prov, err);
        quill_prov_mldsa_key_free(k);
        return NULL;
    }
    quill_stats_add(&g->prov->stats, QUILL_STAT_MLDSA_KEYGEN);
    return k;
}

static void mldsa_gen_cleanup(void *genctx) {
    mldsa_gen_ctx *g = genctx;
    if (g == NULL)
        return;
    quill_zeroize(g, sizeof(*g));
    OPENSSL_free(g);
}

/* load takes over a key object a quill decoder made: |reference| holds a
 * quill_prov_mldsa_key pointer (OSSL_OBJECT_PARAM_REFERENCE, size
 * sizeof(pointer)), which is cleared so that the decoder does not free
 * it.  A key of another set is refused. */
static void *load(const void *reference, size_t reference_sz, quill_mldsa_set set) {
    if (reference == NULL || reference_sz != sizeof(quill_prov_mldsa_key *))
        return NULL;
    quill_prov_mldsa_key **ref = (quill_prov_mldsa_key **)reference;
    quill_prov_mldsa_key *k = *ref;
    if (k == NULL || k->alg->set != set)
        return NULL;
    *ref = NULL;
    return k;
}

/* The per-set entry points and dispatch tables. */
#define MLDSA_KEYMGMT(NN)                                                                    \
    static OSSL_FUNC_keymgmt_new_fn mldsa##NN##_new;                                         \
    static OSSL_FUNC_keymgmt_gen_init_fn mldsa##NN##_gen_init;                               \
    static OSSL_FUNC_keymgmt_load_fn mldsa##NN##_load;                                       \
    static void *mldsa##NN##_new(void *provctx) {                                            \
        return quill_prov_mldsa_key_new(provctx, QUILL_MLDSA_##NN);                          \
    }                                                                                        \
    static void *mldsa##NN##_gen_init(void *provctx, int selection,                          \
                                      const OSSL_PARAM params[]) {                           \
        return gen_init(provctx, QUILL_MLDSA_##NN, selection, params);                       \
    }                                                                                        \
    static void *mldsa##NN##_load(const void *reference, size_t reference_sz) {              \
        return load(reference, reference_sz, QUILL_MLDSA_##NN);                              \
    }                                                                                        \
    const OSSL_DISPATCH quill_mldsa##NN##_keymgmt_functions[] = {                            \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))mldsa##NN##_new},                            \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))mldsa_free},                                \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))mldsa_has},                                  \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))mldsa_match},                              \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))mldsa_validate},                        \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))mldsa_import},                            \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))mldsa_import_types},                \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))mldsa_export},                            \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))mldsa_export_types},                \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))mldsa_dup},                                  \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))mldsa_get_params},                    \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))mldsa_gettable_params},          \
        {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))mldsa##NN##_load},                          \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))mldsa##NN##_gen_init},                  \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))mldsa_gen_set_params},            \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))mldsa_gen_settable_params},  \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))mldsa_gen},                                  \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))mldsa_gen_cleanup},                  \
        {0, NULL},                                                                           \
    }

MLDSA_KEYMGMT(44);
MLDSA_KEYMGMT(65);
MLDSA_KEYMGMT(87);
