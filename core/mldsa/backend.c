/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_mldsa_backend_name
 * (common/backend_names.h): the order of ntt.c's dispatch. */
#include "common/backend_names.h"

#include "mldsa/ntt.h"

const char *quill_mldsa_backend_name(void) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable())
        return "avx512vl";
#endif
    if (quill_mldsa_avx2_capable())
        return "avx2";
    if (quill_mldsa_neon_capable())
        return "neon";
    return "portable";
}
