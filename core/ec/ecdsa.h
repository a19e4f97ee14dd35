/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ECDSA over P-256 (FIPS 186-5 section 6, SEC 1 v2 for encodings, RFC 6979
 * for nonces) on quill's own field, scalar and point code.
 *
 * Private keys are 32-byte big-endian integers in [1, n-1] and are secret:
 * every function handles them in constant time (and marks them with
 * QUILL_CT_SECRET in the validation build) and zeroises its copies.
 * Public keys, digests on verification and signatures are public.
 * Signatures are r || s, each 32 bytes big-endian (IEEE P1363); see
 * ecdsa_der.h for the DER form. */
#ifndef QUILL_EC_ECDSA_H
#define QUILL_EC_ECDSA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/rng.h"
#include "ec/p256_point.h"

#define QUILL_P256_PRIVATE_BYTES 32
#define QUILL_P256_PUBLIC_BYTES 65            /* 0x04 || x || y */
#define QUILL_P256_PUBLIC_COMPRESSED_BYTES 33 /* 0x02/0x03 || x */
#define QUILL_P256_SIG_BYTES 64               /* r || s */

/* A validated public key: an affine point on the curve, not infinity. */
typedef struct quill_p256_public {
    quill_p256_affine q;
} quill_p256_public;

typedef enum quill_ecdsa_nonce_type {
    /* k from HMAC_DRBG seeded with x, h1 and 32 fresh random bytes (RFC 6979
     * section 3.6 with k' random): safe with a weak or a failed-open RNG and
     * resistant to fault attacks on deterministic signing. */
    QUILL_ECDSA_NONCE_HEDGED = 0,
    /* RFC 6979 section 3.2 deterministic k (the rng is not used). */
    QUILL_ECDSA_NONCE_DETERMINISTIC = 1,
} quill_ecdsa_nonce_type;

/* quill_p256_private_check returns QUILL_OK if priv (secret) is in
 * [1, n-1], else QUILL_ERR_KEY_CHECK.  Constant time; only the verdict is
 * declassified. */
QUILL_MUST_CHECK quill_err quill_p256_private_check(const uint8_t priv[32]);

/* quill_p256_keygen draws priv uniformly from [1, n-1] by rejection
 * sampling of 32-byte strings from rng (fails with QUILL_ERR_KEYGEN after
 * 64 rejections, which happens with probability < 2^-2000) and computes pub.
 * QUILL_ERR_RNG if the rng fails.  On failure priv is zeroised and pub
 * untouched. */
QUILL_MUST_CHECK quill_err quill_p256_keygen(uint8_t priv[32], quill_p256_public *pub,
                                             const quill_rng *rng);

/* quill_p256_public_from_private sets pub = priv * G (constant time in
 * priv).  QUILL_ERR_KEY_CHECK if priv is not in [1, n-1] (pub untouched). */
QUILL_MUST_CHECK quill_err quill_p256_public_from_private(quill_p256_public *pub,
                                                          const uint8_t priv[32]);

/* quill_p256_public_decode parses a SEC 1 point: 65 bytes 0x04 || x || y or
 * 33 bytes 0x02/0x03 || x (y recovered with the parity bit), and validates
 * it: coordinates < p, on the curve (so not infinity).  Errors:
 * QUILL_ERR_INVALID_ARGUMENT (length or prefix), QUILL_ERR_KEY_CHECK
 * (coordinate >= p, not on the curve, x with no point).  pub untouched on
 * failure. */
QUILL_MUST_CHECK quill_err quill_p256_public_decode(quill_p256_public *pub, const uint8_t *in,
                                                    size_t len);

/* quill_p256_public_encode writes pub as 65 bytes (uncompressed) or 33 bytes
 * (compressed != 0) and sets *out_len; QUILL_ERR_BUFFER_TOO_SMALL if cap is
 * smaller (nothing written). */
QUILL_MUST_CHECK quill_err quill_p256_public_encode(uint8_t *out, size_t cap, size_t *out_len,
                                                    const quill_p256_public *pub, int compressed);

/* quill_ecdsa_p256_sign signs a message digest of any length (bits2int: its
 * leftmost 256 bits, then reduced mod n) with priv, writing r || s to sig.
 * nonce_hash is the hash HMAC uses for the nonce; for RFC 6979 it must be
 * the hash that produced the digest.  rng is required for
 * QUILL_ECDSA_NONCE_HEDGED and ignored (may be NULL) for _DETERMINISTIC.
 * A nonce out of range, r = 0 or s = 0 makes it try the next nonce.
 * Errors: QUILL_ERR_KEY_CHECK (priv out of range), QUILL_ERR_INVALID_ARGUMENT
 * (NULL, unusable hash, unknown nonce type), QUILL_ERR_RNG,
 * QUILL_ERR_INTERNAL (hash failure, or 64 nonces rejected); sig is zeroised
 * on failure. */
QUILL_MUST_CHECK quill_err quill_ecdsa_p256_sign(uint8_t sig[64], const uint8_t priv[32],
                                                 const uint8_t *digest, size_t digest_len,
                                                 const quill_hash *nonce_hash,
                                                 quill_ecdsa_nonce_type nonce_type,
                                                 const quill_rng *rng);

/* quill_ecdsa_p256_verify checks sig = r || s over digest (bits2int as for
 * signing) with pub, in variable time (everything is public).  Returns
 * QUILL_OK or QUILL_ERR_BAD_SIGNATURE (r or s not in [1, n-1], or the
 * equation fails). */
QUILL_MUST_CHECK quill_err quill_ecdsa_p256_verify(const quill_p256_public *pub,
                                                   const uint8_t *digest, size_t digest_len,
                                                   const uint8_t sig[64]);

/* quill_p256_verify_cache: lazily built state that makes repeated
 * verification with one public key about twice as fast (a 4 KB table of
 * multiples of 2^(64 j) Q, p256_verify_precomp.h).  It is kept beside the
 * key by whoever owns the key object (the provider's EC key) rather than
 * inside quill_p256_public, so that a public key stays a plain value that
 * may be copied freely: copying a cache is not allowed (its owner frees the
 * table once).  An empty cache is QUILL_P256_VERIFY_CACHE_INIT or all-zero
 * bytes (calloc, or zero-initialisation of an enclosing struct). */
struct quill_p256_verify_precomp;
typedef struct quill_p256_verify_cache {
    _Atomic(struct quill_p256_verify_precomp *) table; /* published once */
    atomic_uint uses;                                  /* verifications seen */
} quill_p256_verify_cache;

#define QUILL_P256_VERIFY_CACHE_INIT {NULL, 0}

/* quill_p256_verify_cache_clear frees the table of cache and empties it, for
 * a key that is released or whose public point changes.  Must not run
 * concurrently with a verification using cache. */
void quill_p256_verify_cache_clear(quill_p256_verify_cache *cache);

/* quill_ecdsa_p256_verify_cached is quill_ecdsa_p256_verify (same results)
 * with cache, which must only ever be used with this pub: the first call
 * only counts; from the second on, the call that finds no table builds one
 * (about the cost of one verification) and publishes it with an atomic
 * compare-and-swap, so concurrent verifiers may share cache (a thread that
 * loses the race frees its copy); later calls use it.  A table built for
 * another point is ignored; a failed allocation just means no table.
 * cache may be NULL (plain verification). */
QUILL_MUST_CHECK quill_err quill_ecdsa_p256_verify_cached(const quill_p256_public *pub,
                                                          quill_p256_verify_cache *cache,
                                                          const uint8_t *digest,
                                                          size_t digest_len,
                                                          const uint8_t sig[64]);

#endif
