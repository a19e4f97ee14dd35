/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The portable NTT (FIPS 204, Algorithms 41 and 42) with Montgomery
 * multiplications and no intermediate reductions: the forward butterflies
 * grow coefficients by at most q per level (8 levels: B -> B + 8q), the
 * inverse ones double the sum side per level (q -> 256 q < 2^31).
 *
 * Layout, for vectorisation: the five levels with distance >= 8 run on the
 * natural order, where every butterfly group is a contiguous run of at
 * least 8 coefficients with one zeta.  The last three levels (distances 4,
 * 2, 1) stay inside blocks of 8 coefficients; each chunk of 8 blocks (64
 * coefficients) is transposed in place as an 8 x 8 matrix (block i,
 * position p) -> 8p + i, after which those levels are operations between
 * rows of 8 with a vector of 8 zetas (one per block).  The forward
 * transform ends in that order, which is therefore quill's NTT-domain order
 * (QUILL_MLDSA_NTT_POS in ntt.h); the inverse starts from it and transposes
 * back halfway.  Everything is in place (no secret-holding temporaries).
 *
 * The portable bodies (_c) work on four lanes at a time (the generic
 * vectors of reduce.h: SSE2 on baseline x86-64).  The forward transform
 * makes two passes: levels 1-2 (distances 128, 64) over columns of four
 * vectors a[j + 64 m]; then per chunk of 64 coefficients, held in sixteen
 * vectors, levels 3-5 (distances 32, 16, 8) in natural order, the 8 x 8
 * transpose as four 4 x 4 transposes (the two off-diagonal ones trading
 * places), and levels 6-8 on rows.  The inverse runs the same steps
 * backwards, its last level fused with the final scaling (by INVNTT_F).
 * The multiplications by zetas are unsigned Montgomery products
 * (mont_zeta_v4 below), a quarter fewer operations than the signed form of
 * quill_mldsa_mont_mul in SSE2; the AVX2 backend computes the same
 * products, so the results are bit-identical to its results
 * (test_mldsa_arith compares them).
 *
 * Signing's fused form (ntt.h) reuses the inverse body with freeze in its
 * last pass (test_mldsa_sign_arith).  The products with the challenge are
 * in ntt16.c.
 *
 * This file is the portable backend of ntt.h (the _c functions, always
 * built); the zeta tables are in ntt_zetas.c (listed in ntt_zetas.h), the
 * AVX2 and AVX-512VL backends in ntt_avx2.c and ntt_avx512vl.c, and the
 * dispatch between them in ntt.c. */
#include "ntt.h"

#include <stddef.h>

#include "ntt_zetas.h"
#include "reduce.h"

/* The inverse transform's scaling factors (ntt.h). */
#define INVNTT_F QUILL_MLDSA_INVNTT_F
#define INVNTT_F_Z1 QUILL_MLDSA_INVNTT_F_Z1

typedef quill_mldsa_v4 v4;
typedef quill_mldsa_v2x64 v2x64;

/* Multiplication by a fixed zeta on four lanes (one zeta per lane), as an
 * unsigned Montgomery product.  Per zeta z (zeta_consts, all lanes of a
 * field for the lanes of a vector) the constants are zp = z mod q in
 * [0, q) and zpq = zp q^-1 mod 2^32, and zpo, zpqo the same for the other
 * lane of each 64-bit pair (below).
 * The input is made non-negative first: A = a + 256 q, in (0, 512 q) and
 * so below 2^32 for |a| < 256 q, and congruent to a.  With T = A zpq mod
 * 2^32, D = A zp - T q is divisible by 2^32 (T q = A zp mod 2^32) and
 * r = D / 2^32 is a zp 2^-32 mod q, with -q < r < A zp / 2^32 < 512 q^2 /
 * 2^32 < q.
 * The products are those of pmuludq (quill_mldsa_v4_mul_even: the low
 * halves of the 64-bit lanes, unsigned); the other lane of each pair is
 * moved down by a 64-bit shift of A, and its multiplicands are
 * precomputed so (zpo, zpqo).  T stays in the low halves where the
 * products leave it.  D taken modulo 2^64 has r in its high half and 0 in
 * its low half, so the results are gathered without shuffles: the even D
 * shifted down by 32 holds r in the low halves and 0 above, the odd D r in
 * the high halves and 0 below; their sum is r in every lane.  12 vector
 * operations per four products, 11 in the forward transform, which holds
 * its values biased (fwd_bf); the signed form of quill_mldsa_mont_mul
 * needs 16.  In: |a| < 256 q (the transforms' bounds: the forward one
 * multiplies values below B + 7q < 2^31 - q < 256 q, ntt.h, the inverse
 * one differences and sums below 256 q).  Out: in (-q, q),
 * congruent to quill_mldsa_mont_mul(z, a) (equal or q apart; the AVX2
 * backend's montmul gives this value). */
