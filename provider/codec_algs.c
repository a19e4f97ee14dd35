/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The encoder and decoder tables prov.c registers: ML-DSA key formats
 * (mldsa_codec*.c).  Names are the key managers' (an encoder or decoder is
 * found through its key type); properties say the output or input and the
 * structure, as OpenSSL's own encoders and decoders do. */
#include <openssl/core.h>

#include "algorithms.h"
#include "mldsa_codec.h"
#include "names.h"

#define ENC_PROPS(out, structure) "provider=quill,output=" out ",structure=" structure
#define DEC_PROPS(structure) "provider=quill,input=der,structure=" structure

#define MLDSA_ENCODER_ROWS(NN)                                                                 \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("der", "PrivateKeyInfo"), quill_mldsa##NN##_pki_der_encoder, \
     "ML-DSA-" #NN " PrivateKeyInfo DER"},                                                     \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("pem", "PrivateKeyInfo"), quill_mldsa##NN##_pki_pem_encoder, \
     "ML-DSA-" #NN " PrivateKeyInfo PEM"},                                                     \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("der", "EncryptedPrivateKeyInfo"),                        \
     quill_mldsa##NN##_epki_der_encoder, "ML-DSA-" #NN " EncryptedPrivateKeyInfo DER"},        \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("pem", "EncryptedPrivateKeyInfo"),                        \
     quill_mldsa##NN##_epki_pem_encoder, "ML-DSA-" #NN " EncryptedPrivateKeyInfo PEM"},        \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("der", "SubjectPublicKeyInfo"),                           \
     quill_mldsa##NN##_spki_der_encoder, "ML-DSA-" #NN " SubjectPublicKeyInfo DER"},           \
    {QUILL_NAMES_MLDSA##NN, ENC_PROPS("pem", "SubjectPublicKeyInfo"),                           \
     quill_mldsa##NN##_spki_pem_encoder, "ML-DSA-" #NN " SubjectPublicKeyInfo PEM"},           \
    {QUILL_NAMES_MLDSA##NN, "provider=quill,output=text", quill_mldsa##NN##_text_encoder,       \
     "ML-DSA-" #NN " text"},

#define MLDSA_DECODER_ROWS(NN)                                                                 \
    {QUILL_NAMES_MLDSA##NN, DEC_PROPS("PrivateKeyInfo"), quill_mldsa##NN##_pki_der_decoder,     \
     "ML-DSA-" #NN " from DER PrivateKeyInfo"},                                                \
    {QUILL_NAMES_MLDSA##NN, DEC_PROPS("SubjectPublicKeyInfo"),                                  \
     quill_mldsa##NN##_spki_der_decoder, "ML-DSA-" #NN " from DER SubjectPublicKeyInfo"},

const OSSL_ALGORITHM quill_encoders[] = {
    MLDSA_ENCODER_ROWS(44) MLDSA_ENCODER_ROWS(65) MLDSA_ENCODER_ROWS(87)
    {NULL, NULL, NULL, NULL},
};

const OSSL_ALGORITHM quill_decoders[] = {
    {QUILL_NAMES_EC, DEC_PROPS("SubjectPublicKeyInfo"), quill_ec_spki_der_decoder,
     "EC P-256 from DER SubjectPublicKeyInfo"},
    MLDSA_DECODER_ROWS(44) MLDSA_DECODER_ROWS(65) MLDSA_DECODER_ROWS(87)
    {NULL, NULL, NULL, NULL},
};
