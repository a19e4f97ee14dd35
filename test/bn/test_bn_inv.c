/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of constant-time modular inversion (inv.c) against
 * OpenSSL's BN_mod_inverse: random odd moduli (prime or not), a = 0, 1, m-1,
 * values sharing a factor with m (non-invertible), every size. */
#include <stdlib.h>
#include <string.h>

#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS

static quill_limb M[MAXN], A[MAXN], R[MAXN];

static void check_inv(size_t n) {
    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(M, n), *x = bt_bn(A, n), *z = BN_new();
    ERR_set_mark();
    int invertible = BN_mod_inverse(z, x, bm, ctx) != NULL;
    ERR_pop_to_mark();
    memset(R, 0x77, n * sizeof(quill_limb));
    quill_word ok = quill_bn_inv_mod_odd_consttime(R, A, M, n);
    QT_CHECK(ok == (invertible ? ~(quill_word)0 : 0));
    if (invertible)
        QT_CHECK(bt_eq(R, n, z));
    else
        QT_CHECK(quill_bn_is_zero_mask(R, n) == ~(quill_word)0);
    BN_free(bm);
    BN_free(x);
    BN_free(z);
}

/* M = an odd multiple of a small odd f (so that multiples of f are not
 * invertible); A = a random multiple of f below M. */
static void shared_factor(size_t n) {
    BN_CTX *ctx = bt_ctx();
    BN_ULONG f = 3 + 2 * (qt_rng_u64() % 1000);
    bt_modulus(M, n, 0);
    BIGNUM *bm = bt_bn(M, n);
    BN_sub_word(bm, BN_mod_word(bm, f)); /* now a multiple of f */
    if (!BN_is_odd(bm))
        BN_sub_word(bm, f);
    bt_to_limbs(M, n, bm);
    bt_operand(A, M, n, 4);
    BIGNUM *x = bt_bn(A, n);
    BN_sub_word(x, BN_mod_word(x, f));
    bt_to_limbs(A, n, x);
    (void)ctx;
    check_inv(n);
    BN_free(bm);
    BN_free(x);
}

int main(void) {
    bt_seed("bn_inv");
    size_t sizes[32];
    size_t ns = 0;
    const size_t small[] = {1, 2, 3, 5, 7, 9, 17, 33};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(small); i++)
        sizes[ns++] = small[i];
    for (size_t i = 0; i < bt_num_sizes; i++)
        sizes[ns++] = bt_sizes[i] / 64;
    for (size_t s = 0; s < ns; s++) {
        size_t n = sizes[s];
        int rounds = n >= 128 ? 150 : 700;
        for (int i = 0; i < rounds; i++) {
            bt_modulus(M, n, (unsigned)(i % BT_MODULUS_KINDS));
            bt_operand(A, M, n, (unsigned)((i / BT_MODULUS_KINDS) % BT_OPERAND_KINDS));
            check_inv(n);
            if (i % 4 == 0)
                shared_factor(n);
        }
        /* a prime modulus: every non-zero a is invertible */
        if (n <= 16) {
            BIGNUM *p = BN_new();
            if (!BN_generate_prime_ex(p, (int)(64 * n), 0, NULL, NULL, NULL))
                abort();
            bt_to_limbs(M, n, p);
            for (unsigned k = 0; k < BT_OPERAND_KINDS; k++) {
                bt_operand(A, M, n, k);
                check_inv(n);
            }
            BN_free(p);
        }
    }
    return qt_finish("bn_inv");
}