typedef struct {
    _Alignas(16) int32_t zp[4];
    int32_t zpq[4], zpo[4], zpqo[4];
} zeta_consts;

#define ZP(z) ((z) < 0 ? (z) + QUILL_MLDSA_Q : (z))
#define ZPQ(z) ((int32_t)((uint32_t)ZP(z) * (uint32_t)QUILL_MLDSA_QINV))
/* For the pair of lanes (x0, x1) sharing a 64-bit lane: the value of the
 * lane in the high half, to be placed in the low half. */
#define OTH(x0, x1) (QUILL_MLDSA_V4_LO ? (x0) : (x1))
#define PAIR_OTH(F, z0, z1) OTH(F(z0), F(z1)), OTH(F(z0), F(z1))
#define PREP(z0, z1, z2, z3)                                                                    \
    {{ZP(z0), ZP(z1), ZP(z2), ZP(z3)},                                                          \
     {ZPQ(z0), ZPQ(z1), ZPQ(z2), ZPQ(z3)},                                                      \
     {PAIR_OTH(ZP, z0, z1), PAIR_OTH(ZP, z2, z3)},                                              \
     {PAIR_OTH(ZPQ, z0, z1), PAIR_OTH(ZPQ, z2, z3)}},
#define PREP_DUP(z) PREP(z, z, z, z)
#define PREP_DUP_NEG(z) PREP(-(z), -(z), -(z), -(z))

/* Levels 1-5: fwd_dup[i] for zetas[i], inv_dup[i] for -zetas[i]; levels
 * 6-8: one entry per row and lane quad of quill_mldsa_zetas_rows and
 * _inv_rows (ntt_zetas.h; 22 KB in all, public constants indexed by
 * position only). */
