/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The operations quill-speed times, through plain EVP.  Each speed_impl is
 * bound to one provider by the property query "provider=<name>" and checks
 * once (sign, verify) or on every key (keygen) that this provider really
 * served it (by the name it was loaded under), so a silent fallback to
 * another provider cannot pass for a measurement.
 *
 * Two signing interfaces: algorithms with a digest (RSA, ECDSA) sign that
 * digest's output with EVP_PKEY_sign, as `openssl speed` does; algorithms
 * without (ML-DSA) sign a 64-byte message with the one-shot EVP_DigestSign
 * (and verify with EVP_DigestVerify) with no digest name, the path an
 * application or X.509 code takes on OpenSSL 3.0.  The EVP_MD_CTX is kept
 * from one operation to the next when OpenSSL allows a second one-shot
 * call on it; otherwise it is re-initialised before each operation (and that
 * cost is part of the figure; speed_impl_new finds out which). */
#include "speed.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

struct speed_impl {
    const speed_prov *prov; /* not owned */
    speed_kind kind;
    EVP_PKEY_CTX *ctx;     /* digest-signing algorithms and keygen */
    EVP_MD_CTX *mctx;      /* message-signing algorithms (alg->md == NULL) */
    int reinit;            /* mctx needs a fresh init before each operation */
    EVP_PKEY *key;         /* not owned */
    uint8_t tbs[64];
    size_t tbs_len;
    uint8_t *sig;     /* sign: output buffer; verify: the signature checked */
    size_t sig_cap;
    size_t sig_len;
};

const char *speed_kind_name(speed_kind kind) {
    static const char *const names[SPEED_KIND_COUNT] = {"sign", "verify", "keygen",
                                                        "verify-fresh", "handshake"};
    return kind < SPEED_KIND_COUNT ? names[kind] : "?";
}

const char *speed_kind_phrase(speed_kind kind) {
    static const char *const names[SPEED_KIND_COUNT] = {
        "signing", "verify", "key generation", "fresh-key verify", "full handshake"};
    return kind < SPEED_KIND_COUNT ? names[kind] : "?";
}

int speed_kind_is_app(speed_kind kind) {
    return kind == SPEED_VERIFY_FRESH || kind == SPEED_HANDSHAKE;
}

void speed_op_name(char *buf, size_t len, const speed_alg *alg, speed_kind kind) {
    if (kind == SPEED_HANDSHAKE)
        snprintf(buf, len, "%s", alg->id);
    else
        snprintf(buf, len, "%s-%s", alg->id, speed_kind_name(kind));
}

static void propq_for(char *buf, size_t len, const speed_prov *prov) {
    snprintf(buf, len, "provider=%s", prov->fetch);
}

static int served_by(const OSSL_PROVIDER *p, const speed_prov *prov) {
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), prov->name) == 0;
}

int speed_fixed_input(OSSL_LIB_CTX *libctx, const speed_alg *alg, uint8_t *tbs, size_t cap,
                      size_t *len) {
    size_t n = 64;
    if (alg->md != NULL) {
        EVP_MD *md = EVP_MD_fetch(libctx, alg->md, "provider=default");
        if (md == NULL)
            return 0;
        int sz = EVP_MD_get_size(md);
        EVP_MD_free(md);
        if (sz <= 0)
            return 0;
        n = (size_t)sz;
    }
    if (n > cap)
        return 0;
    for (size_t i = 0; i < n; i++)
        tbs[i] = (uint8_t)(0x5a ^ (i * 37u));
    *len = n;
    return 1;
}

static int keygen_params(EVP_PKEY_CTX *ctx, const speed_alg *alg) {
    OSSL_PARAM params[3];
    size_t n = 0;
    size_t bits = alg->bits;
    if (alg->bits != 0)
        params[n++] = OSSL_PARAM_construct_size_t(OSSL_PKEY_PARAM_BITS, &bits);
    if (alg->group != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                       (char *)alg->group, 0);
    params[n] = OSSL_PARAM_construct_end();
    return n == 0 || EVP_PKEY_CTX_set_params(ctx, params) == 1;
}

