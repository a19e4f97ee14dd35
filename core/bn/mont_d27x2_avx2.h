/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Two-way 1536-bit Montgomery arithmetic in radix 2^27 with AVX2 VPMULUDQ
 * (issue 24; docs/limits.md: 0.91x / 0.81x the time of two 24-limb
 * MULX/ADX calls for a squaring / product).  The layout of
 * mont_d28x2_avx2.h at a larger size: radix 2^28 would overflow the 64-bit
 * column sums at 55 digits, so 57 digits of 27 bits (R = 2^1539), padded
 * to 58, in 29 vectors x[4s .. 4s+3] = (x_2s, x_2s+1, x'_2s, x'_2s+1), the
 * two CRT halves in the two 128-bit halves; digits may exceed 2^27 (below
 * 2^28 + 2^10).  Internal to core/bn: quill_mont_exp_consttime_x2 (exp.c)
 * hands 24-limb pairs (RSA-3072's CRT halves) to
 * quill_mont_exp_consttime_x2_d27 when the CPU has AVX2 and not the IFMA
 * exponentiation, and 32-limb pairs (RSA-4096) to the same form at 77
 * digits (R = 2^2079, 39 vectors: the _32 names). */
#ifndef QUILL_BN_MONT_D27X2_AVX2_H
#define QUILL_BN_MONT_D27X2_AVX2_H

#include <stddef.h>
#include <stdint.h>

#include "bn/internal.h"
#include "bn/mont_d28x2_avx2.h" /* QUILL_BN_HAVE_D28X2: the same targets */

#define QUILL_D27X2_VECS 29                        /* vectors per number pair */
#define QUILL_D27X2_WORDS (4 * QUILL_D27X2_VECS)   /* 116 words */
#define QUILL_D27X2_LIMBS 25 /* limbs of a lane's value (below 2^1539 + ...) */

/* The same form for 2048-bit moduli (RSA-4096's halves): 77 digits (R =
 * 2^2079), padded to 78, in 39 vectors. */
#define QUILL_D27X2_32_VECS 39
#define QUILL_D27X2_32_WORDS (4 * QUILL_D27X2_32_VECS) /* 156 words */
#define QUILL_D27X2_32_LIMBS 33

/* quill_d27x2_mod: both moduli in the multiplicand form, m[4j .. 4j+3] =
 * (m_j-1, m_j, m'_j-1, m'_j) for j = 0..57, and N' = -m^-1 mod R likewise
 * for j = 0..56.  Secret (the primes). */
typedef struct __attribute__((aligned(32))) quill_d27x2_mod {
    uint64_t m[58 * 4];
    uint64_t np[57 * 4];
} quill_d27x2_mod;

/* quill_d27x2_32_mod: the same for 2048-bit moduli, j = 0..77 and 0..76. */
typedef struct __attribute__((aligned(32))) quill_d27x2_32_mod {
    uint64_t m[78 * 4];
    uint64_t np[77 * 4];
} quill_d27x2_32_mod;

/* quill_d27x2_mod_init fills md from two odd moduli m0, m1 of n <= 24 limbs
 * (below 2^1536).  Constant time in the moduli's values. */
void quill_d27x2_mod_init(quill_d27x2_mod *md, const quill_limb *m0, const quill_limb *m1,
                          size_t n);

/* quill_d27x2_from_limbs: x = (a0, a1) in the d27x2 form (n <= 24 limbs each). */
void quill_d27x2_from_limbs(uint64_t x[QUILL_D27X2_WORDS], const quill_limb *a0,
                            const quill_limb *a1, size_t n);

/* quill_d27x2_to_limbs: r0, r1 (25 limbs each) = the values of x's lanes
 * (carries propagated exactly, bits from 1600 on dropped). */
void quill_d27x2_to_limbs(quill_limb r0[QUILL_D27X2_LIMBS], quill_limb r1[QUILL_D27X2_LIMBS],
                          const uint64_t x[QUILL_D27X2_WORDS]);

/* The same three for 2048-bit moduli (n <= 32 limbs, 33-limb results). */
void quill_d27x2_32_mod_init(quill_d27x2_32_mod *md, const quill_limb *m0, const quill_limb *m1,
                             size_t n);
void quill_d27x2_32_from_limbs(uint64_t x[QUILL_D27X2_32_WORDS], const quill_limb *a0,
                               const quill_limb *a1, size_t n);
void quill_d27x2_32_to_limbs(quill_limb r0[QUILL_D27X2_32_LIMBS],
                             quill_limb r1[QUILL_D27X2_32_LIMBS],
                             const uint64_t x[QUILL_D27X2_32_WORDS]);

#if QUILL_BN_HAVE_D28X2
/* quill_mont_mul_d27x2_avx2: r = a b R^-1 mod m lane by lane, for a, b < 2m
 * in the d27x2 form; r < 2m (not fully reduced), r may alias a or b.
 * quill_mont_sqr_d27x2_avx2: r = a^2 R^-1 likewise.  Constant time (the
 * loops' bounds depend on the size only).  Require AVX2. */
void quill_mont_mul_d27x2_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const quill_d27x2_mod *md);
void quill_mont_sqr_d27x2_avx2(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);
/* The same for 2048-bit moduli (R = 2^2079). */
void quill_mont_mul_d27x2_32_avx2(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const quill_d27x2_32_mod *md);
void quill_mont_sqr_d27x2_32_avx2(uint64_t *r, const uint64_t *a, const quill_d27x2_32_mod *md);

/* quill_mont_exp_consttime_x2_d27 (quill_mont_exp_x2_dx2_fn,
 * mont_d28x2_avx2.h): the exponentiation on the kernels above, for
 * 24-limb moduli only; only call when quill_mont_exp_x2_d27_capable(n).
 * quill_mont_exp_consttime_x2_d27_32: the same for 32-limb moduli
 * (RSA-4096's halves); only call when quill_mont_exp_x2_d27_32_capable(n). */
quill_mont_exp_x2_dx2_fn quill_mont_exp_consttime_x2_d27;
quill_mont_exp_x2_dx2_fn quill_mont_exp_consttime_x2_d27_32;
#endif

/* quill_mont_exp_x2_d27_capable: 1 if the kernels are built, the CPU has
 * AVX2 (not masked) and n is 24 (1536-bit halves: RSA-3072), else 0. */
int quill_mont_exp_x2_d27_capable(size_t n);
/* quill_mont_exp_x2_d27_32_capable: the same for n = 32 (RSA-4096). */
int quill_mont_exp_x2_d27_32_capable(size_t n);

#endif
