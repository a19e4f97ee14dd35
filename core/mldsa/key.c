/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  The ML-DSA key object: allocation, the lazy
 * precomputation of NTT(t1 2^d), public keys, dup, free and accessors (the
 * signing precomputation is in keygen.c, beside the private keys). */
#include "key.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "ntt.h"
#include "pack.h"
#include "reduce.h"
#include "sample.h"

/* The key structure and A-hat in one block (one allocation and free per
 * key instead of two), from quill_malloc: A-hat at the first multiple of 32
 * bytes past the structure, found from the block's address (the structure
 * itself needs no more than malloc's alignment), with up to 31 bytes of
 * slack. */
quill_mldsa_key *quill_mldsa_key_alloc(const quill_mldsa_params *p) {
    _Static_assert(_Alignof(quill_mldsa_key) <= _Alignof(max_align_t),
                   "quill_mldsa_key_alloc takes the key structure from quill_malloc");
    quill_mldsa_key *key =
        quill_malloc(sizeof(*key) + 31 + (size_t)p->k * p->l * sizeof(quill_mldsa_poly));
    if (key == NULL)
        return NULL;
    /* Zero all but pub and priv (7.5 KiB of the 7.9): every constructor
     * writes the p->pub_bytes (and, with a private key, p->priv_bytes) of
     * them that are ever read.  The three ranges below rely on the field
     * order of key.h, which the assertion pins. */
    _Static_assert(offsetof(quill_mldsa_key, tr) ==
                           offsetof(quill_mldsa_key, pub) + QUILL_MLDSA_MAX_PUB_BYTES &&
                       offsetof(quill_mldsa_key, priv) > offsetof(quill_mldsa_key, tr) &&
                       offsetof(quill_mldsa_key, a_hat) >=
                           offsetof(quill_mldsa_key, priv) + QUILL_MLDSA_MAX_PRIV_BYTES,
                   "quill_mldsa_key_alloc zeroes everything but pub and priv by offsets");
    memset(key, 0, offsetof(quill_mldsa_key, pub));
    memset(key->tr, 0, offsetof(quill_mldsa_key, priv) - offsetof(quill_mldsa_key, tr));
    memset(&key->a_hat, 0, sizeof(*key) - offsetof(quill_mldsa_key, a_hat));
    uint8_t *end = (uint8_t *)(key + 1);
    key->a_hat = (quill_mldsa_poly *)(void *)(end + ((32 - ((uintptr_t)end & 31)) & 31));
    key->p = p;
    atomic_init(&key->t1_hat, NULL);
    atomic_init(&key->sign_hat, NULL);
    return key;
}

void quill_mldsa_key_finish_public(quill_mldsa_key *key) {
    quill_shake256(key->tr, QUILL_MLDSA_TR_BYTES, key->pub, key->p->pub_bytes);
}

const void *quill_mldsa_key_publish(_Atomic(void *) *slot, void *fresh, size_t len) {
    void *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    quill_zeroize(fresh, len);
    quill_free(fresh);
    return expected;
}

const quill_mldsa_poly *quill_mldsa_key_t1_hat(const quill_mldsa_key *key) {
    /* The lazy fields are the only ones written through a const key. */
    quill_mldsa_key *k = (quill_mldsa_key *)key;
    const quill_mldsa_poly *done = atomic_load_explicit(&k->t1_hat, memory_order_acquire);
    if (done != NULL)
        return done;
    const quill_mldsa_params *p = key->p;
    quill_mldsa_poly *t1_hat = quill_aligned_alloc(32, p->k * sizeof(quill_mldsa_poly));
    if (t1_hat == NULL)
        return NULL;
    uint8_t rho[32];
    quill_mldsa_unpack_pk(rho, t1_hat, key->pub, p);
    for (unsigned i = 0; i < p->k; i++) {
        quill_mldsa_poly *t = &t1_hat[i];
        quill_mldsa_poly_shiftl(t);
        for (unsigned j = 0; j < QUILL_MLDSA_N; j++)
            t->c[j] = -t->c[j];
        quill_mldsa_poly_ntt(t);    /* |in| < 2^23, |out| < 2^23 + 8q */
        quill_mldsa_poly_freeze(t); /* [0, q), as dot_mont's a side */
    }
    return quill_mldsa_key_publish(&k->t1_hat, t1_hat, p->k * sizeof(quill_mldsa_poly));
}

quill_err quill_mldsa_key_from_pub(quill_mldsa_key **out, quill_mldsa_set set, const uint8_t *pub,
                                   size_t len) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    if (out == NULL || p == NULL || pub == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (len != p->pub_bytes)
        return QUILL_ERR_KEY_LENGTH;
    quill_mldsa_key *key = quill_mldsa_key_alloc(p);
    if (key == NULL)
        return QUILL_ERR_MEMORY;
    memcpy(key->pub, pub, len);
    memcpy(key->rho, pub, sizeof(key->rho)); /* pkEncode starts with rho */
    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    quill_mldsa_key_finish_public(key);
    *out = key;
    return QUILL_OK;
}

quill_err quill_mldsa_key_dup(quill_mldsa_key **out, const quill_mldsa_key *key,
                              int with_private) {
    if (out == NULL || key == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    with_private = with_private && key->has_private;
    quill_mldsa_key *d = quill_mldsa_key_alloc(key->p);
    if (d == NULL)
        return QUILL_ERR_MEMORY;
    memcpy(d->pub, key->pub, key->p->pub_bytes);
    memcpy(d->tr, key->tr, sizeof(d->tr));
    memcpy(d->rho, key->rho, sizeof(d->rho));
    memcpy(d->a_hat, key->a_hat, (size_t)key->p->k * key->p->l * sizeof(quill_mldsa_poly));
    if (with_private) {
        d->has_private = 1;
        d->has_seed = key->has_seed;
        memcpy(d->seed, key->seed, sizeof(d->seed));
        memcpy(d->key, key->key, sizeof(d->key));
        memcpy(d->priv, key->priv, key->p->priv_bytes);
    }
    /* The lazy blocks are made again if the copy needs them. */
    *out = d;
    return QUILL_OK;
}

void quill_mldsa_key_free(quill_mldsa_key *key) {
    if (key == NULL)
        return;
    const quill_mldsa_params *p = key->p;
    void *sign_hat = atomic_load_explicit(&key->sign_hat, memory_order_acquire);
    if (sign_hat != NULL) {
        quill_zeroize(sign_hat, 2u * p->k * sizeof(quill_mldsa_pair16));
        quill_free(sign_hat);
    }
    quill_free(atomic_load_explicit(&key->t1_hat, memory_order_acquire));
    /* The secrets only: xi, K and the encoded private key (its first
     * p->priv_bytes, all that is ever written).  pub, tr, rho and the
     * pointers are public. */
    quill_zeroize(key->seed, sizeof(key->seed));
    quill_zeroize(key->key, sizeof(key->key));
    quill_zeroize(key->priv, p->priv_bytes);
    quill_free(key); /* and A-hat with it (quill_mldsa_key_alloc) */
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
