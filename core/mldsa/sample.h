/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The samplers of FIPS 204, section 7.3: ExpandA (RejNTTPoly, Algorithms 30
 * and 32), ExpandS (RejBoundedPoly, Algorithms 31 and 33), ExpandMask
 * (Algorithm 34) and SampleInBall (Algorithm 29).
 *
 * Timing: ExpandA reads only the public rho.  ExpandS and SampleInBall
 * (while signing) reject samples drawn from a secret stream; which samples
 * were rejected is declassified (QUILL_CT_DECLASSIFY) one decision at a
 * time: a rejected sample is discarded and independent of every kept one,
 * so the pattern reveals nothing about the output beyond the count of
 * SHAKE blocks drawn.  Kept values are computed and stored without a branch
 * or index on their value (the position written is the public count).
 *
 * Speed: ExpandA and ExpandS draw up to four SHAKE streams at once
 * (core/sha3/sha3_x4.h: AVX2, or the portable two-way code) and parse them
 * with AVX2 + BMI2 twins where the CPU has both (sample.c chooses); every
 * path gives FIPS 204's output (test_mldsa_arith compares the parsers with
 * a reference, the vector suite runs natively and with every CPU feature
 * masked, test_mldsa_wycheproof{,_nohw}).  Signing draws ExpandMask's
 * streams on the four lanes too (mask.h).
 *
 * Files: sample.c (ExpandA, ExpandS, ExpandMask: the streams and the
 * choice of parser), sample_rej_ntt.c and sample_rej_eta.c (the parsers),
 * sample_ball.c (SampleInBall). */
#ifndef QUILL_MLDSA_SAMPLE_H
#define QUILL_MLDSA_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "ntt.h"
#include "params.h"
#include "poly.h"
#include "sha3/sha3.h"

/* quill_mldsa_expand_a writes the k x l matrix A-hat (row-major: entry
 * (r, s) at a[r * l + s]) from rho, coefficients in [0, q).  Public. */
void quill_mldsa_expand_a(quill_mldsa_poly *a, const uint8_t rho[32], const quill_mldsa_params *p);

/* quill_mldsa_rej_ntt_fn is the type of the RejNTTPoly parsers below;
 * quill_mldsa_rej_ntt_pick returns the one this CPU runs (the AVX2 twin or
 * the portable parser), and quill_mldsa_rej_ntt_order moves values
 * sampled in natural order to the NTT order of quill's polynomials (what
 * ExpandA stores): the chunks of 64 from first on (0 <= first <= 4), those
 * before it having been written in place by quill_mldsa_rej_ntt_chunks.
 * For samplers that run RejNTTPoly streams of their own (keygen_lanes.c). */
typedef unsigned (*quill_mldsa_rej_ntt_fn)(int32_t c[QUILL_MLDSA_N], unsigned n,
                                           const uint8_t *buf, size_t len);
quill_mldsa_rej_ntt_fn quill_mldsa_rej_ntt_pick(void);
void quill_mldsa_rej_ntt_order(quill_mldsa_poly *a, const int32_t c[QUILL_MLDSA_N],
                               unsigned first);

/* The bytes of a chunk of 64 candidates, and how far into buf
 * quill_mldsa_rej_ntt_chunks may read for chunk g: the chunk and 8 bytes
 * past it (the vector twin loads 32 bytes for each group of 24). */
#define QUILL_MLDSA_REJ_CHUNK_BYTES 192u
#define QUILL_MLDSA_REJ_CHUNK_READ(g) (QUILL_MLDSA_REJ_CHUNK_BYTES * ((size_t)(g) + 1) + 8)

