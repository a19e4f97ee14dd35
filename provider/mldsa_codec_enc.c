/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA key encoders to DER and PEM: SubjectPublicKeyInfo, PrivateKeyInfo
 * and EncryptedPrivateKeyInfo (RFC 9881 formats, mldsa_codec_der.c).  The
 * private key form follows the provider configuration (mldsa_codec.c).
 * Encryption is PKCS#8 PBES2 (PBKDF2) with the cipher given through
 * OSSL_ENCODER_CTX_set_cipher and the passphrase from the callback, done by
 * libcrypto's PKCS8_encrypt_ex; as with OpenSSL's own encoders, a
 * PrivateKeyInfo encoder given a cipher writes an EncryptedPrivateKeyInfo
 * (PEM_write_bio_PrivateKey with a cipher asks for that). */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "common/zeroize.h"
#include "mldsa_codec.h"
#include "prov_err.h"

static OSSL_FUNC_encoder_freectx_fn enc_freectx;
static OSSL_FUNC_encoder_set_ctx_params_fn enc_set_ctx_params;
static OSSL_FUNC_encoder_settable_ctx_params_fn enc_settable_ctx_params;
static OSSL_FUNC_encoder_import_object_fn enc_import_object;
static OSSL_FUNC_encoder_free_object_fn enc_free_object;
static OSSL_FUNC_encoder_encode_fn enc_encode;
static OSSL_FUNC_encoder_does_selection_fn priv_does_selection;
static OSSL_FUNC_encoder_does_selection_fn pub_does_selection;

static void enc_freectx(void *vctx) {
    quill_mldsa_codec_ctx_free(vctx);
}

static const OSSL_PARAM settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx) {
    return settable;
}

/* "cipher" (a name; empty clears it) with optional "properties". */
static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    quill_mldsa_codec_ctx *ctx = vctx;
    const OSSL_PARAM *pc = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
    if (pc == NULL)
        return 1;
    const char *name = NULL, *props = NULL;
    const OSSL_PARAM *pp = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_PROPERTIES);
    if (!OSSL_PARAM_get_utf8_string_ptr(pc, &name) ||
        (pp != NULL && !OSSL_PARAM_get_utf8_string_ptr(pp, &props))) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    EVP_CIPHER_free(ctx->cipher);
    ctx->cipher = NULL;
    if (name == NULL || *name == '\0')
        return 1;
    ctx->cipher = EVP_CIPHER_fetch(ctx->prov->libctx, name, props);
    if (ctx->cipher == NULL) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_PARAMETER, "unknown cipher %s", name);
        return 0;
    }
    return 1;
}

static void *enc_import_object(void *vctx, int selection, const OSSL_PARAM params[]) {
    return quill_mldsa_codec_import(vctx, selection, params);
}

static void enc_free_object(void *obj) {
    quill_prov_mldsa_key_free(obj);
}

/* Private key encoders answer for selections that include the private key;
 * the public key encoder only for public-key selections without it (so
 * that a private key request finds the PrivateKeyInfo encoder). */
static int priv_does_selection(void *provctx, int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
}

static int pub_does_selection(void *provctx, int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 &&
           (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

/* Writes der[0..len) to |out| as DER or as PEM labelled |pem_name|. */
static int write_out(const quill_mldsa_codec_ctx *ctx, OSSL_CORE_BIO *cout, const char *pem_name,
                     const uint8_t *der, size_t len) {
    BIO *out = BIO_new_from_core_bio(ctx->prov->libctx, cout);
    if (out == NULL) {
        QUILL_RAISE(ctx->prov, QUILL_R_MEMORY);
        return 0;
    }
    int ok;
    if (ctx->pem)
        ok = PEM_write_bio(out, pem_name, "", der, (long)len) > 0;
    else
        ok = BIO_write(out, der, (int)len) == (int)len;
    BIO_free(out);
    if (!ok)
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_ENCODING, "cannot write the key");
    return ok;
}

/* Encrypts the PrivateKeyInfo pki[0..len) (secret) into a DER
 * EncryptedPrivateKeyInfo (*out, malloc'ed by OpenSSL, public). */
static int encrypt_pki(const quill_mldsa_codec_ctx *ctx, const uint8_t *pki, size_t len,
                       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg, uint8_t **out,
                       size_t *out_len) {
    char pass[1024];
    size_t pass_len = 0;
    int ok = 0;
    PKCS8_PRIV_KEY_INFO *p8 = NULL;
    X509_SIG *sig = NULL;
    OSSL_PARAM pw_params[] = {
        OSSL_PARAM_utf8_string(OSSL_PASSPHRASE_PARAM_INFO, (char *)"ML-DSA private key", 0),
        OSSL_PARAM_END,
    };
    pw_params[0].data_size = strlen(pw_params[0].data);
    if (ctx->cipher == NULL) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_PARAMETER,
                        "EncryptedPrivateKeyInfo needs a cipher");
        return 0;
    }
    if (cb == NULL || !cb(pass, sizeof(pass), &pass_len, pw_params, cbarg) ||
        pass_len > sizeof(pass)) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_PARAMETER, "no passphrase");
        goto done;
    }
    const unsigned char *p = pki;
    p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
    if (p8 == NULL) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_ENCODING);
        goto done;
    }
    /* pbe_nid -1 with a cipher: PBES2, PBKDF2 with the default PRF,
     * iterations and a random salt. */
    sig = PKCS8_encrypt_ex(-1, ctx->cipher, pass, (int)pass_len, NULL, 0, 0, p8,
                           ctx->prov->libctx, NULL);
    if (sig == NULL) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_ENCODING, "PKCS#8 encryption failed");
        goto done;
    }
    unsigned char *der = NULL;
    int n = i2d_X509_SIG(sig, &der);
    if (n <= 0) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_ENCODING);
        goto done;
    }
    *out = der;
    *out_len = (size_t)n;
    ok = 1;
