/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#ifndef QUILL_COMMON_HASH_H
#define QUILL_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

/* quill_hash is a hash function supplied by the caller (the core carries no
 * SHA-2 of its own; the provider wires this to the library's digests):
 * digest writes H(in[0] || ... || in[count - 1]) to |out| (size bytes) and
 * returns 1, or 0 on failure.  block_size is the hash's input block size in
 * bytes (64 for SHA-256, 128 for SHA-384/512), needed by HMAC; 0 if unknown.
 * Used by RSA-PSS/MGF1 and by ECDSA nonce generation (HMAC).
 *
 * is_sha256 (nonzero) tells the core that digest computes SHA-256, so that
 * where it has a faster SHA-256 of its own (the ECDSA nonce's HMAC-DRBG on
 * a CPU with the SHA extensions, core/ec/hmac_drbg.h) it may compute the
 * same values without calling digest; 0 (the default of an initialiser
 * that leaves it out) always calls it. */
typedef struct quill_hash {
    size_t size;
    int (*digest)(const struct quill_hash *h, uint8_t *out, const uint8_t *const in[],
                  const size_t in_len[], size_t count);
    void *arg;
    size_t block_size;
    int is_sha256;
} quill_hash;

#endif
