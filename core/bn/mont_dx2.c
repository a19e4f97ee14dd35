/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The dx2 forms' conversions and moduli, portable: the d28x2 form
 * (mont_d28x2_avx2.h: radix 2^28, 1024-bit moduli) and the two d27x2 forms
 * (mont_d27x2_avx2.h: radix 2^27, 1536- and 2048-bit moduli), one code
 * with the digits' width b as a parameter. */
#include "bn/mont_d27x2_avx2.h"

#include <string.h>

#include "common/compiler.h"
#include "common/zeroize.h"

#define DX2_LMAX QUILL_D27X2_32_LIMBS /* the largest form's limbs */

/* r = a b mod 2^(64 L) (L <= DX2_LMAX); r must not alias a or b. */
static void mullo(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t L) {
    memset(r, 0, L * sizeof(quill_limb));
    for (size_t i = 0; i < L; i++) {
        quill_limb c = 0;
        for (size_t j = 0; i + j < L; j++) {
            quill_dlimb t = (quill_dlimb)a[i] * b[j] + r[i + j] + c;
            r[i + j] = (quill_limb)t;
            c = (quill_limb)(t >> 64);
        }
    }
}

/* inv = m^-1 mod 2^(64 L) (m odd, n <= L <= DX2_LMAX limbs): Newton's
 * y (2 - m y), which doubles the bits that are right, from m^-1 mod 2^64
 * (L = 17: 2, 4, 8, 16, 17 limbs; 25: ..., 16, 25; 33: ..., 32, 33). */
static void inverse_2k(quill_limb inv[DX2_LMAX], const quill_limb *m, size_t n, size_t L_) {
    quill_limb mm[DX2_LMAX] = {0}, t[DX2_LMAX], u[DX2_LMAX];
    memcpy(mm, m, n * sizeof(quill_limb));
    memset(inv, 0, DX2_LMAX * sizeof(quill_limb));
    inv[0] = quill_bn_inv64(m[0]);
    for (size_t L = 2;; L = 2 * L < L_ ? 2 * L : L_) {
        mullo(t, mm, inv, L);
        quill_limb borrow = 0; /* t = 2 - t mod 2^(64 L) */
        for (size_t k = 0; k < L; k++) {
            quill_limb two = k == 0 ? 2 : 0;
            quill_limb d = two - t[k] - borrow;
            borrow = (two < t[k]) | ((two == t[k]) & borrow);
            t[k] = d;
        }
        mullo(u, inv, t, L);
        memcpy(inv, u, L * sizeof(quill_limb));
        if (L == L_)
            break;
    }
    quill_zeroize(mm, sizeof(mm)); /* the prime and what is derived from it */
    quill_zeroize(t, sizeof(t));
    quill_zeroize(u, sizeof(u));
}

/* The moduli in the multiplicand form: m (nd + 1 vectors) and np (nd),
 * N' = -m^-1 mod 2^(b nd) from an L-limb inverse. */
static void mod_init(uint64_t *mv, uint64_t *npv, unsigned b, size_t nd, size_t L,
                     const quill_limb *m0, const quill_limb *m1, size_t n) {
    const quill_limb *ms[2] = {m0, m1};
    for (int l = 0; l < 2; l++) {
        quill_limb inv[DX2_LMAX], np[DX2_LMAX];
        inverse_2k(inv, ms[l], n, L);
        quill_limb c = 1; /* np = -inv = ~inv + 1 */
        for (size_t k = 0; k < L; k++) {
            np[k] = ~inv[k] + c;
            c = c & (np[k] == 0);
        }
        for (size_t j = 0; j < nd + 1; j++) {
            mv[4 * j + 2 * l + 1] = quill_bn_bits(ms[l], n, b * j, b);
            mv[4 * j + 2 * l] = j ? quill_bn_bits(ms[l], n, b * (j - 1), b) : 0;
        }
        for (size_t j = 0; j < nd; j++) {
            npv[4 * j + 2 * l + 1] = quill_bn_bits(np, L, b * j, b);
            npv[4 * j + 2 * l] = j ? quill_bn_bits(np, L, b * (j - 1), b) : 0;
        }
        quill_zeroize(inv, sizeof(inv));
        quill_zeroize(np, sizeof(np));
    }
}

/* x = (a0, a1) with nd digits of b bits, padded to nd + 1. */
QUILL_INLINE void from_limbs(uint64_t *x, unsigned b, size_t nd, const quill_limb *a0,
                             const quill_limb *a1, size_t n) {
    for (size_t i = 0; i < nd + 1; i++) {
        x[4 * (i / 2) + (i & 1)] = i < nd ? quill_bn_bits(a0, n, b * i, b) : 0;
        x[4 * (i / 2) + 2 + (i & 1)] = i < nd ? quill_bn_bits(a1, n, b * i, b) : 0;
    }
}

