/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The largest moduli: a key whose n is close to QUILL_RSA_MAX_BITS (16384),
 * built cheaply from a 1024-bit prime p and a q that is the product of
 * fifteen 1024-bit primes.  The CRT private operation stays correct for a
 * square-free q when dq = d mod lambda(q), so the raw operations can be
 * compared with BN_mod_exp at the maximum limb counts (n 256 limbs, p 16
 * limbs, Horner reduction over 16 chunks). */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "rsa_test_common.h"
#include "test_util.h"

#define FACTORS 15
#define FACTOR_BITS 1024

int main(void) {
    qt_rng_seed(0x424947ull);
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new(), *e = BN_new(), *d = BN_new();
    BIGNUM *dp = BN_new(), *dq = BN_new(), *qinv = BN_new(), *lam = BN_new(), *lq = BN_new();
    BIGNUM *f = BN_new(), *t = BN_new(), *g = BN_new(), *x = BN_new(), *y = BN_new();
    BN_set_word(e, 65537);
    /* lambda(q) = lcm(f_i - 1), lambda(n) = lcm(p - 1, lambda(q)). */
    int ok = 0;
    for (int attempt = 0; attempt < 5 && !ok; attempt++) {
        BN_one(q);
        BN_one(lq);
        for (int i = 0; i < FACTORS; i++) {
            BN_generate_prime_ex2(f, FACTOR_BITS, 0, NULL, NULL, NULL, bctx);
            BN_mul(q, q, f, bctx);
            BN_sub_word(f, 1);
            BN_gcd(g, lq, f, bctx);
            BN_mul(lq, lq, f, bctx);
            BN_div(lq, NULL, lq, g, bctx);
        }
        BN_generate_prime_ex2(p, FACTOR_BITS, 0, NULL, NULL, NULL, bctx);
        BN_mul(n, p, q, bctx);
        BN_sub(t, p, BN_value_one());
        BN_gcd(g, lq, t, bctx);
        BN_mul(lam, lq, t, bctx);
        BN_div(lam, NULL, lam, g, bctx);
        ok = BN_mod_inverse(d, e, lam, bctx) != NULL;
    }
    QT_CHECK(ok);
    BN_sub(t, p, BN_value_one());
    BN_mod(dp, d, t, bctx);
    BN_mod(dq, d, lq, bctx);
    BN_mod_inverse(qinv, q, p, bctx);
    printf("n: %d bits, q: %d bits\n", BN_num_bits(n), BN_num_bits(q));
    QT_CHECK(BN_num_bits(n) > 16384 - 16 && BN_num_bits(n) <= 16384);

    qr_comps crt, nocrt;
    quill_rsa_key *kc = NULL, *kn = NULL;
    QT_CHECK(qr_comps_from_bn(&crt, n, e, d, p, q, dp, dq, qinv));
    QT_CHECK(qr_comps_from_bn(&nocrt, n, e, d, NULL, NULL, NULL, NULL, NULL));
    QT_CHECK(quill_rsa_key_new(&kc, &crt.c) == QUILL_OK);
    QT_CHECK(quill_rsa_key_new(&kn, &nocrt.c) == QUILL_OK);
    if (kc != NULL && kn != NULL) {
        size_t k = quill_rsa_key_size(kc);
        uint8_t *in = malloc(k), *got = malloc(k), *want = malloc(k);
        /* One input: each exponentiation at this size takes a second. */
        for (int i = 0; i < 1; i++) {
            qr_random_below_n(in, k);
            BN_bin2bn(in, (int)k, x);
            BN_mod_exp(y, x, d, n, bctx);
            BN_bn2binpad(y, want, (int)k);
            QT_CHECK(quill_rsa_private(kc, got, in, k, &qr_rng) == QUILL_OK);
            QT_CHECK(memcmp(got, want, k) == 0);
            QT_CHECK(quill_rsa_private(kn, got, in, k, &qr_rng) == QUILL_OK);
            QT_CHECK(memcmp(got, want, k) == 0);
            BN_mod_exp(y, x, e, n, bctx);
            BN_bn2binpad(y, want, (int)k);
            QT_CHECK(quill_rsa_public(kc, got, in, k) == QUILL_OK);
            QT_CHECK(memcmp(got, want, k) == 0);
        }
        /* A PSS signature with the largest salt at this size. */
        uint8_t digest[64];
        qt_rng_bytes(digest, sizeof(digest));
        qr_hash h;
        QT_CHECK(qr_hash_init(&h, "SHA2-512"));
        long max = quill_rsa_pss_max_salt(kc, &h.h);
        QT_CHECK(quill_rsa_pss_sign(kc, got, &h.h, &h.h, digest, 64, max, &qr_rng) == QUILL_OK);
        QT_CHECK(quill_rsa_pss_verify(kn, got, k, &h.h, &h.h, digest, 64, QUILL_PSS_SALT_AUTO) ==
                 QUILL_OK);
        qr_hash_free(&h);
        free(in), free(got), free(want);
    }
    quill_rsa_key_free(kc);
    quill_rsa_key_free(kn);
    qr_comps_free(&crt);
    qr_comps_free(&nocrt);
    BN_free(p), BN_free(q), BN_free(n), BN_free(e), BN_clear_free(d), BN_free(dp), BN_free(dq);
    BN_free(qinv), BN_free(lam), BN_free(lq), BN_free(f), BN_free(t), BN_free(g), BN_free(x);
    BN_free(y);
    BN_CTX_free(bctx);
    qr_cleanup();
    return qt_finish("rsa_big");
}
