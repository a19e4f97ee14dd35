/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill's ML-DSA encoders and decoders (RFC 9881 formats), shared by
 * mldsa_codec_enc.c (DER/PEM: PrivateKeyInfo, EncryptedPrivateKeyInfo,
 * SubjectPublicKeyInfo), mldsa_codec_text.c (TEXT) and mldsa_codec_dec.c
 * (DER: PrivateKeyInfo, SubjectPublicKeyInfo; OpenSSL's own decoders turn
 * PEM and EncryptedPrivateKeyInfo into these).  codec_algs.c registers the
 * dispatch tables declared here, one per set and format. */
#ifndef QUILL_PROV_MLDSA_CODEC_H
#define QUILL_PROV_MLDSA_CODEC_H

#include <openssl/core.h>
#include <openssl/evp.h>

#include "mldsa_codec_der.h"
#include "mldsa_key.h"
#include "prov_ctx.h"

/* What an encoder or decoder instance handles. */
typedef enum quill_mldsa_codec_kind {
    QUILL_MLDSA_CODEC_PKI = 0,  /* PrivateKeyInfo (encrypted if a cipher is set) */
    QUILL_MLDSA_CODEC_EPKI = 1, /* EncryptedPrivateKeyInfo */
    QUILL_MLDSA_CODEC_SPKI = 2, /* SubjectPublicKeyInfo */
    QUILL_MLDSA_CODEC_TEXT = 3, /* `openssl pkey -text` */
} quill_mldsa_codec_kind;

/* One encoder or decoder context: fixed at newctx but for the cipher that
 * OSSL_ENCODER_CTX_set_cipher installs. */
typedef struct quill_mldsa_codec_ctx {
    quill_provctx *prov;
    const quill_mldsa_alg *alg;
    quill_mldsa_codec_kind kind;
    int pem;            /* encoders: PEM output, else DER */
    EVP_CIPHER *cipher; /* encoders: encrypt the PrivateKeyInfo with it */
} quill_mldsa_codec_ctx;

/* quill_mldsa_codec_ctx_new returns a context, or NULL with an error
 * raised; quill_mldsa_codec_ctx_free releases it (NULL is fine). */
quill_mldsa_codec_ctx *quill_mldsa_codec_ctx_new(void *provctx, quill_mldsa_set set,
                                                 quill_mldsa_codec_kind kind, int pem);
void quill_mldsa_codec_ctx_free(void *ctx);

/* quill_mldsa_codec_import builds a key of ctx's set from OpenSSL key
 * parameters "seed", "priv", "pub" (octet strings, taken as |selection|
 * allows), for encoders given a key held by another provider.  NULL with
 * an error raised on failure.  Only reads the (secret) inputs. */
void *quill_mldsa_codec_import(quill_mldsa_codec_ctx *ctx, int selection,
                               const OSSL_PARAM params[]);

/* quill_mldsa_codec_key checks that |obj| is a filled key of ctx's set and
 * returns it; NULL with an error raised otherwise. */
const quill_prov_mldsa_key *quill_mldsa_codec_key(const quill_mldsa_codec_ctx *ctx,
                                                  const void *obj);

/* quill_mldsa_codec_encode_key is quill_mldsa_codec_key for an encoder's
 * encode call, which receives the key as an object |obj_raw| or as
 * parameters |obj_abstract|: parameters are refused (QUILL_R_NOT_SUPPORTED;
 * OpenSSL passes keys of other providers through import_object instead). */
const quill_prov_mldsa_key *quill_mldsa_codec_encode_key(const quill_mldsa_codec_ctx *ctx,
                                                         const void *obj_raw,
                                                         const OSSL_PARAM obj_abstract[]);

/* quill_mldsa_codec_form picks the private key form to write for a key that
 * has (has_seed) or has not its seed: the first applicable entry of the
 * provider configuration's "ml-dsa.output_formats" (entries separated by
 * commas, colons or blanks: "seed-priv", "seed-only", "priv-only"; OpenSSL
 * 3.5's other names are skipped), by default "seed-priv, priv-only".  When
 * no entry applies (e.g. only "seed-only" for a key without its seed) it
 * falls back to the default: "both" with a seed, else the expanded key. */
void quill_mldsa_codec_form(const quill_mldsa_codec_ctx *ctx, int has_seed,
                            quill_mldsa_form *form);

/* quill_mldsa_codec_pick_form is quill_mldsa_codec_form on an explicit list
 * (NULL: the default).  Returns 1 if an entry of |list| applied, 0 if
 * *form is the fallback. */
int quill_mldsa_codec_pick_form(const char *list, int has_seed, quill_mldsa_form *form);

/* The configuration key of the private key output forms (OpenSSL 3.5's). */
#define QUILL_MLDSA_CONF_OUTPUT_FORMATS "ml-dsa.output_formats"
#define QUILL_MLDSA_DEFAULT_OUTPUT_FORMATS "seed-priv, priv-only"

/* Dispatch tables: encoders per set for PrivateKeyInfo, Encrypted-
 * PrivateKeyInfo and SubjectPublicKeyInfo in DER and PEM, and TEXT;
 * decoders per set from DER PrivateKeyInfo and SubjectPublicKeyInfo. */
#define QUILL_MLDSA_CODEC_DECLARE(NN)                                  \
    extern const OSSL_DISPATCH quill_mldsa##NN##_pki_der_encoder[];    \
    extern const OSSL_DISPATCH quill_mldsa##NN##_pki_pem_encoder[];    \
    extern const OSSL_DISPATCH quill_mldsa##NN##_epki_der_encoder[];   \
    extern const OSSL_DISPATCH quill_mldsa##NN##_epki_pem_encoder[];   \
    extern const OSSL_DISPATCH quill_mldsa##NN##_spki_der_encoder[];   \
    extern const OSSL_DISPATCH quill_mldsa##NN##_spki_pem_encoder[];   \
    extern const OSSL_DISPATCH quill_mldsa##NN##_text_encoder[];       \
    extern const OSSL_DISPATCH quill_mldsa##NN##_pki_der_decoder[];    \
    extern const OSSL_DISPATCH quill_mldsa##NN##_spki_der_decoder[];

QUILL_MLDSA_CODEC_DECLARE(44)
QUILL_MLDSA_CODEC_DECLARE(65)
QUILL_MLDSA_CODEC_DECLARE(87)

#endif
