/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Arithmetic modulo the P-256 group order (see p256_scalar.h). */
#include "ec/p256_scalar.h"

#include <string.h>

#include "ec/p256_adx.h"
#include "ec/p256_inv.h"
#include "ec/p256_limbs.h"

static const uint64_t sc_n[4] = {UINT64_C(0xf3b9cac2fc632551), UINT64_C(0xbce6faada7179e84),
                                 UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000)};

/* n0 = -n^-1 mod 2^64. */
#define SC_N0 UINT64_C(0xccd1c8aaee00bc4f)

/* R^2 mod n, R = 2^256. */
static const quill_p256_scalar sc_r2 = {{UINT64_C(0x83244c95be79eea2), UINT64_C(0x4699799c49bd6fa6),
                                         UINT64_C(0x2845b2392b6bec59), UINT64_C(0x66e12d94f3d95620)}};

/* out = t - n if t = (t0..t3, t4) >= n, else t.  In: t < 2n. */
QUILL_INLINE void sc_final_sub(uint64_t out[4], const uint64_t t[4], uint64_t t4) {
    uint64_t d[4], d4, b;
    b = quill_sbb(&d[0], 0, t[0], sc_n[0]);
    b = quill_sbb(&d[1], b, t[1], sc_n[1]);
    b = quill_sbb(&d[2], b, t[2], sc_n[2]);
    b = quill_sbb(&d[3], b, t[3], sc_n[3]);
    b = quill_sbb(&d4, b, t4, 0);
    (void)d4;
    quill_word keep = (quill_word)0 - b; /* t < n */
    for (int i = 0; i < 4; i++)
        out[i] = quill_ct_select_w(keep, t[i], d[i]);
}

/* (t0..t4, *t5) += x * y for four-word x and one word y. */
#define SC_MULADD_ROW(t0, t1, t2, t3, t4, t5, x, y)                                              \
    do {                                                                                         \
        uint64_t l0_, h0_, l1_, h1_, l2_, h2_, l3_, h3_, c_;                                     \
        quill_mulx(&l0_, &h0_, (x)[0], (y));                                                     \
        quill_mulx(&l1_, &h1_, (x)[1], (y));                                                     \
        quill_mulx(&l2_, &h2_, (x)[2], (y));                                                     \
        quill_mulx(&l3_, &h3_, (x)[3], (y));                                                     \
        c_ = quill_adc(&l1_, 0, l1_, h0_);                                                       \
        c_ = quill_adc(&l2_, c_, l2_, h1_);                                                      \
        c_ = quill_adc(&l3_, c_, l3_, h2_);                                                      \
        h3_ += c_;                                                                               \
        c_ = quill_adc(&(t0), 0, (t0), l0_);                                                     \
        c_ = quill_adc(&(t1), c_, (t1), l1_);                                                    \
        c_ = quill_adc(&(t2), c_, (t2), l2_);                                                    \
        c_ = quill_adc(&(t3), c_, (t3), l3_);                                                    \
        c_ = quill_adc(&(t4), c_, (t4), h3_);                                                    \
        (t5) += c_;                                                                              \
    } while (0)

void quill_p256_scalar_mul_c(quill_p256_scalar *out, const quill_p256_scalar *a,
                             const quill_p256_scalar *b) {
    /* Word-by-word Montgomery (CIOS): t += a b_i; t += m n with
     * m = t0 n0 mod 2^64, which clears word 0; shift down one word.
     * t < 2n after each round. */
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t m;
        SC_MULADD_ROW(t[0], t[1], t[2], t[3], t[4], t[5], a->v, b->v[i]);
        m = t[0] * SC_N0;
        SC_MULADD_ROW(t[0], t[1], t[2], t[3], t[4], t[5], sc_n, m);
        t[0] = t[1];
        t[1] = t[2];
        t[2] = t[3];
        t[3] = t[4];
        t[4] = t[5];
        t[5] = 0;
    }
    sc_final_sub(out->v, t, t[4]);
}

void quill_p256_scalar_mul(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
#ifdef QUILL_P256_HAVE_ADX
    if (quill_p256_adx_capable()) {
        quill_p256_scalar_mul_adx(out->v, a->v, b->v);
        return;
    }
#endif
    quill_p256_scalar_mul_c(out, a, b);
}

void quill_p256_scalar_sqr(quill_p256_scalar *out, const quill_p256_scalar *a) {
    quill_p256_scalar_mul(out, a, a);
}

void quill_p256_scalar_add(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
    uint64_t s[4];
    uint64_t carry = quill_add4(s, a->v, b->v);
    sc_final_sub(out->v, s, carry);
}

