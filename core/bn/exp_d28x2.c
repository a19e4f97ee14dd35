/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_mont_exp_consttime_x2_d28 (mont_d28x2_avx2.h): the two-way
 * constant-time exponentiation of quill_mont_exp_consttime_x2 for 1024-bit
 * moduli (RSA-2048's halves) on the radix-2^28 AVX2 kernels, R' = 2^1036
 * (exp_dx2_body.h). */
#include "bn/mont_d28x2_avx2.h"

#include "common/cpu.h"

#if QUILL_BN_HAVE_D28X2
int quill_mont_exp_x2_d28_capable(size_t n) {
    return n == 16 && quill_cpu_has(QUILL_CPU_X86_AVX2);
}

#define NLIMBS 16
#define RADIX 28
#define VECS QUILL_D28X2_VECS
#define LIMBS QUILL_D28X2_LIMBS
#define KERNEL_STACK (16 * 1024)
#define MOD quill_d28x2_mod
#define MOD_INIT quill_d28x2_mod_init
#define FROM_LIMBS quill_d28x2_from_limbs
#define TO_LIMBS quill_d28x2_to_limbs
#define MUL quill_mont_mul_d28x2_avx2
#define SQR quill_mont_sqr_d28x2_avx2
#define EXP_NAME quill_mont_exp_consttime_x2_d28
#include "bn/exp_dx2_body.h"

#else

int quill_mont_exp_x2_d28_capable(size_t n) {
    (void)n;
    return 0;
}

#endif
