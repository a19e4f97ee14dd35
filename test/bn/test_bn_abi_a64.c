/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_bn_abi_a64: calls every aarch64 assembly entry point of core/bn
 * (asm/aarch64/bn_add.S, bn_mont.S, bn_mont_sqr.S) through quill_abi_a64_call
 * (test/common/abi_check_aarch64.S), which fills x19-x29 and d8-d15 with
 * canaries and reports any that the routine did not preserve, or a moved
 * stack pointer.  Each call's result is compared with the portable twin, so
 * the call really ran.  Skipped (77) off aarch64 or without the assembly. */
#include <stdint.h>
#include <string.h>

#include "abi_check_aarch64.h"
#include "bn/internal.h"
#include "bn/mont_arm64.h"
#include "test_util.h"

#if QUILL_HAVE_ABI_A64 && QUILL_BN_HAVE_ARM64 && QUILL_BN_HAVE_MONT_ARM64

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

typedef quill_limb (*addsub_fn)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                size_t n);

/* A function pointer as the checker's data pointer (POSIX allows it). */
typedef void (*any_fn)(void);
static const void *fnptr(any_fn f) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}
#define FNPTR(f) fnptr((any_fn)(f))

static void report(const char *name, size_t n, uint32_t bad) {
    if (bad == 0)
        return;
    for (unsigned i = 0; i < 20; i++)
        if (bad & (1u << i))
            fprintf(stderr, "%s (n = %zu): %s not preserved\n", name, n, quill_abi_a64_reg_name(i));
}

static void check_addsub(const char *name, addsub_fn f, addsub_fn c, size_t n) {
    fill(n == 0 ? 1 : n);
    uint64_t args[8] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)B, n, 0, 0, 0, 0}, ret = 2;
    memset(R, 0, sizeof(R));
    uint32_t bad = quill_abi_a64_call(FNPTR(f), args, &ret);
    report(name, n, bad);
    QT_CHECK(bad == 0);
    quill_limb carry = c(RC, A, B, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
    QT_CHECK(ret == carry);
}

static void check_mul(const char *name, quill_mont_mul_fn f, size_t n) {
    fill(n);
    quill_limb n0 = neg_inv64(M[0]);
    uint64_t args[8] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)B, (uintptr_t)M, n0, n, 0, 0};
    uint64_t ret;
    quill_mont_mul_fn c;
    quill_mont_sqr_fn cs;
    quill_mont_kernels_c(n, &c, &cs);
    memset(R, 0, sizeof(R));
    uint32_t bad = quill_abi_a64_call(FNPTR(f), args, &ret);
    report(name, n, bad);
    QT_CHECK(bad == 0);
    c(RC, A, B, M, n0, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
}

static void check_sqr(const char *name, quill_mont_sqr_fn f, size_t n) {
    fill(n);
    quill_limb n0 = neg_inv64(M[0]);
    uint64_t args[8] = {(uintptr_t)R, (uintptr_t)A, (uintptr_t)M, n0, n, 0, 0, 0};
    uint64_t ret;
    quill_mont_mul_fn c;
    quill_mont_sqr_fn cs;
    quill_mont_kernels_c(n, &c, &cs);
    memset(R, 0, sizeof(R));
    uint32_t bad = quill_abi_a64_call(FNPTR(f), args, &ret);
    report(name, n, bad);
    QT_CHECK(bad == 0);
    cs(RC, A, M, n0, n);
    QT_CHECK(memcmp(R, RC, n * sizeof(quill_limb)) == 0);
}

int main(void) {
    qt_rng_seed(0x61626921);
    /* negative controls: the checker notices broken registers */
    uint64_t none[8] = {0}, ret;
    void (*bad_x23)(void) = quill_abi_a64_bad_x23;
    void (*bad_d12)(void) = quill_abi_a64_bad_d12;
    QT_CHECK(quill_abi_a64_call(FNPTR(bad_x23), none, &ret) == 1u << 4);
    QT_CHECK(quill_abi_a64_call(FNPTR(bad_d12), none, &ret) == 1u << 15);
    addsub_fn add_a = quill_bn_add_arm64, sub_a = quill_bn_sub_arm64;
    quill_mont_mul_fn mul_a = quill_mont_mul_arm64;
    quill_mont_sqr_fn sqr_a = quill_mont_sqr_arm64;
    for (int rep = 0; rep < 3; rep++) {
        static const size_t ns[] = {4, 8, 16, 24, 32, 48, 64, 128, 256};
        for (size_t i = 0; i < QT_ARRAY_LEN(ns); i++) {
            check_mul("mont_mul_arm64", mul_a, ns[i]);
            check_sqr("mont_sqr_arm64", sqr_a, ns[i]);
        }
        for (size_t n = 0; n <= 9; n++) {
            check_addsub("bn_add_arm64", add_a, quill_bn_add_c, n);
            check_addsub("bn_sub_arm64", sub_a, quill_bn_sub_c, n);
        }
        check_addsub("bn_add_arm64", add_a, quill_bn_add_c, 64);
        check_addsub("bn_sub_arm64", sub_a, quill_bn_sub_c, 65);
    }
    return qt_finish("bn_abi_a64");
}

#else

int main(void) {
    fprintf(stderr, "bn_abi_a64: not an aarch64 build with the assembly, skipped\n");
    return QT_SKIP;
}

#endif
