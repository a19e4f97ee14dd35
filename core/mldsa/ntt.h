/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The number-theoretic transform over Z_q[X]/(X^256 + 1) (FIPS 204,
 * Algorithms 41 and 42), the backend interface for polynomial arithmetic:
 * each function has a portable body (_c, always built) and, on x86-64
 * unless QUILL_NO_ASM, _avx2 and _avx512vl twins (ntt_avx2.c, intrinsics)
 * chosen at each call when quill_mldsa_avx2_capable() (or
 * quill_mldsa_avx512vl_capable()) by the dispatch in ntt.c, and on
 * aarch64 a _neon twin (asm/aarch64/mldsa_ntt_neon.S) chosen when
 * quill_mldsa_neon_capable(); the portable
 * bodies are in ntt_c.c, the zeta tables in ntt_zetas.c.  Tests compare
 * the backends bit for bit.  All constant time (no branch or index on
 * values).
 *
 * Domains: quill_mldsa_ntt maps a polynomial to its NTT; the pointwise
 * product of two NTTs in Montgomery form (a * b * 2^-32) sent through
 * quill_mldsa_invntt_tomont (which multiplies by 2^32) gives the plain
 * product.  NTT-domain order: FIPS 204's bit-reversed NTT vector entry i is
 * stored at QUILL_MLDSA_NTT_POS(i) (8 x 8 transposes, see ntt_c.c); only
 * ExpandA, which samples directly in the NTT domain, needs to know. */
#ifndef QUILL_MLDSA_NTT_H
#define QUILL_MLDSA_NTT_H

#include <stdint.h>

#include "params.h"

#if !defined(QUILL_NO_ASM) && (defined(__x86_64__) || defined(_M_X64))
#define QUILL_MLDSA_HAVE_AVX2 1
#else
#define QUILL_MLDSA_HAVE_AVX2 0
#endif
/* The NEON backend (asm/aarch64/mldsa_ntt_neon.S) on aarch64 ELF unless
 * QUILL_NO_ASM. */
#if !defined(QUILL_NO_ASM) && defined(__aarch64__) && defined(__ELF__)
#define QUILL_MLDSA_HAVE_NEON 1
#else
#define QUILL_MLDSA_HAVE_NEON 0
#endif

/* Constants both backends' transforms use (ntt_c.c, ntt_avx2.c; checked by
 * test_mldsa_arith):
 *   QUILL_MLDSA_INVNTT_F     2^64 / 256 mod q: undoes the 256 of the
 *                            transform and leaves one factor 2^32 (the
 *                            "tomont" of quill_mldsa_invntt_tomont) after a
 *                            Montgomery multiplication;
 *   QUILL_MLDSA_INVNTT_F_Z1  -zetas[1] INVNTT_F 2^-32 mod q: the inverse
 *                            transform's last zeta with that factor folded
 *                            in, so that the differences of its last level
 *                            take one product, not two;
 *   QUILL_MLDSA_MONT_BIAS    256 q, added to an input of the unsigned
 *                            Montgomery product by a zeta to make it
 *                            non-negative (ntt_c.c, mont_zeta_v4). */
#define QUILL_MLDSA_INVNTT_F 41978
#define QUILL_MLDSA_INVNTT_F_Z1 3975713
#define QUILL_MLDSA_MONT_BIAS (256 * QUILL_MLDSA_Q)

/* FIPS 204 NTT index i (0..255) -> storage position. */
#define QUILL_MLDSA_NTT_POS(i) (((i) & ~63u) | (((i) & 7u) << 3) | (((i) >> 3) & 7u))

/* quill_mldsa_zetas[i] = 1753^brv8(i) * 2^32 mod± q for i = 1..255 (1753 is
 * FIPS 204's primitive 512th root of unity zeta), [0] = 0;
 * quill_mldsa_zetas_rows / _inv_rows the entries of the last three levels
 * arranged per block, for the forward and (negated) inverse transforms
 * (ntt_c.c).  Both in ntt_zetas.c, made from the lists of ntt_zetas.h,
 * and recomputed by test_mldsa_arith. */
extern const int32_t quill_mldsa_zetas[QUILL_MLDSA_N];
extern const int32_t quill_mldsa_zetas_rows[7][32];
extern const int32_t quill_mldsa_zetas_inv_rows[7][32];

