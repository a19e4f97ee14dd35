/* Copyright quill authors.
 *
 * P-256 field arithmetic (see p256_fe.h).  Written for quill in the style of
 * fiat-crypto's Montgomery code; constants are derived in the comments. */
#include "ec/p256_fe.h"

#include "ec/p256_limbs.h"

/* p = 2^256 - 2^224 + 2^192 + 2^96 - 1, little-endian 64-bit limbs:
 * p0 = 2^64 - 1, p1 = 2^32 - 1, p2 = 0, p3 = 2^64 - 2^32 + 1. */
#define P0 UINT64_C(0xffffffffffffffff)
#define P1 UINT64_C(0x00000000ffffffff)
#define P2 UINT64_C(0x0000000000000000)
#define P3 UINT64_C(0xffffffff00000001)

static const uint64_t fe_p[4] = {P0, P1, P2, P3};

/* R^2 mod p with R = 2^256, for conversion into the Montgomery domain. */
static const quill_p256_fe fe_r2 = {{UINT64_C(0x0000000000000003), UINT64_C(0xfffffffbffffffff),
                                     UINT64_C(0xfffffffffffffffe), UINT64_C(0x00000004fffffffd)}};

/* R mod p = 2^256 - p = 2^224 - 2^192 - 2^96 + 1: the Montgomery form of 1. */
static const quill_p256_fe fe_one = {{UINT64_C(0x0000000000000001), UINT64_C(0xffffffff00000000),
                                      UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000fffffffe)}};

/* One Montgomery reduction step on (t0..t4): with m = t0 (because
 * -p^-1 = 1 mod 2^64), t + m*p is divisible by 2^64; t0 + m*p0 = m*2^64, so
 * the low word vanishes with carry m, and p2 = 0 contributes only the carry.
 * Shifts down one word into (r0..r3) and returns the new top word. */
QUILL_INLINE uint64_t fe_reduce_step(uint64_t *r0, uint64_t *r1, uint64_t *r2, uint64_t *r3,
                                     uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3,
                                     uint64_t t4) {
    uint64_t m = t0;
    quill_u128 acc = (quill_u128)m * P1 + t1 + m;
    *r0 = (uint64_t)acc;
    acc = (acc >> 64) + t2;
    *r1 = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)m * P3 + t3;
    *r2 = (uint64_t)acc;
    acc = (acc >> 64) + t4;
    *r3 = (uint64_t)acc;
    return (uint64_t)(acc >> 64);
}

/* Sets out = t - p if t = (t0..t3, t4) >= p, else t.  In: t < 2p. */
QUILL_INLINE void fe_final_sub(quill_p256_fe *out, uint64_t t0, uint64_t t1, uint64_t t2,
                               uint64_t t3, uint64_t t4) {
    uint64_t d[4], borrow;
    borrow = quill_sub4(d, (const uint64_t[4]){t0, t1, t2, t3}, fe_p);
    /* t >= p exactly when the 5-word subtraction does not borrow. */
    quill_word keep = (quill_word)0 - (uint64_t)((t4 - borrow) >> 63); /* all-ones: t < p */
    out->v[0] = quill_ct_select_w(keep, t0, d[0]);
    out->v[1] = quill_ct_select_w(keep, t1, d[1]);
    out->v[2] = quill_ct_select_w(keep, t2, d[2]);
    out->v[3] = quill_ct_select_w(keep, t3, d[3]);
}

void quill_p256_fe_mul(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5;
    for (int i = 0; i < 4; i++) {
        uint64_t bi = b->v[i];
        quill_u128 acc = (quill_u128)a0 * bi + t0;
        t0 = (uint64_t)acc;
        acc = (acc >> 64) + (quill_u128)a1 * bi + t1;
        t1 = (uint64_t)acc;
        acc = (acc >> 64) + (quill_u128)a2 * bi + t2;
        t2 = (uint64_t)acc;
        acc = (acc >> 64) + (quill_u128)a3 * bi + t3;
        t3 = (uint64_t)acc;
        acc = (acc >> 64) + t4;
        t4 = (uint64_t)acc;
        t5 = (uint64_t)(acc >> 64);
        t4 = t5 + fe_reduce_step(&t0, &t1, &t2, &t3, t0, t1, t2, t3, t4);
    }
    fe_final_sub(out, t0, t1, t2, t3, t4);
}

