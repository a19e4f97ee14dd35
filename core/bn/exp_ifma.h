/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Two-way constant-time modular exponentiation on AVX-512 IFMA (x86_64):
 * the two CRT halves of an RSA private operation, each in radix 2^52 with
 * VPMADD52LUQ / VPMADD52HUQ.  Dispatched to from quill_mont_exp_consttime_x2
 * (exp.c); the portable path stays the oracle it is tested against
 * (test/bn/test_bn_ifma.c).
 *
 * Valgrind cannot execute AVX-512 and its virtual CPUID hides it, so the
 * constant-time suites (test_bn_ct under memcheck, test/ct) never reach this
 * code: they keep validating the other paths.  The constant-time argument
 * for this file is written out in exp_ifma.c. */
#ifndef QUILL_BN_EXP_IFMA_H
#define QUILL_BN_EXP_IFMA_H

#include <stddef.h>

#include "bn/bn.h"

/* quill_mont_exp_x2_ifma_supported_size returns 1 if the IFMA
 * exponentiation handles moduli of n 64-bit limbs (n = 8, 16, 24, 32: the
 * CRT halves of RSA-1024 to RSA-4096), 0 otherwise.  n is public. */
int quill_mont_exp_x2_ifma_supported_size(size_t n);

/* quill_mont_exp_x2_ifma_capable returns 1 if the IFMA exponentiation is
 * built (x86_64, not QUILL_NO_ASM), the CPU has AVX-512F/VL/IFMA (not
 * cleared by QUILL_CPU_MASK) and n is a supported size. */
int quill_mont_exp_x2_ifma_capable(size_t n);

/* quill_mont_exp_consttime_x2_ifma computes r0 = a0^e0 mod m0 and
 * r1 = a1^e1 mod m1, the contract of quill_mont_exp_consttime_x2 (bn.h):
 * a0 < m0 and a1 < m1 (secret), e0 and e1 of e_limbs limbs (secret,
 * e_limbs >= 1 public), both moduli of the same supported limb count, the
 * outputs fully reduced and bit for bit those of the portable path.  Every
 * table lookup reads every entry; time depends on e_limbs and n only.
 * The caller must have checked quill_mont_exp_x2_ifma_capable (or the CPU
 * bits directly, as the test does): the code faults on a CPU without IFMA.
 * Returns 1, or 0 if the size is unsupported or the build has no IFMA code
 * (outputs then untouched).  Every intermediate is wiped before return. */
QUILL_MUST_CHECK int quill_mont_exp_consttime_x2_ifma(quill_limb *r0, const quill_limb *a0,
                                                      const quill_limb *e0,
                                                      const quill_mont *mont0, quill_limb *r1,
                                                      const quill_limb *a1, const quill_limb *e1,
                                                      const quill_mont *mont1, size_t e_limbs);

/* quill_mont_sqr_x2_ifma_for_testing exposes the IFMA squaring to
 * test_bn_ifma, on inputs the exponentiation cannot be fed directly: for
 * each lane l, x_l (n + 1 limbs, below 2 m_l, where n is the supported limb
 * count of both moduli) is squared with the dedicated squaring (sq_l) and
 * with the almost-Montgomery multiplication amm(x_l, x_l) (am_l), both
 * n + 1 limbs, values x_l^2 R'^-1 mod m_l below 2 m_l with
 * R' = 2^(52 ceil(64 n / 52)).  Test only (no constant-time promise beyond
 * that of the kernels).  The caller must have checked the CPU as for
 * quill_mont_exp_consttime_x2_ifma.  Returns 1, or 0 if the size is
 * unsupported, the build has no IFMA code or memory ran out. */
QUILL_MUST_CHECK int quill_mont_sqr_x2_ifma_for_testing(quill_limb *sq0, quill_limb *am0,
                                                        const quill_limb *x0,
                                                        const quill_mont *mont0, quill_limb *sq1,
                                                        quill_limb *am1, const quill_limb *x1,
                                                        const quill_mont *mont1);

/* quill_mont_amm_gather_x2_ifma_for_testing exposes RSA-2048's product
 * with the next window's lookup spread over its steps (amm_gather_x2_20)
 * to test_bn_ifma and ct_trace: for 16-limb moduli and x_l < m_l, a
 * 32-entry table whose entry i is x_l with every digit XORed with i, then
 * amm(x, x) and the lookup of entries idx0 (lane 0) and idx1 (lane 1),
 * below 32, once by amm_gather_x2_20 and once by amm_x2_20 and
 * table_gather_5.  Returns 1 if both give the same bits (compared without
 * a branch), 0 if they differ, -1 if a modulus is not 16 limbs, the build
 * has no IFMA code or memory ran out.  The caller must have checked the
 * CPU as for quill_mont_exp_consttime_x2_ifma. */
QUILL_MUST_CHECK int quill_mont_amm_gather_x2_ifma_for_testing(const quill_limb *x0,
                                                               const quill_mont *mont0,
                                                               uint64_t idx0,
                                                               const quill_limb *x1,
                                                               const quill_mont *mont1,
                                                               uint64_t idx1);

/* The one-lane exponentiation for public exponents (exp_ifma_x1.c).
 *
 * quill_mont_exp_x1_ifma_supported_size returns 1 for moduli of n = 16, 24,
 * 32, 48 or 64 limbs (RSA-1024 to RSA-4096), 0 otherwise.
 * quill_mont_exp_x1_ifma_capable returns 1 if the code is built, the CPU
 * has AVX-512F/VL/IFMA (not cleared by QUILL_CPU_MASK) and n is supported.
 *
 * quill_mont_exp_vartime_x1_ifma computes r = a^e mod m, the contract of
 * quill_mont_exp_vartime (bn.h): a < m, constant time in a, the time
 * depending on e (public) and n; r fully reduced, bit for bit the portable
 * result; r may alias a.  The caller must have checked
 * quill_mont_exp_x1_ifma_capable (the code faults on a CPU without IFMA).
 * Returns 1, or 0 (r untouched) if n is unsupported, e is zero, the build
 * has no IFMA code or memory ran out. */
int quill_mont_exp_x1_ifma_supported_size(size_t n);
int quill_mont_exp_x1_ifma_capable(size_t n);
QUILL_MUST_CHECK int quill_mont_exp_vartime_x1_ifma(quill_limb *r, const quill_limb *a,
                                                    const quill_limb *e, size_t e_limbs,
                                                    const quill_mont *mont);

#endif
