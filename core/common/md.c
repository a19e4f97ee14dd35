/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Digest output sizes. */
#include "common/md.h"

#include <stdint.h>

#include "common/compiler.h"

size_t quill_md_size(quill_md md) {
    static const uint8_t sizes[] = {
        [QUILL_MD_SHA1] = 20,       [QUILL_MD_SHA224] = 28,     [QUILL_MD_SHA256] = 32,
        [QUILL_MD_SHA384] = 48,     [QUILL_MD_SHA512] = 64,     [QUILL_MD_SHA512_224] = 28,
        [QUILL_MD_SHA512_256] = 32, [QUILL_MD_SHA3_224] = 28,   [QUILL_MD_SHA3_256] = 32,
        [QUILL_MD_SHA3_384] = 48,   [QUILL_MD_SHA3_512] = 64,   [QUILL_MD_MD5] = 16,
        [QUILL_MD_MD4] = 16,        [QUILL_MD_RIPEMD160] = 20,  [QUILL_MD_SM3] = 32,
        [QUILL_MD_MD5_SHA1] = 36, /* MD5 || SHA-1 */
    };
    size_t i = (size_t)md;
    return i < QUILL_ARRAY_LEN(sizes) ? sizes[i] : 0;
}
