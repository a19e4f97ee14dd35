/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_keccak_backend_name
 * (common/backend_names.h): the order of quill_keccak_f1600 (keccak.c) and
 * quill_keccak_f1600_x4_some (keccak_x4.c). */
#include "common/backend_names.h"

#include "sha3/keccak.h"

const char *quill_keccak_backend_name(void) {
#if QUILL_KECCAK_HAVE_A64
    /* Both permutations with the SHA-3 instructions, or the two-way NEON
     * one (and for three states the NEON+scalar hybrid, keccak_hybrid.S)
     * beside the portable single permutation. */
    if (quill_keccak_f1600_neon_sha3_capable())
        return "neon-sha3";
    if (quill_keccak_f1600_x2_neon_capable())
        return "neon";
#endif
#if QUILL_KECCAK_HAVE_AVX2
    /* The AVX-512VL permutations: in assembly where it is built
     * (keccak.c, keccak_x4.c), in C elsewhere. */
    if (quill_keccak_f1600_avx512vl_capable())
        return QUILL_KECCAK_HAVE_AVX512_ASM ? "avx512vl-asm" : "avx512vl";
    int x4 = quill_keccak_f1600_x4_avx2_capable();
#else
    int x4 = 0;
#endif
#if QUILL_KECCAK_HAVE_BMI
    int single = quill_keccak_f1600_bmi_capable();
#else
    int single = 0;
#endif
    if (x4 && single)
        return "avx2+bmi1";
    if (x4)
        return "avx2";
    if (single)
        return "bmi1";
    return "portable";
}
