/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ECDSA (P-256) signature operation: contexts, sign/verify on a
 * precomputed digest of any length, and message signing with the hash
 * inside, around the core's ECDSA (core/ec/ecdsa.h) and its strict DER
 * (core/ec/ecdsa_der.h).  Parameters are in ec_sig_params.c. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "common/zeroize.h"
#include "ec/ecdsa.h"
#include "ec/ecdsa_der.h"
#include "ec/hmac_drbg.h"
#include "ec_key.h"
#include "ec_sig.h"
#include "names.h"
#include "prov_err.h"
#include "rng.h"
#include "sig_params.h"

static OSSL_FUNC_signature_newctx_fn sig_newctx;
static OSSL_FUNC_signature_freectx_fn sig_freectx;
static OSSL_FUNC_signature_dupctx_fn sig_dupctx;
static OSSL_FUNC_signature_sign_init_fn sig_sign_init;
static OSSL_FUNC_signature_sign_fn sig_sign;
static OSSL_FUNC_signature_verify_init_fn sig_verify_init;
static OSSL_FUNC_signature_verify_fn sig_verify;
static OSSL_FUNC_signature_digest_sign_init_fn sig_digest_sign_init;
static OSSL_FUNC_signature_digest_sign_update_fn sig_digest_update;
static OSSL_FUNC_signature_digest_sign_final_fn sig_digest_sign_final;
static OSSL_FUNC_signature_digest_sign_fn sig_digest_sign;
static OSSL_FUNC_signature_digest_verify_init_fn sig_digest_verify_init;
static OSSL_FUNC_signature_digest_verify_final_fn sig_digest_verify_final;
static OSSL_FUNC_signature_digest_verify_fn sig_digest_verify;

/* ---- Context life cycle ---- */

static void *sig_newctx(void *provctx, const char *propq) {
    quill_ec_sig_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->prov = provctx;
    if (propq != NULL && (c->propq = OPENSSL_strdup(propq)) == NULL) {
        OPENSSL_free(c);
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->nonce_type = QUILL_ECDSA_NONCE_HEDGED;
    return c;
}

static void sig_freectx(void *vctx) {
    quill_ec_sig_ctx *c = vctx;
    if (c == NULL)
        return;
    quill_sig_stream_clear(&c->stream);
    quill_prov_digest_clear(&c->nonce_md);
    quill_ec_sig_foreign_clear(c);
    quill_prov_ec_key_free(c->key);
    OPENSSL_free(c->propq);
    OPENSSL_free(c);
}

static void *sig_dupctx(void *vctx) {
    const quill_ec_sig_ctx *src = vctx;
    if (src == NULL)
        return NULL;
    quill_ec_sig_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        return NULL;
    }
    *c = *src;
    c->propq = NULL;
    c->nonce_md.md = NULL;
    c->fpctx = NULL; /* src's, until copied below */
    c->fmd = NULL;
    if (c->key != NULL)
        quill_prov_ec_key_up_ref(c->key);
    int ok = quill_sig_stream_copy(&c->stream, &src->stream) && quill_ec_sig_foreign_copy(c, src) &&
             quill_prov_digest_copy(&c->nonce_md, &src->nonce_md) &&
             (src->propq == NULL || (c->propq = OPENSSL_strdup(src->propq)) != NULL);
    if (!ok) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        sig_freectx(c);
        return NULL;
    }
    return c;
}

/* ---- Initialisation ---- */

/* Common to every *_init: takes the key (which must hold a public key, and
 * a private key for signing), resets the nonce type, then applies |params|
 * and, for an operation on a |message|, starts hashing it with |mdname|.
 * A key on another curve starts the default provider's operation
 * instead. */
