/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The DER writer of the decoder harnesses' starting inputs (fuzz_decoder,
 * fuzz_mldsa_decoder): an ML-DSA key in RFC 9881's encodings, built here
 * byte by byte (never by quill's or OpenSSL's encoders). */
#ifndef QUILL_FUZZ_MLDSA_DER_H
#define QUILL_FUZZ_MLDSA_DER_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa/mldsa.h"

/* The encodings: SubjectPublicKeyInfo, and PrivateKeyInfo whose inner
 * ML-DSA-PrivateKey is the seed ([0] IMPLICIT OCTET STRING), the expanded
 * key (OCTET STRING) or both (SEQUENCE of the two OCTET STRINGs). */
typedef enum quill_fuzz_mldsa_form {
    QUILL_FUZZ_MLDSA_SPKI = 0,
    QUILL_FUZZ_MLDSA_PKI_SEED = 1,
    QUILL_FUZZ_MLDSA_PKI_EXPANDED = 2,
    QUILL_FUZZ_MLDSA_PKI_BOTH = 3
} quill_fuzz_mldsa_form;

/* Room for the longest encoding (ML-DSA-87, both forms: 4,962 bytes). */
#define QUILL_FUZZ_MLDSA_DER_MAX 8192

/* quill_fuzz_mldsa_der writes encoding |form| of key |k| (which has a seed
 * for the private forms) to out (QUILL_FUZZ_MLDSA_DER_MAX bytes); returns
 * its length.  The AlgorithmIdentifier is id-ml-dsa-44/65/87
 * (2.16.840.1.101.3.4.3.17 + set) without parameters. */
size_t quill_fuzz_mldsa_der(uint8_t *out, const quill_mldsa_key *k, quill_fuzz_mldsa_form form);

#endif
