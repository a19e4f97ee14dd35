/* Copyright quill authors.
 *
 * The encoder and decoder tables prov.c registers (ML-DSA key formats; see
 * mldsa_codec*.c). */
#include <openssl/core.h>

#include "algorithms.h"

const OSSL_ALGORITHM quill_encoders[] = {
    {NULL, NULL, NULL, NULL},
};

const OSSL_ALGORITHM quill_decoders[] = {
    {NULL, NULL, NULL, NULL},
};
