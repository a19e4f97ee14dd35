/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The signature-context parameters shared by the digest-based schemes
 * (RSA, ECDSA): "digest" with "properties" (and any other digest-naming
 * parameter, such as RSA's "mgf1-digest"), and the running hash's own
 * parameters (OSSL_FUNC_signature_*_ctx_md_params).  Nothing here is
 * secret. */
#ifndef QUILL_PROV_SIG_PARAMS_H
#define QUILL_PROV_SIG_PARAMS_H

#include <openssl/core.h>

#include "digest.h"
#include "prov_ctx.h"
#include "sig_stream.h"

/* quill_sig_stream_set_digest applies "digest" (with "properties") from
 * |params| if present: refused with QUILL_R_DIGEST_NOT_ALLOWED once
 * hashing has started, otherwise fetched into s->md as
 * quill_sig_fetch_digest does for s->scheme.  Returns 1 if absent or set,
 * 0 with an error raised. */
int quill_sig_stream_set_digest(quill_sig_stream *s, const quill_provctx *prov,
                                const char *propq, const OSSL_PARAM params[], quill_md required);

/* quill_sig_stream_fetch_digest does what quill_sig_stream_set_digest does
 * but fetches into *out (which must be empty, and stays empty when |params|
 * name no digest) and leaves s->md alone: for a scheme that checks the new
 * digest against its other parameters before applying it.  Returns 0 with
 * an error raised on failure. */
int quill_sig_stream_fetch_digest(const quill_sig_stream *s, const quill_provctx *prov,
                                  const char *propq, const OSSL_PARAM params[], quill_md required,
                                  quill_prov_digest *out);

/* quill_sig_fetch_digest fetches the digest named by the string parameter
 * |pname| into *d (releasing what it held), accepting |scheme|'s digests
 * (digest.h).  Explicit properties |pprops| (may be NULL) are honoured
 * strictly; without them |propq| is tried first, then no query (digest.h).
 * If |required| is not QUILL_MD_NONE, any other digest is refused with
 * QUILL_R_PSS_RESTRICTED.  Returns 0 with an error raised and *d unchanged
 * on failure. */
int quill_sig_fetch_digest(quill_prov_digest *d, const quill_provctx *prov, const char *propq,
                           const OSSL_PARAM *pname, const OSSL_PARAM *pprops, quill_md required,
                           quill_prov_scheme scheme);

/* quill_sig_get_digest_name answers the "digest"-like parameter |p| (may
 * be NULL: nothing asked) with |md|'s name, "" for none.  Returns 0 if
 * |p| cannot take it. */
int quill_sig_get_digest_name(OSSL_PARAM *p, quill_md md);

/* The running hash's own parameters (e.g. SHAKE's output length): the
 * OSSL_FUNC_signature_*_ctx_md_params functions of every digest-based
 * scheme, whose signature context begins with its quill_sig_stream (RSA's
 * and ECDSA's: a _Static_assert beside each context type checks it).
 * |vctx| may be NULL.  get and set fail (0) before hashing has started;
 * gettable and settable return NULL without a digest. */
OSSL_FUNC_signature_get_ctx_md_params_fn quill_sig_get_ctx_md_params;
OSSL_FUNC_signature_gettable_ctx_md_params_fn quill_sig_gettable_ctx_md_params;
OSSL_FUNC_signature_set_ctx_md_params_fn quill_sig_set_ctx_md_params;
OSSL_FUNC_signature_settable_ctx_md_params_fn quill_sig_settable_ctx_md_params;

#endif
