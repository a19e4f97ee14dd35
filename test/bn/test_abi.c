/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_abi: calls every assembly entry point of core/bn through
 * quill_abi_check_call (test/bn/abi_check_test.S), which fills the
 * callee-saved registers with canaries and reports any that the routine
 * changed, a moved stack pointer or a set direction flag.  Each call's
 * result is also compared with the portable kernel, so the call really ran.
 * Skipped (77) without BMI2/ADX or without the assembly. */
#include <stdint.h>
#include <string.h>

#include "bn/internal.h"
#include "bn/mont_adx.h"
#include "test_util.h"

#if QUILL_BN_HAVE_ADX

unsigned quill_abi_check_call(const uint64_t args[6], const void *fn);
/* Negative controls (abi_check_test.S), data symbols for the trampoline. */
extern const char quill_abi_bad_r15[], quill_abi_bad_df[];

#define MAXN QUILL_BN_MAX_LIMBS

static quill_limb M[MAXN], A[MAXN], B[MAXN], R[MAXN], RC[MAXN];

static quill_limb neg_inv64(quill_limb m0) {
    quill_limb x = m0;
    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return (quill_limb)0 - x;
}

static void fill(size_t n) {
    for (size_t i = 0; i < n; i++) {
        M[i] = qt_rng_u64();
        A[i] = qt_rng_u64();
        B[i] = qt_rng_u64();
    }
    M[0] |= 1;
    M[n - 1] |= (quill_limb)1 << 63;
    A[n - 1] &= ~((quill_limb)1 << 63); /* a, b < m */
    B[n - 1] &= ~((quill_limb)1 << 63);
}

/* Function pointers to data pointers for the trampoline (POSIX allows it). */
static const void *fnptr_mul(quill_mont_mul_fn f) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

static const void *fnptr_sqr(quill_mont_sqr_fn f) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

typedef quill_limb (*addsub_fn)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                size_t n);

static const void *fnptr_addsub(addsub_fn f) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

/* The ADC/SBB loops (asm/x86_64/bn_add.S); the trampoline's return value
 * is the violation mask, so the carry is checked by a second direct call. */
static void check_addsub(const char *name, addsub_fn f, addsub_fn c, size_t n) {
    fill(n);
    uint64_t args[6] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)B, n, 0, 0};
    memset(R, 0, sizeof(R));
    unsigned bad = quill_abi_check_call(args, fnptr_addsub(f));
    if (bad != 0)
        fprintf(stderr, "%s (n = %zu): ABI violation mask 0x%x\n", name, n, bad);
    QT_CHECK(bad == 0);
    quill_limb carry = c(RC, A, B, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
    QT_CHECK(f(R, A, B, n) == carry);
}

static void check_mul(const char *name, quill_mont_mul_fn f, size_t n) {
    fill(n);
    quill_limb n0 = neg_inv64(M[0]);
    uint64_t args[6] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)B, (uintptr_t)M, n0, n};
    quill_mont_mul_fn c;
    quill_mont_sqr_fn cs;
    quill_mont_kernels_c(n, &c, &cs);
    memset(R, 0, sizeof(R));
    unsigned bad = quill_abi_check_call(args, fnptr_mul(f));
    if (bad != 0)
        fprintf(stderr, "%s (n = %zu): ABI violation mask 0x%x\n", name, n, bad);
    QT_CHECK(bad == 0);
    c(RC, A, B, M, n0, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
}

static void check_sqr(const char *name, quill_mont_sqr_fn f, size_t n) {
    fill(n);
    quill_limb n0 = neg_inv64(M[0]);
    uint64_t args[6] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)M, n0, n, 0};
    quill_mont_mul_fn c;
    quill_mont_sqr_fn cs;
    quill_mont_kernels_c(n, &c, &cs);
    memset(R, 0, sizeof(R));
    unsigned bad = quill_abi_check_call(args, fnptr_sqr(f));
    if (bad != 0)
        fprintf(stderr, "%s (n = %zu): ABI violation mask 0x%x\n", name, n, bad);
    QT_CHECK(bad == 0);
    cs(RC, A, M, n0, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
}

int main(void) {
    if (!quill_mont_adx_capable()) {
        fprintf(stderr, "bn_abi: no BMI2/ADX, skipped\n");
        return QT_SKIP;
    }
    qt_rng_seed(0x61626921);
    /* negative controls: the trampoline notices a broken register and a
     * direction flag left set */
    uint64_t none[6] = {0, 0, 0, 0, 0, 0};
    QT_CHECK(quill_abi_check_call(none, (const void *)quill_abi_bad_r15) == 0x20);
    QT_CHECK(quill_abi_check_call(none, (const void *)quill_abi_bad_df) == 0x80);
    for (int rep = 0; rep < 4; rep++) {
        check_mul("mul_adx_8", quill_mont_mul_adx_8, 8);
        check_sqr("sqr_adx_8", quill_mont_sqr_adx_8, 8);
        check_mul("mul_adx_16", quill_mont_mul_adx_16, 16);
        check_sqr("sqr_adx_16", quill_mont_sqr_adx_16, 16);
        check_mul("mul_adx_24", quill_mont_mul_adx_24, 24);
        check_sqr("sqr_adx_24", quill_mont_sqr_adx_24, 24);
        check_mul("mul_adx_32", quill_mont_mul_adx_32, 32);
        check_sqr("sqr_adx_32", quill_mont_sqr_adx_32, 32);
        check_mul("mul_adx_48", quill_mont_mul_adx_48, 48);
        check_sqr("sqr_adx_48", quill_mont_sqr_adx_48, 48);
        check_mul("mul_adx_64", quill_mont_mul_adx_64, 64);
        check_sqr("sqr_adx_64", quill_mont_sqr_adx_64, 64);
        static const size_t ns[] = {2, 3, 4, 5, 7, 17, 48, 64, 65, 256};
        for (size_t i = 0; i < QT_ARRAY_LEN(ns); i++) {
            check_mul("mul_adx", quill_mont_mul_adx, ns[i]);
            check_sqr("sqr_adx", quill_mont_sqr_adx, ns[i]);
            check_addsub("add_x86_64", quill_bn_add_x86_64, quill_bn_add_c, ns[i]);
            check_addsub("sub_x86_64", quill_bn_sub_x86_64, quill_bn_sub_c, ns[i]);
        }
    }
    return qt_finish("bn_abi");
}

#else

int main(void) {
    fprintf(stderr, "bn_abi: built without the assembly, skipped\n");
    return QT_SKIP;
}

#endif
