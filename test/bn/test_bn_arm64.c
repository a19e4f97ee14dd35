/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_arm64: the aarch64 bignum kernels against their portable twins.
 *   - quill_bn_add_arm64 / quill_bn_sub_arm64 (asm/aarch64/bn_add.S) against
 *     quill_bn_add_c / quill_bn_sub_c for every n from 0 to 70 (the single
 *     words and the blocks of four) and QUILL_BN_MAX_LIMBS, on random,
 *     all-zero, all-ones and mixed operands, in place (r = a, r = b), with
 *     the words after r checked untouched;
 *   - quill_mont_mul_arm64 (asm/aarch64/bn_mont.S) and the dedicated
 *     squaring quill_mont_sqr_arm64 (bn_mont_sqr.S; both declared in
 *     core/bn/mont_arm64.h) against the portable kernels
 *     (quill_mont_kernels_c) for every supported n (multiples of 4 from 4 to
 *     64, and 96, 128, 256), on every operand shape of bt_operand (zero, one,
 *     all-ones reduced, m - 1, m - 2, random, ...) and modulus shape of
 *     bt_modulus, with aliasing r = a and r = b, a sample also against
 *     OpenSSL's BN_mod_mul_montgomery;
 *   - the dispatch: quill_bn_add/sub, quill_mont_new and the two-way kernels
 *     pick the aarch64 code for the lengths the dispatch gives it (the
 *     multiplication from QUILL_MONT_ARM64_MIN_LIMBS, the squaring from
 *     QUILL_MONT_ARM64_SQR_MIN_LIMBS) and the portable code for the others,
 *     and the two-way kernels agree with single calls.
 * test_bn_arm64 --masked runs with QUILL_CPU_MASK clearing QUILL_CPU_ARM64
 * (the _portable copy): everything must be portable.  Skipped (77) off
 * aarch64 or without the assembly. */
#include <stdlib.h>
#include <string.h>

#include "bn/internal.h"
#include "bn/mont_arm64.h"
#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS
#define GUARD 4
#define GUARD_WORD 0xa5a5a5a5a5a5a5a5ull

#if QUILL_BN_HAVE_ARM64 && QUILL_BN_HAVE_MONT_ARM64

static quill_limb M[MAXN], A[MAXN], B[MAXN], RC[MAXN], RA[MAXN + GUARD], S[MAXN];

static quill_limb neg_inv64(quill_limb m0) {
    quill_limb x = m0;
    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return (quill_limb)0 - x;
}

static void guard_set(quill_limb *p, size_t n) {
    for (size_t i = 0; i < GUARD; i++)
        p[n + i] = GUARD_WORD;
}

static int guard_ok(const quill_limb *p, size_t n) {
    for (size_t i = 0; i < GUARD; i++)
        if (p[n + i] != GUARD_WORD)
            return 0;
    return 1;
}

/* 1 if a < m (n limbs). */
static int below(const quill_limb *a, const quill_limb *m, size_t n) {
    for (size_t i = n; i-- > 0;)
        if (a[i] != m[i])
            return a[i] < m[i];
    return 0;
}

typedef quill_limb (*addsub_fn)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                size_t n);

/* Operand shapes for add/sub: 0 zero, 1 all ones, 2 random, 3 words from
 * {0, 1, ~0, random} (long carry runs). */
static void addsub_value(quill_limb *x, size_t n, unsigned kind) {
    for (size_t i = 0; i < n; i++) {
        quill_limb v = qt_rng_u64();
        switch (kind) {
        case 0:
            v = 0;
            break;
        case 1:
            v = ~(quill_limb)0;
            break;
        case 3: {
            static const quill_limb pick[3] = {0, 1, ~(quill_limb)0};
            unsigned s = (unsigned)(qt_rng_u64() % 4);
            if (s < 3)
                v = pick[s];
            break;
        }
        default:
            break;
        }
        x[i] = v;
    }
}

static void check_addsub(addsub_fn f, addsub_fn c, size_t n, unsigned ka, unsigned kb) {
    size_t bytes = n * sizeof(quill_limb);
    addsub_value(A, n, ka);
    addsub_value(B, n, kb);
    quill_limb want = c(RC, A, B, n);
    guard_set(RA, n);
    QT_CHECK(f(RA, A, B, n) == want);
    QT_CHECK(memcmp(RA, RC, bytes) == 0);
    QT_CHECK(guard_ok(RA, n));
    memcpy(S, A, bytes);
    QT_CHECK(f(S, S, B, n) == want);
    QT_CHECK(memcmp(S, RC, bytes) == 0);
    memcpy(S, B, bytes);
    QT_CHECK(f(S, A, S, n) == want);
    QT_CHECK(memcmp(S, RC, bytes) == 0);
}

