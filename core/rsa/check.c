/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Full key validation (quill_rsa_key_check, used by the provider's
 * validate): SP 800-89 5.3.3-style checks of the public part (odd n of
 * supported size, no small factor, odd 3 <= e < n), and for a private key
 * with its factors: p and q probable primes, p * q == n,
 * d * e == 1 mod lcm(p - 1, q - 1), dp == d mod (p - 1), dq == d mod (q - 1),
 * qinv * q == 1 mod p; for every private key a pairwise sign/verify.
 * Secrets are compared with masks; only each verdict is declassified. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

quill_err quill_rsa_pairwise_test(const quill_rsa_key *key, const quill_rng *rng) {
    size_t k = key->bytes;
    uint8_t *buf = quill_malloc(3 * k);
    if (buf == NULL)
        return QUILL_ERR_MEMORY;
    uint8_t *x = buf, *s = buf + k, *back = buf + 2 * k;
    quill_err err = QUILL_OK;
    if (!rng->fill(rng->arg, x, k)) {
        err = QUILL_ERR_RNG;
        goto done;
    }
    x[0] = 0; /* below 2^(8(k - 1)) <= n */
    err = quill_rsa_private(key, s, x, k, rng);
    if (err == QUILL_ERR_FAULT_DETECTED) {
        err = QUILL_ERR_KEY_CHECK;
        goto done;
    }
    if (err != QUILL_OK)
        goto done;
    err = quill_rsa_public(key, back, s, k);
    if (err == QUILL_OK && memcmp(back, x, k) != 0)
        err = QUILL_ERR_KEY_CHECK;
    else if (err == QUILL_ERR_INPUT_RANGE)
        err = QUILL_ERR_KEY_CHECK;
done:
    quill_zeroize(buf, 3 * k);
    quill_free(buf);
    return err;
}

static quill_err check_public(const quill_rsa_key *key, const uint16_t *primes, size_t count) {
    if (key->bits < QUILL_RSA_MIN_BITS || key->bits > QUILL_RSA_MAX_BITS)
        return QUILL_ERR_KEY_SIZE;
    if ((key->n[0] & 1) == 0)
        return QUILL_ERR_MODULUS_EVEN;
    if ((key->e[0] & 1) == 0 || (key->el == 1 && key->e[0] < 3) || key->el > key->nl)
        return QUILL_ERR_BAD_EXPONENT;
    if (key->el == key->nl && !quill_bn_lt_mask(key->e, key->n, key->nl))
        return QUILL_ERR_BAD_EXPONENT;
    /* n public: a small factor is a plain failure. */
    if (!quill_rsa_trial_division_consttime(key->n, key->nl, primes, count))
        return QUILL_ERR_KEY_CHECK;
    return QUILL_OK;
}

/* A prime factor (the modulus of |mont|, secret) passes trial division and
 * Miller-Rabin. */
static quill_err check_prime(const quill_mont *mont, const uint16_t *primes, size_t count,
                             const quill_rng *rng) {
    size_t l = quill_mont_limbs(mont);
    const quill_limb *w = quill_mont_modulus(mont);
    size_t bits = quill_bn_num_bits_consttime(w, l);
    QUILL_CT_DECLASSIFY(&bits, sizeof(bits)); /* the size of a factor is public */
    if (bits < 16)
        return QUILL_ERR_KEY_CHECK;
    if (!quill_rsa_verdict(quill_rsa_trial_division_consttime(w, l, primes, count)))
        return QUILL_ERR_KEY_CHECK;
    int prime = 0;
    quill_err err = quill_rsa_miller_rabin(&prime, mont, bits, quill_rsa_mr_rounds(bits), rng);
    if (err != QUILL_OK)
        return err;
    return prime ? QUILL_OK : QUILL_ERR_KEY_CHECK;
}

