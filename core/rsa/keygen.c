/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Key generation, FIPS 186-5 A.1.3 (random probable primes):
 *   - p and q of nlen/2 bits with their top two bits set (so each is
 *     >= 0.75 * 2^(nlen/2) > sqrt(2) * 2^(nlen/2 - 1), and p * q has
 *     exactly nlen bits), odd;
 *   - trial division, gcd(p - 1, e) = 1, Miller-Rabin (Table B.1 rounds);
 *   - |p - q| > 2^(nlen/2 - 100);
 *   - d = e^-1 mod lcm(p - 1, q - 1) with d > 2^(nlen/2), else start over;
 *   - dp, dq, qinv, and a pairwise test before the key is returned.
 * Each candidate is fresh randomness; a rejected candidate may show that it
 * was rejected, but no branch or index depends on an accepted prime.
 *
 * The FIPS range is nlen >= 2048 and e >= 65537.  Below it (nlen 512..2047
 * or 3 <= e < 65537) the same steps run for compatibility with what
 * OpenSSL's default provider generates; only the Miller-Rabin round count
 * differs (keygen_mr_rounds). */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* FIPS 186-5 A.1.3 caps the attempts at 5 (nlen/2) for p and 10 (nlen/2)
 * for q; d <= 2^(nlen/2) sends it back to the start (it practically never
 * happens), which we allow a few times. */
#define KEYGEN_P_ATTEMPTS_PER_BIT 5
#define KEYGEN_Q_ATTEMPTS_PER_BIT 10
#define KEYGEN_RESTARTS 4

/* e < 2^256 (FIPS 186-5 A.1.1): at most four limbs. */
#define E_MAX_LIMBS 4

/* Miller-Rabin rounds for OpenSSL 3.0 compatibility sizes: its minimum for
 * primes of up to 2048 bits (worst-case error 4^-64 = 2^-128). */
#define KEYGEN_COMPAT_MR_ROUNDS 64

/* The rounds for a prime of |pbits| bits in a key of |nlen| bits: FIPS
 * 186-5 Table B.1 (quill_rsa_mr_rounds) in the FIPS range, otherwise
 * KEYGEN_COMPAT_MR_ROUNDS (more than Table B.1 or FIPS 186-4 Table C.2
 * ask for any size, and at least what OpenSSL 3.0 uses). */
static size_t keygen_mr_rounds(size_t pbits, size_t nlen) {
    size_t fips = quill_rsa_mr_rounds(pbits);
    if (nlen >= QUILL_RSA_FIPS_MIN_BITS || fips >= KEYGEN_COMPAT_MR_ROUNDS)
        return fips;
    return KEYGEN_COMPAT_MR_ROUNDS;
}

typedef struct keygen_ws {
    quill_limb e[E_MAX_LIMBS];
    size_t el;
    quill_mont *mont_e;
    uint16_t primes[QUILL_RSA_TRIAL_MAX];
    size_t nprimes;
    quill_limb p[QUILL_BN_MAX_LIMBS], q[QUILL_BN_MAX_LIMBS], n[QUILL_BN_MAX_LIMBS];
    quill_limb d[QUILL_BN_MAX_LIMBS], dp[QUILL_BN_MAX_LIMBS], dq[QUILL_BN_MAX_LIMBS];
    quill_limb qinv[QUILL_BN_MAX_LIMBS], lambda[QUILL_BN_MAX_LIMBS];
    quill_limb t1[QUILL_BN_MAX_LIMBS], t2[QUILL_BN_MAX_LIMBS], t3[QUILL_BN_MAX_LIMBS];
    quill_limb prod[2 * QUILL_BN_MAX_LIMBS];
    uint8_t rand[QUILL_BN_MAX_LIMBS * 8];
} keygen_ws;

/* |a - b| > 2^k for a, b of n limbs (secret): all-ones if so. */
static quill_word far_apart(keygen_ws *w, const quill_limb *a, const quill_limb *b, size_t n,
                            size_t k) {
    quill_word neg = 0 - quill_bn_sub(w->t1, a, b, n);
    (void)quill_bn_sub(w->t2, b, a, n);
    quill_bn_select(w->t1, neg, w->t2, w->t1, n);
    memset(w->t2, 0, n * sizeof(quill_limb));
    w->t2[k / 64] = (quill_limb)1 << (k % 64);
    return quill_bn_lt_mask(w->t2, w->t1, n);
}

/* gen_prime draws |out| (bits bits, limbs(bits) limbs) per A.1.3 steps 4/5.
 * If |other| is given (the already generated p, other_l limbs), the new
 * prime must also satisfy |p - q| > 2^(nlen/2 - 100). */
