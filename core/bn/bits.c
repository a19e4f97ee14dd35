/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Bit-level helpers: limb and bit lengths, trailing zeros, and shifts by a
 * secret amount.  Constant time in the values unless the name ends in
 * _public (contracts in bn.h). */
#include "bn/bn.h"

#include <string.h>

size_t quill_bn_limbs_public(const quill_limb *a, size_t n) {
    while (n > 0 && a[n - 1] == 0)
        n--;
    return n;
}

/* Population count by the usual SWAR steps (Hacker's Delight 5-1): no table,
 * no popcnt instruction needed. */
static quill_word popcount_w(quill_word x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (x * 0x0101010101010101ull) >> 56;
}

/* Bit length of a word: smear the top bit down, then count. */
static quill_word bitlen_w(quill_word x) {
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return popcount_w(x);
}

size_t quill_bn_num_bits_consttime(const quill_limb *a, size_t n) {
    quill_word bits = 0;
    for (size_t i = 0; i < n; i++) {
        quill_word nz = ~quill_ct_is_zero_mask(a[i]);
        bits = quill_ct_select_w(nz, (quill_word)(64 * i) + bitlen_w(a[i]), bits);
    }
    return (size_t)bits;
}

size_t quill_bn_ctz_consttime(const quill_limb *a, size_t n) {
    quill_word found = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        quill_word w = a[i];
        /* w & -w isolates the lowest set bit; minus one leaves exactly the
         * trailing zeros set (all 64 bits for w == 0). */
        quill_word tz = popcount_w((w & (0 - w)) - 1);
        count += ~found & tz;
        found |= ~quill_ct_is_zero_mask(w);
    }
    return (size_t)count;
}

void quill_bn_rshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
                               unsigned log2_max) {
    if (r != a)
        memmove(r, a, n * sizeof(quill_limb));
    /* One conditional shift by 2^j per bit j of s.  Ascending i reads only
     * limbs at or above i, which this pass has not written yet. */
    for (unsigned j = 0; j < log2_max; j++) {
        size_t amt = (size_t)1 << j, ls = amt / 64;
        unsigned bs = (unsigned)(amt % 64);
        quill_word m = 0 - (quill_word)((s >> j) & 1);
        for (size_t i = 0; i < n; i++) {
            quill_limb lo = i + ls < n ? r[i + ls] : 0;
            quill_limb hi = i + ls + 1 < n ? r[i + ls + 1] : 0;
            quill_limb v = bs ? (lo >> bs) | (hi << (64 - bs)) : lo;
            r[i] = quill_ct_select_w(m, v, r[i]);
        }
    }
}

void quill_bn_lshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
                               unsigned log2_max) {
    if (r != a)
        memmove(r, a, n * sizeof(quill_limb));
    /* Descending i reads only limbs at or below i. */
    for (unsigned j = 0; j < log2_max; j++) {
        size_t amt = (size_t)1 << j, ls = amt / 64;
        unsigned bs = (unsigned)(amt % 64);
        quill_word m = 0 - (quill_word)((s >> j) & 1);
        for (size_t i = n; i-- > 0;) {
            quill_limb hi = i >= ls ? r[i - ls] : 0;
            quill_limb lo = i >= ls + 1 ? r[i - ls - 1] : 0;
            quill_limb v = bs ? (hi << bs) | (lo >> (64 - bs)) : hi;
            r[i] = quill_ct_select_w(m, v, r[i]);
        }
    }
}