/* quill_mldsa_zeta_rows_mult: a table of rows as the AVX2 and AVX-512VL
 * backends multiply by them (ntt_avx2.c's row_mult), so that a vector of
 * zetas costs three loads and no ALU work: res the rows flattened (row r,
 * block b at 32 r + b) as residues in [0, q), eight zero entries after the
 * last row (a load at res + 32 r + b + 1 moves the odd lanes to the even
 * ones and may read one entry past row 6); qinv[r][b] = res[32 r + b]
 * q^-1 mod 2^32.  quill_mldsa_zetas_rows_mult from quill_mldsa_zetas_rows,
 * _inv_rows_mult from _inv_rows (ntt_zetas.c, compile-time constants;
 * test_mldsa_arith checks them). */
typedef struct {
    int32_t res[7 * 32 + 8];
    int32_t qinv[7][32];
} quill_mldsa_zeta_rows_mult;
extern const quill_mldsa_zeta_rows_mult quill_mldsa_zetas_rows_mult;
extern const quill_mldsa_zeta_rows_mult quill_mldsa_zetas_inv_rows_mult;

/* quill_mldsa_zetas_top_mult: the single zetas of levels 1-5
 * (quill_mldsa_zetas[0..31]) the same way: fwd_res[k] = zetas[k] mod q in
 * [0, q), inv_res[k] = -zetas[k] mod q in [0, q), and their products by
 * q^-1 mod 2^32 (ntt_zetas.c; test_mldsa_arith checks them). */
typedef struct {
    int32_t fwd_res[32], fwd_qinv[32], inv_res[32], inv_qinv[32];
} quill_mldsa_zeta_top_mult;
extern const quill_mldsa_zeta_top_mult quill_mldsa_zetas_top_mult;

/* quill_mldsa_ntt transforms a in place.  In: |a_i| < B with B + 8q < 2^31
 * (callers use B <= 2^23).  Out: |a_i| < B + 8q (so < 9q for B <= q). */
void quill_mldsa_ntt(int32_t a[QUILL_MLDSA_N]);

/* quill_mldsa_ntt_from sets out = NTT(in) (quill_mldsa_ntt's bounds); out
 * may be in.  The x86-64 backends read in in their first pass, saving the
 * copy; the others copy, then transform in place. */
void quill_mldsa_ntt_from(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);

/* quill_mldsa_ntt_lazy_from sets out congruent modulo q to
 * quill_mldsa_ntt_from(in), coefficient by coefficient (same order), with
 * the zeta products in Shoup's form: for a zeta w = zetas[k] 2^-32 mod q in
 * [0, q) and w' = floor(w 2^32 / q), an unsigned A < 2^32 (the value held
 * biased by 256 q, as in the forward transform) gives r = A w - h q with
 * h = floor(A w' / 2^32), computed modulo 2^32, in [0, 2q) (A w' / 2^32 >
 * A w / q - A / 2^32 - ... so A w / q - h < 2): seven or eight vector
 * instructions per eight products where the Montgomery form takes ten or
 * eleven.  Its products are one-sided, so a level grows coefficients by up
 * to 2q.  The first level multiplies the (small) inputs exactly instead,
 * by the zeta's centred residue QUILL_MLDSA_LAZY_W1 (one vpmulld; |w in| <=
 * 4 (q - 1) / 2).  In: |in_i| <= 4 (s1: eta <= 4).  Out: |out_i| < 4 + 2q +
 * 14q < 17q (what quill_mldsa_dot_mont takes).  Key generation's NTT(s1),
 * whose values are only ever multiplied (dot_mont) and reduced.  out may
 * be in.  _c is the portable form, which
 * the AVX2 and AVX-512VL twins match bit for bit (the same butterflies
 * with the same exact products; test_mldsa_arith); elsewhere (portable,
 * NEON) the dispatcher runs quill_mldsa_ntt_from, whose outputs meet the
 * same contract. */
#define QUILL_MLDSA_LAZY_W1 (-3572223) /* zetas[1] 2^-32 mod q = 4808194, minus q */
void quill_mldsa_ntt_lazy_from(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);
void quill_mldsa_ntt_lazy_from_c(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);

/* The Shoup constants of quill_mldsa_ntt_lazy_from in the layouts above
 * (ntt_zetas.c, compile-time constants; test_mldsa_arith checks them):
 * quill_mldsa_zetas_top_shoup's fwd_res[k] = w' and fwd_qinv[k] = w for
 * quill_mldsa_zetas[k]; quill_mldsa_zetas_rows_shoup's res = w' and
 * qinv = w for quill_mldsa_zetas_rows (res padded with eight zeros as
 * there).  The x86-64 backends' quill_mldsa_invntt_power2round takes
 * Shoup's products in the signed form: w centred into (-q/2, q/2) and
 * w' = floor(w 2^32 / q) as signed values, in top_shoup's inv_ fields (for
 * -zetas[k]) and _inv_rows_shoup (for quill_mldsa_zetas_inv_rows); for
 * |d| < 2^31, d w - floor(d w' / 2^32) q is in [-q, 2q).  Public. */