static quill_err gen_prime(keygen_ws *w, quill_limb *out, size_t bits, size_t attempts,
                           const quill_limb *other, size_t other_l, size_t nlen,
                           const quill_rng *rng) {
    size_t l = QUILL_BN_LIMBS_FOR_BITS(bits), len = (bits + 7) / 8;
    size_t rounds = keygen_mr_rounds(bits, nlen);
    /* Trial division pays while a division costs less than the
     * Miller-Rabin work it saves: with one quill_bn_mod_u16 per prime and a
     * survival rate of about 1.12 / ln(B) for the bound B (Mertens), the
     * measured optimum is near B = 1024 for 1024-bit candidates and grows
     * with the size; primes below 2 * bits (at most 8192) stay close to it. */
    size_t trial = 0;
    while (trial < w->nprimes && w->primes[trial] < 2 * bits)
        trial++;
    for (size_t i = 0; i < attempts; i++) {
        if (!rng->fill(rng->arg, w->rand, len))
            return QUILL_ERR_RNG;
        QUILL_CT_SECRET(w->rand, len);
        if (!quill_bn_from_bytes_be(out, l, w->rand, len))
            return QUILL_ERR_INTERNAL;
        /* Keep bits bits, set the top two and the bottom one. */
        if (bits % 64 != 0)
            out[l - 1] &= ((quill_limb)1 << (bits % 64)) - 1;
        out[(bits - 1) / 64] |= (quill_limb)1 << ((bits - 1) % 64);
        out[(bits - 2) / 64] |= (quill_limb)1 << ((bits - 2) % 64);
        out[0] |= 1;

        if (!quill_rsa_verdict(quill_rsa_trial_division_consttime(out, l, w->primes, trial)))
            continue;
        /* gcd(cand - 1, e) = 1 <=> cand - 1 is invertible mod e (e odd). */
        memcpy(w->t1, out, l * sizeof(quill_limb));
        w->t1[0] &= ~(quill_limb)1;
        quill_bn_mod_consttime(w->t2, w->t1, l, w->mont_e);
        if (!quill_rsa_verdict(quill_bn_inv_mod_odd_consttime(w->t3, w->t2, w->e, w->el)))
            continue;
        if (other != NULL) {
            size_t m = l > other_l ? l : other_l;
            memset(w->prod, 0, 2 * m * sizeof(quill_limb));
            memcpy(w->prod, out, l * sizeof(quill_limb));
            memcpy(w->prod + m, other, other_l * sizeof(quill_limb));
            if (!quill_rsa_verdict(far_apart(w, w->prod, w->prod + m, m, nlen / 2 - 100)))
                continue;
        }
        quill_mont *mont = quill_rsa_mont_new_secret(out, l);
        if (mont == NULL)
            return QUILL_ERR_MEMORY;
        int prime = 0;
        quill_err err = quill_rsa_miller_rabin(&prime, mont, bits, rounds, rng);
        quill_mont_free(mont);
        if (err != QUILL_OK)
            return err;
        if (prime)
            return QUILL_OK;
    }
    return QUILL_ERR_KEYGEN;
}

/* From p and q: n, lambda, d (checked > 2^(nlen/2)), dp, dq, qinv, then the
 * key.  Returns QUILL_ERR_KEYGEN if d is too small (start over). */
static quill_err derive(keygen_ws *w, quill_rsa_key **out, size_t bits, size_t pl, size_t ql) {
    size_t nl = QUILL_BN_LIMBS_FOR_BITS(bits);
    memset(w->prod, 0, sizeof(w->prod));
    quill_bn_mul(w->prod, w->p, pl, w->q, ql);
    memcpy(w->n, w->prod, nl * sizeof(quill_limb));
    QUILL_CT_DECLASSIFY(w->n, nl * sizeof(quill_limb)); /* the modulus is public */
    if (quill_bn_num_bits_public(w->n, nl) != bits)
        return QUILL_ERR_INTERNAL;
    if (!quill_rsa_lambda_consttime(w->lambda, nl, w->p, pl, w->q, ql))
        return QUILL_ERR_MEMORY;
    quill_word ok = quill_rsa_inv_e_consttime(w->d, w->lambda, nl, w->e, w->el);
    /* d > 2^(nlen/2) (A.1.3 step 6 / A.1.1). */
    memset(w->t1, 0, nl * sizeof(quill_limb));
    w->t1[(bits / 2) / 64] = (quill_limb)1 << ((bits / 2) % 64);
    ok &= quill_bn_lt_mask(w->t1, w->d, nl);
    if (!quill_rsa_verdict(ok))
        return QUILL_ERR_KEYGEN;
    /* dp = d mod (p - 1), dq = d mod (q - 1). */
    memcpy(w->t1, w->p, pl * sizeof(quill_limb));
    w->t1[0] &= ~(quill_limb)1;
    memcpy(w->t2, w->q, ql * sizeof(quill_limb));
    w->t2[0] &= ~(quill_limb)1;
    if (!quill_bn_divmod_consttime(NULL, w->dp, w->d, nl, w->t1, pl) ||
        !quill_bn_divmod_consttime(NULL, w->dq, w->d, nl, w->t2, ql))
        return QUILL_ERR_MEMORY;
    /* qinv = (q mod p)^-1 mod p. */
    quill_mont *mont_p = quill_rsa_mont_new_secret(w->p, pl);
    if (mont_p == NULL)
        return QUILL_ERR_MEMORY;
    quill_bn_mod_consttime(w->t3, w->q, ql, mont_p);
    quill_mont_free(mont_p);
    ok = quill_bn_inv_mod_odd_consttime(w->qinv, w->t3, w->p, pl);
    if (!quill_rsa_verdict(ok))
        return QUILL_ERR_INTERNAL; /* p != q primes: cannot happen */
    quill_rsa_limbs l = {.n = w->n, .e = w->e, .d = w->d, .p = w->p, .q = w->q,
                         .dp = w->dp, .dq = w->dq, .qinv = w->qinv,
                         .nl = nl, .el = w->el, .pl = pl, .ql = ql};
    return quill_rsa_key_assemble(out, &l);
}

