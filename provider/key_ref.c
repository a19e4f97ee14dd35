/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "key_ref.h"

#include <stdlib.h>

#include <openssl/crypto.h>

#include "prov_err.h"

void *quill_key_obj_alloc(const quill_provctx *prov, size_t size) {
    void *k = OPENSSL_zalloc(size);
    if (k == NULL)
        QUILL_RAISE(prov, QUILL_R_MEMORY);
    return k;
}
