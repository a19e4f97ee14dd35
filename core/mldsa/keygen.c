/* Copyright quill authors.
 *
 * Private keys: ML-DSA.KeyGen_internal (FIPS 204, Algorithm 6) from a seed,
 * and the decoding and checking of an expanded private key. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/ct.h"
#include "common/zeroize.h"
#include "key.h"
#include "pack.h"
#include "reduce.h"
#include "rounding.h"
#include "sample.h"

/* 2^9 * 2^32 mod q, centred (2^9: the shift of s2 in u = s1 + 2^9 s2). */
#define U_FACTOR 1834752

/* Secret temporaries of both constructors, wiped together. */
typedef struct keygen_tmp {
    quill_mldsa_poly s1[QUILL_MLDSA_L_MAX], s2[QUILL_MLDSA_K_MAX], s1_hat[QUILL_MLDSA_L_MAX];
    quill_mldsa_poly t[QUILL_MLDSA_K_MAX], t0[QUILL_MLDSA_K_MAX], t1[QUILL_MLDSA_K_MAX];
    uint8_t rhop[QUILL_MLDSA_CRH_BYTES];
    uint8_t tr[QUILL_MLDSA_TR_BYTES];
    uint8_t priv[QUILL_MLDSA_MAX_PRIV_BYTES];
} keygen_tmp;

/* From s1, s2 (in tmp) and key->a_hat: NTT(s1), t, (t1, t0), pk and tr.
 * t1 and the public key are declassified. */
static void derive_rest(quill_mldsa_key *key, keygen_tmp *tmp) {
    const quill_mldsa_params *p = key->p;
    for (unsigned i = 0; i < p->l; i++) {
        tmp->s1_hat[i] = tmp->s1[i];
        quill_mldsa_poly_ntt(&tmp->s1_hat[i]);
        quill_mldsa_poly_reduce32(&tmp->s1_hat[i]);
    }
    quill_mldsa_compute_t(tmp->t, key->a_hat, tmp->s1_hat, tmp->s2, p);
    for (unsigned i = 0; i < p->k; i++)
        quill_mldsa_poly_power2round(&tmp->t1[i], &tmp->t0[i], &tmp->t[i]);
    QUILL_CT_DECLASSIFY(tmp->t1, sizeof(quill_mldsa_poly) * p->k);
    quill_mldsa_pack_pk(key->pub, key->rho, tmp->t1, p);
    quill_mldsa_key_finish_public(key);
}

/* NTT(a) reduced to |.| < q.  In: |a_i| < 2^23. */
static void ntt_reduced(quill_mldsa_poly *a) {
    quill_mldsa_poly_ntt(a);
    quill_mldsa_poly_reduce32(a);
}

const quill_mldsa_poly *quill_mldsa_key_sign_hat(const quill_mldsa_key *key) {
    /* The lazy fields are the only ones written through a const key. */
    quill_mldsa_key *k = (quill_mldsa_key *)key;
    const quill_mldsa_poly *done = atomic_load_explicit(&k->sign_hat, memory_order_acquire);
    if (done != NULL)
        return done;
    const quill_mldsa_params *p = key->p;
    size_t n = (size_t)p->l + 2u * p->k;
    quill_mldsa_poly *hat = aligned_alloc(32, n * sizeof(quill_mldsa_poly));
    keygen_tmp *tmp = aligned_alloc(32, sizeof(*tmp));
    if (hat == NULL || tmp == NULL) {
        free(hat);
        free(tmp);
        return NULL;
    }
    quill_mldsa_poly *u_hat = hat, *s2_hat = hat + p->l, *t0_hat = s2_hat + p->k;
    /* The key was checked when it was made: the range mask is not needed. */
    uint8_t rho[32], kk[32];
    (void)quill_mldsa_unpack_sk(rho, kk, tmp->tr, tmp->s1, s2_hat, t0_hat, key->priv, p);
    for (unsigned i = 0; i < p->k; i++) {
        ntt_reduced(&s2_hat[i]);
        ntt_reduced(&t0_hat[i]);
    }
    /* u_hat = NTT(s1 + 2^9 s2) = s1_hat + 2^9 s2_hat: the Montgomery product
     * with 2^9 2^32 mod q (centred) is 2^9 s2_hat in (-q, q); the sum is
     * below 2q and reduce32 brings it within +-6283009. */
    for (unsigned i = 0; i < p->l; i++) {
        u_hat[i] = tmp->s1[i];
        ntt_reduced(&u_hat[i]);
        for (unsigned j = 0; j < QUILL_MLDSA_N; j++)
            u_hat[i].c[j] += quill_mldsa_mont_mul(s2_hat[i].c[j], U_FACTOR);
        quill_mldsa_poly_reduce32(&u_hat[i]);
    }
    quill_zeroize(kk, sizeof(kk));
    quill_zeroize(tmp, sizeof(*tmp));
    free(tmp);
    /* Signing releases nothing of these but the signature. */
    return quill_mldsa_key_publish(&k->sign_hat, hat, n);
}

