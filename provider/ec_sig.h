/* Copyright quill authors.
 *
 * The ECDSA signature context shared by ec_sig.c (operations) and
 * ec_sig_params.c (OSSL_PARAM handling).  Nothing in it is secret but the
 * key it references (ec_key.h). */
#ifndef QUILL_PROV_EC_SIG_H
#define QUILL_PROV_EC_SIG_H

#include <openssl/core.h>
#include <openssl/evp.h>

#include "digest.h"
#include "ec_key.h"
#include "prov_ctx.h"
#include "sig_stream.h"

enum { QUILL_ECSIG_OP_NONE = 0, QUILL_ECSIG_OP_SIGN, QUILL_ECSIG_OP_VERIFY };

typedef struct quill_ec_sig_ctx {
    quill_provctx *prov;
    char *propq;
    quill_prov_ec_key *key; /* one reference, NULL before init */
    int op;
    quill_sig_stream stream;    /* the message digest, if set, and its hashing */
    quill_prov_digest nonce_md; /* HMAC hash for k when md is unset (SHA-256) */
    unsigned int nonce_type;    /* quill_ecdsa_nonce_type */
} quill_ec_sig_ctx;

/* The OSSL_FUNC_signature_* parameter functions (ec_sig_params.c). */
int quill_ec_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
const OSSL_PARAM *quill_ec_sig_settable_ctx_params(void *vctx, void *provctx);
int quill_ec_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]);
const OSSL_PARAM *quill_ec_sig_gettable_ctx_params(void *vctx, void *provctx);
int quill_ec_sig_get_ctx_md_params(void *vctx, OSSL_PARAM *params);
const OSSL_PARAM *quill_ec_sig_gettable_ctx_md_params(void *vctx);
int quill_ec_sig_set_ctx_md_params(void *vctx, const OSSL_PARAM params[]);
const OSSL_PARAM *quill_ec_sig_settable_ctx_md_params(void *vctx);

#endif
