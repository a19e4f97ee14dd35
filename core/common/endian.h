/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * 64-bit words read from and written to byte strings in a fixed byte order,
 * whatever the host's: a memcpy, and a byte swap where the host order
 * differs (compilers make each a single move, or a move and a BSWAP).  No
 * branch; the addresses are the arguments'.  Shared by the sponges (little
 * endian), the bignum byte strings and the P-256 encodings (big endian). */
#ifndef QUILL_COMMON_ENDIAN_H
#define QUILL_COMMON_ENDIAN_H

#include <stdint.h>
#include <string.h>

#include "common/compiler.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define QUILL_HOST_BIG_ENDIAN 1
#else
#define QUILL_HOST_BIG_ENDIAN 0
#endif

QUILL_INLINE uint64_t quill_load_le64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return QUILL_HOST_BIG_ENDIAN ? __builtin_bswap64(v) : v;
}

QUILL_INLINE void quill_store_le64(uint8_t *p, uint64_t v) {
    v = QUILL_HOST_BIG_ENDIAN ? __builtin_bswap64(v) : v;
    memcpy(p, &v, 8);
}

QUILL_INLINE uint64_t quill_load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return QUILL_HOST_BIG_ENDIAN ? v : __builtin_bswap64(v);
}

QUILL_INLINE void quill_store_be64(uint8_t *p, uint64_t v) {
    v = QUILL_HOST_BIG_ENDIAN ? v : __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

#endif
