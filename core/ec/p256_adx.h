/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * x86-64 MULX/ADCX/ADOX P-256 Montgomery products
 * (asm/x86_64/p256_fe_adx.S) and point formulas (p256_point_adx.S,
 * p256_double_adx.S, p256_add_vartime_adx.S, built from the field macros
 * of p256_fe_macros.h), internal to core/ec.  Each has a portable twin
 * that stays the oracle: quill_p256_fe_mul_inline / _sqr_inline
 * (p256_fe_inline.h), quill_p256_scalar_mul_c (p256_scalar.c),
 * quill_p256_point_add_mixed_raw_c and quill_p256_point_double
 * (p256_point.c), quill_p256_point_madd_vartime_c and
 * quill_p256_point_add_cached_vartime_c (p256_verify_point.h).
 *
 * Limb arrays are four 64-bit words, little-endian.  Bounds and results are
 * those of the C twins: inputs fully reduced, outputs fully reduced, out
 * may alias an input.  Constant time (values may be secret).  None can
 * fail.  Call only when quill_p256_adx_capable() is true.
 *
 * Dispatched to: the scalar product (quill_p256_scalar_mul and the
 * constant-time scalar inversion), about 1.6x faster than its C twin; the
 * mixed point addition of the fixed-base multiplication
 * (quill_p256_point_add_mixed_scratch); and the doublings and additions
 * of both verification paths (p256_verify_point.h), which made a one-shot
 * verification 763k -> 433k instructions and 1.1x -> 1.5x OpenSSL 3.0's
 * time.  The field products alone are not, gcc 12's inlined C being as
 * fast on Zen 4 (measurements in p256_fe.c); inside the point formulas the
 * assembly saves the C's moves between temporaries and keeps
 * intermediate values in registers. */
#ifndef QUILL_EC_P256_ADX_H
#define QUILL_EC_P256_ADX_H

#include <stddef.h>
#include <stdint.h>

#include "common/cpu.h"

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#define QUILL_P256_HAVE_ADX 1

/* quill_p256_fe_mul_adx sets out = a b R^-1 mod p.  In: a, b < p. */
void quill_p256_fe_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/* quill_p256_fe_sqr_adx sets out = a^2 R^-1 mod p.  In: a < p. */
void quill_p256_fe_sqr_adx(uint64_t out[4], const uint64_t a[4]);

/* quill_p256_scalar_mul_adx sets out = a b R^-1 mod n.  In: a, b < n. */
void quill_p256_scalar_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/* quill_p256_point_add_mixed_adx is madd-2007-bl without case handling
 * (asm/x86_64/p256_point_adx.S), bit-identical to its portable twin
 * quill_p256_point_add_mixed_raw_c (p256_point.h): out = (X3, Y3, Z3) from
 * a = (X1, Y1, Z1) and b = (X2, Y2), Montgomery-domain coordinates of four
 * words, fully reduced.  out may alias a. */
struct quill_p256_jacobian;
struct quill_p256_affine;
void quill_p256_point_add_mixed_adx(struct quill_p256_jacobian *out,
                                    const struct quill_p256_jacobian *a,
                                    const struct quill_p256_affine *b);

/* quill_p256_point_add_mixed_gather_adx is quill_p256_point_add_mixed_adx
 * (same out from a and b) with the constant-time scan of a table row of 128
 * affine entries (QUILL_P256_BASE8_ROW, the 8-bit windows of k G) spread
 * between its field operations (AVX2 loads, masks and ORs, idle units
 * beside the MULX chains): gxy[0..3] = x and gxy[4..7] = y of row[abs - 1]
 * for 1 <= abs <= 128, zeros otherwise, as quill_p256_booth_gather8_c sets
 * them.  abs is secret: every
 * entry is loaded and combined the same way.  gxy is written after a and b
 * are read (it may alias b).  Requires AVX2 besides BMI2 and ADX
 * (quill_p256_adx_gather_capable). */
void quill_p256_point_add_mixed_gather_adx(struct quill_p256_jacobian *out,
                                           const struct quill_p256_jacobian *a,
                                           const struct quill_p256_affine *b, uint64_t gxy[8],
                                           const struct quill_p256_affine *row, uint64_t abs);

/* quill_p256_booth_gather8_c is quill_p256_booth_gather_c (p256_point.h)
 * on a row of 128 entries (abs 1..128, zeros otherwise): the portable twin
 * of the scan in quill_p256_point_add_mixed_gather_adx (p256_base.c). */
void quill_p256_booth_gather8_c(uint64_t x[4], uint64_t y[4],
                                const struct quill_p256_affine *row, uint64_t abs);

/* quill_p256_point_double_n_adx sets out = 2^n a, n >= 1, by n rounds of
 * the doubling of quill_p256_point_double (asm/x86_64/p256_double_adx.S),
 * bit-identical to n calls of it (its portable twin), including Z = 0.
 * Coordinates fully reduced.  out may alias a.  Constant time in the
 * coordinates, but the frame is not wiped: for public points only (the
 * verification paths). */
void quill_p256_point_double_n_adx(struct quill_p256_jacobian *out,
                                   const struct quill_p256_jacobian *a, size_t n);

/* quill_p256_point_madd_vartime_adx and
 * quill_p256_point_add_cached_vartime_adx (asm/x86_64/p256_add_vartime_adx.S)
 * are vt_madd (madd-2004-hmv, b affine) and vt_add_cached (add-1998-cmo-2,
 * b with Z^2 and Z^3) of p256_verify_point.h without their case handling,
 * bit-identical to them otherwise: a must be finite (Z != 0), b finite;
 * when H = 0 (a = +-b) they return 0 and leave out untouched, else they
 * set out = a + b and return 1.  out may alias a.  Variable time (the
 * branch on H), frame not wiped: public points only. */
struct quill_p256_chudnovsky;
int quill_p256_point_madd_vartime_adx(struct quill_p256_jacobian *out,
                                      const struct quill_p256_jacobian *a,
                                      const struct quill_p256_affine *b);
int quill_p256_point_add_cached_vartime_adx(struct quill_p256_jacobian *out,
                                            const struct quill_p256_jacobian *a,
                                            const struct quill_p256_chudnovsky *b);

/* quill_p256_adx_capable returns nonzero when the CPU has BMI2 and ADX and
 * QUILL_CPU_MASK does not clear them. */
static inline int quill_p256_adx_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX);
}

/* quill_p256_adx_gather_capable: quill_p256_adx_capable and AVX2, for
 * quill_p256_point_add_mixed_gather_adx. */
static inline int quill_p256_adx_gather_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX | QUILL_CPU_X86_AVX2);
}
#else
static inline int quill_p256_adx_capable(void) {
    return 0;
}
static inline int quill_p256_adx_gather_capable(void) {
    return 0;
}
#endif

#endif
