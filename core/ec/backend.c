/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_p256_backend_name
 * (common/backend_names.h): the predicates p256_scalar.c and p256_point.c
 * dispatch on, then the one of the paired inversion (p256_inv_pair.c). */
#include "common/backend_names.h"

#include "ec/p256_adx.h"
#include "ec/p256_arm64.h"
#include "ec/p256_inv_avx2.h"

const char *quill_p256_backend_name(void) {
    const int inv_avx2 = quill_p256_inv_avx2_capable();
    if (quill_p256_adx_capable())
        return inv_avx2 ? "adx+avx2" : "adx";
    if (inv_avx2)
        return "avx2";
    if (quill_p256_neon_capable())
        return "arm64_neon";
    if (quill_p256_arm64_capable())
        return "arm64";
    return "portable";
}
