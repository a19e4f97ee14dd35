/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Key generation: keys from quill_rsa_keygen pass OpenSSL's EVP_PKEY_check,
 * sign with quill and verify with OpenSSL, and satisfy FIPS 186-5 A.1.3 as
 * recomputed with BN (p and q prime with their top two bits set,
 * |p - q| > 2^(nlen/2 - 100), d = e^-1 mod lcm(p-1, q-1) > 2^(nlen/2),
 * dp, dq, qinv).  The compatibility range (512..2047 bits, 3 <= e < 65537,
 * what OpenSSL 3.0's default provider generates) is held to the same
 * checks.  Bad sizes, exponents and generators are refused. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

#include "rsa_test_common.h"
#include "test_util.h"

static BIGNUM *field(const quill_rsa_key *key, quill_rsa_field f) {
    uint8_t buf[QUILL_RSA_MAX_BITS / 8];
    size_t len = 0;
    if (quill_rsa_key_get(key, f, buf, sizeof(buf), &len) != QUILL_OK)
        return NULL;
    return BN_bin2bn(buf, (int)len, NULL);
}

/* FIPS 186-5 A.1.3 properties, recomputed with BN. */
static void check_fips(const quill_rsa_key *key, size_t bits, const BIGNUM *want_e) {
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *n = field(key, QUILL_RSA_N), *e = field(key, QUILL_RSA_E), *d = field(key, QUILL_RSA_D);
    BIGNUM *p = field(key, QUILL_RSA_P), *q = field(key, QUILL_RSA_Q);
    BIGNUM *dp = field(key, QUILL_RSA_DP), *dq = field(key, QUILL_RSA_DQ);
    BIGNUM *qinv = field(key, QUILL_RSA_QINV);
    BIGNUM *t = BN_new(), *pm1 = BN_new(), *qm1 = BN_new(), *g = BN_new(), *lambda = BN_new();
    QT_CHECK(n && e && d && p && q && dp && dq && qinv);
    if (!(n && e && d && p && q && dp && dq && qinv))
        goto done;
    QT_CHECK((size_t)BN_num_bits(n) == bits);
    QT_CHECK(BN_cmp(e, want_e) == 0);
    QT_CHECK(BN_mul(t, p, q, bctx) && BN_cmp(t, n) == 0);
    QT_CHECK(BN_check_prime(p, bctx, NULL) == 1 && BN_check_prime(q, bctx, NULL) == 1);
    /* Top two bits set, sizes (p takes the extra bit of an odd nlen). */
    int pb = (int)(bits + 1) / 2, qb = (int)bits / 2;
    QT_CHECK(BN_num_bits(p) == pb && BN_is_bit_set(p, pb - 2));
    QT_CHECK(BN_num_bits(q) == qb && BN_is_bit_set(q, qb - 2));
    /* |p - q| > 2^(nlen/2 - 100). */
    BN_sub(t, p, q);
    BN_set_negative(t, 0);
    QT_CHECK(BN_num_bits(t) > (int)(bits / 2 - 100));
    /* d = e^-1 mod lcm(p - 1, q - 1) exactly (d < lcm), d > 2^(nlen/2). */
    BN_sub(pm1, p, BN_value_one());
    BN_sub(qm1, q, BN_value_one());
    BN_gcd(g, pm1, qm1, bctx);
    BN_mul(lambda, pm1, qm1, bctx);
    BN_div(lambda, NULL, lambda, g, bctx);
    QT_CHECK(BN_mod_inverse(t, e, lambda, bctx) != NULL && BN_cmp(t, d) == 0);
    BN_zero(t);
    BN_set_bit(t, (int)(bits / 2));
    QT_CHECK(BN_cmp(d, t) > 0);
    /* CRT values. */
    QT_CHECK(BN_mod(t, d, pm1, bctx) && BN_cmp(t, dp) == 0);
    QT_CHECK(BN_mod(t, d, qm1, bctx) && BN_cmp(t, dq) == 0);
    QT_CHECK(BN_mod_inverse(t, q, p, bctx) != NULL && BN_cmp(t, qinv) == 0);
done:
    BN_free(n), BN_free(e), BN_clear_free(d), BN_clear_free(p), BN_clear_free(q);
    BN_clear_free(dp), BN_clear_free(dq), BN_clear_free(qinv), BN_free(t), BN_free(pm1);
    BN_free(qm1), BN_free(g), BN_free(lambda);
    BN_CTX_free(bctx);
}

/* OpenSSL accepts the key and a quill signature under it. */
static void check_with_openssl(const quill_rsa_key *key) {
    EVP_PKEY *pkey = qr_pkey_from_quill(key);
    QT_CHECK(pkey != NULL);
    if (pkey == NULL)
        return;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    QT_CHECK(pctx != NULL && EVP_PKEY_check(pctx) == 1);
    QT_CHECK(pctx != NULL && EVP_PKEY_pairwise_check(pctx) == 1);
    EVP_PKEY_CTX_free(pctx);
    ERR_print_errors_fp(stderr);

    size_t k = quill_rsa_key_size(key);
    uint8_t *sig = malloc(k), digest[32];
    qt_rng_bytes(digest, sizeof(digest));
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA256, digest, 32, &qr_rng) == QUILL_OK);
    pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    QT_CHECK(pctx != NULL && EVP_PKEY_verify_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha256()) > 0 &&
             EVP_PKEY_verify(pctx, sig, k, digest, 32) == 1);
    EVP_PKEY_CTX_free(pctx);
    QT_CHECK(quill_rsa_pkcs1_verify(key, sig, k, QUILL_MD_SHA256, digest, 32) == QUILL_OK);
    QT_CHECK(quill_rsa_key_check(key, &qr_rng) == QUILL_OK);
    free(sig);
    EVP_PKEY_free(pkey);
}

