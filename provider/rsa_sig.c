/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The RSA signature operation: contexts, sign/verify/verify-recover on a
 * digest or raw input, and message signing with the hash inside, around the
 * core's RSASSA-PKCS1-v1_5 and RSASSA-PSS (core/rsa/rsa.h).  Parameters are
 * in rsa_sig_params.c. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "core_version.h"
#include "digest.h"
#include "names.h"
#include "prov_err.h"
#include "rng.h"
#include "rsa_key.h"
#include "rsa_sig.h"
#include "sig_params.h"

static OSSL_FUNC_signature_newctx_fn sig_newctx;
static OSSL_FUNC_signature_freectx_fn sig_freectx;
static OSSL_FUNC_signature_dupctx_fn sig_dupctx;
static OSSL_FUNC_signature_sign_init_fn sig_sign_init;
static OSSL_FUNC_signature_sign_fn sig_sign;
static OSSL_FUNC_signature_verify_init_fn sig_verify_init;
static OSSL_FUNC_signature_verify_fn sig_verify;
static OSSL_FUNC_signature_verify_recover_init_fn sig_verify_recover_init;
static OSSL_FUNC_signature_verify_recover_fn sig_verify_recover;
static OSSL_FUNC_signature_digest_sign_init_fn sig_digest_sign_init;
static OSSL_FUNC_signature_digest_sign_update_fn sig_digest_update;
static OSSL_FUNC_signature_digest_sign_final_fn sig_digest_sign_final;
static OSSL_FUNC_signature_digest_sign_fn sig_digest_sign;
static OSSL_FUNC_signature_digest_verify_init_fn sig_digest_verify_init;
static OSSL_FUNC_signature_digest_verify_final_fn sig_digest_verify_final;
static OSSL_FUNC_signature_digest_verify_fn sig_digest_verify;

/* ---- Context life cycle ---- */

/* The salt length a PSS signature takes when none is set, as the core's
 * default provider: "auto" (the maximum) up to OpenSSL 3.0, "auto-digestmax"
 * (the digest's length, or the maximum if smaller) from 3.1 on.  Either
 * detects the salt length when verifying. */
static int default_saltlen(const quill_provctx *prov) {
    return prov->core_version >= QUILL_CORE_VERSION(3, 1, 0) ? QUILL_SALTLEN_AUTO_DIGEST_MAX
                                                              : QUILL_SALTLEN_AUTO;
}

static void *sig_newctx(void *provctx, const char *propq) {
    quill_rsa_sig_ctx *c = OPENSSL_zalloc(sizeof(*c));
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
    c->pad = QUILL_PAD_PKCS1;
    c->saltlen = default_saltlen(c->prov);
    c->stream.scheme = QUILL_PROV_SCHEME_RSA;
    return c;
}

static void sig_freectx(void *vctx) {
    quill_rsa_sig_ctx *c = vctx;
    if (c == NULL)
        return;
    quill_sig_stream_clear(&c->stream);
    quill_prov_digest_clear(&c->mgf1);
    quill_prov_rsa_key_free(c->key);
    OPENSSL_free(c->propq);
    OPENSSL_free(c);
}

static void *sig_dupctx(void *vctx) {
    const quill_rsa_sig_ctx *src = vctx;
    quill_rsa_sig_ctx *c = OPENSSL_zalloc(sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        return NULL;
    }
    *c = *src;
    c->propq = NULL;
    c->mgf1.md = NULL;
    if (c->key != NULL)
        quill_prov_rsa_key_up_ref(c->key);
    int ok = quill_sig_stream_copy(&c->stream, &src->stream) &&
             quill_prov_digest_copy(&c->mgf1, &src->mgf1) &&
             (src->propq == NULL || (c->propq = OPENSSL_strdup(src->propq)) != NULL);
    if (!ok) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        sig_freectx(c);
        return NULL;
    }
    return c;
}

/* ---- Initialisation ---- */

/* Common to every *_init: takes the key, resets padding and salt length to
 * their defaults (PKCS#1 v1.5, or PSS with the key's restrictions for an
 * RSA-PSS key), then applies |params|. */
