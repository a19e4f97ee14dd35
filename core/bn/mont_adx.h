/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery kernels in x86-64 assembly with MULX/ADCX/ADOX
 * (asm/x86_64/bn_mont_adx.S).  Internal to core/bn: mont_kernels.c picks
 * them at context creation when quill_mont_adx_capable() holds; the
 * portable kernels of mont_kernels.c stay the oracle and the fallback
 * (QUILL_NO_ASM, other CPUs, or QUILL_CPU_MASK clearing BMI2 or ADX). */
#ifndef QUILL_BN_MONT_ADX_H
#define QUILL_BN_MONT_ADX_H

#include <stddef.h>

#include "bn/internal.h"

#if !defined(QUILL_NO_ASM) && defined(__x86_64__) && defined(__ELF__)
#define QUILL_BN_HAVE_ADX 1
#else
#define QUILL_BN_HAVE_ADX 0
#endif

/* The smallest limb count the ADX kernels are used for (the generic ones
 * work from 2 limbs; below 4 the C kernels are as fast). */
#define QUILL_MONT_ADX_MIN_LIMBS 4

/* quill_mont_adx_capable: 1 if the ADX kernels are built and the CPU has
 * BMI2 and ADX (not masked by QUILL_CPU_MASK), else 0. */
int quill_mont_adx_capable(void);

/* quill_mont_kernels_adx picks the ADX multiplication and squaring kernels
 * for n >= QUILL_MONT_ADX_MIN_LIMBS limbs (the unrolled ones for 8, 16, 24,
 * 32, 48 and 64 limbs, the looped ones otherwise).  Only call when
 * quill_mont_adx_capable(). */
void quill_mont_kernels_adx(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr);

/* quill_mont_sqr_public_adx: the almost-Montgomery squaring of public
 * operands for n limbs (quill_mont_sqr_adx_public_N), or NULL where there
 * is none (n other than 16, 32, 48, 64, or no ADX kernels in the build). */
quill_mont_sqr_fn quill_mont_sqr_public_adx(size_t n);

/* quill_mont_kernels_x2_adx: the two-way kernels for n limbs as two calls of
 * the ADX kernels (the two multiplications of a single MULX kernel already
 * keep both carry chains and the multiplier busy). */
void quill_mont_kernels_x2_adx(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr);

#if QUILL_BN_HAVE_ADX
/* The assembly entry points.  quill_mont_mul_adx_N / quill_mont_sqr_adx_N:
 * r = a b R^-1 mod m (r = a^2 R^-1 mod m) for n = N limbs exactly;
 * quill_mont_mul_adx / quill_mont_sqr_adx: any n >= 2 (up to
 * QUILL_BN_MAX_LIMBS; 16 n bytes of stack, 16 N + 112 for the _N ones).
 * a, b < m (secret), m odd (may be secret), n0 = -m^-1 mod 2^64; r may
 * alias a or b, not m.
 * Constant time: no branch or address depends on a, b, m or n0.  Scratch
 * on the stack is zeroised before return.  Require BMI2 and ADX. */
#define QUILL_MONT_ADX_DECL(suffix)                                                         \
    void quill_mont_mul_adx##suffix(quill_limb *r, const quill_limb *a, const quill_limb *b,  \
                                    const quill_limb *m, quill_limb n0, size_t n);          \
    void quill_mont_sqr_adx##suffix(quill_limb *r, const quill_limb *a, const quill_limb *m,  \
                                    quill_limb n0, size_t n);
QUILL_MONT_ADX_DECL(_8)
QUILL_MONT_ADX_DECL(_16)
QUILL_MONT_ADX_DECL(_24)
QUILL_MONT_ADX_DECL(_32)
QUILL_MONT_ADX_DECL(_48)
QUILL_MONT_ADX_DECL(_64)
QUILL_MONT_ADX_DECL()
#undef QUILL_MONT_ADX_DECL

/* quill_mont_sqr_adx_public_N (N = 16, 32, 48, 64): r = a^2 R^-1 mod m up
 * to one multiple of m, with r < R, for any a < R (almost Montgomery: the
 * outputs chain as inputs without a full reduction).  Variable time (a
 * branch on the reduction's top word) and the stack scratch is not wiped:
 * public operands only (RSA verification).  Same arguments, aliasing and
 * stack use as quill_mont_sqr_adx_N. */
void quill_mont_sqr_adx_public_16(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                  quill_limb n0, size_t n);
void quill_mont_sqr_adx_public_32(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                  quill_limb n0, size_t n);
void quill_mont_sqr_adx_public_48(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                  quill_limb n0, size_t n);
void quill_mont_sqr_adx_public_64(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                  quill_limb n0, size_t n);
#endif

#endif
