/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The signature algorithms named for key and digest (see sigalg.h): a
 * context wraps one of the scheme's own (RSA's or ECDSA's, found through
 * its dispatch table), fixes the digest at every init and maps the
 * operations:
 *   sign_init, verify_init, verify_recover_init   the scheme's, digest set
 *   sign_message_init, verify_message_init        its digest_*_init
 *   sign_message_update / _final, verify_...      its digest_* update/final
 *   sign, verify                                  its sign/verify on a digest,
 *                                                 or digest_sign/verify on a
 *                                                 message after *_message_init
 * Only "signature" (verify_message) and the parameters the default
 * provider's same algorithm takes (ECDSA's "nonce-type") are settable; the
 * rest (digest, padding) are fixed. */
#include "sigalg.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "names.h"
#include "prov_ctx.h"
#include "prov_err.h"

/* The scheme's functions the wrapper calls. */
typedef struct scheme_fns {
    OSSL_FUNC_signature_newctx_fn *newctx;
    OSSL_FUNC_signature_freectx_fn *freectx;
    OSSL_FUNC_signature_dupctx_fn *dupctx;
    OSSL_FUNC_signature_sign_init_fn *sign_init;
    OSSL_FUNC_signature_sign_fn *sign;
    OSSL_FUNC_signature_verify_init_fn *verify_init;
    OSSL_FUNC_signature_verify_fn *verify;
    OSSL_FUNC_signature_verify_recover_init_fn *verify_recover_init;
    OSSL_FUNC_signature_verify_recover_fn *verify_recover;
    OSSL_FUNC_signature_digest_sign_init_fn *digest_sign_init;
    OSSL_FUNC_signature_digest_sign_update_fn *digest_sign_update;
    OSSL_FUNC_signature_digest_sign_final_fn *digest_sign_final;
    OSSL_FUNC_signature_digest_sign_fn *digest_sign;
    OSSL_FUNC_signature_digest_verify_init_fn *digest_verify_init;
    OSSL_FUNC_signature_digest_verify_update_fn *digest_verify_update;
    OSSL_FUNC_signature_digest_verify_final_fn *digest_verify_final;
    OSSL_FUNC_signature_digest_verify_fn *digest_verify;
    OSSL_FUNC_signature_get_ctx_params_fn *get_ctx_params;
    OSSL_FUNC_signature_gettable_ctx_params_fn *gettable_ctx_params;
    OSSL_FUNC_signature_set_ctx_params_fn *set_ctx_params;
} scheme_fns;

/* One algorithm: its scheme, digest and settable parameters. */
typedef struct sigalg {
    const OSSL_DISPATCH *scheme; /* quill_rsa_signature_functions, ... */
    const char *md;              /* OpenSSL's name of the fixed digest */
    const char *forward;         /* a parameter passed on to the scheme, or NULL */
    const OSSL_PARAM *settable;  /* without "signature" (NULL: none) */
    const OSSL_PARAM *settable_verify_message; /* with it */
} sigalg;

enum { OP_NONE, OP_SIGN, OP_VERIFY, OP_VERIFY_RECOVER, OP_SIGN_MESSAGE, OP_VERIFY_MESSAGE };

typedef struct sigalg_ctx {
    quill_provctx *prov;
    const sigalg *alg;
    scheme_fns f;
    void *inner; /* the scheme's context */
    int op;
    unsigned char *sig; /* verify_message: the signature to check */
    size_t siglen;
} sigalg_ctx;

/* Fills *f from the scheme's dispatch table. */
static void scheme_resolve(scheme_fns *f, const OSSL_DISPATCH *d) {
    memset(f, 0, sizeof(*f));
    for (; d->function_id != 0; d++) {
        switch (d->function_id) {
#define FN(ID, field, TYPE)                                                                      \
    case ID:                                                                                     \
        f->field = OSSL_FUNC_signature_##TYPE(d);                                                \
        break;
            FN(OSSL_FUNC_SIGNATURE_NEWCTX, newctx, newctx)
            FN(OSSL_FUNC_SIGNATURE_FREECTX, freectx, freectx)
            FN(OSSL_FUNC_SIGNATURE_DUPCTX, dupctx, dupctx)
            FN(OSSL_FUNC_SIGNATURE_SIGN_INIT, sign_init, sign_init)
            FN(OSSL_FUNC_SIGNATURE_SIGN, sign, sign)
            FN(OSSL_FUNC_SIGNATURE_VERIFY_INIT, verify_init, verify_init)
            FN(OSSL_FUNC_SIGNATURE_VERIFY, verify, verify)
            FN(OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, verify_recover_init, verify_recover_init)
            FN(OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, verify_recover, verify_recover)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, digest_sign_init, digest_sign_init)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, digest_sign_update, digest_sign_update)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, digest_sign_final, digest_sign_final)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_SIGN, digest_sign, digest_sign)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, digest_verify_init, digest_verify_init)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, digest_verify_update, digest_verify_update)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, digest_verify_final, digest_verify_final)
            FN(OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, digest_verify, digest_verify)
            FN(OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, get_ctx_params, get_ctx_params)
            FN(OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, gettable_ctx_params, gettable_ctx_params)
            FN(OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, set_ctx_params, set_ctx_params)