static const zeta_consts fwd_dup[32] = {QUILL_MLDSA_ZETAS_TOP(PREP_DUP)};
static const zeta_consts inv_dup[32] = {QUILL_MLDSA_ZETAS_TOP(PREP_DUP_NEG)};
static const zeta_consts invntt_f[2] = {PREP_DUP(INVNTT_F) PREP_DUP(INVNTT_F_Z1)};
static const zeta_consts fwd_rows[7][8] = {
    {QUILL_MLDSA_ZETAS_ROW_0(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_1(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_2(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_3(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_4(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_5(PREP)},
    {QUILL_MLDSA_ZETAS_ROW_6(PREP)},
};
static const zeta_consts inv_rows[7][8] = {
    {QUILL_MLDSA_ZETAS_INV_ROW_0(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_1(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_2(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_3(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_4(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_5(PREP)},
    {QUILL_MLDSA_ZETAS_INV_ROW_6(PREP)},
};

typedef struct {
    v4 zp, zpq, zpo, zpqo;
} zeta_v4;

QUILL_INLINE zeta_v4 zeta_load(const zeta_consts *c) {
    zeta_v4 r;
    r.zp = quill_mldsa_v4_load(c->zp);
    r.zpq = quill_mldsa_v4_load(c->zpq);
    r.zpo = quill_mldsa_v4_load(c->zpo);
    r.zpqo = quill_mldsa_v4_load(c->zpqo);
    return r;
}

QUILL_INLINE v4 add_bias(v4 a) {
    return (v4)((quill_mldsa_v4u)a + (quill_mldsa_v4u)quill_mldsa_v4_dup(QUILL_MLDSA_MONT_BIAS));
}

QUILL_INLINE v4 sub_bias(v4 a) {
    return (v4)((quill_mldsa_v4u)a - (quill_mldsa_v4u)quill_mldsa_v4_dup(QUILL_MLDSA_MONT_BIAS));
}

/* mont_zeta_v4 on an input already biased: big_a = a + 256 q. */
QUILL_INLINE v4 mont_zeta_biased_v4(v4 big_a, const zeta_v4 *z) {
    const v4 q = quill_mldsa_v4_dup(QUILL_MLDSA_Q);
    v4 big_ao = (v4)((v2x64)big_a >> 32);
    v2x64 pe = quill_mldsa_v4_mul_even(big_a, z->zp);
    v2x64 po = quill_mldsa_v4_mul_even(big_ao, z->zpo);
    v4 te = (v4)quill_mldsa_v4_mul_even(big_a, z->zpq);
    v4 to = (v4)quill_mldsa_v4_mul_even(big_ao, z->zpqo);
    v2x64 de = pe - quill_mldsa_v4_mul_even(te, q);
    v2x64 dodd = po - quill_mldsa_v4_mul_even(to, q);
    return (v4)((quill_mldsa_v4u)(de >> 32) + (quill_mldsa_v4u)dodd);
}

QUILL_INLINE v4 mont_zeta_v4(v4 a, const zeta_v4 *z) {
    return mont_zeta_biased_v4(add_bias(a), z);
}

/* Forward butterfly: (lo, hi) -> (lo + z hi, lo - z hi), on values held
 * biased by 256 q throughout the forward transform (the bias is added as
 * the coefficients are first loaded and taken off as they are last
 * stored): a butterfly keeps it on both outputs (it rides on lo, and z hi
 * is computed from the biased hi, mont_zeta_v4's input), so the products
 * need no addition of their own.  Biased values reach 264 q + B, above
 * 2^31 (and the last level's outputs may wrap below 0 for B > 248 q, which
 * only sub_bias reads): unsigned lanes, the sums wrapping by design; every
 * value multiplied is biased into (0, 2^32) and every true value is in
 * range. */
QUILL_INLINE void fwd_bf(v4 *lo, v4 *hi, const zeta_v4 *z) {
    v4 t = mont_zeta_biased_v4(*hi, z);
    *hi = (v4)((quill_mldsa_v4u)*lo - (quill_mldsa_v4u)t);
    *lo = (v4)((quill_mldsa_v4u)*lo + (quill_mldsa_v4u)t);
}

/* Inverse butterfly: (lo, hi) -> (lo + hi, z (lo - hi)), z a negated zeta. */
QUILL_INLINE void inv_bf(v4 *lo, v4 *hi, const zeta_v4 *z) {
    v4 t = *lo;
    *lo = t + *hi;
    *hi = mont_zeta_v4(t - *hi, z);
}

/* In-register 4 x 4 transpose: element j of r[i] <-> element i of r[j]. */
QUILL_INLINE void transpose4(v4 *r0, v4 *r1, v4 *r2, v4 *r3) {
    v4 t0 = QUILL_MLDSA_V4_SHUFFLE(*r0, *r1, 0, 4, 1, 5);
    v4 t1 = QUILL_MLDSA_V4_SHUFFLE(*r0, *r1, 2, 6, 3, 7);
    v4 t2 = QUILL_MLDSA_V4_SHUFFLE(*r2, *r3, 0, 4, 1, 5);
    v4 t3 = QUILL_MLDSA_V4_SHUFFLE(*r2, *r3, 2, 6, 3, 7);
    *r0 = QUILL_MLDSA_V4_SHUFFLE(t0, t2, 0, 1, 4, 5);
    *r1 = QUILL_MLDSA_V4_SHUFFLE(t0, t2, 2, 3, 6, 7);
    *r2 = QUILL_MLDSA_V4_SHUFFLE(t1, t3, 0, 1, 4, 5);
    *r3 = QUILL_MLDSA_V4_SHUFFLE(t1, t3, 2, 3, 6, 7);
}

/* A chunk of 64 coefficients is held as two halves h = 0, 1 (blocks 4h to
 * 4h + 3) of eight vectors: in natural order, w[2i + s] holds block 4h + i,
 * positions 4s to 4s + 3.  transpose_half turns its two 4 x 4 squares
 * (s = 0, 1), after which w[ROW(p)] holds position p (row p of the
 * transposed chunk) of those four blocks, which lives at c + 8p + 4h. */
#define ROW(p) (2 * ((p) % 4) + (p) / 4)

QUILL_INLINE void transpose_half(v4 w[8]) {
    transpose4(&w[0], &w[2], &w[4], &w[6]);
    transpose4(&w[1], &w[3], &w[5], &w[7]);
}

/* Levels 4 and 5 (distances 16, 8) on half-chunk number hc (0..7, the
 * 32 coefficients 32 hc onwards), natural order. */
QUILL_INLINE void fwd_levels45(v4 w[8], unsigned hc) {
    zeta_v4 z16 = zeta_load(&fwd_dup[8 + hc]);
    zeta_v4 z8a = zeta_load(&fwd_dup[16 + 2 * hc]), z8b = zeta_load(&fwd_dup[17 + 2 * hc]);
#pragma GCC unroll 4
    for (unsigned m = 0; m < 4; m++)
        fwd_bf(&w[m], &w[m + 4], &z16);
    fwd_bf(&w[0], &w[2], &z8a);
    fwd_bf(&w[1], &w[3], &z8a);
    fwd_bf(&w[4], &w[6], &z8b);
    fwd_bf(&w[5], &w[7], &z8b);
}

/* Levels 6-8 (distances 4, 2, 1) on the transposed rows of lane quad lq
 * (0..7: blocks 4 lq to 4 lq + 3 of the transform). */
QUILL_INLINE void fwd_levels678(v4 w[8], unsigned lq) {
    zeta_v4 z = zeta_load(&fwd_rows[0][lq]);
#pragma GCC unroll 4
    for (unsigned p = 0; p < 4; p++)
        fwd_bf(&w[ROW(p)], &w[ROW(p + 4)], &z);
#pragma GCC unroll 2
    for (unsigned s = 0; s < 2; s++) {
        z = zeta_load(&fwd_rows[1 + s][lq]);
        fwd_bf(&w[ROW(4 * s)], &w[ROW(4 * s + 2)], &z);
        fwd_bf(&w[ROW(4 * s + 1)], &w[ROW(4 * s + 3)], &z);
    }
#pragma GCC unroll 4
    for (unsigned s = 0; s < 4; s++) {
        z = zeta_load(&fwd_rows[3 + s][lq]);
        fwd_bf(&w[ROW(2 * s)], &w[ROW(2 * s + 1)], &z);
    }
}

/* Levels 3-8 of chunk g (c = a + 64 g). */
QUILL_INLINE void ntt_chunk(int32_t *c, unsigned g) {
    v4 w0[8], w1[8];
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
        w0[i] = quill_mldsa_v4_load(c + 4 * i);
        w1[i] = quill_mldsa_v4_load(c + 32 + 4 * i);
    }
    zeta_v4 z32 = zeta_load(&fwd_dup[4 + g]);
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++)
        fwd_bf(&w0[i], &w1[i], &z32);
    fwd_levels45(w0, 2 * g);
    fwd_levels45(w1, 2 * g + 1);
    transpose_half(w0);
    transpose_half(w1);
    fwd_levels678(w0, 2 * g);
    fwd_levels678(w1, 2 * g + 1);
#pragma GCC unroll 8
    for (unsigned p = 0; p < 8; p++) {
        quill_mldsa_v4_store(c + 8 * p, sub_bias(w0[ROW(p)]));
        quill_mldsa_v4_store(c + 8 * p + 4, sub_bias(w1[ROW(p)]));
    }
}

QUILL_INLINE void ntt_body(int32_t a[QUILL_MLDSA_N]) {
    zeta_v4 z1 = zeta_load(&fwd_dup[1]), z2 = zeta_load(&fwd_dup[2]), z3 = zeta_load(&fwd_dup[3]);
    for (unsigned j = 0; j < 64; j += 4) {
        v4 v0 = add_bias(quill_mldsa_v4_load(a + j));
        v4 v1 = add_bias(quill_mldsa_v4_load(a + j + 64));
        v4 v2 = add_bias(quill_mldsa_v4_load(a + j + 128));
        v4 v3 = add_bias(quill_mldsa_v4_load(a + j + 192));
        fwd_bf(&v0, &v2, &z1);
        fwd_bf(&v1, &v3, &z1);
        fwd_bf(&v0, &v1, &z2);
        fwd_bf(&v2, &v3, &z3);
        quill_mldsa_v4_store(a + j, v0);
        quill_mldsa_v4_store(a + j + 64, v1);
        quill_mldsa_v4_store(a + j + 128, v2);
        quill_mldsa_v4_store(a + j + 192, v3);
    }
    for (unsigned g = 0; g < 4; g++)
        ntt_chunk(a + 64 * g, g);
}

/* The inverse steps, in the reverse order of the forward ones. */
QUILL_INLINE void inv_levels876(v4 w[8], unsigned lq) {
    zeta_v4 z;
#pragma GCC unroll 4
    for (unsigned s = 0; s < 4; s++) {
        z = zeta_load(&inv_rows[3 + s][lq]);
        inv_bf(&w[ROW(2 * s)], &w[ROW(2 * s + 1)], &z);
    }
#pragma GCC unroll 2
    for (unsigned s = 0; s < 2; s++) {
        z = zeta_load(&inv_rows[1 + s][lq]);
        inv_bf(&w[ROW(4 * s)], &w[ROW(4 * s + 2)], &z);
        inv_bf(&w[ROW(4 * s + 1)], &w[ROW(4 * s + 3)], &z);
    }
    z = zeta_load(&inv_rows[0][lq]);
#pragma GCC unroll 4
    for (unsigned p = 0; p < 4; p++)
        inv_bf(&w[ROW(p)], &w[ROW(p + 4)], &z);
}

/* Distance 8 uses -zetas[31 - m] for the run of 16 starting at 16 m,
 * distance 16 -zetas[15 - m] for the run of 32 starting at 32 m. */
QUILL_INLINE void inv_levels54(v4 w[8], unsigned hc) {
    zeta_v4 z8a = zeta_load(&inv_dup[31 - 2 * hc]), z8b = zeta_load(&inv_dup[30 - 2 * hc]);
    zeta_v4 z16 = zeta_load(&inv_dup[15 - hc]);
    inv_bf(&w[0], &w[2], &z8a);
    inv_bf(&w[1], &w[3], &z8a);
    inv_bf(&w[4], &w[6], &z8b);
    inv_bf(&w[5], &w[7], &z8b);
#pragma GCC unroll 4
    for (unsigned m = 0; m < 4; m++)
        inv_bf(&w[m], &w[m + 4], &z16);
}

/* What an inverse transform does besides the transform (a compile-time
 * constant of each body, see ntt.h):
 *   INV_TOMONT  the last level is fused with the scaling: sums times
 *               INVNTT_F, differences times INVNTT_F_Z1 (out in (-q, q));
 *   INV_FREEZE  the same, then caddq (out in [0, q): the value of
 *               quill_mldsa_freeze on INV_TOMONT's output). */
enum { INV_TOMONT, INV_FREEZE };

QUILL_INLINE void invntt_chunk(int32_t *c, unsigned g) {
    v4 w0[8], w1[8];
#pragma GCC unroll 8
    for (unsigned p = 0; p < 8; p++) {
        w0[ROW(p)] = quill_mldsa_v4_load(c + 8 * p);
        w1[ROW(p)] = quill_mldsa_v4_load(c + 8 * p + 4);
    }
    inv_levels876(w0, 2 * g);
    inv_levels876(w1, 2 * g + 1);
    transpose_half(w0);
    transpose_half(w1);
    inv_levels54(w0, 2 * g);
    inv_levels54(w1, 2 * g + 1);
    zeta_v4 z32 = zeta_load(&inv_dup[7 - g]);
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++)
        inv_bf(&w0[i], &w1[i], &z32);
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
        quill_mldsa_v4_store(c + 4 * i, w0[i]);
        quill_mldsa_v4_store(c + 32 + 4 * i, w1[i]);
    }
}

/* The product by f (INVNTT_F, or INVNTT_F_Z1 for a difference of the last
 * level), then in INV_FREEZE mode caddq. */
QUILL_INLINE v4 inv_finish(v4 v, const zeta_v4 *f, int mode) {
    v = mont_zeta_v4(v, f);
    if (mode == INV_FREEZE)
        v += (v >> 31) & quill_mldsa_v4_dup(QUILL_MLDSA_Q);
    return v;
}

/* The last level (distance 128) is fused with the scaling: the sums are
 * multiplied by INVNTT_F and the differences by INVNTT_F_Z1 alone, one
 * product each instead of two for the differences. */
QUILL_INLINE void invntt_body(int32_t a[QUILL_MLDSA_N], int mode) {
    for (unsigned g = 0; g < 4; g++)
        invntt_chunk(a + 64 * g, g);
    zeta_v4 z2 = zeta_load(&inv_dup[2]), z3 = zeta_load(&inv_dup[3]);
    zeta_v4 f = zeta_load(&invntt_f[0]), fz1 = zeta_load(&invntt_f[1]);
    for (unsigned j = 0; j < 64; j += 4) {
        v4 v0 = quill_mldsa_v4_load(a + j), v1 = quill_mldsa_v4_load(a + j + 64);
        v4 v2 = quill_mldsa_v4_load(a + j + 128), v3 = quill_mldsa_v4_load(a + j + 192);
        inv_bf(&v0, &v1, &z3);
        inv_bf(&v2, &v3, &z2);
        quill_mldsa_v4_store(a + j, inv_finish(v0 + v2, &f, mode));
        quill_mldsa_v4_store(a + j + 64, inv_finish(v1 + v3, &f, mode));
        quill_mldsa_v4_store(a + j + 128, inv_finish(v0 - v2, &fz1, mode));
        quill_mldsa_v4_store(a + j + 192, inv_finish(v1 - v3, &fz1, mode));
    }
}

QUILL_INLINE void pointwise_body(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                 const int32_t b[QUILL_MLDSA_N]) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 4)
        quill_mldsa_v4_store(c + i, quill_mldsa_mont_mul_v4(quill_mldsa_v4_load(a + i),
                                                            quill_mldsa_v4_load(b + i)));
}

void quill_mldsa_ntt_c(int32_t a[QUILL_MLDSA_N]) {
    ntt_body(a);
}

void quill_mldsa_invntt_tomont_c(int32_t a[QUILL_MLDSA_N]) {
    invntt_body(a, INV_TOMONT);
}

void quill_mldsa_invntt_tomont_freeze_c(int32_t a[QUILL_MLDSA_N]) {
    invntt_body(a, INV_FREEZE);
}

/* The sum S = sum_j a_j b_j is formed exactly in 64 bits, then reduced
 * once (ntt.h).  With pmuludq's unsigned products, a >= 0 and b_u = b mod
 * 2^32: S = P - 2^32 C with P = sum a_j b_u,j (below 8 2^23 2^32 = 2^58)
 * and C = sum of the a_j whose b_j is negative.  t = lo(S) q^-1 = lo(P)
 * q^-1 mod 2^32 (signed, as quill_mldsa_mont_reduce's) and T = t + 2^31
 * in [0, 2^32): S - t q = 2^32 r, so P - T q = 2^32 (r + C) - 2^31 q,
 * whose low half is 2^31 and whose high half (modulo 2^64) is
 * r + C - (q + 1) / 2.  The two halves of each 64-bit lane are gathered
 * as in quill_mldsa_mont_mul_v4, the 2^31 of the odd D's low half taken
 * back by the constant: r = hi + (q + 1) / 2 - C.  dot_body is unrolled
 * for the sets' l (dot_mont_c below): with n a constant the products of
 * a column stay in registers, 15% faster than the loop on Zen 4.  With e
 * not NULL, pair n is (e, b_n) (quill_mldsa_dot_mont_x2_tail): n + 1
 * pairs in all. */
QUILL_INLINE void dot_body(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *e,
                           const int32_t *b, unsigned n) {
    const v4 q = quill_mldsa_v4_dup(QUILL_MLDSA_Q), qinv = quill_mldsa_v4_dup(QUILL_MLDSA_QINV);
    const v4 top = quill_mldsa_v4_dup(INT32_MIN);
    const int32_t h = (QUILL_MLDSA_Q + 1) / 2;
    const v4 k = QUILL_MLDSA_V4_LO ? (v4){h, h + INT32_MIN, h, h + INT32_MIN}
                                   : (v4){h + INT32_MIN, h, h + INT32_MIN, h};
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 4) {
        v2x64 pe = {0, 0}, po = {0, 0};
        v4 corr = quill_mldsa_v4_dup(0);
        for (unsigned j = 0; j <= n; j++) {
            if (j == n && e == NULL)
                break;
            v4 av = quill_mldsa_v4_load(j < n ? a + QUILL_MLDSA_N * j + i : e + i);
            v4 bv = quill_mldsa_v4_load(b + QUILL_MLDSA_N * j + i);
            pe += quill_mldsa_v4_mul_even(av, bv);
            po += quill_mldsa_v4_mul_even((v4)((v2x64)av >> 32), (v4)((v2x64)bv >> 32));
            corr += (bv >> 31) & av;
        }
        v4 te = (v4)quill_mldsa_v4_mul_even((v4)pe, qinv) ^ top;
        v4 to = (v4)quill_mldsa_v4_mul_even((v4)po, qinv) ^ top;
        v2x64 de = pe - quill_mldsa_v4_mul_even(te, q);
        v2x64 dodd = po - quill_mldsa_v4_mul_even(to, q);
        v4 sum = quill_mldsa_v4_gather(de, dodd, k);
        quill_mldsa_v4_store(r + i, (v4)((quill_mldsa_v4u)sum - (quill_mldsa_v4u)corr));
    }
}

/* dot_body with n a constant for the sets' l (signing) and l + 1
 * (verification) of ML-DSA-44, -65 and -87. */
QUILL_INLINE void dot_const(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *e,
                            const int32_t *b, unsigned n) {
    switch (n) {
    case 4:
        dot_body(r, a, e, b, 4);
        break;
    case 5:
        dot_body(r, a, e, b, 5);
        break;
    case 6:
        dot_body(r, a, e, b, 6);
        break;
    case 7:
        dot_body(r, a, e, b, 7);
        break;
    case 8:
        dot_body(r, a, e, b, 8);
        break;
    default:
        dot_body(r, a, e, b, n);
        break;
    }
}

void quill_mldsa_dot_mont_c(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                            unsigned n) {
    dot_const(r, a, NULL, b, n);
}

void quill_mldsa_dot_mont_x2_tail_c(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                    const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                    const int32_t *e1, const int32_t *b, unsigned n) {
    dot_const(r0, a0, e0, b, n);
    dot_const(r1, a1, e1, b, n);
}

void quill_mldsa_pointwise_mont_c(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                  const int32_t b[QUILL_MLDSA_N]) {
    pointwise_body(c, a, b);
}

/* quill_mldsa_ntt_lazy_from_c (ntt.h): FIPS 204's Algorithm 41 on the
 * natural order, in out, with the values held biased by 256 q as the
 * vector forward transform holds them (unsigned, wrapping by design) and
 * Shoup's products (the first level's exact, ntt.h); then each chunk of 64 transposed into quill's order
 * (QUILL_MLDSA_NTT_POS).  Every butterfly is exact arithmetic modulo 2^32
 * on the same operands as in ntt_avx2.c's lazy body, so the results are
 * the same bits.  Scalar: the oracle of the vector twins (the dispatcher
 * runs the Montgomery transform where there are none).  Secret values are
 * only in out; the zetas are public. */
void quill_mldsa_ntt_lazy_from_c(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]) {
    uint32_t *v = (uint32_t *)out;
    /* Level 1: the exact products of the small inputs by the centred
     * residue (ntt.h), then biased; in[j] is read before out[j] is
     * written, so out may be in. */
    for (unsigned j = 0; j < 128; j++) {
        /* |t| <= 2q within the contract; unsigned, as vpmulld, outside it */
        const uint32_t t = (uint32_t)QUILL_MLDSA_LAZY_W1 * (uint32_t)in[j + 128];
        const uint32_t lo = (uint32_t)in[j] + (uint32_t)QUILL_MLDSA_MONT_BIAS;
        v[j + 128] = lo - t;
        v[j] = lo + t;
    }
    unsigned k = 1;
    for (unsigned len = 64; len >= 1; len >>= 1)
        for (unsigned start = 0; start < QUILL_MLDSA_N; start += 2 * len) {
            /* w = zetas[k] 2^-32 mod q (2^-32 = 8265825 mod q), w' = floor(w 2^32 / q) */
            const int32_t z = quill_mldsa_zetas[++k];
            const uint32_t w =
                (uint32_t)(((int64_t)ZP(z) * 8265825) % QUILL_MLDSA_Q);
            const uint32_t wp = (uint32_t)(((uint64_t)w << 32) / QUILL_MLDSA_Q);
            for (unsigned j = start; j < start + len; j++) {
                const uint32_t a = v[j + len];
                const uint32_t h = (uint32_t)(((uint64_t)a * wp) >> 32);
                const uint32_t t = a * w - h * (uint32_t)QUILL_MLDSA_Q; /* [0, 2q) */
                v[j + len] = v[j] - t;
                v[j] = v[j] + t;
            }
        }
    for (unsigned c = 0; c < QUILL_MLDSA_N; c += 64)
        for (unsigned r = 0; r < 8; r++)
            for (unsigned s = r + 1; s < 8; s++) {
                const uint32_t x = v[c + 8 * r + s];
                v[c + 8 * r + s] = v[c + 8 * s + r];
                v[c + 8 * s + r] = x;
            }
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        out[i] = (int32_t)(v[i] - (uint32_t)QUILL_MLDSA_MONT_BIAS);
}
