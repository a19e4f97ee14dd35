/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The two-way 1536-bit radix-2^27 AVX2 Montgomery kernels
 * (mont_d27x2_avx2.h; the code and its argument in mont_d27x2_body.h). */
#include "bn/mont_d27x2_avx2.h"

#if QUILL_BN_HAVE_D28X2
#define P QUILL_D27X2_VECS
#define D27_MOD quill_d27x2_mod
#define D27_MUL quill_mont_mul_d27x2_avx2
#define D27_SQR quill_mont_sqr_d27x2_avx2
#include "bn/mont_d27x2_body.h"
#endif
