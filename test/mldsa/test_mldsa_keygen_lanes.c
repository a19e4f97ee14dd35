/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Key generation on the four-way lanes (core/mldsa/keygen_lanes.c, where
 * the four-way Keccak is wide) against the sequential path (ExpandA whole,
 * t, pkEncode, then H(pk) on the scalar sponge, as keygen.c does elsewhere
 * and as quill_mldsa_key_from_priv recomputes): for 300 random seeds per
 * set, quill_mldsa_keygen_lanes called directly on the key's rho, NTT(s1)
 * and s2 must give the same A-hat, public key, tr and t0 encoding as the
 * sequential computation, and quill_mldsa_key_from_seed's key must be
 * accepted by quill_mldsa_key_from_priv (which recomputes tr and t0
 * sequentially and refuses any difference) with an equal public key and
 * A-hat; a direct call with rho' (ExpandS in the lanes too) must also
 * give ExpandS's s1 (as NTT(s1)) and s2 and skEncode's s1 and s2 part.
 * The direct calls exercise the lane scheduler whatever the CPU
 * (quill_mldsa_key_from_seed uses it only where keygen.c's use_lanes
 * says so); the _avx2 and _portable copies run it on the AVX2 and the
 * portable four-way permutation and parsers. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "mldsa/key.h"
#include "mldsa/mldsa.h"
#include "mldsa/pack.h"
#include "mldsa/rounding.h"
#include "mldsa/sample.h"
#include "sha3/sha3_x4.h"
#include "mldsa_ref.h"
#include "test_util.h"

#define SEEDS 300