#undef FN
        default:
            break;
        }
    }
}

/* ---- Context life cycle ---- */

static void *sigalg_newctx(void *provctx, const char *propq, const sigalg *alg) {
    sigalg_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->prov = provctx;
    c->alg = alg;
    scheme_resolve(&c->f, alg->scheme);
    if ((c->inner = c->f.newctx(provctx, propq)) == NULL) {
        OPENSSL_free(c);
        return NULL;
    }
    return c;
}

static void sigalg_freectx(void *vctx) {
    sigalg_ctx *c = vctx;
    if (c == NULL)
        return;
    c->f.freectx(c->inner);
    OPENSSL_free(c->sig);
    OPENSSL_free(c);
}

static void *sigalg_dupctx(void *vctx) {
    const sigalg_ctx *src = vctx;
    sigalg_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        return NULL;
    }
    *c = *src;
    c->sig = NULL;
    if ((c->inner = src->f.dupctx(src->inner)) == NULL) {
        OPENSSL_free(c);
        return NULL;
    }
    if (src->sig != NULL && (c->sig = OPENSSL_memdup(src->sig, src->siglen)) == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        sigalg_freectx(c);
        return NULL;
    }
    return c;
}

/* ---- Parameters ---- */

static int sigalg_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    sigalg_ctx *c = vctx;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    const OSSL_PARAM *p;
    if (c->op == OP_VERIFY_MESSAGE &&
        (p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_SIGNATURE)) != NULL) {
        OPENSSL_free(c->sig);
        c->sig = NULL;
        c->siglen = 0;
        if (!OSSL_PARAM_get_octet_string(p, (void **)&c->sig, 0, &c->siglen)) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER, "%s", OSSL_SIGNATURE_PARAM_SIGNATURE);
            return 0;
        }
    }
    if (c->alg->forward != NULL && (p = OSSL_PARAM_locate_const(params, c->alg->forward)) != NULL) {
        OSSL_PARAM one[2] = {*p, OSSL_PARAM_END};
        return c->f.set_ctx_params(c->inner, one);
    }
    return 1;
}

static const OSSL_PARAM *sigalg_settable_ctx_params(void *vctx, void *provctx) {
    (void)provctx;
    const sigalg_ctx *c = vctx;
    if (c == NULL)
        return NULL;
    return c->op == OP_VERIFY_MESSAGE ? c->alg->settable_verify_message : c->alg->settable;
}

/* "algorithm-id", "digest" and the rest are the scheme's answers. */
static int sigalg_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    sigalg_ctx *c = vctx;
    return c != NULL && c->f.get_ctx_params(c->inner, params);
}

/* The scheme's table, also without a context (EVP_SIGNATURE_gettable_ctx_params
 * asks with none, and the scheme's table does not depend on one). */
static const OSSL_PARAM *sigalg_gettable_ctx_params(const sigalg *alg, void *vctx,
                                                   void *provctx) {
    const sigalg_ctx *c = vctx;
    if (c != NULL)
        return c->f.gettable_ctx_params(c->inner, provctx);
    scheme_fns f;
    scheme_resolve(&f, alg->scheme);
    return f.gettable_ctx_params != NULL ? f.gettable_ctx_params(NULL, provctx) : NULL;
}

/* ---- Initialisation ---- */

/* Sets the fixed digest on the scheme's context (digest mode). */
static int set_digest(sigalg_ctx *c) {
    OSSL_PARAM p[2] = {
        OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, (char *)c->alg->md, 0),
        OSSL_PARAM_END};
    return c->f.set_ctx_params(c->inner, p);
}