done:
    quill_zeroize(pass, sizeof(pass));
    PKCS8_PRIV_KEY_INFO_free(p8); /* cleanses the key octets */
    X509_SIG_free(sig);
    return ok;
}

static int encode_private(const quill_mldsa_codec_ctx *ctx, OSSL_CORE_BIO *cout,
                          const quill_prov_mldsa_key *k, OSSL_PASSPHRASE_CALLBACK *cb,
                          void *cbarg) {
    const quill_mldsa_key *key = k->key;
    if (!quill_mldsa_key_has_private(key)) {
        QUILL_RAISE(ctx->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    quill_mldsa_form form;
    quill_mldsa_codec_form(ctx, quill_mldsa_key_has_seed(key), &form);
    size_t priv_len = quill_mldsa_priv_bytes(k->alg->set);
    uint8_t pki[QUILL_MLDSA_PKI_MAX];
    size_t len = quill_mldsa_der_pki(k->alg, form, quill_mldsa_key_seed(key),
                                     quill_mldsa_key_priv(key), priv_len, pki, sizeof(pki));
    int ok = 0;
    if (len == 0) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_ENCODING);
        goto done;
    }
    if (ctx->kind == QUILL_MLDSA_CODEC_EPKI || ctx->cipher != NULL) {
        uint8_t *epki = NULL;
        size_t epki_len = 0;
        if (!encrypt_pki(ctx, pki, len, cb, cbarg, &epki, &epki_len))
            goto done;
        ok = write_out(ctx, cout, PEM_STRING_PKCS8, epki, epki_len);
        OPENSSL_free(epki);
    } else {
        ok = write_out(ctx, cout, PEM_STRING_PKCS8INF, pki, len);
    }
done:
    quill_zeroize(pki, sizeof(pki));
    return ok;
}

static int encode_public(const quill_mldsa_codec_ctx *ctx, OSSL_CORE_BIO *cout,
                         const quill_prov_mldsa_key *k) {
    uint8_t spki[QUILL_MLDSA_SPKI_MAX];
    size_t len = quill_mldsa_der_spki(k->alg, quill_mldsa_key_pub(k->key),
                                      quill_mldsa_pub_bytes(k->alg->set), spki, sizeof(spki));
    if (len == 0) {
        QUILL_RAISE(ctx->prov, QUILL_R_BAD_ENCODING);
        return 0;
    }
    return write_out(ctx, cout, PEM_STRING_PUBLIC, spki, len);
}

static int enc_encode(void *vctx, OSSL_CORE_BIO *cout, const void *obj_raw,
                      const OSSL_PARAM obj_abstract[], int selection,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) {
    const quill_mldsa_codec_ctx *ctx = vctx;
    const quill_prov_mldsa_key *k = quill_mldsa_codec_encode_key(ctx, obj_raw, obj_abstract);
    if (k == NULL)
        return 0;
    if (ctx->kind == QUILL_MLDSA_CODEC_SPKI)
        return encode_public(ctx, cout, k);
    return encode_private(ctx, cout, k, cb, cbarg);
}

/* One newctx and dispatch table per set, structure and output. */
#define MLDSA_ENCODER(NN, name, KIND, pem, does)                                          \
    static OSSL_FUNC_encoder_newctx_fn mldsa##NN##_##name##_newctx;                       \
    static void *mldsa##NN##_##name##_newctx(void *provctx) {                             \
        return quill_mldsa_codec_ctx_new(provctx, QUILL_MLDSA_##NN, KIND, pem);           \
    }                                                                                     \
    const OSSL_DISPATCH quill_mldsa##NN##_##name##_encoder[] = {                          \
        {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))mldsa##NN##_##name##_newctx},          \
        {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx},                         \
        {OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params},           \
        {OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params}, \
        {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))does},                         \
        {OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))enc_import_object},             \
        {OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))enc_free_object},                 \
        {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_encode},                           \
        {0, NULL},                                                                        \
    };

#define MLDSA_ENCODERS(NN)                                                          \
    MLDSA_ENCODER(NN, pki_der, QUILL_MLDSA_CODEC_PKI, 0, priv_does_selection)      \
    MLDSA_ENCODER(NN, pki_pem, QUILL_MLDSA_CODEC_PKI, 1, priv_does_selection)      \
    MLDSA_ENCODER(NN, epki_der, QUILL_MLDSA_CODEC_EPKI, 0, priv_does_selection)    \
    MLDSA_ENCODER(NN, epki_pem, QUILL_MLDSA_CODEC_EPKI, 1, priv_does_selection)    \
    MLDSA_ENCODER(NN, spki_der, QUILL_MLDSA_CODEC_SPKI, 0, pub_does_selection)     \
    MLDSA_ENCODER(NN, spki_pem, QUILL_MLDSA_CODEC_SPKI, 1, pub_does_selection)

MLDSA_ENCODERS(44)
MLDSA_ENCODERS(65)
MLDSA_ENCODERS(87)
