/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The challenge products of signing (c s1, c s2, c t0) in a 16-bit NTT
 * modulo the prime p = 7681 instead of q.
 *
 * Why: c has tau coefficients +-1 and the rest 0, s1 and s2 are at most
 * eta = 4 in absolute value, so every coefficient of c s1 and c s2 is at
 * most tau eta = beta <= 196, and of c t0 at most tau 2^12.  A product whose
 * coefficients are below p / 2 in absolute value is the same polynomial
 * mod p as over the integers, so it can be computed in any NTT whose prime
 * exceeds twice the bound; p = 7681 = 15 2^9 + 1 has the 512th roots of
 * unity a full negacyclic NTT of length 256 needs, and fits 16-bit lanes:
 * twice as many per vector as q's 32-bit lanes, with a one-instruction
 * high-half multiply (SSE2's pmulhw), where 32-bit lanes need unsigned
 * 32 x 32 -> 64-bit products on half the lanes and sign corrections.  The
 * idea is from the literature on small-polynomial products in ML-DSA
 * signing (e.g. Abdulrahman, Hwang, Kannwischer, Sprenkels, "Faster Kyber
 * and Dilithium on the Cortex-M4", ACNS 2022).
 *
 * t0 (|t0_i| <= 2^12) is too wide: it is split as t0 = lo + 2^6 hi with
 * lo in [-32, 32) and hi in [-64, 64], each product at most 60 2^6 = 3840
 * = (p - 1) / 2, and the two products recombined in 32 bits.
 *
 * Pairs: every product here is needed with a partner (c s1 with c s2 for
 * the first l rows, c lo with c hi), so the transforms work on pairs of
 * polynomials stored interleaved by 8 coefficients (quill_mldsa_pair16:
 * coefficients 8i..8i+7 of half h at c[16 i + 8 h]).  The portable code
 * runs on 8 lanes, one half after the other; the AVX2 code holds both
 * halves in one 256-bit vector, whose 128-bit lanes the shuffles keep
 * apart.  The NTT-domain order is internal (both factors of a product are
 * transformed by the same code); see ntt16.c.
 *
 * Secret: c (so m), every pair made from s1, s2 or t0, and every product.
 * Everything is constant time (no branch or index on values); the only
 * inline asm is an empty one on the public constant p, to keep a
 * multiplication by it a multiplication (ntt16_body.h); on aarch64 the
 * NEON assembly (asm/aarch64/mldsa_ntt16_neon.S) runs the same formulas on
 * both halves at once, like the AVX2 build. */
#ifndef QUILL_MLDSA_NTT16_H
#define QUILL_MLDSA_NTT16_H

#include <stdint.h>

#include "ntt.h"
#include "params.h"

#define QUILL_MLDSA_P16 7681
/* The split of t0 = lo + 2^QUILL_MLDSA_T0_SPLIT hi (above): the key's
 * precomputation makes the pairs with it and signing recombines with it. */
#define QUILL_MLDSA_T0_SPLIT 6

/* Two polynomials, interleaved by 8 coefficients (above). */
typedef struct quill_mldsa_pair16 {
    _Alignas(32) int16_t c[2 * QUILL_MLDSA_N];
} quill_mldsa_pair16;

/* A fixed NTT-domain multiplier (the challenge), in both halves, with the
 * inverse transform's scaling folded in, and its products with p^-1 mod
 * 2^16 for the Montgomery multiplications.  Secret when c is. */
typedef struct quill_mldsa_chal16 {
    _Alignas(32) int16_t m[2 * QUILL_MLDSA_N];
    _Alignas(32) int16_t mq[2 * QUILL_MLDSA_N];
} quill_mldsa_chal16;

/* quill_mldsa_pair16_set fills pair with a in the first half and b (or
 * zeros if b is NULL) in the second.  In: |a_i|, |b_i| <= 2^13. */
void quill_mldsa_pair16_set(quill_mldsa_pair16 *pair, const int32_t a[QUILL_MLDSA_N],
                            const int32_t b[QUILL_MLDSA_N]);

/* quill_mldsa_pair16_split fills pair with lo and hi, a = lo + 2^shift hi,
 * lo in [-2^(shift-1), 2^(shift-1)).  In: 1 <= shift <= 12,
 * |a_i| <= 2^(12 + shift) (hi must fit pair16_set's bound). */
void quill_mldsa_pair16_split(quill_mldsa_pair16 *pair, const int32_t a[QUILL_MLDSA_N],
                              unsigned shift);

/* quill_mldsa_ntt16 transforms both halves of pair in place (mod p, in
 * the internal order).  In: |a_i| <= 2^13 (pair16_set's output). */
void quill_mldsa_ntt16(quill_mldsa_pair16 *pair);

/* quill_mldsa_mulc16_prepare makes m from a plain c (|c_i| <= 1 suffices;
 * any |c_i| <= 2^13 works): both halves NTT(c) 2^16 / 256 mod p. */
void quill_mldsa_mulc16_prepare(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]);
/* quill_mldsa_mulc16_prepare_i8 is the same from c as bytes (signing's
 * challenge, quill_mldsa_sample_in_ball_block_i8): the AVX2 build widens
 * them straight into the pair; the others go through the int32 form. */
void quill_mldsa_mulc16_prepare_i8(quill_mldsa_chal16 *m, const int8_t c[QUILL_MLDSA_N]);

/* quill_mldsa_mulc16 sets out = c a + 2^shift c b for s_hat = NTT16 of the
 * pair (a, b): the two products, exact when every coefficient of c a and
 * c b lies in [-(p - 1) / 2, (p - 1) / 2], combined in 32 bits.  out is
 * also the workspace.  In: shift <= 16; |c a| and |c b| bounded as said;
 * the result must fit 32 bits. */
void quill_mldsa_mulc16(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                        const quill_mldsa_pair16 *s_hat, unsigned shift);

/* The zetas (ntt16.c; recomputed by test_mldsa_ntt16), each with its
 * product with p^-1 mod 2^16 (_q): zeta_m = 62^brv8(m) 2^16 mod p,
 * centred (62 is a primitive 512th root of unity mod p), by m = 1..31 for
 * levels 1-5 (top) and per group of 64 coefficients and lane for levels
 * 6-8 (rows: level 6, level 7 twice, level 8 four times); the inverse
 * transform's are the inverses zeta_m^-1 2^16 mod p. */
typedef struct quill_mldsa_ntt16_tables {
    int16_t top[32], top_q[32];
    int16_t rows[4][7][8], rows_q[4][7][8];
    int16_t inv_top[32], inv_top_q[32];
    int16_t inv_rows[4][7][8], inv_rows_q[4][7][8];
    /* top and inv_top with every entry repeated 8 times */
    int16_t top8[32][8], top8_q[32][8], inv_top8[32][8], inv_top8_q[32][8];
} quill_mldsa_ntt16_tables;
extern const quill_mldsa_ntt16_tables quill_mldsa_ntt16_tab;

/* The implementations, for tests and benchmarks. */
void quill_mldsa_ntt16_c(quill_mldsa_pair16 *pair);
void quill_mldsa_mulc16_prepare_c(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]);
void quill_mldsa_mulc16_c(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                          const quill_mldsa_pair16 *s_hat, unsigned shift);
#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_ntt16_avx2(quill_mldsa_pair16 *pair);
void quill_mldsa_mulc16_prepare_avx2(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]);
void quill_mldsa_mulc16_prepare_i8_avx2(quill_mldsa_chal16 *m, const int8_t c[QUILL_MLDSA_N]);
void quill_mldsa_mulc16_avx2(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                             const quill_mldsa_pair16 *s_hat, unsigned shift);
#endif
#if QUILL_MLDSA_HAVE_NEON
/* The NEON twins (asm/aarch64/mldsa_ntt16_neon.S), bit-identical to the _c
 * ones, chosen when quill_mldsa_neon_capable().  mulc16_prepare_neon uses
 * m->m as its workspace (no stack copy of c to clear). */
void quill_mldsa_ntt16_neon(quill_mldsa_pair16 *pair);
void quill_mldsa_mulc16_prepare_neon(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]);
void quill_mldsa_mulc16_neon(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                             const quill_mldsa_pair16 *s_hat, unsigned shift);
#endif

#endif
