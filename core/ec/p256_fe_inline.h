/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The P-256 field multiplication, squaring, addition, subtraction and
 * halving as always-inline functions, for the point formulas, where inlining
 * lets the compiler overlap independent field operations (about 7% faster
 * doubling with gcc 12).  p256_fe.c exports the same operations as
 * quill_p256_fe_mul etc. (p256_fe.h documents them; the bounds and the
 * constant-time contract are identical).  Internal to core/ec. */
#ifndef QUILL_EC_P256_FE_INLINE_H
#define QUILL_EC_P256_FE_INLINE_H

#include "ec/p256_fe.h"
#include "ec/p256_limbs.h"

/* p = 2^256 - 2^224 + 2^192 + 2^96 - 1, little-endian 64-bit limbs:
 * p0 = 2^64 - 1, p1 = 2^32 - 1, p2 = 0, p3 = 2^64 - 2^32 + 1. */
#define QUILL_P256_P0 UINT64_C(0xffffffffffffffff)
#define QUILL_P256_P1 UINT64_C(0x00000000ffffffff)
#define QUILL_P256_P2 UINT64_C(0x0000000000000000)
#define QUILL_P256_P3 UINT64_C(0xffffffff00000001)

/* Sets out = t - p if t = (t0..t3, t4) >= p, else t.  In: t < 2p. */
QUILL_INLINE void quill_p256_fe_final_sub(quill_p256_fe *out, uint64_t t0, uint64_t t1,
                                          uint64_t t2, uint64_t t3, uint64_t t4) {
    uint64_t d0, d1, d2, d3, d4, b;
    b = quill_sbb(&d0, 0, t0, QUILL_P256_P0);
    b = quill_sbb(&d1, b, t1, QUILL_P256_P1);
    b = quill_sbb(&d2, b, t2, QUILL_P256_P2);
    b = quill_sbb(&d3, b, t3, QUILL_P256_P3);
    b = quill_sbb(&d4, b, t4, 0);
    /* t < p exactly when the 5-word subtraction borrows: keep t. */
    quill_word keep = (quill_word)0 - b;
    (void)d4;
    out->v[0] = quill_ct_select_w(keep, t0, d0);
    out->v[1] = quill_ct_select_w(keep, t1, d1);
    out->v[2] = quill_ct_select_w(keep, t2, d2);
    out->v[3] = quill_ct_select_w(keep, t3, d3);
}

/* Carry discipline (gcc 12): a carry that ends a chain is absorbed with
 * quill_adc(.., c, x, 0) rather than x += c, and no shift or multiplication
 * is written between two links of a chain, so that the carry stays in the
 * flag; gcc otherwise materialises it (setb, movzbl, add $0xff) at every
 * such point, which cost about 10% of fe_mul and fe_sqr. */

/* One Montgomery reduction step: (t0..t5) becomes t + m p with m = t0,
 * because -p^-1 = 1 mod 2^64; the caller then drops word 0 (now zero).
 * With p0 = 2^64 - 1 and p1 = 2^32 - 1: t0 + m p0 = m 2^64, and that carry
 * m plus m p1 at word 1 is m 2^32, i.e. m << 32 at word 1 and m >> 32 at
 * word 2; p2 = 0; only m p3 needs a multiplication.  In/out: t < 2^384,
 * no overflow for the callers' bounds (t < 2p 2^64 before the step). */
#define FE_REDUCE_STEP(t0, t1, t2, t3, t4, t5)                                                   \
    do {                                                                                         \
        uint64_t m_ = (t0), l3_, h3_, c_;                                                        \
        quill_mulx(&l3_, &h3_, m_, QUILL_P256_P3);                                               \
        c_ = quill_adc(&(t1), 0, (t1), m_ << 32);                                                \
        c_ = quill_adc(&(t2), c_, (t2), m_ >> 32);                                               \
        c_ = quill_adc(&(t3), c_, (t3), l3_);                                                    \
        c_ = quill_adc(&(t4), c_, (t4), h3_);                                                    \
        (void)quill_adc(&(t5), c_, (t5), 0);                                                     \
    } while (0)

/* The same step on the low half of a product alone: adds m p to the frame
 * (t0, t1, t2, t3) and a fresh top word, written to |top| (h3 + carry never
 * overflows: h3 <= p3 - 1). */
