/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ECDSA signature context shared by ec_sig.c (operations) and
 * ec_sig_params.c (OSSL_PARAM handling).  Nothing in it is secret but the
 * key it references (ec_key.h). */
#ifndef QUILL_PROV_EC_SIG_H
#define QUILL_PROV_EC_SIG_H

#include <stddef.h>

#include <openssl/core.h>
#include <openssl/evp.h>

#include "digest.h"
#include "ec_key.h"
#include "prov_ctx.h"
#include "sig_stream.h"

enum { QUILL_ECSIG_OP_NONE = 0, QUILL_ECSIG_OP_SIGN, QUILL_ECSIG_OP_VERIFY };

typedef struct quill_ec_sig_ctx {
    quill_sig_stream stream; /* first (sig_params.h): the message digest, if
                              * set, and its hashing */
    quill_provctx *prov;
    char *propq;
    quill_prov_ec_key *key; /* one reference, NULL before init */
    int op;
    quill_prov_digest nonce_md; /* HMAC hash for k when md is unset (SHA-256) */
    unsigned int nonce_type;    /* quill_ecdsa_nonce_type */
    /* A key on another curve (ec_foreign.h): the default provider's ECDSA
     * does the operation (ec_sig_foreign.c), on a digest (fpctx) or a
     * message (fmd). */
    EVP_PKEY_CTX *fpctx;
    EVP_MD_CTX *fmd;
} quill_ec_sig_ctx;
_Static_assert(offsetof(quill_ec_sig_ctx, stream) == 0, "the stream comes first (sig_params.h)");

/* ECDSA for keys on other curves (ec_sig_foreign.c): _init starts the
 * default provider's operation |op| on c->key->foreign (on a message
 * hashed with |mdname| if |message|, else on a digest); the others
 * forward the calls of ec_sig.c and ec_sig_params.c, with their
 * conventions (sig == NULL asks for the size). */
#define QUILL_EC_SIG_FOREIGN(c) ((c)->fpctx != NULL || (c)->fmd != NULL)
int quill_ec_sig_foreign_init(quill_ec_sig_ctx *c, int op, int message, const char *mdname,
                              const OSSL_PARAM params[]);
void quill_ec_sig_foreign_clear(quill_ec_sig_ctx *c);
int quill_ec_sig_foreign_copy(quill_ec_sig_ctx *dst, const quill_ec_sig_ctx *src);
int quill_ec_sig_foreign_sign(quill_ec_sig_ctx *c, unsigned char *sig, size_t *siglen,
                              size_t sigsize, const unsigned char *tbs, size_t tbslen);
int quill_ec_sig_foreign_verify(quill_ec_sig_ctx *c, const unsigned char *sig, size_t siglen,
                                const unsigned char *tbs, size_t tbslen);
int quill_ec_sig_foreign_update(quill_ec_sig_ctx *c, const unsigned char *data, size_t len);
int quill_ec_sig_foreign_sign_final(quill_ec_sig_ctx *c, unsigned char *sig, size_t *siglen,
                                    size_t sigsize);
int quill_ec_sig_foreign_verify_final(quill_ec_sig_ctx *c, const unsigned char *sig,
                                      size_t siglen);
int quill_ec_sig_foreign_set_params(quill_ec_sig_ctx *c, const OSSL_PARAM params[]);
int quill_ec_sig_foreign_get_params(quill_ec_sig_ctx *c, OSSL_PARAM params[]);

/* The OSSL_FUNC_signature_* parameter functions (ec_sig_params.c). */
int quill_ec_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
const OSSL_PARAM *quill_ec_sig_settable_ctx_params(void *vctx, void *provctx);
int quill_ec_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]);
const OSSL_PARAM *quill_ec_sig_gettable_ctx_params(void *vctx, void *provctx);

#endif
