/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Digest identities and their output sizes, shared by the signature
 * schemes and the provider (which maps each to an EVP_MD).  The core hashes
 * through quill_hash (common/hash.h); nothing here is secret. */
#ifndef QUILL_COMMON_MD_H
#define QUILL_COMMON_MD_H

#include <stddef.h>

/* quill_md identifies the digests quill's signatures accept (RSA encodes them
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

/* quill_md_size returns the output length of |md| in bytes: 0 for
 * QUILL_MD_NONE and for values outside quill_md. */
size_t quill_md_size(quill_md md);

#endif
