/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Selection of the MULX/ADCX/ADOX Montgomery
 * kernels (asm/x86_64/bn_mont_adx.S). */
#include "bn/mont_adx.h"

#include "common/cpu.h"

#if QUILL_BN_HAVE_ADX

int quill_mont_adx_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX);
}

/* The limb counts with a dedicated kernel in bn_mont_adx.S; every other
 * size takes the generic loop (no suffix). */
#define QUILL_ADX_SIZES(X) X(_8) X(_16) X(_24) X(_32) X(_48) X(_64)
#define QUILL_ADX_SIZE_N(suffix) QUILL_ADX_SIZE_N_##suffix
#define QUILL_ADX_SIZE_N__8 8
#define QUILL_ADX_SIZE_N__16 16
#define QUILL_ADX_SIZE_N__24 24
#define QUILL_ADX_SIZE_N__32 32
#define QUILL_ADX_SIZE_N__48 48
#define QUILL_ADX_SIZE_N__64 64

void quill_mont_kernels_adx(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    switch (n) {
#define QUILL_ADX_CASE(suffix)                                                              \
    case QUILL_ADX_SIZE_N(suffix):                                                          \
        *mul = quill_mont_mul_adx##suffix;                                                  \
        *sqr = quill_mont_sqr_adx##suffix;                                                  \
        return;
        QUILL_ADX_SIZES(QUILL_ADX_CASE)
#undef QUILL_ADX_CASE
    default:
        *mul = quill_mont_mul_adx;
        *sqr = quill_mont_sqr_adx;
        return;
    }
}

quill_mont_sqr_fn quill_mont_sqr_public_adx(size_t n) {
    switch (n) {
    case 16:
        return quill_mont_sqr_adx_public_16;
    case 32:
        return quill_mont_sqr_adx_public_32;
    case 48:
        return quill_mont_sqr_adx_public_48;
    case 64:
        return quill_mont_sqr_adx_public_64;
    default:
        return NULL;
    }
}

/* Two-way kernels: two calls of the single ones (the ADX rows already keep
 * the multiplier busy; see mont_kernels.c for the measurements in C). */
#define QUILL_ADX_PAIR(suffix)                                                              \
    static void mont_mul_pair_adx##suffix(quill_limb *const r[2], const quill_limb *const a[2], \
                                          const quill_limb *const b[2],                     \
                                          const quill_limb *const m[2],                     \
                                          const quill_limb n0[2], size_t n) {               \
        quill_mont_mul_adx##suffix(r[0], a[0], b[0], m[0], n0[0], n);                       \
        quill_mont_mul_adx##suffix(r[1], a[1], b[1], m[1], n0[1], n);                       \
    }                                                                                       \
    static void mont_sqr_pair_adx##suffix(quill_limb *const r[2], const quill_limb *const a[2], \
                                          const quill_limb *const m[2],                     \
                                          const quill_limb n0[2], size_t n) {               \
        quill_mont_sqr_adx##suffix(r[0], a[0], m[0], n0[0], n);                             \
        quill_mont_sqr_adx##suffix(r[1], a[1], m[1], n0[1], n);                             \
    }
QUILL_ADX_SIZES(QUILL_ADX_PAIR)
QUILL_ADX_PAIR()
#undef QUILL_ADX_PAIR

void quill_mont_kernels_x2_adx(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    switch (n) {
#define QUILL_ADX_CASE(suffix)                                                              \
    case QUILL_ADX_SIZE_N(suffix):                                                          \
        *mul = mont_mul_pair_adx##suffix;                                                   \
        *sqr = mont_sqr_pair_adx##suffix;                                                   \
        return;
        QUILL_ADX_SIZES(QUILL_ADX_CASE)
#undef QUILL_ADX_CASE
    default:
        *mul = mont_mul_pair_adx;
        *sqr = mont_sqr_pair_adx;
        return;
    }
}

#else /* !QUILL_BN_HAVE_ADX */

int quill_mont_adx_capable(void) {
    return 0;
}

quill_mont_sqr_fn quill_mont_sqr_public_adx(size_t n) {
    (void)n;
    return NULL;
}

void quill_mont_kernels_adx(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    (void)n;
    (void)mul;
    (void)sqr;
}

void quill_mont_kernels_x2_adx(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    (void)n;
    (void)mul;
    (void)sqr;
}

#endif
