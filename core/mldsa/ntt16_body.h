/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The transforms of ntt16.h on one vector type, included by ntt16.c (8
 * lanes: one half of a pair at a time) and ntt16_avx2.c (16 lanes: both
 * halves, one per 128-bit lane).  The includer defines:
 *   V, VU            the int16 vector type and its unsigned twin
 *   V_LOAD(p), V_STORE(p, v)   a vector at p (int16_t *, unaligned)
 *   V_DUP(x)         every lane x
 *   V_ROW(p)         the 8 values at p in each 128-bit lane
 *   V_DUP_LOAD(p)    (optional) *p in every lane; without it, the
 *                    zetas of levels 1-5 come from eight-lane copies
 *   V_MULHI(a, b)    the high halves of the signed 16 x 16-bit products
 *   NTT16_FN         the function specifiers (QUILL_INLINE, with a target
 *                    attribute where the vector type needs one)
 *   V_OPAQUE(v)      v, hidden from constant folding where that helps (gcc
 *                    turns a product with the constant p into four shifts
 *                    and additions; one multiply is cheaper here)
 *   V_LO16, V_HI16, V_LO32, V_HI32, V_LO64, V_HI64 (a, b): the interleaves
 *                    of the low / high halves of a and b at 16-, 32- and
 *                    64-bit granularity, within each 128-bit lane (SSE2's
 *                    punpckl / punpckh).
 * Vector j of a half is the 8 (or 2 x 8) lanes at base + 16 j.
 *
 * Order: levels 1-5 (distances 128..8) run on natural order, where each
 * butterfly group spans whole vectors with one zeta; each group of 8
 * vectors is then transposed (8 x 8 within each 128-bit lane), so that
 * levels 6-8 (distances 4, 2, 1) are operations between vectors with one
 * zeta per lane (the rows of ntt16.c).  The forward transform stops in the
 * transposed order and the inverse starts from it.
 *
 * Bounds (|.| of the int16 values; mont16 returns at most |a| |z| / 2^16
 * + 3841, so at most 5761 with zetas in [-3840, 3840]; barrett16 returns
 * the centred residue, in [-3840, 3840]; test_mldsa_ntt16 checks both on
 * every int16 a):
 *  - forward: in <= 2^13; levels 1-4 add at most 5761 each: <= 31236;
 *    barrett16; levels 5-8: out <= 3840 + 4 * 5761 = 26884.
 *  - prepare: m = mont16(c_hat, 1912) <= 26884 1912 / 2^16 + 3841 = 4625.
 *  - inverse: the pointwise product (|s_hat| <= 26884, |m| <= 4625) is
 *    <= 5738; levels 8, 7 double the sums: <= 22952; level 6 with five
 *    of its eight registers reduced (inv_reduce_half): <= 7680; levels 5,
 *    4: <= 30720; level 3 with five reduced: <= 7680; levels 2, 1: <=
 *    30720; barrett16 gives the centred residue, which is the exact
 *    product when that lies in [-3840, 3840].
 * The tightest point is 2047 below 32767; test_mldsa_ntt16 drives every
 * inverse level's sums to the maximum its input allows. */
#ifndef QUILL_MLDSA_NTT16_BODY_H
#define QUILL_MLDSA_NTT16_BODY_H

#define P16 QUILL_MLDSA_P16
#define PINV16 57857 /* p^-1 mod 2^16 */
#define T16 quill_mldsa_ntt16_tab

/* a z 2^-16 mod p from zq = z p^-1 mod 2^16, at most |a z| / 2^16 + 3841
 * in absolute value (below p for every use here): a z - t p with t = a zq
 * mod 2^16 is divisible by 2^16, so the low halves of a z and t p are
 * equal and the difference of the high halves is exact. */
NTT16_FN V mont16(V a, V z, V zq) {
    V t = (V)((VU)a * (VU)zq);
    return V_MULHI(a, z) - V_MULHI(t, V_DUP(P16));
}

/* a - round(a / p) p, the quotient as ((a 17474) / 2^16 + 2^10) / 2^11
 * (17474 = round(2^27 / p)): for every int16 a the centred residue, in
 * [-3840, 3840] (checked exhaustively).  The product of the quotient and p
 * may wrap; the difference does not. */
NTT16_FN V barrett16(V a) {
    V t = (V_MULHI(a, V_DUP(17474)) + V_DUP(1 << 10)) >> 11;
    return (V)((VU)a - (VU)t * (VU)V_OPAQUE(V_DUP(P16)));
}

