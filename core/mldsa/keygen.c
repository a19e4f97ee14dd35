/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Private keys: ML-DSA.KeyGen_internal (FIPS 204, Algorithm 6) from a seed,
 * and the decoding and checking of an expanded private key. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/ct.h"
#include "common/zeroize.h"
#include "key.h"
#include "pack.h"
#include "reduce.h"
#include "rounding.h"
#include "sample.h"
#include "sha3/keccak.h"
#include "sha3/sha3_x4.h"

/* Temporaries of both constructors.  s1 is transformed in place (its
 * encoding is written first, or, for an expanded key, is the input) and t
 * becomes t0 in place, so no copies of either are made.  Only the secret
 * part a set uses is wiped (keygen_tmp_wipe, or, in key generation from a
 * seed, only the part it wrote); t1 is public. */
typedef struct keygen_tmp {
    quill_mldsa_poly s1[QUILL_MLDSA_L_MAX]; /* s1, then NTT(s1) */
    quill_mldsa_poly s2[QUILL_MLDSA_K_MAX];
    quill_mldsa_poly t0[QUILL_MLDSA_K_MAX]; /* t, then t0 */
    quill_mldsa_poly t1[QUILL_MLDSA_K_MAX]; /* public */
    uint8_t tr[QUILL_MLDSA_TR_BYTES];                          /* of an expanded key */
    uint8_t t0_enc[QUILL_MLDSA_K_MAX * QUILL_MLDSA_T0_BYTES]; /* its t0, re-encoded */
} keygen_tmp;

static void keygen_tmp_wipe(keygen_tmp *tmp, const quill_mldsa_params *p) {
    quill_zeroize(tmp->s1, p->l * sizeof(quill_mldsa_poly));
    quill_zeroize(tmp->s2, p->k * sizeof(quill_mldsa_poly));
    quill_zeroize(tmp->t0, p->k * sizeof(quill_mldsa_poly));
    quill_zeroize(tmp->tr, sizeof(tmp->tr));
    quill_zeroize(tmp->t0_enc, p->k * QUILL_MLDSA_T0_BYTES);
}

/* NTT(s1) for the products with A-hat, not reduced: s1 (from ExpandS, or
 * decoded from an expanded key, |s1_i| <= 2^4 whether in range or not)
 * gives |NTT(s1)_i| < 2^4 + 8q < 9q (ntt.h), which is what
 * quill_mldsa_poly_matvec_mont takes.  A representative other than the
 * reduced one changes the products only by multiples of q, and t is
 * frozen to [0, q) after NTT^-1, so t, t1 and t0 are the same. */
static void ntt_s1(quill_mldsa_poly *a) {
    quill_mldsa_poly_ntt(a);
}

/* From s1, s2 (in tmp) and key->a_hat: NTT(s1) in place of s1, t, (t1, t0)
 * with t0 in place of t, pk and tr.  t1 and the public key are
 * declassified. */
static void derive_rest(quill_mldsa_key *key, keygen_tmp *tmp) {
    const quill_mldsa_params *p = key->p;
    for (unsigned i = 0; i < p->l; i++)
        ntt_s1(&tmp->s1[i]);
    /* t = NTT^-1(A-hat o NTT(s1)) + s2 (quill_mldsa_compute_t) and its
     * Power2Round, row by row: the sum of products into t0[i], then
     * NTT^-1, + s2, freeze and Power2Round in one pass (t0 in place). */
    for (unsigned i = 0; i < p->k; i++) {
        quill_mldsa_poly_matvec_mont(&tmp->t0[i], &key->a_hat[i * p->l], tmp->s1, p->l);
        quill_mldsa_invntt_power2round(tmp->t1[i].c, tmp->t0[i].c, tmp->s2[i].c);
    }
    QUILL_CT_DECLASSIFY(tmp->t1, sizeof(quill_mldsa_poly) * p->k);
    quill_mldsa_pack_pk(key->pub, key->rho, tmp->t1, p);
    quill_mldsa_key_finish_public(key);
}