/* quill_mldsa_rej_ntt_chunks starts RejNTTPoly (FIPS 204, Algorithm 30)
 * with the values written straight in quill's NTT order, in whole chunks
 * of 64: for g = 0, 1, ... while g < 4, QUILL_MLDSA_REJ_CHUNK_READ(g) <=
 * len and the 64 candidates of buf[192 g .. 192 g + 192) are all below q
 * (each candidate's top bit dropped), it sets a[QUILL_MLDSA_NTT_POS(64 g +
 * i)] = candidate i for i < 64; returns g, the number of chunks written:
 * the polynomial's first 64 g values, from buf's first 192 g bytes (the
 * parser above continues from there with n = 64 g into a staging array,
 * and quill_mldsa_rej_ntt_order(a, c, g) finishes).  Nothing of a chunk
 * with a rejection is written.  About 94% of chunks have none.  Public
 * data: variable time.  quill_mldsa_rej_ntt_chunks_c is the portable form,
 * quill_mldsa_rej_ntt_chunks_avx2 the AVX2 twin (same output, usable when
 * quill_mldsa_avx2_capable()); quill_mldsa_rej_ntt_chunks dispatches. */
unsigned quill_mldsa_rej_ntt_chunks(quill_mldsa_poly *a, const uint8_t *buf, size_t len);
unsigned quill_mldsa_rej_ntt_chunks_c(int32_t a[QUILL_MLDSA_N], const uint8_t *buf, size_t len);
#if QUILL_MLDSA_HAVE_AVX2
unsigned quill_mldsa_rej_ntt_chunks_avx2(int32_t a[QUILL_MLDSA_N], const uint8_t *buf,
                                         size_t len);
#endif

/* quill_mldsa_rej_eta_fn is the type of the RejBoundedPoly parsers below;
 * quill_mldsa_rej_eta_pick returns the one this CPU runs, for samplers
 * that run ExpandS's streams themselves (keygen_lanes.c). */
typedef unsigned (*quill_mldsa_rej_eta_fn)(int32_t a[QUILL_MLDSA_N], unsigned n,
                                           const uint8_t *buf, size_t len, unsigned eta);
quill_mldsa_rej_eta_fn quill_mldsa_rej_eta_pick(void);

/* quill_mldsa_expand_s writes s1 (l polynomials) and s2 (k) from rho'
 * (secret), coefficients in [-eta, eta]. */
void quill_mldsa_expand_s(quill_mldsa_poly *s1, quill_mldsa_poly *s2,
                          const uint8_t rhop[QUILL_MLDSA_CRH_BYTES], const quill_mldsa_params *p);

/* quill_mldsa_rej_ntt_c continues RejNTTPoly (FIPS 204, Algorithm 30) in
 * natural order: with c[0..n) already sampled (n <= 256), it takes the
 * 3-byte candidates of buf[0..len) in order (len a multiple of 3), keeps
 * those below q (top bit of each third byte dropped) and stops when c is
 * full; returns the new count.  It may write c[n..255] beyond the returned
 * count, never past c[255].  Public data: variable time.
 * quill_mldsa_rej_ntt_avx2 is the AVX2 + BMI2 twin (same output), usable
 * when quill_mldsa_rej_ntt_avx2_capable(). */
unsigned quill_mldsa_rej_ntt_c(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len);
int quill_mldsa_rej_ntt_avx2_capable(void);
int quill_mldsa_rej_ntt_avx512vl_capable(void);
#if QUILL_MLDSA_HAVE_AVX2
unsigned quill_mldsa_rej_ntt_avx2(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                                  size_t len);
/* quill_mldsa_rej_ntt_avx512vl is the AVX-512VL + AVX2 + BMI2 twin (same
 * output), usable when quill_mldsa_rej_ntt_avx512vl_capable(). */
unsigned quill_mldsa_rej_ntt_avx512vl(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                                      size_t len);
#endif

/* quill_mldsa_rej_ntt_order_c is quill_mldsa_rej_ntt_order's portable
 * body (a[QUILL_MLDSA_NTT_POS(i)] = c[i] for 64 first <= i < 256; a and c
 * do not overlap); quill_mldsa_rej_ntt_order_avx2 its AVX2 twin (same
 * output), usable when quill_mldsa_avx2_capable().  Public data. */
void quill_mldsa_rej_ntt_order_c(int32_t a[QUILL_MLDSA_N], const int32_t c[QUILL_MLDSA_N],
                                 unsigned first);
#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_rej_ntt_order_avx2(int32_t a[QUILL_MLDSA_N], const int32_t c[QUILL_MLDSA_N],
                                    unsigned first);