static int sig_init(quill_rsa_sig_ctx *c, void *provkey, const OSSL_PARAM params[], int op) {
    if (c == NULL)
        return 0;
    if (provkey != NULL) {
        quill_prov_rsa_key_up_ref(provkey);
        quill_prov_rsa_key_free(c->key);
        c->key = provkey;
    }
    if (c->key == NULL || c->key->key == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if (op == QUILL_SIG_OP_SIGN && !quill_rsa_key_has_private(c->key->key)) {
        QUILL_RAISE(c->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    c->op = op;
    c->stream.locked = 0;
    c->pad = QUILL_PAD_PKCS1;
    c->saltlen = default_saltlen(c->prov);
    if (c->key->type == QUILL_PROV_RSA_PSS) {
        if (op == QUILL_SIG_OP_VERIFY_RECOVER) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
            return 0;
        }
        c->pad = QUILL_PAD_PSS;
        const quill_prov_pss_restrictions *r = &c->key->pss;
        if (r->restricted) {
            if (!quill_prov_digest_fetch(&c->stream.md, c->prov, quill_prov_md_name(r->md),
                                         c->propq, 1) ||
                !quill_prov_digest_fetch(&c->mgf1, c->prov, quill_prov_md_name(r->mgf1), c->propq,
                                         1))
                return 0;
            c->saltlen = (int)r->min_salt;
        }
    }
    return quill_rsa_sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_SIG_OP_SIGN);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_SIG_OP_VERIFY);
}

static int sig_verify_recover_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, QUILL_SIG_OP_VERIFY_RECOVER);
}

/* ---- Sign and verify on a digest (or raw input) ---- */

/* op_ready checks that |c| holds an operation |op| initialised with a key,
 * raising QUILL_R_OPERATION_NOT_INITIALISED if not. */
static int op_ready(const quill_rsa_sig_ctx *c, int op) {
    return quill_sig_ready(c != NULL ? c->prov : NULL,
                           c != NULL && c->op == op && c->key != NULL);
}

/* sign_ready opens every signing call: op_ready for signing, then the
 * output-size protocol (sig_stream.h); returns a QUILL_SIG_SIZE_* value. */
static int sign_ready(const quill_rsa_sig_ctx *c, const unsigned char *sig, size_t *siglen,
                      size_t sigsize) {
    if (!op_ready(c, QUILL_SIG_OP_SIGN))
        return QUILL_SIG_SIZE_FAIL;
    return quill_sig_out_size(c->prov, sig, siglen, sigsize, quill_rsa_key_size(c->key->key));
}

static int check_digest_len(const quill_rsa_sig_ctx *c, size_t tbslen) {
    if (c->pad == QUILL_PAD_NONE && tbslen != quill_rsa_key_size(c->key->key)) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_INVALID_DIGEST_LENGTH,
                        "no padding: %zu bytes for a %zu-byte key", tbslen,
                        quill_rsa_key_size(c->key->key));
        return 0;
    }
    if (c->stream.md.md != NULL && tbslen != c->stream.md.hash.size) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_INVALID_DIGEST_LENGTH, "%zu bytes for %s", tbslen,
                        quill_prov_md_name(c->stream.md.id));
        return 0;
    }
    if (c->pad == QUILL_PAD_PSS && c->stream.md.md == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_PSS_NEEDS_DIGEST);
        return 0;
    }
    return 1;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    quill_rsa_sig_ctx *c = vctx;
    int r = sign_ready(c, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    size_t k = quill_rsa_key_size(c->key->key);
    if (!check_digest_len(c, tbslen))
        return 0;
    quill_rng rng = quill_prov_rng_private(c->prov);
    quill_err err;
    if (c->pad == QUILL_PAD_PSS) {
        long salt = quill_rsa_sig_sign_saltlen(c);
        if (salt < 0)
            return 0;
        err = quill_rsa_pss_sign(c->key->key, sig, &c->stream.md.hash,
                                 &quill_rsa_sig_mgf1(c)->hash, tbs, tbslen, salt, &rng);
    } else if (c->pad == QUILL_PAD_NONE) {
        /* The raw private operation (RSASP1) on exactly k bytes. */
        err = quill_rsa_private(c->key->key, sig, tbs, tbslen, &rng);
    } else if (c->pad == QUILL_PAD_X931) {
        err = quill_rsa_x931_sign(c->key->key, sig, c->stream.md.id, tbs, tbslen, &rng);
    } else {
        err = quill_rsa_pkcs1_sign(c->key->key, sig, c->stream.md.id, tbs, tbslen, &rng);
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *siglen = k;
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_SIGN);
    return 1;
}