const quill_mldsa_pair16 *quill_mldsa_key_sign_hat(const quill_mldsa_key *key) {
    /* The lazy fields are the only ones written through a const key. */
    quill_mldsa_key *k = (quill_mldsa_key *)key;
    const quill_mldsa_pair16 *done = atomic_load_explicit(&k->sign_hat, memory_order_acquire);
    if (done != NULL)
        return done;
    const quill_mldsa_params *p = key->p;
    size_t len = 2u * p->k * sizeof(quill_mldsa_pair16);
    quill_mldsa_pair16 *hat = quill_aligned_alloc(32, len);
    keygen_tmp *tmp = quill_aligned_alloc(32, sizeof(*tmp));
    if (hat == NULL || tmp == NULL) {
        quill_free(hat);
        quill_free(tmp);
        return NULL;
    }
    /* The key was checked when it was made: the range mask is not needed. */
    uint8_t rho[32], kk[32];
    (void)quill_mldsa_unpack_sk(rho, kk, tmp->tr, tmp->s1, tmp->s2, tmp->t0, key->priv, p);
    for (unsigned i = 0; i < p->k; i++) {
        quill_mldsa_pair16_set(&hat[i], i < p->l ? tmp->s1[i].c : tmp->s2[i].c,
                               i < p->l ? tmp->s2[i].c : NULL);
        quill_mldsa_ntt16(&hat[i]);
        quill_mldsa_pair16_split(&hat[p->k + i], tmp->t0[i].c, QUILL_MLDSA_T0_SPLIT);
        quill_mldsa_ntt16(&hat[p->k + i]);
    }
    quill_zeroize(kk, sizeof(kk));
    keygen_tmp_wipe(tmp, p);
    quill_free(tmp);
    /* Signing releases nothing of these but the signature. */
    return quill_mldsa_key_publish(&k->sign_hat, hat, len);
}

/* use_lanes says whether key generation runs ExpandS, ExpandA and H(pk)
 * together on the four-way lanes (keygen_lanes.c) rather than one after
 * the other: wherever the four-way permutation is wide.  The lanes take 7,
 * 12 and 16 of H's blocks (ML-DSA-44/65/87) off the scalar sponge and pack
 * ExpandS's streams (one or two blocks each) with ExpandA's, for about 30.4
 * / 51 / 85.5 permutations per key against 35 / 52 / 88 sequentially (24 /
 * 48 / 83 four-way calls and 11 / 4 / 5 single ones).  With AVX-512VL a
 * four-way call costs about one single permutation, so that always pays;
 * with AVX2 alone it costs about 1.5 (Zen 4: ~980 against ~665 TSC
 * ticks), and ML-DSA-44, which once measured 1.3% slower on the lanes, now
 * gains there too: 43.9k -> 42.5k ticks per key (quill-limits, AVX2
 * level), 266.4k -> 244.4k instructions (callgrind). */
static int use_lanes(const quill_mldsa_params *p) {
    (void)p;
    return quill_keccak_f1600_x4_wide();
}

/* The sequential path of key generation from a seed (where the four-way
 * permutation is not wide): ExpandS, skEncode's s1 and s2, ExpandA, t and
 * the rest, in tmp (heap); wipes what it wrote of tmp. */
static void from_seed_sequential(quill_mldsa_key *key, keygen_tmp *tmp, const uint8_t *rhop) {
    const quill_mldsa_params *p = key->p;
    quill_mldsa_expand_s(tmp->s1, tmp->s2, rhop, p);
    /* skEncode in pieces: s1 and s2 before s1 is transformed in place. */
    quill_mldsa_pack_sk_s(key->priv, tmp->s1, tmp->s2, p);
    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    derive_rest(key, tmp);
    quill_mldsa_pack_sk_t0(key->priv, tmp->t0, p);
    /* s1 (then NTT(s1)), s2 and t (then t0); tmp->tr and tmp->t0_enc
     * are not written here, and t1 is public. */
    quill_zeroize(tmp->s1, p->l * sizeof(quill_mldsa_poly));
    quill_zeroize(tmp->s2, p->k * sizeof(quill_mldsa_poly));
    quill_zeroize(tmp->t0, p->k * sizeof(quill_mldsa_poly));
}

/* The workspace of key generation on the lanes: NTT(s1), s2 and three
 * polynomials of scratch for quill_mldsa_keygen_lanes, 18 KiB at most
 * (ML-DSA-87), on the stack as verification's is (a heap block of this
 * size cost an allocation, a free and, with the key's blocks around it,
 * often a consolidation of the allocator's free lists per key). */
typedef struct keygen_lanes_tmp {
    quill_mldsa_poly s1_hat[QUILL_MLDSA_L_MAX];
    quill_mldsa_poly s2[QUILL_MLDSA_K_MAX];
    quill_mldsa_poly t[3];
} keygen_lanes_tmp;

