/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential test of the one-lane AVX-512 IFMA exponentiation
 * (quill_mont_exp_vartime_x1_ifma, core/bn/exp_ifma_x1.c) against the
 * portable path (quill_mont_exp_vartime with the IFMA bits cleared through
 * QUILL_CPU_MASK: the MULX or C kernels) and OpenSSL's BN_mod_exp, for
 * every supported modulus size (16, 24, 32, 48, 64 limbs): every modulus
 * shape of bt_modulus plus one just above 2^(64n - 1); bases 0, 1, m - 1,
 * m - 2, (m - 1)/2, all ones and sparse below m, random; exponents 1, 2, 3,
 * 65537, 2^64 - 1, 2^63, even ones, random of one to four limbs; the output
 * aliasing the base; bases, found with a model of the product, for which
 * the final subtraction is taken with limb n set (n = 16 and 64, where such
 * bases are not too rare to find).  Also: unsupported sizes and a zero
 * exponent are refused with the output untouched.  Skipped (77) on CPUs
 * without AVX-512 IFMA or when QUILL_CPU_MASK already clears it.
 *
 * Valgrind cannot run AVX-512, so this path has no memcheck counterpart:
 * its constant-time argument (in the base) is in exp_ifma_x1.c. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bn/exp_ifma.h"
#include "bn_ifma_common.h"

#define MAXN 64
#define MAXE 4

static unsigned rnd(unsigned bound) {
    return (unsigned)(qt_rng_u64() % bound);
}


/* Exponent shapes (el limbs, returns the limb count used): 0 one, 1 two,
 * 2 three, 3 65537, 4 2^64 - 1, 5 2^63, 6 random even, else random of
 * one to MAXE limbs. */
#define EXPONENT_KINDS 8
static size_t make_exponent(quill_limb *e, unsigned kind) {
    static const quill_limb fixed[] = {1, 2, 3, 65537, ~(quill_limb)0, (quill_limb)1 << 63};
    memset(e, 0, MAXE * sizeof(quill_limb));
    if (kind < QUILL_ARRAY_LEN(fixed)) {
        e[0] = fixed[kind];
        return 1;
    }
    if (kind == 6) {
        e[0] = (qt_rng_u64() | 2) & ~(quill_limb)1;
        return 1;
    }
    size_t el = 1 + rnd(MAXE);
    for (size_t i = 0; i < el; i++)
        e[i] = qt_rng_u64();
    e[el - 1] |= (quill_limb)1 << 63;
    return el;
}

static int bn_exp_eq(const quill_limb *r, const quill_limb *a, const quill_limb *e, size_t el,
                     const quill_limb *m, size_t n) {
    BIGNUM *ba = bt_bn(a, n), *be = bt_bn(e, el), *bm = bt_bn(m, n), *z = BN_new();
    if (z == NULL || !BN_mod_exp(z, ba, be, bm, bt_ctx()))
        abort();
    int ok = bt_eq(r, n, z);
    BN_free(ba);
    BN_free(be);
    BN_free(bm);
    BN_free(z);
    return ok;
}

static unsigned long cases;

