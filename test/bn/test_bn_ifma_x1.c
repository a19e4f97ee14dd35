/* Copyright quill authors.
 *
 * Differential test of the one-lane AVX-512 IFMA exponentiation
 * (quill_mont_exp_vartime_x1_ifma, core/bn/exp_ifma_x1.c) against the
 * portable path (quill_mont_exp_vartime with the IFMA bits cleared through
 * QUILL_CPU_MASK: the MULX or C kernels) and OpenSSL's BN_mod_exp, for
 * every supported modulus size (16, 24, 32, 48, 64 limbs): every modulus
 * shape of bt_modulus plus one just above 2^(64n - 1); bases 0, 1, m - 1,
 * m - 2, (m - 1)/2, all ones and sparse below m, random; exponents 1, 2, 3,
 * 65537, 2^64 - 1, 2^63, even ones, random of one to four limbs; the output
 * aliasing the base.  Also: unsupported sizes and a zero exponent are
 * refused with the output untouched.  Skipped (77) on CPUs without AVX-512
 * IFMA or when QUILL_CPU_MASK already clears it.
 *
 * Valgrind cannot run AVX-512, so this path has no memcheck counterpart:
 * its constant-time argument (in the base) is in exp_ifma_x1.c. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bn/exp_ifma.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define MAXN 64
#define MAXE 4

static unsigned rnd(unsigned bound) {
    return (unsigned)(qt_rng_u64() % bound);
}

/* bt_modulus's shapes, plus (kind BT_MODULUS_KINDS) a modulus just above
 * 2^(64n - 1): the top bit and a small odd low limb. */
static void make_modulus(quill_limb *m, size_t n, unsigned kind) {
    if (kind < BT_MODULUS_KINDS) {
        bt_modulus(m, n, kind);
        return;
    }
    memset(m, 0, n * sizeof(quill_limb));
    m[n - 1] = (quill_limb)1 << 63;
    m[0] |= (qt_rng_u64() % 4096) | 1;
}
#define MODULUS_KINDS (BT_MODULUS_KINDS + 1)

/* Exponent shapes (el limbs, returns the limb count used): 0 one, 1 two,
 * 2 three, 3 65537, 4 2^64 - 1, 5 2^63, 6 random even, else random of
 * one to MAXE limbs. */
#define EXPONENT_KINDS 8
static size_t make_exponent(quill_limb *e, unsigned kind) {
    static const quill_limb fixed[] = {1, 2, 3, 65537, ~(quill_limb)0, (quill_limb)1 << 63};
    memset(e, 0, MAXE * sizeof(quill_limb));
    if (kind < QUILL_ARRAY_LEN(fixed)) {
        e[0] = fixed[kind];
        return 1;
    }
    if (kind == 6) {
        e[0] = (qt_rng_u64() | 2) & ~(quill_limb)1;
        return 1;
    }
    size_t el = 1 + rnd(MAXE);
    for (size_t i = 0; i < el; i++)
        e[i] = qt_rng_u64();
    e[el - 1] |= (quill_limb)1 << 63;
    return el;
}

static int bn_exp_eq(const quill_limb *r, const quill_limb *a, const quill_limb *e, size_t el,
                     const quill_limb *m, size_t n) {
    BIGNUM *ba = bt_bn(a, n), *be = bt_bn(e, el), *bm = bt_bn(m, n), *z = BN_new();
    if (z == NULL || !BN_mod_exp(z, ba, be, bm, bt_ctx()))
        abort();
    int ok = bt_eq(r, n, z);
    BN_free(ba);
    BN_free(be);
    BN_free(bm);
    BN_free(z);
    return ok;
}

static unsigned long cases;