quill_err quill_mldsa_key_from_seed(quill_mldsa_key **out, quill_mldsa_set set,
                                    const uint8_t seed[QUILL_MLDSA_SEED_BYTES]) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    if (out == NULL || p == NULL || seed == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_mldsa_key *key = quill_mldsa_key_alloc(p);
    keygen_tmp *tmp = aligned_alloc(32, sizeof(*tmp)); /* polys are 32-aligned */
    if (key == NULL || tmp == NULL) {
        quill_mldsa_key_free(key);
        free(tmp);
        return QUILL_ERR_MEMORY;
    }
    memcpy(key->seed, seed, QUILL_MLDSA_SEED_BYTES);
    QUILL_CT_SECRET(key->seed, QUILL_MLDSA_SEED_BYTES);
    key->has_private = key->has_seed = 1;

    /* (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128) */
    uint8_t in[QUILL_MLDSA_SEED_BYTES + 2], h[128];
    memcpy(in, key->seed, QUILL_MLDSA_SEED_BYTES);
    in[QUILL_MLDSA_SEED_BYTES] = (uint8_t)p->k;
    in[QUILL_MLDSA_SEED_BYTES + 1] = (uint8_t)p->l;
    quill_shake256(h, sizeof(h), in, sizeof(in));
    memcpy(key->rho, h, 32);
    QUILL_CT_DECLASSIFY(key->rho, 32); /* part of the public key */
    memcpy(tmp->rhop, h + 32, QUILL_MLDSA_CRH_BYTES);
    memcpy(key->key, h + 96, 32);
    quill_zeroize(in, sizeof(in));
    quill_zeroize(h, sizeof(h));

    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    quill_mldsa_expand_s(tmp->s1, tmp->s2, tmp->rhop, p);
    derive_rest(key, tmp);
    quill_mldsa_pack_sk(key->priv, key->rho, key->key, key->tr, tmp->s1, tmp->s2, tmp->t0, p);

    quill_zeroize(tmp, sizeof(*tmp));
    free(tmp);
    *out = key;
    return QUILL_OK;
}

quill_err quill_mldsa_key_from_priv(quill_mldsa_key **out, quill_mldsa_set set,
                                    const uint8_t *priv, size_t len) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    if (out == NULL || p == NULL || priv == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (len != p->priv_bytes)
        return QUILL_ERR_KEY_LENGTH;
    quill_mldsa_key *key = quill_mldsa_key_alloc(p);
    keygen_tmp *tmp = aligned_alloc(32, sizeof(*tmp)); /* polys are 32-aligned */
    if (key == NULL || tmp == NULL) {
        quill_mldsa_key_free(key);
        free(tmp);
        return QUILL_ERR_MEMORY;
    }
    memcpy(key->priv, priv, len);
    QUILL_CT_SECRET(key->priv, len);
    key->has_private = 1;

    /* skDecode, then everything recomputed from rho, s1 and s2: the key is
     * accepted only if s1 and s2 are in range and re-encoding with the
     * recomputed tr and t0 gives back the input. */
    quill_word bad = quill_mldsa_unpack_sk(key->rho, key->key, tmp->tr, tmp->s1, tmp->s2,
                                           tmp->t0, key->priv, p);
    QUILL_CT_DECLASSIFY(key->rho, 32); /* part of the public key */
    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    derive_rest(key, tmp);
    quill_mldsa_pack_sk(tmp->priv, key->rho, key->key, key->tr, tmp->s1, tmp->s2, tmp->t0, p);
    quill_word ok = quill_ct_memeq_mask(tmp->priv, key->priv, len) & ~bad;
    ok = quill_ct_declassify_w(ok);

    quill_zeroize(tmp, sizeof(*tmp));
    free(tmp);
    if (!ok) {
        quill_mldsa_key_free(key);
        return QUILL_ERR_KEY_CHECK;
    }
    *out = key;
    return QUILL_OK;
}
