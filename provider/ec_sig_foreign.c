/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ECDSA with a key on a curve other than P-256 (ec_foreign.h): the key
 * object holds the default provider's EVP_PKEY, and every call of quill's
 * ECDSA on it is forwarded to the default provider's ECDSA in quill's own
 * library context, through EVP_PKEY_sign/verify (digests) or
 * EVP_DigestSign/Verify (messages).  Not counted in QUILL_STATS. */
#include <openssl/err.h>

#include "ec_foreign.h"
#include "ec_sig.h"
#include "prov_err.h"

static int failed(const quill_ec_sig_ctx *c, const char *what) {
    QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "ECDSA (other curve): %s failed", what);
    return 0;
}

/* A verdict of "invalid" raises quill's reason, as on the P-256 path (the
 * default provider raises none). */
static int verdict(const quill_ec_sig_ctx *c, int r) {
    if (r == 1)
        return 1;
    QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_SIGNATURE, "ECDSA (other curve)");
    return 0;
}

/* The output size is checked before anything reaches the default provider,
 * which would hash a one-shot message before failing on a short buffer, so
 * that the caller can retry (as on the P-256 path). */
static int size_ok(const quill_ec_sig_ctx *c, const unsigned char *sig, size_t sigsize) {
    int need = EVP_PKEY_get_size(c->key->foreign);
    if (sig == NULL || need <= 0 || sigsize >= (size_t)need)
        return 1;
    QUILL_RAISE_MSG(c->prov, QUILL_R_BUFFER_TOO_SMALL, "%zu bytes for a %d-byte signature",
                    sigsize, need);
    return 0;
}

void quill_ec_sig_foreign_clear(quill_ec_sig_ctx *c) {
    EVP_PKEY_CTX_free(c->fpctx);
    EVP_MD_CTX_free(c->fmd);
    c->fpctx = NULL;
    c->fmd = NULL;
}

int quill_ec_sig_foreign_init(quill_ec_sig_ctx *c, int op, int message, const char *mdname,
                              const OSSL_PARAM params[]) {
    quill_ec_sig_foreign_clear(c);
    EVP_PKEY *k = c->key->foreign;
    int sign = op == QUILL_ECSIG_OP_SIGN, ok;
    if (message) {
        ok = (c->fmd = EVP_MD_CTX_new()) != NULL &&
             (sign ? EVP_DigestSignInit_ex(c->fmd, NULL, mdname, c->prov->libctx,
                                           QUILL_EC_FOREIGN_PROPQ, k, params)
                   : EVP_DigestVerifyInit_ex(c->fmd, NULL, mdname, c->prov->libctx,
                                             QUILL_EC_FOREIGN_PROPQ, k, params)) == 1;
    } else {
        ok = (c->fpctx = EVP_PKEY_CTX_new_from_pkey(c->prov->libctx, k,
                                                    QUILL_EC_FOREIGN_PROPQ)) != NULL &&
             (sign ? EVP_PKEY_sign_init_ex(c->fpctx, params)
                   : EVP_PKEY_verify_init_ex(c->fpctx, params)) == 1;
    }
    if (!ok) {
        quill_ec_sig_foreign_clear(c);
        return failed(c, "initialisation");
    }
    c->op = op;
    return 1;
}

int quill_ec_sig_foreign_copy(quill_ec_sig_ctx *dst, const quill_ec_sig_ctx *src) {
    dst->fpctx = NULL;
    dst->fmd = NULL;
    if (src->fpctx != NULL && (dst->fpctx = EVP_PKEY_CTX_dup(src->fpctx)) == NULL)
        return failed(src, "copy");
    if (src->fmd != NULL &&
        ((dst->fmd = EVP_MD_CTX_new()) == NULL || EVP_MD_CTX_copy_ex(dst->fmd, src->fmd) != 1)) {
        quill_ec_sig_foreign_clear(dst);
        return failed(src, "copy");
    }
    return 1;
}

/* The one-shot and final calls take *siglen = sigsize in and give the
 * length out; sig == NULL asks for the maximum. */
int quill_ec_sig_foreign_sign(quill_ec_sig_ctx *c, unsigned char *sig, size_t *siglen,
                              size_t sigsize, const unsigned char *tbs, size_t tbslen) {
    size_t len = sig != NULL ? sigsize : 0;
    if (!size_ok(c, sig, sigsize))
        return 0;
    int ok = c->fpctx != NULL ? EVP_PKEY_sign(c->fpctx, sig, &len, tbs, tbslen) == 1
                              : EVP_DigestSign(c->fmd, sig, &len, tbs, tbslen) == 1;
    if (!ok)
        return failed(c, "signing");
    *siglen = len;
    return 1;
}

int quill_ec_sig_foreign_verify(quill_ec_sig_ctx *c, const unsigned char *sig, size_t siglen,
                                const unsigned char *tbs, size_t tbslen) {
    if (c->fpctx != NULL)
        return verdict(c, EVP_PKEY_verify(c->fpctx, sig, siglen, tbs, tbslen));
    return verdict(c, EVP_DigestVerify(c->fmd, sig, siglen, tbs, tbslen));
}

int quill_ec_sig_foreign_update(quill_ec_sig_ctx *c, const unsigned char *data, size_t len) {
    if (c->fmd == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    int ok = c->op == QUILL_ECSIG_OP_SIGN ? EVP_DigestSignUpdate(c->fmd, data, len)
                                          : EVP_DigestVerifyUpdate(c->fmd, data, len);
    return ok == 1 || failed(c, "hashing");
}

int quill_ec_sig_foreign_sign_final(quill_ec_sig_ctx *c, unsigned char *sig, size_t *siglen,
                                    size_t sigsize) {
    size_t len = sig != NULL ? sigsize : 0;
    if (c->fmd == NULL || c->op != QUILL_ECSIG_OP_SIGN) {
        QUILL_RAISE(c->prov, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    if (!size_ok(c, sig, sigsize))
        return 0;
    if (EVP_DigestSignFinal(c->fmd, sig, &len) != 1)
        return failed(c, "signing");
    *siglen = len;
    return 1;
}

int quill_ec_sig_foreign_verify_final(quill_ec_sig_ctx *c, const unsigned char *sig,
                                      size_t siglen) {
    if (c->fmd == NULL || c->op != QUILL_ECSIG_OP_VERIFY) {
        QUILL_RAISE(c->prov, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    return verdict(c, EVP_DigestVerifyFinal(c->fmd, sig, siglen));
}

static EVP_PKEY_CTX *pkey_ctx(quill_ec_sig_ctx *c) {
    return c->fpctx != NULL ? c->fpctx : EVP_MD_CTX_get_pkey_ctx(c->fmd);
}

int quill_ec_sig_foreign_set_params(quill_ec_sig_ctx *c, const OSSL_PARAM params[]) {
    return EVP_PKEY_CTX_set_params(pkey_ctx(c), params) == 1 || failed(c, "set_params");
}

int quill_ec_sig_foreign_get_params(quill_ec_sig_ctx *c, OSSL_PARAM params[]) {
    return EVP_PKEY_CTX_get_params(pkey_ctx(c), params) == 1 || failed(c, "get_params");
}
