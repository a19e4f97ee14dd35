/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * HMAC (RFC 2104) over the caller-supplied quill_hash, and the HMAC_DRBG
 * construction as RFC 6979 section 3.2 uses it (the same K/V state as
 * NIST SP 800-90A HMAC_DRBG, without the reseed counter).  Used for ECDSA
 * nonces; nothing here is specific to P-256.
 *
 * Keys, seeds and the K/V state are secret: every function is constant time
 * with respect to their contents (not their lengths) provided the hash is,
 * and the state is zeroised by quill_hmac_drbg_clear. */
#ifndef QUILL_EC_HMAC_DRBG_H
#define QUILL_EC_HMAC_DRBG_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/err.h"
#include "common/hash.h"
#include "ec/sha256.h"

#define QUILL_HMAC_MAX_SIZE 64   /* largest digest accepted (SHA-512) */
#define QUILL_HMAC_MAX_BLOCK 144 /* largest block accepted (SHA3-224) */
#define QUILL_HMAC_MAX_PIECES 6  /* most input pieces one call takes */

/* quill_hmac writes HMAC_key(in[0] || ... || in[count - 1]) to out
 * (h->size bytes).  Fails with QUILL_ERR_INVALID_ARGUMENT if the hash's size
 * or block_size is 0 or above the limits, or count > QUILL_HMAC_MAX_PIECES;
 * QUILL_ERR_INTERNAL if the hash callback fails.  out is then zeroised. */
QUILL_MUST_CHECK quill_err quill_hmac(const quill_hash *h, uint8_t *out, const uint8_t *key,
                                      size_t key_len, const uint8_t *const in[],
                                      const size_t in_len[], size_t count);

/* With a SHA-256 quill_hash (is_sha256) on a CPU with the SHA extensions,
 * the DRBG computes its HMACs with the core's SHA-256 (sha256.h) and keeps
 * the states after K's ipad and opad blocks (kin, kout), so that each K is
 * absorbed once: 20 compressions per ECDSA nonce instead of 10 calls of
 * the caller's digest (24 compressions, through EVP in the provider).  The
 * same values either way.  Without the SHA extensions the caller's digest
 * stays: quill-limits p256.sign (Zen 4) was 38.0k ticks on the portable
 * compression against 36.2k through OpenSSL's AVX2 SHA-256 with its SHA
 * extensions masked, and 49.5k against 42.2k with every quill feature
 * masked. */
typedef struct quill_hmac_drbg {
    const quill_hash *h;
    uint8_t k[QUILL_HMAC_MAX_SIZE];
    uint8_t v[QUILL_HMAC_MAX_SIZE];
    int core_sha256;                /* the HMACs run on sha256.h */
    quill_sha256_ctx kin, kout;     /* K's ipad and opad states (secret) */
} quill_hmac_drbg;

/* quill_hmac_drbg_init sets K = 0x00..00, V = 0x01..01 and runs the update
 * with the concatenated seed pieces (RFC 6979 3.2 steps b-g: for ECDSA the
 * pieces are int2octets(x), bits2octets(h1) and optional extra data k' as in
 * section 3.6).  Borrows h, which must outlive d.  On failure d is cleared. */
QUILL_MUST_CHECK quill_err quill_hmac_drbg_init(quill_hmac_drbg *d, const quill_hash *h,
                                                const uint8_t *const seed[],
                                                const size_t seed_len[], size_t count);

/* quill_hmac_drbg_update runs the HMAC_DRBG update with the given data:
 * K = HMAC_K(V || 0x00 || data), V = HMAC_K(V), and if data is non-empty
 * K = HMAC_K(V || 0x01 || data), V = HMAC_K(V).  With count = 0 this is the
 * retry step of RFC 6979 3.2 h.3.  count <= QUILL_HMAC_MAX_PIECES - 2. */
QUILL_MUST_CHECK quill_err quill_hmac_drbg_update(quill_hmac_drbg *d, const uint8_t *const data[],
                                                  const size_t data_len[], size_t count);

/* quill_hmac_drbg_generate writes len bytes: V = HMAC_K(V) appended until
 * enough (RFC 6979 3.2 h.2).  It does not update K; call
 * quill_hmac_drbg_update(d, NULL, NULL, 0) before generating again. */
QUILL_MUST_CHECK quill_err quill_hmac_drbg_generate(quill_hmac_drbg *d, uint8_t *out, size_t len);

/* quill_hmac_drbg_clear zeroises the state. */
void quill_hmac_drbg_clear(quill_hmac_drbg *d);

#endif
