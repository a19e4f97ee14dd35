/* Copyright quill authors.
 *
 * The Keccak-f[1600] backends behind quill_keccak_f1600 (sha3.h), exposed
 * for the tests that compare them and for the benchmark.  Each computes the
 * same permutation in place, in time independent of the state. */
#ifndef QUILL_SHA3_KECCAK_H
#define QUILL_SHA3_KECCAK_H

#include <stdint.h>

#if !defined(QUILL_NO_ASM) && defined(__x86_64__)
#define QUILL_KECCAK_HAVE_BMI 1
#else
#define QUILL_KECCAK_HAVE_BMI 0
#endif

/* quill_keccak_f1600_c is the portable permutation, always built: the
 * oracle the other backends are tested against. */
void quill_keccak_f1600_c(uint64_t s[25]);

#if QUILL_KECCAK_HAVE_BMI
/* quill_keccak_f1600_bmi is the portable code compiled for BMI1 (ANDN); call
 * it only if quill_keccak_f1600_bmi_capable() returns 1. */
void quill_keccak_f1600_bmi(uint64_t s[25]);
int quill_keccak_f1600_bmi_capable(void);
#endif

#endif
