/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Integer helpers RSA needs beyond bn.h: bit lengths, shifts by a secret
 * amount, long division by an arbitrary (even, secret) divisor, binary gcd,
 * lcm(p-1, q-1) and e^-1 mod lambda.  All constant time in the values; see
 * internal.h for the contracts. */
#include <stdlib.h>
#include <string.h>

#include "common/zeroize.h"
#include "rsa/internal.h"

size_t quill_rsa_bn_limbs_public(const quill_limb *a, size_t n) {
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

size_t quill_rsa_bn_bits_consttime(const quill_limb *a, size_t n) {
    quill_word bits = 0;
    for (size_t i = 0; i < n; i++) {
        quill_word nz = ~quill_ct_is_zero_mask(a[i]);
        bits = quill_ct_select_w(nz, (quill_word)(64 * i) + bitlen_w(a[i]), bits);
    }
    return (size_t)bits;
}

size_t quill_rsa_bn_ctz_consttime(const quill_limb *a, size_t n) {
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

void quill_rsa_bn_rshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
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

void quill_rsa_bn_lshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
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

quill_limb quill_rsa_bn_add_word_consttime(quill_limb *r, size_t n, quill_limb c) {
    for (size_t i = 0; i < n; i++) {
        quill_limb s = r[i] + c;
        /* Carry out iff c == 1 and s == 0.  The barrier hides ~s & (s - 1)
         * (top bit set iff s == 0) so the compiler cannot see the test. */
        c &= quill_ct_msb_mask(quill_value_barrier_w(~s & (s - 1)));
        r[i] = s;
    }
    return c;
}

/* Smallest L with 2^L > 64 n: enough levels for any shift below 64 n. */
static unsigned shift_levels(size_t n) {
    unsigned l = 0;
    while (((size_t)1 << l) <= 64 * n)
        l++;
    return l;
}

int quill_rsa_bn_divmod_consttime(quill_limb *q, quill_limb *r, const quill_limb *a, size_t na,
                                  const quill_limb *m, size_t nm) {
    size_t w = nm + 1;
    quill_limb *buf = calloc(3 * w, sizeof(quill_limb));
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
    free(buf);
    return 1;
}

void quill_rsa_reduce_consttime(quill_limb *r, const quill_limb *a, size_t na,
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

void quill_rsa_bn_gcd_consttime(quill_limb *g, const quill_limb *a, const quill_limb *b, size_t n) {
    quill_limb x[QUILL_BN_MAX_LIMBS], y[QUILL_BN_MAX_LIMBS], t[QUILL_BN_MAX_LIMBS];
    unsigned levels = shift_levels(n);
    size_t tx = quill_rsa_bn_ctz_consttime(a, n), ty = quill_rsa_bn_ctz_consttime(b, n);
    size_t s = (size_t)quill_ct_select_w(quill_ct_lt_mask(tx, ty), tx, ty);
    /* gcd(a, b) = 2^min(tx, ty) * gcd(odd part of a, odd part of b). */
    quill_rsa_bn_rshift_consttime(x, a, n, tx, levels);
    quill_rsa_bn_rshift_consttime(y, b, n, ty, levels);
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
    quill_rsa_bn_lshift_consttime(g, y, n, s, levels);
    quill_zeroize(x, n * sizeof(quill_limb));
    quill_zeroize(y, n * sizeof(quill_limb));
    quill_zeroize(t, n * sizeof(quill_limb));
}

int quill_rsa_lambda_consttime(quill_limb *lambda, size_t out_n, const quill_limb *p, size_t pl,
                               const quill_limb *q, size_t ql) {
    size_t n = pl > ql ? pl : ql;
    quill_limb *buf = calloc(7 * n, sizeof(quill_limb));
    if (buf == NULL)
        return 0;
    quill_limb *x = buf, *y = buf + n, *g = buf + 2 * n, *yq = buf + 3 * n, *rem = buf + 4 * n;
    quill_limb *prod = buf + 5 * n; /* 2n limbs */
    memcpy(x, p, pl * sizeof(quill_limb));
    memcpy(y, q, ql * sizeof(quill_limb));
    x[0] &= ~(quill_limb)1; /* p odd: p - 1 */
    y[0] &= ~(quill_limb)1;
    /* lcm(x, y) = x * (y / gcd(x, y)). */
    quill_rsa_bn_gcd_consttime(g, x, y, n);
    int ok = quill_rsa_bn_divmod_consttime(yq, rem, y, n, g, n);
    if (ok) {
        quill_bn_mul(prod, x, n, yq, n);
        memset(lambda, 0, out_n * sizeof(quill_limb));
        memcpy(lambda, prod, (out_n < 2 * n ? out_n : 2 * n) * sizeof(quill_limb));
    }
    quill_zeroize(buf, 7 * n * sizeof(quill_limb));
    free(buf);
    return ok;
}

quill_word quill_rsa_inv_e_consttime(quill_limb *d, const quill_limb *lambda, size_t nd,
                                     const quill_limb *e, size_t el) {
    size_t nt = nd + el;
    quill_limb *buf = calloc(3 * el + 2 * nt, sizeof(quill_limb));
    if (buf == NULL) {
        memset(d, 0, nd * sizeof(quill_limb));
        return 0;
    }
    quill_limb *lm = buf, *u = buf + el, *rem = buf + 2 * el, *t = buf + 3 * el, *quot = t + nt;
    quill_word ok = 0;
    /* k = -lambda^-1 mod e makes 1 + k * lambda divisible by e; the
     * quotient d satisfies d * e = 1 + k * lambda == 1 mod lambda and
     * d < lambda because k < e. */
    if (quill_rsa_bn_divmod_consttime(NULL, lm, lambda, nd, e, el)) {
        ok = quill_bn_inv_mod_odd_consttime(u, lm, e, el);
        (void)quill_bn_sub(u, e, u, el); /* k = e - u, in [1, e) when ok */
        quill_bn_mul(t, u, el, lambda, nd);
        (void)quill_rsa_bn_add_word_consttime(t, nt, 1); /* < e * lambda: no carry out */
        if (quill_rsa_bn_divmod_consttime(quot, rem, t, nt, e, el))
            ok &= quill_bn_is_zero_mask(rem, el);
        else
            ok = 0;
    }
    for (size_t i = 0; i < nd; i++)
        d[i] = ok & quot[i];
    quill_zeroize(buf, (3 * el + 2 * nt) * sizeof(quill_limb));
    free(buf);
    return ok;
}

quill_mont *quill_rsa_mont_new_secret(const quill_limb *m, size_t n) {
    /* quill_mont_new computes its checks as masks and declassifies only the
     * verdict: nothing to declassify here any more. */
    return quill_mont_new(m, n);
}
