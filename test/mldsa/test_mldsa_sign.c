/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA core API beyond the vectors, for the three sets: sizes; keys from
 * a seed, from the expanded private key and from the public key agree;
 * deterministic signatures repeat, hedged ones (random rnd) differ and
 * verify; every single-bit change of a signature, a wrong mu or another
 * key is refused; pure and internal mu agree; dup with and without the
 * private part; private keys with a changed tr, t0 or an out-of-range s1/s2
 * are refused; argument errors. */
#include <stdlib.h>
#include <string.h>

#include "mldsa/mldsa.h"
#include "test_util.h"

static void sizes(void) {
    QT_CHECK(quill_mldsa_pub_bytes(QUILL_MLDSA_44) == 1312 &&
             quill_mldsa_priv_bytes(QUILL_MLDSA_44) == 2560 &&
             quill_mldsa_sig_bytes(QUILL_MLDSA_44) == 2420 &&
             quill_mldsa_security_bits(QUILL_MLDSA_44) == 128);
    QT_CHECK(quill_mldsa_pub_bytes(QUILL_MLDSA_65) == 1952 &&
             quill_mldsa_priv_bytes(QUILL_MLDSA_65) == 4032 &&
             quill_mldsa_sig_bytes(QUILL_MLDSA_65) == 3309 &&
             quill_mldsa_security_bits(QUILL_MLDSA_65) == 192);
    QT_CHECK(quill_mldsa_pub_bytes(QUILL_MLDSA_87) == 2592 &&
             quill_mldsa_priv_bytes(QUILL_MLDSA_87) == 4896 &&
             quill_mldsa_sig_bytes(QUILL_MLDSA_87) == 4627 &&
             quill_mldsa_security_bits(QUILL_MLDSA_87) == 256);
    QT_CHECK(quill_mldsa_pub_bytes((quill_mldsa_set)3) == 0 &&
             quill_mldsa_sig_bytes((quill_mldsa_set)-1) == 0 &&
             quill_mldsa_priv_bytes((quill_mldsa_set)3) == 0 &&
             quill_mldsa_security_bits((quill_mldsa_set)3) == 0);
}

static void mu_of(uint8_t mu[64], const quill_mldsa_key *key, const uint8_t *msg, size_t len) {
    quill_mldsa_mu m;
    QT_CHECK(quill_mldsa_mu_init_pure(&m, key, NULL, 0) == QUILL_OK);
    quill_mldsa_mu_update(&m, msg, len);
    quill_mldsa_mu_final(&m, mu);
}

