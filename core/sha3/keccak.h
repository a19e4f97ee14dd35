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

#endif