extern const quill_mldsa_zeta_top_mult quill_mldsa_zetas_top_shoup;
extern const quill_mldsa_zeta_rows_mult quill_mldsa_zetas_rows_shoup;
extern const quill_mldsa_zeta_rows_mult quill_mldsa_zetas_inv_rows_shoup;

/* quill_mldsa_invntt_tomont computes 2^32 * NTT^-1(a) mod q in place.
 * In: |a_i| < q.  Out: |a_i| < q. */
void quill_mldsa_invntt_tomont(int32_t a[QUILL_MLDSA_N]);

/* quill_mldsa_pointwise_mont sets c_i = a_i b_i 2^-32 mod q.
 * In: |a_i b_i| < 2^31 q.  Out: |c_i| < q. */
void quill_mldsa_pointwise_mont(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                const int32_t b[QUILL_MLDSA_N]);

/* quill_mldsa_invntt_tomont_freeze is quill_mldsa_invntt_tomont followed by
 * freeze: out in [0, q).  In: |a_i| < q. */
void quill_mldsa_invntt_tomont_freeze(int32_t a[QUILL_MLDSA_N]);

/* quill_mldsa_invntt_freeze_highbits is quill_mldsa_invntt_tomont_freeze
 * on a, then w1 = HighBits(a) (rounding.h's quill_mldsa_poly_highbits,
 * gamma2 = (q - 1) / 88 or (q - 1) / 32): verification's w'Approx and its
 * high bits.  The x86-64 backends make w1 in the transform's last pass,
 * from the values they store; the others run the two in turn. */
void quill_mldsa_invntt_freeze_highbits(int32_t a[QUILL_MLDSA_N], int32_t w1[QUILL_MLDSA_N],
                                        int32_t gamma2);

/* quill_mldsa_invntt_power2round ends a row of key generation's t (FIPS
 * 204, Algorithm 6, lines 5 and 6): with t = 2^32 NTT^-1(a) + s2 mod q in
 * [0, q), it sets (t1, a) = Power2Round(t) (rounding.h), t0 in place of a.
 * In: |a_i| < q (a dot_mont output), |s2_i| < q (s2 is secret, as are a
 * and t0; t1 is left to the caller to declassify).  The x86-64 backends
 * do the addition, the reduction and Power2Round in the inverse
 * transform's last pass; the others run quill_mldsa_invntt_tomont, then
 * one loop.  quill_mldsa_invntt_power2round_c is the portable form. */
void quill_mldsa_invntt_power2round(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                    const int32_t s2[QUILL_MLDSA_N]);
void quill_mldsa_invntt_power2round_c(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                      const int32_t s2[QUILL_MLDSA_N]);

/* quill_mldsa_dot_mont sets r = S 2^-32 mod q in (-q, q) for the exact
 * sum S = sum_{j < n} a_j o b_j, a_j = a + 256 j, b_j = b + 256 j
 * (consecutive polynomials): one Montgomery reduction per coefficient (the
 * value of quill_mldsa_mont_reduce(S)), congruent to the sum of n
 * pointwise_mont products.  In: 1 <= n <= 8, 0 <= a_j,i < q (A-hat),
 * |b_j,i| < 17q (an NTT output, quill_mldsa_ntt_lazy_from's included), so
 * |S| < 136 q^2 < 2^31 q.
 * Out: (-q, q). */
void quill_mldsa_dot_mont(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b, unsigned n);

/* quill_mldsa_dot_mont_x2 is quill_mldsa_dot_mont twice on the same b,
 * r0 = a0 . b and r1 = a1 . b (the same values): the x86-64 backends load
 * each vector of b once for both (two rows of A-hat o NTT(y) in signing).
 * In: as quill_mldsa_dot_mont. */
void quill_mldsa_dot_mont_x2(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                             const int32_t *a0, const int32_t *a1, const int32_t *b, unsigned n);

/* quill_mldsa_dot_mont_x2_tail is quill_mldsa_dot_mont_x2 on n + 1 pairs
 * whose last a-side polynomials are e0 and e1, wherever they are:
 * r0 = a0 . b + e0 o b_n and r1 = a1 . b + e1 o b_n, each sum reduced once
 * (verification: A-hat's row i, then NTT(-t1_i 2^d), against NTT(z) and
 * NTT(c), without a copy of A-hat beside NTT(t1)).  The x86-64 backends
 * run both rows in one pass; NEON copies each row and its tail to the
 * stack for quill_mldsa_dot_mont_neon; the rest run the portable body.
 * In: 1 <= n <= 7, e0 and e1 as a (in [0, q)), b as in dot_mont. */
