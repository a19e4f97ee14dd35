/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_p256_backend_name
 * (common/backend_names.h): the predicate p256_scalar.c and p256_point.c
 * dispatch on. */
#include "common/backend_names.h"

#include "ec/p256_adx.h"
#include "ec/p256_arm64.h"

const char *quill_p256_backend_name(void) {
    if (quill_p256_adx_capable())
        return "adx";
    if (quill_p256_neon_capable())
        return "arm64_neon";
    if (quill_p256_arm64_capable())
        return "arm64";
    return "portable";
}
