/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA key decoders from DER PrivateKeyInfo and SubjectPublicKeyInfo
 * (RFC 9881; OpenSSL's own decoders handle PEM and decrypt
 * EncryptedPrivateKeyInfo before these run).  The key is handed on as an
 * object reference (OSSL_OBJECT_PKEY, data type "ML-DSA-NN", a
 * quill_prov_mldsa_key pointer that the key manager's load takes over).
 *
 * On OpenSSL 3.0 every PKCS#8 and SPKI input, RSA and EC keys included, may
 * reach these decoders.  Input that is not a key of the decoder's set is
 * passed over: return 1 without calling the data callback and without
 * raising, so that the other decoders get their turn.  Input that carries
 * this set's OID but is malformed, has wrong lengths or a seed that does not
 * match the expanded key is an error: raised, and 0 returned, which stops
 * OpenSSL's decoder chain with that error. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "common/zeroize.h"
#include "mldsa_codec.h"
#include "names.h"
#include "prov_err.h"

static OSSL_FUNC_decoder_freectx_fn dec_freectx;
static OSSL_FUNC_decoder_decode_fn dec_decode;
static OSSL_FUNC_decoder_export_object_fn dec_export_object;
static OSSL_FUNC_decoder_does_selection_fn pki_does_selection;
static OSSL_FUNC_decoder_does_selection_fn spki_does_selection;

/* The input is read whole into memory, in a buffer that starts at
 * READ_FIRST bytes (more than any ML-DSA key with few attributes) and
 * doubles as needed below READ_MAX: PrivateKeyInfo may carry attributes of
 * any size.  Input of READ_MAX bytes or more is passed over (someone
 * else's, or nobody's). */
#define READ_FIRST 8192
#define READ_MAX (1u << 20)

static void dec_freectx(void *vctx) {
    quill_mldsa_codec_ctx_free(vctx);
}

/* As the encoders: PrivateKeyInfo for selections with the private key (or
 * none), SubjectPublicKeyInfo for public-key selections without it. */
static int pki_does_selection(void *provctx, int selection) {
    return selection == 0 || (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
}

static int spki_does_selection(void *provctx, int selection) {
    return selection == 0 || ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 &&
                              (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0);
}

/* Reads all of |cin| into a new buffer (*out, *cap bytes allocated; the
 * caller zeroises and frees it, as it may hold a private key) and returns
 * the length (0 for empty or unreadable input).  *out is NULL if the input
 * reaches READ_MAX bytes, or if memory runs out (*oom = 1). */
static size_t read_all(const quill_mldsa_codec_ctx *ctx, OSSL_CORE_BIO *cin, uint8_t **out,
                       size_t *cap, int *oom) {
    *out = NULL;
    *cap = 0;
    *oom = 0;
    BIO *in = BIO_new_from_core_bio(ctx->prov->libctx, cin);
    if (in == NULL)
        return 0;
    size_t size = READ_FIRST, len = 0;
    uint8_t *buf = OPENSSL_malloc(size);
    *oom = buf == NULL;
    while (buf != NULL) {
        size_t got = 0;
        if (len == size) { /* full: grow, wiping what is left behind */
            uint8_t *bigger = size < READ_MAX ? OPENSSL_malloc(2 * size) : NULL;
            *oom = size < READ_MAX && bigger == NULL;
            if (bigger != NULL)
                memcpy(bigger, buf, len);
            quill_zeroize(buf, size);
            OPENSSL_free(buf);
            buf = bigger;
            size *= 2;
            if (buf == NULL)
                break;
        }
        if (!BIO_read_ex(in, buf + len, size - len, &got) || got == 0)
            break;
        len += got;
    }
    BIO_free(in);
    if (buf == NULL)
        return 0;
    *out = buf;
    *cap = size;
    return len;
}

static int dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection, OSSL_CALLBACK *data_cb,
                      void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg) {
    const quill_mldsa_codec_ctx *ctx = vctx;
    const quill_mldsa_alg *alg = ctx->alg;
    int is_pki = ctx->kind == QUILL_MLDSA_CODEC_PKI;
    if (is_pki ? !pki_does_selection(NULL, selection) : !spki_does_selection(NULL, selection))
        return 1; /* not asked for what this decoder makes */
    uint8_t *buf;
    size_t cap;
    int oom;
    size_t len = read_all(ctx, cin, &buf, &cap, &oom);
    if (buf == NULL) { /* too long to be this set's key, or out of memory */
        if (oom)
            QUILL_RAISE(ctx->prov, QUILL_R_MEMORY);
        return !oom;
    }
    quill_mldsa_der_parts parts;
    quill_mldsa_der_status st;
    if (is_pki)
        st = quill_mldsa_der_parse_pki(alg, buf, len, &parts, NULL);
    else
        st = quill_mldsa_der_parse_spki(alg, buf, len, &parts);

    int ok = 1;
    quill_prov_mldsa_key *k = NULL;
    if (st == QUILL_MLDSA_DER_OTHER)
        goto done; /* someone else's: pass, nothing raised */
    if (st == QUILL_MLDSA_DER_BAD) {
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_ENCODING, "malformed %s %s", alg->name,
                        is_pki ? "PrivateKeyInfo" : "SubjectPublicKeyInfo");
        ok = 0;
        goto done;
    }
    k = quill_prov_mldsa_key_new(ctx->prov, alg->set);
    if (k == NULL || !quill_prov_mldsa_key_set_parts(k, parts.seed, parts.seed_len, parts.priv,
                                                     parts.priv_len, parts.pub, parts.pub_len)) {
        ok = 0;
        goto done;
    }
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_OBJECT_PARAM_TYPE, &type),
        OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)alg->name, 0),
        OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_STRUCTURE,
                               (char *)(is_pki ? "PrivateKeyInfo" : "SubjectPublicKeyInfo"), 0),
        OSSL_PARAM_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof(k)),
        OSSL_PARAM_END,
    };
    params[1].data_size = strlen(params[1].data);
    params[2].data_size = strlen(params[2].data);
    /* The key manager's load clears k when it takes the key over. */
    ok = data_cb(params, data_cbarg);
