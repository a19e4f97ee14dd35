/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX-512VL build of sign_row.h's fused rows: sign_row_avx2.c compiled
 * again for AVX-512VL, still on 256-bit vectors (as ntt_avx512vl.c), for
 * its 32 vector registers and the EVEX forms the compiler picks
 * (VPTERNLOGD for the ORs of the masks). */
#include "ntt.h"

#if QUILL_MLDSA_HAVE_AVX2
#define QUILL_MLDSA_V16_TARGET "avx2,avx512f,avx512vl"
#define SIGN_ROW_BACKEND quill_mldsa_sign_row_avx512vl
#include "sign_row_avx2.c"
#endif
