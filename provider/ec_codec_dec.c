/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The EC P-256 public-key decoder from DER SubjectPublicKeyInfo (RFC 5480
 * with the named curve prime256v1), so that a P-256 key read from a
 * certificate lands in quill's key manager directly.  Without it OpenSSL
 * 3.0 decodes such a key with the default provider (building an EC_KEY and
 * its group) and, at the first quill signature operation, exports it into
 * quill's key manager (the default provider's export converts the point to
 * affine coordinates again, a field inversion): about a fifth of a
 * handshake's client-side signature work (README, Performance).
 *
 * Only the two encodings of a P-256 key are taken: the fixed 26-byte
 * prefix (the AlgorithmIdentifier id-ecPublicKey / prime256v1 and the BIT
 * STRING header) followed by a 65-byte uncompressed or 33-byte compressed
 * point that quill_p256_public_decode accepts.  Everything else (other
 * curves, explicit parameters, hybrid points, invalid points, trailing
 * bytes) is passed over, returning 1 without an object and without an
 * error, so that the default provider's decoder decides and reports as it
 * always did. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/params.h>

#include "algorithms.h"
#include "ec/ecdsa.h"
#include "ec_key.h"
#include "names.h"
#include "prov_ctx.h"

static OSSL_FUNC_decoder_newctx_fn ec_dec_newctx;
static OSSL_FUNC_decoder_freectx_fn ec_dec_freectx;
static OSSL_FUNC_decoder_does_selection_fn ec_dec_does_selection;
static OSSL_FUNC_decoder_decode_fn ec_dec_decode;
static OSSL_FUNC_decoder_export_object_fn ec_dec_export_object;

/* SEQUENCE { SEQUENCE { OID 1.2.840.10045.2.1, OID 1.2.840.10045.3.1.7 },
 * BIT STRING (0 unused bits) } for a 65- and a 33-byte point. */
#define SPKI_PREFIX_LEN 26
static const uint8_t spki_prefix_uncompressed[SPKI_PREFIX_LEN] = {
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
    0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00};
static const uint8_t spki_prefix_compressed[SPKI_PREFIX_LEN] = {
    0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
    0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00};
#define SPKI_MAX (SPKI_PREFIX_LEN + QUILL_P256_PUBLIC_BYTES)

static void *ec_dec_newctx(void *provctx) {
    return provctx; /* nothing per decoding */
}

static void ec_dec_freectx(void *vctx) {
    (void)vctx;
}

/* Public keys only: a request for a private key goes to other decoders. */
static int ec_dec_does_selection(void *provctx, int selection) {
    (void)provctx;
    return selection == 0 || ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 &&
                              (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0);
}

/* Reads the input (at most SPKI_MAX + 1 bytes: anything longer is not a
 * P-256 SubjectPublicKeyInfo).  Returns its length, or 0. */
static size_t read_input(quill_provctx *prov, OSSL_CORE_BIO *cin, uint8_t buf[SPKI_MAX + 1]) {
    BIO *in = BIO_new_from_core_bio(prov->libctx, cin);
    size_t len = 0;
    if (in == NULL)
        return 0;
    while (len < SPKI_MAX + 1) {
        size_t got = 0;
        if (!BIO_read_ex(in, buf + len, SPKI_MAX + 1 - len, &got) || got == 0)
            break;
        len += got;
    }
    BIO_free(in);
    return len;
}

static int ec_dec_decode(void *vctx, OSSL_CORE_BIO *cin, int selection, OSSL_CALLBACK *data_cb,
                         void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg) {
    quill_provctx *prov = vctx;
    uint8_t buf[SPKI_MAX + 1];
    quill_p256_public pub;
    (void)pw_cb;
    (void)pw_cbarg;
    if (!ec_dec_does_selection(NULL, selection))
        return 1;
    size_t len = read_input(prov, cin, buf);
    const uint8_t *prefix = len == SPKI_PREFIX_LEN + QUILL_P256_PUBLIC_BYTES
                                ? spki_prefix_uncompressed
                            : len == SPKI_PREFIX_LEN + QUILL_P256_PUBLIC_COMPRESSED_BYTES
                                ? spki_prefix_compressed
                                : NULL;
    if (prefix == NULL || memcmp(buf, prefix, SPKI_PREFIX_LEN) != 0 ||
        quill_p256_public_decode(&pub, buf + SPKI_PREFIX_LEN, len - SPKI_PREFIX_LEN) != QUILL_OK)
        return 1; /* not a valid P-256 key: the default provider's decoder decides */
    quill_prov_ec_key *k = quill_prov_ec_key_new(prov);
    if (k == NULL)
        return 0;
    quill_p256_lazy_public_set(&k->pub, &pub);
    k->has_group = 1;
    k->compressed = len == SPKI_PREFIX_LEN + QUILL_P256_PUBLIC_COMPRESSED_BYTES;
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_OBJECT_PARAM_TYPE, &type),
        OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)"EC", 2),
        OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_STRUCTURE, (char *)"SubjectPublicKeyInfo",
                               sizeof("SubjectPublicKeyInfo") - 1),
        OSSL_PARAM_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof(k)),
        OSSL_PARAM_END,
    };
    /* The key manager's load clears k when it takes the key over. */
    int ok = data_cb(params, data_cbarg);
    quill_prov_ec_key_free(k);
    return ok;
}

/* Hands a decoded key to another provider's key manager as parameters. */
static int ec_dec_export_object(void *vctx, const void *objref, size_t objref_sz,
                                OSSL_CALLBACK *export_cb, void *export_cbarg) {
    (void)vctx;
    if (objref == NULL || objref_sz != sizeof(quill_prov_ec_key *))
        return 0;
    const quill_prov_ec_key *k = *(quill_prov_ec_key *const *)objref;
    if (k == NULL)
        return 0;
    return quill_prov_ec_key_export(k, OSSL_KEYMGMT_SELECT_ALL, export_cb, export_cbarg);
}

const OSSL_DISPATCH quill_ec_spki_der_decoder[] = {
    {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))ec_dec_newctx},
    {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))ec_dec_freectx},
    {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))ec_dec_does_selection},
    {OSSL_FUNC_DECODER_DECODE, (void (*)(void))ec_dec_decode},
    {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))ec_dec_export_object},
    {0, NULL},
};