static EVP_PKEY_CTX *keygen_ctx(const speed_prov *prov, const speed_alg *alg) {
    char propq[64];
    propq_for(propq, sizeof(propq), prov);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(prov->libctx, alg->keytype, propq);
    if (ctx == NULL)
        return NULL;
    if (EVP_PKEY_keygen_init(ctx) != 1 || !keygen_params(ctx, alg)) {
        EVP_PKEY_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

EVP_PKEY *speed_key_make(const speed_prov *prov, const speed_alg *alg) {
    EVP_PKEY_CTX *ctx = keygen_ctx(prov, alg);
    EVP_PKEY *key = NULL;
    if (ctx == NULL || EVP_PKEY_generate(ctx, &key) != 1 ||
        !served_by(EVP_PKEY_get0_provider(key), prov)) {
        fprintf(stderr, "quill-speed: cannot generate a %s key with the %s provider\n",
                alg->label, prov->name);
        EVP_PKEY_free(key);
        ERR_print_errors_fp(stderr);
        key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return key;
}

int speed_prov_has(const speed_prov *prov, const speed_alg *alg) {
    char propq[64];
    propq_for(propq, sizeof(propq), prov);
    EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(prov->libctx, alg->keytype, propq);
    EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(prov->libctx, alg->keytype, propq);
    int has = km != NULL && sig != NULL && served_by(EVP_KEYMGMT_get0_provider(km), prov) &&
              served_by(EVP_SIGNATURE_get0_provider(sig), prov);
    EVP_KEYMGMT_free(km);
    EVP_SIGNATURE_free(sig);
    if (!has)
        ERR_clear_error(); /* the failed fetches leave errors behind */
    return has;
}

EVP_PKEY *speed_key_import(const speed_prov *prov, const EVP_PKEY *key) {
    char propq[64];
    propq_for(propq, sizeof(propq), prov);
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    if (EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &params) != 1)
        goto done;
    ctx = EVP_PKEY_CTX_new_from_name(prov->libctx, EVP_PKEY_get0_type_name(key), propq);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
        EVP_PKEY_fromdata(ctx, &out, EVP_PKEY_KEYPAIR, params) != 1) {
        out = NULL;
        goto done;
    }
    if (!served_by(EVP_PKEY_get0_provider(out), prov)) {
        EVP_PKEY_free(out);
        out = NULL;
    }
done:
    if (out == NULL)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return out;
}

/* Sets pad mode and digest (each if the algorithm has one), in that order,
 * on an initialised sign or verify context. */
static int sig_params(EVP_PKEY_CTX *ctx, const speed_alg *alg) {
    const char *const name[2] = {OSSL_SIGNATURE_PARAM_PAD_MODE, OSSL_SIGNATURE_PARAM_DIGEST};
    const char *const value[2] = {alg->pad_mode, alg->md};
    for (int i = 0; i < 2; i++) {
        if (value[i] == NULL)
            continue;
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(name[i], (char *)value[i], 0),
                           OSSL_PARAM_construct_end()};
        if (EVP_PKEY_CTX_set_params(ctx, p) != 1)
            return 0;
    }
    return 1;
}

