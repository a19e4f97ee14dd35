/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600], SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (FIPS 202), with
 * incremental absorb and squeeze.  ML-DSA runs on these; the provider never
 * uses them for OpenSSL's own digests.
 *
 * A context is plain memory: copy it to fork a hash state, and zeroise it
 * (quill_keccak_zeroize) when it has absorbed a secret.  Functions do not
 * fail; calling absorb after squeeze has started is a programming error
 * (checked with an assertion in debug builds).
 *
 * Backend: quill_keccak_f1600 is the only permutation entry point;
 * vectorised backends (a 4-way AVX2 permutation for matrix expansion) plug in
 * behind it and behind quill_keccak_x4 (sha3_x4.h, later). */
#ifndef QUILL_SHA3_SHA3_H
#define QUILL_SHA3_SHA3_H

#include <stddef.h>
#include <stdint.h>

#define QUILL_SHAKE128_RATE 168
#define QUILL_SHAKE256_RATE 136
#define QUILL_SHA3_256_RATE 136
#define QUILL_SHA3_512_RATE 72

typedef struct quill_keccak {
    uint64_t s[25];   /* lanes, little-endian byte order within each */
    unsigned rate;    /* bytes per block */
    unsigned pos;     /* bytes absorbed into / squeezed from this block */
    uint8_t dsbyte;   /* domain separation and first pad bit: 0x06 SHA-3, 0x1f SHAKE */
    uint8_t squeezing;
} quill_keccak;

/* quill_keccak_f1600 applies the 24-round permutation in place. */
void quill_keccak_f1600(uint64_t s[25]);

void quill_shake128_init(quill_keccak *k);
void quill_shake256_init(quill_keccak *k);
void quill_sha3_256_init(quill_keccak *k);
void quill_sha3_512_init(quill_keccak *k);

/* quill_keccak_absorb feeds |len| bytes (any length, any number of calls). */
void quill_keccak_absorb(quill_keccak *k, const uint8_t *in, size_t len);

/* quill_keccak_pad_only ends k's absorbing phase (the padding) without
 * the permutation that makes the first output block: the state is then as
 * after an output block was used up, so quill_keccak_squeeze permutes
 * first.  For callers that run that permutation themselves (in an
 * instance of the four-way one, sha3_x4.h) and read the state's lanes. */
void quill_keccak_pad_only(quill_keccak *k);

/* quill_keccak_squeeze pads on its first call, then writes |len| output
 * bytes; further calls continue the output stream. */
void quill_keccak_squeeze(quill_keccak *k, uint8_t *out, size_t len);

/* quill_keccak_squeeze_blocks is quill_keccak_squeeze for whole blocks when
 * the stream is block-aligned (right after padding, or after earlier whole
 * blocks): writes nblocks * rate bytes with no per-byte bookkeeping. */
void quill_keccak_squeeze_blocks(quill_keccak *k, uint8_t *out, size_t nblocks);

/* quill_sha3_256_final / quill_sha3_512_final pad and write the digest. */
void quill_sha3_256_final(quill_keccak *k, uint8_t out[32]);
void quill_sha3_512_final(quill_keccak *k, uint8_t out[64]);

/* One-shot forms. */
void quill_sha3_256(uint8_t out[32], const uint8_t *in, size_t len);
void quill_sha3_512(uint8_t out[64], const uint8_t *in, size_t len);
void quill_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t len);
void quill_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t len);

/* quill_keccak_zeroize wipes the state. */
void quill_keccak_zeroize(quill_keccak *k);

#endif
