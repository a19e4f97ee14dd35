/* Copyright quill authors.
 *
 * Four SHAKE instances in lockstep, for the samplers (ExpandA, ExpandMask)
 * whose inputs come in groups of equal length: an AVX2 permutation of four
 * interleaved Keccak-f[1600] states plus plain-C absorb and squeeze of one
 * short input each.  (It belongs next to core/sha3 as quill_keccak_x4 once
 * that exists; it lives here, private to ML-DSA, until then.)  Constant
 * time; states that absorbed secrets are wiped by the caller
 * (quill_zeroize). */
#ifndef QUILL_MLDSA_KECCAK_X4_H
#define QUILL_MLDSA_KECCAK_X4_H

#include <stddef.h>
#include <stdint.h>

#include "ntt.h" /* QUILL_MLDSA_HAVE_AVX2 */

/* s[i][j] is lane i (FIPS 202 index x + 5y) of instance j. */
typedef struct quill_mldsa_keccak_x4 {
    _Alignas(32) uint64_t s[25][4];
} quill_mldsa_keccak_x4;

/* quill_mldsa_keccak_x4_capable returns 1 if the four-way permutation can
 * run (AVX2 present and not masked); the callers fall back to four single
 * SHAKE computations otherwise. */
int quill_mldsa_keccak_x4_capable(void);

/* quill_mldsa_keccak_f1600_x4 applies the permutation to the four states.
 * Only when quill_mldsa_keccak_x4_capable(). */
void quill_mldsa_keccak_f1600_x4(quill_mldsa_keccak_x4 *st);

/* quill_mldsa_shake_x4_absorb starts four SHAKE computations of rate
 * |rate| (QUILL_SHAKE128_RATE or QUILL_SHAKE256_RATE) on in[0..3], each of
 * len < rate bytes, and pads them. */
void quill_mldsa_shake_x4_absorb(quill_mldsa_keccak_x4 *st, unsigned rate,
                                 const uint8_t *const in[4], size_t len);

/* quill_mldsa_shake_x4_squeeze_blocks writes nblocks * rate output bytes
 * of each instance to out[0..3] (permuting before each block), continuing
 * the output streams. */
void quill_mldsa_shake_x4_squeeze_blocks(quill_mldsa_keccak_x4 *st, unsigned rate,
                                         uint8_t *const out[4], size_t nblocks);

#endif
