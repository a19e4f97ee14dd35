/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Internal helpers shared by the P-256 field and scalar code: 64x64->128
 * multiplication, add/subtract with carry, 4-limb add and subtract, and
 * 32-byte big-endian conversion.  All constant time (no branches, no
 * value-dependent addresses); none can fail. */
#ifndef QUILL_EC_P256_LIMBS_H
#define QUILL_EC_P256_LIMBS_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/endian.h"
#include "common/zeroize.h"

__extension__ typedef unsigned __int128 quill_u128;

/* quill_mulx sets (*hi, *lo) = a * b.  Written, like every helper below, on
 * 64-bit values only with carries as separate small integers (the shape
 * fiat-crypto emits), which both gcc and clang turn into mul/adc/sbb chains
 * kept in registers. */
QUILL_INLINE void quill_mulx(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t b) {
    quill_u128 p = (quill_u128)a * b;
    *lo = (uint64_t)p;
    *hi = (uint64_t)(p >> 64);
}

/* quill_adc sets *out = a + b + cin mod 2^64 and returns the carry (0/1).
 * quill_sbb sets *out = a - b - bin mod 2^64 and returns the borrow (0/1).
 * On x86-64 they use the baseline add-with-carry intrinsics (every x86-64
 * CPU has adc/sbb; no feature probe needed), because gcc 12 turns the
 * portable 128-bit form into carries materialised in registers (about 1.5x
 * slower field multiplication); the portable form is the definition and is
 * what every other target compiles.  Both are branch-free. */
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#include <x86intrin.h>
QUILL_INLINE uint64_t quill_adc(uint64_t *out, uint64_t cin, uint64_t a, uint64_t b) {
    unsigned long long r;
    uint64_t c = _addcarry_u64((unsigned char)cin, a, b, &r);
    *out = r;
    return c;
}
QUILL_INLINE uint64_t quill_sbb(uint64_t *out, uint64_t bin, uint64_t a, uint64_t b) {
    unsigned long long r;
    uint64_t c = _subborrow_u64((unsigned char)bin, a, b, &r);
    *out = r;
    return c;
}
#else
QUILL_INLINE uint64_t quill_adc(uint64_t *out, uint64_t cin, uint64_t a, uint64_t b) {
    quill_u128 t = (quill_u128)a + b + cin;
    *out = (uint64_t)t;
    return (uint64_t)(t >> 64);
}
QUILL_INLINE uint64_t quill_sbb(uint64_t *out, uint64_t bin, uint64_t a, uint64_t b) {
    quill_u128 t = (quill_u128)a - b - bin;
    *out = (uint64_t)t;
    return (uint64_t)(t >> 127);
}
#endif

/* quill_add4 sets r = a + b mod 2^256 and returns the carry (0 or 1). */
QUILL_INLINE uint64_t quill_add4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t c;
    c = quill_adc(&r[0], 0, a[0], b[0]);
    c = quill_adc(&r[1], c, a[1], b[1]);
    c = quill_adc(&r[2], c, a[2], b[2]);
    return quill_adc(&r[3], c, a[3], b[3]);
}

/* quill_sub4 sets r = a - b mod 2^256 and returns the borrow (0 or 1). */
QUILL_INLINE uint64_t quill_sub4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
    uint64_t c;
    c = quill_sbb(&r[0], 0, a[0], b[0]);
    c = quill_sbb(&r[1], c, a[1], b[1]);
    c = quill_sbb(&r[2], c, a[2], b[2]);
    return quill_sbb(&r[3], c, a[3], b[3]);
}

/* quill_load_be256 reads 32 big-endian bytes into 4 little-endian limbs. */
QUILL_INLINE void quill_load_be256(uint64_t r[4], const uint8_t in[32]) {
    for (int i = 0; i < 4; i++)
        r[i] = quill_load_be64(in + 8 * (3 - i));
}

/* quill_store_be256 writes 4 little-endian limbs as 32 big-endian bytes. */
QUILL_INLINE void quill_store_be256(uint8_t out[32], const uint64_t a[4]) {
    for (int i = 0; i < 4; i++)
        quill_store_be64(out + 8 * (3 - i), a[i]);
}

#endif