static int sigalg_init(sigalg_ctx *c, void *provkey, const OSSL_PARAM params[], int op) {
    if (c == NULL)
        return 0;
    c->op = OP_NONE;
    OPENSSL_free(c->sig);
    c->sig = NULL;
    c->siglen = 0;
    int ok = 0;
    switch (op) {
    case OP_SIGN:
        ok = c->f.sign_init(c->inner, provkey, NULL) && set_digest(c);
        break;
    case OP_VERIFY:
        ok = c->f.verify_init(c->inner, provkey, NULL) && set_digest(c);
        break;
    case OP_VERIFY_RECOVER:
        ok = c->f.verify_recover_init != NULL &&
             c->f.verify_recover_init(c->inner, provkey, NULL) && set_digest(c);
        break;
    case OP_SIGN_MESSAGE:
        ok = c->f.digest_sign_init(c->inner, c->alg->md, provkey, NULL);
        break;
    case OP_VERIFY_MESSAGE:
        ok = c->f.digest_verify_init(c->inner, c->alg->md, provkey, NULL);
        break;
    default:
        break;
    }
    if (!ok)
        return 0;
    c->op = op;
    return sigalg_set_ctx_params(c, params);
}

static int sigalg_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sigalg_init(vctx, provkey, params, OP_SIGN);
}

static int sigalg_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sigalg_init(vctx, provkey, params, OP_VERIFY);
}

static int sigalg_verify_recover_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sigalg_init(vctx, provkey, params, OP_VERIFY_RECOVER);
}

static int sigalg_sign_message_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sigalg_init(vctx, provkey, params, OP_SIGN_MESSAGE);
}

static int sigalg_verify_message_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sigalg_init(vctx, provkey, params, OP_VERIFY_MESSAGE);
}

/* ---- Operations ---- */

/* Returns 1 if |c| holds |op|, else raises QUILL_R_OPERATION_NOT_INITIALISED. */
static int holds(const sigalg_ctx *c, int op) {
    if (c != NULL && c->op == op)
        return 1;
    QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
    return 0;
}

static int sigalg_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                       const unsigned char *tbs, size_t tbslen) {
    sigalg_ctx *c = vctx;
    if (c != NULL && c->op == OP_SIGN_MESSAGE)
        return c->f.digest_sign(c->inner, sig, siglen, sigsize, tbs, tbslen);
    return holds(c, OP_SIGN) && c->f.sign(c->inner, sig, siglen, sigsize, tbs, tbslen);
}

static int sigalg_verify(void *vctx, const unsigned char *sig, size_t siglen,
                         const unsigned char *tbs, size_t tbslen) {
    sigalg_ctx *c = vctx;
    if (c != NULL && c->op == OP_VERIFY_MESSAGE)
        return c->f.digest_verify(c->inner, sig, siglen, tbs, tbslen);
    return holds(c, OP_VERIFY) && c->f.verify(c->inner, sig, siglen, tbs, tbslen);
}

static int sigalg_verify_recover(void *vctx, unsigned char *rout, size_t *routlen,
                                 size_t routsize, const unsigned char *sig, size_t siglen) {
    sigalg_ctx *c = vctx;
    return holds(c, OP_VERIFY_RECOVER) &&
           c->f.verify_recover(c->inner, rout, routlen, routsize, sig, siglen);
}

static int sigalg_sign_message_update(void *vctx, const unsigned char *data, size_t datalen) {
    sigalg_ctx *c = vctx;
    return holds(c, OP_SIGN_MESSAGE) && c->f.digest_sign_update(c->inner, data, datalen);
}

static int sigalg_sign_message_final(void *vctx, unsigned char *sig, size_t *siglen,
                                     size_t sigsize) {
    sigalg_ctx *c = vctx;
    return holds(c, OP_SIGN_MESSAGE) && c->f.digest_sign_final(c->inner, sig, siglen, sigsize);
}

static int sigalg_verify_message_update(void *vctx, const unsigned char *data, size_t datalen) {
    sigalg_ctx *c = vctx;
    return holds(c, OP_VERIFY_MESSAGE) && c->f.digest_verify_update(c->inner, data, datalen);
}

static int sigalg_verify_message_final(void *vctx) {
    sigalg_ctx *c = vctx;
    if (!holds(c, OP_VERIFY_MESSAGE))
        return 0;
    if (c->sig == NULL) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER,
                        "no signature to verify (EVP_PKEY_CTX_set_signature)");
        return 0;
    }
    return c->f.digest_verify_final(c->inner, c->sig, c->siglen);
}

