/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_d27x2: the two-way radix-2^27 AVX2 Montgomery kernels for
 * 1536-bit moduli (core/bn/mont_d27x2_avx2.c, RSA-3072's CRT halves)
 * against OpenSSL's BN, lane by lane: r 2^1539 = a b (mod m), r < 2m, every
 * digit of r at most 2^28 + 2^10 - 1 and digit 57 zero.  Random part: 1536-bit
 * moduli of every bt_modulus shape and operands of every bt_operand shape
 * through the conversions, r aliasing a, then chains of 64 squarings and
 * products fed with the kernels' own outputs.  Edge part: operands in the
 * most redundant form the header allows (digits 0..55 at 2^28 + 2^10 - 1,
 * digit 56 as large as keeps the value below 2m; 0..74 and 75 at 2048 bits), zero operands (the
 * carry ceiling's exact case), m = 2^1536 - 1 and m = 2^1535 + 1, and the
 * exponentiation (quill_mont_exp_consttime_x2 at 24 limbs, on this path at
 * the AVX2 level: test_bn_d27x2_avx2) with a = 0, 1, m - 1 and e = 0, 1,
 * all ones.  Skipped (77) without AVX2 or without the kernels
 * (QUILL_NO_ASM, non-x86-64 targets). */
#include <stdlib.h>
#include <string.h>

#include "bn/mont_d27x2_avx2.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define DMAX (((uint64_t)1 << 28) + ((uint64_t)1 << 10) - 1)
#if QUILL_D27_TEST_32 /* test_bn_d27x2_32: the 2048-bit kernels (RSA-4096's halves) */
#define NAME "test_bn_d27x2_32"
#define N 32
#define ND 77
#define MOD quill_d27x2_32_mod
#define WORDS QUILL_D27X2_32_WORDS
#define LIMBS QUILL_D27X2_32_LIMBS
#define MOD_INIT quill_d27x2_32_mod_init
#define FROM_LIMBS quill_d27x2_32_from_limbs
#define TO_LIMBS quill_d27x2_32_to_limbs
#define MUL quill_mont_mul_d27x2_32_avx2
#define SQR quill_mont_sqr_d27x2_32_avx2
#else
#define NAME "test_bn_d27x2"
#define N 24
#define ND 57
#define MOD quill_d27x2_mod
#define WORDS QUILL_D27X2_WORDS
#define LIMBS QUILL_D27X2_LIMBS
#define MOD_INIT quill_d27x2_mod_init
#define FROM_LIMBS quill_d27x2_from_limbs
#define TO_LIMBS quill_d27x2_to_limbs
#define MUL quill_mont_mul_d27x2_avx2
#define SQR quill_mont_sqr_d27x2_avx2
#endif
#define RBITS (27 * ND)

#if QUILL_BN_HAVE_D28X2 /* the kernels' checks; without the kernels, skipped (main) */
static BIGNUM *val(const uint64_t *x, int l) { /* value of lane l */
    BIGNUM *b = BN_new(), *t = BN_new();
    BN_zero(b);
    for (int i = ND; i >= 0; i--) {
        BN_lshift(b, b, 27);
        BN_set_word(t, x[4 * (i / 2) + 2 * l + (i & 1)]);
        BN_add(b, b, t);
    }
    BN_free(t);
    return b;
}

/* 1 if lane l of r is < 2m with digits in bounds and r R = x y mod m;
 * also checks the conversion to limbs on r. */
static int check(const uint64_t *r, const uint64_t *x, const uint64_t *y, int l,
                 const quill_limb *m) {
    BIGNUM *br = val(r, l), *bx = val(x, l), *by = val(y, l), *bm = bt_bn(m, N);
    BIGNUM *m2 = BN_new(), *u = BN_new(), *v = BN_new();
    quill_limb r0[LIMBS], r1[LIMBS];
    TO_LIMBS(r0, r1, r);
    BIGNUM *bl = bt_bn(l ? r1 : r0, LIMBS);
    int ok = BN_cmp(bl, br) == 0 && BN_lshift1(m2, bm) && BN_cmp(br, m2) < 0 &&
             BN_lshift(u, br, RBITS) && BN_nnmod(u, u, bm, bt_ctx()) &&
             BN_mod_mul(v, bx, by, bm, bt_ctx()) && BN_cmp(u, v) == 0 &&
             r[4 * (ND / 2) + 2 * l + 1] == 0;
    for (int i = 0; i <= ND; i++)
        ok &= r[4 * (i / 2) + 2 * l + (i & 1)] <= DMAX;
    BN_free(br), BN_free(bx), BN_free(by), BN_free(bm), BN_free(m2), BN_free(u), BN_free(v);
    BN_free(bl);
    return ok;
}

static void random_set(const quill_limb *m0, const quill_limb *m1, const quill_limb *a0,
                       const quill_limb *a1, const quill_limb *b0, const quill_limb *b1) {
    static MOD md;
    uint64_t x[WORDS], y[WORDS], z[WORDS], p[WORDS];
    MOD_INIT(&md, m0, m1, N);
    FROM_LIMBS(x, a0, a1, N);
    FROM_LIMBS(y, b0, b1, N);
    BIGNUM *ba = bt_bn(a0, N), *bx = val(x, 0); /* the conversion */
    QT_CHECK(BN_cmp(ba, bx) == 0);
    BN_free(ba), BN_free(bx);
    MUL(z, x, y, &md);
    QT_CHECK(check(z, x, y, 0, m0));
    QT_CHECK(check(z, x, y, 1, m1));
    for (int i = 0; i < 64; i++) { /* r aliasing a, chains on the kernels' own outputs */
        memcpy(p, x, sizeof(p));
        if (i & 1)
            MUL(x, x, y, &md);
        else
            SQR(x, x, &md);
        QT_CHECK(check(x, p, (i & 1) ? y : p, 0, m0));
        QT_CHECK(check(x, p, (i & 1) ? y : p, 1, m1));
        if (i % 16 == 15)
            MUL(y, x, y, &md);
    }
}

/* x lane l: digits 0..K-1 at DMAX (or 0), digit K the largest keeping x <
 * 2m, where K = (64 N - 2) / 27 is the most digits at DMAX that stay below
 * 2^(64 N - 1) <= m (56 = ND - 1 at 24 limbs, 75 = ND - 2 at 32) */
#define K ((64 * N - 2) / 27)
static void redundant(uint64_t *x, int l, const quill_limb *m, int zero) {
    for (int i = 0; i <= ND; i++)
        x[4 * (i / 2) + 2 * l + (i & 1)] = (zero || i >= K) ? 0 : DMAX;
    if (zero)
        return;
    BIGNUM *low = val(x, l), *bm = bt_bn(m, N), *t = BN_new();
    BN_lshift1(t, bm);
    BN_sub_word(t, 1);
    BN_sub(t, t, low); /* 2m - 1 - low */
    BN_rshift(t, t, 27 * K);
    uint64_t d = BN_get_word(t);
    if (d > DMAX)
        d = DMAX;
    x[4 * (K / 2) + 2 * l + (K & 1)] = d;
    BN_free(low), BN_free(bm), BN_free(t);
}

static void edge(void) {
    static MOD md;
    quill_limb ms[4][N];
    memset(ms, 0xff, sizeof(ms)); /* 2^(64 N) - 1 */
    memset(ms[1], 0, sizeof(ms[1]));
    ms[1][0] = 1, ms[1][N - 1] = (quill_limb)1 << 63; /* 2^(64 N - 1) + 1 */
    bt_modulus(ms[2], N, 0);
    bt_modulus(ms[3], N, 1);
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            MOD_INIT(&md, ms[a], ms[b], N);
            for (int z = 0; z < 4; z++) {
                uint64_t x[WORDS], y[WORDS], r[WORDS];
                redundant(x, 0, ms[a], z & 1), redundant(x, 1, ms[b], z & 2);
                redundant(y, 0, ms[a], z & 2), redundant(y, 1, ms[b], 0);
                MUL(r, x, y, &md);
                QT_CHECK(check(r, x, y, 0, ms[a]));
                QT_CHECK(check(r, x, y, 1, ms[b]));
                SQR(r, x, &md);
                QT_CHECK(check(r, x, x, 0, ms[a]));
                QT_CHECK(check(r, x, x, 1, ms[b]));
            }
        }
    /* the exponentiation: a in {0, 1, m - 1}, e in {0, 1, ~0} */
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
                    BIGNUM *ba = bt_bn(av[l], N), *be = bt_bn(e, N),
                           *bm = bt_bn(ms[(a + l) % 4], N), *br = bt_bn(rv[l], N), *w = BN_new();
                    QT_CHECK(BN_mod_exp(w, ba, be, bm, bt_ctx()) && BN_cmp(w, br) == 0);
                    BN_free(ba), BN_free(be), BN_free(bm), BN_free(br), BN_free(w);
                }
            }
        quill_mont_free(m0), quill_mont_free(m1);
    }
}
#endif

int main(void) {
    bt_seed(NAME);
#if QUILL_BN_HAVE_D28X2
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        printf("%s: no AVX2, skipped\n", NAME);
        return QT_SKIP;
    }
    quill_limb m0[N], m1[N], a0[N], a1[N], b0[N], b1[N];
    for (unsigned it = 0; it < 120; it++) {
        bt_modulus(m0, N, it % BT_MODULUS_KINDS);
        bt_modulus(m1, N, (it / BT_MODULUS_KINDS) % BT_MODULUS_KINDS);
        bt_operand(a0, m0, N, it % BT_OPERAND_KINDS);
        bt_operand(a1, m1, N, (it / 3) % BT_OPERAND_KINDS);
        bt_operand(b0, m0, N, (it / 7) % BT_OPERAND_KINDS);
        bt_operand(b1, m1, N, (it + 4) % BT_OPERAND_KINDS);
        random_set(m0, m1, a0, a1, b0, b1);
    }
    edge();
    return qt_finish(NAME);
#else
    printf("%s: not built on this target, skipped\n", NAME);
    return QT_SKIP;
#endif
}
