/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Digests: an EVP_MD fetched from the provider's child library context,
 * identified as a quill_md and wrapped as the quill_hash (with the block
 * size HMAC needs) that the core's PSS, MGF1 and ECDSA nonce code call.
 * Nothing here is secret. */
#ifndef QUILL_PROV_DIGEST_H
#define QUILL_PROV_DIGEST_H

#include <openssl/evp.h>

#include "common/hash.h"
#include "common/md.h"
#include "prov_ctx.h"

typedef struct quill_prov_digest {
    EVP_MD *md;     /* NULL when no digest is set */
    quill_md id;    /* QUILL_MD_NONE when md is NULL */
    quill_hash hash; /* hash.arg is md */
    /* The EVP_MD_CTX that hash.digest reuses from call to call (an ECDSA
     * signature makes ten hash calls; creating a context for each cost
     * several percent of a signature), created on first use.  It belongs
     * to this digest only while md is set: a struct copy whose md was
     * cleared (the dupctx pattern) never frees it, and
     * quill_prov_digest_copy gives the copy none.  So a quill_prov_digest
     * may be moved by assignment but is not for concurrent use, like the
     * signature context that holds it.  hash.digest must be called with
     * &d->hash of the quill_prov_digest itself (it finds mctx from it). */
    EVP_MD_CTX *mctx;
} quill_prov_digest;

/* Which signature scheme a digest is fetched for: each digest quill knows
 * is accepted by the schemes its table row lists.  SHA-1, SHA-2 and SHA-3
 * serve every scheme; MD5, MD4, RIPEMD-160 and MD5-SHA1 only RSA (as in
 * OpenSSL 3.0's default provider, whose ECDSA refuses them); SM3 RSA on a
 * 3.4+ core only, as the default provider there (digest.c, md_accepted). */
typedef enum quill_prov_scheme {
    QUILL_PROV_SCHEME_ANY = 0, /* the digests every scheme takes */
    QUILL_PROV_SCHEME_RSA = 1,
} quill_prov_scheme;

/* quill_prov_digest_fetch fetches |name| with |props| and sets *d (releasing
 * what it held) on success.  If fallback_props is non-zero and the fetch
 * with |props| fails, it retries with no property query (the signature's
 * own query, e.g. "provider=quill", names no digest provider).  Only the
 * digests of QUILL_PROV_SCHEME_ANY are accepted.  Fails, with
 * QUILL_R_UNKNOWN_DIGEST or QUILL_R_UNSUPPORTED_DIGEST raised, leaving *d
 * unchanged. */
int quill_prov_digest_fetch(quill_prov_digest *d, const quill_provctx *ctx, const char *name,
                            const char *props, int fallback_props);

/* quill_prov_digest_fetch_for is quill_prov_digest_fetch for |scheme|'s
 * digests. */
int quill_prov_digest_fetch_for(quill_prov_digest *d, const quill_provctx *ctx, const char *name,
                                const char *props, int fallback_props, quill_prov_scheme scheme);

/* quill_prov_digest_copy makes dst a second reference to src's digest
 * (without src's EVP_MD_CTX: dst makes its own when it hashes).  dst's
 * previous contents are overwritten, not released. */
int quill_prov_digest_copy(quill_prov_digest *dst, const quill_prov_digest *src);

/* quill_prov_digest_clear releases the digest and its EVP_MD_CTX (d stays
 * usable, empty).  With d->md NULL it releases nothing. */
void quill_prov_digest_clear(quill_prov_digest *d);

/* quill_prov_md_name returns OpenSSL's usual name for |md| ("SHA256",
 * "SHA3-256", ...), or NULL for QUILL_MD_NONE. */
const char *quill_prov_md_name(quill_md md);

/* quill_prov_props_require_quill returns 1 if the property query |props|
 * (may be NULL) has the mandatory clause "provider=quill" (spaces around
 * its parts allowed): such a query selects no digest, as quill has none. */
int quill_prov_props_require_quill(const char *props);

/* quill_prov_md_from_evp identifies an EVP_MD; QUILL_MD_NONE if quill has no
 * encoding for it.  Scheme acceptance is not checked here. */
quill_md quill_prov_md_from_evp(const EVP_MD *md);

#endif
