/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Four independent SHAKE128 or SHAKE256 instances computed together, for
 * ML-DSA's samplers (FIPS 204: ExpandA hashes k * l seeds of equal length
 * with SHAKE128, ExpandS and ExpandMask several with SHAKE256).  The
 * absorb_once functions take four inputs of one length; the per-instance
 * functions below let each instance run its own sponge.  Each output stream
 * is exactly the one the scalar quill_shake128 / quill_shake256 (sha3.h)
 * gives for its input.
 *
 * The four states are interleaved lane by lane, so that one vector register
 * holds the same lane of all four: s[4 * i + j] is lane i of instance j.
 * quill_keccak_f1600_x4 permutes all four, with AVX-512VL or AVX2 when the
 * CPU has them, on aarch64 two states at a time with NEON assembly (with
 * the SHA-3 instructions where the CPU has them; without them three states
 * at once, two in NEON and one in general registers), and otherwise with
 * portable 128-bit vector code, two states at a time (keccak.h names the
 * backends).  Even the portable path costs
 * less per state than a scalar permutation (Zen 4, SSE2, 2026-12-03: ~2400
 * TSC ticks for the four, ~1180 for a pair, against ~770 for one scalar
 * permutation), so a caller with four independent streams gains from it
 * on any CPU, with three it about breaks even, and with two it gains by
 * permuting only the first pair (quill_keccak_x4.n).
 *
 * A context is plain memory; zeroise it (quill_keccak_x4_zeroize) when it
 * has absorbed a secret (ExpandS and ExpandMask seeds).  Functions do not
 * fail; nothing branches on or indexes by the data. */
#ifndef QUILL_SHA3_SHA3_X4_H
#define QUILL_SHA3_SHA3_X4_H

#include <stddef.h>
#include <stdint.h>

#include "sha3/sha3.h"

typedef struct quill_keccak_x4 {
    _Alignas(32) uint64_t s[100]; /* s[4 * i + j]: lane i of instance j */
    unsigned rate;                 /* bytes per block */
    /* Instances whose output is used, 2 to 4 (absorb_once sets 4).  A
     * caller with two streams sets 2 after absorb_once: the portable path
     * then permutes only states 0 and 1 (two states cost about 1.35 scalar
     * permutations there), and the output of instances 2 and 3 is garbage. */
    unsigned n;
} quill_keccak_x4;

/* quill_keccak_f1600_x4 applies Keccak-f[1600] to each of the four
 * interleaved states in place; quill_keccak_f1600_x4_some to at least the
 * first n (the vector backends always permute all four). */
void quill_keccak_f1600_x4(uint64_t s[100]);
void quill_keccak_f1600_x4_some(uint64_t s[100], unsigned n);

/* quill_shake128_x4_absorb_once / quill_shake256_x4_absorb_once start four
 * SHAKE instances on in0..in3 (|len| bytes each, any length) and pad them:
 * the context is then ready for quill_keccak_x4_squeeze_blocks. */
void quill_shake128_x4_absorb_once(quill_keccak_x4 *k, const uint8_t *in0, const uint8_t *in1,
                                   const uint8_t *in2, const uint8_t *in3, size_t len);
void quill_shake256_x4_absorb_once(quill_keccak_x4 *k, const uint8_t *in0, const uint8_t *in1,
                                   const uint8_t *in2, const uint8_t *in3, size_t len);

/* quill_keccak_x4_squeeze_blocks writes the next nblocks * rate bytes of
 * each instance's output stream to out0..out3 (rate: QUILL_SHAKE128_RATE or
 * QUILL_SHAKE256_RATE); calls continue the streams. */
void quill_keccak_x4_squeeze_blocks(quill_keccak_x4 *k, uint8_t *out0, uint8_t *out1,
                                    uint8_t *out2, uint8_t *out3, size_t nblocks);

/* quill_keccak_f1600_x4_wide returns 1 if the four-way permutation runs
 * the four states at about the cost of one (the AVX2 and AVX-512VL
 * backends), 0 if it costs about three single ones (portable: see above)
 * or two (aarch64: two calls of the two-way NEON permutation, each about
 * one single permutation's time with the SHA-3 instructions by llvm-mca's
 * apple-m1 model, and 1.34x one portable single without them by its
 * neoverse-n1 model).  A caller with a serial hash and parallel work puts the hash in an
 * instance of its own only in the first case. */
int quill_keccak_f1600_x4_wide(void);

/* One instance at a time, for callers that run unrelated sponges in the
 * four instances (core/mldsa/mask.h keeps ExpandMask streams and another
 * SHAKE256 going, each at its own point): j is the instance, 0..3; byte b
 * of an instance's state is byte b mod 8 of its lane b / 8, as in sha3.c.
 *   quill_keccak_x4_inst_start   makes instance j a new sponge that has
 *                                taken in[0..len) (len <= rate), with
 *                                SHAKE's padding if len < rate, not yet
 *                                permuted;
 *   quill_keccak_x4_inst_absorb  xors in[0..len) (len <= rate) into
 *                                instance j as its next block, with
 *                                SHAKE's padding if len < rate (the last
 *                                block);
 *   quill_keccak_x4_read_block   copies bytes 0..rate (k->rate) of each
 *                                instance j to out[j], without permuting;
 *   quill_keccak_x4_inst_sponge  makes *out instance j's sponge as it
 *                                stands after an output block was read
 *                                from it: quill_keccak_squeeze on *out
 *                                continues the stream with the next block. */
void quill_keccak_x4_inst_start(quill_keccak_x4 *k, unsigned j, const uint8_t *in, size_t len,
                                unsigned rate);
void quill_keccak_x4_inst_absorb(quill_keccak_x4 *k, unsigned j, const uint8_t *in,
                                 size_t len, unsigned rate);
void quill_keccak_x4_read_block(const quill_keccak_x4 *k, uint8_t *const out[4]);
void quill_keccak_x4_inst_sponge(const quill_keccak_x4 *k, unsigned j, unsigned rate,
                                 quill_keccak *out);

/* quill_keccak_x4_zeroize wipes the four states. */
void quill_keccak_x4_zeroize(quill_keccak_x4 *k);

#endif