static void test_addsub(void) {
    for (size_t n = 0; n <= 71; n++) {
        size_t len = n == 71 ? MAXN : n;
        for (unsigned ka = 0; ka < 4; ka++)
            for (unsigned kb = 0; kb < 4; kb++)
                for (int rep = 0; rep < (ka == 2 || ka == 3 ? 8 : 1); rep++) {
                    check_addsub(quill_bn_add_arm64, quill_bn_add_c, len, ka, kb);
                    check_addsub(quill_bn_sub_arm64, quill_bn_sub_c, len, ka, kb);
                }
        /* the public names dispatch to the assembly: same results */
        addsub_value(A, len, 2);
        addsub_value(B, len, 2);
        quill_limb c = quill_bn_add_c(RC, A, B, len);
        QT_CHECK(quill_bn_add(RA, A, B, len) == c && memcmp(RA, RC, len * 8) == 0);
        c = quill_bn_sub_c(RC, A, B, len);
        QT_CHECK(quill_bn_sub(RA, A, B, len) == c && memcmp(RA, RC, len * 8) == 0);
    }
}

static unsigned long bn_checked;
static unsigned long mont_checked;

/* One modulus: rounds operand pairs through the aarch64 kernels and the
 * portable ones. */
static void test_modulus(size_t n, unsigned mkind, int rounds) {
    bt_modulus(M, n, mkind);
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn mul_c;
    quill_mont_sqr_fn sqr_c;
    quill_mont_kernels_c(n, &mul_c, &sqr_c);
    const quill_mont_mul_fn mul_a = quill_mont_mul_arm64;
    const quill_mont_sqr_fn sqr_a = quill_mont_sqr_arm64;

    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(M, n), *z = BN_new();
    BN_MONT_CTX *om = BN_MONT_CTX_new();
    if (z == NULL || om == NULL || !BN_MONT_CTX_set(om, bm, ctx))
        abort();

    for (int i = 0; i < rounds; i++) {
        unsigned ka = (unsigned)(i % BT_OPERAND_KINDS);
        unsigned kb = (unsigned)((i / BT_OPERAND_KINDS) % BT_OPERAND_KINDS);
        if (i >= BT_OPERAND_KINDS * BT_OPERAND_KINDS) {
            ka = (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS);
            kb = (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS);
        }
        bt_operand(A, M, n, ka);
        bt_operand(B, M, n, kb);
        size_t bytes = n * sizeof(quill_limb);

        mul_c(RC, A, B, M, n0, n);
        guard_set(RA, n);
        mul_a(RA, A, B, M, n0, n);
        QT_CHECK(memcmp(RA, RC, bytes) == 0);
        QT_CHECK(guard_ok(RA, n));
        QT_CHECK(below(RA, M, n));
        memcpy(S, A, bytes);
        mul_a(S, S, B, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        memcpy(S, B, bytes);
        mul_a(S, A, S, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);

        sqr_c(RC, A, M, n0, n);
        guard_set(RA, n);
        sqr_a(RA, A, M, n0, n);
        QT_CHECK(memcmp(RA, RC, bytes) == 0);
        QT_CHECK(guard_ok(RA, n));
        QT_CHECK(below(RA, M, n));
        mul_a(S, A, A, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        memcpy(S, A, bytes);
        sqr_a(S, S, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        memcpy(S, A, bytes);
        mul_a(S, S, S, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        mont_checked++;

        if (i % 16 == 0) {
            BIGNUM *x = bt_bn(A, n), *y = bt_bn(B, n);
            mul_a(RA, A, B, M, n0, n);
            BN_mod_mul_montgomery(z, x, y, om, ctx);
            QT_CHECK(bt_eq(RA, n, z));
            sqr_a(RA, A, M, n0, n);
            BN_mod_mul_montgomery(z, x, x, om, ctx);
            QT_CHECK(bt_eq(RA, n, z));
            BN_free(x);
            BN_free(y);
            bn_checked += 2;
        }
    }
    BN_MONT_CTX_free(om);
    BN_free(bm);
    BN_free(z);
}

/* The contexts and the two-way kernels pick the aarch64 kernels where
 * want_native (else the portable ones), and the two-way kernels agree with
 * single calls. */
static void test_dispatch(size_t n, int want_native) {
    bt_modulus(M, n, 0);
    quill_mont *mont = quill_mont_new(M, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    quill_mont_mul_fn mul_c;
    quill_mont_sqr_fn sqr_c;
    quill_mont_kernels_c(n, &mul_c, &sqr_c);
    QT_CHECK(quill_mont_arm64_capable(n) == want_native);
    if (want_native) {
        quill_mont_mul_fn mul_a;
        quill_mont_sqr_fn sqr_a;
        quill_mont_kernels_arm64(n, &mul_a, &sqr_a);
        QT_CHECK(mont->mul == mul_a && mont->sqr == sqr_a);
        QT_CHECK(mont->mul == quill_mont_mul_arm64 && mont->mul != mul_c);
        if (n >= QUILL_MONT_ARM64_SQR_MIN_LIMBS)
            QT_CHECK(mont->sqr == quill_mont_sqr_arm64);
        else
            QT_CHECK(mont->sqr == sqr_c);
    } else {
        QT_CHECK(mont->mul == mul_c && mont->sqr == sqr_c);
    }
    quill_limb m1[MAXN];
    bt_modulus(m1, n, 1);
    quill_mont *mont1 = quill_mont_new(m1, n);
    QT_CHECK(mont1 != NULL);
    if (mont1 == NULL) {
        quill_mont_free(mont);
        return;
    }
    quill_limb a1[MAXN], b1[MAXN], r1[MAXN], s1[MAXN];
    for (int i = 0; i < 10; i++) {
        bt_operand(A, M, n, 4);
        bt_operand(B, M, n, (unsigned)i % BT_OPERAND_KINDS);
        bt_operand(a1, m1, n, 4);
        bt_operand(b1, m1, n, 2);
        quill_mont_mul_x2(RA, A, B, mont, r1, a1, b1, mont1);
        mul_c(RC, A, B, M, mont->n0, n);
        mul_c(s1, a1, b1, m1, mont1->n0, n);
        QT_CHECK(memcmp(RA, RC, n * sizeof(quill_limb)) == 0);
        QT_CHECK(memcmp(r1, s1, n * sizeof(quill_limb)) == 0);
        quill_mont_sqr_x2(RA, A, mont, r1, a1, mont1);
        sqr_c(RC, A, M, mont->n0, n);
        sqr_c(s1, a1, m1, mont1->n0, n);
        QT_CHECK(memcmp(RA, RC, n * sizeof(quill_limb)) == 0);
        QT_CHECK(memcmp(r1, s1, n * sizeof(quill_limb)) == 0);
    }
    quill_mont_free(mont);
    quill_mont_free(mont1);
}

int main(int argc, char **argv) {
    int masked = argc > 1 && strcmp(argv[1], "--masked") == 0;
    bt_seed("bn_arm64");
    if (masked) {
        /* QUILL_CPU_MASK clears QUILL_CPU_ARM64: everything portable */
        QT_CHECK(!quill_bn_addsub_arm64_capable());
        for (size_t n = 1; n <= 66; n += 3)
            test_dispatch(n, 0);
        return qt_finish("bn_arm64 (masked)");
    }
    if (!quill_bn_addsub_arm64_capable()) {
        fprintf(stderr, "bn_arm64: QUILL_CPU_ARM64 masked without --masked, skipped\n");
        return QT_SKIP;
    }
    test_addsub();
    static const size_t big[] = {96, 128, 256};
    for (size_t n = 4; n <= 64; n += 4) {
        int rounds = (n == 16 || n == 24 || n == 32 || n == 48 || n == 64) ? 300 : 100;
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            test_modulus(n, k, rounds);
    }
    for (size_t i = 0; i < QT_ARRAY_LEN(big); i++)
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            test_modulus(big[i], k, 20);
    /* dispatch: multiples of 4 from QUILL_MONT_ARM64_MIN_LIMBS native, the
     * rest portable */
    for (size_t n = 1; n <= 66; n++)
        test_dispatch(n, n >= QUILL_MONT_ARM64_MIN_LIMBS && n % 4 == 0);
    test_dispatch(MAXN, 1);
    fprintf(stderr, "bn_arm64: %lu results also checked against BN_mod_mul_montgomery\n",
            bn_checked);
    fprintf(stderr, "bn_arm64: %lu operand pairs through quill_mont_mul_arm64 and quill_mont_sqr_arm64\n",
            mont_checked);
    return qt_finish("bn_arm64");
}

#else

int main(void) {
    fprintf(stderr, "bn_arm64: built without the aarch64 assembly, skipped\n");
    return QT_SKIP;
}

#endif