done:
    quill_prov_mldsa_key_free(k);
    if (buf != NULL)
        quill_zeroize(buf, cap);
    OPENSSL_free(buf);
    return ok;
}

/* Hands a decoded key to a key manager of another provider as "pub",
 * "priv" and "seed" parameters. */
static int dec_export_object(void *vctx, const void *objref, size_t objref_sz,
                             OSSL_CALLBACK *export_cb, void *export_cbarg) {
    const quill_mldsa_codec_ctx *ctx = vctx;
    if (objref == NULL || objref_sz != sizeof(quill_prov_mldsa_key *))
        return 0;
    const quill_prov_mldsa_key *k = quill_mldsa_codec_key(ctx, *(quill_prov_mldsa_key *const *)objref);
    if (k == NULL)
        return 0;
    const quill_mldsa_key *key = k->key;
    quill_mldsa_set set = k->alg->set;
    OSSL_PARAM params[4];
    size_t n = 0;
    params[n++] = OSSL_PARAM_construct_octet_string(
        OSSL_PKEY_PARAM_PUB_KEY, (void *)quill_mldsa_key_pub(key), quill_mldsa_pub_bytes(set));
    if (quill_mldsa_key_has_private(key))
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY,
                                                        (void *)quill_mldsa_key_priv(key),
                                                        quill_mldsa_priv_bytes(set));
    if (quill_mldsa_key_has_seed(key))
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_ML_DSA_SEED, (void *)quill_mldsa_key_seed(key), QUILL_MLDSA_SEED_BYTES);
    params[n] = OSSL_PARAM_construct_end();
    return export_cb(params, export_cbarg);
}

#define MLDSA_DECODER(NN, name, KIND, does)                                             \
    static OSSL_FUNC_decoder_newctx_fn mldsa##NN##_##name##_newctx;                     \
    static void *mldsa##NN##_##name##_newctx(void *provctx) {                           \
        return quill_mldsa_codec_ctx_new(provctx, QUILL_MLDSA_##NN, KIND, 0);           \
    }                                                                                   \
    const OSSL_DISPATCH quill_mldsa##NN##_##name##_decoder[] = {                        \
        {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))mldsa##NN##_##name##_newctx},        \
        {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                       \
        {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))does},                       \
        {OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_decode},                         \
        {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object},           \
        {0, NULL},                                                                      \
    };

#define MLDSA_DECODERS(NN)                                                    \
    MLDSA_DECODER(NN, pki_der, QUILL_MLDSA_CODEC_PKI, pki_does_selection)    \
    MLDSA_DECODER(NN, spki_der, QUILL_MLDSA_CODEC_SPKI, spki_does_selection)

MLDSA_DECODERS(44)
MLDSA_DECODERS(65)
MLDSA_DECODERS(87)