quill_err quill_mldsa_key_from_seed(quill_mldsa_key **out, quill_mldsa_set set,
                                    const uint8_t seed[QUILL_MLDSA_SEED_BYTES]) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    if (out == NULL || p == NULL || seed == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    const int lanes = use_lanes(p);
    quill_mldsa_key *key = quill_mldsa_key_alloc(p);
    keygen_tmp *tmp = lanes || key == NULL ? NULL : quill_aligned_alloc(32, sizeof(*tmp));
    if (key == NULL || (!lanes && tmp == NULL)) {
        quill_mldsa_key_free(key);
        return QUILL_ERR_MEMORY;
    }
    memcpy(key->seed, seed, QUILL_MLDSA_SEED_BYTES);
    QUILL_CT_SECRET(key->seed, QUILL_MLDSA_SEED_BYTES);
    key->has_private = key->has_seed = 1;

    /* (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128):
     * rho' stays in h[32..95] until h is wiped. */
    uint8_t in[QUILL_MLDSA_SEED_BYTES + 2], h[128];
    memcpy(in, key->seed, QUILL_MLDSA_SEED_BYTES);
    in[QUILL_MLDSA_SEED_BYTES] = (uint8_t)p->k;
    in[QUILL_MLDSA_SEED_BYTES + 1] = (uint8_t)p->l;
    quill_shake256(h, sizeof(h), in, sizeof(in));
    memcpy(key->rho, h, 32);
    QUILL_CT_DECLASSIFY(key->rho, 32); /* part of the public key */
    memcpy(key->key, h + 96, 32);
    quill_zeroize(in, sizeof(in));

    if (lanes) {
        /* s1, s2 and their encodings, A-hat, t, pk, t0's encoding and tr,
         * with ExpandS's streams and H(pk)'s blocks riding in the lanes of
         * ExpandA (keygen_lanes.c). */
        keygen_lanes_tmp w;
        quill_mldsa_keygen_lanes(key, h + 32, w.s1_hat, w.s2, w.t);
        /* What held secrets: NTT(s1) and s2 (the set's l and k of them);
         * quill_mldsa_keygen_lanes wiped w.t[0] and w.t[1] itself (w.t[2]:
         * t1). */
        quill_zeroize(w.s1_hat, p->l * sizeof(quill_mldsa_poly));
        quill_zeroize(w.s2, p->k * sizeof(quill_mldsa_poly));
    } else {
        from_seed_sequential(key, tmp, h + 32);
        quill_free(tmp);
    }
    quill_zeroize(h, sizeof(h));
    memcpy(key->priv, key->rho, 32);
    memcpy(key->priv + 32, key->key, 32);
    memcpy(key->priv + 64, key->tr, QUILL_MLDSA_TR_BYTES);
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
    keygen_tmp *tmp = quill_aligned_alloc(32, sizeof(*tmp)); /* polys are 32-aligned */
    if (key == NULL || tmp == NULL) {
        quill_mldsa_key_free(key);
        quill_free(tmp);
        return QUILL_ERR_MEMORY;
    }
    memcpy(key->priv, priv, len);
    QUILL_CT_SECRET(key->priv, len);
    key->has_private = 1;

    /* skDecode, then everything recomputed from rho, s1 and s2: the key is
     * accepted only if s1 and s2 are in range and re-encoding with the
     * recomputed tr and t0 gives back the input.  rho and K are copied, and
     * the encodings of s1 and s2 re-encode to themselves (pack.h), so the
     * comparison is of tr and t0 only. */
    memcpy(key->rho, key->priv, 32);
    memcpy(key->key, key->priv + 32, 32);
    memcpy(tmp->tr, key->priv + 64, QUILL_MLDSA_TR_BYTES);
    quill_word bad = quill_mldsa_unpack_sk_s(tmp->s1, tmp->s2, key->priv, p);
    QUILL_CT_DECLASSIFY(key->rho, 32); /* part of the public key */
    quill_mldsa_expand_a(key->a_hat, key->rho, p);
    derive_rest(key, tmp);
    for (unsigned i = 0; i < p->k; i++)
        quill_mldsa_poly_pack_t0(tmp->t0_enc + i * QUILL_MLDSA_T0_BYTES, &tmp->t0[i]);
    quill_word ok = quill_ct_memeq_mask(tmp->t0_enc, key->priv + QUILL_MLDSA_SK_T0_OFFSET(p),
                                        p->k * QUILL_MLDSA_T0_BYTES) &
                    quill_ct_memeq_mask(tmp->tr, key->tr, QUILL_MLDSA_TR_BYTES) & ~bad;
    ok = quill_ct_declassify_w(ok);

    keygen_tmp_wipe(tmp, p);
    quill_free(tmp);
    if (!ok) {
        quill_mldsa_key_free(key);
        return QUILL_ERR_KEY_CHECK;
    }
    *out = key;
    return QUILL_OK;
}
