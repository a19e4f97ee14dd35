/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of modular exponentiation (exp.c) against OpenSSL's
 * BN_mod_exp: constant-time and variable-time, edge exponents (0, 1, 2,
 * 65537, all ones, m - 1), edge bases, exponents longer and shorter than the
 * modulus. */
#include <stdlib.h>
#include <string.h>

#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS

static quill_limb M[MAXN], A[MAXN], E[2 * MAXN], R[MAXN], S[MAXN];

/* Fills E (el limbs) with exponent shape k. */
static void make_exponent(size_t el, unsigned k, const quill_limb *m, size_t n) {
    memset(E, 0, el * sizeof(quill_limb));
    switch (k) {
    case 0: /* zero */
        break;
    case 1:
        E[0] = 1;
        break;
    case 2:
        E[0] = 2;
        break;
    case 3:
        E[0] = 65537;
        break;
    case 4:
        for (size_t i = 0; i < el; i++)
            E[i] = ~(quill_limb)0;
        break;
    case 5: /* m - 1 (or its low limbs) */
        for (size_t i = 0; i < el && i < n; i++)
            E[i] = m[i];
        E[0] -= 1;
        break;
    default:
        bt_value(E, el, 4 + (unsigned)(qt_rng_u64() % 3));
        break;
    }
}

static void check_exp(size_t n, size_t el, unsigned ka, unsigned ke, int do_ct) {
    BN_CTX *ctx = bt_ctx();
    bt_operand(A, M, n, ka);
    make_exponent(el, ke, M, n);
    BIGNUM *bm = bt_bn(M, n), *x = bt_bn(A, n), *e = bt_bn(E, el), *z = BN_new();
    if (!BN_mod_exp(z, x, e, bm, ctx))
        abort();
    const quill_mont *mont = NULL;
    quill_mont *mm = quill_mont_new(M, n);
    QT_CHECK(mm != NULL);
    mont = mm;
    if (mont != NULL) {
        if (do_ct) {
            QT_CHECK(quill_mont_exp_consttime(R, A, E, el, mont) == 1);
            QT_CHECK(bt_eq(R, n, z));
            /* r aliasing a */
            memcpy(S, A, n * sizeof(quill_limb));
            QT_CHECK(quill_mont_exp_consttime(S, S, E, el, mont) == 1);
            QT_CHECK(bt_eq(S, n, z));
        }
        QT_CHECK(quill_mont_exp_vartime(R, A, E, el, mont) == 1);
        QT_CHECK(bt_eq(R, n, z));
        memcpy(S, A, n * sizeof(quill_limb));
        QT_CHECK(quill_mont_exp_vartime(S, S, E, el, mont) == 1);
        QT_CHECK(bt_eq(S, n, z));
        /* the public-base exponentiation (almost-Montgomery squarings) */
        QT_CHECK(quill_mont_exp_public(R, A, E, el, mont) == 1);
        QT_CHECK(bt_eq(R, n, z));
        memcpy(S, A, n * sizeof(quill_limb));
        QT_CHECK(quill_mont_exp_public(S, S, E, el, mont) == 1);
        QT_CHECK(bt_eq(S, n, z));
    }
    quill_mont_free(mm);
    BN_free(bm);
    BN_free(x);
    BN_free(e);
    BN_free(z);
}

int main(void) {
    bt_seed("bn_exp");
    /* small sizes, every window width */
    const size_t small[] = {1, 2, 3, 5, 9};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(small); i++) {
        size_t n = small[i];
        for (int j = 0; j < 60; j++) {
            bt_modulus(M, n, (unsigned)(j % BT_MODULUS_KINDS));
            size_t el = 1 + qt_rng_u64() % (2 * n + 2);
            check_exp(n, el, (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS), (unsigned)(j % 8), 1);
        }
    }
    for (size_t s = 0; s < bt_num_sizes; s++) {
        size_t n = bt_sizes[s] / 64;
        /* full-length exponents cost n^3: scale the count down */
        int full = n <= 16 ? 60 : n <= 32 ? 24 : n <= 64 ? 6 : n <= 128 ? 2 : 1;
        int shortc = n <= 64 ? 40 : 8;
        for (int j = 0; j < full; j++) {
            bt_modulus(M, n, (unsigned)(j % BT_MODULUS_KINDS));
            check_exp(n, n, (unsigned)(j % BT_OPERAND_KINDS), (unsigned)(j % 8), 1);
        }
        for (int j = 0; j < shortc; j++) {
            bt_modulus(M, n, (unsigned)(j % BT_MODULUS_KINDS));
            size_t el = 1 + qt_rng_u64() % 4;
            check_exp(n, el, (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS), (unsigned)(j % 8), 1);
        }
    }
    return qt_finish("bn_exp");
}