/* Cooley-Tukey (forward) and Gentleman-Sande (inverse, with the inverse
 * zeta) butterflies; z is {zeta, zeta p^-1} as vectors. */
typedef struct zeta16 {
    V z, zq;
} zeta16;

#define FWD_BF(x, y, zt)                                                                           \
    do {                                                                                           \
        V t_ = mont16((y), (zt).z, (zt).zq);                                                       \
        (y) = (x) - t_;                                                                            \
        (x) = (x) + t_;                                                                            \
    } while (0)

#define INV_BF(x, y, zt)                                                                           \
    do {                                                                                           \
        V d_ = (x) - (y);                                                                          \
        (x) = (x) + (y);                                                                           \
        (y) = mont16(d_, (zt).z, (zt).zq);                                                         \
    } while (0)

/* Zeta m of levels 1-5 in every lane: broadcast from the table (AVX2
 * has a one-instruction broadcast from memory), or loaded from the copy
 * with eight lanes (SSE2 would need three instructions). */
#if defined(V_DUP_LOAD)
#define ZETA_TOP(m) ((zeta16){V_DUP_LOAD(&T16.top[m]), V_DUP_LOAD(&T16.top_q[m])})
#define ZETA_INV_TOP(m) ((zeta16){V_DUP_LOAD(&T16.inv_top[m]), V_DUP_LOAD(&T16.inv_top_q[m])})
#else
#define ZETA_TOP(m) ((zeta16){V_ROW(T16.top8[m]), V_ROW(T16.top8_q[m])})
#define ZETA_INV_TOP(m) ((zeta16){V_ROW(T16.inv_top8[m]), V_ROW(T16.inv_top8_q[m])})
#endif

NTT16_FN zeta16 zeta_row(const int16_t (*z)[8], const int16_t (*zq)[8], unsigned row) {
    return (zeta16){V_ROW(z[row]), V_ROW(zq[row])};
}

/* r[i] lane e <- r[e] lane i, in each 128-bit lane (an involution). */
NTT16_FN void transpose8(V r[8]) {
    V a0 = V_LO16(r[0], r[1]), a1 = V_HI16(r[0], r[1]), a2 = V_LO16(r[2], r[3]);
    V a3 = V_HI16(r[2], r[3]), a4 = V_LO16(r[4], r[5]), a5 = V_HI16(r[4], r[5]);
    V a6 = V_LO16(r[6], r[7]), a7 = V_HI16(r[6], r[7]);
    V b0 = V_LO32(a0, a2), b1 = V_HI32(a0, a2), b2 = V_LO32(a1, a3), b3 = V_HI32(a1, a3);
    V b4 = V_LO32(a4, a6), b5 = V_HI32(a4, a6), b6 = V_LO32(a5, a7), b7 = V_HI32(a5, a7);
    r[0] = V_LO64(b0, b4);
    r[1] = V_HI64(b0, b4);
    r[2] = V_LO64(b1, b5);
    r[3] = V_HI64(b1, b5);
    r[4] = V_LO64(b2, b6);
    r[5] = V_HI64(b2, b6);
    r[6] = V_LO64(b3, b7);
    r[7] = V_HI64(b3, b7);
}

NTT16_FN void barrett8(V r[8]) {
    for (unsigned i = 0; i < 8; i++)
        r[i] = barrett16(r[i]);
}

#define LD(p, j) V_LOAD((p) + 16 * (j))
#define ST(p, j, v) V_STORE((p) + 16 * (j), (v))

