/* Copyright quill authors.
 *
 * P-256 field arithmetic (see p256_fe.h).  Written for quill in the style of
 * fiat-crypto's Montgomery code; constants are derived in the comments. */
#include "ec/p256_fe.h"

#include "ec/p256_fe_inline.h"

static const uint64_t fe_p[4] = {QUILL_P256_P0, QUILL_P256_P1, QUILL_P256_P2, QUILL_P256_P3};

/* R^2 mod p with R = 2^256, for conversion into the Montgomery domain. */
static const quill_p256_fe fe_r2 = {{UINT64_C(0x0000000000000003), UINT64_C(0xfffffffbffffffff),
                                     UINT64_C(0xfffffffffffffffe), UINT64_C(0x00000004fffffffd)}};

/* R mod p = 2^256 - p = 2^224 - 2^192 - 2^96 + 1: the Montgomery form of 1. */
static const quill_p256_fe fe_one = {{UINT64_C(0x0000000000000001), UINT64_C(0xffffffff00000000),
                                      UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000fffffffe)}};

/* The portable bodies are what the field operations run, with or without
 * BMI2/ADX: on the Zen 4 this was measured on, gcc 12's inlined code is as
 * fast as quill_p256_fe_mul_adx (12.3 ns against 15.5 ns for a dependent
 * chain of products, 17.8 against 13.9 ns for independent ones) and faster
 * for squaring (14.2 against 15.5 ns), so nothing here dispatches to the
 * assembly; test_ec_adx keeps it checked against these bodies. */
void quill_p256_fe_mul(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    quill_p256_fe_mul_inline(out, a, b);
}

void quill_p256_fe_sqr(quill_p256_fe *out, const quill_p256_fe *a) {
    quill_p256_fe_sqr_inline(out, a);
}

void quill_p256_fe_add(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    quill_p256_fe_add_inline(out, a, b);
}

void quill_p256_fe_sub(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    quill_p256_fe_sub_inline(out, a, b);
}

void quill_p256_fe_half(quill_p256_fe *out, const quill_p256_fe *a) {
    quill_p256_fe_half_inline(out, a);
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

/* out = a^(2^k) * b (k squarings of a, then a product). */
static void fe_sqr_n_mul(quill_p256_fe *out, const quill_p256_fe *a, int k,
                         const quill_p256_fe *b) {
    quill_p256_fe t = *a;
    for (int i = 0; i < k; i++) /* k is public */
        quill_p256_fe_sqr(&t, &t);
    quill_p256_fe_mul(out, &t, b);
    quill_zeroize(&t, sizeof(t));
}

void quill_p256_fe_inv(quill_p256_fe *out, const quill_p256_fe *a) {
    /* a^(p-2) by a fixed addition chain (255 squarings, 14 products; the
     * sequence depends on p only).  In 32-bit words from the top,
     * p - 2 = ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff
     * fffffffd, and fffffffd = (2^30 - 1) 2^2 + 1.  x_k = a^(2^k - 1). */
    quill_p256_fe x2, x4, x8, x16, x24, x28, x30, x32, t;
    quill_p256_fe_sqr(&t, a);
    quill_p256_fe_mul(&x2, &t, a);
    fe_sqr_n_mul(&x4, &x2, 2, &x2);
    fe_sqr_n_mul(&x8, &x4, 4, &x4);
    fe_sqr_n_mul(&x16, &x8, 8, &x8);
    fe_sqr_n_mul(&x24, &x16, 8, &x8);
    fe_sqr_n_mul(&x28, &x24, 4, &x4);
    fe_sqr_n_mul(&x30, &x28, 2, &x2);
    fe_sqr_n_mul(&x32, &x30, 2, &x2);
    fe_sqr_n_mul(&t, &x32, 32, a);     /* ffffffff 00000001 */
    fe_sqr_n_mul(&t, &t, 128, &x32);   /* 00000000 x 3, ffffffff */
    fe_sqr_n_mul(&t, &t, 32, &x32);    /* ffffffff */
    fe_sqr_n_mul(&t, &t, 30, &x30);    /* the top 30 bits of fffffffd */
    quill_p256_fe_sqr(&t, &t);
    fe_sqr_n_mul(out, &t, 1, a);       /* ...01 */
    quill_zeroize(&x2, sizeof(x2));
    quill_zeroize(&x4, sizeof(x4));
    quill_zeroize(&x8, sizeof(x8));
    quill_zeroize(&x16, sizeof(x16));
    quill_zeroize(&x24, sizeof(x24));
    quill_zeroize(&x28, sizeof(x28));
    quill_zeroize(&x30, sizeof(x30));
    quill_zeroize(&x32, sizeof(x32));
    quill_zeroize(&t, sizeof(t));
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
