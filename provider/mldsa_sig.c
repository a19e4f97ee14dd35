/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA-44/65/87 signature operations: each call turns the message
 * (or, in "mu" mode, mu itself) and the options into one call of the core
 * (core/mldsa/mldsa.h).  Pure ML-DSA (FIPS 204, Algorithms 2 and 3) by
 * default: mu = H(tr || 0 || len(ctx) || ctx || M, 64); with
 * "message-encoding" 0 the input is M' and mu = H(tr || M', 64).  sign and
 * verify take the whole message; digest_sign/digest_verify take it whole
 * or streamed (mu is absorbed incrementally).  One set of functions serves
 * the three sets; the dispatch tables differ only in newctx, which records
 * the set fetched, and a key of another set is refused at init.
 * Parameters are in mldsa_sig_params.c. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "common/zeroize.h"
#include "mldsa_sig.h"
#include "names.h"
#include "prov_err.h"
#include "rng.h"
#include "sigalg.h"
#include "sig_stream.h"

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

static void *newctx(void *provctx, quill_mldsa_set set) {
    quill_mldsa_sig_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->prov = provctx;
    c->alg = quill_mldsa_alg_get(set);
    c->encoding = QUILL_MLDSA_ENCODING_PURE;
    return c;
}

static void sig_freectx(void *vctx) {
    quill_mldsa_sig_ctx *c = vctx;
    if (c == NULL)
        return;
    quill_prov_mldsa_key_free(c->key);
    quill_zeroize(c, sizeof(*c)); /* the test entropy */
    OPENSSL_free(c);
}

/* A copy carries the running mu (plain memory), so that EVP can finish a
 * copy of a streamed operation and continue the original. */
static void *sig_dupctx(void *vctx) {
    const quill_mldsa_sig_ctx *src = vctx;
    if (src == NULL)
        return NULL;
    quill_mldsa_sig_ctx *c = OPENSSL_malloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        return NULL;
    }
    *c = *src;
    if (c->key != NULL)
        quill_prov_mldsa_key_up_ref(c->key);
    return c;
}

/* ---- Initialisation ---- */

/* Common to every *_init: takes the key (of this context's set, holding a
 * private key for signing), then applies |params|.  Starts no message. */
static int sig_init(quill_mldsa_sig_ctx *c, void *provkey, const OSSL_PARAM params[], int op,
                    int streaming) {
    if (c == NULL)
        return 0;
    quill_prov_mldsa_key *k = provkey;
    if (k != NULL && k->alg != c->alg) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_UNSUPPORTED_KEY, "%s key for a %s signature",
                        k->alg->name, c->alg->name);
        return 0;
    }
    if (k != NULL) {
        quill_prov_mldsa_key_up_ref(k);
        quill_prov_mldsa_key_free(c->key);
        c->key = k;
    }
    c->op = QUILL_MLDSASIG_OP_NONE;
    c->streaming = 0;
    c->started = 0;
    if (c->key == NULL || c->key->key == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if (op == QUILL_MLDSASIG_OP_SIGN && !quill_mldsa_key_has_private(c->key->key)) {
        QUILL_RAISE(c->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    if (!quill_mldsa_sig_set_ctx_params(c, params))
        return 0;
    c->op = op;
    c->streaming = streaming;
    return 1;
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_MLDSASIG_OP_SIGN, 0);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_MLDSASIG_OP_VERIFY, 0);
}

/* ML-DSA hashes the message itself: a digest may not be named. */
static int digest_init(quill_mldsa_sig_ctx *c, const char *mdname, void *provkey,
                       const OSSL_PARAM params[], int op) {
    if (mdname != NULL && *mdname != '\0') {
        QUILL_RAISE_MSG(c != NULL ? c->prov : NULL, QUILL_R_DIGEST_NOT_ALLOWED,
                        "ML-DSA takes no digest (%s)", mdname);
        return 0;
    }
    return sig_init(c, provkey, params, op, 1);
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *provkey,
                                const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, QUILL_MLDSASIG_OP_SIGN);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *provkey,
                                  const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, QUILL_MLDSASIG_OP_VERIFY);
}

/* ---- mu ---- */

/* Starts mu for a message with the current encoding and context string. */
static int mu_start(quill_mldsa_sig_ctx *c, quill_mldsa_mu *m) {
    if (c->encoding == QUILL_MLDSA_ENCODING_RAW) {
        quill_mldsa_mu_init(m, c->key->key);
        return 1;
    }
    quill_err err = quill_mldsa_mu_init_pure(m, c->key->key, c->context, c->context_len);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    return 1;
}

/* Starts mu's sponge *m and absorbs the whole message |msg|. */
static int message_sponge(quill_mldsa_sig_ctx *c, const uint8_t *msg, size_t len,
                          quill_mldsa_mu *m) {
    if (!mu_start(c, m))
        return 0;
    if (len > 0)
        quill_mldsa_mu_update(m, msg, len);
    return 1;
}

