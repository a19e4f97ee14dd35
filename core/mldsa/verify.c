/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA.Verify_internal (FIPS 204, Algorithm 8) on mu, with A-hat and
 * NTT(-t1 2^d) taken from the key (key.h).  Everything is public: variable
 * time. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/endian.h"
#include "key.h"
#include "ntt.h"
#include "pack.h"
#include "rounding.h"
#include "sample.h"
#include "sha3/sha3_x4.h"

/* The workspace: 17.5 KiB (sized for ML-DSA-87), on the stack (everything in it is
 * public, nothing to wipe). */
typedef struct verify_tmp {
    /* z[0..l-1] = NTT(z), z[l] = NTT(c): consecutive, dot_mont's b side;
     * once every dot product is made, w1 (k <= l + 1 in every set) */
    quill_mldsa_poly z[QUILL_MLDSA_L_MAX + 1], w[QUILL_MLDSA_K_MAX];
    uint8_t w1buf[QUILL_MLDSA_K_MAX * 32 * 6];
} verify_tmp;

/* verify_core checks sig (of the set's length) against mu.  ball is
 * SampleInBall's first block of SHAKE256(c~) with ball_k its sponge after
 * it, or NULL (then made here). */
static quill_err verify_core(const quill_mldsa_key *key, const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                             const uint8_t *sig, const uint8_t *ball, quill_keccak *ball_k) {
    const quill_mldsa_params *p = key->p;
    const quill_mldsa_poly *t1_hat = quill_mldsa_key_t1_hat(key);
    if (t1_hat == NULL)
        return QUILL_ERR_MEMORY;
    _Alignas(32) verify_tmp tmp;
    verify_tmp *v = &tmp;
    quill_err ret = QUILL_ERR_BAD_SIGNATURE;
    uint8_t ctilde2[QUILL_MLDSA_CTILDE_MAX];
    /* sigDecode (Algorithm 27): c~, then l z polynomials, then the hints,
     * read in place (never expanded) and checked as they are applied
     * (quill_mldsa_use_hints_public, below). */
    const uint8_t *ctilde = sig;
    const uint8_t *hint = sig + p->ctilde_bytes + 32u * (p->gamma1_bits + 1) * p->l;
    /* ||z|| < gamma1 - beta, checked as z is unpacked (the result is false
     * either way). */
    for (unsigned i = 0; i < p->l; i++)
        if (quill_mldsa_poly_unpack_z_norm_public(
                &v->z[i], sig + p->ctilde_bytes + 32u * (p->gamma1_bits + 1) * i, p,
                p->gamma1 - (int32_t)p->beta))
            goto out;

    quill_mldsa_poly *c = &v->z[p->l];
    if (ball != NULL)
        quill_mldsa_sample_in_ball_block_public(c, ball, ball_k, p);
    else
        quill_mldsa_sample_in_ball_public(c, ctilde, p);
    for (unsigned i = 0; i <= p->l; i++)
        quill_mldsa_poly_ntt(&v->z[i]); /* |z| <= gamma1 = 2^19, |c| <= 1: out < 9q */
    /* w'Approx = NTT^-1(A-hat o NTT(z) + NTT(c) o NTT(-t1 2^d)): l + 1
     * pairs of [0, q) times (-9q, 9q), as dot_mont takes, the last one
     * (NTT(-t1_i 2^d), NTT(c)) with its a side from the key's t1_hat (no
     * second copy of A-hat beside it), two rows per pass over NTT(z) (k
     * is even in every set); out (-q, q). */
    for (unsigned i = 0; i < p->k; i += 2)
        quill_mldsa_dot_mont_x2_tail(v->w[i].c, v->w[i + 1].c, key->a_hat[i * p->l].c,
                                     key->a_hat[(i + 1) * p->l].c, t1_hat[i].c,
                                     t1_hat[i + 1].c, v->z[0].c, p->l);
    /* w1' = UseHint(h, w'Approx) (Algorithm 40): HighBits everywhere, then
     * the hinted coefficients (at most omega in all) redone one by one,
     * once the hint encoding is checked (HintBitUnpack's checks, made here
     * rather than first: a malformed signature costs a whole verification,
     * and a valid one no extra pass). */
    _Static_assert(QUILL_MLDSA_K_MAX <= QUILL_MLDSA_L_MAX + 1, "w1 fits in z");
    quill_mldsa_poly *w1 = v->z; /* k <= l + 1: 4 <= 5, 6 <= 6, 8 <= 8 */
    for (unsigned i = 0; i < p->k; i++) /* w in [0, q), as UseHint needs, and its HighBits */
        quill_mldsa_invntt_freeze_highbits(v->w[i].c, w1[i].c, p->gamma2);
    if (!quill_mldsa_use_hints_public(w1, v->w, hint, p))
        goto out;
    size_t w1len = quill_mldsa_pack_w1(v->w1buf, w1, p);
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, mu, QUILL_MLDSA_MU_BYTES);
    quill_keccak_absorb(&k, v->w1buf, w1len);
    quill_keccak_squeeze(&k, ctilde2, p->ctilde_bytes);
    if (memcmp(ctilde, ctilde2, p->ctilde_bytes) == 0)
        ret = QUILL_OK;