void quill_p256_fe_sqr(quill_p256_fe *out, const quill_p256_fe *a) {
    uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    uint64_t t[8];
    quill_u128 acc;
    /* Cross products a_i a_j (i < j) into t1..t6. */
    acc = (quill_u128)a0 * a1;
    t[1] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a0 * a2;
    t[2] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a0 * a3;
    t[3] = (uint64_t)acc;
    t[4] = (uint64_t)(acc >> 64);
    acc = (quill_u128)a1 * a2 + t[3];
    t[3] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a1 * a3 + t[4];
    t[4] = (uint64_t)acc;
    t[5] = (uint64_t)(acc >> 64);
    acc = (quill_u128)a2 * a3 + t[5];
    t[5] = (uint64_t)acc;
    t[6] = (uint64_t)(acc >> 64);
    /* Double them. */
    t[7] = t[6] >> 63;
    t[6] = (t[6] << 1) | (t[5] >> 63);
    t[5] = (t[5] << 1) | (t[4] >> 63);
    t[4] = (t[4] << 1) | (t[3] >> 63);
    t[3] = (t[3] << 1) | (t[2] >> 63);
    t[2] = (t[2] << 1) | (t[1] >> 63);
    t[1] = t[1] << 1;
    /* Add the squares a_i^2 at positions 2i. */
    acc = (quill_u128)a0 * a0;
    t[0] = (uint64_t)acc;
    acc = (acc >> 64) + t[1];
    t[1] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a1 * a1 + t[2];
    t[2] = (uint64_t)acc;
    acc = (acc >> 64) + t[3];
    t[3] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a2 * a2 + t[4];
    t[4] = (uint64_t)acc;
    acc = (acc >> 64) + t[5];
    t[5] = (uint64_t)acc;
    acc = (acc >> 64) + (quill_u128)a3 * a3 + t[6];
    t[6] = (uint64_t)acc;
    t[7] += (uint64_t)(acc >> 64);
    /* Four reduction steps; the product is < p^2 so the result is < 2p.
     * Each step's carry out is added to the next high word. */
    uint64_t r0, r1, r2, r3, c;
    c = fe_reduce_step(&r0, &r1, &r2, &r3, t[0], t[1], t[2], t[3], t[4]);
    acc = (quill_u128)t[5] + c;
    t[5] = (uint64_t)acc;
    acc = (acc >> 64) + t[6];
    t[6] = (uint64_t)acc;
    acc = (acc >> 64) + t[7];
    t[7] = (uint64_t)acc;
    uint64_t t8 = (uint64_t)(acc >> 64);
    c = fe_reduce_step(&r0, &r1, &r2, &r3, r0, r1, r2, r3, t[5]);
    acc = (quill_u128)t[6] + c;
    t[6] = (uint64_t)acc;
    acc = (acc >> 64) + t[7];
    t[7] = (uint64_t)acc;
    t8 += (uint64_t)(acc >> 64);
    c = fe_reduce_step(&r0, &r1, &r2, &r3, r0, r1, r2, r3, t[6]);
    acc = (quill_u128)t[7] + c;
    t[7] = (uint64_t)acc;
    t8 += (uint64_t)(acc >> 64);
    c = fe_reduce_step(&r0, &r1, &r2, &r3, r0, r1, r2, r3, t[7]);
    fe_final_sub(out, r0, r1, r2, r3, c + t8);
}

void quill_p256_fe_add(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    uint64_t s[4];
    uint64_t carry = quill_add4(s, a->v, b->v);
    fe_final_sub(out, s[0], s[1], s[2], s[3], carry);
}

void quill_p256_fe_sub(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    uint64_t d[4], m[4];
    quill_word borrow = (quill_word)0 - quill_sub4(d, a->v, b->v);
    for (int i = 0; i < 4; i++)
        m[i] = fe_p[i] & borrow;
    (void)quill_add4(out->v, d, m);
}

void quill_p256_fe_opp(quill_p256_fe *out, const quill_p256_fe *a) {
    static const quill_p256_fe zero = {{0, 0, 0, 0}};
    quill_p256_fe_sub(out, &zero, a);
}