static int sig_init(quill_ec_sig_ctx *c, void *provkey, const OSSL_PARAM params[], int op,
                    int message, const char *mdname) {
    if (c == NULL)
        return 0;
    if (provkey != NULL) {
        quill_prov_ec_key_up_ref(provkey);
        quill_prov_ec_key_free(c->key);
        c->key = provkey;
    }
    quill_ec_sig_foreign_clear(c);
    c->op = QUILL_ECSIG_OP_NONE; /* until this init succeeds */
    if (c->key != NULL && c->key->foreign != NULL) { /* another curve */
        quill_sig_stream_clear(&c->stream);
        return quill_ec_sig_foreign_init(c, op, message, mdname, params);
    }
    if (c->key == NULL || !c->key->has_group || !quill_prov_ec_key_has_pub(c->key)) {
        QUILL_RAISE(c->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if (op == QUILL_ECSIG_OP_SIGN && !c->key->has_priv) {
        QUILL_RAISE(c->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    c->op = op;
    c->stream.locked = 0;
    c->nonce_type = QUILL_ECDSA_NONCE_HEDGED;
    if (!message)
        return quill_ec_sig_set_ctx_params(c, params);
    return quill_sig_stream_init(&c->stream, c->prov, c->propq, mdname,
                                 quill_ec_sig_set_ctx_params, c, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_ECSIG_OP_SIGN, 0, NULL);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_ECSIG_OP_VERIFY, 0, NULL);
}

/* ---- Sign and verify a digest ---- */

/* op_ready checks that |c| holds an operation |op| initialised with a key,
 * raising QUILL_R_OPERATION_NOT_INITIALISED if not. */
static int op_ready(const quill_ec_sig_ctx *c, int op) {
    return quill_sig_ready(c != NULL ? c->prov : NULL, c != NULL && c->op == op &&
                                                           c->key != NULL &&
                                                           c->key->foreign == NULL);
}

/* sign_ready opens every signing call: op_ready for signing, then the
 * output-size protocol (sig_stream.h); returns a QUILL_SIG_SIZE_* value. */
static int sign_ready(const quill_ec_sig_ctx *c, const unsigned char *sig, size_t *siglen,
                      size_t sigsize) {
    if (!op_ready(c, QUILL_ECSIG_OP_SIGN))
        return QUILL_SIG_SIZE_FAIL;
    return quill_sig_out_size(c->prov, sig, siglen, sigsize, QUILL_ECDSA_P256_DER_MAX);
}

static int check_digest_len(const quill_ec_sig_ctx *c, size_t tbslen) {
    if (c->stream.md.md != NULL && tbslen != c->stream.md.hash.size) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_INVALID_DIGEST_LENGTH, "%zu bytes for %s", tbslen,
                        quill_prov_md_name(c->stream.md.id));
        return 0;
    }
    return 1;
}

/* The hash HMAC_DRBG uses for k: the message digest (RFC 6979 requires
 * it), else SHA-256 (a raw digest of unknown origin).  The core's HMAC
 * takes blocks of up to QUILL_HMAC_MAX_BLOCK (144) bytes, which covers every
 * SHA-2 and SHA-3 digest; for a digest with a larger block, hedged signing
 * would draw k with SHA-256 (any hash serves a hedged nonce) and
 * deterministic signing is refused (it would not be RFC 6979's k). */
static const quill_hash *nonce_hash(quill_ec_sig_ctx *c) {
    if (c->stream.md.md != NULL && c->stream.md.hash.block_size <= QUILL_HMAC_MAX_BLOCK)
        return &c->stream.md.hash;
    if (c->stream.md.md != NULL && c->nonce_type == QUILL_ECDSA_NONCE_DETERMINISTIC) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED,
                        "deterministic nonces with %s (HMAC block of %zu bytes)",
                        quill_prov_md_name(c->stream.md.id), c->stream.md.hash.block_size);
        return NULL;
    }
    if (c->nonce_md.md == NULL &&
        !quill_prov_digest_fetch(&c->nonce_md, c->prov, "SHA256", c->propq, 1))
        return NULL;
    return &c->nonce_md.hash;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_sign(c, sig, siglen, sigsize, tbs, tbslen);
    int r = sign_ready(c, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    if (!check_digest_len(c, tbslen))
        return 0;
    const quill_hash *h = nonce_hash(c);
    if (h == NULL)
        return 0;
    quill_rng rng = quill_prov_rng_private(c->prov);
    uint8_t raw[QUILL_P256_SIG_BYTES];
    size_t len = 0;
    quill_err err = quill_ecdsa_p256_sign(raw, c->key->priv, tbs, tbslen, h,
                                          (quill_ecdsa_nonce_type)c->nonce_type, &rng);
    if (err == QUILL_OK)
        err = quill_ecdsa_p256_sig_to_der(sig, sigsize, &len, raw);
    quill_zeroize(raw, sizeof(raw));
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *siglen = len;
    quill_stats_add(&c->prov->stats, QUILL_STAT_ECDSA_SIGN);
    return 1;
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_verify(c, sig, siglen, tbs, tbslen);
    if (!op_ready(c, QUILL_ECSIG_OP_VERIFY))
        return 0;
    if (!check_digest_len(c, tbslen))
        return 0;
    uint8_t raw[QUILL_P256_SIG_BYTES];
    quill_err err = sig == NULL ? QUILL_ERR_BAD_SIGNATURE
                                : quill_ecdsa_p256_sig_from_der(raw, sig, siglen);
    if (err == QUILL_OK) {
        /* The first verification with a generated key converts its point
         * (ec_key.h). */
        quill_p256_public scratch;
        const quill_p256_public *q = quill_prov_ec_key_pub(c->key, &scratch);
        err = q == NULL ? QUILL_ERR_INTERNAL
                        : quill_ecdsa_p256_verify_cached(q, &c->key->vcache, tbs, tbslen, raw);
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    quill_stats_add(&c->prov->stats, QUILL_STAT_ECDSA_VERIFY);
    return 1;
}

/* ---- Sign and verify a message (hashing inside) ---- */

static int sig_digest_sign_init(void *vctx, const char *mdname, void *provkey,
                                const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_ECSIG_OP_SIGN, 1, mdname);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *provkey,
                                  const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_ECSIG_OP_VERIFY, 1, mdname);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_update(c, data, datalen);
    return quill_sig_stream_update(c != NULL ? &c->stream : NULL, c != NULL ? c->prov : NULL,
                                   data, datalen);
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_sign_final(c, sig, siglen, sigsize);
    /* The size is checked before the hash is finalised: the caller may
     * retry. */
    int r = sign_ready(c, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    return quill_sig_stream_sign_final(&c->stream, c->prov, sig_sign, c, sig, siglen, sigsize);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_verify_final(c, sig, siglen);
    return op_ready(c, QUILL_ECSIG_OP_VERIFY) &&
           quill_sig_stream_verify_final(&c->stream, c->prov, sig_verify, c, sig, siglen);
}

