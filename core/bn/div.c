/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Remainders and gcd for any modulus: bit-serial long division (even or
 * secret divisors, where no Montgomery context exists), reduction of a long
 * value by a Montgomery context (Horner's rule over quill_mont_reduce_wide)
 * and binary gcd.  Constant time in the values (contracts in bn.h). */
#include "bn/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"

/* Smallest L with 2^L > 64 n: enough levels for any shift below 64 n. */
static unsigned shift_levels(size_t n) {
    unsigned l = 0;
    while (((size_t)1 << l) <= 64 * n)
        l++;
    return l;
}

int quill_bn_divmod_consttime(quill_limb *q, quill_limb *r, const quill_limb *a, size_t na,
                              const quill_limb *m, size_t nm) {
    size_t w = nm + 1;
    quill_limb *buf = quill_calloc(3 * w, sizeof(quill_limb));
    if (buf == NULL) {
        if (q != NULL)
            memset(q, 0, na * sizeof(quill_limb));
        memset(r, 0, nm * sizeof(quill_limb));
        return 0;
    }
    quill_limb *rem = buf, *tmp = buf + w, *mm = buf + 2 * w;
    memcpy(mm, m, nm * sizeof(quill_limb));
    if (q != NULL)
        memset(q, 0, na * sizeof(quill_limb));
    /* Schoolbook binary long division.  Invariant: rem < m before each step,
     * so 2 rem + 1 < 2 m fits in nm + 1 limbs. */
    for (size_t i = 64 * na; i-- > 0;) {
        quill_limb bit = (a[i / 64] >> (i % 64)) & 1;
        for (size_t j = w; j-- > 1;)
            rem[j] = (rem[j] << 1) | (rem[j - 1] >> 63);
        rem[0] = (rem[0] << 1) | bit;
        quill_word ge = quill_ct_is_zero_mask(quill_bn_sub(tmp, rem, mm, w));
        quill_bn_select(rem, ge, tmp, rem, w);
        if (q != NULL)
            q[i / 64] |= (ge & 1) << (i % 64);
    }
    memcpy(r, rem, nm * sizeof(quill_limb));
    quill_zeroize(buf, 3 * w * sizeof(quill_limb));
    quill_free(buf);
    return 1;
}

void quill_bn_mod_consttime(quill_limb *r, const quill_limb *a, size_t na,
                            const quill_mont *mont) {
    size_t k = quill_mont_limbs(mont);
    quill_limb wide[2 * QUILL_BN_MAX_LIMBS], acc[QUILL_BN_MAX_LIMBS];
    size_t chunks = (na + k - 1) / k;
    memset(acc, 0, k * sizeof(quill_limb));
    /* acc = (acc * R + chunk) mod m, top chunk first.  acc < m and chunk < R
     * give acc * R + chunk < m * R, the precondition of reduce_wide. */
    for (size_t c = chunks; c-- > 0;) {
        size_t lo = c * k, len = na - lo < k ? na - lo : k;
        memset(wide, 0, k * sizeof(quill_limb));
        memcpy(wide, a + lo, len * sizeof(quill_limb));
        memcpy(wide + k, acc, k * sizeof(quill_limb));
        quill_mont_reduce_wide(acc, wide, 2 * k, mont);
    }
    memcpy(r, acc, k * sizeof(quill_limb));
    quill_zeroize(wide, 2 * k * sizeof(quill_limb));
    quill_zeroize(acc, k * sizeof(quill_limb));
}

void quill_bn_gcd_consttime(quill_limb *g, const quill_limb *a, const quill_limb *b, size_t n) {
    quill_limb x[QUILL_BN_MAX_LIMBS], y[QUILL_BN_MAX_LIMBS], t[QUILL_BN_MAX_LIMBS];
    unsigned levels = shift_levels(n);
    size_t tx = quill_bn_ctz_consttime(a, n), ty = quill_bn_ctz_consttime(b, n);
    size_t s = (size_t)quill_ct_select_w(quill_ct_lt_mask(tx, ty), tx, ty);
    /* gcd(a, b) = 2^min(tx, ty) * gcd(odd part of a, odd part of b). */
    quill_bn_rshift_consttime(x, a, n, tx, levels);
    quill_bn_rshift_consttime(y, b, n, ty, levels);
    /* Binary gcd with y odd throughout: if x is odd, make x >= y by a swap
     * and subtract; then halve x.  Each step at least halves x * y, which
     * starts below 2^(128 n), so 128 n steps leave x = 0 and y = gcd. */
    for (size_t i = 0; i < 128 * n; i++) {
        quill_word odd = 0 - (x[0] & 1);
        quill_word sw = odd & quill_bn_lt_mask(x, y, n);
        for (size_t j = 0; j < n; j++) {
            quill_limb d = sw & (x[j] ^ y[j]);
            x[j] ^= d;
            y[j] ^= d;
        }
        (void)quill_bn_sub(t, x, y, n);
        quill_bn_select(x, odd, t, x, n);
        for (size_t j = 0; j + 1 < n; j++)
            x[j] = (x[j] >> 1) | (x[j + 1] << 63);
        x[n - 1] >>= 1;
    }
    quill_bn_lshift_consttime(g, y, n, s, levels);
    quill_zeroize(x, n * sizeof(quill_limb));
    quill_zeroize(y, n * sizeof(quill_limb));
    quill_zeroize(t, n * sizeof(quill_limb));
}
