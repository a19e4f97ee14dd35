/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "rsa_test_common.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "test_util.h"

static OSSL_LIB_CTX *ctx;
static OSSL_PROVIDER *defprov;

OSSL_LIB_CTX *qr_ctx(void) {
    if (ctx == NULL) {
        ctx = OSSL_LIB_CTX_new();
        defprov = OSSL_PROVIDER_load(ctx, "default");
        if (ctx == NULL || defprov == NULL) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "cannot load OpenSSL's default provider\n");
            exit(1);
        }
    }
    return ctx;
}

void qr_cleanup(void) {
    if (defprov != NULL)
        OSSL_PROVIDER_unload(defprov);
    OSSL_LIB_CTX_free(ctx);
    ctx = NULL;
    defprov = NULL;
}

static int set_bytes(qr_comps *out, int idx, quill_bytes *dst, const BIGNUM *bn) {
    if (bn == NULL)
        return 1;
    int len = BN_num_bytes(bn);
    out->buf[idx] = malloc(len > 0 ? (size_t)len : 1);
    if (out->buf[idx] == NULL)
        return 0;
    if (len == 0) {
        out->buf[idx][0] = 0;
        len = 1;
    } else {
        BN_bn2bin(bn, out->buf[idx]);
    }
    dst->data = out->buf[idx];
    dst->len = (size_t)len;
    return 1;
}

int qr_comps_from_bn(qr_comps *out, const BIGNUM *n, const BIGNUM *e, const BIGNUM *d,
                     const BIGNUM *p, const BIGNUM *q, const BIGNUM *dp, const BIGNUM *dq,
                     const BIGNUM *qinv) {
    memset(out, 0, sizeof(*out));
    quill_rsa_components *c = &out->c;
    return set_bytes(out, 0, &c->n, n) && set_bytes(out, 1, &c->e, e) &&
           set_bytes(out, 2, &c->d, d) && set_bytes(out, 3, &c->p, p) &&
           set_bytes(out, 4, &c->q, q) && set_bytes(out, 5, &c->dp, dp) &&
           set_bytes(out, 6, &c->dq, dq) && set_bytes(out, 7, &c->qinv, qinv);
}

void qr_comps_free(qr_comps *c) {
    for (int i = 0; i < 8; i++)
        free(c->buf[i]);
    memset(c, 0, sizeof(*c));
}

static BIGNUM *get_bn(EVP_PKEY *pkey, const char *name) {
    BIGNUM *bn = NULL;
    if (!EVP_PKEY_get_bn_param(pkey, name, &bn))
        return NULL;
    return bn;
}

int qr_comps_from_pkey(qr_comps *out, EVP_PKEY *pkey, int priv, int crt) {
    const char *names[8] = {OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
                            OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                            OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                            OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    BIGNUM *bn[8] = {NULL};
    int want = !priv ? 2 : !crt ? 3 : 8, ok = 1;
    for (int i = 0; i < want; i++)
        if ((bn[i] = get_bn(pkey, names[i])) == NULL)
            ok = 0;
    ok = ok && qr_comps_from_bn(out, bn[0], bn[1], bn[2], bn[3], bn[4], bn[5], bn[6], bn[7]);
    for (int i = 0; i < 8; i++)
        BN_clear_free(bn[i]);
    return ok;
}

EVP_PKEY *qr_pkey_from_bn(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d, const BIGNUM *p,
                          const BIGNUM *q, const BIGNUM *dp, const BIGNUM *dq,
                          const BIGNUM *qinv) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_PKEY *pkey = NULL;
    int ok = bld != NULL && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
    if (ok && d != NULL)
        ok = OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d);
    if (ok && p != NULL)
        ok = OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qinv);
    if (ok)
        ok = (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
             (pctx = EVP_PKEY_CTX_new_from_name(qr_ctx(), "RSA", "provider=default")) != NULL &&
             EVP_PKEY_fromdata_init(pctx) > 0 &&
             EVP_PKEY_fromdata(pctx, &pkey, d != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                               params) > 0;
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return ok ? pkey : NULL;
}

static BIGNUM *field_bn(const quill_rsa_key *key, quill_rsa_field f) {
    uint8_t buf[QUILL_RSA_MAX_BITS / 8];
    size_t len;
    if (quill_rsa_key_get(key, f, NULL, 0, &len) != QUILL_OK || len > sizeof(buf) ||
        quill_rsa_key_get(key, f, buf, sizeof(buf), &len) != QUILL_OK)
        return NULL;
    BIGNUM *bn = BN_bin2bn(buf, (int)len, NULL);
    OPENSSL_cleanse(buf, sizeof(buf));
    return bn;
}