static void gen_and_check(size_t bits, const uint8_t *e, size_t e_len) {
    quill_rsa_key *key = NULL;
    quill_bytes eb = {e, e_len};
    BIGNUM *want_e = BN_new();
    if (e != NULL)
        BN_bin2bn(e, (int)e_len, want_e);
    else
        BN_set_word(want_e, 65537);
    double t0 = qt_now();
    quill_err err = quill_rsa_keygen(&key, bits, e != NULL ? &eb : NULL, &qr_rng);
    double t1 = qt_now();
    QT_CHECK(err == QUILL_OK && key != NULL);
    printf("keygen %zu bits: %.0f ms\n", bits, (t1 - t0) * 1000);
    if (key != NULL) {
        QT_CHECK(quill_rsa_key_bits(key) == bits);
        QT_CHECK(quill_rsa_key_has_private(key) && quill_rsa_key_has_crt(key));
        check_fips(key, bits, want_e);
        check_with_openssl(key);
    }
    quill_rsa_key_free(key);
    BN_free(want_e);
}

static void test_refusals(void) {
    quill_rsa_key *key = (quill_rsa_key *)0x1;
    const size_t bad_bits[] = {0, 1, 256, 511, 16385, 20000};
    for (size_t i = 0; i < QT_ARRAY_LEN(bad_bits); i++)
        QT_CHECK(quill_rsa_keygen(&key, bad_bits[i], NULL, &qr_rng) == QUILL_ERR_KEY_SIZE);
    /* e = 1, 2, 4, 65536 (even), 2^256 + 1, 0, and an even 256-bit e; at a
     * FIPS size and at a compatibility size. */
    const uint8_t e1[] = {1}, e2[] = {2}, e4[] = {0, 4}, e65536[] = {1, 0, 0}, e0[] = {0};
    uint8_t e257[33] = {1}, e256even[32];
    e257[32] = 1;
    memset(e256even, 0xff, sizeof(e256even));
    e256even[31] = 0xfe;
    const quill_bytes bad_e[] = {{e1, 1},     {e2, 1},  {e4, 2},         {e65536, 3},
                                 {e257, 33}, {e0, 1}, {e256even, 32}};
    for (size_t i = 0; i < QT_ARRAY_LEN(bad_e); i++) {
        QT_CHECK(quill_rsa_keygen(&key, 2048, &bad_e[i], &qr_rng) == QUILL_ERR_BAD_EXPONENT);
        QT_CHECK(quill_rsa_keygen(&key, 512, &bad_e[i], &qr_rng) == QUILL_ERR_BAD_EXPONENT);
    }
    QT_CHECK(quill_rsa_keygen(&key, 2048, NULL, &qr_rng_failing) == QUILL_ERR_RNG);
    QT_CHECK(quill_rsa_keygen(&key, 2048, NULL, NULL) == QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(quill_rsa_keygen(NULL, 2048, NULL, &qr_rng) == QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(key == (quill_rsa_key *)0x1); /* untouched on failure */
}

int main(void) {
    qt_rng_seed(0x4b455947454eull);
    test_refusals();
    gen_and_check(2048, NULL, 0);
    gen_and_check(2048, NULL, 0);
    const uint8_t e65539[] = {0x01, 0x00, 0x03};
    gen_and_check(2048, e65539, sizeof(e65539));
    /* The largest allowed e: 2^256 - 1 (odd). */
    uint8_t emax[32];
    memset(emax, 0xff, sizeof(emax));
    gen_and_check(2048, emax, sizeof(emax));
    gen_and_check(2049, NULL, 0);
    gen_and_check(3072, NULL, 0);
    /* The compatibility range: OpenSSL 3.0's smallest size, odd sizes, the
     * sizes just below FIPS, and exponents below 65537. */
    const uint8_t e3[] = {3}, e17[] = {17}, e65535[] = {0xff, 0xff};
    gen_and_check(512, NULL, 0);
    gen_and_check(512, e3, sizeof(e3));
    gen_and_check(513, e3, sizeof(e3));
    gen_and_check(777, e17, sizeof(e17));
    gen_and_check(1023, NULL, 0);
    gen_and_check(1024, e3, sizeof(e3));
    gen_and_check(1024, NULL, 0);
    gen_and_check(1536, e65535, sizeof(e65535));
    gen_and_check(2047, NULL, 0);
    gen_and_check(2048, e3, sizeof(e3));
    gen_and_check(512, emax, sizeof(emax));
    qr_cleanup();
    return qt_finish("rsa_keygen");
}
