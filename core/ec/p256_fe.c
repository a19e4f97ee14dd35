/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 field arithmetic (see p256_fe.h).  Written for quill in the style of
 * fiat-crypto's Montgomery code; constants are derived in the comments. */
#include "ec/p256_fe.h"

#include "common/zeroize.h"

#include "ec/p256_arm64.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_inv.h"

static const uint64_t fe_p[4] = {QUILL_P256_P0, QUILL_P256_P1, QUILL_P256_P2, QUILL_P256_P3};

/* R^2 mod p with R = 2^256, for conversion into the Montgomery domain. */
static const quill_p256_fe fe_r2 = {{UINT64_C(0x0000000000000003), UINT64_C(0xfffffffbffffffff),
                                     UINT64_C(0xfffffffffffffffe), UINT64_C(0x00000004fffffffd)}};

/* R mod p = 2^256 - p = 2^224 - 2^192 - 2^96 + 1: the Montgomery form of 1. */
static const quill_p256_fe fe_one = {{UINT64_C(0x0000000000000001), UINT64_C(0xffffffff00000000),
                                      UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000fffffffe)}};

/* On x86-64 the portable bodies are what the field operations run, with or
 * without BMI2/ADX: on the Zen 4 this was measured on, gcc 12's inlined code is as
 * fast as quill_p256_fe_mul_adx (12.3 ns against 15.5 ns for a dependent
 * chain of products, 17.8 against 13.9 ns for independent ones) and faster
 * for squaring (14.2 against 15.5 ns), so nothing here dispatches to the
 * assembly; test_ec_adx keeps it checked against these bodies. */
/* On aarch64 the products go to asm/aarch64/p256_fe.S (p256_arm64.h):
 * there the point formulas call these functions out of line anyway.  The
 * dispatch reads the process-wide CPU word (quill_cpu_has is inline: a
 * load and a test) and tail-calls the assembly; the C twins stay out of
 * line so that the assembly path needs no stack frame. */
#ifdef QUILL_P256_HAVE_ARM64
static QUILL_NOINLINE void fe_mul_c(quill_p256_fe *out, const quill_p256_fe *a,
                                    const quill_p256_fe *b) {
    quill_p256_fe_mul_inline(out, a, b);
}

static QUILL_NOINLINE void fe_sqr_c(quill_p256_fe *out, const quill_p256_fe *a) {
    quill_p256_fe_sqr_inline(out, a);
}

void quill_p256_fe_mul(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    if (quill_p256_arm64_capable())
        quill_p256_fe_mul_arm64(out->v, a->v, b->v);
    else
        fe_mul_c(out, a, b);
}

void quill_p256_fe_sqr(quill_p256_fe *out, const quill_p256_fe *a) {
    if (quill_p256_arm64_capable())
        quill_p256_fe_sqr_arm64(out->v, a->v);
    else
        fe_sqr_c(out, a);
}
#else
void quill_p256_fe_mul(quill_p256_fe *out, const quill_p256_fe *a, const quill_p256_fe *b) {
    quill_p256_fe_mul_inline(out, a, b);
}

void quill_p256_fe_sqr(quill_p256_fe *out, const quill_p256_fe *a) {
    quill_p256_fe_sqr_inline(out, a);
}
#endif

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

void quill_p256_fe_inv_divsteps(quill_p256_fe *out, const quill_p256_fe *a) {
    /* a is A R mod p (Montgomery): the divsteps inversion (p256_inv.h) of
     * the plain value gives A^-1 R^-1, and one Montgomery product with
     * R^3 mod p gives A^-1 R.  -p^-1 = 1 mod 2^64 (p = -1 mod 2^64).  About
     * 6000 cycles on Zen 4 against 10500 for the Fermat chain a^(p-2) it
     * replaced (255 squarings, 14 products). */
    static const quill_p256_fe r3 = {{UINT64_C(0xfffffffd0000000a), UINT64_C(0xffffffedfffffff7),
                                      UINT64_C(0x00000005fffffffc),
                                      UINT64_C(0x0000001800000001)}}; /* R^3 mod p */
    quill_p256_inv_modulus mod;
    quill_p256_fe t;
    quill_inv_to_s62(mod.m, fe_p);
    mod.minv = 1;
    quill_p256_inv_consttime(t.v, a->v, &mod);
    quill_p256_fe_mul(out, &t, &r3);
    quill_zeroize(&t, sizeof(t));
}

