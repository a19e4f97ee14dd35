/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA key object of mldsa_key.h: the table of parameter sets with
 * their names and OIDs, reference counting, and filling a key from a seed,
 * an expanded private key and/or a public key with the consistency rules
 * import and the decoders share. */
#include "mldsa_key.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "common/ct.h"
#include "prov_err.h"

/* DER contents of the OIDs 2.16.840.1.101.3.4.3.{17,18,19}: 2.16 packs into
 * 0x60 (40 * 2 + 16), 840 into 0x86 0x48, 101 into 0x65, then 3, 4, 3 and
 * the arc itself (17 = 0x11, 18 = 0x12, 19 = 0x13). */
static const uint8_t oid_44[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11};
static const uint8_t oid_65[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12};
static const uint8_t oid_87[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13};

static const quill_mldsa_alg algs[] = {
    {QUILL_MLDSA_44, "ML-DSA-44", "id-ml-dsa-44", "MLDSA44", "2.16.840.1.101.3.4.3.17", oid_44,
     sizeof(oid_44)},
    {QUILL_MLDSA_65, "ML-DSA-65", "id-ml-dsa-65", "MLDSA65", "2.16.840.1.101.3.4.3.18", oid_65,
     sizeof(oid_65)},
    {QUILL_MLDSA_87, "ML-DSA-87", "id-ml-dsa-87", "MLDSA87", "2.16.840.1.101.3.4.3.19", oid_87,
     sizeof(oid_87)},
};

const quill_mldsa_alg *quill_mldsa_alg_get(quill_mldsa_set set) {
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
        if (algs[i].set == set)
            return &algs[i];
    return NULL;
}

const quill_mldsa_alg *quill_mldsa_alg_by_name(const char *name) {
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
        const quill_mldsa_alg *a = &algs[i];
        if (OPENSSL_strcasecmp(name, a->name) == 0 || OPENSSL_strcasecmp(name, a->sn) == 0 ||
            OPENSSL_strcasecmp(name, a->alias) == 0 || OPENSSL_strcasecmp(name, a->oid) == 0)
            return a;
    }
    return NULL;
}

quill_prov_mldsa_key *quill_prov_mldsa_key_new(quill_provctx *prov, quill_mldsa_set set) {
    const quill_mldsa_alg *alg = quill_mldsa_alg_get(set);
    if (alg == NULL) {
        QUILL_RAISE_CORE(prov, QUILL_ERR_INVALID_ARGUMENT);
        return NULL;
    }
    quill_prov_mldsa_key *k = quill_key_obj_alloc(prov, sizeof(*k));
    if (k == NULL)
        return NULL;
    k->prov = prov;
    k->alg = alg;
    quill_key_ref_init(&k->refs);
    return k;
}

void quill_prov_mldsa_key_up_ref(quill_prov_mldsa_key *k) {
    quill_key_ref_up(&k->refs);
}

void quill_prov_mldsa_key_free(quill_prov_mldsa_key *k) {
    if (k == NULL || !quill_key_ref_down(&k->refs))
        return;
    quill_mldsa_key_free(k->key); /* zeroises the secrets */
    OPENSSL_free(k);
}

/* Checks the optional public key |pub| against the one |key| holds:
 * QUILL_R_PUBLIC_MISMATCH (raised) if it differs.  Public data: memcmp. */
static int check_pub(const quill_prov_mldsa_key *k, const quill_mldsa_key *key,
                     const uint8_t *pub, size_t pub_len) {
    if (pub == NULL)
        return 1;
    size_t want = quill_mldsa_pub_bytes(k->alg->set);
    if (pub_len != want) {
        QUILL_RAISE_CORE(k->prov, QUILL_ERR_KEY_LENGTH);
        return 0;
    }
    if (memcmp(pub, quill_mldsa_key_pub(key), want) != 0) {
        QUILL_RAISE(k->prov, QUILL_R_PUBLIC_MISMATCH);
        return 0;
    }
    return 1;
}

int quill_prov_mldsa_key_set_parts(quill_prov_mldsa_key *k, const uint8_t *seed, size_t seed_len,
                                   const uint8_t *priv, size_t priv_len, const uint8_t *pub,
                                   size_t pub_len) {
    if (k == NULL)
        return 0;
    if (k->key != NULL) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_NOT_SUPPORTED, "ML-DSA key already set");
        return 0;
    }
    quill_mldsa_set set = k->alg->set;
    quill_mldsa_key *key = NULL;
    quill_err err;
    if (seed != NULL) {
        if (seed_len != QUILL_MLDSA_SEED_BYTES) {
            QUILL_RAISE_MSG(k->prov, quill_prov_core_reason(QUILL_ERR_KEY_LENGTH),
                            "seed of %zu bytes", seed_len);
            return 0;
        }
        err = quill_mldsa_key_from_seed(&key, set, seed);
        if (err != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, err);
            return 0;
        }
        if (priv != NULL) {
            size_t want = quill_mldsa_priv_bytes(set);
            if (priv_len != want) {
                QUILL_RAISE_CORE(k->prov, QUILL_ERR_KEY_LENGTH);
                goto fail;
            }
            /* Both are secret: compared in constant time, and only the
             * verdict is made public. */
            int differ = CRYPTO_memcmp(priv, quill_mldsa_key_priv(key), want) != 0;
            QUILL_CT_DECLASSIFY(&differ, sizeof(differ));
            if (differ) {
                QUILL_RAISE(k->prov, QUILL_R_SEED_MISMATCH);
                goto fail;
            }
        }
    } else if (priv != NULL) {
        err = quill_mldsa_key_from_priv(&key, set, priv, priv_len);
        if (err != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, err);
            return 0;
        }
    } else if (pub != NULL) {
        err = quill_mldsa_key_from_pub(&key, set, pub, pub_len);
        if (err != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, err);
            return 0;
        }
        pub = NULL; /* nothing to compare it with */
    } else {
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "no ML-DSA seed or key");
        return 0;
    }
    if (!check_pub(k, key, pub, pub_len))
        goto fail;
    k->key = key;
    return 1;
fail:
    quill_mldsa_key_free(key);
    return 0;
}
