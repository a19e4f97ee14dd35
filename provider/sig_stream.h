/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * What every signature operation of quill shares, whatever its algorithm:
 * the operation-state check, the output-size protocol of sign (sig == NULL
 * asks the size; a short buffer is refused before any work), and, for the
 * schemes that sign a digest (RSA, ECDSA), the message digest with the
 * running EVP_MD_CTX of digest_sign/digest_verify (its parameters are in
 * sig_params.h).  A scheme that hashes the message itself (ML-DSA) uses
 * only the first two.  Nothing here is secret. */
#ifndef QUILL_PROV_SIG_STREAM_H
#define QUILL_PROV_SIG_STREAM_H

#include <stddef.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

#include "digest.h"
#include "prov_ctx.h"

/* quill_sig_ready returns 1 if |ready|, else raises
 * QUILL_R_OPERATION_NOT_INITIALISED on |prov| (may be NULL) and returns 0. */
int quill_sig_ready(const quill_provctx *prov, int ready);

enum {
    QUILL_SIG_SIZE_FAIL = 0, /* buffer too small: error raised */
    QUILL_SIG_SIZE_ANSWERED, /* sig was NULL: *siglen set to the size */
    QUILL_SIG_SIZE_PROCEED   /* sig has room for |need| bytes */
};

/* quill_sig_out_size applies the output-size protocol of a signature of at
 * most |need| bytes: with sig == NULL sets *siglen = need and returns
 * QUILL_SIG_SIZE_ANSWERED; with sigsize < need raises
 * QUILL_R_BUFFER_TOO_SMALL and returns QUILL_SIG_SIZE_FAIL; otherwise
 * returns QUILL_SIG_SIZE_PROCEED and touches nothing. */
int quill_sig_out_size(const quill_provctx *prov, const unsigned char *sig, size_t *siglen,
                       size_t sigsize, size_t need);

/* The message digest of a digest-based scheme and its running hash. */
typedef struct quill_sig_stream {
    quill_prov_digest md; /* md.md == NULL: no digest set */
    EVP_MD_CTX *mdctx;    /* the running hash; allocated by the first start */
    int locked;           /* hashing started: the digest can no longer change */
    quill_prov_scheme scheme; /* whose digests "digest" accepts (digest.h);
                               * zero-initialised: QUILL_PROV_SCHEME_ANY */
} quill_sig_stream;

/* quill_sig_stream_init is the digest_{sign,verify}_init step after the
 * key is taken: it sets the digest to |mdname| through |set_params| (the
 * scheme's set_ctx_params on |ctx|, so its restrictions apply), or, when
 * |mdname| is NULL or empty, keeps the digest already set or fetches
 * SHA-256 with |propq|; then applies |params| with |set_params| and starts
 * the hash, locking the digest.  Returns 0 with an error raised on failure
 * (the stream is then not locked, or stays as |set_params| left it). */
int quill_sig_stream_init(quill_sig_stream *s, const quill_provctx *prov, const char *propq,
                          const char *mdname, OSSL_FUNC_signature_set_ctx_params_fn *set_params,
                          void *ctx, const OSSL_PARAM params[]);

/* quill_sig_stream_update hashes data[0..len).  Returns 0 with
 * QUILL_R_OPERATION_NOT_INITIALISED raised if hashing has not started, or
 * QUILL_R_DIGEST_FAILED if the digest fails.  |s| may be NULL (not
 * started). */
int quill_sig_stream_update(quill_sig_stream *s, const quill_provctx *prov,
                            const unsigned char *data, size_t len);

/* quill_sig_stream_final finishes the hash into out (EVP_MAX_MD_SIZE
 * bytes), sets *len and unlocks the digest.  Returns 0 with an error
 * raised (as quill_sig_stream_update) and the stream unchanged on failure. */
int quill_sig_stream_final(quill_sig_stream *s, const quill_provctx *prov, unsigned char *out,
                           size_t *len);

/* quill_sig_stream_sign_final finishes the hash and signs the digest with
 * |sign| on |ctx| (the scheme's sign function).  The caller has already
 * checked the operation and the output size. */
int quill_sig_stream_sign_final(quill_sig_stream *s, const quill_provctx *prov,
                                OSSL_FUNC_signature_sign_fn *sign, void *ctx, unsigned char *sig,
                                size_t *siglen, size_t sigsize);

/* quill_sig_stream_verify_final finishes the hash and verifies |sig| over
 * the digest with |verify| on |ctx|. */
int quill_sig_stream_verify_final(quill_sig_stream *s, const quill_provctx *prov,
                                  OSSL_FUNC_signature_verify_fn *verify, void *ctx,
                                  const unsigned char *sig, size_t siglen);

/* quill_sig_stream_copy makes dst a copy of src, overwriting dst without
 * releasing what it held (it may be a bytewise copy of src): a
 * second reference to the digest and, mid-stream, a copy of the running
 * hash (EVP_MD_CTX_copy, and EVP's DigestSignFinal, which finalises a
 * copy).  Returns 0 on failure, raising nothing; dst must then still be
 * cleared. */
int quill_sig_stream_copy(quill_sig_stream *dst, const quill_sig_stream *src);

/* quill_sig_stream_clear frees the running hash and releases the digest. */
void quill_sig_stream_clear(quill_sig_stream *s);

#endif
