/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The TEXT encoder of ML-DSA keys (`openssl pkey -text`, EVP_PKEY_print_*),
 * in OpenSSL 3.5's layout:
 *
 *   ML-DSA-65 Private-Key:        (or "ML-DSA-65 Public-Key:")
 *   seed:                         (private keys that have their seed)
 *       2a:2a:...                 (15 bytes a line, 4 spaces of indent)
 *   priv:                         (private keys)
 *       ...
 *   pub:
 *       ...
 *
 * Printing a private key writes secrets to the output, as asked. */
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>

#include "common/zeroize.h"
#include "mldsa_codec.h"
#include "prov_err.h"

static OSSL_FUNC_encoder_freectx_fn text_freectx;
static OSSL_FUNC_encoder_does_selection_fn text_does_selection;
static OSSL_FUNC_encoder_import_object_fn text_import_object;
static OSSL_FUNC_encoder_free_object_fn text_free_object;
static OSSL_FUNC_encoder_encode_fn text_encode;

#define BYTES_PER_LINE 15

static void text_freectx(void *vctx) {
    quill_mldsa_codec_ctx_free(vctx);
}

static int text_does_selection(void *provctx, int selection) {
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

static void *text_import_object(void *vctx, int selection, const OSSL_PARAM params[]) {
    return quill_mldsa_codec_import(vctx, selection, params);
}

static void text_free_object(void *obj) {
    quill_prov_mldsa_key_free(obj);
}

/* "label:" then the bytes as lowercase hex pairs joined by ':', 15 a line,
 * each line indented by 4 spaces; the last byte has no ':' after it.  The
 * line buffer is zeroised (it may hold secret bytes). */
static int print_block(BIO *out, const char *label, const uint8_t *b, size_t len) {
    static const char hex[] = "0123456789abcdef";
    char line[4 + 3 * BYTES_PER_LINE + 1];
    int ok = BIO_printf(out, "%s\n", label) > 0;
    for (size_t i = 0; ok && i < len; i += BYTES_PER_LINE) {
        size_t n = 0, end = len - i < BYTES_PER_LINE ? len : i + BYTES_PER_LINE;
        memcpy(line, "    ", 4);
        n = 4;
        for (size_t j = i; j < end; j++) {
            line[n++] = hex[b[j] >> 4];
            line[n++] = hex[b[j] & 15];
            if (j + 1 < len)
                line[n++] = ':';
        }
        line[n++] = '\n';
        ok = BIO_write(out, line, (int)n) == (int)n;
    }
    quill_zeroize(line, sizeof(line));
    return ok;
}

static int text_encode(void *vctx, OSSL_CORE_BIO *cout, const void *obj_raw,
                       const OSSL_PARAM obj_abstract[], int selection,
                       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) {
    const quill_mldsa_codec_ctx *ctx = vctx;
    const quill_prov_mldsa_key *k = quill_mldsa_codec_encode_key(ctx, obj_raw, obj_abstract);
    if (k == NULL)
        return 0;
    const quill_mldsa_key *key = k->key;
    quill_mldsa_set set = k->alg->set;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
               quill_mldsa_key_has_private(key);
    BIO *out = BIO_new_from_core_bio(ctx->prov->libctx, cout);
    if (out == NULL) {
        QUILL_RAISE(ctx->prov, QUILL_R_MEMORY);
        return 0;
    }
    int ok = BIO_printf(out, "%s %s-Key:\n", k->alg->name, priv ? "Private" : "Public") > 0;
    if (ok && priv && quill_mldsa_key_has_seed(key))
        ok = print_block(out, "seed:", quill_mldsa_key_seed(key), QUILL_MLDSA_SEED_BYTES);
    if (ok && priv)
        ok = print_block(out, "priv:", quill_mldsa_key_priv(key), quill_mldsa_priv_bytes(set));
    if (ok)
        ok = print_block(out, "pub:", quill_mldsa_key_pub(key), quill_mldsa_pub_bytes(set));
    BIO_free(out);
    if (!ok)
        QUILL_RAISE_MSG(ctx->prov, QUILL_R_BAD_ENCODING, "cannot write the key text");
    return ok;
}

#define MLDSA_TEXT_ENCODER(NN)                                                         \
    static OSSL_FUNC_encoder_newctx_fn mldsa##NN##_text_newctx;                        \
    static void *mldsa##NN##_text_newctx(void *provctx) {                              \
        return quill_mldsa_codec_ctx_new(provctx, QUILL_MLDSA_##NN, QUILL_MLDSA_CODEC_TEXT, 0); \
    }                                                                                  \
    const OSSL_DISPATCH quill_mldsa##NN##_text_encoder[] = {                           \
        {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))mldsa##NN##_text_newctx},           \
        {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))text_freectx},                     \
        {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))text_does_selection},       \
        {OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))text_import_object},         \
        {OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))text_free_object},             \
        {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))text_encode},                       \
        {0, NULL},                                                                     \
    };

MLDSA_TEXT_ENCODER(44)
MLDSA_TEXT_ENCODER(65)
MLDSA_TEXT_ENCODER(87)
