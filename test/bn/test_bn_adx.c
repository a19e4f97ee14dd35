/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_adx: the MULX/ADCX/ADOX Montgomery kernels (core/bn/mont_adx.h,
 * asm/x86_64/bn_mont_adx.S) against their portable twins
 * (quill_mont_kernels_c) on random and edge operands (0, 1, all-ones
 * reduced, m - 1, m - 2, a = b, aliasing r = a and r = b) and moduli of
 * every shape of bt_modulus (top bit set, all-ones limbs, top limb 1, ...),
 * for n = 4..64 (the unrolled 8/16/24/32 and the looped generic kernel) and
 * a few larger n; the results are also checked against OpenSSL's
 * BN_mod_mul_montgomery on a sample, and the limbs after r are checked
 * untouched.  The dispatch (quill_mont_new and the two-way kernels) must
 * pick the ADX kernels.
 *
 * test_bn_adx --masked runs with QUILL_CPU_MASK clearing ADX: the dispatch
 * must fall back to the portable kernels.  Without BMI2/ADX (or under
 * QUILL_NO_ASM) the unmasked run is skipped (exit 77).
 *
 * test_bn_adx --ct (built with QUILL_ADX_MEMCHECK, run under valgrind
 * memcheck by ct_bn_adx): calls every ADX kernel with a, b, m and n0 marked
 * undefined, so that memcheck reports any branch or address that depends on
 * them; the results are then compared with the portable kernels.  Valgrind
 * executes MULX/ADCX/ADOX but its virtual CPUID does not report ADX, so this
 * mode calls the kernels directly (on a CPU that has them). */
#include <stdlib.h>
#include <string.h>

#include "bn/internal.h"
#include "bn/mont_adx.h"
#include "bn_test_common.h"
#include "test_util.h"

#ifdef QUILL_ADX_MEMCHECK
#include <valgrind/memcheck.h>
#endif

#define MAXN QUILL_BN_MAX_LIMBS
#define GUARD 4
#define GUARD_WORD 0xa5a5a5a5a5a5a5a5ull

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

static unsigned long bn_checked;

/* One modulus: rounds operand pairs through the ADX kernels and the
 * portable ones. */
