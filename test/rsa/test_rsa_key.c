/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA key import (every rejection path of quill_rsa_key_new), getters
 * against OpenSSL's components, quill_rsa_key_check on good and subtly bad
 * keys, and fault detection in the private operation. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "rsa_test_common.h"
#include "test_util.h"

/* The components of one OpenSSL key as BIGNUMs, to tamper with. */
typedef struct bnkey {
    BIGNUM *n, *e, *d, *p, *q, *dp, *dq, *qinv;
} bnkey;

static int bnkey_from_pkey(bnkey *k, EVP_PKEY *pkey) {
    memset(k, 0, sizeof(*k));
    return EVP_PKEY_get_bn_param(pkey, "n", &k->n) && EVP_PKEY_get_bn_param(pkey, "e", &k->e) &&
           EVP_PKEY_get_bn_param(pkey, "d", &k->d) &&
           EVP_PKEY_get_bn_param(pkey, "rsa-factor1", &k->p) &&
           EVP_PKEY_get_bn_param(pkey, "rsa-factor2", &k->q) &&
           EVP_PKEY_get_bn_param(pkey, "rsa-exponent1", &k->dp) &&
           EVP_PKEY_get_bn_param(pkey, "rsa-exponent2", &k->dq) &&
           EVP_PKEY_get_bn_param(pkey, "rsa-coefficient1", &k->qinv);
}

static void bnkey_free(bnkey *k) {
    BIGNUM **all[8] = {&k->n, &k->e, &k->d, &k->p, &k->q, &k->dp, &k->dq, &k->qinv};
    for (int i = 0; i < 8; i++)
        BN_clear_free(*all[i]);
}

/* Imports the given components and returns the status (the key, if any, is
 * freed). */
static quill_err import_status(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d, const BIGNUM *p,
                               const BIGNUM *q, const BIGNUM *dp, const BIGNUM *dq,
                               const BIGNUM *qinv) {
    qr_comps c;
    if (!qr_comps_from_bn(&c, n, e, d, p, q, dp, dq, qinv))
        return QUILL_ERR_COUNT;
    quill_rsa_key *key = (quill_rsa_key *)0x1;
    quill_err err = quill_rsa_key_new(&key, &c.c);
    if (err == QUILL_OK)
        quill_rsa_key_free(key);
    else if (key != (quill_rsa_key *)0x1)
        err = QUILL_ERR_COUNT; /* *out must stay untouched on failure */
    qr_comps_free(&c);
    return err;
}

static quill_err import_bnkey(const bnkey *k) {
    return import_status(k->n, k->e, k->d, k->p, k->q, k->dp, k->dq, k->qinv);
}

