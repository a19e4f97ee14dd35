/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "mldsa_evp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "qt_evp.h"
#include "test_util.h"

/* FIPS 204, Table 2: public key, private key and signature sizes. */
static const struct {
    const char *name;
    size_t pub, priv, sig;
} sets[MDT_NSETS] = {
    {"ML-DSA-44", 1312, 2560, 2420},
    {"ML-DSA-65", 1952, 4032, 3309},
    {"ML-DSA-87", 2592, 4896, 4627},
};

const char *mdt_name(int set) {
    return set >= 0 && set < MDT_NSETS ? sets[set].name : "?";
}

size_t mdt_pub_len(int set) {
    return set >= 0 && set < MDT_NSETS ? sets[set].pub : 0;
}

size_t mdt_priv_len(int set) {
    return set >= 0 && set < MDT_NSETS ? sets[set].priv : 0;
}

size_t mdt_sig_len(int set) {
    return set >= 0 && set < MDT_NSETS ? sets[set].sig : 0;
}

EVP_PKEY *mdt_key_fromdata(OSSL_LIB_CTX *ctx, const char *name, const uint8_t *seed,
                           size_t seed_len, const uint8_t *priv, size_t priv_len,
                           const uint8_t *pub, size_t pub_len) {
    OSSL_PARAM params[4];
    size_t n = 0;
    /* OSSL_PARAM_construct_octet_string wants a non-NULL pointer even for
     * zero bytes. */
    static uint8_t empty[1];
    if (seed != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string("seed", seed_len ? (void *)seed : empty,
                                                        seed_len);
    if (priv != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PRIV_KEY, priv_len ? (void *)priv : empty, priv_len);
    if (pub != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                        pub_len ? (void *)pub : empty, pub_len);
    params[n] = OSSL_PARAM_construct_end();
    int selection = (seed != NULL || priv != NULL) ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx, name, qt_quill_propq());
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0 ||
        EVP_PKEY_fromdata(pctx, &key, selection, params) <= 0) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    EVP_PKEY_CTX_free(pctx);
    return key;
}

EVP_PKEY *mdt_key_generate(OSSL_LIB_CTX *ctx, const char *name, const uint8_t *seed) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx, name, qt_quill_propq());
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()};
    if (seed != NULL)
        params[0] = OSSL_PARAM_construct_octet_string("seed", (void *)seed, 32);
    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) <= 0 ||
        (seed != NULL && EVP_PKEY_CTX_set_params(pctx, params) <= 0) ||
        EVP_PKEY_generate(pctx, &key) <= 0) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    EVP_PKEY_CTX_free(pctx);
    return key;
}

EVP_PKEY *mdt_key_from_der(OSSL_LIB_CTX *ctx, const char *name, const char *structure,
                           const uint8_t *der, size_t len) {
    EVP_PKEY *key = NULL;
    int selection = strcmp(structure, "SubjectPublicKeyInfo") == 0 ? EVP_PKEY_PUBLIC_KEY
                                                                   : EVP_PKEY_KEYPAIR;
    OSSL_DECODER_CTX *dctx =
        OSSL_DECODER_CTX_new_for_pkey(&key, "DER", structure, name, selection, ctx, NULL);
    const unsigned char *p = der;
    size_t left = len;
    if (dctx == NULL || OSSL_DECODER_from_data(dctx, &p, &left) <= 0 || left != 0) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    OSSL_DECODER_CTX_free(dctx);
    return key;
}

size_t mdt_key_octets(const EVP_PKEY *key, const char *param, uint8_t *out, size_t cap) {
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(key, param, out, cap, &len) <= 0)
        return 0;
    return len;
}

/* Applies |o| to an initialised signature context. */
static int set_opts(EVP_PKEY_CTX *pctx, const mdt_opts *o) {
    if (o == NULL)
        return 1;
    OSSL_PARAM params[6];
    size_t n = 0;
    static uint8_t empty[1];
    int one = 1, enc = o->encoding;
    if (o->has_ctx)
        params[n++] = OSSL_PARAM_construct_octet_string(
            "context-string", o->ctx_len ? (void *)o->ctx : empty, o->ctx_len);
    if (o->deterministic)
        params[n++] = OSSL_PARAM_construct_int("deterministic", &one);
    if (o->mu)
        params[n++] = OSSL_PARAM_construct_int("mu", &one);
    if (o->entropy != NULL)
        params[n++] =
            OSSL_PARAM_construct_octet_string("test-entropy", (void *)o->entropy, o->entropy_len);
    if (o->set_encoding)
        params[n++] = OSSL_PARAM_construct_int("message-encoding", &enc);
    params[n] = OSSL_PARAM_construct_end();
    return n == 0 || EVP_PKEY_CTX_set_params(pctx, params) > 0;
}

