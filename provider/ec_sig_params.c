/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Parameters of the ECDSA signature context (see ec_sig.h): "digest" (with
 * "properties"), "nonce-type" and, for reading, "algorithm-id" and
 * "digest-size". */
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "ec/ecdsa.h"
#include "ec_algid.h"
#include "ec_sig.h"
#include "names.h"
#include "prov_err.h"
#include "sig_params.h"

int quill_ec_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    quill_ec_sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    if (QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_set_params(c, params);
    if (!quill_sig_stream_set_digest(&c->stream, c->prov, c->propq, params,
                                     QUILL_MD_NONE))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_NONCE_TYPE)) != NULL) {
        unsigned int t = 0;
        if (!OSSL_PARAM_get_uint(p, &t)) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_NONCE_TYPE, "not an integer");
            return 0;
        }
        if (t != QUILL_ECDSA_NONCE_HEDGED && t != QUILL_ECDSA_NONCE_DETERMINISTIC) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_NONCE_TYPE, "nonce-type %u", t);
            return 0;
        }
        c->nonce_type = t;
    }
    return 1;
}

static const OSSL_PARAM settable_params[] = {
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_uint(OSSL_SIGNATURE_PARAM_NONCE_TYPE, NULL),
    OSSL_PARAM_END,
};

/* Once digest_*_init has started hashing, the digest can no longer change. */
static const OSSL_PARAM settable_params_locked[] = {
    OSSL_PARAM_uint(OSSL_SIGNATURE_PARAM_NONCE_TYPE, NULL),
    OSSL_PARAM_END,
};

const OSSL_PARAM *quill_ec_sig_settable_ctx_params(void *vctx, void *provctx) {
    const quill_ec_sig_ctx *c = vctx;
    return c != NULL && c->stream.locked ? settable_params_locked : settable_params;
}

int quill_ec_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    quill_ec_sig_ctx *c = vctx;
    OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_get_params(c, params);
    if (!quill_sig_get_digest_name(OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST),
                                   c->stream.md.id))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(p, c->stream.md.hash.size))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_NONCE_TYPE)) != NULL &&
        !OSSL_PARAM_set_uint(p, c->nonce_type))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        uint8_t der[QUILL_EC_ALGID_MAX];
        const quill_prov_digest *md = &c->stream.md;
        size_t len = md->md != NULL ? quill_ec_algid_ecdsa(der, sizeof(der), md->id) : 0;
        if (len == 0) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_ALGID_FAILED, "no identifier for digest %s",
                            md->md != NULL ? quill_prov_md_name(md->id) : "(none)");
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, der, len))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM gettable_params[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_size_t(OSSL_SIGNATURE_PARAM_DIGEST_SIZE, NULL),
    OSSL_PARAM_uint(OSSL_SIGNATURE_PARAM_NONCE_TYPE, NULL),
    OSSL_PARAM_END,
};

const OSSL_PARAM *quill_ec_sig_gettable_ctx_params(void *vctx, void *provctx) {
    return gettable_params;
}
