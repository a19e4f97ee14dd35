/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * aarch64 P-256 field multiplication and squaring (asm/aarch64/p256_fe.S),
 * internal to core/ec.  Portable twins, which stay the oracle:
 * quill_p256_fe_mul_inline / _sqr_inline (p256_fe_inline.h).
 *
 * Limb arrays are four 64-bit words, little-endian.  Bounds and results are
 * those of the C twins: inputs fully reduced (< p), output fully reduced and
 * bit-identical, out may alias an input.  Constant time (values may be
 * secret).  None can fail.  Call only when quill_p256_arm64_capable() is
 * true.
 *
 * Dispatched to from quill_p256_fe_mul and quill_p256_fe_sqr (p256_fe.c),
 * which on aarch64 every field product goes through: the point formulas of
 * p256_point.c, p256_point_ct.c and p256_verify_point.h call them out of
 * line on every target but x86-64, and so do the ECDSA and key code and
 * the inversion's final product.  The dispatch reads the process-wide
 * CPU word (quill_cpu_has, inline): a load, a test and a tail call.
 *
 * Model figures (llvm-mca-16, tools/mca_p256_fe.sh; estimates, not
 * measurements), cycles per call for independent calls / for one call:
 * Neoverse N1 mul 42.3 / 60, sqr 35.2 / 54 against the gcc -O3 twin's
 * 117.1 / 129 and 100.1 / 113; Apple M1 mul 40.1 / 57, sqr 33.1 / 52
 * against 127.1 / 138 and 107.1 / 122. */
#ifndef QUILL_EC_P256_ARM64_H
#define QUILL_EC_P256_ARM64_H

#include <stdint.h>

#include "common/cpu.h"

#if defined(__aarch64__) && defined(__ELF__) && !defined(QUILL_NO_ASM)
#define QUILL_P256_HAVE_ARM64 1

/* quill_p256_fe_mul_arm64 sets out = a b R^-1 mod p.  In: a, b < p. */
void quill_p256_fe_mul_arm64(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/* quill_p256_fe_sqr_arm64 sets out = a^2 R^-1 mod p.  In: a < p. */
void quill_p256_fe_sqr_arm64(uint64_t out[4], const uint64_t a[4]);

/* quill_p256_fe_inv_arm64 sets out = a^-1 (Montgomery domain) as a^(p-2)
 * by a fixed addition chain, 255 squarings and 12 products in the two
 * kernels above (C, core/ec/p256_fe.c); its twin is
 * quill_p256_fe_inv_divsteps (p256_fe.h), same result.  a = 0 gives 0.
 * Constant time: the chain depends on p only. */
struct quill_p256_fe;
void quill_p256_fe_inv_arm64(struct quill_p256_fe *out, const struct quill_p256_fe *a);

/* quill_p256_point_add_mixed_arm64 is madd-2007-bl without case handling
 * (asm/aarch64/p256_point_arm64.S: the field operations of
 * p256_fe_macros.inc inlined on a stack frame, no calls), bit-identical to
 * its portable twin quill_p256_point_add_mixed_raw_c (p256_point.h):
 * out = (X3, Y3, Z3) from a = (X1, Y1, Z1) and b = (X2, Y2),
 * Montgomery-domain coordinates of four words, fully reduced.  out may
 * alias a.  Constant time; wipes its frame.  Dispatched to from
 * quill_p256_point_add_mixed_scratch (the fixed-base multiplication of
 * signing and key generation). */
struct quill_p256_jacobian;
struct quill_p256_affine;
void quill_p256_point_add_mixed_arm64(struct quill_p256_jacobian *out,
                                      const struct quill_p256_jacobian *a,
                                      const struct quill_p256_affine *b);

/* quill_p256_booth_gather_neon sets x, y to row[abs - 1] (abs 1..64) or to
 * zeros (abs = 0) by a full masked NEON scan of the 64-entry row
 * (asm/aarch64/p256_gather_neon.S), as its portable twin
 * quill_p256_booth_gather_c (p256_point.h).  abs is secret: no address or
 * branch depends on it.  Call only when quill_p256_neon_capable(). */
void quill_p256_booth_gather_neon(uint64_t x[4], uint64_t y[4],
                                  const struct quill_p256_affine *row, uint64_t abs);

/* quill_p256_arm64_capable returns nonzero when the build has the aarch64
 * assembly and QUILL_CPU_MASK does not clear QUILL_CPU_ARM64. */
static inline int quill_p256_arm64_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM64);
}

/* quill_p256_neon_capable returns nonzero when the CPU has Advanced SIMD
 * (QUILL_CPU_ARM_NEON, not masked) and the build has the assembly. */
static inline int quill_p256_neon_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM64 | QUILL_CPU_ARM_NEON);
}
#else
static inline int quill_p256_arm64_capable(void) {
    return 0;
}

static inline int quill_p256_neon_capable(void) {
    return 0;
}
#endif

#endif