void quill_mldsa_dot_mont_x2_tail(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                  const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                  const int32_t *e1, const int32_t *b, unsigned n);

/* The individual implementations (for tests and benchmarks). */
int quill_mldsa_avx2_capable(void);
void quill_mldsa_ntt_c(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_c(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_pointwise_mont_c(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                  const int32_t b[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_freeze_c(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_c(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                            unsigned n);
void quill_mldsa_dot_mont_x2_tail_c(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                    const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                    const int32_t *e1, const int32_t *b, unsigned n);
#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_ntt_avx2(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_ntt_from_avx2(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);
void quill_mldsa_ntt_lazy_from_avx2(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_x2_avx2(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                  const int32_t *a0, const int32_t *a1, const int32_t *b,
                                  unsigned n);
void quill_mldsa_dot_mont_x2_tail_avx2(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                       const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                       const int32_t *e1, const int32_t *b, unsigned n);
void quill_mldsa_invntt_tomont_avx2(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_pointwise_mont_avx2(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                     const int32_t b[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_freeze_avx2(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_invntt_freeze_highbits_avx2(int32_t a[QUILL_MLDSA_N], int32_t w1[QUILL_MLDSA_N],
                                             int32_t gamma2);
void quill_mldsa_invntt_power2round_avx2(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                         const int32_t s2[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_avx2(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                               unsigned n);
#endif

/* quill_mldsa_neon_capable: the NEON backend is built and the CPU has
 * Advanced SIMD (QUILL_CPU_ARM_NEON); 0 on other builds. */
int quill_mldsa_neon_capable(void);
#if QUILL_MLDSA_HAVE_NEON
/* The NEON twins (asm/aarch64/mldsa_ntt_neon.S), bit-identical to the _c
 * functions: the same butterflies on the same layout, the zeta products in
 * ntt_c.c's unsigned Montgomery form (UMULL/UMLSL), the pointwise product
 * in quill_mldsa_mont_mul's signed form (SQDMULH, SHSUB), the dot product
 * reduced once from its exact 64-bit sums (SMLAL).  Same bounds as above. */
void quill_mldsa_ntt_neon(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_neon(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_freeze_neon(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_pointwise_mont_neon(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                     const int32_t b[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_neon(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                               unsigned n);

/* The NEON backend's zetas (ntt_neon_tab.c): zp = z mod q in [0, q) and
 * zq = zp q^-1 mod 2^32 for quill_mldsa_zetas[0..31] (fwd_), their
 * negations (inv_), the rows of quill_mldsa_zetas_rows and _inv_rows, and
 * scale = {zp, zq} of INVNTT_F and of INVNTT_F_Z1. */
typedef struct {
    int32_t fwd_zp[32], fwd_zq[32];
    int32_t fwd_rows_zp[7][32], fwd_rows_zq[7][32];
    int32_t inv_zp[32], inv_zq[32];
    int32_t inv_rows_zp[7][32], inv_rows_zq[7][32];
    int32_t scale[4];
} quill_mldsa_neon_zeta_table;
extern const quill_mldsa_neon_zeta_table quill_mldsa_neon_zetas;
#endif

#if QUILL_MLDSA_HAVE_AVX2
/* The AVX-512VL twins (ntt_avx512vl.c), bit-identical to the above. */
int quill_mldsa_avx512vl_capable(void);
void quill_mldsa_ntt_avx512vl(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_ntt_from_avx512vl(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]);
void quill_mldsa_ntt_lazy_from_avx512vl(int32_t out[QUILL_MLDSA_N],
                                        const int32_t in[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_x2_avx512vl(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                      const int32_t *a0, const int32_t *a1, const int32_t *b,
                                      unsigned n);
void quill_mldsa_dot_mont_x2_tail_avx512vl(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                           const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                           const int32_t *e1, const int32_t *b, unsigned n);
void quill_mldsa_invntt_tomont_avx512vl(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_pointwise_mont_avx512vl(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                         const int32_t b[QUILL_MLDSA_N]);
void quill_mldsa_invntt_tomont_freeze_avx512vl(int32_t a[QUILL_MLDSA_N]);
void quill_mldsa_invntt_freeze_highbits_avx512vl(int32_t a[QUILL_MLDSA_N], int32_t w1[QUILL_MLDSA_N],
                                                 int32_t gamma2);
void quill_mldsa_invntt_power2round_avx512vl(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                             const int32_t s2[QUILL_MLDSA_N]);
void quill_mldsa_dot_mont_avx512vl(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                                   unsigned n);
#endif

#endif
