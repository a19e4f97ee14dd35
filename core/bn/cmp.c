/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Comparisons, selection, bit length, small moduli. */
#include "bn/internal.h"

quill_word quill_bn_lt_mask(const quill_limb *a, const quill_limb *b, size_t n) {
    /* a < b exactly when a - b borrows. */
    quill_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        quill_dlimb t = (quill_dlimb)a[i] - b[i] - borrow;
        borrow = (quill_limb)(t >> 64) & 1;
    }
    return (quill_word)0 - borrow;
}

int quill_bn_lt_public(const quill_limb *a, const quill_limb *b, size_t n) {
    while (n > 0 && a[n - 1] == b[n - 1])
        n--;
    return n > 0 && a[n - 1] < b[n - 1];
}

quill_word quill_bn_is_zero_mask(const quill_limb *a, size_t n) {
    quill_limb acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= a[i];
    return quill_ct_is_zero_mask(acc);
}

quill_word quill_bn_eq_mask(const quill_limb *a, const quill_limb *b, size_t n) {
    quill_limb acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return quill_ct_is_zero_mask(acc);
}

void quill_bn_select(quill_limb *r, quill_word mask, const quill_limb *a, const quill_limb *b,
                     size_t n) {
    mask = quill_value_barrier_w(mask);
    for (size_t i = 0; i < n; i++)
        r[i] = (a[i] & mask) | (b[i] & ~mask);
}

size_t quill_bn_num_bits_public(const quill_limb *a, size_t n) {
    for (size_t i = n; i-- > 0;) {
        if (a[i] != 0)
            return 64 * i + 64 - (size_t)__builtin_clzll(a[i]);
    }
    return 0;
}

uint16_t quill_bn_mod_u16(const quill_limb *a, size_t n, uint16_t d) {
    /* Horner over 32-bit chunks from the top: x = r * 2^32 + chunk < 2^48
     * with r < d.  The quotient estimate q = floor(x * v / 2^64), with the
     * public reciprocal v = floor(2^64 / d), satisfies x/d - 1 < q <= x/d
     * (because x < 2^64), so x - q d lies in [0, 2d) and one masked
     * subtraction finishes.  Division is used only on the public d. */
    if (d < 2)
        return 0;
    quill_limb v = (quill_limb)(((quill_dlimb)1 << 64) / d);
    quill_limb r = 0;
    for (size_t i = n; i-- > 0;) {
        for (int half = 1; half >= 0; half--) {
            quill_limb x = (r << 32) | ((a[i] >> (32 * half)) & 0xffffffffu);
            quill_limb q = (quill_limb)(((quill_dlimb)x * v) >> 64);
            r = x - q * d;
            /* r < 2d: subtract d if r >= d. */
            quill_limb ge = ~quill_ct_lt_mask(r, d);
            r -= d & ge;
        }
    }
    return (uint16_t)r;
}