/* The forward transform of one half (or of both, 16 lanes) at a. */
NTT16_FN void ntt16_body(int16_t *a) {
    const zeta16 z1 = ZETA_TOP(1), z2 = ZETA_TOP(2);
    const zeta16 z3 = ZETA_TOP(3);
    for (unsigned j = 0; j < 8; j++) { /* levels 1, 2 */
        V x0 = LD(a, j), x1 = LD(a, j + 8), x2 = LD(a, j + 16), x3 = LD(a, j + 24);
        FWD_BF(x0, x2, z1);
        FWD_BF(x1, x3, z1);
        FWD_BF(x0, x1, z2);
        FWD_BF(x2, x3, z3);
        ST(a, j, x0);
        ST(a, j + 8, x1);
        ST(a, j + 16, x2);
        ST(a, j + 24, x3);
    }
    for (unsigned g = 0; g < 4; g++) {
        V r[8];
        for (unsigned i = 0; i < 8; i++)
            r[i] = LD(a, 8 * g + i);
        zeta16 z = ZETA_TOP(4 + g); /* level 3 */
        for (unsigned i = 0; i < 4; i++)
            FWD_BF(r[i], r[i + 4], z);
        for (unsigned h = 0; h < 2; h++) { /* level 4 */
            z = ZETA_TOP(8 + 2 * g + h);
            FWD_BF(r[4 * h], r[4 * h + 2], z);
            FWD_BF(r[4 * h + 1], r[4 * h + 3], z);
        }
        barrett8(r);
        for (unsigned h = 0; h < 4; h++) { /* level 5 */
            z = ZETA_TOP(16 + 4 * g + h);
            FWD_BF(r[2 * h], r[2 * h + 1], z);
        }
        transpose8(r);
        const int16_t(*zr)[8] = T16.rows[g], (*zrq)[8] = T16.rows_q[g];
        z = zeta_row(zr, zrq, 0); /* level 6 */
        for (unsigned i = 0; i < 4; i++)
            FWD_BF(r[i], r[i + 4], z);
        for (unsigned h = 0; h < 2; h++) { /* level 7 */
            z = zeta_row(zr, zrq, 1 + h);
            FWD_BF(r[4 * h], r[4 * h + 2], z);
            FWD_BF(r[4 * h + 1], r[4 * h + 3], z);
        }
        for (unsigned h = 0; h < 4; h++) { /* level 8 */
            z = zeta_row(zr, zrq, 3 + h);
            FWD_BF(r[2 * h], r[2 * h + 1], z);
        }
        for (unsigned i = 0; i < 8; i++)
            ST(a, 8 * g + i, r[i]);
    }
}

/* The level of distance 4 registers (level 6 on rows, level 3 on blocks)
 * with the reductions around it that keep the int16 sums in range: r[0]
 * and r[4] before it, the sums r[1], r[2], r[3] after it: five barrett16
 * (five vector instructions each) where reducing all eight before it took
 * eight.  The transform's result is the same: every intermediate form is
 * exact, and the final barrett16 returns the centred residue whatever its
 * input.
 *
 * Why that suffices.  mont16(a) <= |a| 3840 / 2^16 + 3841 in absolute value
 * (its first product is at most |a| |zeta| / 2^16, rounded up, |zeta| <=
 * 3840; its second in [-3841, 3840]): at most 5761 for any int16 a, and
 * <= 4513 / 4370 / 5186 / 4899 for |a| <= 11476 / 9026 / 22952 / 18052.
 * With every input of the two levels before at most M and their outputs
 * in registers 0..7 (level 8 or 5 pairs (2h, 2h + 1), level 7 or 4 pairs
 * (4h + i, 4h + i + 2)), the sums grow only along the first register of
 * each pair: r[0], r[4] <= 4M, r[1], r[5] <= 2 mont(2M), r[2], r[6] <=
 * mont(4M), r[3], r[7] <= mont(2 mont(2M)).
 *  - At level 6 (after levels 8 and 7 on the rows), M = 5738 (the
 *    pointwise products, this file's header): r[0], r[4] <= 22952 -> 3840
 *    reduced; then the sums r[0] <= 7680, r[1] <= 2 4513 + 2 4513 =
 *    18052, r[2] <= 2 5186 = 10372, r[3] <= 2 4370 = 8740 (all below
 *    32767) -> r[1..3] <= 3840; the differences r[4..7] <= mont(18052)
 *    <= 4899.  Out: <= 7680.
 *  - After the transpose every register's lanes are bounded by 7680: at
 *    level 3 (after levels 5 and 4) M = 7680 (and mont(2M) <= 4741,
 *    mont(4M) <= 5641, mont(2 4741) <= 4397): r[0], r[4] <= 30720 ->
 *    3840; the sums r[0] <= 7680, r[1] <= 2 (2 4741) = 18964, r[2] <=
 *    11282, r[3] <= 8794 -> r[1..3] <= 3840; r[4..7] <= mont(18964) <=
 *    4953.  Out: r[0] <= 7680, the others <= 4953, so inv16_column's sums
 *    of four stay <= 4 7680 = 30720 (its other values are mont16 outputs
 *    and their sums, <= 2 5761).
 * test_mldsa_ntt16 drives the sums to their maxima (constant input) and
 * checks random and extreme products against the exact ones. */
