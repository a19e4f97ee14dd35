/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "ec_evp.h"

#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/x509.h>

#include "qt_evp.h"

EVP_PKEY *ect_keygen(OSSL_LIB_CTX *ctx, const char *propq, const char *group) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx, "EC", propq);
    OSSL_PARAM params[2] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0),
        OSSL_PARAM_construct_end()};
    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) <= 0 ||
        EVP_PKEY_CTX_set_params(pctx, params) <= 0 || EVP_PKEY_generate(pctx, &key) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(pctx);
    return key;
}

EVP_PKEY *ect_key_copy(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, int selection) {
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *pctx = NULL;
    if (EVP_PKEY_todata(key, selection, &params) <= 0)
        return NULL;
    pctx = EVP_PKEY_CTX_new_from_name(ctx, "EC", propq);
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0 ||
        EVP_PKEY_fromdata(pctx, &out, selection, params) <= 0)
        out = NULL;
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    return out;
}

EVP_PKEY *ect_key_from_spki(OSSL_LIB_CTX *ctx, const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_PUBKEY_ex(NULL, &p, (long)len, ctx, NULL);
}

static int set_nonce(EVP_PKEY_CTX *pctx, int nonce_type) {
    if (nonce_type < 0)
        return 1;
    unsigned int t = (unsigned int)nonce_type;
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_uint("nonce-type", &t),
                            OSSL_PARAM_construct_end()};
    return EVP_PKEY_CTX_set_params(pctx, params) > 0;
}

/* Feeds msg in uneven pieces (1, 7, 64, ... bytes) or all at once. */
static int feed(EVP_MD_CTX *md, int sign, const uint8_t *msg, size_t len, int mode) {
    if (mode == ECT_ONESHOT)
        return 1;
    static const size_t steps[] = {1, 7, 64, 3, 200, 0};
    size_t off = 0;
    for (size_t i = 0; off < len; i = (i + 1) % 6) {
        size_t n = steps[i] == 0 ? 1 : steps[i];
        if (n > len - off)
            n = len - off;
        int ok = sign ? EVP_DigestSignUpdate(md, msg + off, n)
                      : EVP_DigestVerifyUpdate(md, msg + off, n);
        if (ok <= 0)
            return 0;
        off += n;
    }
    return 1;
}

int ect_sign(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
             const uint8_t *msg, size_t msg_len, int mode, int nonce_type, uint8_t *sig,
             size_t *sig_len, const OSSL_PROVIDER **served) {
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int ok = mctx != NULL && EVP_DigestSignInit_ex(mctx, &pctx, md, ctx, propq, key, NULL) > 0;
    if (ok && served != NULL)
        *served = qt_pctx_provider(pctx);
    ok = ok && set_nonce(pctx, nonce_type);
    if (ok && mode == ECT_ONESHOT)
        ok = EVP_DigestSign(mctx, sig, sig_len, msg, msg_len) > 0;
    else if (ok)
        ok = feed(mctx, 1, msg, msg_len, mode) && EVP_DigestSignFinal(mctx, sig, sig_len) > 0;
    EVP_MD_CTX_free(mctx);
    return ok;
}

int ect_verify(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
               const uint8_t *msg, size_t msg_len, int mode, const uint8_t *sig, size_t sig_len,
               const OSSL_PROVIDER **served) {
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int r = -1;
    if (mctx != NULL && EVP_DigestVerifyInit_ex(mctx, &pctx, md, ctx, propq, key, NULL) > 0) {
        if (served != NULL)
            *served = qt_pctx_provider(pctx);
        if (mode == ECT_ONESHOT)
            r = EVP_DigestVerify(mctx, sig, sig_len, msg, msg_len) == 1;
        else
            r = feed(mctx, 0, msg, msg_len, mode) && EVP_DigestVerifyFinal(mctx, sig, sig_len) == 1;
    }
    EVP_MD_CTX_free(mctx);
    return r;
}

static EVP_PKEY_CTX *digest_ctx(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key,
                                const char *md, int sign, const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(ctx, key, propq);
    int ok = pctx != NULL && (sign ? EVP_PKEY_sign_init(pctx) : EVP_PKEY_verify_init(pctx)) > 0;
    if (ok && md != NULL) {
        OSSL_PARAM params[2] = {
            OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, (char *)md, 0),
            OSSL_PARAM_construct_end()};
        ok = EVP_PKEY_CTX_set_params(pctx, params) > 0;
    }
    if (!ok) {
        EVP_PKEY_CTX_free(pctx);
        return NULL;
    }
    if (served != NULL)
        *served = qt_pctx_provider(pctx);
    return pctx;
}

int ect_sign_digest(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
                    const uint8_t *dgst, size_t dgst_len, uint8_t *sig, size_t *sig_len,
                    const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = digest_ctx(ctx, propq, key, md, 1, served);
    int ok = pctx != NULL && EVP_PKEY_sign(pctx, sig, sig_len, dgst, dgst_len) > 0;
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

int ect_verify_digest(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const char *md,
                      const uint8_t *dgst, size_t dgst_len, const uint8_t *sig, size_t sig_len,
                      const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = digest_ctx(ctx, propq, key, md, 0, served);
    if (pctx == NULL)
        return -1;
    int r = EVP_PKEY_verify(pctx, sig, sig_len, dgst, dgst_len) == 1;
    EVP_PKEY_CTX_free(pctx);
    return r;
}

int ect_derive(OSSL_LIB_CTX *ctx, EVP_PKEY *a, EVP_PKEY *peer, uint8_t *out, size_t *len,
               const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(ctx, a, NULL);
    int ok = pctx != NULL && EVP_PKEY_derive_init(pctx) > 0 &&
             EVP_PKEY_derive_set_peer(pctx, peer) > 0 && EVP_PKEY_derive(pctx, out, len) > 0;
    if (ok && served != NULL)
        *served = qt_pctx_provider(pctx);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

size_t ect_p1363_to_der(const uint8_t rs[64], uint8_t *out, size_t cap) {
    ECDSA_SIG *s = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, 32, NULL), *t = BN_bin2bn(rs + 32, 32, NULL);
    size_t len = 0;
    if (s != NULL && r != NULL && t != NULL && ECDSA_SIG_set0(s, r, t)) {
        r = t = NULL;
        int n = i2d_ECDSA_SIG(s, NULL);
        if (n > 0 && (size_t)n <= cap) {
            unsigned char *p = out;
            len = (size_t)i2d_ECDSA_SIG(s, &p);
        }
    }
    BN_free(r);
    BN_free(t);
    ECDSA_SIG_free(s);
    return len;
}

int ect_der_to_p1363(const uint8_t *der, size_t len, uint8_t rs[64]) {
    const unsigned char *p = der;
    ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &p, (long)len);
    int ok = s != NULL && BN_bn2binpad(ECDSA_SIG_get0_r(s), rs, 32) == 32 &&
             BN_bn2binpad(ECDSA_SIG_get0_s(s), rs + 32, 32) == 32;
    ECDSA_SIG_free(s);
    return ok;
}

int ect_is_quill(const OSSL_PROVIDER *p) {
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), "quill") == 0;
}
