/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The "digest" parameters and the running hash's parameters of the
 * digest-based signature contexts (see sig_params.h). */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "params.h"
#include "prov_err.h"
#include "sig_params.h"

int quill_sig_fetch_digest(quill_prov_digest *d, const quill_provctx *prov, const char *propq,
                           const OSSL_PARAM *pname, const OSSL_PARAM *pprops, quill_md required,
                           quill_prov_scheme scheme) {
    const char *name = NULL, *props = NULL;
    /* NULL properties (as OpenSSL passes for none) are no property query. */
    if (!quill_param_get_utf8(pname, &name) ||
        (pprops != NULL && !quill_param_get_string_ptr(pprops, &props))) {
        QUILL_RAISE(prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    /* Explicit properties are honoured strictly; otherwise the operation's
     * own query is tried first, then none (see digest.h). */
    quill_prov_digest tmp = {0};
    if (!quill_prov_digest_fetch_for(&tmp, prov, name, pprops != NULL ? props : propq,
                                     pprops == NULL, scheme))
        return 0;
    if (required != QUILL_MD_NONE && tmp.id != required) {
        quill_prov_digest_clear(&tmp);
        QUILL_RAISE_MSG(prov, QUILL_R_PSS_RESTRICTED, "digest %s", name);
        return 0;
    }
    quill_prov_digest_clear(d);
    *d = tmp;
    return 1;
}

int quill_sig_stream_fetch_digest(const quill_sig_stream *s, const quill_provctx *prov,
                                  const char *propq, const OSSL_PARAM params[], quill_md required,
                                  quill_prov_digest *out) {
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST);
    if (p == NULL)
        return 1;
    if (s->locked) {
        QUILL_RAISE_MSG(prov, QUILL_R_DIGEST_NOT_ALLOWED, "digest already in use");
        return 0;
    }
    const OSSL_PARAM *pp = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PROPERTIES);
    return quill_sig_fetch_digest(out, prov, propq, p, pp, required, s->scheme);
}

int quill_sig_stream_set_digest(quill_sig_stream *s, const quill_provctx *prov,
                                const char *propq, const OSSL_PARAM params[], quill_md required) {
    quill_prov_digest md = {0};
    if (!quill_sig_stream_fetch_digest(s, prov, propq, params, required, &md))
        return 0;
    if (md.md != NULL) {
        quill_prov_digest_clear(&s->md);
        s->md = md;
    }
    return 1;
}

int quill_sig_get_digest_name(OSSL_PARAM *p, quill_md md) {
    if (p == NULL)
        return 1;
    const char *n = quill_prov_md_name(md);
    return OSSL_PARAM_set_utf8_string(p, n != NULL ? n : "");
}

/* ---- The running hash's own parameters ---- */

/* |vctx| is a signature context that begins with its stream (sig_params.h):
 * a pointer to it is a pointer to the stream. */

int quill_sig_get_ctx_md_params(void *vctx, OSSL_PARAM params[]) {
    const quill_sig_stream *s = vctx;
    return s != NULL && s->mdctx != NULL && EVP_MD_CTX_get_params(s->mdctx, params);
}

const OSSL_PARAM *quill_sig_gettable_ctx_md_params(void *vctx) {
    const quill_sig_stream *s = vctx;
    return s != NULL && s->md.md != NULL ? EVP_MD_gettable_ctx_params(s->md.md) : NULL;
}

int quill_sig_set_ctx_md_params(void *vctx, const OSSL_PARAM params[]) {
    quill_sig_stream *s = vctx;
    return s != NULL && s->mdctx != NULL && EVP_MD_CTX_set_params(s->mdctx, params);
}

const OSSL_PARAM *quill_sig_settable_ctx_md_params(void *vctx) {
    const quill_sig_stream *s = vctx;
    return s != NULL && s->md.md != NULL ? EVP_MD_settable_ctx_params(s->md.md) : NULL;
}