NTT16_FN void inv_reduce_half(V r[8], zeta16 z) {
    r[0] = barrett16(r[0]);
    r[4] = barrett16(r[4]);
    for (unsigned i = 0; i < 4; i++)
        INV_BF(r[i], r[i + 4], z);
    for (unsigned i = 1; i < 4; i++)
        r[i] = barrett16(r[i]);
}

/* The inverse transform of s o m 2^-16 (the pointwise Montgomery product
 * with the prepared multiplier) without its final scaling (folded into m),
 * for one half (or both), in two parts: inv16_groups leaves levels 2 and 1
 * to inv16_column, which returns the centred results of vectors j, j + 8,
 * j + 16 and j + 24 (j < 8) for the caller to store.  Together:
 * 256 NTT^-1(s o m 2^-16) in [-(p - 1) / 2, (p - 1) / 2]. */
NTT16_FN void inv16_groups(int16_t *out, const int16_t *s, const int16_t *m, const int16_t *mq) {
    for (unsigned g = 0; g < 4; g++) {
        V r[8];
        for (unsigned i = 0; i < 8; i++) {
            unsigned j = 8 * g + i;
            r[i] = mont16(LD(s, j), LD(m, j), LD(mq, j));
        }
        const int16_t(*zr)[8] = T16.inv_rows[g], (*zrq)[8] = T16.inv_rows_q[g];
        zeta16 z;
        for (unsigned h = 0; h < 4; h++) { /* level 8 */
            z = zeta_row(zr, zrq, 3 + h);
            INV_BF(r[2 * h], r[2 * h + 1], z);
        }
        for (unsigned h = 0; h < 2; h++) { /* level 7 */
            z = zeta_row(zr, zrq, 1 + h);
            INV_BF(r[4 * h], r[4 * h + 2], z);
            INV_BF(r[4 * h + 1], r[4 * h + 3], z);
        }
        /* level 6, with five reductions (inv_reduce_half) */
        inv_reduce_half(r, zeta_row(zr, zrq, 0));
        transpose8(r);
        for (unsigned h = 0; h < 4; h++) { /* level 5 */
            z = ZETA_INV_TOP(16 + 4 * g + h);
            INV_BF(r[2 * h], r[2 * h + 1], z);
        }
        for (unsigned h = 0; h < 2; h++) { /* level 4 */
            z = ZETA_INV_TOP(8 + 2 * g + h);
            INV_BF(r[4 * h], r[4 * h + 2], z);
            INV_BF(r[4 * h + 1], r[4 * h + 3], z);
        }
        inv_reduce_half(r, ZETA_INV_TOP(4 + g)); /* level 3 */
        for (unsigned i = 0; i < 8; i++)
            ST(out, 8 * g + i, r[i]);
    }
}

NTT16_FN void inv16_column(V x[4], const int16_t *out, unsigned j) {
    const zeta16 z1 = ZETA_INV_TOP(1);
    const zeta16 z2 = ZETA_INV_TOP(2);
    const zeta16 z3 = ZETA_INV_TOP(3);
    for (unsigned g = 0; g < 4; g++)
        x[g] = LD(out, j + 8 * g);
    INV_BF(x[0], x[1], z2); /* level 2 */
    INV_BF(x[2], x[3], z3);
    INV_BF(x[0], x[2], z1); /* level 1 */
    INV_BF(x[1], x[3], z1);
    for (unsigned g = 0; g < 4; g++)
        x[g] = barrett16(x[g]);
}

/* m = NTT16(c) (already in c_hat) times 2^16 / 256 mod p (|m| <= 4625):
 * the Montgomery product with 2^32 / 256 mod p = 1912; and mq = m p^-1
 * mod 2^16; n vectors. */
NTT16_FN void prepare16_body(int16_t *m, int16_t *mq, const int16_t *c_hat, unsigned n) {
    const V f = V_DUP(1912), fq = V_DUP((int16_t)(uint16_t)(1912u * PINV16));
    for (unsigned j = 0; j < n; j++) {
        V v = mont16(LD(c_hat, j), f, fq);
        ST(m, j, v);
        ST(mq, j, (V)((VU)v * (VU)V_DUP((int16_t)(uint16_t)PINV16)));
    }
}

#undef P16
#undef PINV16
#undef T16
#undef LD
#undef ST

#endif
