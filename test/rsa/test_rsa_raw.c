/* Copyright quill authors.
 *
 * The raw RSA primitives against OpenSSL (RSA_NO_PADDING): quill_rsa_public
 * and quill_rsa_private on random inputs, for CRT and non-CRT keys, OpenSSL
 * keys of several sizes (odd sizes included) and hand-built keys with
 * unbalanced primes (q much larger than p, p larger than q, different limb
 * counts). */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "rsa_test_common.h"
#include "test_util.h"

#define CASES 6

static void check_raw(EVP_PKEY *pkey, const char *what) {
    quill_rsa_key *crt = qr_key_from_pkey(pkey, 1, 1), *nocrt = qr_key_from_pkey(pkey, 1, 0);
    quill_rsa_key *pub = qr_key_from_pkey(pkey, 0, 0);
    QT_CHECK(crt != NULL && nocrt != NULL && pub != NULL);
    if (crt == NULL || nocrt == NULL || pub == NULL)
        goto done;
    size_t k = quill_rsa_key_size(crt);
    QT_CHECK(k == (size_t)EVP_PKEY_get_size(pkey));
    QT_CHECK(quill_rsa_key_bits(crt) == (size_t)EVP_PKEY_get_bits(pkey));
    uint8_t *in = malloc(k), *want = malloc(k), *got = malloc(k), *back = malloc(k);
    unsigned long before = qt_failed;
    for (int i = 0; i < CASES; i++) {
        qr_random_below_n(in, k);
        if (i == 0)
            memset(in, 0, k); /* 0 maps to 0 */
        if (i == 1) {
            memset(in, 0, k); /* 1 maps to 1 */
            in[k - 1] = 1;
        }
        QT_CHECK(qr_ossl_private(pkey, want, in, k));
        QT_CHECK(quill_rsa_private(crt, got, in, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(quill_rsa_private(nocrt, got, in, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(qr_ossl_public(pkey, want, in, k));
        QT_CHECK(quill_rsa_public(pub, got, in, k) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(quill_rsa_public(crt, back, got, k) == QUILL_OK);
        /* Round trip: (x^e)^d == x. */
        QT_CHECK(quill_rsa_private(crt, back, got, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(back, in, k) == 0);
    }
    /* n - 1 is the largest valid input. */
    QT_CHECK(quill_rsa_key_get(pub, QUILL_RSA_N, in, k, &(size_t){0}) == QUILL_OK);
    in[k - 1] -= 1;
    QT_CHECK(qr_ossl_private(pkey, want, in, k));
    QT_CHECK(quill_rsa_private(crt, got, in, k, &qr_rng) == QUILL_OK);
    QT_CHECK(memcmp(got, want, k) == 0);
    in[k - 1] += 1; /* n itself */
    QT_CHECK(quill_rsa_public(pub, got, in, k) == QUILL_ERR_INPUT_RANGE);
    QT_CHECK(quill_rsa_public(pub, got, in, k - 1) == QUILL_ERR_INVALID_ARGUMENT);
    if (qt_failed != before)
        fprintf(stderr, "  (raw checks failed for %s)\n", what);
    free(in), free(want), free(got), free(back);
done:
    quill_rsa_key_free(crt);
    quill_rsa_key_free(nocrt);
    quill_rsa_key_free(pub);
}

/* A key from primes of pbits and qbits bits, d = e^-1 mod lcm, via BN. */
static EVP_PKEY *unbalanced_key(int pbits, int qbits) {
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new(), *e = BN_new(), *d = BN_new();
    BIGNUM *dp = BN_new(), *dq = BN_new(), *qinv = BN_new(), *pm1 = BN_new(), *qm1 = BN_new();
    BIGNUM *g = BN_new(), *lambda = BN_new();
    EVP_PKEY *pkey = NULL;
    BN_set_word(e, 65537);
    for (int tries = 0; tries < 20 && pkey == NULL; tries++) {
        if (!BN_generate_prime_ex2(p, pbits, 0, NULL, NULL, NULL, bctx) ||
            !BN_generate_prime_ex2(q, qbits, 0, NULL, NULL, NULL, bctx))
            break;
        BN_mul(n, p, q, bctx);
        BN_sub(pm1, p, BN_value_one());
        BN_sub(qm1, q, BN_value_one());
        BN_gcd(g, pm1, qm1, bctx);
        BN_mul(lambda, pm1, qm1, bctx);
        BN_div(lambda, NULL, lambda, g, bctx);
        if (BN_mod_inverse(d, e, lambda, bctx) == NULL)
            continue;
        BN_mod(dp, d, pm1, bctx);
        BN_mod(dq, d, qm1, bctx);
        BN_mod_inverse(qinv, q, p, bctx);
        pkey = qr_pkey_from_bn(n, e, d, p, q, dp, dq, qinv);
    }
    BN_free(p), BN_free(q), BN_free(n), BN_free(e), BN_free(d), BN_free(dp), BN_free(dq);
    BN_free(qinv), BN_free(pm1), BN_free(qm1), BN_free(g), BN_free(lambda);
    BN_CTX_free(bctx);
    return pkey;
}

int main(void) {
    qt_rng_seed(0x524157ull);
    const unsigned sizes[] = {1024, 1025, 1031, 1536, 2047, 2048, 3072, 4096};
    for (size_t i = 0; i < QT_ARRAY_LEN(sizes); i++) {
        EVP_PKEY *pkey = qr_gen_pkey(sizes[i]);
        QT_CHECK(pkey != NULL);
        if (pkey != NULL) {
            char what[32];
            snprintf(what, sizeof(what), "%u bits", sizes[i]);
            check_raw(pkey, what);
        }
        EVP_PKEY_free(pkey);
    }
    /* p and q of very different sizes, either one larger. */
    const int split[][2] = {{512, 1536}, {1536, 512}, {960, 1088}, {1100, 948}, {600, 1430}};
    for (size_t i = 0; i < QT_ARRAY_LEN(split); i++) {
        EVP_PKEY *pkey = unbalanced_key(split[i][0], split[i][1]);
        QT_CHECK(pkey != NULL);
        if (pkey != NULL) {
            char what[48];
            snprintf(what, sizeof(what), "p %d bits, q %d bits", split[i][0], split[i][1]);
            check_raw(pkey, what);
            quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
            QT_CHECK(key != NULL && quill_rsa_key_check(key, &qr_rng) == QUILL_OK);
            quill_rsa_key_free(key);
        }
        EVP_PKEY_free(pkey);
    }
    qr_cleanup();
    return qt_finish("rsa_raw");
}
