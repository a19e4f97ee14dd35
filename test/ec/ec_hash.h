/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_hash backed by OpenSSL digests (tests). */
#ifndef QUILL_TEST_EC_HASH_H
#define QUILL_TEST_EC_HASH_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "common/hash.h"

/* ect_evp_digest is a quill_hash digest function over OpenSSL: the digest
 * (EVP_MD *) h->arg of the |count| pieces in[i] of in_len[i] bytes, into
 * out; 1 on success.  ect_hash_init's, and for a literal quill_hash such
 * as {32, ect_evp_digest, (void *)EVP_sha256(), 64, 1}. */
static inline int ect_evp_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                                 const size_t in_len[], size_t count) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(c, in[i], in_len[i]);
    ok = ok && EVP_DigestFinal_ex(c, out, NULL);
    EVP_MD_CTX_free(c);
    return ok;
}

/* ect_hash_init sets h to OpenSSL's digest |name| ("SHA256", ...), size and
 * block size filled in; returns 0 if the digest is unavailable. */
int ect_hash_init(quill_hash *h, const char *name);

/* ect_hash_free releases what ect_hash_init fetched. */
void ect_hash_free(quill_hash *h);

#endif
