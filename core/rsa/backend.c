/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_rsa_backend_name (common/backend_names.h):
 * the order of quill_mont_exp_consttime_x2 (bn/exp.c), then
 * quill_mont_kernels and quill_bn_add. */
#include "common/backend_names.h"

#include "bn/exp_ifma.h"
#include "bn/internal.h"
#include "bn/mont_adx.h"
#include "bn/mont_arm64.h"
#include "bn/mont_d28x2_avx2.h"

/* RSA-2048's CRT halves: 1024 bits, 16 limbs. */
#define QUILL_RSA_BACKEND_HALF_LIMBS 16

const char *quill_rsa_backend_name(void) {
    if (quill_mont_exp_x2_ifma_capable(QUILL_RSA_BACKEND_HALF_LIMBS))
        return "avx512ifma";
    /* the radix-2^28 kernels; RSA-3072's halves take the radix-2^27 ones
     * (mont_d27x2_avx2.h) under the same condition */
    if (quill_mont_exp_x2_d28_capable(QUILL_RSA_BACKEND_HALF_LIMBS))
        return "avx2";
    if (quill_mont_adx_capable())
        return "adx";
    if (quill_bn_addsub_x86_64_capable())
        return "x86_64";
    if (quill_mont_arm64_capable(QUILL_RSA_BACKEND_HALF_LIMBS))
        return "arm64";
    return "portable";
}