static void test_rejections(EVP_PKEY *pkey) {
    bnkey k;
    QT_CHECK(bnkey_from_pkey(&k, pkey));
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *t = BN_new(), *save = NULL;
    QT_CHECK(import_bnkey(&k) == QUILL_OK);
    QT_CHECK(import_status(k.n, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    QT_CHECK(import_status(k.n, k.e, k.d, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);

    /* Missing n or e. */
    QT_CHECK(import_status(NULL, k.e, NULL, NULL, NULL, NULL, NULL, NULL) ==
             QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(import_status(k.n, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
             QUILL_ERR_INVALID_ARGUMENT);
    /* Even n. */
    BN_copy(t, k.n);
    BN_add_word(t, 1);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_MODULUS_EVEN);
    /* Tiny n (1023 bits, odd) and huge n (16385 bits, odd). */
    BN_rand(t, 1023, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_KEY_SIZE);
    BN_rand(t, 512, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_KEY_SIZE);
    BN_rand(t, 16385, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_KEY_SIZE);
    BN_zero(t);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_KEY_SIZE);
    /* The largest and smallest sizes are accepted. */
    BN_rand(t, 16384, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    BN_rand(t, 1024, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(t, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);

    /* Above 3072 bits, e is limited to 64 bits; at 3072 bits any e < n. */
    BN_set_word(t, 1);
    BN_lshift(t, t, 64);
    BN_add_word(t, 1); /* 65 bits */
    BIGNUM *big_n = BN_new();
    BN_rand(big_n, 3073, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    QT_CHECK(import_status(big_n, t, NULL, NULL, NULL, NULL, NULL, NULL) ==
             QUILL_ERR_BAD_EXPONENT);
    QT_CHECK(import_status(big_n, k.e, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    BN_sub_word(t, 2); /* 2^64 - 1: 64 bits */
    QT_CHECK(import_status(big_n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    BN_rand(big_n, 3072, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    BN_rshift1(t, big_n); /* 3071 bits, odd with probability 1/2: make it odd */
    BN_set_bit(t, 0);
    QT_CHECK(import_status(big_n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    BN_free(big_n);

    /* e = 1, e = 0, even e, e = n, e > n, e = n - 2 (odd, < n: fine). */
    const unsigned long bad_e[] = {0, 1, 2, 65536};
    for (size_t i = 0; i < QT_ARRAY_LEN(bad_e); i++) {
        BN_set_word(t, bad_e[i]);
        QT_CHECK(import_status(k.n, t, NULL, NULL, NULL, NULL, NULL, NULL) ==
                 QUILL_ERR_BAD_EXPONENT);
        QT_CHECK(import_status(k.n, t, k.d, k.p, k.q, k.dp, k.dq, k.qinv) ==
                 QUILL_ERR_BAD_EXPONENT);
    }
    BN_set_word(t, 3);
    QT_CHECK(import_status(k.n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);
    QT_CHECK(import_status(k.n, k.n, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);
    BN_copy(t, k.n);
    BN_add_word(t, 2);
    QT_CHECK(import_status(k.n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);
    BN_lshift(t, k.n, 8);
    BN_add_word(t, 1);
    QT_CHECK(import_status(k.n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);
    BN_copy(t, k.n);
    BN_sub_word(t, 2);
    QT_CHECK(import_status(k.n, t, NULL, NULL, NULL, NULL, NULL, NULL) == QUILL_OK);

    /* d = 0, d = n, d > n. */
    BN_zero(t);
    QT_CHECK(import_status(k.n, k.e, t, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);
    QT_CHECK(import_status(k.n, k.e, k.n, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);
    BN_lshift1(t, k.n);
    QT_CHECK(import_status(k.n, k.e, t, NULL, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_EXPONENT);

    /* Partial CRT sets, and CRT values without d. */
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, NULL, NULL, NULL, NULL) == QUILL_ERR_BAD_CRT);
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, NULL) == QUILL_ERR_BAD_CRT);
    QT_CHECK(import_status(k.n, k.e, NULL, k.p, k.q, k.dp, k.dq, k.qinv) ==
             QUILL_ERR_INVALID_ARGUMENT);

    /* p * q != n: p replaced by p + 2, by another prime, by n and 1. */
    save = k.p;
    k.p = t;
    BN_copy(t, save);
    BN_add_word(t, 2);
    QT_CHECK(import_bnkey(&k) == QUILL_ERR_BAD_CRT);
    BN_generate_prime_ex(t, BN_num_bits(save), 0, NULL, NULL, NULL);
    QT_CHECK(import_bnkey(&k) == QUILL_ERR_BAD_CRT);
    BN_copy(t, k.n);
    BIGNUM *one = BN_new();
    BN_one(one);
    QT_CHECK(import_status(k.n, k.e, k.d, t, one, k.dp, k.dq, k.qinv) == QUILL_ERR_BAD_CRT);
    QT_CHECK(import_status(k.n, k.e, k.d, one, t, k.dp, k.dq, k.qinv) == QUILL_ERR_BAD_CRT);
    BN_zero(one);
    QT_CHECK(import_status(k.n, k.e, k.d, one, k.q, k.dp, k.dq, k.qinv) == QUILL_ERR_BAD_CRT);
    BN_free(one);
    k.p = save;
    /* p and q swapped: p * q == n still, but qinv is then wrong. */
    QT_CHECK(import_status(k.n, k.e, k.d, k.q, k.p, k.dq, k.dp, k.qinv) == QUILL_ERR_BAD_CRT);
    /* dp = p, dq = q, dp > p. */
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.p, k.dq, k.qinv) == QUILL_ERR_BAD_CRT);
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.dp, k.q, k.qinv) == QUILL_ERR_BAD_CRT);
    BN_lshift1(t, k.p);
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, t, k.dq, k.qinv) == QUILL_ERR_BAD_CRT);
    /* qinv = p, qinv + 1 (in range but wrong), qinv = 0. */
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, k.p) == QUILL_ERR_BAD_CRT);
    BN_copy(t, k.qinv);
    BN_add_word(t, 1);
    if (BN_cmp(t, k.p) >= 0)
        BN_sub_word(t, 2);
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, t) == QUILL_ERR_BAD_CRT);
    BN_zero(t);
    QT_CHECK(import_status(k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, t) == QUILL_ERR_BAD_CRT);

    /* Leading zero bytes are allowed. */
    {
        qr_comps c;
        QT_CHECK(qr_comps_from_bn(&c, k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, k.qinv));
        uint8_t *padded = calloc(1, c.c.n.len + 3);
        memcpy(padded + 3, c.c.n.data, c.c.n.len);
        c.c.n.data = padded;
        c.c.n.len += 3;
        quill_rsa_key *key = NULL;
        QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
        QT_CHECK(key != NULL && quill_rsa_key_bits(key) == (size_t)BN_num_bits(k.n));
        quill_rsa_key_free(key);
        free(padded);
        qr_comps_free(&c);
    }
    QT_CHECK(quill_rsa_key_new(NULL, NULL) == QUILL_ERR_INVALID_ARGUMENT);
    BN_free(t);
    BN_CTX_free(bctx);
    bnkey_free(&k);
}

/* Getters return OpenSSL's components exactly (minimal big-endian). */
static void test_getters(EVP_PKEY *pkey) {
    bnkey k;
    QT_CHECK(bnkey_from_pkey(&k, pkey));
    quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
    QT_CHECK(key != NULL);
    if (key == NULL) {
        bnkey_free(&k);
        return;
    }
    const BIGNUM *want[8] = {k.n, k.e, k.d, k.p, k.q, k.dp, k.dq, k.qinv};
    for (int f = 0; f < 8; f++) {
        uint8_t buf[1024], exp[1024];
        size_t len = 0, need = 0;
        QT_CHECK(quill_rsa_key_get(key, (quill_rsa_field)f, NULL, 0, &need) == QUILL_OK);
        QT_CHECK(need == (size_t)BN_num_bytes(want[f]));
        QT_CHECK(quill_rsa_key_get(key, (quill_rsa_field)f, buf, need - 1, &len) ==
                 QUILL_ERR_BUFFER_TOO_SMALL);
        QT_CHECK(quill_rsa_key_get(key, (quill_rsa_field)f, buf, sizeof(buf), &len) == QUILL_OK);
        BN_bn2bin(want[f], exp);
        QT_CHECK(len == need && memcmp(buf, exp, len) == 0);
    }
    QT_CHECK(quill_rsa_key_bits(key) == (size_t)BN_num_bits(k.n));
    QT_CHECK(quill_rsa_key_size(key) == (size_t)BN_num_bytes(k.n));
    QT_CHECK(quill_rsa_key_has_private(key) && quill_rsa_key_has_crt(key));
    QT_CHECK(quill_rsa_key_get(key, (quill_rsa_field)99, NULL, 0, &(size_t){0}) ==
             QUILL_ERR_INVALID_ARGUMENT);

    quill_rsa_key *pub = qr_key_from_pkey(pkey, 0, 0);
    quill_rsa_key *nocrt = qr_key_from_pkey(pkey, 1, 0);
    QT_CHECK(pub != NULL && nocrt != NULL);
    if (pub != NULL && nocrt != NULL) {
        size_t len;
        QT_CHECK(!quill_rsa_key_has_private(pub) && !quill_rsa_key_has_crt(pub));
        QT_CHECK(quill_rsa_key_has_private(nocrt) && !quill_rsa_key_has_crt(nocrt));
        QT_CHECK(quill_rsa_key_get(pub, QUILL_RSA_D, NULL, 0, &len) == QUILL_ERR_INVALID_ARGUMENT);
        QT_CHECK(quill_rsa_key_get(nocrt, QUILL_RSA_P, NULL, 0, &len) ==
                 QUILL_ERR_INVALID_ARGUMENT);
        QT_CHECK(quill_rsa_key_get(nocrt, QUILL_RSA_D, NULL, 0, &len) == QUILL_OK);
        QT_CHECK(quill_rsa_key_public_equal(key, pub) && quill_rsa_key_public_equal(pub, nocrt));
        QT_CHECK(quill_rsa_key_check(pub, &qr_rng) == QUILL_OK);
        QT_CHECK(quill_rsa_key_check(pub, NULL) == QUILL_OK); /* no randomness needed */
        QT_CHECK(quill_rsa_key_check(nocrt, NULL) == QUILL_ERR_INVALID_ARGUMENT);
        QT_CHECK(quill_rsa_key_check(NULL, &qr_rng) == QUILL_ERR_INVALID_ARGUMENT);
        QT_CHECK(quill_rsa_key_check(nocrt, &qr_rng) == QUILL_OK);
        uint8_t in[512] = {0}, out[512];
        QT_CHECK(quill_rsa_private(pub, out, in, quill_rsa_key_size(pub), &qr_rng) ==
                 QUILL_ERR_KEY_MISSING_PRIVATE);
    }
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_OK);
    quill_rsa_key_free(pub);
    quill_rsa_key_free(nocrt);
    quill_rsa_key_free(key);
    bnkey_free(&k);
}

/* Keys that pass import but not the full check, and a faulty CRT value that
 * the private operation must catch. */
static void test_check_and_fault(EVP_PKEY *pkey, EVP_PKEY *other) {
    bnkey k, o;
    QT_CHECK(bnkey_from_pkey(&k, pkey));
    QT_CHECK(bnkey_from_pkey(&o, other));
    BIGNUM *t = BN_new();
    qr_comps c;
    quill_rsa_key *key;
    uint8_t in[2048], out[2048];
    size_t kbytes = (size_t)BN_num_bytes(k.n);

    /* Wrong dp (dp - 2, still < p): import accepts, check refuses, the
     * private operation reports a fault and releases nothing. */
    BN_copy(t, k.dp);
    BN_sub_word(t, 2);
    QT_CHECK(qr_comps_from_bn(&c, k.n, k.e, k.d, k.p, k.q, t, k.dq, k.qinv));
    QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
    qr_random_below_n(in, kbytes);
    memset(out, 0x5a, kbytes);
    QT_CHECK(quill_rsa_private(key, out, in, kbytes, &qr_rng) == QUILL_ERR_FAULT_DETECTED);
    int all_zero = 1;
    for (size_t i = 0; i < kbytes; i++)
        all_zero &= out[i] == 0;
    QT_CHECK(all_zero);
    uint8_t digest[32] = {1, 2, 3};
    QT_CHECK(quill_rsa_pkcs1_sign(key, out, QUILL_MD_SHA256, digest, 32, &qr_rng) ==
             QUILL_ERR_FAULT_DETECTED);
    quill_rsa_key_free(key);
    qr_comps_free(&c);

    /* Wrong dq likewise. */
    BN_copy(t, k.dq);
    BN_sub_word(t, 2);
    QT_CHECK(qr_comps_from_bn(&c, k.n, k.e, k.d, k.p, k.q, k.dp, t, k.qinv));
    QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
    QT_CHECK(quill_rsa_private(key, out, in, kbytes, &qr_rng) == QUILL_ERR_FAULT_DETECTED);
    quill_rsa_key_free(key);
    qr_comps_free(&c);

    /* Wrong d with correct CRT values: the private operation (CRT) works,
     * the check must see d * e != 1 mod lambda. */
    BN_copy(t, k.d);
    BN_sub_word(t, 2);
    QT_CHECK(qr_comps_from_bn(&c, k.n, k.e, t, k.p, k.q, k.dp, k.dq, k.qinv));
    QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
    quill_rsa_key_free(key);
    qr_comps_free(&c);

    /* Wrong d without CRT values: fault on use, pairwise failure on check. */
    QT_CHECK(qr_comps_from_bn(&c, k.n, k.e, t, NULL, NULL, NULL, NULL, NULL));
    QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
    QT_CHECK(quill_rsa_private(key, out, in, kbytes, &qr_rng) == QUILL_ERR_FAULT_DETECTED);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
    quill_rsa_key_free(key);
    qr_comps_free(&c);

    /* A modulus with a small factor: n' = 3 * (odd 1030-bit number). */
    BN_rand(t, 1030, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
    BN_mul_word(t, 3);
    QT_CHECK(qr_comps_from_bn(&c, t, k.e, NULL, NULL, NULL, NULL, NULL, NULL));
    QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
    quill_rsa_key_free(key);
    qr_comps_free(&c);

    /* Composite "primes": n = (p1 p2) * (q1 q2) built from two keys, with
     * CRT values computed by OpenSSL so that everything but primality is
     * consistent.  Import accepts it; the check must not. */
    {
        BN_CTX *bctx = BN_CTX_new();
        BIGNUM *P = BN_new(), *Q = BN_new(), *N = BN_new(), *D = BN_new(), *DP = BN_new();
        BIGNUM *DQ = BN_new(), *QI = BN_new(), *pm1 = BN_new(), *qm1 = BN_new();
        BIGNUM *g = BN_new(), *lambda = BN_new();
        BN_mul(P, k.p, o.p, bctx);
        BN_mul(Q, k.q, o.q, bctx);
        BN_mul(N, P, Q, bctx);
        BN_sub(pm1, P, BN_value_one());
        BN_sub(qm1, Q, BN_value_one());
        BN_gcd(g, pm1, qm1, bctx);
        BN_mul(lambda, pm1, qm1, bctx);
        BN_div(lambda, NULL, lambda, g, bctx);
        /* d modulo lambda(n) for this n is not e^-1 mod lcm(P-1, Q-1) in
         * general; use the latter anyway: the point is primality. */
        int have_d = BN_mod_inverse(D, k.e, lambda, bctx) != NULL;
        if (have_d) {
            BN_mod(DP, D, pm1, bctx);
            BN_mod(DQ, D, qm1, bctx);
            BN_mod_inverse(QI, Q, P, bctx);
            QT_CHECK(qr_comps_from_bn(&c, N, k.e, D, P, Q, DP, DQ, QI));
            QT_CHECK(quill_rsa_key_new(&key, &c.c) == QUILL_OK);
            QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_ERR_KEY_CHECK);
            quill_rsa_key_free(key);
            qr_comps_free(&c);
        }
        BN_free(P), BN_free(Q), BN_free(N), BN_free(D), BN_free(DP), BN_free(DQ), BN_free(QI);
        BN_free(pm1), BN_free(qm1), BN_free(g), BN_free(lambda);
        BN_CTX_free(bctx);
    }

    /* Failing generator: the private operation and the check report it. */
    key = qr_key_from_pkey(pkey, 1, 1);
    QT_CHECK(key != NULL);
    if (key != NULL) {
        QT_CHECK(quill_rsa_private(key, out, in, kbytes, &qr_rng_failing) == QUILL_ERR_RNG);
        QT_CHECK(quill_rsa_key_check(key, &qr_rng_failing) == QUILL_ERR_RNG);
        QT_CHECK(quill_rsa_private(key, out, in, kbytes - 1, &qr_rng) ==
                 QUILL_ERR_INVALID_ARGUMENT);
        BN_bn2binpad(k.n, in, (int)kbytes);
        QT_CHECK(quill_rsa_private(key, out, in, kbytes, &qr_rng) == QUILL_ERR_INPUT_RANGE);
        QT_CHECK(quill_rsa_public(key, out, in, kbytes) == QUILL_ERR_INPUT_RANGE);
    }
    quill_rsa_key_free(key);
    BN_free(t);
    bnkey_free(&k);
    bnkey_free(&o);
}

int main(void) {
    qt_rng_seed(0x5253414b4559ull);
    EVP_PKEY *k2048 = qr_gen_pkey(2048), *k1024 = qr_gen_pkey(1024), *k3072 = qr_gen_pkey(3072);
    if (k2048 == NULL || k1024 == NULL || k3072 == NULL) {
        fprintf(stderr, "OpenSSL key generation failed\n");
        return 1;
    }
    test_rejections(k2048);
    test_rejections(k1024);
    test_getters(k2048);
    test_getters(k1024);
    test_getters(k3072);
    test_check_and_fault(k2048, k1024);
    test_check_and_fault(k1024, k2048);
    EVP_PKEY_free(k2048);
    EVP_PKEY_free(k1024);
    EVP_PKEY_free(k3072);
    qr_cleanup();
    return qt_finish("rsa_key");
}