/* The largest modulus in bytes, for the widened-signature buffers. */
#define MAX_SIG_BYTES (QUILL_RSA_MAX_BITS / 8)

/* OpenSSL's default provider takes a signature shorter than the modulus as
 * left-padded with zeros wherever it runs RSA_public_decrypt on it: PSS,
 * X9.31, no padding, and PKCS#1 v1.5 without a digest; PKCS#1 v1.5 with a
 * digest (RSA_verify) insists on k bytes, as RFC 8017 does everywhere.
 * widen_sig returns |sig| itself, or, for such a short signature, its copy
 * widened to k bytes in |buf| (MAX_SIG_BYTES), updating *siglen.  Public
 * data. */
static const unsigned char *widen_sig(const quill_rsa_sig_ctx *c, unsigned char *buf,
                                      const unsigned char *sig, size_t *siglen) {
    size_t k = quill_rsa_key_size(c->key->key);
    int lenient = c->pad != QUILL_PAD_PKCS1 || c->stream.md.md == NULL;
    if (!lenient || *siglen >= k || k > MAX_SIG_BYTES)
        return sig;
    memset(buf, 0, k - *siglen);
    if (*siglen > 0)
        memcpy(buf + (k - *siglen), sig, *siglen);
    *siglen = k;
    return buf;
}

/* Verification without padding: sig^e mod n must be exactly |tbs|. */
static quill_err verify_none(const quill_rsa_sig_ctx *c, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    unsigned char em[MAX_SIG_BYTES];
    size_t k = quill_rsa_key_size(c->key->key);
    if (siglen != k)
        return QUILL_ERR_SIG_LENGTH;
    quill_err err = quill_rsa_public(c->key->key, em, sig, siglen);
    if (err == QUILL_OK && (tbslen != k || memcmp(em, tbs, k) != 0))
        err = QUILL_ERR_BAD_SIGNATURE;
    return err;
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    quill_rsa_sig_ctx *c = vctx;
    unsigned char wide[MAX_SIG_BYTES];
    if (!op_ready(c, QUILL_SIG_OP_VERIFY))
        return 0;
    if (!check_digest_len(c, tbslen))
        return 0;
    sig = widen_sig(c, wide, sig, &siglen);
    quill_err err;
    if (c->pad == QUILL_PAD_PSS) {
        long salt;
        switch (c->saltlen) {
        case QUILL_SALTLEN_DIGEST:
            salt = (long)c->stream.md.hash.size;
            break;
        case QUILL_SALTLEN_MAX:
            salt = quill_rsa_pss_max_salt(c->key->key, &c->stream.md.hash);
            if (salt < 0) {
                QUILL_RAISE_CORE(c->prov, QUILL_ERR_DIGEST_TOO_BIG);
                return 0;
            }
            break;
        case QUILL_SALTLEN_AUTO:
        case QUILL_SALTLEN_AUTO_DIGEST_MAX:
            salt = QUILL_PSS_SALT_AUTO;
            break;
        default:
            salt = c->saltlen;
            break;
        }
        err = quill_rsa_pss_verify(c->key->key, sig, siglen, &c->stream.md.hash,
                                   &quill_rsa_sig_mgf1(c)->hash, tbs, tbslen, salt);
    } else if (c->pad == QUILL_PAD_NONE) {
        err = verify_none(c, sig, siglen, tbs, tbslen);
    } else if (c->pad == QUILL_PAD_X931) {
        err = quill_rsa_x931_verify(c->key->key, sig, siglen, c->stream.md.id, tbs, tbslen);
    } else {
        err = quill_rsa_pkcs1_verify(c->key->key, sig, siglen, c->stream.md.id, tbs, tbslen);
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_VERIFY);
    return 1;
}

