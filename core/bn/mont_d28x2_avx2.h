/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Two-way 1024-bit Montgomery arithmetic in radix 2^28 with AVX2 VPMULUDQ
 * (issue 24: eight 32x32-bit products per cycle against one MULX per
 * cycle; docs/limits.md has the counts and the figures: squaring 0.74x,
 * product 0.72x the time of two MULX/ADX calls).  Internal to core/bn:
 * quill_mont_exp_consttime_x2 (exp.c) hands 16-limb pairs to
 * quill_mont_exp_consttime_x2_d28 when the CPU has AVX2 and not the IFMA
 * exponentiation (the CRT halves of RSA-2048 at the AVX2 level).
 *
 * The d28x2 form holds one number of each lane (the two CRT halves) in 19
 * vectors of four 64-bit words, x[4s .. 4s+3] = (x_2s, x_2s+1, x'_2s,
 * x'_2s+1), where x_i is digit i of 28 bits (37 digits, digit 37 zero);
 * digits may exceed 2^28 (below 2^29 + 2^8).  Montgomery's R is
 * 2^1036, not the 2^1024 of quill_mont. */
#ifndef QUILL_BN_MONT_D28X2_AVX2_H
#define QUILL_BN_MONT_D28X2_AVX2_H

#include <stddef.h>
#include <stdint.h>

#include "bn/internal.h"

#if !defined(QUILL_NO_ASM) && defined(__x86_64__)
#define QUILL_BN_HAVE_D28X2 1
#else
#define QUILL_BN_HAVE_D28X2 0
#endif

#define QUILL_D28X2_VECS 19                      /* vectors per number pair */
#define QUILL_D28X2_WORDS (4 * QUILL_D28X2_VECS) /* 76 words */
#define QUILL_D28X2_LIMBS 17 /* limbs of a lane's value (below 2^1036) */

/* quill_d28x2_mod: both moduli in the multiplicand form (mont_d28x2_avx2.c):
 * m[4j .. 4j+3] = (m_j-1, m_j, m'_j-1, m'_j) for j = 0..37, and N' =
 * -m^-1 mod R likewise for j = 0..36.  Secret (the primes). */
typedef struct __attribute__((aligned(32))) quill_d28x2_mod {
    uint64_t m[38 * 4];
    uint64_t np[37 * 4];
} quill_d28x2_mod;

/* quill_d28x2_mod_init fills md from two odd moduli m0, m1 of n <= 16 limbs
 * (below 2^1024).  Constant time in the moduli's values. */
void quill_d28x2_mod_init(quill_d28x2_mod *md, const quill_limb *m0, const quill_limb *m1,
                          size_t n);

/* quill_d28x2_from_limbs: x = (a0, a1) in the d28x2 form (n <= 16 limbs each). */
void quill_d28x2_from_limbs(uint64_t x[QUILL_D28X2_WORDS], const quill_limb *a0,
                            const quill_limb *a1, size_t n);

/* quill_d28x2_to_limbs: r0, r1 (17 limbs each) = the values of x's lanes
 * (below 2^1036, carries propagated exactly). */
void quill_d28x2_to_limbs(quill_limb r0[QUILL_D28X2_LIMBS], quill_limb r1[QUILL_D28X2_LIMBS],
                          const uint64_t x[QUILL_D28X2_WORDS]);

#if QUILL_BN_HAVE_D28X2
/* quill_mont_mul_d28x2_avx2: r = a b R^-1 mod m lane by lane, for a, b < 2m
 * in the d28x2 form; r < 2m (not fully reduced), r may alias a or b.
 * quill_mont_sqr_d28x2_avx2: r = a^2 R^-1 likewise.  Constant time.
 * Require AVX2. */
void quill_mont_mul_d28x2_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const quill_d28x2_mod *md);
void quill_mont_sqr_d28x2_avx2(uint64_t *r, const uint64_t *a, const quill_d28x2_mod *md);

/* quill_mont_exp_x2_dx2_fn: the type of the two-way exponentiations on the
 * dx2 forms (this one and mont_d27x2_avx2.h's; exp_dx2_body.h): r0 =
 * a0^e0 mod m0 and r1 = a1^e1 mod m1, the contract of
 * quill_mont_exp_consttime_x2 (bn.h), for one size of moduli.  Returns 0
 * if memory runs out.  Secret a, e and moduli: no branch or address
 * depends on them. */
typedef int quill_mont_exp_x2_dx2_fn(quill_limb *r0, const quill_limb *a0, const quill_limb *e0,
                                     const quill_mont *mont0, quill_limb *r1,
                                     const quill_limb *a1, const quill_limb *e1,
                                     const quill_mont *mont1, size_t e_limbs);

/* quill_mont_exp_consttime_x2_d28: the exponentiation on the kernels
 * above, for 16-limb moduli only.  Only call when
 * quill_mont_exp_x2_d28_capable(n). */
quill_mont_exp_x2_dx2_fn quill_mont_exp_consttime_x2_d28;
#endif

/* quill_mont_exp_x2_d28_capable: 1 if the kernels are built, the CPU has
 * AVX2 (not masked) and n is 16 (1024-bit halves: RSA-2048), else 0. */
int quill_mont_exp_x2_d28_capable(size_t n);

#endif