#endif

/* quill_mldsa_rej_eta_c continues RejBoundedPoly (FIPS 204, Algorithm 31)
 * for eta = 2 or 4: with a[0..n) already sampled (n <= 256), it takes the
 * half-byte candidates of buf[0..len) in order (low half first), appends
 * the accepted ones as coefficients in [-eta, eta], and stops when a is
 * full; returns the new count.  It may write a[n..255] beyond the returned
 * count, never past a[255].  Constant time in the values; the accept
 * decisions are declassified (see above).  quill_mldsa_rej_eta_avx2 is the
 * AVX2 + BMI2 twin (same output), usable when
 * quill_mldsa_rej_eta_avx2_capable(). */
unsigned quill_mldsa_rej_eta_c(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len, unsigned eta);
int quill_mldsa_rej_eta_avx2_capable(void);
int quill_mldsa_rej_eta_avx512vl_capable(void);
#if QUILL_MLDSA_HAVE_AVX2
unsigned quill_mldsa_rej_eta_avx2(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                                  size_t len, unsigned eta);
/* quill_mldsa_rej_eta_avx512vl is the AVX-512VL + AVX2 + BMI2 twin (same
 * output, same declassified bits), usable when
 * quill_mldsa_rej_eta_avx512vl_capable(). */
unsigned quill_mldsa_rej_eta_avx512vl(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                                      size_t len, unsigned eta);
#endif

/* quill_mldsa_expand_mask writes y[j] (j < n) = polynomial first + j of
 * ExpandMask's stream for rho'' (ExpandMask(rho'', kappa) is polynomials
 * kappa .. kappa + l - 1), coefficients in [-gamma1 + 1, gamma1].  Secret
 * in, secret out; constant time.  first + n <= 2^16.  The reference form,
 * one stream at a time; signing uses mask.h. */
void quill_mldsa_expand_mask(quill_mldsa_poly *y, const uint8_t rhopp[QUILL_MLDSA_CRH_BYTES],
                             unsigned first, unsigned n, const quill_mldsa_params *p);

/* quill_mldsa_sample_in_ball writes c = SampleInBall(c~) (tau coefficients
 * +-1, the rest 0), with the Fisher-Yates swaps followed as the positions
 * of the tau entries and applied by masked passes over small vectors, so
 * that positions stay secret: the signer's c~ of a rejected iteration is
 * never published.  Only the rejection of bytes
 * above the current bound is declassified (see above). */
void quill_mldsa_sample_in_ball(quill_mldsa_poly *c, const uint8_t *ctilde,
                                const quill_mldsa_params *p);
/* quill_mldsa_sample_in_ball_block is the same from the first SHAKE256
 * block of c~ (block) and the sponge that made it, positioned after that
 * block (k, squeezed further in the rare case more bytes are needed; the
 * caller wipes it). */
void quill_mldsa_sample_in_ball_block(quill_mldsa_poly *c, const uint8_t *block,
                                      quill_keccak *k, const quill_mldsa_params *p);
/* quill_mldsa_sample_in_ball_block_i8 is the same with c as bytes (signing
 * feeds them to quill_mldsa_mulc16_prepare_i8: no int32 form in between). */
void quill_mldsa_sample_in_ball_block_i8(int8_t c[QUILL_MLDSA_N], const uint8_t *block,
                                         quill_keccak *k, const quill_mldsa_params *p);

/* quill_mldsa_sample_in_ball_public is the same function in variable time,
 * for verification (c~ is part of the signature). */
void quill_mldsa_sample_in_ball_public(quill_mldsa_poly *c, const uint8_t *ctilde,
                                       const quill_mldsa_params *p);
/* quill_mldsa_sample_in_ball_block_public is the same from the first
 * SHAKE256 block of c~ and the sponge positioned after it (as
 * quill_mldsa_sample_in_ball_block, in variable time). */
void quill_mldsa_sample_in_ball_block_public(quill_mldsa_poly *c, const uint8_t *block,
                                             quill_keccak *k, const quill_mldsa_params *p);

#endif