EVP_PKEY *qr_pkey_from_quill(const quill_rsa_key *key) {
    BIGNUM *bn[8] = {NULL};
    int want = !quill_rsa_key_has_private(key) ? 2 : !quill_rsa_key_has_crt(key) ? 3 : 8;
    EVP_PKEY *pkey = NULL;
    int ok = 1;
    for (int i = 0; i < want; i++)
        if ((bn[i] = field_bn(key, (quill_rsa_field)i)) == NULL)
            ok = 0;
    if (ok)
        pkey = qr_pkey_from_bn(bn[0], bn[1], bn[2], bn[3], bn[4], bn[5], bn[6], bn[7]);
    for (int i = 0; i < 8; i++)
        BN_clear_free(bn[i]);
    return pkey;
}

EVP_PKEY *qr_gen_pkey(unsigned bits) {
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(qr_ctx(), "provider=default", "RSA", (size_t)bits);
    if (pkey == NULL)
        ERR_print_errors_fp(stderr);
    return pkey;
}

quill_rsa_key *qr_key_from_pkey(EVP_PKEY *pkey, int priv, int crt) {
    qr_comps c;
    quill_rsa_key *key = NULL;
    if (!qr_comps_from_pkey(&c, pkey, priv, crt)) {
        fprintf(stderr, "cannot read the OpenSSL key's components\n");
        qr_comps_free(&c);
        return NULL;
    }
    quill_err err = quill_rsa_key_new(&key, &c.c);
    if (err != QUILL_OK) {
        fprintf(stderr, "quill_rsa_key_new: error %d\n", (int)err);
        key = NULL;
    }
    qr_comps_free(&c);
    return key;
}

static int fill_det(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    qt_rng_bytes(out, len);
    return 1;
}

static int fill_fail(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    (void)out;
    (void)len;
    return 0;
}

const quill_rng qr_rng = {fill_det, NULL};
const quill_rng qr_rng_failing = {fill_fail, NULL};

static int evp_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                      const size_t in_len[], size_t count) {
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    int ok = mctx != NULL && EVP_DigestInit_ex(mctx, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(mctx, in[i], in_len[i]);
    unsigned int len = 0;
    ok = ok && EVP_DigestFinal_ex(mctx, out, &len) && len == h->size;
    EVP_MD_CTX_free(mctx);
    return ok;
}

int qr_hash_init(qr_hash *h, const char *name) {
    memset(h, 0, sizeof(*h));
    h->md = EVP_MD_fetch(qr_ctx(), name, "provider=default");
    if (h->md == NULL)
        return 0;
    h->h.size = (size_t)EVP_MD_get_size(h->md);
    h->h.digest = evp_digest;
    h->h.arg = h->md;
    return 1;
}

void qr_hash_free(qr_hash *h) {
    EVP_MD_free(h->md);
    memset(h, 0, sizeof(*h));
}

const char *qr_md_name(quill_md md) {
    switch (md) {
    case QUILL_MD_SHA1:
        return "SHA1";
    case QUILL_MD_SHA224:
        return "SHA2-224";
    case QUILL_MD_SHA256:
        return "SHA2-256";
    case QUILL_MD_SHA384:
        return "SHA2-384";
    case QUILL_MD_SHA512:
        return "SHA2-512";
    case QUILL_MD_SHA512_224:
        return "SHA2-512/224";
    case QUILL_MD_SHA512_256:
        return "SHA2-512/256";
    case QUILL_MD_SHA3_224:
        return "SHA3-224";
    case QUILL_MD_SHA3_256:
        return "SHA3-256";
    case QUILL_MD_SHA3_384:
        return "SHA3-384";
    case QUILL_MD_SHA3_512:
        return "SHA3-512";
    default:
        return NULL;
    }
}

static int ossl_raw(EVP_PKEY *pkey, uint8_t *out, const uint8_t *in, size_t k, int priv) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    size_t out_len = k;
    int ok = pctx != NULL;
    if (ok && priv)
        ok = EVP_PKEY_decrypt_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_NO_PADDING) > 0 &&
             EVP_PKEY_decrypt(pctx, out, &out_len, in, k) > 0;
    else if (ok)
        ok = EVP_PKEY_encrypt_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_NO_PADDING) > 0 &&
             EVP_PKEY_encrypt(pctx, out, &out_len, in, k) > 0;
    ok = ok && out_len == k;
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

int qr_ossl_public(EVP_PKEY *pkey, uint8_t *out, const uint8_t *in, size_t k) {
    return ossl_raw(pkey, out, in, k, 0);
}

int qr_ossl_private(EVP_PKEY *pkey, uint8_t *out, const uint8_t *in, size_t k) {
    return ossl_raw(pkey, out, in, k, 1);
}

void qr_random_below_n(uint8_t *out, size_t k) {
    qt_rng_bytes(out, k);
    out[0] = 0;
}
