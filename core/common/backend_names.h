/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Which native backend each algorithm runs on this CPU, as short names for
 * people (quill-info, the provider's "quill-backends" parameter and its
 * buildinfo).  Each function asks the same _capable() predicates that the
 * module's dispatch asks, in the same order, so the name is the code that
 * runs: QUILL_CPU_MASK=0xffffffff and a QUILL_NO_ASM build give "portable"
 * everywhere.  Every function returns a static string and cannot fail; each
 * lives in its module (core/<module>/backend.c), so linking one module
 * links its own name only.  Names are listed fastest first. */
#ifndef QUILL_COMMON_BACKEND_NAMES_H
#define QUILL_COMMON_BACKEND_NAMES_H

/* quill_rsa_backend_name names the backend of the RSA private operation of
 * RSA-2048 to 4096 (two 1024- to 2048-bit halves, core/bn/exp.c):
 *   "avx512ifma"  two-way AVX-512 IFMA exponentiation (exp_ifma.c), with the
 *                 one-lane one for verification;
 *   "avx2"        two-way radix-2^28 AVX2 (VPMULUDQ) Montgomery kernels for
 *                 the 1024-bit halves (exp_d28x2.c); larger halves and
 *                 verification on the "adx" kernels (or "x86_64"'s without
 *                 BMI2 and ADX);
 *   "adx"         MULX/ADCX/ADOX Montgomery kernels (BMI2 and ADX,
 *                 mont_adx.c);
 *   "x86_64"      portable Montgomery kernels with the ADC/SBB addition and
 *                 subtraction loops (bn/add.c);
 *   "arm64"       aarch64 MUL/UMULH Montgomery multiplication (from 16
 *                 limbs) and dedicated squaring (from 32 limbs; the portable
 *                 squaring below), ADCS/SBCS addition and subtraction loops
 *                 (mont_arm64.c, bn/add.c);
 *   "portable"    C only. */
const char *quill_rsa_backend_name(void);

/* quill_p256_backend_name names the backends of P-256's scalar products and
 * point arithmetic and of its paired inversion (Z^-1 mod p with k^-1 mod n
 * in signing, core/ec/p256_inv_pair.c).  On x86-64: "adx+avx2"
 * (MULX/ADCX/ADOX field and scalar products, point additions and
 * doublings, with BMI2 and ADX, core/ec/p256_adx.h; the fixed-base table
 * scan in AVX2 or AVX-512VL vectors; the AVX2 divsteps kernel of the
 * inversion, core/ec/p256_inv_avx2.c), "adx" (the same without AVX2: the C
 * scan and the portable two-lane divsteps) or "avx2" (C field arithmetic
 * with the vector scan and the AVX2 divsteps).  On aarch64
 * (core/ec/p256_arm64.h): "arm64_neon" (the MUL/UMULH field products and
 * mixed addition, and the NEON fixed-base table scan) or "arm64" (the same
 * without NEON: the C scan).  Else "portable". */
const char *quill_p256_backend_name(void);

/* quill_mldsa_backend_name names the backend of ML-DSA's NTT, polynomial
 * arithmetic and sampling (core/mldsa/ntt.c, sample.c): "avx512vl",
 * "avx2", "neon" (aarch64 Advanced SIMD: the NTTs and the pointwise and
 * dot products) or "portable". */
const char *quill_mldsa_backend_name(void);

/* quill_keccak_backend_name names the Keccak-f[1600] backends
 * (core/sha3/keccak.c, keccak_x4.c): "avx512vl-asm" (the single-state and
 * four-way AVX-512VL permutations in the generated assembly
 * asm/x86_64/keccak_x4_avx512vl.S; "avx512vl", the C ones, where that is
 * not built),
 * else the four-way AVX2 and single-state BMI1 permutations as "avx2+bmi1",
 * "avx2" or "bmi1", else "portable"; on aarch64 "neon-sha3" (single and
 * two-way with the ARMv8.2-A SHA-3 instructions), else "neon" (the two-way
 * NEON permutation beside the portable single one), else "portable". */
const char *quill_keccak_backend_name(void);

#endif