/* One modulus of n limbs of shape |mk|, |rounds| bases and exponents. */
static void test_modulus(size_t n, unsigned mk, int rounds) {
    quill_limb m[MAXN], a[MAXN], e[MAXE], r[MAXN], s[MAXN], t[MAXN];
    make_modulus(m, n, mk);
    quill_mont *mont = quill_mont_new(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    for (int i = 0; i < rounds; i++) {
        /* the first cases cross bases 0, 1, m - 1, m - 2, (m - 1)/2 with
         * the fixed exponents; then at random */
        unsigned bk = i < 30 ? (unsigned[]){0, 1, 7, 8, 9}[i % 5] : rnd(BT_OPERAND_KINDS);
        bt_operand(a, m, n, bk);
        size_t el = make_exponent(e, i < 30 ? (unsigned)(i / 5) : rnd(EXPONENT_KINDS));
        memset(r, 0xaa, sizeof(r));
        QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, el, mont) == 1);
        /* the portable path (IFMA masked off) */
        QT_CHECK(quill_mont_exp_vartime(s, a, e, el, mont) == 1);
        QT_CHECK(memcmp(r, s, n * sizeof(quill_limb)) == 0);
        if (i % 4 == 0)
            QT_CHECK(bn_exp_eq(r, a, e, el, m, n));
        if (i % 3 == 0) { /* the output aliasing the base */
            memcpy(t, a, n * sizeof(quill_limb));
            QT_CHECK(quill_mont_exp_vartime_x1_ifma(t, t, e, el, mont) == 1);
            QT_CHECK(memcmp(t, r, n * sizeof(quill_limb)) == 0);
        }
        cases++;
    }
    /* a zero exponent is the caller's case: refused, output untouched */
    memset(e, 0, sizeof(e));
    memset(r, 0x5a, sizeof(r));
    memcpy(t, r, sizeof(r));
    QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, 1, mont) == 0);
    QT_CHECK(memcmp(r, t, sizeof(r)) == 0);
    quill_mont_free(mont);
}

/* Sizes without an instance are refused, the output untouched. */
static void test_unsupported(void) {
    const size_t sizes[] = {1, 8, 17, 31, 33, 40};
    quill_limb m[MAXN], a[MAXN], r[MAXN], t[MAXN], e[1] = {65537};
    for (size_t s = 0; s < QUILL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        bt_modulus(m, n, 0);
        bt_operand(a, m, n, 4);
        quill_mont *mont = quill_mont_new(m, n);
        QT_CHECK(mont != NULL);
        if (mont == NULL)
            continue;
        QT_CHECK(!quill_mont_exp_x1_ifma_supported_size(n));
        memset(r, 0x5a, sizeof(r));
        memcpy(t, r, sizeof(r));
        QT_CHECK(quill_mont_exp_vartime_x1_ifma(r, a, e, 1, mont) == 0);
        QT_CHECK(memcmp(r, t, sizeof(r)) == 0);
        quill_mont_free(mont);
    }
}

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
/* 1 if QUILL_CPU_MASK, as given by the user, clears the IFMA or VL bit. */
static int user_masks_ifma(void) {
    const char *s = getenv("QUILL_CPU_MASK");
    if (s == NULL)
        return 0;
    unsigned long mask = strtoul(s, NULL, 0);
    return (mask & (QUILL_CPU_X86_AVX512IFMA | QUILL_CPU_X86_AVX512VL)) != 0;
}
#endif

int main(void) {
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512vl") ||
        user_masks_ifma()) {
        printf("bn_ifma_x1: no usable AVX-512 IFMA, skipped\n");
        return QT_SKIP;
    }
#else
    printf("bn_ifma_x1: no IFMA code in this build, skipped\n");
    return QT_SKIP;
#endif
    /* Before the first probe: the dispatched exponentiation must take the
     * portable path, the oracle of this test. */
    char mask[32];
    const char *old = getenv("QUILL_CPU_MASK");
    unsigned long mk = old != NULL ? strtoul(old, NULL, 0) : 0;
    snprintf(mask, sizeof(mask), "0x%lx", mk | QUILL_CPU_X86_AVX512IFMA | QUILL_CPU_X86_AVX512VL);
    if (setenv("QUILL_CPU_MASK", mask, 1) != 0)
        return 1;
    QT_CHECK(!quill_mont_exp_x1_ifma_capable(32));
    QT_CHECK(quill_mont_exp_x1_ifma_supported_size(32));

    bt_seed("bn_ifma_x1");
    double t0 = qt_now();
    const size_t sizes[] = {16, 24, 32, 48, 64};
    const int rounds[] = {120, 100, 80, 60, 50};
    for (size_t s = 0; s < QUILL_ARRAY_LEN(sizes); s++)
        for (unsigned k = 0; k < 2 * MODULUS_KINDS; k++)
            test_modulus(sizes[s], k < MODULUS_KINDS ? k : rnd(MODULUS_KINDS), rounds[s]);
    test_unsupported();
    printf("bn_ifma_x1: %lu cases in %.1f s\n", cases, qt_now() - t0);
    return qt_finish("bn_ifma_x1");
}
