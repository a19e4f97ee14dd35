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

/* The kernels take every multiple of 4 from 4 limbs; the dispatch uses them
 * from QUILL_MONT_ARM64_MIN_LIMBS (RSA-2048's CRT halves, 16 limbs: 24 and
 * 32 for RSA-3072/4096, 32, 48, 64 for the moduli), the squaring as well
 * (QUILL_MONT_ARM64_SQR_MIN_LIMBS).  By the llvm-mca model of a whole call
 * (tools/mca/bn_aarch64.sh; cycles, Neoverse-N1 / Apple-M1, i.e. LLVM 16's
 * Cortex-A57 / Cyclone tables) the multiplication costs 1213/1068 at 16
 * limbs, 2537/2354 at 24, 4349/4154 at 32, 9515/9290 at 48 and
 * 16771/16474 at 64, against 1314/1163, 3141/2542, 7827/6287,
 * 16742/12698 and 28844/21615 for the portable kernel (and OpenSSL 3.0's
 * armv8 bn_mul_mont 1248/1074, 2734/2372, 4804/4180, 10697/9335,
 * 18925/16538).  The dedicated squaring quill_mont_sqr_arm64
 * (bn_mont_sqr.S): 1034/866 at 16, 2116/1859 at 24, 3582/3237 at 32,
 * 7678/7145 at 48, 13314/12589 at 64, against 1056/1057, 2210/2174,
 * 6583/5691, 13735/11735 and 23270/19757 for the portable squaring, which
 * halves the cross products too (OpenSSL's __bn_sqr8x_mont: 981/887,
 * 2036/1903, 3471/3303, 7519/7259, 13119/12753).  At 16 limbs the
 * back-to-back figures of bench/aarch64_model.py put the dedicated
 * squaring 2% behind the portable one on N1 (1028 vs 1006) and 18% ahead
 * on M1 (852 vs 1043); it is taken there too (RSA-2048 signing by that
 * model: +1% on N1, -13% on M1). */
#define QUILL_MONT_ARM64_MIN_LIMBS 16
#define QUILL_MONT_ARM64_SQR_MIN_LIMBS 16

/* quill_mont_arm64_capable: 1 if the aarch64 kernels are built, the CPU bit
 * QUILL_CPU_ARM64 is set (not masked) and n (public) is a length the
 * dispatch gives them: a multiple of 4 from QUILL_MONT_ARM64_MIN_LIMBS to
 * QUILL_BN_MAX_LIMBS.  Else 0. */
int quill_mont_arm64_capable(size_t n);

/* quill_mont_kernels_arm64 picks the aarch64 multiplication kernel and,
 * from QUILL_MONT_ARM64_SQR_MIN_LIMBS, the dedicated aarch64 squaring
 * quill_mont_sqr_arm64 (below, the portable squaring for n).  Only
 * call when quill_mont_arm64_capable(n). */
void quill_mont_kernels_arm64(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr);

/* quill_mont_kernels_x2_arm64: the two-way kernels for n limbs as two calls
 * of the single ones that quill_mont_kernels_arm64 picks (a four-row pass
 * already keeps the multiplier busy).  Only call when
 * quill_mont_arm64_capable(n). */
void quill_mont_kernels_x2_arm64(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr);

#if QUILL_BN_HAVE_MONT_ARM64
/* quill_mont_mul_arm64 (asm/aarch64/bn_mont.S): r = a b R^-1 mod m for n a
 * multiple of 4, 4 <= n <= QUILL_BN_MAX_LIMBS, by four-row CIOS passes
 * skewed by one group of rows.  a, b < m (secret), m odd (may be secret),
 * n0 = -m^-1 mod 2^64; r may alias a or b, not m.  Constant time: no
 * branch or address depends on a, b, m or n0.  4400 bytes of stack (96 of
 * saved registers and a fixed frame of 4304), the part used (16 n + 208
 * bytes) zeroised before return. */
void quill_mont_mul_arm64(quill_limb *r, const quill_limb *a, const quill_limb *b,
                          const quill_limb *m, quill_limb n0, size_t n);
/* quill_mont_sqr_arm64 (asm/aarch64/bn_mont_sqr.S), the dedicated squaring:
 * r = a^2 R^-1 mod m, the cross products a_i a_j (i < j) once, doubled,
 * plus the diagonal squares, then a four-row Montgomery reduction of the
 * 2n-word square.  n a multiple of 4, 4 <= n <= QUILL_BN_MAX_LIMBS; a < m
 * (secret), m odd (may be secret); r may alias a, not m.  Constant time as
 * above; 4272 bytes of stack, the part used (16 n + 64 bytes) zeroised
 * before return. */
void quill_mont_sqr_arm64(quill_limb *r, const quill_limb *a, const quill_limb *m, quill_limb n0,
                          size_t n);
#endif

#endif
