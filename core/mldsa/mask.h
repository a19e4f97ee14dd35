/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Signing's SHAKE256 work on one four-way Keccak (sha3_x4.h): ExpandMask's
 * polynomials (FIPS 204, Algorithm 34) stream out of instances 1 to 3
 * while instance 0 hashes the attempt's other inputs, c~ =
 * H(mu || w1Encode(w1)) and SampleInBall's first block.  Those hashes are
 * serial (each needs the previous result), so alone they would leave three
 * instances idle; the next attempt's mask polynomials (independent of this
 * attempt's outcome) fill them.  ML-DSA-65 signing, per signature (5.24
 * attempts on average over 256 signatures counted; FIPS 204 expects 5.1):
 * about 54 four-way permutations, against 33 four-way plus 42 single ones
 * with the hashes on their own.
 *
 * That pays where the four-way permutation costs about one state's
 * (quill_keccak_f1600_x4_wide).  On the portable two-at-a-time code an
 * instance costs about 0.8 of a single permutation and idle instances cost
 * as much as busy ones, so there all four make mask polynomials and the
 * hashes run on the scalar sponge (2-3% faster than hashing in instance
 * 0 there, measured).
 *
 * Polynomial i is y_i = BitUnpack(SHAKE256(rho'' || IntegerToBytes(i, 2)),
 * so attempt kappa uses i = kappa .. kappa + l - 1.  An instance starts the
 * next polynomial whenever it is free and that polynomial lies in the
 * window [base, base + QUILL_MLDSA_MASK_RING), base being the first one
 * still in use (quill_mldsa_mask_release); each takes five permutations,
 * so they complete in the order they start (instance 0, where it hashes,
 * joins in for the current attempt's polynomials between hashes: mask.c,
 * step).  What the calls do depends
 * only on the public counters; every value is secret and stays in the
 * context, which the caller wipes (quill_mldsa_mask_wipe). */
#ifndef QUILL_MLDSA_MASK_H
#define QUILL_MLDSA_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "poly.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"

/* The window, a power of two.  More than l keeps an attempt's polynomials
 * from being overwritten while it uses them; 2 l and a little more lets the
 * instances run on through all of the next attempt's during this one's
 * hashes (a simulation of the schedule reached its fewest permutations
 * from 2 l + 3 on; 16 serves l <= 7 as well). */
#define QUILL_MLDSA_MASK_RING 16
#define QUILL_MLDSA_MASK_BLOCKS 5 /* 576 or 640 bytes per polynomial */

typedef struct quill_mldsa_mask {
    quill_keccak_x4 k;
    quill_mldsa_poly ring[QUILL_MLDSA_MASK_RING]; /* polynomial i at i mod RING */
    uint8_t out[4][QUILL_MLDSA_MASK_BLOCKS * QUILL_SHAKE256_RATE]; /* per instance */
    uint8_t spare[QUILL_SHAKE256_RATE]; /* output of an idle instance */
    uint8_t seed[QUILL_MLDSA_CRH_BYTES + 2]; /* rho'' || i */
    unsigned idx[4];    /* instance j is making polynomial idx[j] */
    unsigned blocks[4]; /* of it squeezed so far */
    unsigned busy;      /* bit j: instance j is making one */
    unsigned first;     /* 1 if instance 0 hashes (then it makes mask polynomials
                           only between hashes, mask.c), else 0 */
    unsigned next;      /* the next polynomial to start */
    unsigned base;      /* the first polynomial still in use */
    const quill_mldsa_params *p;
} quill_mldsa_mask;

/* quill_mldsa_mask_init starts the stream for rho'' (copied) at
 * polynomial 0. */
void quill_mldsa_mask_init(quill_mldsa_mask *m, const uint8_t rhopp[QUILL_MLDSA_CRH_BYTES],
                           const quill_mldsa_params *p);

/* quill_mldsa_mask_get returns polynomial i (base <= i < base + RING),
 * running four-way permutations until it is ready.  It stays valid until
 * quill_mldsa_mask_release passes it. */
const quill_mldsa_poly *quill_mldsa_mask_get(quill_mldsa_mask *m, unsigned i);

/* quill_mldsa_mask_release declares the polynomials below |base| done
 * with: their slots may be refilled.  A base below the current one is
 * ignored. */
void quill_mldsa_mask_release(quill_mldsa_mask *m, unsigned base);

/* quill_mldsa_mask_shake256 writes the first block of SHAKE256(in[0..len))
 * to block, hashed in instance 0 while the mask instances go on (or on the
 * scalar sponge, see above), and if rest is not NULL leaves there the
 * sponge positioned after that block (for quill_keccak_squeeze_blocks). */
void quill_mldsa_mask_shake256(quill_mldsa_mask *m, const uint8_t *in, size_t len,
                               uint8_t block[QUILL_SHAKE256_RATE], quill_keccak *rest);

/* quill_mldsa_mask_wipe zeroises the context. */
void quill_mldsa_mask_wipe(quill_mldsa_mask *m);

#endif
