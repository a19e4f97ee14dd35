/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * SHA-256 (FIPS 180-4, sections 5.3.3, 6.2) for the ECDSA nonce's
 * HMAC-DRBG (hmac_drbg.c), which otherwise calls the caller's quill_hash
 * (through EVP in the provider) ten times per signature.  Internal to
 * core/ec.  The HMAC of the DRBG keeps the states after its key's ipad and
 * opad blocks (quill_sha256_ctx is a plain struct: a copy is a snapshot),
 * so that a key used twice is absorbed once.
 *
 * Two compression functions: quill_sha256_blocks_c, portable, and
 * quill_sha256_blocks_shani, the x86-64 SHA extensions (SHA256RNDS2 runs
 * two rounds, SHA256MSG1/MSG2 the message schedule), used when
 * quill_sha256_shani_capable().  Both are constant time (no branch or
 * address depends on the data: the DRBG's key and state are secret).
 * The DRBG takes this hash only with the SHA extensions: without them
 * signing measured faster on OpenSSL's SHA-256 (36.2k against 38.0k ticks
 * per P-256 signature), so the portable compression runs in no signature;
 * it is the twin that test_ec_sha256 checks against OpenSSL and the SHA-NI
 * code against. */
#ifndef QUILL_EC_SHA256_H
#define QUILL_EC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define QUILL_SHA256_SIZE 32
#define QUILL_SHA256_BLOCK 64

/* quill_sha256_ctx: the chaining value h, the partial block buf (n bytes)
 * and the number of bytes absorbed so far. */
typedef struct quill_sha256_ctx {
    uint32_t h[8];
    uint8_t buf[QUILL_SHA256_BLOCK];
    size_t n;
    uint64_t total;
} quill_sha256_ctx;

/* quill_sha256_init starts a hash (FIPS 180-4 5.3.3). */
void quill_sha256_init(quill_sha256_ctx *c);

/* quill_sha256_update absorbs len bytes of in. */
void quill_sha256_update(quill_sha256_ctx *c, const uint8_t *in, size_t len);

/* quill_sha256_final writes the digest to out and zeroises c. */
void quill_sha256_final(quill_sha256_ctx *c, uint8_t out[QUILL_SHA256_SIZE]);

/* quill_sha256_blocks_c runs the compression function on n 64-byte blocks
 * of in, updating h; quill_sha256_blocks_shani is the same with the SHA
 * extensions (call only when quill_sha256_shani_capable()). */
void quill_sha256_blocks_c(uint32_t h[8], const uint8_t *in, size_t n);
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#define QUILL_SHA256_HAVE_SHANI 1
void quill_sha256_blocks_shani(uint32_t h[8], const uint8_t *in, size_t n);
#endif

/* quill_sha256_shani_capable returns nonzero when quill_sha256_blocks_shani
 * can run (QUILL_CPU_X86_SHA, not masked). */
int quill_sha256_shani_capable(void);

#endif