#define FE_REDC_LOW_STEP(t0, t1, t2, t3, top)                                                    \
    do {                                                                                         \
        uint64_t m_ = (t0), l3_, h3_, c_;                                                        \
        quill_mulx(&l3_, &h3_, m_, QUILL_P256_P3);                                               \
        c_ = quill_adc(&(t1), 0, (t1), m_ << 32);                                                \
        c_ = quill_adc(&(t2), c_, (t2), m_ >> 32);                                               \
        c_ = quill_adc(&(t3), c_, (t3), l3_);                                                    \
        (void)quill_adc(&(top), c_, h3_, 0);                                                     \
    } while (0)

/* (t0..t5) += a * b (a in four words), b one word.  t5 receives the carry. */
#define FE_MULADD_ROW(t0, t1, t2, t3, t4, t5, a, b)                                               \
    do {                                                                                          \
        uint64_t l0_, h0_, l1_, h1_, l2_, h2_, l3_, h3_, c_;                                      \
        quill_mulx(&l0_, &h0_, (a)[0], (b));                                                      \
        quill_mulx(&l1_, &h1_, (a)[1], (b));                                                      \
        quill_mulx(&l2_, &h2_, (a)[2], (b));                                                      \
        quill_mulx(&l3_, &h3_, (a)[3], (b));                                                      \
        c_ = quill_adc(&l1_, 0, l1_, h0_);                                                        \
        c_ = quill_adc(&l2_, c_, l2_, h1_);                                                       \
        c_ = quill_adc(&l3_, c_, l3_, h2_);                                                       \
        (void)quill_adc(&h3_, c_, h3_, 0);                                                        \
        c_ = quill_adc(&(t0), 0, (t0), l0_);                                                      \
        c_ = quill_adc(&(t1), c_, (t1), l1_);                                                     \
        c_ = quill_adc(&(t2), c_, (t2), l2_);                                                     \
        c_ = quill_adc(&(t3), c_, (t3), l3_);                                                     \
        c_ = quill_adc(&(t4), c_, (t4), h3_);                                                     \
        (t5) = c_;                                                                                \
    } while (0)

QUILL_INLINE void quill_p256_fe_mul_inline(quill_p256_fe *out, const quill_p256_fe *a,
                                          const quill_p256_fe *b) {
    const uint64_t *x = a->v;
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0;
    /* Word-by-word: add a * b_i, then one reduction step and a shift.
     * Invariant: t < 2p after each round (inputs < p). */
    FE_MULADD_ROW(t0, t1, t2, t3, t4, t5, x, b->v[0]);
    FE_REDUCE_STEP(t0, t1, t2, t3, t4, t5);
    t0 = t5;
    FE_MULADD_ROW(t1, t2, t3, t4, t0, t5, x, b->v[1]);
    FE_REDUCE_STEP(t1, t2, t3, t4, t0, t5);
    t1 = t5;
    FE_MULADD_ROW(t2, t3, t4, t0, t1, t5, x, b->v[2]);
    FE_REDUCE_STEP(t2, t3, t4, t0, t1, t5);
    t2 = t5;
    FE_MULADD_ROW(t3, t4, t0, t1, t2, t5, x, b->v[3]);
    FE_REDUCE_STEP(t3, t4, t0, t1, t2, t5);
    quill_p256_fe_final_sub(out, t4, t0, t1, t2, t5);
}