static void one_set(quill_mldsa_set set) {
    const size_t pl = quill_mldsa_pub_bytes(set), kl = quill_mldsa_priv_bytes(set),
                 sl = quill_mldsa_sig_bytes(set);
    uint8_t seed[32], mu[64], mu2[64], rnd[32] = {0}, msg[100];
    uint8_t s1[QUILL_MLDSA_MAX_SIG_BYTES], s2[QUILL_MLDSA_MAX_SIG_BYTES], s3[QUILL_MLDSA_MAX_SIG_BYTES];
    uint8_t *priv = malloc(kl), *bad = malloc(kl);
    quill_mldsa_key *key = NULL, *kp = NULL, *pub = NULL, *other = NULL, *d0 = NULL, *d1 = NULL;
    qt_rng_bytes(seed, sizeof(seed));
    qt_rng_bytes(msg, sizeof(msg));
    QT_CHECK(quill_mldsa_key_from_seed(&key, set, seed) == QUILL_OK);
    seed[0] ^= 1;
    QT_CHECK(quill_mldsa_key_from_seed(&other, set, seed) == QUILL_OK);
    if (key == NULL || other == NULL || priv == NULL || bad == NULL)
        goto out;
    QT_CHECK(quill_mldsa_key_set(key) == set);
    QT_CHECK(quill_mldsa_key_has_private(key) && quill_mldsa_key_has_seed(key));
    memcpy(priv, quill_mldsa_key_priv(key), kl);
    QT_CHECK(quill_mldsa_key_from_priv(&kp, set, priv, kl) == QUILL_OK);
    QT_CHECK(quill_mldsa_key_from_pub(&pub, set, quill_mldsa_key_pub(key), pl) == QUILL_OK);
    if (kp == NULL || pub == NULL)
        goto out;
    QT_CHECK(quill_mldsa_key_has_private(kp) && !quill_mldsa_key_has_seed(kp) &&
             quill_mldsa_key_seed(kp) == NULL);
    QT_CHECK(!quill_mldsa_key_has_private(pub) && quill_mldsa_key_priv(pub) == NULL);
    QT_CHECK(quill_mldsa_key_public_equal(key, kp) && quill_mldsa_key_public_equal(key, pub));
    QT_CHECK(!quill_mldsa_key_public_equal(key, other));
    QT_CHECK(memcmp(quill_mldsa_key_tr(key), quill_mldsa_key_tr(pub), 64) == 0);
    QT_CHECK(memcmp(quill_mldsa_key_priv(key) + 64, quill_mldsa_key_tr(key), 64) == 0);

    /* pure mu = internal mu over 0 || 0 || M */
    mu_of(mu, key, msg, sizeof(msg));
    {
        quill_mldsa_mu m;
        const uint8_t prefix[2] = {0, 0};
        quill_mldsa_mu_init(&m, key);
        quill_mldsa_mu_update(&m, prefix, 2);
        quill_mldsa_mu_update(&m, msg, 37);
        quill_mldsa_mu_update(&m, msg + 37, sizeof(msg) - 37);
        quill_mldsa_mu_final(&m, mu2);
        QT_CHECK(memcmp(mu, mu2, 64) == 0);
        uint8_t ctx[256] = {0};
        QT_CHECK(quill_mldsa_mu_init_pure(&m, key, ctx, 256) == QUILL_ERR_CONTEXT_LENGTH);
        QT_CHECK(quill_mldsa_mu_init_pure(&m, key, ctx, 255) == QUILL_OK);
        quill_mldsa_mu_final(&m, mu2);
        QT_CHECK(memcmp(mu, mu2, 64) != 0);
    }

    /* deterministic: repeats, same from the expanded key; verifies */
    QT_CHECK(quill_mldsa_sign_mu(key, mu, rnd, s1, sl) == QUILL_OK);
    QT_CHECK(quill_mldsa_sign_mu(kp, mu, rnd, s2, sl) == QUILL_OK);
    QT_CHECK(memcmp(s1, s2, sl) == 0);
    QT_CHECK(quill_mldsa_verify_mu(pub, mu, s1, sl) == QUILL_OK);
    QT_CHECK(quill_mldsa_verify_mu(key, mu, s1, sl) == QUILL_OK);
    /* hedged: differs, verifies */
    for (int i = 0; i < 8; i++) {
        qt_rng_bytes(rnd, sizeof(rnd));
        QT_CHECK(quill_mldsa_sign_mu(key, mu, rnd, s3, sl) == QUILL_OK);
        QT_CHECK(memcmp(s1, s3, sl) != 0);
        QT_CHECK(quill_mldsa_verify_mu(pub, mu, s3, sl) == QUILL_OK);
        QT_CHECK(quill_mldsa_verify_mu(other, mu, s3, sl) == QUILL_ERR_BAD_SIGNATURE);
    }
    /* every bit of the c~ and hint parts and a sample of z, flipped */
    unsigned long refused = 0, tried = 0;
    for (size_t bit = 0; bit < 8 * sl; bit++) {
        size_t byte = bit / 8;
        int in_z = byte >= 64 && byte < sl - 100;
        if (in_z && qt_rng_u64() % 16 != 0)
            continue;
        memcpy(s2, s1, sl);
        s2[byte] ^= (uint8_t)(1u << (bit % 8));
        tried++;
        refused += quill_mldsa_verify_mu(pub, mu, s2, sl) == QUILL_ERR_BAD_SIGNATURE;
    }
    QT_CHECK(tried > 1000 && refused == tried);
    memcpy(mu2, mu, 64);
    mu2[63] ^= 0x80;
    QT_CHECK(quill_mldsa_verify_mu(pub, mu2, s1, sl) == QUILL_ERR_BAD_SIGNATURE);
    QT_CHECK(quill_mldsa_verify_mu(pub, mu, s1, sl - 1) == QUILL_ERR_SIG_LENGTH);
    QT_CHECK(quill_mldsa_verify_mu(pub, mu, s1, sl + 1) == QUILL_ERR_SIG_LENGTH);
    QT_CHECK(quill_mldsa_verify_mu(pub, mu, NULL, 0) == QUILL_ERR_SIG_LENGTH);

    /* dup */
    QT_CHECK(quill_mldsa_key_dup(&d0, key, 0) == QUILL_OK);
    QT_CHECK(quill_mldsa_key_dup(&d1, key, 1) == QUILL_OK);
    if (d0 != NULL && d1 != NULL) {
        QT_CHECK(!quill_mldsa_key_has_private(d0) && quill_mldsa_key_has_private(d1) &&
                 quill_mldsa_key_has_seed(d1));
        QT_CHECK(memcmp(quill_mldsa_key_seed(d1), quill_mldsa_key_seed(key), 32) == 0);
        QT_CHECK(quill_mldsa_key_public_equal(d0, key) && quill_mldsa_key_public_equal(d1, key));
        QT_CHECK(quill_mldsa_verify_mu(d0, mu, s1, sl) == QUILL_OK);
        memset(rnd, 0, sizeof(rnd));
        QT_CHECK(quill_mldsa_sign_mu(d1, mu, rnd, s2, sl) == QUILL_OK && memcmp(s1, s2, sl) == 0);
        QT_CHECK(quill_mldsa_sign_mu(d0, mu, rnd, s2, sl) == QUILL_ERR_KEY_MISSING_PRIVATE);
    }
    QT_CHECK(quill_mldsa_sign_mu(pub, mu, rnd, s2, sl) == QUILL_ERR_KEY_MISSING_PRIVATE);
    QT_CHECK(quill_mldsa_sign_mu(key, mu, rnd, s2, sl - 1) == QUILL_ERR_BUFFER_TOO_SMALL);
    QT_CHECK(quill_mldsa_sign_mu(NULL, mu, rnd, s2, sl) == QUILL_ERR_INVALID_ARGUMENT);

    /* private-key checks: tr, t0 (last byte), s1 out of range (first
     * coefficient set to all ones: 7 > 4 or 15 > 8) */
    quill_mldsa_key *k2 = (quill_mldsa_key *)1;
    memcpy(bad, priv, kl);
    bad[64 + 5] ^= 1;
    QT_CHECK(quill_mldsa_key_from_priv(&k2, set, bad, kl) == QUILL_ERR_KEY_CHECK);
    memcpy(bad, priv, kl);
    bad[kl - 1] ^= 0x10;
    QT_CHECK(quill_mldsa_key_from_priv(&k2, set, bad, kl) == QUILL_ERR_KEY_CHECK);
    memcpy(bad, priv, kl);
    bad[128] |= set == QUILL_MLDSA_65 ? 0x0f : 0x07;
    QT_CHECK(quill_mldsa_key_from_priv(&k2, set, bad, kl) == QUILL_ERR_KEY_CHECK);
    memcpy(bad, priv, kl); /* K is not checked (nothing to check it against) */
    bad[40] ^= 1;
    QT_CHECK(quill_mldsa_key_from_priv(&k2, set, bad, kl) == QUILL_OK);
    if (k2 != (quill_mldsa_key *)1) {
        QT_CHECK(quill_mldsa_sign_mu(k2, mu, rnd, s2, sl) == QUILL_OK && memcmp(s1, s2, sl) != 0);
        QT_CHECK(quill_mldsa_verify_mu(pub, mu, s2, sl) == QUILL_OK);
        quill_mldsa_key_free(k2);
    }
    k2 = (quill_mldsa_key *)1;
    QT_CHECK(quill_mldsa_key_from_priv(&k2, set, priv, kl - 1) == QUILL_ERR_KEY_LENGTH);
    QT_CHECK(quill_mldsa_key_from_pub(&k2, set, quill_mldsa_key_pub(key), pl + 1) ==
             QUILL_ERR_KEY_LENGTH);
    QT_CHECK(k2 == (quill_mldsa_key *)1); /* untouched on failure */
out:
    quill_mldsa_key_free(key);
    quill_mldsa_key_free(kp);
    quill_mldsa_key_free(pub);
    quill_mldsa_key_free(other);
    quill_mldsa_key_free(d0);
    quill_mldsa_key_free(d1);
    free(priv);
    free(bad);
}

int main(void) {
    qt_rng_seed(0x6d6c6473617369ull);
    sizes();
    quill_mldsa_key *k = NULL;
    uint8_t seed[32] = {0};
    QT_CHECK(quill_mldsa_key_from_seed(&k, (quill_mldsa_set)3, seed) == QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(quill_mldsa_key_from_seed(NULL, QUILL_MLDSA_44, seed) == QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(k == NULL);
    quill_mldsa_key_free(NULL);
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            one_set((quill_mldsa_set)s);
    return qt_finish("mldsa_sign");
}
