/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery kernels in aarch64 assembly with MUL/UMULH and ADCS chains
 * (asm/aarch64/bn_mont.S).  Internal to core/bn: mont_kernels.c picks them
 * at context creation when quill_mont_arm64_capable(n) holds; the portable
 * kernels of mont_kernels.c stay the oracle and the fallback (QUILL_NO_ASM,
 * other CPUs, lengths that are not a multiple of 4, or QUILL_CPU_MASK
 * clearing QUILL_CPU_ARM64). */
#ifndef QUILL_BN_MONT_ARM64_H
#define QUILL_BN_MONT_ARM64_H

#include <stddef.h>

#include "bn/internal.h"

#if !defined(QUILL_NO_ASM) && defined(__aarch64__) && defined(__ELF__)
#define QUILL_BN_HAVE_MONT_ARM64 1
#else
#define QUILL_BN_HAVE_MONT_ARM64 0
#endif

/* quill_mont_arm64_capable: 1 if the aarch64 kernels are built, the CPU bit
 * QUILL_CPU_ARM64 is set (not masked) and n (public) is a length they take:
 * a multiple of 4 from 4 to QUILL_BN_MAX_LIMBS (every RSA size from 1024
 * bits: 16, 24, 32 limbs for the CRT halves of 2048 to 4096, 32, 48, 64 for
 * the moduli).  Else 0. */
int quill_mont_arm64_capable(size_t n);

/* quill_mont_kernels_arm64 picks the aarch64 multiplication and squaring
 * kernels.  Only call when quill_mont_arm64_capable(n). */
void quill_mont_kernels_arm64(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr);

/* quill_mont_kernels_x2_arm64: the two-way kernels for n limbs as two calls
 * of the single ones (one row already keeps the multiplier busy).  Only
 * call when quill_mont_arm64_capable(n). */
void quill_mont_kernels_x2_arm64(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr);

#if QUILL_BN_HAVE_MONT_ARM64
/* The assembly entry points: r = a b R^-1 mod m (r = a^2 R^-1 mod m) for n
 * a multiple of 4, 4 <= n <= QUILL_BN_MAX_LIMBS.  a, b < m (secret), m odd
 * (may be secret), n0 = -m^-1 mod 2^64; r may alias a or b, not m.
 * Constant time: no branch or address depends on a, b, m or n0.  6352
 * bytes of stack, the part used (24 n + 112 bytes) zeroised before
 * return. */
void quill_mont_mul_arm64(quill_limb *r, const quill_limb *a, const quill_limb *b,
                          const quill_limb *m, quill_limb n0, size_t n);
void quill_mont_sqr_arm64(quill_limb *r, const quill_limb *a, const quill_limb *m, quill_limb n0,
                          size_t n);
#endif

#endif