/* One modulus of n limbs of shape |mk|, |rounds| bases and exponents. */
static void test_modulus(size_t n, unsigned mk, int rounds) {
    quill_limb m[MAXN], a[MAXN], e[MAXE], r[MAXN], s[MAXN], t[MAXN];
    bt_ifma_modulus(m, n, mk);
    quill_mont *mont = quill_mont_new(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    for (int i = 0; i < rounds; i++) {
        /* the first cases cross bases 0, 1, m - 1, m - 2, (m - 1)/2 with
         * the fixed exponents; then at random */
        unsigned bk = i < 30 ? (unsigned[]){0, 1, 7, 8, 9}[i % 5] : rnd(BT_OPERAND_KINDS);
        bt_operand(a, m, n, bk);
        size_t el = make_exponent(e, i < 30 ? (unsigned)(i / 5) : rnd(EXPONENT_KINDS));
        memset(r, 0xaa, sizeof(r));
        QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, el, mont) == 1);
        /* the portable path (IFMA masked off) */
        QT_CHECK(quill_mont_exp_vartime(s, a, e, el, mont) == 1);
        QT_CHECK(memcmp(r, s, n * sizeof(quill_limb)) == 0);
        if (i % 4 == 0)
            QT_CHECK(bn_exp_eq(r, a, e, el, m, n));
        if (i % 3 == 0) { /* the output aliasing the base */
            memcpy(t, a, n * sizeof(quill_limb));
            QT_CHECK(quill_mont_exp_vartime_x1_ifma(t, t, e, el, mont) == 1);
            QT_CHECK(memcmp(t, r, n * sizeof(quill_limb)) == 0);
        }
        cases++;
    }
    /* a zero exponent is the caller's case: refused, output untouched */
    memset(e, 0, sizeof(e));
    memset(r, 0x5a, sizeof(r));
    memcpy(t, r, sizeof(r));
    QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, 1, mont) == 0);
    QT_CHECK(memcmp(r, t, sizeof(r)) == 0);
    quill_mont_free(mont);
}

/* t mod 2^rbits (BN_mask_bits fails on a shorter t). */
static void mod_r(BIGNUM *t, int rbits) {
    if (BN_num_bits(t) > rbits && !BN_mask_bits(t, rbits))
        abort();
}

/* amm(x, y) = (x y + Y m) / R' with Y = -x y m^-1 mod R' (R' = 2^rbits,
 * nm = -m^-1 mod R'): the almost-Montgomery product of exp_ifma_x1.c, as a
 * value, not only mod m (its Y, one digit per step, is the unique one below
 * R' that makes the sum divisible by R'). */

static void amm_model(BIGNUM *r, const BIGNUM *x, const BIGNUM *y, const BIGNUM *m,
                      const BIGNUM *nm, int rbits) {
    BN_CTX *ctx = bt_ctx();
    BIGNUM *p = BN_new(), *t = BN_new();
    if (p == NULL || t == NULL || !BN_mul(p, x, y, ctx) || !BN_copy(t, p))
        abort();
    mod_r(t, rbits);
    if (!BN_mul(t, t, nm, ctx))
        abort();
    mod_r(t, rbits);
    if (!BN_mul(t, t, m, ctx) || !BN_add(t, t, p) || !BN_rshift(r, t, rbits))
        abort();
    BN_free(p);
    BN_free(t);
}

/* The final subtraction.  Before it the result is below 2m, but at or above
 * m only when the last product (by the base, odd exponents) lands there,
 * with a probability of the order of m / R' (measured for e = 3: one base
 * in ~10^4 at n = 64, where R' = 2^(64 n + 12), one in ~3 10^5 at n = 16,
 * R' = 2^(64 n + 16), and far fewer at the other sizes, R' >= 2^(64 n + 24)),
 * which the random cases above almost never reach (2 of ~7700 calls).
 * Bases that reach it are searched with the model of the product above
 * (e = 3: am = amm(a, R'^2), am^2, times a), for an all-ones modulus, where
 * such a result is also at least 2^(64 n) and so has a non-zero limb n.
 * Stops after |want| such bases; fails if none is found in |max_tries|. */