static int sig_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                           const unsigned char *tbs, size_t tbslen) {
    quill_ec_sig_ctx *c = vctx;
    if (c != NULL && QUILL_EC_SIG_FOREIGN(c))
        return quill_ec_sig_foreign_sign(c, sig, siglen, sigsize, tbs, tbslen);
    int r = sign_ready(vctx, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    return sig_digest_update(vctx, tbs, tbslen) &&
           sig_digest_sign_final(vctx, sig, siglen, sigsize);
}

static int sig_digest_verify(void *vctx, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    /* update and verify_final forward a key on another curve themselves. */
    return sig_digest_update(vctx, tbs, tbslen) && sig_digest_verify_final(vctx, sig, siglen);
}

const OSSL_DISPATCH quill_ecdsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_digest_sign},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_digest_verify},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))quill_ec_sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))quill_ec_sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))quill_ec_sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))quill_ec_sig_settable_ctx_params},
    {OSSL_FUNC_SIGNATURE_GET_CTX_MD_PARAMS, (void (*)(void))quill_sig_get_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_MD_PARAMS, (void (*)(void))quill_sig_gettable_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_MD_PARAMS, (void (*)(void))quill_sig_set_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_MD_PARAMS, (void (*)(void))quill_sig_settable_ctx_md_params},
    {0, NULL},
};