/* Direct comparison on one key: the lanes against the sequential steps. */
static void direct(const quill_mldsa_key *key) {
    const quill_mldsa_params *p = key->p;
    static _Alignas(32) quill_mldsa_poly s1[QUILL_MLDSA_L_MAX], s2[QUILL_MLDSA_K_MAX];
    static _Alignas(32) quill_mldsa_poly t[QUILL_MLDSA_K_MAX], t1[QUILL_MLDSA_K_MAX];
    static _Alignas(32) quill_mldsa_poly t0[QUILL_MLDSA_K_MAX], scratch[3];
    static uint8_t pk[QUILL_MLDSA_MAX_PUB_BYTES], tr[64];
    uint8_t rho[32], kk[32], tr_sk[64];
    quill_mldsa_key *lk = quill_mldsa_key_alloc(p);
    QT_CHECK(lk != NULL);
    if (lk == NULL)
        return;
    (void)quill_mldsa_unpack_sk(rho, kk, tr_sk, s1, s2, t0, key->priv, p);
    memcpy(lk->rho, rho, 32);
    for (unsigned i = 0; i < p->l; i++) {
        quill_mldsa_poly_ntt(&s1[i]);
        quill_mldsa_poly_reduce32(&s1[i]);
    }
    quill_mldsa_keygen_lanes(lk, NULL, s1, s2, scratch);

    /* The sequential steps (keygen.c's other path). */
    quill_mldsa_poly *a = quill_aligned_alloc(32, (size_t)p->k * p->l * sizeof(*a));
    QT_CHECK(a != NULL);
    if (a == NULL) {
        quill_mldsa_key_free(lk);
        return;
    }
    quill_mldsa_expand_a(a, rho, p);
    mdt_compute_t(t, a, s1, s2, p);
    for (unsigned i = 0; i < p->k; i++)
        mdt_poly_power2round(&t1[i], &t0[i], &t[i]);
    quill_mldsa_pack_pk(pk, rho, t1, p);
    quill_shake256(tr, 64, pk, p->pub_bytes);

    QT_CHECK(memcmp(lk->a_hat, a, (size_t)p->k * p->l * sizeof(*a)) == 0);
    QT_CHECK(memcmp(lk->pub, pk, p->pub_bytes) == 0);
    QT_CHECK(memcmp(lk->tr, tr, 64) == 0 && memcmp(tr, tr_sk, 64) == 0);
    uint8_t *t0_enc = lk->priv + QUILL_MLDSA_SK_T0_OFFSET(p);
    QT_CHECK(memcmp(t0_enc, key->priv + QUILL_MLDSA_SK_T0_OFFSET(p),
                    p->k * QUILL_MLDSA_T0_BYTES) == 0);

    /* With rho', ExpandS runs in the lanes too: s1's and s2's encodings,
     * s2, NTT(s1) (frozen to compare: the lanes leave it unreduced) and
     * everything above as the sequential path gives them. */
    static _Alignas(32) quill_mldsa_poly ls1[QUILL_MLDSA_L_MAX], ls2[QUILL_MLDSA_K_MAX];
    static _Alignas(32) quill_mldsa_poly es1[QUILL_MLDSA_L_MAX], es2[QUILL_MLDSA_K_MAX];
    uint8_t in[34], h[128];
    memcpy(in, key->seed, 32);
    in[32] = (uint8_t)p->k;
    in[33] = (uint8_t)p->l;
    quill_shake256(h, sizeof(h), in, sizeof(in));
    quill_mldsa_key *sk = quill_mldsa_key_alloc(p);
    QT_CHECK(sk != NULL);
    if (sk != NULL) {
        memcpy(sk->rho, rho, 32);
        /* t[0] and t[1] of the scratch held secrets: wiped on return
         * (key.h; keygen.c does not repeat it), whatever k. */
        memset(scratch, 0xa5, sizeof(scratch));
        quill_mldsa_keygen_lanes(sk, h + 32, ls1, ls2, scratch);
        static const quill_mldsa_poly zero[2];
        QT_CHECK(memcmp(scratch, zero, sizeof(zero)) == 0);
        quill_mldsa_expand_s(es1, es2, h + 32, p);
        static uint8_t sk_enc[QUILL_MLDSA_MAX_PRIV_BYTES];
        quill_mldsa_pack_sk_s(sk_enc, es1, es2, p);
        const size_t s_len = QUILL_MLDSA_SK_T0_OFFSET(p) - 128;
        QT_CHECK(memcmp(sk->priv + 128, sk_enc + 128, s_len) == 0);
        int s_ok = 1;
        for (unsigned i = 0; i < p->l; i++) {
            quill_mldsa_poly_ntt(&es1[i]);
            quill_mldsa_poly_freeze(&es1[i]);
            quill_mldsa_poly_freeze(&ls1[i]);
            s_ok &= memcmp(&es1[i], &ls1[i], sizeof(es1[i])) == 0;
        }
        QT_CHECK(s_ok);
        QT_CHECK(memcmp(ls2, es2, p->k * sizeof(es2[0])) == 0);
        QT_CHECK(memcmp(sk->a_hat, a, (size_t)p->k * p->l * sizeof(*a)) == 0);
        QT_CHECK(memcmp(sk->pub, pk, p->pub_bytes) == 0);
        QT_CHECK(memcmp(sk->tr, tr, 64) == 0);
        QT_CHECK(memcmp(sk->priv + QUILL_MLDSA_SK_T0_OFFSET(p),
                        key->priv + QUILL_MLDSA_SK_T0_OFFSET(p),
                        p->k * QUILL_MLDSA_T0_BYTES) == 0);
        quill_mldsa_key_free(sk);
    }
    quill_free(a);
    quill_mldsa_key_free(lk);
}

int main(void) {
    qt_rng_seed(0x6c616e6573ull);
    for (int s = 0; s < 3; s++) {
        quill_mldsa_set set = (quill_mldsa_set)s;
        const quill_mldsa_params *p = quill_mldsa_params_get(set);
        for (int n = 0; n < SEEDS; n++) {
            uint8_t seed[32];
            qt_rng_bytes(seed, sizeof(seed));
            quill_mldsa_key *key = NULL, *kp = NULL;
            QT_CHECK(quill_mldsa_key_from_seed(&key, set, seed) == QUILL_OK);
            if (key == NULL)
                continue;
            QT_CHECK(quill_mldsa_key_from_priv(&kp, set, key->priv, p->priv_bytes) == QUILL_OK);
            if (kp != NULL) {
                QT_CHECK(quill_mldsa_key_public_equal(key, kp));
                QT_CHECK(memcmp(key->a_hat, kp->a_hat,
                                (size_t)p->k * p->l * sizeof(quill_mldsa_poly)) == 0);
            }
            if (n < 50)
                direct(key);
            quill_mldsa_key_free(key);
            quill_mldsa_key_free(kp);
        }
    }
    printf("mldsa_keygen_lanes: %d seeds per set (four-way Keccak %s)\n", SEEDS,
           quill_keccak_f1600_x4_wide() ? "wide" : "portable");
    return qt_finish("mldsa_keygen_lanes");
}
