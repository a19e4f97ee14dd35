/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The integer helpers RSA uses against OpenSSL's BN on random and edge-case
 * values: from bn.h, bit length, trailing zeros, shifts by a (secret)
 * amount, long division by arbitrary divisors, Horner reduction with a
 * Montgomery context and binary gcd; from rsa/internal.h, lcm(p-1, q-1),
 * e^-1 mod lambda, trial division and Miller-Rabin. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "rsa/internal.h"
#include "rsa_test_common.h"
#include "test_util.h"

#define MAXL QUILL_BN_MAX_LIMBS

static BN_CTX *bctx;

static void to_limbs(quill_limb *r, size_t n, const BIGNUM *a) {
    uint8_t buf[2 * MAXL * 8];
    if (BN_bn2lebinpad(a, buf, (int)(n * 8)) < 0) {
        fprintf(stderr, "value too large for %zu limbs\n", n);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        r[i] = 0;
        for (int j = 7; j >= 0; j--)
            r[i] = (r[i] << 8) | buf[8 * i + (size_t)j];
    }
}

static int eq_limbs(const quill_limb *r, size_t n, const BIGNUM *a) {
    quill_limb t[2 * MAXL + 1];
    if (BN_num_bytes(a) > (int)(8 * n))
        return 0;
    to_limbs(t, n, a);
    return memcmp(t, r, n * sizeof(quill_limb)) == 0;
}