QUILL_INLINE void quill_p256_fe_sqr_inline(quill_p256_fe *out, const quill_p256_fe *a) {
    const uint64_t a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, c;
    uint64_t l02, h02, l03, h03, l12, h12, l13, h13, l23, h23;
    /* Cross products a_i a_j (i < j) into t1..t6. */
    quill_mulx(&t1, &t2, a0, a1);
    quill_mulx(&l02, &h02, a0, a2);
    quill_mulx(&l03, &h03, a0, a3);
    quill_mulx(&l12, &h12, a1, a2);
    quill_mulx(&l13, &h13, a1, a3);
    quill_mulx(&l23, &h23, a2, a3);
    c = quill_adc(&t2, 0, t2, l02);
    c = quill_adc(&t3, c, h02, l03);
    c = quill_adc(&t4, c, h03, l13);
    c = quill_adc(&t5, c, h13, l23);
    t6 = h23 + c;
    c = quill_adc(&t3, 0, t3, l12);
    c = quill_adc(&t4, c, t4, h12);
    c = quill_adc(&t5, c, t5, 0);
    (void)quill_adc(&t6, c, t6, 0);
    /* Double them (t1..t6 + t1..t6, carry into t7), then add the squares
     * a_i^2 at words 2i, 2i + 1. */
    uint64_t s0l, s0h, s1l, s1h, s2l, s2h, s3l, s3h;
    quill_mulx(&s0l, &s0h, a0, a0);
    quill_mulx(&s1l, &s1h, a1, a1);
    quill_mulx(&s2l, &s2h, a2, a2);
    quill_mulx(&s3l, &s3h, a3, a3);
    c = quill_adc(&t1, 0, t1, t1);
    c = quill_adc(&t2, c, t2, t2);
    c = quill_adc(&t3, c, t3, t3);
    c = quill_adc(&t4, c, t4, t4);
    c = quill_adc(&t5, c, t5, t5);
    c = quill_adc(&t6, c, t6, t6);
    t7 = c;
    t0 = s0l;
    c = quill_adc(&t1, 0, t1, s0h);
    c = quill_adc(&t2, c, t2, s1l);
    c = quill_adc(&t3, c, t3, s1h);
    c = quill_adc(&t4, c, t4, s2l);
    c = quill_adc(&t5, c, t5, s2h);
    c = quill_adc(&t6, c, t6, s3l);
    (void)quill_adc(&t7, c, t7, s3h);
    /* Montgomery reduction of the low half alone gives a value <= p
     * ((t_lo + M p) / 2^256 with t_lo, M < 2^256); adding the high half
     * (< p because the product is < p^2) gives < 2p (equality with 2p would
     * need both maxima at once, which t_hi < p excludes). */
    uint64_t z0, z1, z2, z3;
    FE_REDC_LOW_STEP(t0, t1, t2, t3, z0);
    FE_REDC_LOW_STEP(t1, t2, t3, z0, z1);
    FE_REDC_LOW_STEP(t2, t3, z0, z1, z2);
    FE_REDC_LOW_STEP(t3, z0, z1, z2, z3);
    c = quill_adc(&z0, 0, z0, t4);
    c = quill_adc(&z1, c, z1, t5);
    c = quill_adc(&z2, c, z2, t6);
    c = quill_adc(&z3, c, z3, t7);
    quill_p256_fe_final_sub(out, z0, z1, z2, z3, c);
}

QUILL_INLINE void quill_p256_fe_add_inline(quill_p256_fe *out, const quill_p256_fe *a,
                                          const quill_p256_fe *b) {
    uint64_t s0, s1, s2, s3, c;
    c = quill_adc(&s0, 0, a->v[0], b->v[0]);
    c = quill_adc(&s1, c, a->v[1], b->v[1]);
    c = quill_adc(&s2, c, a->v[2], b->v[2]);
    c = quill_adc(&s3, c, a->v[3], b->v[3]);
    quill_p256_fe_final_sub(out, s0, s1, s2, s3, c);
}

QUILL_INLINE void quill_p256_fe_sub_inline(quill_p256_fe *out, const quill_p256_fe *a,
                                          const quill_p256_fe *b) {
    uint64_t d0, d1, d2, d3, bw, c;
    bw = quill_sbb(&d0, 0, a->v[0], b->v[0]);
    bw = quill_sbb(&d1, bw, a->v[1], b->v[1]);
    bw = quill_sbb(&d2, bw, a->v[2], b->v[2]);
    bw = quill_sbb(&d3, bw, a->v[3], b->v[3]);
    /* On borrow add p back: p masked by the borrow (p2 = 0). */
    quill_word m = (quill_word)0 - bw;
    c = quill_adc(&out->v[0], 0, d0, QUILL_P256_P0 & m);
    c = quill_adc(&out->v[1], c, d1, QUILL_P256_P1 & m);
    c = quill_adc(&out->v[2], c, d2, 0);
    (void)quill_adc(&out->v[3], c, d3, QUILL_P256_P3 & m);
}

QUILL_INLINE void quill_p256_fe_half_inline(quill_p256_fe *out, const quill_p256_fe *a) {
    quill_word m = (quill_word)0 - (a->v[0] & 1);
    uint64_t s0, s1, s2, s3, c;
    c = quill_adc(&s0, 0, a->v[0], QUILL_P256_P0 & m);
    c = quill_adc(&s1, c, a->v[1], QUILL_P256_P1 & m);
    c = quill_adc(&s2, c, a->v[2], 0);
    c = quill_adc(&s3, c, a->v[3], QUILL_P256_P3 & m);
    /* (a + p) < 2^257 is even; shift the 257-bit value right by one. */
    out->v[0] = (s0 >> 1) | (s1 << 63);
    out->v[1] = (s1 >> 1) | (s2 << 63);
    out->v[2] = (s2 >> 1) | (s3 << 63);
    out->v[3] = (s3 >> 1) | (c << 63);
}

#undef FE_REDUCE_STEP
#undef FE_REDC_LOW_STEP
#undef FE_MULADD_ROW

#endif
