/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The signature tables prov.c registers: one for a core before OpenSSL 3.4,
 * one for 3.4 and later, which adds the signature algorithms named for key
 * and digest (sigalg.h) and ML-DSA's message API.  Every signature carries
 * quill.sig=yes (names.h). */
#include <openssl/core.h>

#include "algorithms.h"
#include "names.h"
#include "sigalg.h"

#define RSA_ROW                                                                                \
    {QUILL_NAMES_RSA, QUILL_PROPS_SIG, quill_rsa_signature_functions,                          \
     "quill RSA signatures (PKCS#1 v1.5, PSS) on a constant-time core"}
#define ECDSA_ROW                                                                              \
    {QUILL_NAMES_ECDSA, QUILL_PROPS_SIG, quill_ecdsa_signature_functions,                      \
     "quill ECDSA P-256 on a constant-time core"}

const OSSL_ALGORITHM quill_signatures[] = {
    RSA_ROW,
    ECDSA_ROW,
    {QUILL_NAMES_MLDSA44, QUILL_PROPS_SIG, quill_mldsa44_signature_functions,
     "quill ML-DSA-44 (FIPS 204)"},
    {QUILL_NAMES_MLDSA65, QUILL_PROPS_SIG, quill_mldsa65_signature_functions,
     "quill ML-DSA-65 (FIPS 204)"},
    {QUILL_NAMES_MLDSA87, QUILL_PROPS_SIG, quill_mldsa87_signature_functions,
     "quill ML-DSA-87 (FIPS 204)"},
    {NULL, NULL, NULL, NULL},
};

#define SIGALG_ROW(id, names, md)                                                              \
    {names, QUILL_PROPS_SIG, quill_sigalg_##id##_functions, "quill " md " signatures"},

const OSSL_ALGORITHM quill_signatures_34[] = {
    RSA_ROW,
    ECDSA_ROW,
    {QUILL_NAMES_MLDSA44, QUILL_PROPS_SIG, quill_mldsa44_message_signature_functions,
     "quill ML-DSA-44 (FIPS 204)"},
    {QUILL_NAMES_MLDSA65, QUILL_PROPS_SIG, quill_mldsa65_message_signature_functions,
     "quill ML-DSA-65 (FIPS 204)"},
    {QUILL_NAMES_MLDSA87, QUILL_PROPS_SIG, quill_mldsa87_message_signature_functions,
     "quill ML-DSA-87 (FIPS 204)"},
    QUILL_RSA_SIGALGS(SIGALG_ROW)
    QUILL_ECDSA_SIGALGS(SIGALG_ROW)
    {NULL, NULL, NULL, NULL},
};
