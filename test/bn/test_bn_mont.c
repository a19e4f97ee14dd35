/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of Montgomery arithmetic (mont.c, mont_kernels.c)
 * against OpenSSL's BN_MONT_CTX, which uses the same R = 2^(64 n) for a
 * modulus whose top limb is non-zero. */
#include <stdlib.h>
#include <string.h>

#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS

static quill_limb M[MAXN], A[MAXN], B[MAXN], R[MAXN], S[MAXN], W[2 * MAXN];

static void test_modulus(size_t n, unsigned mkind, int rounds) {
    bt_modulus(M, n, mkind);
    quill_mont *mont = quill_mont_new(M, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    QT_CHECK(quill_mont_limbs(mont) == n);
    /* The public-modulus context (R mod m by subtraction when the top bit
     * is set) holds the same constants: the same Montgomery forms of 1 and
     * of an operand. */
    quill_mont *pub = quill_mont_new_public(M, n);
    QT_CHECK(pub != NULL);
    if (pub != NULL) {
        memset(A, 0, sizeof(A));
        A[0] = 1;
        quill_mont_to(R, A, mont);
        quill_mont_to(S, A, pub);
        QT_CHECK(memcmp(R, S, n * sizeof(quill_limb)) == 0);
        bt_operand(A, M, n, (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS));
        quill_mont_to(R, A, mont);
        quill_mont_to(S, A, pub);
        QT_CHECK(memcmp(R, S, n * sizeof(quill_limb)) == 0);
        quill_mont_free(pub);
    }
    QT_CHECK(memcmp(quill_mont_modulus(mont), M, n * sizeof(quill_limb)) == 0);
    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(M, n);
    BN_MONT_CTX *om = BN_MONT_CTX_new();
    if (om == NULL || !BN_MONT_CTX_set(om, bm, ctx))
        abort();
    BIGNUM *x = BN_new(), *y = BN_new(), *z = BN_new(), *mr = BN_new();
    /* m * R, the bound of reduce_wide */
    BN_lshift(mr, bm, (int)(64 * n));

    for (int i = 0; i < rounds; i++) {
        unsigned ka = (unsigned)(i % BT_OPERAND_KINDS);
        unsigned kb = (unsigned)((i / BT_OPERAND_KINDS) % BT_OPERAND_KINDS);
        if (i >= BT_OPERAND_KINDS * BT_OPERAND_KINDS) {
            ka = (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS);
            kb = (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS);
        }
        bt_operand(A, M, n, ka);
        bt_operand(B, M, n, kb);
        BN_free(x);
        BN_free(y);
        x = bt_bn(A, n);
        y = bt_bn(B, n);

        quill_mont_mul(R, A, B, mont);
        BN_mod_mul_montgomery(z, x, y, om, ctx);
        QT_CHECK(bt_eq(R, n, z));
        /* aliasing r = a, r = b, a = b */
        memcpy(S, A, n * sizeof(quill_limb));
        quill_mont_mul(S, S, B, mont);
        QT_CHECK(memcmp(S, R, n * sizeof(quill_limb)) == 0);
        memcpy(S, B, n * sizeof(quill_limb));
        quill_mont_mul(S, A, S, mont);
        QT_CHECK(memcmp(S, R, n * sizeof(quill_limb)) == 0);

        quill_mont_sqr(R, A, mont);
        BN_mod_mul_montgomery(z, x, x, om, ctx);
        QT_CHECK(bt_eq(R, n, z));
        quill_mont_mul(S, A, A, mont);
        QT_CHECK(memcmp(S, R, n * sizeof(quill_limb)) == 0);
        memcpy(S, A, n * sizeof(quill_limb));
        quill_mont_sqr(S, S, mont);
        QT_CHECK(memcmp(S, R, n * sizeof(quill_limb)) == 0);

        quill_mont_to(R, A, mont);
        BN_to_montgomery(z, x, om, ctx);
        QT_CHECK(bt_eq(R, n, z));
        quill_mont_from(S, R, mont);
        QT_CHECK(memcmp(S, A, n * sizeof(quill_limb)) == 0);
        quill_mont_from(R, A, mont);
        BN_from_montgomery(z, x, om, ctx);
        QT_CHECK(bt_eq(R, n, z));
        memcpy(S, A, n * sizeof(quill_limb));
        quill_mont_to(S, S, mont);
        quill_mont_from(S, S, mont);
        QT_CHECK(memcmp(S, A, n * sizeof(quill_limb)) == 0);

        /* reduce_wide: a = hi * R + lo with hi < m, and a of fewer limbs */
        size_t na = 2 * n;
        if (i % 3 == 1)
            na = n + qt_rng_u64() % n;
        else if (i % 3 == 2)
            na = 1 + qt_rng_u64() % n;
        bt_value(W, n, (unsigned)(qt_rng_u64() % BT_VALUE_KINDS));
        bt_operand(W + n, M, n, kb);
        BIGNUM *wa = bt_bn(W, na);
        QT_CHECK(BN_cmp(wa, mr) < 0);
        quill_mont_reduce_wide(R, W, na, mont);
        BN_mod(z, wa, bm, ctx);
        QT_CHECK(bt_eq(R, n, z));
        BN_free(wa);
    }
    /* reduce_wide of the largest allowed value, m R - 1 */
    BN_sub(z, mr, BN_value_one());
    bt_to_limbs(W, 2 * n, z);
    quill_mont_reduce_wide(R, W, 2 * n, mont);
    BN_mod(z, z, bm, ctx);
    QT_CHECK(bt_eq(R, n, z));

    BN_free(x);
    BN_free(y);
    BN_free(z);
    BN_free(mr);
    BN_free(bm);
    BN_MONT_CTX_free(om);
    quill_mont_free(mont);
}

static void test_bad_moduli(void) {
    quill_limb m[4] = {4, 1, 1, 1};
    QT_CHECK(quill_mont_new(m, 4) == NULL); /* even */
    m[0] = 5;
    m[3] = 0;
    QT_CHECK(quill_mont_new(m, 4) == NULL); /* top limb zero */
    QT_CHECK(quill_mont_new(m, 0) == NULL);
    QT_CHECK(quill_mont_new(m, QUILL_BN_MAX_LIMBS + 1) == NULL);
    m[0] = 1;
    QT_CHECK(quill_mont_new(m, 1) == NULL); /* m = 1 */
    m[0] = 3;
    quill_mont *mont = quill_mont_new(m, 1);
    QT_CHECK(mont != NULL);
    quill_mont_free(mont);
    quill_mont_free(NULL);
}

int main(void) {
    bt_seed("bn_mont");
    test_bad_moduli();
    const size_t small[] = {1, 2, 3, 5, 7, 9, 17, 33};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(small); i++)
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            test_modulus(small[i], k, 100);
    for (size_t s = 0; s < bt_num_sizes; s++) {
        size_t n = bt_sizes[s] / 64;
        int moduli = n >= 128 ? 1 : 4;
        int rounds = n >= 128 ? 110 : 200;
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            for (int j = 0; j < moduli; j++)
                test_modulus(n, k, rounds);
    }
    return qt_finish("bn_mont");
}
