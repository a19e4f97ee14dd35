/* Copyright quill authors.
 *
 * Internal helpers shared by the P-256 field and scalar code: 4-limb add and
 * subtract with carry, and 32-byte big-endian conversion.  All constant
 * time; none can fail. */
#ifndef QUILL_EC_P256_LIMBS_H
#define QUILL_EC_P256_LIMBS_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/zeroize.h"

__extension__ typedef unsigned __int128 quill_u128;

/* quill_add4 sets r = a + b mod 2^256 and returns the carry (0 or 1). */
QUILL_INLINE uint64_t quill_add4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    quill_u128 acc = 0;
    for (int i = 0; i < 4; i++) {
        acc += (quill_u128)a[i] + b[i];
        r[i] = (uint64_t)acc;
        acc >>= 64;
    }
    return (uint64_t)acc;
}

/* quill_sub4 sets r = a - b mod 2^256 and returns the borrow (0 or 1). */
QUILL_INLINE uint64_t quill_sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    quill_u128 acc = 0;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        acc = (quill_u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)acc;
        borrow = (uint64_t)(acc >> 127);
    }
    return borrow;
}

/* quill_load_be256 reads 32 big-endian bytes into 4 little-endian limbs. */
QUILL_INLINE void quill_load_be256(uint64_t r[4], const uint8_t in[32]) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++)
            w = (w << 8) | in[8 * (3 - i) + j];
        r[i] = w;
    }
}

/* quill_store_be256 writes 4 little-endian limbs as 32 big-endian bytes. */
QUILL_INLINE void quill_store_be256(uint8_t out[32], const uint64_t a[4]) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            out[8 * (3 - i) + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

#endif