/* A random value of up to |bits| bits; sometimes sparse or extreme. */
static void rand_bn(BIGNUM *r, int bits, int mode) {
    switch (mode % 4) {
    case 0:
        BN_rand(r, bits, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
        break;
    case 1: /* all ones */
        BN_zero(r);
        BN_set_bit(r, bits);
        BN_sub_word(r, 1);
        break;
    case 2: /* a power of two times an odd number */
        BN_rand(r, bits / 2, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
        BN_lshift(r, r, (int)(qt_rng_u64() % (uint64_t)(bits / 2)));
        break;
    default:
        BN_rand(r, bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY);
        break;
    }
}

static void test_bits_ctz_shift(void) {
    BIGNUM *a = BN_new(), *t = BN_new();
    quill_limb x[MAXL], y[MAXL];
    for (int i = 0; i < 300; i++) {
        size_t n = 1 + qt_rng_u64() % 20;
        rand_bn(a, (int)(64 * n), i);
        if (i % 37 == 0)
            BN_zero(a);
        to_limbs(x, n, a);
        QT_CHECK(quill_bn_num_bits_consttime(x, n) == (size_t)BN_num_bits(a));
        QT_CHECK(quill_bn_limbs_public(x, n) == (size_t)(BN_num_bits(a) + 63) / 64);
        size_t tz = 0;
        if (BN_is_zero(a))
            tz = 64 * n;
        else
            while (!BN_is_bit_set(a, (int)tz))
                tz++;
        QT_CHECK(quill_bn_ctz_consttime(x, n) == tz);
        size_t s = qt_rng_u64() % (64 * n);
        quill_bn_rshift_consttime(y, x, n, s, 13);
        BN_rshift(t, a, (int)s);
        QT_CHECK(eq_limbs(y, n, t));
        quill_bn_lshift_consttime(y, x, n, s, 13);
        BN_lshift(t, a, (int)s);
        BN_mask_bits(t, (int)(64 * n));
        QT_CHECK(eq_limbs(y, n, t));
        /* In place. */
        memcpy(y, x, n * sizeof(quill_limb));
        quill_bn_rshift_consttime(y, y, n, s, 13);
        BN_rshift(t, a, (int)s);
        QT_CHECK(eq_limbs(y, n, t));
    }
    BN_free(a);
    BN_free(t);
}

static void test_divmod(void) {
    BIGNUM *a = BN_new(), *m = BN_new(), *q = BN_new(), *r = BN_new();
    quill_limb x[2 * MAXL], mm[MAXL], ql[2 * MAXL], rl[MAXL];
    for (int i = 0; i < 200; i++) {
        size_t na = 1 + qt_rng_u64() % 40, nm = 1 + qt_rng_u64() % 24;
        rand_bn(a, (int)(64 * na), i);
        do
            rand_bn(m, (int)(1 + qt_rng_u64() % (64 * nm)), i / 4);
        while (BN_is_zero(m));
        if (i % 17 == 0)
            BN_one(m);
        to_limbs(x, na, a);
        to_limbs(mm, nm, m);
        QT_CHECK(quill_bn_divmod_consttime(ql, rl, x, na, mm, nm));
        BN_div(q, r, a, m, bctx);
        QT_CHECK(eq_limbs(ql, na, q));
        QT_CHECK(eq_limbs(rl, nm, r));
        QT_CHECK(quill_bn_divmod_consttime(NULL, rl, x, na, mm, nm));
        QT_CHECK(eq_limbs(rl, nm, r));
    }
    BN_free(a), BN_free(m), BN_free(q), BN_free(r);
}

static void test_reduce(void) {
    BIGNUM *a = BN_new(), *m = BN_new(), *r = BN_new();
    quill_limb x[2 * MAXL], mm[MAXL], rl[MAXL];
    for (int i = 0; i < 100; i++) {
        size_t nm = 1 + qt_rng_u64() % 20, na = 1 + qt_rng_u64() % 48;
        BN_rand(m, (int)(64 * nm), BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ODD);
        BN_set_bit(m, (int)(64 * nm - 1 - qt_rng_u64() % 60));
        rand_bn(a, (int)(64 * na), i);
        to_limbs(mm, nm, m);
        to_limbs(x, na, a);
        quill_mont *mont = quill_mont_new(mm, nm);
        QT_CHECK(mont != NULL);
        if (mont == NULL)
            continue;
        quill_bn_mod_consttime(rl, x, na, mont);
        BN_mod(r, a, m, bctx);
        QT_CHECK(eq_limbs(rl, nm, r));
        quill_mont_free(mont);
    }
    BN_free(a), BN_free(m), BN_free(r);
}

static void test_gcd_lambda_inv(void) {
    BIGNUM *a = BN_new(), *b = BN_new(), *g = BN_new(), *p = BN_new(), *q = BN_new();
    BIGNUM *l = BN_new(), *e = BN_new(), *d = BN_new(), *t = BN_new();
    quill_limb x[MAXL], y[MAXL], gl[MAXL], pl[MAXL], qlim[MAXL], ll[MAXL], el[4], dl[MAXL];
    for (int i = 0; i < 150; i++) {
        size_t n = 1 + qt_rng_u64() % 16;
        rand_bn(a, (int)(64 * n), i);
        rand_bn(b, (int)(64 * n), i / 3);
        if (BN_is_zero(a))
            BN_one(a);
        if (BN_is_zero(b))
            BN_set_word(b, 6);
        /* Give them a common factor now and then. */
        if (i % 3 == 0) {
            BN_rand(t, (int)(32 * n), BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
            if (!BN_is_zero(t)) {
                BN_mul(a, a, t, bctx);
                BN_mul(b, b, t, bctx);
                BN_mask_bits(a, (int)(64 * n));
                BN_mask_bits(b, (int)(64 * n));
                if (BN_is_zero(a))
                    BN_one(a);
                if (BN_is_zero(b))
                    BN_one(b);
            }
        }
        to_limbs(x, n, a);
        to_limbs(y, n, b);
        quill_bn_gcd_consttime(gl, x, y, n);
        BN_gcd(g, a, b, bctx);
        QT_CHECK(eq_limbs(gl, n, g));
    }
    /* lambda and d for odd "p", "q" of assorted sizes (not necessarily
     * prime: the helpers need only oddness). */
    for (int i = 0; i < 60; i++) {
        int pb = 64 + (int)(qt_rng_u64() % 1000), qb = 64 + (int)(qt_rng_u64() % 1000);
        BN_rand(p, pb, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
        BN_rand(q, qb, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
        size_t np = (size_t)(pb + 63) / 64, nq = (size_t)(qb + 63) / 64, nn = np + nq;
        to_limbs(pl, np, p);
        to_limbs(qlim, nq, q);
        QT_CHECK(quill_rsa_lambda_consttime(ll, nn, pl, np, qlim, nq));
        BN_sub(a, p, BN_value_one());
        BN_sub(b, q, BN_value_one());
        BN_gcd(g, a, b, bctx);
        BN_mul(l, a, b, bctx);
        BN_div(l, NULL, l, g, bctx);
        QT_CHECK(eq_limbs(ll, nn, l));
        /* e = 65537, or a random odd e up to 256 bits. */
        if (i % 2 == 0)
            BN_set_word(e, 65537);
        else
            BN_rand(e, 17 + (int)(qt_rng_u64() % 240), BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
        size_t ne = (size_t)(BN_num_bits(e) + 63) / 64;
        to_limbs(el, ne, e);
        quill_word ok = quill_rsa_inv_e_consttime(dl, ll, nn, el, ne);
        int invertible = BN_mod_inverse(d, e, l, bctx) != NULL;
        QT_CHECK((ok != 0) == invertible);
        if (invertible)
            QT_CHECK(eq_limbs(dl, nn, d));
        else
            QT_CHECK(quill_bn_is_zero_mask(dl, nn) != 0);
    }
    BN_free(a), BN_free(b), BN_free(g), BN_free(p), BN_free(q), BN_free(l), BN_free(e);
    BN_free(d), BN_free(t);
}

static void test_primes(void) {
    uint16_t primes[QUILL_RSA_TRIAL_MAX];
    size_t count = quill_rsa_small_primes(primes, QUILL_RSA_TRIAL_MAX);
    QT_CHECK(count == 1027); /* pi(8192) = 1028, minus the prime 2 */
    QT_CHECK(primes[0] == 3 && primes[1] == 5 && primes[count - 1] == 8191);
    int all_prime = 1;
    for (size_t i = 0; i < count; i++) {
        BIGNUM *t = BN_new();
        BN_set_word(t, primes[i]);
        all_prime &= BN_check_prime(t, bctx, NULL) == 1;
        BN_free(t);
    }
    QT_CHECK(all_prime);
    QT_CHECK(quill_rsa_mr_rounds(1024) == 5 && quill_rsa_mr_rounds(1536) == 4 &&
             quill_rsa_mr_rounds(2048) == 4 && quill_rsa_mr_rounds(512) == 7);

    BIGNUM *p = BN_new(), *q = BN_new(), *c = BN_new();
    quill_limb x[MAXL];
    for (int i = 0; i < 12; i++) {
        int bits = i < 6 ? 512 : 1024;
        size_t n = (size_t)bits / 64;
        BN_generate_prime_ex2(p, bits, 0, NULL, NULL, NULL, bctx);
        to_limbs(x, n, p);
        QT_CHECK(quill_rsa_trial_division_consttime(x, n, primes, count) != 0);
        quill_mont *mont = quill_mont_new(x, n);
        int prime = 0;
        QT_CHECK(mont != NULL &&
                 quill_rsa_miller_rabin(&prime, mont, (size_t)bits, 5, &qr_rng) == QUILL_OK);
        QT_CHECK(prime == 1);
        quill_mont_free(mont);
        /* Composites: p * q with no small factor (Miller-Rabin must catch
         * it), and p * 8191 (trial division must). */
        BN_generate_prime_ex2(q, bits / 2, 0, NULL, NULL, NULL, bctx);
        BN_generate_prime_ex2(c, bits / 2, 0, NULL, NULL, NULL, bctx);
        BN_mul(c, c, q, bctx);
        to_limbs(x, n, c);
        QT_CHECK(quill_rsa_trial_division_consttime(x, n, primes, count) != 0);
        mont = quill_mont_new(x, n);
        prime = 1;
        QT_CHECK(mont != NULL &&
                 quill_rsa_miller_rabin(&prime, mont, (size_t)BN_num_bits(c), 5, &qr_rng) ==
                     QUILL_OK);
        QT_CHECK(prime == 0);
        quill_mont_free(mont);
        BN_rand(c, bits - 14, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD);
        BN_mul_word(c, 8191);
        to_limbs(x, n, c);
        QT_CHECK(quill_rsa_trial_division_consttime(x, n, primes, count) == 0);
    }
    /* Carmichael-style strong pseudoprime check: 3215031751 = 151 * 751 *
     * 28351 is a strong pseudoprime to bases 2, 3, 5, 7; random bases catch
     * it (5 rounds: error 4^-5 at worst, in practice far less). */
    BN_set_word(c, 3215031751ul);
    to_limbs(x, 1, c);
    quill_mont *mont = quill_mont_new(x, 1);
    int prime = 1;
    QT_CHECK(mont != NULL && quill_rsa_miller_rabin(&prime, mont, 32, 20, &qr_rng) == QUILL_OK);
    QT_CHECK(prime == 0);
    quill_mont_free(mont);
    BN_free(p), BN_free(q), BN_free(c);
}

int main(void) {
    qt_rng_seed(0x41524954ull);
    bctx = BN_CTX_new();
    test_bits_ctz_shift();
    test_divmod();
    test_reduce();
    test_gcd_lambda_inv();
    test_primes();
    BN_CTX_free(bctx);
    qr_cleanup();
    return qt_finish("rsa_arith");
}
