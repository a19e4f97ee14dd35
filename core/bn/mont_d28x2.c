/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The d28x2 form's conversions and moduli (mont_d28x2_avx2.h), portable. */
#include "bn/mont_d28x2_avx2.h"

#include <string.h>

#include "common/zeroize.h"

#define D28_MASK (((uint64_t)1 << 28) - 1)
#define D28_LIMBS 17 /* 1088 bits: room for 1036 */

/* digit i (28 bits) of the n-limb number a; zero beyond it. */
static uint64_t digit(const quill_limb *a, size_t n, size_t i) {
    size_t bit = 28 * i, w = bit / 64, sh = bit % 64;
    uint64_t v = 0;
    if (w < n)
        v = a[w] >> sh;
    if (sh > 36 && w + 1 < n)
        v |= a[w + 1] << (64 - sh);
    return v & D28_MASK;
}

/* r = a b mod 2^(64 L) (L <= D28_LIMBS); r must not alias a or b. */
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

/* inv = m^-1 mod 2^1088 (m odd, n <= 16 limbs): Newton's y (2 - m y), which
 * doubles the bits that are right, from m^-1 mod 2^64. */
static void inverse_2k(quill_limb inv[D28_LIMBS], const quill_limb *m, size_t n) {
    quill_limb mm[D28_LIMBS] = {0}, t[D28_LIMBS], u[D28_LIMBS];
    memcpy(mm, m, n * sizeof(quill_limb));
    memset(inv, 0, D28_LIMBS * sizeof(quill_limb));
    quill_limb y = m[0]; /* y = m^-1 mod 2^(3 2^k) after k steps */
    for (int k = 0; k < 5; k++)
        y *= 2 - m[0] * y;
    inv[0] = y;
    static const size_t steps[] = {2, 4, 8, 16, D28_LIMBS};
    for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
        size_t L = steps[s];
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
    }
    quill_zeroize(mm, sizeof(mm)); /* the prime and what is derived from it */
    quill_zeroize(t, sizeof(t));
    quill_zeroize(u, sizeof(u));
}

void quill_d28x2_mod_init(quill_d28x2_mod *md, const quill_limb *m0, const quill_limb *m1,
                          size_t n) {
    const quill_limb *ms[2] = {m0, m1};
    memset(md, 0, sizeof(*md));
    for (int l = 0; l < 2; l++) {
        quill_limb inv[D28_LIMBS], np[D28_LIMBS];
        inverse_2k(inv, ms[l], n);
        quill_limb c = 1; /* np = -inv = ~inv + 1 */
        for (size_t k = 0; k < D28_LIMBS; k++) {
            np[k] = ~inv[k] + c;
            c = c & (np[k] == 0);
        }
        for (size_t j = 0; j < 38; j++) {
            md->m[4 * j + 2 * l + 1] = digit(ms[l], n, j);
            md->m[4 * j + 2 * l] = j ? digit(ms[l], n, j - 1) : 0;
        }
        for (size_t j = 0; j < 37; j++) {
            md->np[4 * j + 2 * l + 1] = digit(np, D28_LIMBS, j);
            md->np[4 * j + 2 * l] = j ? digit(np, D28_LIMBS, j - 1) : 0;
        }
        quill_zeroize(inv, sizeof(inv));
        quill_zeroize(np, sizeof(np));
    }
}

void quill_d28x2_from_limbs(uint64_t x[QUILL_D28X2_WORDS], const quill_limb *a0,
                            const quill_limb *a1, size_t n) {
    for (size_t i = 0; i < 38; i++) {
        x[4 * (i / 2) + (i & 1)] = i < 37 ? digit(a0, n, i) : 0;
        x[4 * (i / 2) + 2 + (i & 1)] = i < 37 ? digit(a1, n, i) : 0;
    }
}

void quill_d28x2_to_limbs(quill_limb r0[17], quill_limb r1[17],
                          const uint64_t x[QUILL_D28X2_WORDS]) {
    /* both lanes in one pass: their carry chains are independent, so the
     * two run side by side (the table's 32 entries pass through here per
     * exponentiation) */
    uint64_t c0 = 0, c1 = 0;
    memset(r0, 0, 17 * sizeof(quill_limb));
    memset(r1, 0, 17 * sizeof(quill_limb));
    for (size_t i = 0; i < 38; i++) {
        uint64_t v0 = x[4 * (i / 2) + (i & 1)] + c0;
        uint64_t v1 = x[4 * (i / 2) + 2 + (i & 1)] + c1;
        uint64_t d0 = v0 & D28_MASK, d1 = v1 & D28_MASK;
        c0 = v0 >> 28;
        c1 = v1 >> 28;
        size_t bit = 28 * i, w = bit / 64, sh = bit % 64;
        if (w < 17) {
            r0[w] |= d0 << sh;
            r1[w] |= d1 << sh;
        }
        if (sh > 36 && w + 1 < 17) {
            r0[w + 1] |= d0 >> (64 - sh);
            r1[w + 1] |= d1 >> (64 - sh);
        }
    }
}
