/* Copyright quill authors.  Selection of the MULX/ADCX/ADOX Montgomery
 * kernels (asm/x86_64/bn_mont_adx.S). */
#include "bn/mont_adx.h"

#include "common/cpu.h"

#if QUILL_BN_HAVE_ADX

int quill_mont_adx_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX);
}

void quill_mont_kernels_adx(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    switch (n) {
#define QUILL_ADX_CASE(N)                                                                   \
    case N:                                                                                 \
        *mul = quill_mont_mul_adx_##N;                                                      \
        *sqr = quill_mont_sqr_adx_##N;                                                      \
        return;
        QUILL_ADX_CASE(8)
        QUILL_ADX_CASE(16)
        QUILL_ADX_CASE(24)
        QUILL_ADX_CASE(32)
        QUILL_ADX_CASE(48)
        QUILL_ADX_CASE(64)
#undef QUILL_ADX_CASE
    default:
        *mul = quill_mont_mul_adx;
        *sqr = quill_mont_sqr_adx;
        return;
    }
}

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
QUILL_ADX_PAIR(_8)
QUILL_ADX_PAIR(_16)
QUILL_ADX_PAIR(_24)
QUILL_ADX_PAIR(_32)
QUILL_ADX_PAIR(_48)
QUILL_ADX_PAIR(_64)
QUILL_ADX_PAIR()
#undef QUILL_ADX_PAIR

void quill_mont_kernels_x2_adx(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    switch (n) {
#define QUILL_ADX_CASE(N)                                                                   \
    case N:                                                                                 \
        *mul = mont_mul_pair_adx_##N;                                                       \
        *sqr = mont_sqr_pair_adx_##N;                                                       \
        return;
        QUILL_ADX_CASE(8)
        QUILL_ADX_CASE(16)
        QUILL_ADX_CASE(24)
        QUILL_ADX_CASE(32)
        QUILL_ADX_CASE(48)
        QUILL_ADX_CASE(64)
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
