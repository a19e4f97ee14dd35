/* Copyright quill authors.  The ML-DSA key object: allocation, the public
 * precomputation, public keys, dup, free and accessors. */
#include "key.h"

#include <stdlib.h>
#include <string.h>

#include "common/zeroize.h"
#include "ntt.h"
#include "pack.h"
#include "reduce.h"
#include "sample.h"

quill_mldsa_key *quill_mldsa_key_alloc(const quill_mldsa_params *p, int with_private) {
    quill_mldsa_key *key = calloc(1, sizeof(*key));
    if (key == NULL)
        return NULL;
    size_t npub = (size_t)p->k * p->l + p->k;
    size_t nsec = with_private ? (size_t)p->l + 2u * p->k : 0;
    key->polys = aligned_alloc(32, (npub + nsec) * sizeof(quill_mldsa_poly));
    if (key->polys == NULL) {
        free(key);
        return NULL;
    }
    key->p = p;
    key->npolys = npub + nsec;
    key->nsecret = nsec;
    key->a_hat = key->polys;
    key->t1_hat = key->a_hat + (size_t)p->k * p->l;
    if (with_private) {
        key->u_hat = key->t1_hat + p->k;
        key->s2_hat = key->u_hat + p->l;
        key->t0_hat = key->s2_hat + p->k;
    }
    return key;
}

void quill_mldsa_key_finish_public(quill_mldsa_key *key, const quill_mldsa_poly *t1) {
    const quill_mldsa_params *p = key->p;
    quill_shake256(key->tr, QUILL_MLDSA_TR_BYTES, key->pub, p->pub_bytes);
    for (unsigned i = 0; i < p->k; i++) {
        key->t1_hat[i] = t1[i];
        quill_mldsa_poly_shiftl(&key->t1_hat[i]);
        quill_mldsa_poly_ntt(&key->t1_hat[i]); /* in < 2^23, out < 2^23 + 8q */
        quill_mldsa_poly_reduce32(&key->t1_hat[i]);
    }
}

void quill_mldsa_compute_t(quill_mldsa_poly *t, const quill_mldsa_poly *a_hat,
                           const quill_mldsa_poly *s1_hat, const quill_mldsa_poly *s2,
                           const quill_mldsa_params *p) {
    for (unsigned i = 0; i < p->k; i++) {
        quill_mldsa_poly_matvec_mont(&t[i], &a_hat[i * p->l], s1_hat, p->l);
        quill_mldsa_poly_invntt_tomont(&t[i]);
        quill_mldsa_poly_add(&t[i], &t[i], &s2[i]);
        quill_mldsa_poly_freeze(&t[i]);
    }
}

quill_err quill_mldsa_key_from_pub(quill_mldsa_key **out, quill_mldsa_set set, const uint8_t *pub,
                                   size_t len) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    if (out == NULL || p == NULL || pub == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (len != p->pub_bytes)
        return QUILL_ERR_KEY_LENGTH;
    quill_mldsa_key *key = quill_mldsa_key_alloc(p, 0);
    if (key == NULL)
        return QUILL_ERR_MEMORY;
    quill_mldsa_poly t1[QUILL_MLDSA_K_MAX];
    memcpy(key->pub, pub, len);
    quill_mldsa_unpack_pk(key->rho, t1, pub, p);
    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    quill_mldsa_key_finish_public(key, t1);
    *out = key;
    return QUILL_OK;
}

quill_err quill_mldsa_key_dup(quill_mldsa_key **out, const quill_mldsa_key *key,
                              int with_private) {
    if (out == NULL || key == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    with_private = with_private && key->has_private;
    quill_mldsa_key *d = quill_mldsa_key_alloc(key->p, with_private);
    if (d == NULL)
        return QUILL_ERR_MEMORY;
    memcpy(d->pub, key->pub, sizeof(d->pub));
    memcpy(d->tr, key->tr, sizeof(d->tr));
    memcpy(d->rho, key->rho, sizeof(d->rho));
    size_t npub = d->npolys - d->nsecret;
    memcpy(d->polys, key->polys, npub * sizeof(quill_mldsa_poly));
    if (with_private) {
        d->has_private = 1;
        d->has_seed = key->has_seed;
        memcpy(d->seed, key->seed, sizeof(d->seed));
        memcpy(d->key, key->key, sizeof(d->key));
        memcpy(d->priv, key->priv, sizeof(d->priv));
        memcpy(d->u_hat, key->u_hat, d->nsecret * sizeof(quill_mldsa_poly));
    }
    *out = d;
    return QUILL_OK;
}

void quill_mldsa_key_free(quill_mldsa_key *key) {
    if (key == NULL)
        return;
    if (key->polys != NULL) {
        quill_zeroize(key->polys + (key->npolys - key->nsecret),
                      key->nsecret * sizeof(quill_mldsa_poly));
        free(key->polys);
    }
    quill_zeroize(key, sizeof(*key));
    free(key);
}

quill_mldsa_set quill_mldsa_key_set(const quill_mldsa_key *key) {
    return key->p->set;
}

int quill_mldsa_key_has_private(const quill_mldsa_key *key) {
    return key != NULL && key->has_private;
}

int quill_mldsa_key_has_seed(const quill_mldsa_key *key) {
    return key != NULL && key->has_seed;
}

const uint8_t *quill_mldsa_key_pub(const quill_mldsa_key *key) {
    return key->pub;
}

const uint8_t *quill_mldsa_key_priv(const quill_mldsa_key *key) {
    return key->has_private ? key->priv : NULL;
}

const uint8_t *quill_mldsa_key_seed(const quill_mldsa_key *key) {
    return key->has_seed ? key->seed : NULL;
}

const uint8_t *quill_mldsa_key_tr(const quill_mldsa_key *key) {
    return key->tr;
}

int quill_mldsa_key_public_equal(const quill_mldsa_key *a, const quill_mldsa_key *b) {
    if (a == NULL || b == NULL || a->p != b->p)
        return 0;
    return memcmp(a->pub, b->pub, a->p->pub_bytes) == 0;
}
