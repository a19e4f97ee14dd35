/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX-512VL backend of ntt.h: ntt_avx2.c compiled again with
 * QUILL_MLDSA_NTT_AVX512VL, still on 256-bit vectors (on AMD Zen 4 the
 * 512-bit forms take two cycles of the same 256-bit units, so they would
 * buy nothing).  The only difference is merge_hi(), one masked vmovshdup
 * instead of a vmovshdup and a blend in every Montgomery product, one
 * vector instruction in eleven to fourteen fewer in the transforms. */
#define QUILL_MLDSA_NTT_AVX512VL 1
#include "ntt_avx2.c"

#if QUILL_MLDSA_HAVE_AVX2
#include "common/cpu.h"

int quill_mldsa_avx512vl_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_AVX512VL);
}
#endif
