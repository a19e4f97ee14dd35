/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The DER of ML-DSA keys (RFC 9881), without OpenSSL:
 *
 *   SubjectPublicKeyInfo ::= SEQUENCE {
 *       algorithm AlgorithmIdentifier { id-ml-dsa-NN },  -- parameters ABSENT
 *       subjectPublicKey BIT STRING }                    -- the pk bytes
 *
 *   PrivateKeyInfo (OneAsymmetricKey) ::= SEQUENCE {
 *       version INTEGER (0 | 1), privateKeyAlgorithm AlgorithmIdentifier,
 *       privateKey OCTET STRING,            -- contains ML-DSA-PrivateKey
 *       attributes [0] IMPLICIT ... OPTIONAL, -- skipped
 *       publicKey [1] IMPLICIT BIT STRING OPTIONAL }  -- version 1 only
 *
 *   ML-DSA-PrivateKey ::= CHOICE {
 *       seed [0] IMPLICIT OCTET STRING (SIZE (32)),     -- 80 20 <seed>
 *       expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)),
 *       both SEQUENCE { seed OCTET STRING (SIZE (32)),
 *                       expandedKey OCTET STRING } }
 *
 * The parsers also take OpenSSL 3.5's "bare" inputs (and earlier drafts'):
 * a privateKey OCTET STRING whose content is exactly the 32-byte seed or
 * exactly the expanded key.  Lengths tell every form apart: bare seed 32,
 * seed-only 34, bare expanded key sk, expandedKey sk + 4, both sk + 42.
 *
 * The writers always produce version 0 without attributes.  The parsers
 * accept DER only (minimal definite lengths, no trailing bytes) and leave
 * the lengths of the key parts to quill_prov_mldsa_key_set_parts.
 *
 * Secret: the seed and the expanded key.  The parsers branch only on tags
 * and lengths (the structure), never on key bytes; the parts they return
 * point into the caller's buffer, which the caller zeroises. */
#ifndef QUILL_PROV_MLDSA_CODEC_DER_H
#define QUILL_PROV_MLDSA_CODEC_DER_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa_key.h"

/* The three forms of ML-DSA-PrivateKey. */
typedef enum quill_mldsa_form {
    QUILL_MLDSA_FORM_SEED_ONLY = 0, /* seed [0] */
    QUILL_MLDSA_FORM_PRIV_ONLY = 1, /* expandedKey */
    QUILL_MLDSA_FORM_SEED_PRIV = 2, /* both */
} quill_mldsa_form;

/* Upper bounds of the encodings for every set (ML-DSA-87): SPKI 22 bytes of
 * framing around 2592, PrivateKeyInfo in the "both" form 66 around 4896. */
#define QUILL_MLDSA_SPKI_MAX (QUILL_MLDSA_MAX_PUB_BYTES + 22)
#define QUILL_MLDSA_PKI_MAX (QUILL_MLDSA_MAX_PRIV_BYTES + 66)

/* quill_mldsa_der_spki writes the SubjectPublicKeyInfo of |pub| (pub_len
 * bytes) for |alg| into out[0..cap) and returns its length; with out ==
 * NULL it only returns the length.  0 if cap is too small. */
size_t quill_mldsa_der_spki(const quill_mldsa_alg *alg, const uint8_t *pub, size_t pub_len,
                            uint8_t *out, size_t cap);

/* quill_mldsa_der_pki writes the PrivateKeyInfo (version 0) holding the
 * private key in |form|: seed (32 bytes, secret; needed by SEED_ONLY and
 * SEED_PRIV) and/or priv (priv_len bytes, secret; needed by PRIV_ONLY and
 * SEED_PRIV).  Returns the length (out == NULL: length only), 0 if cap is too
 * small or a needed part is NULL.  The caller zeroises |out|. */
size_t quill_mldsa_der_pki(const quill_mldsa_alg *alg, quill_mldsa_form form,
                           const uint8_t *seed, const uint8_t *priv, size_t priv_len,
                           uint8_t *out, size_t cap);

/* What a parser found. */
typedef enum quill_mldsa_der_status {
    QUILL_MLDSA_DER_OK = 0,    /* an encoding of a key of |alg|'s set */
    QUILL_MLDSA_DER_OTHER = 1, /* not recognisably |alg|'s: another
                                  algorithm or set, or not this structure */
    QUILL_MLDSA_DER_BAD = 2,   /* |alg|'s OID, but the encoding is malformed
                                  (truncated, trailing bytes, wrong tags,
                                  parameters present, ...) */
} quill_mldsa_der_status;

/* Views into the parsed buffer; NULL/0 for an absent part. */
typedef struct quill_mldsa_der_parts {
    const uint8_t *seed;
    size_t seed_len;
    const uint8_t *priv;
    size_t priv_len;
    const uint8_t *pub;
    size_t pub_len;
} quill_mldsa_der_parts;

/* quill_mldsa_der_parse_spki parses der[0..len) as a SubjectPublicKeyInfo
 * of |alg|'s set; on QUILL_MLDSA_DER_OK, parts->pub is the key.  |parts| is
 * cleared first.  A truncated or padded encoding whose OID is readable and
 * |alg|'s is BAD, so that the caller can report it. */
quill_mldsa_der_status quill_mldsa_der_parse_spki(const quill_mldsa_alg *alg, const uint8_t *der,
                                                  size_t len, quill_mldsa_der_parts *parts);

/* quill_mldsa_der_parse_pki parses der[0..len) as a PrivateKeyInfo of
 * |alg|'s set; on QUILL_MLDSA_DER_OK, parts has the seed and/or the
 * expanded key and, for a version 1 key that carries one, the public key.
 * *form receives the private key's form (may be NULL). */
quill_mldsa_der_status quill_mldsa_der_parse_pki(const quill_mldsa_alg *alg, const uint8_t *der,
                                                 size_t len, quill_mldsa_der_parts *parts,
                                                 quill_mldsa_form *form);

#endif