static void test_modulus(size_t n, unsigned mkind, int rounds) {
    bt_modulus(M, n, mkind);
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn mul_a, mul_c;
    quill_mont_sqr_fn sqr_a, sqr_c;
    quill_mont_kernels_adx(n, &mul_a, &sqr_a);
    quill_mont_kernels_c(n, &mul_c, &sqr_c);

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
        /* r = a, r = b */
        memcpy(S, A, bytes);
        mul_a(S, S, B, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        memcpy(S, B, bytes);
        mul_a(S, A, S, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);

        /* squaring, and a * a through the multiplication */
        sqr_c(RC, A, M, n0, n);
        guard_set(RA, n);
        sqr_a(RA, A, M, n0, n);
        QT_CHECK(memcmp(RA, RC, bytes) == 0);
        QT_CHECK(guard_ok(RA, n));
        mul_a(S, A, A, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);
        memcpy(S, A, bytes);
        sqr_a(S, S, M, n0, n);
        QT_CHECK(memcmp(S, RC, bytes) == 0);

        /* a sample against OpenSSL */
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

/* The public squarings (quill_mont_sqr_adx_public_N): for a < R (random
 * below R, R - 1, values of m + small, m - 1, 0, 1) the result is below R
 * (n limbs, nothing written past them) and congruent to a^2 R^-1 mod m
 * (OpenSSL's BN_mod_mul_montgomery on a mod m); chains of 20 squarings
 * from each start agree mod m with the portable kernel's chain, r = a
 * aliased. */
static void test_sqr_public(size_t n, unsigned mkind) {
    quill_mont_sqr_fn pub = quill_mont_sqr_public_adx(n);
    QT_CHECK(pub != NULL);
    if (pub == NULL)
        return;
    bt_modulus(M, n, mkind);
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn mul_c;
    quill_mont_sqr_fn sqr_c;
    quill_mont_kernels_c(n, &mul_c, &sqr_c);
    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(M, n), *z = BN_new(), *y = BN_new();
    BN_MONT_CTX *om = BN_MONT_CTX_new();
    if (z == NULL || y == NULL || om == NULL || !BN_MONT_CTX_set(om, bm, ctx))
        abort();
    size_t bytes = n * sizeof(quill_limb);
    for (int i = 0; i < 64; i++) {
        switch (i % 8) {
        case 0:
            memset(A, 0xff, bytes); /* R - 1 */
            break;
        case 1:
            memcpy(A, M, bytes); /* m + small in the low limb (below R) */
            A[0] += (quill_limb)(qt_rng_u64() % 1000);
            break;
        case 2:
            memset(A, 0, bytes);
            A[0] = (quill_limb)(i & 1);
            break;
        case 3:
            memcpy(A, M, bytes);
            A[0] -= 1;
            break;
        default:
            for (size_t k = 0; k < n; k++)
                A[k] = qt_rng_u64();
            break;
        }
        memcpy(S, A, bytes);
        memcpy(B, A, bytes);
        for (int c = 0; c < 20; c++) {
            BIGNUM *x = bt_bn(S, n);
            if (x == NULL || !BN_mod(x, x, bm, ctx) ||
                !BN_mod_mul_montgomery(z, x, x, om, ctx))
                abort();
            guard_set(RA, n);
            pub(RA, S, M, n0, n);
            QT_CHECK(guard_ok(RA, n));
            BIGNUM *r = bt_bn(RA, n);
            if (r == NULL || !BN_mod(y, r, bm, ctx))
                abort();
            QT_CHECK(BN_cmp(y, z) == 0);
            pub(S, S, M, n0, n); /* r = a */
            QT_CHECK(memcmp(S, RA, bytes) == 0);
            sqr_c(B, B, M, n0, n);
            BN_free(x);
            BN_free(r);
        }
        /* the two chains agree mod m */
        BIGNUM *p = bt_bn(S, n), *q = bt_bn(B, n);
        if (p == NULL || q == NULL || !BN_mod(p, p, bm, ctx) || !BN_mod(q, q, bm, ctx))
            abort();
        QT_CHECK(BN_cmp(p, q) == 0);
        BN_free(p);
        BN_free(q);
    }
    BN_MONT_CTX_free(om);
    BN_free(bm);
    BN_free(z);
    BN_free(y);
}

/* The multiplication quill_mont_exp_public pairs with the public squaring
 * (exp.c: the window table's products and the products by it take outputs
 * of quill_mont_sqr_adx_public_N, below R but not always below m): the ADX
 * kernel for n, on a and b below R (R - 1, m + small, random below R, each
 * against each), gives r below R (nothing written past it) congruent to
 * a b R^-1 mod m; with b = 1 (quill_mont_from's product), r < m. */
static void test_mul_wide(size_t n, unsigned mkind) {
    bt_modulus(M, n, mkind);
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn mul_a;
    quill_mont_sqr_fn sqr_a;
    quill_mont_kernels_adx(n, &mul_a, &sqr_a);
    BN_CTX *ctx = bt_ctx();
    BIGNUM *bm = bt_bn(M, n), *z = BN_new(), *y = BN_new();
    BN_MONT_CTX *om = BN_MONT_CTX_new();
    if (z == NULL || y == NULL || om == NULL || !BN_MONT_CTX_set(om, bm, ctx))
        abort();
    size_t bytes = n * sizeof(quill_limb);
    quill_limb *ops[2] = {A, B};
    for (int i = 0; i < 48; i++) {
        for (int o = 0; o < 2; o++) {
            quill_limb *x = ops[o];
            switch ((o ? i / 3 : i) % 3) {
            case 0:
                memset(x, 0xff, bytes); /* R - 1 */
                break;
            case 1:
                memcpy(x, M, bytes); /* m + small in the low limb (mod 2^64) */
                x[0] += (quill_limb)(qt_rng_u64() % 1000);
                break;
            default:
                for (size_t k = 0; k < n; k++)
                    x[k] = qt_rng_u64();
                break;
            }
        }
        BIGNUM *x = bt_bn(A, n), *w = bt_bn(B, n);
        if (x == NULL || w == NULL || !BN_mod(x, x, bm, ctx) || !BN_mod(w, w, bm, ctx) ||
            !BN_mod_mul_montgomery(z, x, w, om, ctx))
            abort();
        guard_set(RA, n);
        mul_a(RA, A, B, M, n0, n);
        QT_CHECK(guard_ok(RA, n));
        BIGNUM *r = bt_bn(RA, n);
        if (r == NULL || !BN_mod(y, r, bm, ctx))
            abort();
        QT_CHECK(BN_cmp(y, z) == 0);
        BN_free(r);
        /* out of the Montgomery form: fully reduced */
        memset(B, 0, bytes);
        B[0] = 1;
        if (!BN_mod_mul_montgomery(z, x, BN_value_one(), om, ctx))
            abort();
        mul_a(RA, A, B, M, n0, n);
        QT_CHECK(below(RA, M, n) && bt_eq(RA, n, z));
        BN_free(x);
        BN_free(w);
    }
    BN_MONT_CTX_free(om);
    BN_free(bm);
    BN_free(z);
    BN_free(y);
}

/* The contexts and the two-way kernels pick the ADX kernels (or, masked,
 * the portable ones), and the two-way kernels agree with single calls. */
static void test_dispatch(size_t n, int want_adx) {
    bt_modulus(M, n, 0);
    quill_mont *mont = quill_mont_new(M, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    quill_mont_mul_fn mul_a, mul_c;
    quill_mont_sqr_fn sqr_a, sqr_c;
    quill_mont_kernels_c(n, &mul_c, &sqr_c);
    if (want_adx) {
        quill_mont_kernels_adx(n, &mul_a, &sqr_a);
        QT_CHECK(mont->mul == mul_a && mont->sqr == sqr_a);
        quill_mont_sqr_fn pub = quill_mont_sqr_public_adx(n);
        QT_CHECK(mont->sqr_public == (pub != NULL ? pub : sqr_a));
    } else {
        QT_CHECK(mont->mul == mul_c && mont->sqr == sqr_c);
        QT_CHECK(mont->sqr_public == sqr_c);
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
    for (int i = 0; i < 20; i++) {
        bt_operand(A, M, n, 4);
        bt_operand(B, M, n, (unsigned)i % BT_OPERAND_KINDS);
        bt_operand(a1, m1, n, 4);
        bt_operand(b1, m1, n, 7);
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

#if defined(QUILL_ADX_MEMCHECK) && QUILL_BN_HAVE_ADX
/* --ct: secrets undefined for memcheck, results compared after. */
static void ct_case(size_t n, unsigned mkind) {
    bt_modulus(M, n, mkind);
    bt_operand(A, M, n, 4);
    bt_operand(B, M, n, (unsigned)(qt_rng_u64() % BT_OPERAND_KINDS));
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn mul_a, mul_c;
    quill_mont_sqr_fn sqr_a, sqr_c;
    quill_mont_kernels_adx(n, &mul_a, &sqr_a);
    quill_mont_kernels_c(n, &mul_c, &sqr_c);
    size_t bytes = n * sizeof(quill_limb);
    quill_limb want_mul[MAXN], want_sqr[MAXN];
    mul_c(want_mul, A, B, M, n0, n);
    sqr_c(want_sqr, A, M, n0, n);

    VALGRIND_MAKE_MEM_UNDEFINED(A, bytes);
    VALGRIND_MAKE_MEM_UNDEFINED(B, bytes);
    VALGRIND_MAKE_MEM_UNDEFINED(M, bytes);
    VALGRIND_MAKE_MEM_UNDEFINED(&n0, sizeof(n0));
    mul_a(RA, A, B, M, n0, n);
    sqr_a(S, A, M, n0, n);
    memcpy(RC, A, bytes);
    mul_a(RC, RC, RC, M, n0, n); /* r = a = b */
    VALGRIND_MAKE_MEM_DEFINED(A, bytes);
    VALGRIND_MAKE_MEM_DEFINED(B, bytes);
    VALGRIND_MAKE_MEM_DEFINED(M, bytes);
    VALGRIND_MAKE_MEM_DEFINED(&n0, sizeof(n0));
    VALGRIND_MAKE_MEM_DEFINED(RA, bytes);
    VALGRIND_MAKE_MEM_DEFINED(S, bytes);
    VALGRIND_MAKE_MEM_DEFINED(RC, bytes);
    QT_CHECK(memcmp(RA, want_mul, bytes) == 0);
    QT_CHECK(memcmp(S, want_sqr, bytes) == 0);
    QT_CHECK(memcmp(RC, want_sqr, bytes) == 0);
}

static int ct_main(void) {
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "bn_adx --ct: not under valgrind, skipped\n");
        return QT_SKIP;
    }
    static const size_t ns[] = {4, 5, 7, 8, 16, 17, 24, 32, 48, 64, 65};
    for (size_t i = 0; i < QT_ARRAY_LEN(ns); i++)
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            ct_case(ns[i], k);
    return qt_finish("bn_adx (ct)");
}
#endif

int main(int argc, char **argv) {
    int masked = argc > 1 && strcmp(argv[1], "--masked") == 0;
    bt_seed("bn_adx");
#if defined(QUILL_ADX_MEMCHECK) && QUILL_BN_HAVE_ADX
    if (argc > 1 && strcmp(argv[1], "--ct") == 0)
        return ct_main();
#endif
    if (masked) {
        /* QUILL_CPU_MASK clears ADX: everything portable */
        QT_CHECK(!quill_mont_adx_capable());
        for (size_t n = 1; n <= 66; n += 5)
            test_dispatch(n, 0);
        return qt_finish("bn_adx (masked)");
    }
    if (!quill_mont_adx_capable()) {
        fprintf(stderr, "bn_adx: no BMI2/ADX kernels on this build or CPU, skipped\n");
        return QT_SKIP;
    }
    static const size_t big[] = {65, 96, 127, 128, 192, 256};
    for (size_t n = QUILL_MONT_ADX_MIN_LIMBS; n <= 64; n++) {
        int rounds = (n % 8 == 0) ? 400 : 120;
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            test_modulus(n, k, rounds);
        test_dispatch(n, 1);
        if (n % 16 == 0)
            for (unsigned k = 0; k < BT_MODULUS_KINDS; k++) {
                test_sqr_public(n, k);
                test_mul_wide(n, k);
            }
        else
            QT_CHECK(quill_mont_sqr_public_adx(n) == NULL);
    }
    for (size_t i = 0; i < QT_ARRAY_LEN(big); i++) {
        for (unsigned k = 0; k < BT_MODULUS_KINDS; k++)
            test_modulus(big[i], k, 30);
        test_dispatch(big[i], 1);
    }
    /* below the ADX threshold the dispatch stays portable */
    for (size_t n = 1; n < QUILL_MONT_ADX_MIN_LIMBS; n++)
        test_dispatch(n, 0);
    fprintf(stderr, "bn_adx: %lu results also checked against BN_mod_mul_montgomery\n",
            bn_checked);
    return qt_finish("bn_adx");
}
