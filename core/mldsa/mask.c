/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ExpandMask as a stream on the four-way Keccak, instance 0 for
 * signing's serial hashes where that pays (mask.h). */
#include "mask.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "common/zeroize.h"
#include "pack.h"

#define RATE QUILL_SHAKE256_RATE
#define RING QUILL_MLDSA_MASK_RING

_Static_assert((RING & (RING - 1)) == 0, "the ring is indexed by a mask");
_Static_assert(RING >= 2 * QUILL_MLDSA_L_MAX + 2,
               "an attempt's polynomials and the next attempt's fit in the window");
_Static_assert(QUILL_MLDSA_MASK_BLOCKS * RATE >= 32 * 20, "five blocks hold a gamma1 = 2^19 mask");

void quill_mldsa_mask_init(quill_mldsa_mask *m, const uint8_t rhopp[QUILL_MLDSA_CRH_BYTES],
                           const quill_mldsa_params *p) {
    memset(m->k.s, 0, sizeof(m->k.s)); /* idle instances permute zeros, not old data */
    m->k.rate = RATE; /* what quill_keccak_x4_read_block copies */
    m->k.n = 4;
    memcpy(m->seed, rhopp, QUILL_MLDSA_CRH_BYTES);
    m->busy = 0;
    m->first = quill_keccak_f1600_x4_wide() ? 1 : 0;
    m->next = m->base = 0;
    m->p = p;
}

/* Starts each free mask instance on the next polynomial of the window, runs
 * one four-way permutation (instance 0 holds the hash if |hashing|), and
 * collects the output blocks (the hash's into *block), unpacking each
 * polynomial as its fifth block arrives.  Where instance 0 hashes
 * (first = 1), it also makes mask polynomials while no hash runs, but only
 * those of the current attempt ([base, base + l)): the attempt waits for
 * all of them before its first hash, so instance 0 is always free again by
 * then.  That fills the idle instance of an attempt's wait for its
 * polynomials (above all the first attempt's, which waits for all l):
 * per signature 43.9 -> 40.4 four-way permutations for ML-DSA-44, 53.3 ->
 * 51.2 for ML-DSA-65, 56.4 -> 51.9 for ML-DSA-87 (a simulation of the
 * schedule over the expected numbers of attempts; callgrind agrees). */
static void step(quill_mldsa_mask *m, int hashing, uint8_t *block) {
    uint8_t *out[4];
    for (unsigned j = 0; j < 4; j++) {
        out[j] = m->spare;
        unsigned limit = m->base + QUILL_MLDSA_MASK_RING;
        if (j < m->first) {
            if (hashing)
                continue;
            limit = m->base + m->p->l;
        }
        if (((m->busy >> j) & 1) == 0 && m->next < limit) {
            unsigned i = m->next++;
            m->seed[QUILL_MLDSA_CRH_BYTES] = (uint8_t)i; /* IntegerToBytes(i, 2) */
            m->seed[QUILL_MLDSA_CRH_BYTES + 1] = (uint8_t)(i >> 8);
            quill_keccak_x4_inst_start(&m->k, j, m->seed, sizeof(m->seed), RATE);
            m->idx[j] = i;
            m->blocks[j] = 0;
            m->busy |= 1u << j;
        }
        if (((m->busy >> j) & 1) != 0)
            out[j] = m->out[j] + m->blocks[j] * RATE;
    }
    if (hashing)
        out[0] = block;
    quill_keccak_f1600_x4(m->k.s);
    quill_keccak_x4_read_block(&m->k, out);
    for (unsigned j = 0; j < 4; j++) {
        if (((m->busy >> j) & 1) != 0 && ++m->blocks[j] == QUILL_MLDSA_MASK_BLOCKS) {
            quill_mldsa_poly_unpack_z(&m->ring[m->idx[j] & (RING - 1)], m->out[j], m->p);
            m->busy &= ~(1u << j);
        }
    }
}

/* i is ready once it has started and no instance is still making it. */
static int ready(const quill_mldsa_mask *m, unsigned i) {
    if (i >= m->next)
        return 0;
    for (unsigned j = 0; j < 4; j++)
        if (((m->busy >> j) & 1) != 0 && m->idx[j] == i)
            return 0;
    return 1;
}

const quill_mldsa_poly *quill_mldsa_mask_get(quill_mldsa_mask *m, unsigned i) {
    assert(i >= m->base && i < m->base + RING);
    while (!ready(m, i))
        step(m, 0, NULL);
    return &m->ring[i & (RING - 1)];
}

void quill_mldsa_mask_release(quill_mldsa_mask *m, unsigned base) {
    if (base > m->base)
        m->base = base;
}

void quill_mldsa_mask_shake256(quill_mldsa_mask *m, const uint8_t *in, size_t len,
                               uint8_t block[QUILL_SHAKE256_RATE], quill_keccak *rest) {
    if (m->first == 0) { /* the scalar sponge (mask.h) */
        quill_keccak k;
        quill_shake256_init(&k);
        quill_keccak_absorb(&k, in, len);
        quill_keccak_squeeze_blocks(&k, block, 1);
        if (rest != NULL)
            *rest = k;
        quill_keccak_zeroize(&k);
        return;
    }
    /* Instance 0 is free here when the caller got its attempt's
     * polynomials first (sign.c does); otherwise let it finish. */
    while ((m->busy & 1) != 0)
        step(m, 0, NULL);
    /* Whole blocks, then the last (possibly empty) one with the padding:
     * len / RATE + 1 permutations. */
    size_t n = len < RATE ? len : RATE;
    quill_keccak_x4_inst_start(&m->k, 0, in, n, RATE);
    while (n == RATE) {
        step(m, 1, block);
        in += RATE;
        len -= RATE;
        n = len < RATE ? len : RATE;
        quill_keccak_x4_inst_absorb(&m->k, 0, in, n, RATE);
    }
    step(m, 1, block);
    if (rest != NULL)
        quill_keccak_x4_inst_sponge(&m->k, 0, RATE, rest);
}

void quill_mldsa_mask_wipe(quill_mldsa_mask *m) {
    /* Polynomial i goes to ring slot i mod RING and only those started
     * (i < next) are ever written: while next < RING the slots from next
     * on still hold nothing (a signature accepted at its first or second
     * attempt).  Everything else is wiped whole. */
    const size_t used = m->next < RING ? m->next : RING;
    quill_zeroize(&m->k, sizeof(m->k));
    quill_zeroize(m->ring, used * sizeof(m->ring[0]));
    quill_zeroize(m->out, sizeof(*m) - offsetof(quill_mldsa_mask, out));
}
