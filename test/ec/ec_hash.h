/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  quill_hash backed by OpenSSL digests (tests). */
#ifndef QUILL_TEST_EC_HASH_H
#define QUILL_TEST_EC_HASH_H

#include <openssl/evp.h>

#include "common/hash.h"

/* ect_hash_init sets h to OpenSSL's digest |name| ("SHA256", ...), size and
 * block size filled in; returns 0 if the digest is unavailable. */
int ect_hash_init(quill_hash *h, const char *name);

/* ect_hash_free releases what ect_hash_init fetched. */
void ect_hash_free(quill_hash *h);

#endif
