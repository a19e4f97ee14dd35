/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_d28x2_edge (review of h26avx2): the radix-2^28
 * kernels on the inputs the random tests do not reach: operands in the
 * most redundant form the header allows (digits 0..35 at 2^29 + 2^8 - 1,
 * digit 36 as large as keeps the value below 2m), zero operands (the carry
 * ceiling's exact case), m = 2^1024 - 1 and m = 2^1023 + 1, and the
 * exponentiation (quill_mont_exp_consttime_x2 at the AVX2 level) with
 * a = 0, 1, m - 1 and e = 0, 1, all ones.  quill_d28x2_to_limbs (both
 * lanes in one pass, h28s2k) is checked on the operands and the results,
 * where carries of 2 run through all 38 digits. */
#include <stdlib.h>
#include <string.h>

#include "bn/mont_d28x2_avx2.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define N 16
#define DMAX (((uint64_t)1 << 29) + ((uint64_t)1 << 8) - 1)

#if QUILL_BN_HAVE_D28X2 /* the kernels' checks; without the kernels, skipped (main) */
static BIGNUM *val(const uint64_t *x, int l) { /* value of lane l */
    BIGNUM *b = BN_new(), *t = BN_new();
    BN_zero(b);
    for (int i = 36; i >= 0; i--) {
        BN_lshift(b, b, 28);
        BN_set_word(t, x[4 * (i / 2) + 2 * l + (i & 1)]);
        BN_add(b, b, t);
    }
    BN_free(t);
    return b;
}

/* x lane l: digits 0..35 at DMAX (or 0), digit 36 the largest keeping x < 2m */
static void redundant(uint64_t *x, int l, const quill_limb *m, int zero) {
    for (int i = 0; i < 38; i++)
        x[4 * (i / 2) + 2 * l + (i & 1)] = (zero || i >= 36) ? 0 : DMAX;
    if (zero)
        return;
    BIGNUM *low = val(x, l), *bm = bt_bn(m, N), *t = BN_new();
    BN_lshift1(t, bm);
    BN_sub_word(t, 1);
    BN_sub(t, t, low); /* 2m - 1 - low */
    BN_rshift(t, t, 28 * 36);
    uint64_t d = BN_get_word(t);
    if (d > DMAX)
        d = DMAX;
    x[4 * 18 + 2 * l] = d;
    BN_free(low), BN_free(bm), BN_free(t);
}

/* 1 if quill_d28x2_to_limbs gives both lanes' values of x (digit 37 zero) */
static int limbs_ok(const uint64_t *x) {
    quill_limb l0[QUILL_D28X2_LIMBS], l1[QUILL_D28X2_LIMBS];
    quill_d28x2_to_limbs(l0, l1, x);
    int ok = 1;
    for (int l = 0; l < 2; l++) {
        BIGNUM *bv = val(x, l), *bl = bt_bn(l ? l1 : l0, QUILL_D28X2_LIMBS);
        ok &= BN_cmp(bv, bl) == 0 && x[4 * 18 + 2 * l + 1] == 0;
        BN_free(bv), BN_free(bl);
    }
    return ok;
}

static int check(const uint64_t *r, const uint64_t *x, const uint64_t *y, int l,
                 const quill_limb *m) {
    BIGNUM *br = val(r, l), *bx = val(x, l), *by = val(y, l), *bm = bt_bn(m, N);
    BIGNUM *m2 = BN_new(), *u = BN_new(), *v = BN_new();
    int ok = BN_lshift1(m2, bm) && BN_cmp(br, m2) < 0 && BN_lshift(u, br, 1036) &&
             BN_nnmod(u, u, bm, bt_ctx()) && BN_mod_mul(v, bx, by, bm, bt_ctx()) &&
             BN_cmp(u, v) == 0 && r[4 * 18 + 2 * l + 1] == 0;
    for (int i = 0; i < 38; i++)
        ok &= r[4 * (i / 2) + 2 * l + (i & 1)] <= DMAX;
    BN_free(br), BN_free(bx), BN_free(by), BN_free(bm), BN_free(m2), BN_free(u), BN_free(v);
    return ok;
}

#endif

int main(void) {
    bt_seed("test_bn_d28x2_edge");
#if QUILL_BN_HAVE_D28X2
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2))
        return QT_SKIP;
    static quill_d28x2_mod md;
    quill_limb ms[4][N];
    memset(ms, 0xff, sizeof(ms)); /* 2^1024 - 1 */
    memset(ms[1], 0, sizeof(ms[1]));
    ms[1][0] = 1, ms[1][N - 1] = (quill_limb)1 << 63; /* 2^1023 + 1 */
    bt_modulus(ms[2], N, 0);
    bt_modulus(ms[3], N, 1);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            quill_d28x2_mod_init(&md, ms[a], ms[b], N);
            for (int z = 0; z < 4; z++) {
                uint64_t x[QUILL_D28X2_WORDS], y[QUILL_D28X2_WORDS], r[QUILL_D28X2_WORDS];
                redundant(x, 0, ms[a], z & 1), redundant(x, 1, ms[b], z & 2);
                redundant(y, 0, ms[a], z & 2), redundant(y, 1, ms[b], 0);
                QT_CHECK(limbs_ok(x));
                QT_CHECK(limbs_ok(y));
                quill_mont_mul_d28x2_avx2(r, x, y, &md);
                QT_CHECK(limbs_ok(r));
                QT_CHECK(check(r, x, y, 0, ms[a]));
                QT_CHECK(check(r, x, y, 1, ms[b]));
                quill_mont_sqr_d28x2_avx2(r, x, &md);
                QT_CHECK(limbs_ok(r));
                QT_CHECK(check(r, x, x, 0, ms[a]));
                QT_CHECK(check(r, x, x, 1, ms[b]));
            }
        }
    /* the exponentiation (on the radix-2^28 path at the AVX2 level, test_bn_d28x2_edge_avx2):
     * a in {0, 1, m - 1}, e in {0, 1, ~0} */
    for (int a = 0; a < 4; a++) {
        quill_mont *m0 = quill_mont_new(ms[a], N), *m1 = quill_mont_new(ms[(a + 1) % 4], N);
        for (int ak = 0; ak < 3; ak++)
            for (int ek = 0; ek < 3; ek++) {
                quill_limb a0[N] = {0}, a1[N] = {0}, e[N], r0[N], r1[N];
                memset(e, ek == 2 ? 0xff : 0, sizeof(e));
                e[0] = ek == 0 ? 0 : ek == 1 ? 1 : ~(quill_limb)0;
                if (ak == 1)
                    a0[0] = a1[0] = 1;
                if (ak == 2) {
                    memcpy(a0, ms[a], sizeof(a0)), a0[0] -= 1;
                    memcpy(a1, ms[(a + 1) % 4], sizeof(a1)), a1[0] -= 1;
                }
                QT_CHECK(quill_mont_exp_consttime_x2(r0, a0, e, m0, r1, a1, e, m1, N));
                const quill_limb *av[2] = {a0, a1}, *rv[2] = {r0, r1};
                for (int l = 0; l < 2; l++) {
                    BIGNUM *ba = bt_bn(av[l], N), *be = bt_bn(e, N), *bm = bt_bn(ms[(a + l) % 4], N),
                           *br = bt_bn(rv[l], N), *w = BN_new();
                    QT_CHECK(BN_mod_exp(w, ba, be, bm, bt_ctx()) && BN_cmp(w, br) == 0);
                    BN_free(ba), BN_free(be), BN_free(bm), BN_free(br), BN_free(w);
                }
            }
        quill_mont_free(m0), quill_mont_free(m1);
    }
    return qt_finish("test_bn_d28x2_edge");
#else
    return QT_SKIP;
#endif
}
