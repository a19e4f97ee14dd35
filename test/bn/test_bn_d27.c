/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of the one-lane radix-2^27 AVX2 squaring for public
 * 2048-bit operands (core/bn/mont_d27_avx2.c) against OpenSSL's BN: N' by
 * Newton's iteration against BN_mod_inverse, the conversions, chains of
 * squarings on the kernel's own (not fully carried) outputs from edge
 * operands, every result compared mod m and checked against the kernel's
 * bounds (value below 2^2051, digits below 2^28 + 2^10); then
 * quill_mont_exp_public for e = 2^k + 1 on a public 32-limb context
 * (the d27 path at the AVX2 level, test_bn_d27_avx2) against BN_mod_exp.
 * The kernel part is skipped without AVX2 or without the assembly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "bn/exp_ifma.h"
#include "bn/mont_d27_avx2.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define N 32
#define D QUILL_D27_DIGITS

#if QUILL_BN_HAVE_D27
/* The exact value of a d27 number (digits may exceed 27 bits). */
static BIGNUM *d27_bn(const uint64_t x[D]) {
    BIGNUM *r = BN_new(), *t = BN_new();
    if (r == NULL || t == NULL)
        abort();
    BN_zero(r);
    for (int k = D - 1; k >= 0; k--) {
        if (!BN_lshift(r, r, 27) || !BN_set_word(t, x[k]) || !BN_add(r, r, t))
            abort();
    }
    BN_free(t);
    return r;
}

/* 1 if x (d27) = want mod m, x < 2^2051 and its digits below 2^28 + 2^10;
 * also checks quill_d27_to_limbs against the exact value. */
static int check_d27(const uint64_t x[D], const BIGNUM *want, const BIGNUM *bm) {
    BN_CTX *ctx = bt_ctx();
    BIGNUM *v = d27_bn(x), *t = BN_new();
    int ok = 1;
    for (int k = 0; k < D; k++)
        ok &= x[k] < (1ull << 28) + (1ull << 10);
    if (BN_num_bits(v) > 2051)
        ok = 0;
    quill_limb l[33];
    quill_d27_to_limbs(l, x);
    ok &= bt_eq(l, 33, v);
    if (!BN_mod(t, v, bm, ctx))
        abort();
    ok &= BN_cmp(t, want) == 0;
    BN_free(v);
    BN_free(t);
    return ok;
}

#endif

static void check_mod_init(const quill_limb *m, const BIGNUM *bm) {
    static quill_d27_mod md;
    BIGNUM *R = BN_new(), *inv = BN_new();
    BN_one(R);
    if (!BN_lshift(R, R, 27 * D) || !BN_mod_inverse(inv, bm, R, bt_ctx()) || !BN_sub(inv, R, inv))
        abort();
    quill_limb l[33];
    uint64_t want[D];
    bt_to_limbs(l, 33, inv);
    quill_d27_from_limbs(want, l, 33);
    quill_d27_mod_init(&md, m);
    uint64_t dm[D];
    quill_d27_from_limbs(dm, m, N);
    int ok = 1;
    for (int j = 0; j < D; j++)
        for (int o = 0; o < 4; o++) {
            ok &= md.nprev[o * QUILL_D27_RW + 16 + 75 - j - o] == want[j];
            ok &= md.mrev[o * QUILL_D27_RW + 16 + 75 - j - o] == dm[j];
        }
    QT_CHECK(ok);
    BN_free(R);
    BN_free(inv);
}

#if QUILL_BN_HAVE_D27
/* A chain of squarings from a (n limbs, below 2^2051). */
static void check_chain(const quill_limb *m, const quill_limb *a, size_t n, int steps) {
    static quill_d27_mod md;
    static uint64_t x[D] __attribute__((aligned(32)));
    BN_CTX *ctx = bt_ctx();
    quill_d27_mod_init(&md, m);
    BIGNUM *bm = bt_bn(m, N), *ri = BN_new(), *want = bt_bn(a, n);
    BN_one(ri);
    if (!BN_lshift(ri, ri, 27 * D) || !BN_mod_inverse(ri, ri, bm, ctx) ||
        !BN_mod(want, want, bm, ctx))
        abort();
    quill_d27_from_limbs(x, a, n);
    for (int i = 0; i < steps; i++) {
        quill_mont_sqr_d27_avx2_public(x, x, &md);
        if (!BN_mod_mul(want, want, want, bm, ctx) || !BN_mod_mul(want, want, ri, bm, ctx))
            abort();
        QT_CHECK(check_d27(x, want, bm));
    }
    BN_free(bm);
    BN_free(ri);
    BN_free(want);
}
#endif

/* quill_mont_exp_public against BN_mod_exp, e = 2^k + 1. */
static void check_exp(const quill_limb *m, const quill_limb *a, unsigned k) {
    quill_mont *mont = quill_mont_new_public(m, N);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    quill_limb e[2] = {((quill_limb)1 << k) + 1, 0}, r[N], s[N];
    BIGNUM *bm = bt_bn(m, N), *x = bt_bn(a, N), *be = bt_bn(e, 2), *z = BN_new();
    if (!BN_mod_exp(z, x, be, bm, bt_ctx()))
        abort();
    /* The first use runs the MULX squarings, the second builds the d27
     * form (where the context has one) and uses it, the third uses it. */
    for (int use = 0; use < 3; use++) {
        QT_CHECK(quill_mont_exp_public(r, a, e, 2, mont) == 1);
        QT_CHECK(bt_eq(r, N, z));
    }
    memcpy(s, a, sizeof s);
    QT_CHECK(quill_mont_exp_public(s, s, e, 1, mont) == 1); /* aliasing, one limb */
    QT_CHECK(bt_eq(s, N, z));
#if QUILL_BN_HAVE_D27
    /* Built exactly where expected: at the AVX2 level without the IFMA
     * exponentiation, after two uses. */
    int expect = quill_cpu_has(QUILL_CPU_X86_AVX2) && !quill_mont_exp_x1_ifma_capable(N);
    QT_CHECK((__atomic_load_n(&mont->d27_state, __ATOMIC_ACQUIRE) == QUILL_D27_READY) == expect);
#endif
    quill_mont_free(mont);
    BN_free(bm);
    BN_free(x);
    BN_free(be);
    BN_free(z);
}

int main(void) {
    bt_seed("test_bn_d27");
    quill_limb m[N], a[33];
    static const unsigned ks[] = {16, 8, 9, 31, 63};
    for (unsigned it = 0; it < 60; it++) {
        bt_modulus(m, N, it % BT_MODULUS_KINDS);
        bt_operand(a, m, N, it % BT_OPERAND_KINDS);
        BIGNUM *bm = bt_bn(m, N);
        check_mod_init(m, bm);
        BN_free(bm);
        check_exp(m, a, ks[it % 5]);
    }
#if QUILL_BN_HAVE_D27
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        printf("test_bn_d27: no AVX2, kernel skipped\n");
        return qt_finish("test_bn_d27");
    }
    for (unsigned it = 0; it < 60; it++) {
        bt_modulus(m, N, it % BT_MODULUS_KINDS);
        size_t n = N;
        if (it % 4 == 3) { /* 2^2051 - 1, above m, the kernel's input bound */
            memset(a, 0xff, sizeof a);
            a[32] = ((quill_limb)1 << 3) - 1;
            n = 33;
        } else {
            bt_operand(a, m, N, it % BT_OPERAND_KINDS);
        }
        check_chain(m, a, n, 20);
    }
#endif
    return qt_finish("test_bn_d27");
}