#ifdef QUILL_P256_HAVE_ARM64
/* out = a^(2^n) by n squarings in the aarch64 kernel, n >= 1. */
static void fe_sqr_n_arm64(quill_p256_fe *out, const quill_p256_fe *a, int n) {
    quill_p256_fe_sqr_arm64(out->v, a->v);
    for (int i = 1; i < n; i++)
        quill_p256_fe_sqr_arm64(out->v, out->v);
}

void quill_p256_fe_inv_arm64(quill_p256_fe *out, const quill_p256_fe *a) {
    /* a^(p - 2), p - 2 = ffffffff 00000001 00000000 00000000 00000000
     * ffffffff ffffffff fffffffd (32-bit chunks from the top), with
     * xk = a^(2^k - 1): x2, x3, x6, x12, x15, x30, x32 (31 squarings and
     * 7 products), then the chunks: 224 squarings and 5 products.  The
     * chain depends on p only; a = 0 gives 0. */
    quill_p256_fe x2, x3, x6, x12, x15, x30, x32, r;
    quill_p256_fe_sqr_arm64(x2.v, a->v);
    quill_p256_fe_mul_arm64(x2.v, x2.v, a->v);
    quill_p256_fe_sqr_arm64(x3.v, x2.v);
    quill_p256_fe_mul_arm64(x3.v, x3.v, a->v);
    fe_sqr_n_arm64(&x6, &x3, 3);
    quill_p256_fe_mul_arm64(x6.v, x6.v, x3.v);
    fe_sqr_n_arm64(&x12, &x6, 6);
    quill_p256_fe_mul_arm64(x12.v, x12.v, x6.v);
    fe_sqr_n_arm64(&x15, &x12, 3);
    quill_p256_fe_mul_arm64(x15.v, x15.v, x3.v);
    fe_sqr_n_arm64(&x30, &x15, 15);
    quill_p256_fe_mul_arm64(x30.v, x30.v, x15.v);
    fe_sqr_n_arm64(&x32, &x30, 2);
    quill_p256_fe_mul_arm64(x32.v, x32.v, x2.v);
    fe_sqr_n_arm64(&r, &x32, 32); /* ffffffff 00000001 */
    quill_p256_fe_mul_arm64(r.v, r.v, a->v);
    fe_sqr_n_arm64(&r, &r, 128); /* 00000000 x 3, ffffffff */
    quill_p256_fe_mul_arm64(r.v, r.v, x32.v);
    fe_sqr_n_arm64(&r, &r, 32); /* ffffffff */
    quill_p256_fe_mul_arm64(r.v, r.v, x32.v);
    fe_sqr_n_arm64(&r, &r, 30); /* fffffffd: 30 ones, */
    quill_p256_fe_mul_arm64(r.v, r.v, x30.v);
    fe_sqr_n_arm64(&r, &r, 2); /* then 01 */
    quill_p256_fe_mul_arm64(out->v, r.v, a->v);
    quill_zeroize(&x2, sizeof(x2));
    quill_zeroize(&x3, sizeof(x3));
    quill_zeroize(&x6, sizeof(x6));
    quill_zeroize(&x12, sizeof(x12));
    quill_zeroize(&x15, sizeof(x15));
    quill_zeroize(&x30, sizeof(x30));
    quill_zeroize(&x32, sizeof(x32));
    quill_zeroize(&r, sizeof(r));
}
#endif

void quill_p256_fe_inv(quill_p256_fe *out, const quill_p256_fe *a) {
    /* On aarch64 the Fermat chain on the assembly products; elsewhere the
     * divsteps.  bench/aarch64_model.py, one inversion inside a signature,
     * modelled cycles: -mcpu=neoverse-n1 (Cortex-A57 tables) 9941 against
     * 11654 for the divsteps C, -mcpu=apple-m1 (Cyclone tables) 10542
     * against 19188 (after the field kernels stopped writing XZR, which
     * llvm-mca serialises on; before, 13008 and 12148).  Model estimates. */
#ifdef QUILL_P256_HAVE_ARM64
    if (quill_p256_arm64_capable()) {
        quill_p256_fe_inv_arm64(out, a);
        return;
    }
#endif
    quill_p256_fe_inv_divsteps(out, a);
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
