/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_mont_exp_consttime_x2_d27_32 (mont_d27x2_avx2.h): the two-way
 * constant-time exponentiation for 2048-bit moduli (RSA-4096's halves), R' = 2^2079
 * (exp_dx2_body.h). */
#include "bn/mont_d27x2_avx2.h"

#include "common/cpu.h"

#if QUILL_BN_HAVE_D28X2
int quill_mont_exp_x2_d27_32_capable(size_t n) {
    return n == 32 && quill_cpu_has(QUILL_CPU_X86_AVX2);
}

#define NLIMBS 32
#define RADIX 27
#define VECS QUILL_D27X2_32_VECS
#define LIMBS QUILL_D27X2_32_LIMBS
#define KERNEL_STACK (24 * 1024)
#define MOD quill_d27x2_32_mod
#define MOD_INIT quill_d27x2_32_mod_init
#define FROM_LIMBS quill_d27x2_32_from_limbs
#define TO_LIMBS quill_d27x2_32_to_limbs
#define MUL quill_mont_mul_d27x2_32_avx2
#define SQR quill_mont_sqr_d27x2_32_avx2
#define EXP_NAME quill_mont_exp_consttime_x2_d27_32
#include "bn/exp_dx2_body.h"

#else

int quill_mont_exp_x2_d27_32_capable(size_t n) {
    (void)n;
    return 0;
}

#endif
