/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of the two-way Montgomery kernels and exponentiation
 * (quill_mont_mul_x2, quill_mont_sqr_x2, quill_mont_exp_consttime_x2)
 * against OpenSSL's BN_mod_mul_montgomery and BN_mod_exp, lane by lane: two
 * different moduli of the same limb count (every size with its own kernel,
 * odd sizes, and the interleaved generic kernel), aliasing of each lane's
 * output with its inputs, and moduli of different limb counts (the
 * two-call fallback). */
#include <stdlib.h>
#include <string.h>

#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS

typedef struct lane {
    quill_limb m[MAXN], a[MAXN], b[MAXN], e[MAXN], r[MAXN], s[MAXN];
    size_t n;
    quill_mont *mont;
    BIGNUM *bm;
    BN_MONT_CTX *om;
} lane;

static lane L[2];

static void lane_setup(lane *l, size_t n, unsigned mkind) {
    l->n = n;
    bt_modulus(l->m, n, mkind);
    l->mont = quill_mont_new(l->m, n);
    QT_CHECK(l->mont != NULL);
    l->bm = bt_bn(l->m, n);
    l->om = BN_MONT_CTX_new();
    if (l->om == NULL || !BN_MONT_CTX_set(l->om, l->bm, bt_ctx()))
        abort();
}

static void lane_free(lane *l) {
    quill_mont_free(l->mont);
    BN_free(l->bm);
    BN_MONT_CTX_free(l->om);
}

/* 1 if r (the lane's n limbs) is x * y R^-1 mod m (y = x when y is NULL). */
static int lane_mont_eq(const lane *l, const quill_limb *r, const quill_limb *x,
                        const quill_limb *y) {
    BIGNUM *bx = bt_bn(x, l->n), *by = bt_bn(y != NULL ? y : x, l->n), *z = BN_new();
    if (z == NULL || !BN_mod_mul_montgomery(z, bx, by, l->om, bt_ctx()))
        abort();
    int ok = bt_eq(r, l->n, z);
    BN_free(bx);
    BN_free(by);
    BN_free(z);
    return ok;
}

/* 1 if r is a^e mod m for the lane's a, e (el limbs). */
static int lane_exp_eq(const lane *l, const quill_limb *r, size_t el) {
    BIGNUM *ba = bt_bn(l->a, l->n), *be = bt_bn(l->e, el), *z = BN_new();
    if (z == NULL || !BN_mod_exp(z, ba, be, l->bm, bt_ctx()))
        abort();
    int ok = bt_eq(r, l->n, z);
    BN_free(ba);
    BN_free(be);
    BN_free(z);
    return ok;
}

static unsigned rnd(unsigned bound) {
    return (unsigned)(qt_rng_u64() % bound);
}

static void test_kernels(size_t n0, size_t n1, int rounds) {
    lane_setup(&L[0], n0, rnd(BT_MODULUS_KINDS));
    lane_setup(&L[1], n1, rnd(BT_MODULUS_KINDS));
    if (L[0].mont == NULL || L[1].mont == NULL)
        goto done;
    for (int i = 0; i < rounds; i++) {
        for (int k = 0; k < 2; k++) {
            bt_operand(L[k].a, L[k].m, L[k].n, rnd(BT_OPERAND_KINDS));
            bt_operand(L[k].b, L[k].m, L[k].n, rnd(BT_OPERAND_KINDS));
        }
        quill_mont_mul_x2(L[0].r, L[0].a, L[0].b, L[0].mont, L[1].r, L[1].a, L[1].b,
                          L[1].mont);
        QT_CHECK(lane_mont_eq(&L[0], L[0].r, L[0].a, L[0].b));
        QT_CHECK(lane_mont_eq(&L[1], L[1].r, L[1].a, L[1].b));
        /* aliasing: r0 = a0, r1 = b1 */
        memcpy(L[0].s, L[0].a, L[0].n * sizeof(quill_limb));
        memcpy(L[1].s, L[1].b, L[1].n * sizeof(quill_limb));
        quill_mont_mul_x2(L[0].s, L[0].s, L[0].b, L[0].mont, L[1].s, L[1].a, L[1].s,
                          L[1].mont);
        QT_CHECK(memcmp(L[0].s, L[0].r, L[0].n * sizeof(quill_limb)) == 0);
        QT_CHECK(memcmp(L[1].s, L[1].r, L[1].n * sizeof(quill_limb)) == 0);

        quill_mont_sqr_x2(L[0].r, L[0].a, L[0].mont, L[1].r, L[1].b, L[1].mont);
        QT_CHECK(lane_mont_eq(&L[0], L[0].r, L[0].a, NULL));
        QT_CHECK(lane_mont_eq(&L[1], L[1].r, L[1].b, NULL));
        memcpy(L[0].s, L[0].a, L[0].n * sizeof(quill_limb));
        memcpy(L[1].s, L[1].b, L[1].n * sizeof(quill_limb));
        quill_mont_sqr_x2(L[0].s, L[0].s, L[0].mont, L[1].s, L[1].s, L[1].mont);
        QT_CHECK(memcmp(L[0].s, L[0].r, L[0].n * sizeof(quill_limb)) == 0);
        QT_CHECK(memcmp(L[1].s, L[1].r, L[1].n * sizeof(quill_limb)) == 0);
    }
done:
    lane_free(&L[0]);
    lane_free(&L[1]);
}

