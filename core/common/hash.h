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
 * Used by RSA-PSS/MGF1 and by ECDSA nonce generation (HMAC). */
typedef struct quill_hash {
    size_t size;
    int (*digest)(const struct quill_hash *h, uint8_t *out, const uint8_t *const in[],
                  const size_t in_len[], size_t count);
    void *arg;
    size_t block_size;
} quill_hash;

/* Digest identities: the digests quill's signatures accept (RSA encodes them
 * in the PKCS#1 v1.5 DigestInfo, where QUILL_MD_NONE means raw EMSA-PKCS1-v1_5
 * type 1 padding with no DigestInfo).  The legacy digests after
 * QUILL_MD_SHA3_512 exist for RSA's compatibility with OpenSSL's default
 * provider only (which scheme takes which digest is the provider's choice);
 * QUILL_MD_MD5_SHA1 is the 36-byte MD5 || SHA-1 of TLS 1.0/1.1, signed with
 * no DigestInfo. */
typedef enum quill_md {
    QUILL_MD_NONE = 0,
    QUILL_MD_SHA1,
    QUILL_MD_SHA224,
    QUILL_MD_SHA256,
    QUILL_MD_SHA384,
    QUILL_MD_SHA512,
    QUILL_MD_SHA512_224,
    QUILL_MD_SHA512_256,
    QUILL_MD_SHA3_224,
    QUILL_MD_SHA3_256,
    QUILL_MD_SHA3_384,
    QUILL_MD_SHA3_512,
    QUILL_MD_MD5,
    QUILL_MD_MD4,
    QUILL_MD_RIPEMD160,
    QUILL_MD_SM3,
    QUILL_MD_MD5_SHA1,
} quill_md;

#endif