/* Computes mu for the whole message |msg|, or takes |msg| as mu in "mu"
 * mode (then it must be 64 bytes). */
static int message_mu(quill_mldsa_sig_ctx *c, const uint8_t *msg, size_t len,
                      uint8_t mu[QUILL_MLDSA_MU_BYTES]) {
    if (c->mu_input) {
        if (len != QUILL_MLDSA_MU_BYTES || msg == NULL) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PARAMETER, "mu of %zu bytes, want %d", len,
                            QUILL_MLDSA_MU_BYTES);
            return 0;
        }
        memcpy(mu, msg, QUILL_MLDSA_MU_BYTES);
        return 1;
    }
    quill_mldsa_mu m;
    if (!message_sponge(c, msg, len, &m))
        return 0;
    quill_mldsa_mu_final(&m, mu);
    return 1;
}

/* Streaming: starts mu at the first update (or at the final of an empty
 * message).  A streamed message cannot be mu itself. */
static int stream_start(quill_mldsa_sig_ctx *c) {
    if (c->started)
        return 1;
    if (c->mu_input) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "mu cannot be streamed");
        return 0;
    }
    if (!mu_start(c, &c->mu))
        return 0;
    c->started = 1;
    return 1;
}

/* Ends the streamed message: returns its sponge (NULL on error); the next
 * update starts a new message. */
static quill_mldsa_mu *stream_end(quill_mldsa_sig_ctx *c) {
    if (!stream_start(c))
        return NULL;
    c->started = 0;
    return &c->mu;
}

/* Finishes the streamed mu. */
static int stream_final(quill_mldsa_sig_ctx *c, uint8_t mu[QUILL_MLDSA_MU_BYTES]) {
    quill_mldsa_mu *m = stream_end(c);
    if (m == NULL)
        return 0;
    quill_mldsa_mu_final(m, mu);
    return 1;
}

/* ---- Sign and verify mu ---- */

/* op_ready checks that |c| holds operation |op| (streaming or not). */
static int op_ready(const quill_mldsa_sig_ctx *c, int op, int streaming) {
    return quill_sig_ready(c != NULL ? c->prov : NULL,
                           c != NULL && c->op == op && c->key != NULL &&
                               (!streaming || c->streaming));
}

/* sign_ready opens every signing call: the operation check, then the
 * output-size protocol (sig_stream.h) for this set's signature size. */
static int sign_ready(const quill_mldsa_sig_ctx *c, int streaming, const unsigned char *sig,
                      size_t *siglen, size_t sigsize) {
    if (!op_ready(c, QUILL_MLDSASIG_OP_SIGN, streaming))
        return QUILL_SIG_SIZE_FAIL;
    return quill_sig_out_size(c->prov, sig, siglen, sigsize, quill_mldsa_sig_bytes(c->alg->set));
}

/* Signs mu: rnd is all zeros when deterministic, the test entropy when
 * set, else 32 bytes of the provider's private DRBG (hedged signing,
 * FIPS 204 section 3.4). */
static int sign_mu(quill_mldsa_sig_ctx *c, const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                   unsigned char *sig, size_t *siglen, size_t sigsize) {
    uint8_t rnd[QUILL_MLDSA_RND_BYTES] = {0};
    quill_err err = QUILL_OK;
    if (c->has_entropy) {
        memcpy(rnd, c->entropy, sizeof(rnd));
    } else if (!c->deterministic) {
        quill_rng rng = quill_prov_rng_private(c->prov);
        if (!rng.fill(rng.arg, rnd, sizeof(rnd)))
            err = QUILL_ERR_RNG;
    }
    if (err == QUILL_OK)
        err = quill_mldsa_sign_mu(c->key->key, mu, rnd, sig, sigsize);
    quill_zeroize(rnd, sizeof(rnd));
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *siglen = quill_mldsa_sig_bytes(c->alg->set);
    quill_stats_add(&c->prov->stats, QUILL_STAT_MLDSA_SIGN);
    return 1;
}

/* Verifies sig against mu, given either as bytes (mu) or as the sponge
 * that makes it (m, when mu is NULL: the core then finishes mu together
 * with SampleInBall's hash, quill_mldsa_verify_mu_sponge). */
static int verify_mu(quill_mldsa_sig_ctx *c, const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                     quill_mldsa_mu *m, const unsigned char *sig, size_t siglen) {
    quill_err err = sig == NULL   ? QUILL_ERR_BAD_SIGNATURE
                    : mu != NULL ? quill_mldsa_verify_mu(c->key->key, mu, sig, siglen)
                                 : quill_mldsa_verify_mu_sponge(c->key->key, m, sig, siglen);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    quill_stats_add(&c->prov->stats, QUILL_STAT_MLDSA_VERIFY);
    return 1;
}

/* ---- Whole messages (sign, verify, digest_sign, digest_verify) ---- */