static int sig_verify_recover(void *vctx, unsigned char *rout, size_t *routlen, size_t routsize,
                              const unsigned char *sig, size_t siglen) {
    quill_rsa_sig_ctx *c = vctx;
    unsigned char wide[MAX_SIG_BYTES];
    if (!op_ready(c, QUILL_SIG_OP_VERIFY_RECOVER))
        return 0;
    size_t k = quill_rsa_key_size(c->key->key);
    if (rout == NULL) {
        *routlen = k;
        return 1;
    }
    sig = widen_sig(c, wide, sig, &siglen);
    size_t len = 0;
    quill_err err;
    if (c->pad == QUILL_PAD_NONE) {
        /* The raw public operation (RSAVP1): k bytes. */
        len = k;
        if (siglen != k)
            err = QUILL_ERR_SIG_LENGTH;
        else if (routsize < k)
            err = QUILL_ERR_BUFFER_TOO_SMALL;
        else
            err = quill_rsa_public(c->key->key, rout, sig, siglen);
    } else if (c->pad == QUILL_PAD_X931) {
        err = quill_rsa_x931_recover(c->key->key, rout, routsize, &len, sig, siglen,
                                     c->stream.md.id);
    } else if (c->pad == QUILL_PAD_PKCS1) {
        err = quill_rsa_pkcs1_recover(c->key->key, rout, routsize, &len, sig, siglen,
                                      c->stream.md.id);
    } else {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
        return 0;
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *routlen = len;
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_VERIFY);
    return 1;
}

/* ---- Sign and verify a message (hashing inside) ---- */

static int digest_init(quill_rsa_sig_ctx *c, const char *mdname, void *provkey,
                       const OSSL_PARAM params[], int op) {
    return sig_init(c, provkey, NULL, op) &&
           quill_sig_stream_init(&c->stream, c->prov, c->propq, mdname,
                                 quill_rsa_sig_set_ctx_params, c, params);
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *provkey,
                                const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, QUILL_SIG_OP_SIGN);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *provkey,
                                  const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, QUILL_SIG_OP_VERIFY);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
    quill_rsa_sig_ctx *c = vctx;
    return quill_sig_stream_update(c != NULL ? &c->stream : NULL, c != NULL ? c->prov : NULL,
                                   data, datalen);
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
    quill_rsa_sig_ctx *c = vctx;
    /* The size is checked before the hash is finalised: the caller may
     * retry. */
    int r = sign_ready(c, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    return quill_sig_stream_sign_final(&c->stream, c->prov, sig_sign, c, sig, siglen, sigsize);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
    quill_rsa_sig_ctx *c = vctx;
    return op_ready(c, QUILL_SIG_OP_VERIFY) &&
           quill_sig_stream_verify_final(&c->stream, c->prov, sig_verify, c, sig, siglen);
}

static int sig_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                           const unsigned char *tbs, size_t tbslen) {
    int r = sign_ready(vctx, sig, siglen, sigsize);
    if (r != QUILL_SIG_SIZE_PROCEED)
        return r == QUILL_SIG_SIZE_ANSWERED;
    return sig_digest_update(vctx, tbs, tbslen) &&
           sig_digest_sign_final(vctx, sig, siglen, sigsize);
}

static int sig_digest_verify(void *vctx, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    return sig_digest_update(vctx, tbs, tbslen) && sig_digest_verify_final(vctx, sig, siglen);
}

const OSSL_DISPATCH quill_rsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (void (*)(void))sig_verify_recover_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (void (*)(void))sig_verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_digest_sign},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_digest_verify},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))quill_rsa_sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))quill_rsa_sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))quill_rsa_sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))quill_rsa_sig_settable_ctx_params},
    {OSSL_FUNC_SIGNATURE_GET_CTX_MD_PARAMS, (void (*)(void))quill_sig_get_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_MD_PARAMS, (void (*)(void))quill_sig_gettable_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_MD_PARAMS, (void (*)(void))quill_sig_set_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_MD_PARAMS, (void (*)(void))quill_sig_settable_ctx_md_params},
    {0, NULL},
};
