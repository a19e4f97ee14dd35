/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_d28x2: the two-way radix-2^28 AVX2 Montgomery kernels
 * (core/bn/mont_d28x2_avx2.c, an experiment of issue 24) against OpenSSL's
 * BN, lane by lane: r 2^1036 = a b (mod m) and r < 2m, for 1024-bit moduli
 * of every bt_modulus shape and operands of every bt_operand shape, with r
 * aliasing a; then chains of 64 squarings and products fed with the
 * kernels' own (not fully carried) outputs.  Skipped (77) without AVX2 or
 * without the kernels (QUILL_NO_ASM, non-x86-64 targets). */
#include <stdlib.h>
#include <string.h>

#include "bn/mont_d28x2_avx2.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define N 16

#if QUILL_BN_HAVE_D28X2
/* 1 if r (17 limbs) < 2m and r 2^1036 = x y mod m. */
static int check(const quill_limb r[17], const quill_limb *x, const quill_limb *y,
                 const quill_limb *m) {
    BIGNUM *br = bt_bn(r, 17), *bx = bt_bn(x, 17), *by = bt_bn(y, 17), *bm = bt_bn(m, N);
    BIGNUM *m2 = BN_new(), *u = BN_new(), *v = BN_new();
    int ok = br && bx && by && bm && m2 && u && v && BN_lshift1(m2, bm) &&
             BN_cmp(br, m2) < 0 && BN_lshift(u, br, 1036) && BN_nnmod(u, u, bm, bt_ctx()) &&
             BN_mod_mul(v, bx, by, bm, bt_ctx()) && BN_cmp(u, v) == 0;
    BN_free(br), BN_free(bx), BN_free(by), BN_free(bm), BN_free(m2), BN_free(u), BN_free(v);
    return ok;
}

static void one_set(const quill_limb *m0, const quill_limb *m1, const quill_limb *a0,
                    const quill_limb *a1, const quill_limb *b0, const quill_limb *b1) {
    static quill_d28x2_mod md;
    uint64_t x[QUILL_D28X2_WORDS], y[QUILL_D28X2_WORDS], z[QUILL_D28X2_WORDS];
    quill_limb r0[17], r1[17], xa0[17] = {0}, xa1[17] = {0}, xb0[17] = {0}, xb1[17] = {0};
    quill_d28x2_mod_init(&md, m0, m1, N);
    quill_d28x2_from_limbs(x, a0, a1, N);
    quill_d28x2_from_limbs(y, b0, b1, N);
    memcpy(xa0, a0, 8 * N), memcpy(xa1, a1, 8 * N), memcpy(xb0, b0, 8 * N), memcpy(xb1, b1, 8 * N);
    quill_mont_mul_d28x2_avx2(z, x, y, &md);
    quill_d28x2_to_limbs(r0, r1, z);
    QT_CHECK(check(r0, xa0, xb0, m0));
    QT_CHECK(check(r1, xa1, xb1, m1));
    quill_mont_sqr_d28x2_avx2(z, x, &md);
    quill_d28x2_to_limbs(r0, r1, z);
    QT_CHECK(check(r0, xa0, xa0, m0));
    QT_CHECK(check(r1, xa1, xa1, m1));
    /* r aliasing a, then chains on the kernels' own outputs */
    for (int i = 0; i < 64; i++) {
        quill_limb p0[17], p1[17], q0[17], q1[17];
        quill_d28x2_to_limbs(p0, p1, x);
        quill_d28x2_to_limbs(q0, q1, y);
        if (i & 1) {
            quill_mont_mul_d28x2_avx2(x, x, y, &md);
            quill_d28x2_to_limbs(r0, r1, x);
            QT_CHECK(check(r0, p0, q0, m0));
            QT_CHECK(check(r1, p1, q1, m1));
        } else {
            quill_mont_sqr_d28x2_avx2(x, x, &md);
            quill_d28x2_to_limbs(r0, r1, x);
            QT_CHECK(check(r0, p0, p0, m0));
            QT_CHECK(check(r1, p1, p1, m1));
        }
        if (i % 16 != 15)
            continue;
        quill_mont_mul_d28x2_avx2(y, x, y, &md);
    }
}
#endif

int main(void) {
    bt_seed("test_bn_d28x2");
#if QUILL_BN_HAVE_D28X2
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        printf("test_bn_d28x2: no AVX2, skipped\n");
        return QT_SKIP;
    }
    quill_limb m0[N], m1[N], a0[N], a1[N], b0[N], b1[N];
    for (unsigned it = 0; it < 300; it++) {
        unsigned mk = it % BT_MODULUS_KINDS;
        bt_modulus(m0, N, mk);
        bt_modulus(m1, N, (it / BT_MODULUS_KINDS) % BT_MODULUS_KINDS);
        bt_operand(a0, m0, N, it % BT_OPERAND_KINDS);
        bt_operand(a1, m1, N, (it / 3) % BT_OPERAND_KINDS);
        bt_operand(b0, m0, N, (it / 7) % BT_OPERAND_KINDS);
        bt_operand(b1, m1, N, (it + 4) % BT_OPERAND_KINDS);
        one_set(m0, m1, a0, a1, b0, b1);
    }
    return qt_finish("test_bn_d28x2");
#else
    printf("test_bn_d28x2: not built on this target, skipped\n");
    return QT_SKIP;
#endif
}