/* Feeds |in| in uneven pieces (1, 7, 64, 3, 200 bytes, repeating). */
static int feed(EVP_MD_CTX *mctx, int sign, const uint8_t *in, size_t len) {
    static const size_t steps[] = {1, 7, 64, 3, 200};
    size_t off = 0;
    for (size_t i = 0; off < len; i = (i + 1) % (sizeof(steps) / sizeof(steps[0]))) {
        size_t n = steps[i] < len - off ? steps[i] : len - off;
        int ok = sign ? EVP_DigestSignUpdate(mctx, in + off, n)
                      : EVP_DigestVerifyUpdate(mctx, in + off, n);
        if (ok <= 0)
            return 0;
        off += n;
    }
    return 1;
}

int mdt_sign(OSSL_LIB_CTX *ctx, EVP_PKEY *key, int mode, const mdt_opts *o, const uint8_t *in,
             size_t in_len, uint8_t *sig, size_t *sig_len, const OSSL_PROVIDER **served) {
    int r = MDT_INIT_FAIL;
    if (served != NULL)
        *served = NULL;
    if (mode == MDT_PKEY) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
        if (pctx != NULL && EVP_PKEY_sign_init_ex(pctx, NULL) > 0) {
            if (served != NULL)
                *served = EVP_PKEY_CTX_get0_provider(pctx);
            r = !set_opts(pctx, o)                                ? MDT_PARAM_FAIL
                : EVP_PKEY_sign(pctx, sig, sig_len, in, in_len) > 0 ? MDT_OK
                                                                    : MDT_REJECTED;
        }
        EVP_PKEY_CTX_free(pctx);
        return r;
    }
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    if (mctx != NULL && EVP_DigestSignInit_ex(mctx, &pctx, NULL, ctx, NULL, key, NULL) > 0) {
        if (served != NULL)
            *served = EVP_PKEY_CTX_get0_provider(pctx);
        if (!set_opts(pctx, o))
            r = MDT_PARAM_FAIL;
        else if (mode == MDT_DIGEST)
            r = EVP_DigestSign(mctx, sig, sig_len, in, in_len) > 0 ? MDT_OK : MDT_REJECTED;
        else
            r = feed(mctx, 1, in, in_len) && EVP_DigestSignFinal(mctx, sig, sig_len) > 0
                    ? MDT_OK
                    : MDT_REJECTED;
    }
    EVP_MD_CTX_free(mctx);
    return r;
}

int mdt_verify(OSSL_LIB_CTX *ctx, EVP_PKEY *key, int mode, const mdt_opts *o,
               const uint8_t *in, size_t in_len, const uint8_t *sig, size_t sig_len,
               const OSSL_PROVIDER **served) {
    int r = MDT_INIT_FAIL;
    if (served != NULL)
        *served = NULL;
    if (mode == MDT_PKEY) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(ctx, key, NULL);
        if (pctx != NULL && EVP_PKEY_verify_init_ex(pctx, NULL) > 0) {
            if (served != NULL)
                *served = EVP_PKEY_CTX_get0_provider(pctx);
            r = !set_opts(pctx, o) ? MDT_PARAM_FAIL
                : EVP_PKEY_verify(pctx, sig, sig_len, in, in_len) == 1 ? MDT_OK
                                                                       : MDT_REJECTED;
        }
        EVP_PKEY_CTX_free(pctx);
        return r;
    }
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    if (mctx != NULL && EVP_DigestVerifyInit_ex(mctx, &pctx, NULL, ctx, NULL, key, NULL) > 0) {
        if (served != NULL)
            *served = EVP_PKEY_CTX_get0_provider(pctx);
        if (!set_opts(pctx, o))
            r = MDT_PARAM_FAIL;
        else if (mode == MDT_DIGEST)
            r = EVP_DigestVerify(mctx, sig, sig_len, in, in_len) == 1 ? MDT_OK : MDT_REJECTED;
        else
            r = feed(mctx, 0, in, in_len) && EVP_DigestVerifyFinal(mctx, sig, sig_len) == 1
                    ? MDT_OK
                    : MDT_REJECTED;
    }
    EVP_MD_CTX_free(mctx);
    return r;
}

OSSL_LIB_CTX *mdt_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill) {
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(def, quill);
    if (ctx != NULL && !qt_quill_has_keymgmt(ctx, "ML-DSA-44")) {
        qt_libctx_free(ctx, *def, *quill);
        *def = *quill = NULL;
        fprintf(stderr, "quill offers no ML-DSA-44 key manager\n");
        return NULL;
    }
    return ctx;
}

int mdt_is_quill(const OSSL_PROVIDER *p) {
    if (p == NULL)
        return 0;
    const char *want = getenv("QT_STANDIN_PROVIDER");
    if (want == NULL || *want == '\0')
        want = "quill";
    return strcmp(OSSL_PROVIDER_get0_name(p), want) == 0;
}
