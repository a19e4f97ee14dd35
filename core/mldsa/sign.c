/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA.Sign_internal (FIPS 204, Algorithm 7) on mu, with A-hat and the
 * 16-bit NTT forms of s1, s2 and t0 taken from the key (key.h, ntt16.h).
 *
 * Constant time: every iteration computes all four rejection conditions
 * (||z|| >= gamma1 - beta, ||r0|| >= gamma2 - beta, ||c t0|| >= gamma2, more
 * than omega hints) over every coefficient, ORs them into one mask, and
 * declassifies only that accept bit; so the loop leaks its iteration count
 * and nothing about which condition failed.  c~, z and h are declassified
 * once accepted (they are the signature).  Every secret temporary lives in
 * one heap workspace that is wiped before it is freed. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/ct.h"
#include "common/zeroize.h"
#include "key.h"
#include "mask.h"
#include "ntt.h"
#include "ntt16.h"
#include "pack.h"
#include "reduce.h"
#include "rounding.h"
#include "sample.h"
#include "sign_row.h"

/* FIPS 204 lets an implementation bound the loop (the probability of more
 * than 1000 iterations is far below 2^-256 for every set); past it signing
 * fails with QUILL_ERR_INTERNAL rather than looping. */
#define SIGN_MAX_ITERATIONS 1000

/* ExpandMask's polynomials form one stream (attempt i uses numbers
 * i l .. i l + l - 1), made on the four-way Keccak; where that permutation
 * is wide, its instance 0 computes each attempt's c~ and SampleInBall's
 * first block in between (mask.h). */
typedef struct sign_tmp {
    /* rows l.. and k.. of these stay unused (sign_tmp_wipe) */
    /* z holds NTT(y) until the products A-hat o NTT(y) are done, then z:
     * one secret array fewer to fill and wipe (row i of z is written only
     * after the last product has read all of NTT(y)) */
    quill_mldsa_poly z[QUILL_MLDSA_L_MAX];
    quill_mldsa_poly w0[QUILL_MLDSA_K_MAX], w1[QUILL_MLDSA_K_MAX];
    quill_mldsa_poly h[QUILL_MLDSA_K_MAX];
    /* from here on wiped whole */
    quill_mldsa_poly w[2]; /* of the current two rows */
    quill_mldsa_poly row_ws[2]; /* quill_mldsa_sign_row's workspace */
    _Alignas(32) int8_t c[QUILL_MLDSA_N]; /* SampleInBall(c~) */
    quill_mldsa_chal16 chat; /* NTT16(c), prepared for the products c s */
    quill_mldsa_mask mask;
    uint8_t rhopp[QUILL_MLDSA_CRH_BYTES];
    uint8_t ctilde[QUILL_MLDSA_CTILDE_MAX];
    uint8_t hin[QUILL_MLDSA_MU_BYTES + QUILL_MLDSA_K_MAX * 32 * 6]; /* mu || w1Encode(w1) */
    uint8_t block[QUILL_SHAKE256_RATE];
    quill_keccak k;
} sign_tmp;

/* One attempt at kappa: fills s->ctilde, s->z, s->h and returns all-ones if
 * they form an acceptable signature (still secret). */
static quill_word attempt(const quill_mldsa_key *key, const quill_mldsa_pair16 *sign_hat,
                          unsigned kappa, sign_tmp *s) {
    const quill_mldsa_params *p = key->p;
    const quill_mldsa_pair16 *s_hat = sign_hat, *t0_hat = sign_hat + p->k;
    quill_word bad = 0;

    /* y = ExpandMask(rho'', kappa); w = NTT^-1(A-hat o NTT(y)); w1 = HighBits(w)
     * (NTT(y) in s->z, which the rows below overwrite with z) */
    const quill_mldsa_poly *y[QUILL_MLDSA_L_MAX];
    quill_mldsa_mask_release(&s->mask, kappa);
    for (unsigned r = 0; r < p->l; r++) {
        y[r] = quill_mldsa_mask_get(&s->mask, kappa + r);
        quill_mldsa_ntt_from(s->z[r].c, y[r]->c);
    }
    for (unsigned i = 0; i < p->k; i += 2) {
        /* rows i and i + 1 share the loads of NTT(y) (k is even in every
         * set; an odd last row would go alone) */
        const unsigned rows = i + 1 < p->k ? 2 : 1;
        if (rows == 2)
            quill_mldsa_dot_mont_x2(s->w[0].c, s->w[1].c, key->a_hat[i * p->l].c,
                                    key->a_hat[(i + 1) * p->l].c, s->z[0].c, p->l);
        else
            quill_mldsa_dot_mont(s->w[0].c, key->a_hat[i * p->l].c, s->z[0].c, p->l);
        for (unsigned h = 0; h < rows; h++) {
            quill_mldsa_invntt_tomont_freeze(s->w[h].c);
            quill_mldsa_poly_decompose(&s->w1[i + h], &s->w0[i + h], &s->w[h], p->gamma2);
        }
    }

    /* c~ = H(mu || w1Encode(w1), lambda / 4); c = SampleInBall(c~), both
     * hashes beside the next attempt's mask polynomials */
    size_t w1len = quill_mldsa_pack_w1(s->hin + QUILL_MLDSA_MU_BYTES, s->w1, p);
    quill_mldsa_mask_shake256(&s->mask, s->hin, QUILL_MLDSA_MU_BYTES + w1len, s->block, NULL);
    memcpy(s->ctilde, s->block, p->ctilde_bytes);
    quill_mldsa_mask_shake256(&s->mask, s->ctilde, p->ctilde_bytes, s->block, &s->k);
    quill_mldsa_sample_in_ball_block_i8(s->c, s->block, &s->k, p);
    quill_mldsa_mulc16_prepare_i8(&s->chat, s->c);

    /* Row by row (sign_row.h): c s1, c s2 and c t0, z = y + c s1 with
     * ||z|| < gamma1 - beta for the first l rows, the checks of r0 and
     * c t0 and the hints.  At most omega hints in all. */
    uint32_t ones = 0;
    for (unsigned i = 0; i < p->k; i++) {
        const quill_mldsa_sign_row_in in = {
            .chat = &s->chat,
            .s_hat = &s_hat[i],
            .t0_hat = &t0_hat[i],
            .y = i < p->l ? y[i] : NULL,
            .w0 = &s->w0[i],
            .w1 = &s->w1[i],
        };
        bad |= quill_mldsa_sign_row(i < p->l ? &s->z[i] : NULL, &s->h[i], &in, s->row_ws, p, &ones);
    }
    bad |= (quill_word)0 - (quill_word)(((uint32_t)p->omega - ones) >> 31);
    return ~bad;
}

