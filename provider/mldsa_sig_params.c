/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Parameters of the ML-DSA signature context (see mldsa_sig.h), named as
 * in OpenSSL 3.5: "context-string", "deterministic", "message-encoding",
 * "mu", "test-entropy", and for reading "algorithm-id". */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "der.h"
#include "mldsa_sig.h"
#include "names.h"
#include "params.h"
#include "prov_err.h"

/* Reads an int parameter that must be 0 or 1 (or, for the encoding, one of
 * the two QUILL_MLDSA_ENCODING_* values, also 0 and 1). */
static int get_flag(const quill_mldsa_sig_ctx *c, const OSSL_PARAM *p, int *out) {
    int v = 0;
    if (!OSSL_PARAM_get_int(p, &v) || (v != 0 && v != 1)) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER, "%s must be 0 or 1", p->key);
        return 0;
    }
    *out = v;
    return 1;
}

/* Refuses to change |what| once a streamed message has started (mu would
 * no longer describe the message). */
static int check_unlocked(const quill_mldsa_sig_ctx *c, const char *what) {
    if (c->started) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "%s after the message started", what);
        return 0;
    }
    return 1;
}

int quill_mldsa_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    quill_mldsa_sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    /* Everything is read and checked before anything changes. */
    const void *ctx_str = NULL, *entropy = NULL;
    size_t ctx_len = 0, entropy_len = 0;
    int det = c->deterministic, enc = c->encoding, mu = c->mu_input;
    int has_ctx = 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_CONTEXT_STRING)) != NULL) {
        if (!quill_param_get_octets(p, &ctx_str, &ctx_len)) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER, "%s is not an octet string", p->key);
            return 0;
        }
        if (ctx_len > QUILL_MLDSA_MAX_CONTEXT_BYTES) {
            QUILL_RAISE_CORE(c->prov, QUILL_ERR_CONTEXT_LENGTH);
            return 0;
        }
        if (!check_unlocked(c, p->key))
            return 0;
        has_ctx = 1;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DETERMINISTIC)) != NULL &&
        !get_flag(c, p, &det))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING)) != NULL &&
        (!get_flag(c, p, &enc) || (enc != c->encoding && !check_unlocked(c, p->key))))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MU)) != NULL &&
        (!get_flag(c, p, &mu) || (mu != c->mu_input && !check_unlocked(c, p->key))))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_TEST_ENTROPY)) != NULL) {
        if (!quill_param_get_octets(p, &entropy, &entropy_len) ||
            entropy_len != QUILL_MLDSA_RND_BYTES) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER, "%s must be %d bytes", p->key,
                            QUILL_MLDSA_RND_BYTES);
            return 0;
        }
    }
    if (has_ctx) {
        if (ctx_len > 0)
            memcpy(c->context, ctx_str, ctx_len);
        c->context_len = ctx_len;
    }
    c->deterministic = det;
    c->encoding = enc;
    c->mu_input = mu;
    if (entropy != NULL) {
        memcpy(c->entropy, entropy, QUILL_MLDSA_RND_BYTES);
        c->has_entropy = 1;
    }
    return 1;
}

static const OSSL_PARAM settable[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, NULL, 0),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_DETERMINISTIC, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MU, NULL),
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_TEST_ENTROPY, NULL, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM *quill_mldsa_sig_settable_ctx_params(void *vctx, void *provctx) {
    return settable;
}

/* The DER AlgorithmIdentifier: SEQUENCE { OBJECT IDENTIFIER } with the
 * parameters absent (RFC 9881, section 2).  Returns its length, 0 if |cap|
 * is too small. */
static size_t algorithm_id(const quill_mldsa_alg *alg, uint8_t *out, size_t cap) {
    quill_der w;
    quill_der_init(&w, out, cap);
    quill_der_algid(&w, alg->oid_der, alg->oid_der_len, QUILL_DER_PARAMS_ABSENT);
    return quill_der_finish(&w);
}

int quill_mldsa_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    quill_mldsa_sig_ctx *c = vctx;
    OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        uint8_t der[32];
        size_t len = algorithm_id(c->alg, der, sizeof(der));
        if (len == 0) {
            QUILL_RAISE(c->prov, QUILL_R_ALGID_FAILED);
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, der, len))
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DETERMINISTIC)) != NULL &&
        !OSSL_PARAM_set_int(p, c->deterministic))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING)) != NULL &&
        !OSSL_PARAM_set_int(p, c->encoding))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MU)) != NULL &&
        !OSSL_PARAM_set_int(p, c->mu_input))
        return 0;
    return 1;
}

static const OSSL_PARAM gettable[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_DETERMINISTIC, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MU, NULL),
    OSSL_PARAM_END,
};

const OSSL_PARAM *quill_mldsa_sig_gettable_ctx_params(void *vctx, void *provctx) {
    return gettable;
}
