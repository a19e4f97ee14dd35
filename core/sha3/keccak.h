/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The Keccak-f[1600] backends behind quill_keccak_f1600 (sha3.h) and
 * quill_keccak_f1600_x4 (sha3_x4.h), exposed for the tests that compare
 * them and for the benchmark.  Each computes the same permutation in place,
 * in time independent of the state. */
#ifndef QUILL_SHA3_KECCAK_H
#define QUILL_SHA3_KECCAK_H

#include <stdint.h>

#if !defined(QUILL_NO_ASM) && defined(__x86_64__)
#define QUILL_KECCAK_HAVE_BMI 1
#define QUILL_KECCAK_HAVE_AVX2 1
#else
#define QUILL_KECCAK_HAVE_BMI 0
#define QUILL_KECCAK_HAVE_AVX2 0
#endif

/* QUILL_KECCAK_HAVE_A64 is 1 where asm/aarch64/keccak_*.S is built. */
#if !defined(QUILL_NO_ASM) && defined(__aarch64__) && defined(__ELF__)
#define QUILL_KECCAK_HAVE_A64 1
#else
#define QUILL_KECCAK_HAVE_A64 0
#endif

/* quill_keccak_rc holds the 24 round constants of iota (FIPS 202,
 * Algorithm 6), shared by the scalar and four-way permutations. */
extern const uint64_t quill_keccak_rc[24];

/* quill_keccak_f1600_c is the portable permutation (lane-complemented,
 * keccak_round.h), always built: the oracle the other backends are tested
 * against. */
void quill_keccak_f1600_c(uint64_t s[25]);

#if QUILL_KECCAK_HAVE_BMI
/* quill_keccak_f1600_bmi is the portable code compiled for BMI1 (ANDN); call
 * it only if quill_keccak_f1600_bmi_capable() returns 1. */
void quill_keccak_f1600_bmi(uint64_t s[25]);
int quill_keccak_f1600_bmi_capable(void);
#endif

/* quill_keccak_f1600_x4_c permutes four interleaved states (sha3_x4.h) in
 * portable C, two at a time on the compiler's generic 128-bit vectors
 * (SSE2, NEON): always built; tested, like the native four-way backends,
 * against four quill_keccak_f1600 calls. */
void quill_keccak_f1600_x4_c(uint64_t s[100]);

#if QUILL_KECCAK_HAVE_AVX2
/* quill_keccak_f1600_x4_avx2 permutes four interleaved states together, one
 * 256-bit vector per lane; call it only if
 * quill_keccak_f1600_x4_avx2_capable() returns 1. */
void quill_keccak_f1600_x4_avx2(uint64_t s[100]);
int quill_keccak_f1600_x4_avx2_capable(void);

/* quill_keccak_f1600_avx512vl and quill_keccak_f1600_x4_avx512vl are the
 * single and four-way permutations with the AVX-512VL rotate and
 * ternary-logic instructions (keccak_avx512vl.c); call them only if their
 * _capable() returns 1. */
void quill_keccak_f1600_avx512vl(uint64_t s[25]);
int quill_keccak_f1600_avx512vl_capable(void);
void quill_keccak_f1600_x4_avx512vl(uint64_t s[100]);
int quill_keccak_f1600_x4_avx512vl_capable(void);
#endif

#if QUILL_KECCAK_HAVE_A64
/* quill_keccak_f1600_neon_sha3 (asm/aarch64/keccak_sha3.S) permutes one
 * state on the low halves of NEON registers with the ARMv8.2-A SHA-3
 * instructions (EOR3, RAX1, XAR, BCAX); call it only if
 * quill_keccak_f1600_neon_sha3_capable() returns 1. */
void quill_keccak_f1600_neon_sha3(uint64_t s[25]);
int quill_keccak_f1600_neon_sha3_capable(void);

/* quill_keccak_f1600_x2_neon (asm/aarch64/keccak_neon.S, ARMv8.0-A NEON)
 * and quill_keccak_f1600_x2_neon_sha3 (keccak_sha3.S, with the SHA-3
 * instructions) permute two states of the interleaved four-state layout
 * (sha3_x4.h) at once: lane i of the two is s[4i] and s[4i + 1], so s
 * points at state 0 (states 0 and 1) or at s + 2 (states 2 and 3).  Call
 * them only if their _capable() returns 1. */
void quill_keccak_f1600_x2_neon(uint64_t *s);
int quill_keccak_f1600_x2_neon_capable(void);
void quill_keccak_f1600_x2_neon_sha3(uint64_t *s);
int quill_keccak_f1600_x2_neon_sha3_capable(void);

/* quill_keccak_f1600_x3_hybrid (asm/aarch64/keccak_hybrid.S, ARMv8.0-A)
 * permutes states 0, 1 and 2 of the interleaved layout at once, 0 and 1 in
 * NEON registers and 2 in general registers, interleaved; state 3 is left
 * alone.  quill_keccak_f1600_x4_some runs it for n == 3 on CPUs without the
 * SHA-3 instructions (keccak_x4.c says why only there).  Call it only if
 * quill_keccak_f1600_x3_hybrid_capable() returns 1. */
void quill_keccak_f1600_x3_hybrid(uint64_t *s);
int quill_keccak_f1600_x3_hybrid_capable(void);
#endif

#endif
