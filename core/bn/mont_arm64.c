/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Selection of the aarch64 Montgomery kernels
 * (asm/aarch64/bn_mont.S, bn_mont_sqr.S). */
#include "bn/mont_arm64.h"

#include "common/cpu.h"

#if QUILL_BN_HAVE_MONT_ARM64

int quill_mont_arm64_capable(size_t n) {
    return n >= QUILL_MONT_ARM64_MIN_LIMBS && n % 4 == 0 && n <= QUILL_BN_MAX_LIMBS &&
           quill_cpu_has(QUILL_CPU_ARM64);
}

void quill_mont_kernels_arm64(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    *mul = quill_mont_mul_arm64;
    if (n >= QUILL_MONT_ARM64_SQR_MIN_LIMBS) {
        *sqr = quill_mont_sqr_arm64;
    } else {
        quill_mont_mul_fn cmul;
        quill_mont_kernels_c(n, &cmul, sqr);
    }
}

/* Two-way kernels: two calls of the single ones. */
static void mont_mul_pair_arm64(quill_limb *const r[2], const quill_limb *const a[2],
                                const quill_limb *const b[2], const quill_limb *const m[2],
                                const quill_limb n0[2], size_t n) {
    quill_mont_mul_arm64(r[0], a[0], b[0], m[0], n0[0], n);
    quill_mont_mul_arm64(r[1], a[1], b[1], m[1], n0[1], n);
}

static void mont_sqr_pair_arm64(quill_limb *const r[2], const quill_limb *const a[2],
                                const quill_limb *const m[2], const quill_limb n0[2], size_t n) {
    quill_mont_sqr_arm64(r[0], a[0], m[0], n0[0], n);
    quill_mont_sqr_arm64(r[1], a[1], m[1], n0[1], n);
}

/* Below QUILL_MONT_ARM64_SQR_MIN_LIMBS: the portable squaring of n limbs,
 * twice. */
static void mont_sqr_pair_c(quill_limb *const r[2], const quill_limb *const a[2],
                            const quill_limb *const m[2], const quill_limb n0[2], size_t n) {
    quill_mont_mul_fn cmul;
    quill_mont_sqr_fn csqr;
    quill_mont_kernels_c(n, &cmul, &csqr);
    csqr(r[0], a[0], m[0], n0[0], n);
    csqr(r[1], a[1], m[1], n0[1], n);
}

void quill_mont_kernels_x2_arm64(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    *mul = mont_mul_pair_arm64;
    *sqr = n >= QUILL_MONT_ARM64_SQR_MIN_LIMBS ? mont_sqr_pair_arm64 : mont_sqr_pair_c;
}

#else /* !QUILL_BN_HAVE_MONT_ARM64 */

int quill_mont_arm64_capable(size_t n) {
    (void)n;
    return 0;
}

void quill_mont_kernels_arm64(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    (void)n;
    (void)mul;
    (void)sqr;
}

void quill_mont_kernels_x2_arm64(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    (void)n;
    (void)mul;
    (void)sqr;
}

#endif