/* Exponent shapes: 0 zero, 1 one, 2 all ones, otherwise random values. */
static void make_exponent(quill_limb *e, size_t el, unsigned k) {
    memset(e, 0, el * sizeof(quill_limb));
    if (k == 1)
        e[0] = 1;
    else if (k == 2)
        memset(e, 0xff, el * sizeof(quill_limb));
    else if (k > 2)
        bt_value(e, el, 4 + rnd(3));
}

static void test_exp(size_t n0, size_t n1, size_t el, int rounds) {
    lane_setup(&L[0], n0, rnd(BT_MODULUS_KINDS));
    lane_setup(&L[1], n1, rnd(BT_MODULUS_KINDS));
    if (L[0].mont == NULL || L[1].mont == NULL)
        goto done;
    for (int i = 0; i < rounds; i++) {
        for (int k = 0; k < 2; k++) {
            bt_operand(L[k].a, L[k].m, L[k].n, rnd(BT_OPERAND_KINDS));
            make_exponent(L[k].e, el, i < 3 ? (unsigned)i : 3);
        }
        QT_CHECK(quill_mont_exp_consttime_x2(L[0].r, L[0].a, L[0].e, L[0].mont, L[1].r,
                                             L[1].a, L[1].e, L[1].mont, el) == 1);
        QT_CHECK(lane_exp_eq(&L[0], L[0].r, el));
        QT_CHECK(lane_exp_eq(&L[1], L[1].r, el));
        /* each output aliasing its own base */
        memcpy(L[0].s, L[0].a, L[0].n * sizeof(quill_limb));
        memcpy(L[1].s, L[1].a, L[1].n * sizeof(quill_limb));
        QT_CHECK(quill_mont_exp_consttime_x2(L[0].s, L[0].s, L[0].e, L[0].mont, L[1].s,
                                             L[1].s, L[1].e, L[1].mont, el) == 1);
        QT_CHECK(memcmp(L[0].s, L[0].r, L[0].n * sizeof(quill_limb)) == 0);
        QT_CHECK(memcmp(L[1].s, L[1].r, L[1].n * sizeof(quill_limb)) == 0);
    }
done:
    lane_free(&L[0]);
    lane_free(&L[1]);
}

int main(void) {
    bt_seed("bn_x2");
    /* every size with its own kernel, odd sizes, the generic kernel */
    const size_t sizes[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 24, 32, 33, 48, 64, 128, 256};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(sizes); i++) {
        size_t n = sizes[i];
        int rounds = n >= 128 ? 20 : 100;
        for (int j = 0; j < 6; j++)
            test_kernels(n, n, rounds);
    }
    /* different limb counts: the two-call fallback */
    test_kernels(16, 17, 50);
    test_kernels(24, 16, 50);

    /* exponentiation: full-length exponents (the CRT case) and short ones,
     * every window width */
    const size_t esizes[] = {1, 2, 3, 5, 8, 9, 16, 24, 32, 33};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(esizes); i++) {
        size_t n = esizes[i];
        int rounds = n <= 9 ? 12 : n <= 16 ? 6 : 3;
        test_exp(n, n, n, rounds);
        test_exp(n, n, 1 + rnd(3), rounds);
    }
    test_exp(64, 64, 64, 2);
    test_exp(16, 17, 16, 3); /* different limb counts */
    return qt_finish("bn_x2");
}