static void test_final_subtraction(size_t n, unsigned long want, unsigned long max_tries) {
    quill_limb m[MAXN], a[MAXN], r[MAXN], s[MAXN], e[1] = {3};
    bt_modulus(m, n, 3);
    quill_mont *mont = quill_mont_new(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    const int L = (int)(64 * n + 51) / 52, rbits = 52 * L, c = 208 * L - 256 * (int)n;
    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(m, n), *nm = BN_new(), *rp = BN_new(), *x = BN_new(), *am = BN_new(),
           *v = BN_new(), *top = BN_new();
    if (nm == NULL || rp == NULL || x == NULL || am == NULL || v == NULL || top == NULL ||
        !BN_set_bit(rp, rbits) || !BN_mod_inverse(nm, bm, rp, ctx) || !BN_sub(nm, rp, nm) ||
        !BN_set_word(x, 1) || !BN_lshift(x, x, 128 * (int)n) || !BN_mod(x, x, bm, ctx) ||
        !BN_set_word(top, 1) || !BN_lshift(top, top, 64 * (int)n))
        abort();
    /* R'^2 as the code derives it: amm(amm(R^2 mod m, R^2 mod m), 2^c) */
    amm_model(x, x, x, bm, nm, rbits);
    BN_zero(v);
    if (!BN_set_bit(v, c))
        abort();
    amm_model(rp, x, v, bm, nm, rbits);
    unsigned long hits = 0;
    for (unsigned long i = 0; i < max_tries && hits < want; i++) {
        bt_operand(a, m, n, 4);
        BIGNUM *ba = bt_bn(a, n);
        amm_model(am, ba, rp, bm, nm, rbits);
        amm_model(v, am, am, bm, nm, rbits);
        amm_model(v, v, ba, bm, nm, rbits);
        BN_free(ba);
        if (BN_cmp(v, top) < 0)
            continue;
        hits++;
        QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, 1, mont) == 1);
        QT_CHECK(quill_mont_exp_vartime(s, a, e, 1, mont) == 1);
        QT_CHECK(memcmp(r, s, n * sizeof(quill_limb)) == 0);
        QT_CHECK(bn_exp_eq(r, a, e, 1, m, n));
        if (!BN_sub(v, v, bm)) /* the model agrees once reduced */
            abort();
        QT_CHECK(bt_eq(r, n, v));
    }
    QT_CHECK(hits > 0);
    printf("bn_ifma_x1: n = %zu, subtraction with limb n set reached by %lu bases\n", n, hits);
    BN_free(bm);
    BN_free(nm);
    BN_free(rp);
    BN_free(x);
    BN_free(am);
    BN_free(v);
    BN_free(top);
    quill_mont_free(mont);
}

/* Sizes without an instance are refused, the output untouched. */
static void test_unsupported(void) {
    const size_t sizes[] = {1, 8, 17, 31, 33, 40};
    quill_limb m[MAXN], a[MAXN], r[MAXN], t[MAXN], e[1] = {65537};
    for (size_t s = 0; s < QUILL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        bt_modulus(m, n, 0);
        bt_operand(a, m, n, 4);
        quill_mont *mont = quill_mont_new(m, n);
        QT_CHECK(mont != NULL);
        if (mont == NULL)
            continue;
        QT_CHECK(!quill_mont_exp_x1_ifma_supported_size(n));
        memset(r, 0x5a, sizeof(r));
        memcpy(t, r, sizeof(r));
        QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, 1, mont) == 0);
        QT_CHECK(memcmp(r, t, sizeof(r)) == 0);
        quill_mont_free(mont);
    }
}

int main(void) {
    int skip = bt_ifma_oracle("bn_ifma_x1");
    if (skip != 0)
        return skip;
    QT_CHECK(!quill_mont_exp_x1_ifma_capable(32));
    QT_CHECK(quill_mont_exp_x1_ifma_supported_size(32));

    bt_seed("bn_ifma_x1");
    double t0 = qt_now();
    const size_t sizes[] = {16, 24, 32, 48, 64};
    const int rounds[] = {120, 100, 80, 60, 50};
    for (size_t s = 0; s < QUILL_ARRAY_LEN(sizes); s++)
        for (unsigned k = 0; k < 2 * BT_IFMA_MODULUS_KINDS; k++) {
            unsigned mk = k < BT_IFMA_MODULUS_KINDS ? k : rnd(BT_IFMA_MODULUS_KINDS);
            test_modulus(sizes[s], mk, rounds[s]);
        }
    test_final_subtraction(64, 2, 400000);  /* a hit every ~10^4 bases */
    test_final_subtraction(16, 1, 4000000); /* a hit every ~3 10^5 bases */
    test_unsupported();
    printf("bn_ifma_x1: %lu cases in %.1f s\n", cases, qt_now() - t0);
    return qt_finish("bn_ifma_x1");
}