/* Wipes what signing with set p wrote: the first l or k polynomials of
 * the per-row arrays (the rest are never touched), the mask stream's
 * context as far as it was used (quill_mldsa_mask_wipe), mu ||
 * w1Encode(w1) as long as set p makes it, and all else whole.  ML-DSA-44
 * leaves 15 of the 58 KiB untouched, ML-DSA-65 8, and up to 12 more
 * when an early attempt is accepted (unused slots of the mask ring).
 * After an accepted attempt (every attempt writes all of z, h, w1, c~
 * and mu || w1Encode(w1), so they hold only its values) those are public:
 * z, h and c~ are the signature, w1 = UseHint(h, A z - c t1 2^d) is what
 * every verifier recomputes from it, and mu is the verifier's too; only
 * the rest is wiped then (ML-DSA-44: 12.9 KiB fewer, ~280 TSC ticks of
 * rep stosb). */
static void sign_tmp_wipe(sign_tmp *s, const quill_mldsa_params *p, int accepted) {
    const size_t lb = p->l * sizeof(quill_mldsa_poly), kb = p->k * sizeof(quill_mldsa_poly);
    if (!accepted) {
        quill_zeroize(s->z, lb);
        quill_zeroize(s->w1, kb);
        quill_zeroize(s->h, kb);
        quill_zeroize(s->ctilde, sizeof(s->ctilde));
        quill_zeroize(s->hin, QUILL_MLDSA_MU_BYTES + 32u * p->k * p->w1_bits);
    }
    quill_zeroize(s->w0, kb);
    quill_zeroize(s->w, offsetof(sign_tmp, mask) - offsetof(sign_tmp, w));
    quill_mldsa_mask_wipe(&s->mask);
    quill_zeroize(s->rhopp, offsetof(sign_tmp, ctilde) - offsetof(sign_tmp, rhopp));
    quill_zeroize(s->block, sizeof(*s) - offsetof(sign_tmp, block));
}

quill_err quill_mldsa_sign_mu(const quill_mldsa_key *key, const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                              const uint8_t rnd[QUILL_MLDSA_RND_BYTES], uint8_t *sig,
                              size_t sig_cap) {
    if (key == NULL || mu == NULL || rnd == NULL || sig == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!key->has_private)
        return QUILL_ERR_KEY_MISSING_PRIVATE;
    const quill_mldsa_params *p = key->p;
    if (sig_cap < p->sig_bytes)
        return QUILL_ERR_BUFFER_TOO_SMALL;
    const quill_mldsa_pair16 *sign_hat = quill_mldsa_key_sign_hat(key);
    sign_tmp *s = sign_hat != NULL ? quill_aligned_alloc(32, sizeof(sign_tmp)) : NULL;
    if (s == NULL)
        return QUILL_ERR_MEMORY;

    /* rho'' = H(K || rnd || mu, 64) */
    uint8_t rnd_copy[QUILL_MLDSA_RND_BYTES];
    memcpy(rnd_copy, rnd, sizeof(rnd_copy));
    QUILL_CT_SECRET(rnd_copy, sizeof(rnd_copy));
    quill_shake256_init(&s->k);
    quill_keccak_absorb(&s->k, key->key, 32);
    quill_keccak_absorb(&s->k, rnd_copy, sizeof(rnd_copy));
    quill_keccak_absorb(&s->k, mu, QUILL_MLDSA_MU_BYTES);
    quill_keccak_squeeze(&s->k, s->rhopp, QUILL_MLDSA_CRH_BYTES);
    quill_zeroize(rnd_copy, sizeof(rnd_copy));
    quill_mldsa_mask_init(&s->mask, s->rhopp, p);
    memcpy(s->hin, mu, QUILL_MLDSA_MU_BYTES);

    quill_err ret = QUILL_ERR_INTERNAL;
    for (unsigned it = 0; it < SIGN_MAX_ITERATIONS; it++) {
        quill_word ok = attempt(key, sign_hat, it * p->l, s);
        if (quill_ct_declassify_w(ok)) {
            QUILL_CT_DECLASSIFY(s->ctilde, p->ctilde_bytes);
            QUILL_CT_DECLASSIFY(s->z, sizeof(quill_mldsa_poly) * p->l);
            QUILL_CT_DECLASSIFY(s->h, sizeof(quill_mldsa_poly) * p->k);
            quill_mldsa_pack_sig(sig, s->ctilde, s->z, s->h, p);
            ret = QUILL_OK;
            break;
        }
    }
    sign_tmp_wipe(s, p, ret == QUILL_OK);
    quill_free(s);
    return ret;
}