static EVP_PKEY_CTX *sig_ctx(const speed_prov *prov, const speed_alg *alg, EVP_PKEY *key,
                             speed_kind kind) {
    char propq[64];
    propq_for(propq, sizeof(propq), prov);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(prov->libctx, key, propq);
    if (ctx == NULL)
        return NULL;
    int ok = kind == SPEED_SIGN ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx);
    if (ok != 1 || !sig_params(ctx, alg) || !served_by(EVP_PKEY_CTX_get0_provider(ctx), prov)) {
        EVP_PKEY_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* msg_init initialises |mctx| for a one-shot EVP_DigestSign or
 * EVP_DigestVerify with no digest, on provider |prov|; returns 1 if that
 * provider serves it. */
static int msg_init(EVP_MD_CTX *mctx, const speed_prov *prov, EVP_PKEY *key, speed_kind kind) {
    char propq[64];
    propq_for(propq, sizeof(propq), prov);
    EVP_PKEY_CTX *pctx = NULL;
    int ok = kind == SPEED_SIGN
                 ? EVP_DigestSignInit_ex(mctx, &pctx, NULL, prov->libctx, propq, key, NULL)
                 : EVP_DigestVerifyInit_ex(mctx, &pctx, NULL, prov->libctx, propq, key, NULL);
    return ok == 1 && pctx != NULL && served_by(EVP_PKEY_CTX_get0_provider(pctx), prov);
}

static EVP_MD_CTX *msg_ctx(const speed_prov *prov, EVP_PKEY *key, speed_kind kind) {
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    if (mctx != NULL && !msg_init(mctx, prov, key, kind)) {
        EVP_MD_CTX_free(mctx);
        mctx = NULL;
    }
    return mctx;
}

/* sign_op signs |tbs| through |mctx| (EVP_DigestSign, no digest) if it is
 * not NULL, else through |ctx| (EVP_PKEY_sign, |tbs| a digest): at most
 * *len bytes to |sig| and their number to *len, or with |sig| NULL the
 * largest size to *len.  Returns 1 on success. */
static int sign_op(EVP_MD_CTX *mctx, EVP_PKEY_CTX *ctx, uint8_t *sig, size_t *len,
                   const uint8_t *tbs, size_t tbs_len) {
    return (mctx != NULL ? EVP_DigestSign(mctx, sig, len, tbs, tbs_len)
                         : EVP_PKEY_sign(ctx, sig, len, tbs, tbs_len)) == 1;
}

/* verify_op checks |sig| over |tbs| as sign_op makes it (|mctx|:
 * EVP_DigestVerify, else |ctx|: EVP_PKEY_verify); returns 1 if it verifies. */
static int verify_op(EVP_MD_CTX *mctx, EVP_PKEY_CTX *ctx, const uint8_t *sig, size_t sig_len,
                     const uint8_t *tbs, size_t tbs_len) {
    return (mctx != NULL ? EVP_DigestVerify(mctx, sig, sig_len, tbs, tbs_len)
                         : EVP_PKEY_verify(ctx, sig, sig_len, tbs, tbs_len)) == 1;
}

int speed_sign_once(const speed_prov *prov, const speed_alg *alg, EVP_PKEY *key, uint8_t **sig,
                    size_t *sig_len) {
    uint8_t tbs[64];
    size_t tbs_len, len = 0;
    EVP_MD_CTX *mctx = alg->md == NULL ? msg_ctx(prov, key, SPEED_SIGN) : NULL;
    EVP_PKEY_CTX *ctx = alg->md != NULL ? sig_ctx(prov, alg, key, SPEED_SIGN) : NULL;
    *sig = NULL;
    int ok = (mctx != NULL || ctx != NULL) &&
             speed_fixed_input(prov->libctx, alg, tbs, sizeof(tbs), &tbs_len) &&
             sign_op(mctx, ctx, NULL, &len, tbs, tbs_len) && (*sig = malloc(len)) != NULL &&
             sign_op(mctx, ctx, *sig, &len, tbs, tbs_len);
    if (ok) {
        *sig_len = len;
    } else {
        ERR_print_errors_fp(stderr);
        free(*sig);
        *sig = NULL;
    }
    EVP_MD_CTX_free(mctx);
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

speed_impl *speed_impl_new(const speed_prov *prov, const speed_alg *alg, speed_kind kind,
                           EVP_PKEY *key, const uint8_t *ref_sig, size_t ref_sig_len) {
    speed_impl *im = calloc(1, sizeof(*im));
    if (im == NULL)
        return NULL;
    im->prov = prov;
    im->kind = kind;
    im->key = key;
    if (!speed_fixed_input(prov->libctx, alg, im->tbs, sizeof(im->tbs), &im->tbs_len))
        goto fail;
    if (kind == SPEED_KEYGEN) {
        /* No warm-up key here (a 4096-bit key costs seconds); speed_impl_run
         * checks the provider of every key it makes. */
        im->ctx = keygen_ctx(prov, alg);
        if (im->ctx == NULL || !served_by(EVP_PKEY_CTX_get0_provider(im->ctx), prov))
            goto fail;
        return im;
    }
    if (kind != SPEED_SIGN && kind != SPEED_VERIFY)
        goto fail;
    if (alg->md == NULL)
        im->mctx = msg_ctx(prov, key, kind);
    else
        im->ctx = sig_ctx(prov, alg, key, kind);
    if (im->mctx == NULL && im->ctx == NULL)
        goto fail;
    if (kind == SPEED_SIGN) {
        if (!sign_op(im->mctx, im->ctx, NULL, &im->sig_cap, im->tbs, im->tbs_len) ||
            (im->sig = malloc(im->sig_cap)) == NULL)
            goto fail;
    } else {
        if ((im->sig = malloc(ref_sig_len)) == NULL)
            goto fail;
        memcpy(im->sig, ref_sig, ref_sig_len);
        im->sig_len = ref_sig_len;
    }
    /* One checked run: a verify must accept; the signature a sign makes is
     * checked by the caller (speed_impl_signature, speed_verify_once). */
    if (!speed_impl_run(im))
        goto fail;
    /* On an EVP_MD_CTX a second checked run: if it is refused, the context
     * is re-initialised before every operation. */
    if (im->mctx != NULL && !speed_impl_run(im)) {
        ERR_clear_error();
        im->reinit = 1;
        if (!speed_impl_run(im) || !speed_impl_run(im))
            goto fail;
    }
    return im;
fail:
    fprintf(stderr, "quill-speed: %s %s is not available from provider %s\n", alg->label,
            speed_kind_name(kind), prov->name);
    ERR_print_errors_fp(stderr);
    speed_impl_free(im);
    return NULL;
}

int speed_impl_run(speed_impl *im) {
    if (im->mctx != NULL && im->reinit && !msg_init(im->mctx, im->prov, im->key, im->kind))
        return 0;
    switch (im->kind) {
    case SPEED_SIGN: {
        size_t len = im->sig_cap;
        if (!sign_op(im->mctx, im->ctx, im->sig, &len, im->tbs, im->tbs_len) || len == 0)
            return 0;
        im->sig_len = len;
        return 1;
    }
    case SPEED_VERIFY:
        return verify_op(im->mctx, im->ctx, im->sig, im->sig_len, im->tbs, im->tbs_len);
    case SPEED_KEYGEN: {
        EVP_PKEY *key = NULL;
        int ok = EVP_PKEY_generate(im->ctx, &key) == 1 &&
                 served_by(EVP_PKEY_get0_provider(key), im->prov);
        EVP_PKEY_free(key);
        return ok;
    }
    default:
        return 0;
    }
}

int speed_impl_reinits(const speed_impl *im) {
    return im->reinit;
}

const uint8_t *speed_impl_signature(const speed_impl *im, size_t *len) {
    *len = im->sig_len;
    return im->sig;
}

int speed_verify_once(const speed_prov *prov, const speed_alg *alg, EVP_PKEY *key,
                      const uint8_t *sig, size_t sig_len) {
    uint8_t tbs[64];
    size_t tbs_len;
    EVP_MD_CTX *mctx = alg->md == NULL ? msg_ctx(prov, key, SPEED_VERIFY) : NULL;
    EVP_PKEY_CTX *ctx = alg->md != NULL ? sig_ctx(prov, alg, key, SPEED_VERIFY) : NULL;
    int ok = (mctx != NULL || ctx != NULL) &&
             speed_fixed_input(prov->libctx, alg, tbs, sizeof(tbs), &tbs_len) &&
             verify_op(mctx, ctx, sig, sig_len, tbs, tbs_len);
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_MD_CTX_free(mctx);
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

void speed_impl_free(speed_impl *im) {
    if (im == NULL)
        return;
    EVP_PKEY_CTX_free(im->ctx);
    EVP_MD_CTX_free(im->mctx);
    free(im->sig);
    free(im);
}