out:
    return ret;
}

quill_err quill_mldsa_verify_mu(const quill_mldsa_key *key, const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                                const uint8_t *sig, size_t sig_len) {
    if (key == NULL || mu == NULL || (sig == NULL && sig_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (sig_len != key->p->sig_bytes)
        return QUILL_ERR_SIG_LENGTH;
    return verify_core(key, mu, sig, NULL, NULL);
}

/* With a wide four-way permutation, mu's last permutation (instance 0)
 * and SampleInBall's first (instance 1, SHAKE256(c~): c~ is at most 64
 * bytes, one block) are one call: 503 against 2 x 502 TSC ticks on Zen 4
 * with AVX-512VL (mldsa_kernels).  Otherwise mu is finished as usual. */
quill_err quill_mldsa_verify_mu_sponge(const quill_mldsa_key *key, quill_mldsa_mu *m,
                                       const uint8_t *sig, size_t sig_len) {
    if (key == NULL || m == NULL || (sig == NULL && sig_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    const quill_mldsa_params *p = key->p;
    uint8_t mu[QUILL_MLDSA_MU_BYTES];
    if (sig_len != p->sig_bytes || !quill_keccak_f1600_x4_wide()) {
        quill_mldsa_mu_final(m, mu);
        return quill_mldsa_verify_mu(key, mu, sig, sig_len);
    }
    quill_keccak_x4 x;
    quill_keccak_pad_only(&m->k);
    for (unsigned i = 0; i < 25; i++) { /* instances 2 and 3 unused, zeroed */
        x.s[4 * i] = m->k.s[i];
        x.s[4 * i + 2] = x.s[4 * i + 3] = 0;
    }
    quill_keccak_x4_inst_start(&x, 1, sig, p->ctilde_bytes, QUILL_SHAKE256_RATE);
    x.rate = QUILL_SHAKE256_RATE;
    x.n = 2;
    quill_keccak_f1600_x4_some(x.s, 2);
    uint8_t ball[QUILL_SHAKE256_RATE];
    for (unsigned i = 0; i < QUILL_MLDSA_MU_BYTES / 8; i++)
        quill_store_le64(mu + 8 * i, x.s[4 * i]);
    for (unsigned i = 0; i < QUILL_SHAKE256_RATE / 8; i++)
        quill_store_le64(ball + 8 * i, x.s[4 * i + 1]);
    quill_keccak ball_k;
    quill_keccak_x4_inst_sponge(&x, 1, QUILL_SHAKE256_RATE, &ball_k);
    return verify_core(key, mu, sig, ball, &ball_k);
}