/* r0, r1 (L limbs) = the values of x's lanes (nd + 1 digits of b bits). */
QUILL_INLINE void to_limbs(quill_limb *r0, quill_limb *r1, const uint64_t *x, unsigned b,
                           size_t nd, size_t L) {
    /* both lanes in one pass: their carry chains are independent, so they
     * run side by side (every table entry passes through here once per
     * exponentiation) */
    quill_limb *rs[2] = {r0, r1};
    uint64_t c[2] = {0, 0};
    memset(r0, 0, L * sizeof(quill_limb));
    memset(r1, 0, L * sizeof(quill_limb));
    for (size_t i = 0; i < nd + 1; i++) {
        size_t bit = b * i, w = bit / 64, sh = bit % 64;
        for (int l = 0; l < 2; l++) {
            uint64_t v = x[4 * (i / 2) + 2 * l + (i & 1)] + c[l];
            uint64_t d = v & (((uint64_t)1 << b) - 1);
            c[l] = v >> b;
            if (w < L)
                rs[l][w] |= d << sh;
            if (sh > 64 - b && w + 1 < L)
                rs[l][w + 1] |= d >> (64 - sh);
        }
    }
    /* the last carry, from bit b (nd + 1) on */
    size_t bit = b * (nd + 1), w = bit / 64, sh = bit % 64;
    for (int l = 0; l < 2; l++) {
        if (w < L)
            rs[l][w] |= c[l] << sh;
        if (sh && w + 1 < L)
            rs[l][w + 1] |= c[l] >> (64 - sh);
    }
}

void quill_d28x2_mod_init(quill_d28x2_mod *md, const quill_limb *m0, const quill_limb *m1,
                          size_t n) {
    memset(md, 0, sizeof(*md));
    mod_init(md->m, md->np, 28, 2 * QUILL_D28X2_VECS - 1, QUILL_D28X2_LIMBS, m0, m1, n);
}

void quill_d28x2_from_limbs(uint64_t x[QUILL_D28X2_WORDS], const quill_limb *a0,
                            const quill_limb *a1, size_t n) {
    from_limbs(x, 28, 2 * QUILL_D28X2_VECS - 1, a0, a1, n);
}

void quill_d28x2_to_limbs(quill_limb r0[QUILL_D28X2_LIMBS], quill_limb r1[QUILL_D28X2_LIMBS],
                          const uint64_t x[QUILL_D28X2_WORDS]) {
    to_limbs(r0, r1, x, 28, 2 * QUILL_D28X2_VECS - 1, QUILL_D28X2_LIMBS);
}

void quill_d27x2_mod_init(quill_d27x2_mod *md, const quill_limb *m0, const quill_limb *m1,
                          size_t n) {
    memset(md, 0, sizeof(*md));
    mod_init(md->m, md->np, 27, 2 * QUILL_D27X2_VECS - 1, QUILL_D27X2_LIMBS, m0, m1, n);
}

void quill_d27x2_from_limbs(uint64_t x[QUILL_D27X2_WORDS], const quill_limb *a0,
                            const quill_limb *a1, size_t n) {
    from_limbs(x, 27, 2 * QUILL_D27X2_VECS - 1, a0, a1, n);
}

void quill_d27x2_to_limbs(quill_limb r0[QUILL_D27X2_LIMBS], quill_limb r1[QUILL_D27X2_LIMBS],
                          const uint64_t x[QUILL_D27X2_WORDS]) {
    to_limbs(r0, r1, x, 27, 2 * QUILL_D27X2_VECS - 1, QUILL_D27X2_LIMBS);
}

void quill_d27x2_32_mod_init(quill_d27x2_32_mod *md, const quill_limb *m0, const quill_limb *m1,
                             size_t n) {
    memset(md, 0, sizeof(*md));
    mod_init(md->m, md->np, 27, 2 * QUILL_D27X2_32_VECS - 1, QUILL_D27X2_32_LIMBS, m0, m1, n);
}

void quill_d27x2_32_from_limbs(uint64_t x[QUILL_D27X2_32_WORDS], const quill_limb *a0,
                               const quill_limb *a1, size_t n) {
    from_limbs(x, 27, 2 * QUILL_D27X2_32_VECS - 1, a0, a1, n);
}

void quill_d27x2_32_to_limbs(quill_limb r0[QUILL_D27X2_32_LIMBS],
                             quill_limb r1[QUILL_D27X2_32_LIMBS],
                             const uint64_t x[QUILL_D27X2_32_WORDS]) {
    to_limbs(r0, r1, x, 27, 2 * QUILL_D27X2_32_VECS - 1, QUILL_D27X2_32_LIMBS);
}