/* ---- The algorithms ---- */

static const char **rsa_key_types(void) {
    static const char *types[] = {"RSA", NULL};
    return types;
}

static const char **ec_key_types(void) {
    static const char *types[] = {"EC", NULL};
    return types;
}

static const OSSL_PARAM rsa_settable_verify_message[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE, NULL, 0),
    OSSL_PARAM_END,
};
static const OSSL_PARAM ec_settable[] = {
    OSSL_PARAM_uint(OSSL_SIGNATURE_PARAM_NONCE_TYPE, NULL),
    OSSL_PARAM_END,
};
static const OSSL_PARAM ec_settable_verify_message[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE, NULL, 0),
    OSSL_PARAM_uint(OSSL_SIGNATURE_PARAM_NONCE_TYPE, NULL),
    OSSL_PARAM_END,
};

#define FUNC(ID, f) {ID, (void (*)(void))(f)}

#define SIGALG_COMMON(id, keytypes)                                                              \
    FUNC(OSSL_FUNC_SIGNATURE_NEWCTX, id##_newctx), FUNC(OSSL_FUNC_SIGNATURE_FREECTX, sigalg_freectx), \
        FUNC(OSSL_FUNC_SIGNATURE_DUPCTX, sigalg_dupctx),                                         \
        FUNC(OSSL_FUNC_SIGNATURE_SIGN_INIT, sigalg_sign_init),                                   \
        FUNC(OSSL_FUNC_SIGNATURE_SIGN, sigalg_sign),                                             \
        FUNC(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, sigalg_sign_message_init),                   \
        FUNC(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE, sigalg_sign_message_update),               \
        FUNC(OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL, sigalg_sign_message_final),                 \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_INIT, sigalg_verify_init),                               \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY, sigalg_verify),                                         \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, sigalg_verify_message_init),               \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE, sigalg_verify_message_update),           \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL, sigalg_verify_message_final),             \
        FUNC(OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES, keytypes),                                     \
        FUNC(OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, sigalg_get_ctx_params),                         \
        FUNC(OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, id##_gettable_ctx_params),                 \
        FUNC(OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, sigalg_set_ctx_params),                         \
        FUNC(OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, sigalg_settable_ctx_params)

/* RSA: PKCS#1 v1.5 (the scheme's default padding), verify-recover too. */
#define RSA_SIGALG(id, names, mdname)                                                            \
    static const sigalg id##_alg = {quill_rsa_signature_functions, mdname, NULL, NULL,            \
                                    rsa_settable_verify_message};                                \
    static void *id##_newctx(void *provctx, const char *propq) {                                 \
        return sigalg_newctx(provctx, propq, &id##_alg);                                         \
    }                                                                                            \
    static const OSSL_PARAM *id##_gettable_ctx_params(void *vctx, void *provctx) {             \
        return sigalg_gettable_ctx_params(&id##_alg, vctx, provctx);                             \
    }                                                                                            \
    const OSSL_DISPATCH quill_sigalg_##id##_functions[] = {                                     \
        SIGALG_COMMON(id, rsa_key_types),                                                        \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, sigalg_verify_recover_init),               \
        FUNC(OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, sigalg_verify_recover),                         \
        {0, NULL}};

/* ECDSA: "nonce-type" settable, as in the default provider. */
#define ECDSA_SIGALG(id, names, mdname)                                                          \
    static const sigalg id##_alg = {quill_ecdsa_signature_functions, mdname,                     \
                                    OSSL_SIGNATURE_PARAM_NONCE_TYPE, ec_settable,                \
                                    ec_settable_verify_message};                                 \
    static void *id##_newctx(void *provctx, const char *propq) {                                 \
        return sigalg_newctx(provctx, propq, &id##_alg);                                         \
    }                                                                                            \
    static const OSSL_PARAM *id##_gettable_ctx_params(void *vctx, void *provctx) {             \
        return sigalg_gettable_ctx_params(&id##_alg, vctx, provctx);                             \
    }                                                                                            \
    const OSSL_DISPATCH quill_sigalg_##id##_functions[] = {SIGALG_COMMON(id, ec_key_types),     \
                                                           {0, NULL}};

QUILL_RSA_SIGALGS(RSA_SIGALG)
QUILL_ECDSA_SIGALGS(ECDSA_SIGALG)
