/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The parts shared by quill's signature operations (see sig_stream.h): the
 * state and output-size checks and the digest stream of digest_sign/verify. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "prov_err.h"
#include "sig_stream.h"

int quill_sig_ready(const quill_provctx *prov, int ready) {
    if (!ready)
        QUILL_RAISE(prov, QUILL_R_OPERATION_NOT_INITIALISED);
    return ready != 0;
}

int quill_sig_out_size(const quill_provctx *prov, const unsigned char *sig, size_t *siglen,
                       size_t sigsize, size_t need) {
    if (sig == NULL) {
        *siglen = need;
        return QUILL_SIG_SIZE_ANSWERED;
    }
    if (sigsize < need) {
        QUILL_RAISE_MSG(prov, QUILL_R_BUFFER_TOO_SMALL, "%zu bytes, need %zu", sigsize, need);
        return QUILL_SIG_SIZE_FAIL;
    }
    return QUILL_SIG_SIZE_PROCEED;
}

/* ---- The digest stream ---- */

int quill_sig_stream_init(quill_sig_stream *s, const quill_provctx *prov, const char *propq,
                          const char *mdname, OSSL_FUNC_signature_set_ctx_params_fn *set_params,
                          void *ctx, const OSSL_PARAM params[]) {
    /* EVP passes the key's default digest when the caller names none, and
     * NULL again when it re-initialises a context: keep what is set. */
    if (mdname != NULL && *mdname != '\0') {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                            (char *)mdname, 0),
                           OSSL_PARAM_construct_end()};
        if (!set_params(ctx, p))
            return 0;
    } else if (s->md.md == NULL && !quill_prov_digest_fetch(&s->md, prov, "SHA256", propq, 1)) {
        return 0;
    }
    if (!set_params(ctx, params))
        return 0;
    if (s->mdctx == NULL && (s->mdctx = EVP_MD_CTX_new()) == NULL) {
        QUILL_RAISE(prov, QUILL_R_MEMORY);
        return 0;
    }
    if (!EVP_DigestInit_ex2(s->mdctx, s->md.md, NULL)) {
        QUILL_RAISE(prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    s->locked = 1;
    return 1;
}

int quill_sig_stream_update(quill_sig_stream *s, const quill_provctx *prov,
                            const unsigned char *data, size_t len) {
    if (!quill_sig_ready(prov, s != NULL && s->mdctx != NULL && s->locked))
        return 0;
    if (!EVP_DigestUpdate(s->mdctx, data, len)) {
        QUILL_RAISE(prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    return 1;
}

int quill_sig_stream_final(quill_sig_stream *s, const quill_provctx *prov, unsigned char *out,
                           size_t *len) {
    unsigned int n = 0;
    if (!quill_sig_ready(prov, s != NULL && s->mdctx != NULL && s->locked))
        return 0;
    if (!EVP_DigestFinal_ex(s->mdctx, out, &n)) {
        QUILL_RAISE(prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    *len = n;
    s->locked = 0;
    return 1;
}

int quill_sig_stream_sign_final(quill_sig_stream *s, const quill_provctx *prov,
                                OSSL_FUNC_signature_sign_fn *sign, void *ctx, unsigned char *sig,
                                size_t *siglen, size_t sigsize) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    size_t dlen = 0;
    if (!quill_sig_stream_final(s, prov, digest, &dlen))
        return 0;
    return sign(ctx, sig, siglen, sigsize, digest, dlen);
}

int quill_sig_stream_verify_final(quill_sig_stream *s, const quill_provctx *prov,
                                  OSSL_FUNC_signature_verify_fn *verify, void *ctx,
                                  const unsigned char *sig, size_t siglen) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    size_t dlen = 0;
    if (!quill_sig_stream_final(s, prov, digest, &dlen))
        return 0;
    return verify(ctx, sig, siglen, digest, dlen);
}

int quill_sig_stream_copy(quill_sig_stream *dst, const quill_sig_stream *src) {
    dst->mdctx = NULL;
    dst->md.md = NULL;
    dst->locked = src->locked;
    dst->scheme = src->scheme;
    if (!quill_prov_digest_copy(&dst->md, &src->md))
        return 0;
    if (src->mdctx != NULL) {
        dst->mdctx = EVP_MD_CTX_new();
        if (dst->mdctx == NULL || !EVP_MD_CTX_copy_ex(dst->mdctx, src->mdctx))
            return 0;
    }
    return 1;
}

void quill_sig_stream_clear(quill_sig_stream *s) {
    EVP_MD_CTX_free(s->mdctx);
    s->mdctx = NULL;
    quill_prov_digest_clear(&s->md);
    s->locked = 0;
}
