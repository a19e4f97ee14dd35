/* Copyright quill authors.
 *
 * Digests for ECDSA: an EVP_MD fetched from the provider's child library
 * context, identified as a quill_ec_md and wrapped as the quill_hash
 * (core/common/hash.h, with the block size HMAC needs) that the core's
 * nonce generation calls.  Kept apart from digest.h because core/rsa/rsa.h
 * still carries its own, older quill_hash, which cannot share a
 * translation unit with core/common/hash.h.  Nothing here is secret. */
#ifndef QUILL_PROV_EC_DIGEST_H
#define QUILL_PROV_EC_DIGEST_H

#include <openssl/evp.h>

#include "common/hash.h"
#include "prov_ctx.h"

/* The digests ECDSA accepts (those of FIPS 186-5 and OpenSSL's ECDSA). */
typedef enum quill_ec_md {
    QUILL_EC_MD_NONE = 0,
    QUILL_EC_MD_SHA1,
    QUILL_EC_MD_SHA224,
    QUILL_EC_MD_SHA256,
    QUILL_EC_MD_SHA384,
    QUILL_EC_MD_SHA512,
    QUILL_EC_MD_SHA512_224,
    QUILL_EC_MD_SHA512_256,
    QUILL_EC_MD_SHA3_224,
    QUILL_EC_MD_SHA3_256,
    QUILL_EC_MD_SHA3_384,
    QUILL_EC_MD_SHA3_512,
} quill_ec_md;

typedef struct quill_prov_ec_digest {
    EVP_MD *md;      /* NULL when no digest is set */
    quill_ec_md id;  /* QUILL_EC_MD_NONE when md is NULL */
    quill_hash hash; /* hash.arg is md */
} quill_prov_ec_digest;

/* quill_prov_ec_digest_fetch fetches |name| with |props| and sets *d
 * (releasing what it held) on success; with fallback_props it retries with
 * no query (as quill_prov_digest_fetch does).  Fails, with
 * QUILL_R_UNKNOWN_DIGEST or QUILL_R_UNSUPPORTED_DIGEST raised, leaving *d
 * unchanged. */
int quill_prov_ec_digest_fetch(quill_prov_ec_digest *d, const quill_provctx *ctx,
                               const char *name, const char *props, int fallback_props);

/* quill_prov_ec_digest_copy makes dst a second reference to src's digest. */
int quill_prov_ec_digest_copy(quill_prov_ec_digest *dst, const quill_prov_ec_digest *src);

/* quill_prov_ec_digest_clear releases the digest (d stays usable, empty). */
void quill_prov_ec_digest_clear(quill_prov_ec_digest *d);

/* quill_prov_ec_md_name returns OpenSSL's usual name for |md|, or NULL for
 * QUILL_EC_MD_NONE. */
const char *quill_prov_ec_md_name(quill_ec_md md);

#endif