void quill_p256_scalar_sub(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
    uint64_t d[4], m[4];
    quill_word borrow = (quill_word)0 - quill_sub4(d, a->v, b->v);
    for (int i = 0; i < 4; i++)
        m[i] = sc_n[i] & borrow;
    (void)quill_add4(out->v, d, m);
}

void quill_p256_scalar_opp(quill_p256_scalar *out, const quill_p256_scalar *a) {
    static const quill_p256_scalar zero = {{0, 0, 0, 0}};
    quill_p256_scalar_sub(out, &zero, a);
}

void quill_p256_scalar_selectznz(quill_p256_scalar *out, quill_word mask,
                                 const quill_p256_scalar *z, const quill_p256_scalar *nz) {
    for (int i = 0; i < 4; i++)
        out->v[i] = quill_ct_select_w(mask, nz->v[i], z->v[i]);
}

quill_word quill_p256_scalar_nonzero(const quill_p256_scalar *a) {
    return ~quill_ct_is_zero_mask(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

quill_word quill_p256_scalar_plain_nonzero(const quill_p256_scalar_plain *a) {
    return ~quill_ct_is_zero_mask(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

void quill_p256_scalar_to_mont(quill_p256_scalar *out, const quill_p256_scalar_plain *a) {
    /* For a < 2^256 the CIOS bound a * r2 + m * n < 2 * 2^256 * n holds. */
    quill_p256_scalar t;
    for (int i = 0; i < 4; i++)
        t.v[i] = a->v[i];
    quill_p256_scalar_mul(out, &t, &sc_r2);
}

void quill_p256_scalar_from_mont(quill_p256_scalar_plain *out, const quill_p256_scalar *a) {
    static const quill_p256_scalar one_plain = {{1, 0, 0, 0}};
    quill_p256_scalar t;
    quill_p256_scalar_mul(&t, a, &one_plain);
    for (int i = 0; i < 4; i++)
        out->v[i] = t.v[i];
}

quill_word quill_p256_scalar_plain_from_bytes(quill_p256_scalar_plain *out, const uint8_t in[32]) {
    uint64_t d[4];
    quill_load_be256(out->v, in);
    return (quill_word)0 - quill_sub4(d, out->v, sc_n);
}

void quill_p256_scalar_plain_to_bytes(uint8_t out[32], const quill_p256_scalar_plain *a) {
    quill_store_be256(out, a->v);
}

void quill_p256_scalar_plain_reduce(quill_p256_scalar_plain *out,
                                    const quill_p256_scalar_plain *a) {
    sc_final_sub(out->v, a->v, 0);
}

void quill_p256_scalar_inv_consttime(quill_p256_scalar *out, const quill_p256_scalar *a) {
    /* a is A R mod n (Montgomery): the divsteps inversion of the plain
     * value gives A^-1 R^-1, and one Montgomery product with R^3 mod n
     * gives A^-1 R.  It replaced a Fermat power (255 squarings and 40
     * products with the ADX kernel, about 16000 cycles on Zen 4) at about a
     * third of the cost. */
    static const quill_p256_scalar r3 = {{UINT64_C(0xac8ebec90b65a624), UINT64_C(0x111f28ae0c0555c9),
                                          UINT64_C(0x2543b9246ba5e93f),
                                          UINT64_C(0x503a54e76407be65)}}; /* R^3 mod n */
    quill_p256_inv_modulus mod;
    quill_p256_scalar t;
    quill_inv_to_s62(mod.m, sc_n);
    mod.minv = SC_N0;
    quill_p256_inv_consttime(t.v, a->v, &mod);
    quill_p256_scalar_mul(out, &t, &r3);
    quill_zeroize(&t, sizeof(t));
}

/* ---- variable time ---- */

int quill_p256_scalar_inv_vartime(quill_p256_scalar_plain *out, const quill_p256_scalar_plain *a) {
    /* The divsteps of quill_p256_inv_vartime (p256_inv.h), which stop once
     * g = 0 and skip runs of even g: 11.6k instructions per inversion
     * against 28.8k for Kaliski's almost Montgomery inverse used before
     * (callgrind), best of 20000 3770 against 4550 TSC ticks in one process
     * (means 4.7k and 5.8k; Zen 4).  A branch-free swap in the steps, as
     * in the constant-time code, measured 3900 ticks and 16.8k
     * instructions. */
    quill_p256_inv_modulus mod;
    if ((a->v[0] | a->v[1] | a->v[2] | a->v[3]) == 0)
        return 0;
    quill_inv_to_s62(mod.m, sc_n);
    mod.minv = SC_N0;
    quill_p256_inv_vartime(out->v, a->v, &mod);
    return 1;
}