typedef struct check_ws {
    quill_limb lambda[QUILL_BN_MAX_LIMBS], t[QUILL_BN_MAX_LIMBS], r[QUILL_BN_MAX_LIMBS];
    quill_limb one[QUILL_BN_MAX_LIMBS];
    quill_limb de[2 * QUILL_BN_MAX_LIMBS];
} check_ws;

/* The consistency of d and the CRT values with p and q. */
static quill_err check_crt(const quill_rsa_key *key, check_ws *w) {
    size_t nl = key->nl, pl = key->pl, ql = key->ql;
    memset(w->one, 0, sizeof(w->one));
    w->one[0] = 1;
    /* p * q == n. */
    memset(w->de, 0, sizeof(w->de));
    quill_bn_mul(w->de, key->p, pl, key->q, ql);
    quill_word ok = quill_bn_eq_mask(w->de, key->n, nl);
    if (pl + ql > nl)
        ok &= quill_bn_is_zero_mask(w->de + nl, pl + ql - nl);
    /* d * e == 1 mod lambda. */
    if (!quill_rsa_lambda_consttime(w->lambda, nl, key->p, pl, key->q, ql))
        return QUILL_ERR_MEMORY;
    memset(w->de, 0, sizeof(w->de));
    quill_bn_mul(w->de, key->d, nl, key->e, key->el);
    if (!quill_bn_divmod_consttime(NULL, w->r, w->de, nl + key->el, w->lambda, nl))
        return QUILL_ERR_MEMORY;
    ok &= quill_bn_eq_mask(w->r, w->one, nl);
    /* dp == d mod (p - 1), dq == d mod (q - 1). */
    memcpy(w->t, key->p, pl * sizeof(quill_limb));
    w->t[0] &= ~(quill_limb)1;
    if (!quill_bn_divmod_consttime(NULL, w->r, key->d, nl, w->t, pl))
        return QUILL_ERR_MEMORY;
    ok &= quill_bn_eq_mask(w->r, key->dp, pl);
    memcpy(w->t, key->q, ql * sizeof(quill_limb));
    w->t[0] &= ~(quill_limb)1;
    if (!quill_bn_divmod_consttime(NULL, w->r, key->d, nl, w->t, ql))
        return QUILL_ERR_MEMORY;
    ok &= quill_bn_eq_mask(w->r, key->dq, ql);
    /* qinv * q == 1 mod p. */
    quill_bn_mod_consttime(w->t, key->q, ql, key->mont_p);
    quill_mont_mul(w->t, w->t, key->qinv_mont, key->mont_p);
    ok &= quill_bn_eq_mask(w->t, w->one, pl);
    return quill_rsa_verdict(ok) ? QUILL_OK : QUILL_ERR_KEY_CHECK;
}

quill_err quill_rsa_key_check_public(const quill_rsa_key *key) {
    if (key == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    uint16_t primes[QUILL_RSA_TRIAL_MAX];
    size_t count = quill_rsa_small_primes(primes, QUILL_ARRAY_LEN(primes));
    return check_public(key, primes, count);
}

quill_err quill_rsa_key_check(const quill_rsa_key *key, const quill_rng *rng) {
    if (key == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    uint16_t primes[QUILL_RSA_TRIAL_MAX];
    size_t count = quill_rsa_small_primes(primes, QUILL_ARRAY_LEN(primes));
    quill_err err = check_public(key, primes, count);
    if (err != QUILL_OK || !key->has_private)
        return err;
    if (rng == NULL || rng->fill == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (key->has_crt) {
        if ((err = check_prime(key->mont_p, primes, count, rng)) != QUILL_OK ||
            (err = check_prime(key->mont_q, primes, count, rng)) != QUILL_OK)
            return err;
        check_ws *w = quill_malloc(sizeof(*w));
        if (w == NULL)
            return QUILL_ERR_MEMORY;
        err = check_crt(key, w);
        quill_zeroize(w, sizeof(*w));
        quill_free(w);
        if (err != QUILL_OK)
            return err;
    }
    return quill_rsa_pairwise_test(key, rng);
}