static int sign_message(quill_mldsa_sig_ctx *c, int streaming, unsigned char *sig,
                        size_t *siglen, size_t sigsize, const unsigned char *tbs, size_t tbslen) {
    int r = sign_ready(c, streaming, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    uint8_t mu[QUILL_MLDSA_MU_BYTES];
    return message_mu(c, tbs, tbslen, mu) && sign_mu(c, mu, sig, siglen, sigsize);
}

static int verify_message(quill_mldsa_sig_ctx *c, int streaming, const unsigned char *sig,
                          size_t siglen, const unsigned char *tbs, size_t tbslen) {
    if (!op_ready(c, QUILL_MLDSASIG_OP_VERIFY, streaming))
        return 0;
    if (c->mu_input) {
        uint8_t mu[QUILL_MLDSA_MU_BYTES];
        return message_mu(c, tbs, tbslen, mu) && verify_mu(c, mu, NULL, sig, siglen);
    }
    quill_mldsa_mu m;
    return message_sponge(c, tbs, tbslen, &m) && verify_mu(c, NULL, &m, sig, siglen);
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    return sign_message(vctx, 0, sig, siglen, sigsize, tbs, tbslen);
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    return verify_message(vctx, 0, sig, siglen, tbs, tbslen);
}

/* One-shot digest_sign/digest_verify: the message is whole (a message
 * already streamed by update is dropped, as it is finished here). */
static int sig_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                           const unsigned char *tbs, size_t tbslen) {
    quill_mldsa_sig_ctx *c = vctx;
    int r = sign_message(c, 1, sig, siglen, sigsize, tbs, tbslen);
    if (c != NULL && sig != NULL)
        c->started = 0;
    return r;
}

static int sig_digest_verify(void *vctx, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    quill_mldsa_sig_ctx *c = vctx;
    int r = verify_message(c, 1, sig, siglen, tbs, tbslen);
    if (c != NULL)
        c->started = 0;
    return r;
}

/* ---- Streamed messages ---- */

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
    quill_mldsa_sig_ctx *c = vctx;
    if (!quill_sig_ready(c != NULL ? c->prov : NULL,
                         c != NULL && c->streaming && c->op != QUILL_MLDSASIG_OP_NONE))
        return 0;
    if (!stream_start(c))
        return 0;
    if (datalen > 0)
        quill_mldsa_mu_update(&c->mu, data, datalen);
    return 1;
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
    quill_mldsa_sig_ctx *c = vctx;
    /* The size is checked before mu is finished: the caller may retry. */
    int r = sign_ready(c, 1, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    uint8_t mu[QUILL_MLDSA_MU_BYTES];
    return stream_final(c, mu) && sign_mu(c, mu, sig, siglen, sigsize);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
    quill_mldsa_sig_ctx *c = vctx;
    if (!op_ready(c, QUILL_MLDSASIG_OP_VERIFY, 1))
        return 0;
    quill_mldsa_mu *m = stream_end(c);
    return m != NULL && verify_mu(c, NULL, m, sig, siglen);
}

/* ---- Dispatch tables, two per set ---- */

/* For a 3.4+ core, the table with OpenSSL 3.4's message API as well
 * (sig_algs.c): sign_message_init and verify_message_init, then a whole
 * message in one sign or verify call, are sign_init and verify_init, as
 * for OpenSSL 3.5's own ML-DSA (which has no message update either). */

#define MLDSA_SIGNATURE(NN)                                                                    \
    static OSSL_FUNC_signature_newctx_fn mldsa##NN##_newctx;                                   \
    static void *mldsa##NN##_newctx(void *provctx, const char *propq) {                        \
        return newctx(provctx, QUILL_MLDSA_##NN);                                              \
    }                                                                                          \
    const OSSL_DISPATCH quill_mldsa##NN##_signature_functions[] = {                            \
        MLDSA_SIGNATURE_FUNCTIONS(NN) {0, NULL},                                               \
    };                                                                                         \
    const OSSL_DISPATCH quill_mldsa##NN##_message_signature_functions[] = {                    \
        {OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, (void (*)(void))sig_sign_init},                \
        {OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, (void (*)(void))sig_verify_init},            \
        MLDSA_SIGNATURE_FUNCTIONS(NN) {0, NULL},                                               \
    }

/* The operations of every set; NN's newctx fixes the set. */
#define MLDSA_SIGNATURE_FUNCTIONS(NN)                                                          \
        {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))mldsa##NN##_newctx},                      \
        {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},                            \
        {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},                              \
        {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},                        \
        {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},                                  \
        {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},                    \
        {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},                              \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},          \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update},           \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},        \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_digest_sign},                    \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},      \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update},         \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},    \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_digest_verify},                \
        {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))quill_mldsa_sig_get_ctx_params},  \
        {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS,                                              \
         (void (*)(void))quill_mldsa_sig_gettable_ctx_params},                                 \
        {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))quill_mldsa_sig_set_ctx_params},  \
        {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS,                                              \
         (void (*)(void))quill_mldsa_sig_settable_ctx_params},

MLDSA_SIGNATURE(44);
MLDSA_SIGNATURE(65);
MLDSA_SIGNATURE(87);