static quill_err load_e(keygen_ws *w, const quill_bytes *e) {
    memset(w->e, 0, sizeof(w->e));
    if (e == NULL) {
        w->e[0] = 65537;
    } else {
        if (e->data == NULL)
            return QUILL_ERR_INVALID_ARGUMENT;
        if (!quill_bn_from_bytes_be(w->e, E_MAX_LIMBS, e->data, e->len))
            return QUILL_ERR_BAD_EXPONENT; /* >= 2^256 */
    }
    w->el = quill_bn_limbs_public(w->e, E_MAX_LIMBS);
    /* Odd, 3 <= e < 2^256 (FIPS 186-5 wants e > 2^16: smaller ones are the
     * compatibility range). */
    if (w->el == 0 || (w->e[0] & 1) == 0 || (w->el == 1 && w->e[0] < 3))
        return QUILL_ERR_BAD_EXPONENT;
    w->mont_e = quill_mont_new(w->e, w->el);
    return w->mont_e == NULL ? QUILL_ERR_MEMORY : QUILL_OK;
}

static quill_err keygen(keygen_ws *w, quill_rsa_key **out, size_t bits, const quill_bytes *e,
                        const quill_rng *rng) {
    quill_err err = load_e(w, e);
    if (err != QUILL_OK)
        return err;
    w->nprimes = quill_rsa_small_primes(w->primes, QUILL_RSA_TRIAL_MAX);
    /* p gets the extra bit of an odd nlen. */
    size_t pbits = (bits + 1) / 2, qbits = bits / 2;
    size_t pl = QUILL_BN_LIMBS_FOR_BITS(pbits), ql = QUILL_BN_LIMBS_FOR_BITS(qbits);
    for (int restart = 0; restart < KEYGEN_RESTARTS; restart++) {
        memset(w->p, 0, sizeof(w->p));
        memset(w->q, 0, sizeof(w->q));
        err = gen_prime(w, w->p, pbits, KEYGEN_P_ATTEMPTS_PER_BIT * (bits / 2), NULL, 0, bits,
                        rng);
        if (err != QUILL_OK)
            break;
        err = gen_prime(w, w->q, qbits, KEYGEN_Q_ATTEMPTS_PER_BIT * (bits / 2), w->p, pl, bits,
                        rng);
        if (err != QUILL_OK)
            break;
        /* QUILL_ERR_KEYGEN from derive: d too small, start over. */
        err = derive(w, out, bits, pl, ql);
        if (err != QUILL_ERR_KEYGEN)
            break;
    }
    if (err == QUILL_OK) {
        err = quill_rsa_pairwise_test(*out, rng);
        if (err != QUILL_OK) {
            quill_rsa_key_free(*out);
            *out = NULL;
        }
    }
    return err;
}

quill_err quill_rsa_keygen(quill_rsa_key **out, size_t bits, const quill_bytes *e,
                           const quill_rng *rng) {
    if (out == NULL || rng == NULL || rng->fill == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (bits < QUILL_RSA_MIN_BITS || bits > QUILL_RSA_MAX_BITS)
        return QUILL_ERR_KEY_SIZE;
    keygen_ws *w = quill_calloc(1, sizeof(*w));
    if (w == NULL)
        return QUILL_ERR_MEMORY;
    quill_rsa_key *key = NULL;
    quill_err err = keygen(w, &key, bits, e, rng);
    if (err == QUILL_OK)
        *out = key;
    quill_mont_free(w->mont_e);
    quill_zeroize(w, sizeof(*w));
    quill_free(w);
    return err;
}