void quill_p256_fe_selectznz(quill_p256_fe *out, quill_word mask, const quill_p256_fe *z,
                             const quill_p256_fe *nz) {
    for (int i = 0; i < 4; i++)
        out->v[i] = quill_ct_select_w(mask, nz->v[i], z->v[i]);
}

quill_word quill_p256_fe_nonzero(const quill_p256_fe *a) {
    return ~quill_ct_is_zero_mask(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

quill_word quill_p256_fe_equal(const quill_p256_fe *a, const quill_p256_fe *b) {
    return quill_ct_is_zero_mask((a->v[0] ^ b->v[0]) | (a->v[1] ^ b->v[1]) |
                                 (a->v[2] ^ b->v[2]) | (a->v[3] ^ b->v[3]));
}

void quill_p256_fe_to_mont(quill_p256_fe *out, const quill_p256_fe_plain *a) {
    /* a * R^2 * R^-1 = a * R.  The product bound a * r2 + m * p < 2 * 2^256 * p
     * holds for any a < 2^256, so one final subtraction suffices. */
    quill_p256_fe t;
    for (int i = 0; i < 4; i++)
        t.v[i] = a->v[i];
    quill_p256_fe_mul(out, &t, &fe_r2);
}

void quill_p256_fe_from_mont(quill_p256_fe_plain *out, const quill_p256_fe *a) {
    static const quill_p256_fe one_plain = {{1, 0, 0, 0}};
    quill_p256_fe t;
    quill_p256_fe_mul(&t, a, &one_plain);
    for (int i = 0; i < 4; i++)
        out->v[i] = t.v[i];
}

quill_word quill_p256_fe_plain_from_bytes(quill_p256_fe_plain *out, const uint8_t in[32]) {
    uint64_t d[4];
    quill_load_be256(out->v, in);
    /* a < p exactly when a - p borrows. */
    return (quill_word)0 - quill_sub4(d, out->v, fe_p);
}

void quill_p256_fe_plain_to_bytes(uint8_t out[32], const quill_p256_fe_plain *a) {
    quill_store_be256(out, a->v);
}

void quill_p256_fe_one(quill_p256_fe *out) {
    *out = fe_one;
}

/* out = a^e for a public exponent e (4 limbs), fixed 4-bit windows: 15
 * table multiplications, then 4 squarings and at most one multiplication per
 * nibble.  Which multiplications happen depends on e only. */
static void fe_pow_public(quill_p256_fe *out, const quill_p256_fe *a, const uint64_t e[4]) {
    quill_p256_fe tab[16], acc;
    tab[0] = fe_one;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        quill_p256_fe_mul(&tab[i], &tab[i - 1], a);
    acc = fe_one;
    for (int i = 63; i >= 0; i--) {
        unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15;
        for (int j = 0; j < 4; j++)
            quill_p256_fe_sqr(&acc, &acc);
        if (nib != 0) /* public exponent */
            quill_p256_fe_mul(&acc, &acc, &tab[nib]);
    }
    *out = acc;
    quill_zeroize(tab, sizeof(tab));
    quill_zeroize(&acc, sizeof(acc));
}

void quill_p256_fe_inv(quill_p256_fe *out, const quill_p256_fe *a) {
    /* p - 2 */
    static const uint64_t e[4] = {UINT64_C(0xfffffffffffffffd), UINT64_C(0x00000000ffffffff), 0,
                                  UINT64_C(0xffffffff00000001)};
    fe_pow_public(out, a, e);
}

int quill_p256_fe_sqrt_vartime(quill_p256_fe *out, const quill_p256_fe *a) {
    /* (p + 1) / 4 = 2^254 - 2^222 + 2^190 + 2^94 */
    static const uint64_t e[4] = {0, UINT64_C(0x0000000040000000), UINT64_C(0x4000000000000000),
                                  UINT64_C(0x3fffffffc0000000)};
    quill_p256_fe r, r2;
    fe_pow_public(&r, a, e);
    quill_p256_fe_sqr(&r2, &r);
    if (!quill_p256_fe_equal(&r2, a))
        return 0;
    *out = r;
    return 1;
}
