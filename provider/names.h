/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Algorithm names, properties and object identifiers that quill registers
 * with OpenSSL.  Names follow OpenSSL's convention "NAME:alias:OID". */
#ifndef QUILL_PROV_NAMES_H
#define QUILL_PROV_NAMES_H

#define QUILL_PROV_NAME "quill"
/* The build may pass the CMake project version as QUILL_VERSION_STR; the
 * fallback must match project(quill VERSION ...) in CMakeLists.txt. */
#ifdef QUILL_VERSION_STR
#define QUILL_PROV_VERSION QUILL_VERSION_STR
#else
#define QUILL_PROV_VERSION "0.1.0"
#endif
#define QUILL_PROV_BUILDINFO "quill " QUILL_PROV_VERSION " (constant-time RSA, ECDSA P-256 and ML-DSA cores)"

/* Signatures carry quill.sig=yes so that default_properties = ?quill.sig=yes
 * prefers them; key managers carry only provider=quill, so that every other
 * operation keeps its usual provider. */
#define QUILL_PROPS_SIG "provider=quill,quill.sig=yes"
#define QUILL_PROPS_KEYMGMT "provider=quill"

#define QUILL_NAMES_RSA "RSA:rsaEncryption:1.2.840.113549.1.1.1"
#define QUILL_NAMES_RSA_PSS "RSA-PSS:RSASSA-PSS:1.2.840.113549.1.1.10"
#define QUILL_NAMES_EC "EC:id-ecPublicKey:1.2.840.10045.2.1"
#define QUILL_NAMES_ECDSA "ECDSA"

/* ML-DSA (FIPS 204), named as OpenSSL 3.5 names them: key managers and
 * signatures share the names.  The OIDs are NIST's (csor sigAlgs arc,
 * 2.16.840.1.101.3.4.3.17..19); the short and long names are those of
 * 3.5's objects table. */
#define QUILL_NAMES_MLDSA44 "ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44"
#define QUILL_NAMES_MLDSA65 "ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65"
#define QUILL_NAMES_MLDSA87 "ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87"

/* The one curve quill's EC key manager takes: its OpenSSL name and the
 * aliases an application may use for it. */
#define QUILL_EC_GROUP_NAME "prime256v1"
#define QUILL_EC_GROUP_BITS 256
#define QUILL_EC_SECURITY_BITS 128

/* OpenSSL 3.2's signature parameter, accepted on 3.0 too (0: random k,
 * 1: RFC 6979 deterministic k). */
#ifndef OSSL_SIGNATURE_PARAM_NONCE_TYPE
#define OSSL_SIGNATURE_PARAM_NONCE_TYPE "nonce-type"
#endif

/* OpenSSL 3.5's ML-DSA parameters, defined here for the 3.0 headers. */
#ifndef OSSL_PKEY_PARAM_ML_DSA_SEED
#define OSSL_PKEY_PARAM_ML_DSA_SEED "seed"
#endif
#ifndef OSSL_PKEY_PARAM_SECURITY_CATEGORY
#define OSSL_PKEY_PARAM_SECURITY_CATEGORY "security-category"
#endif
#ifndef OSSL_SIGNATURE_PARAM_CONTEXT_STRING
#define OSSL_SIGNATURE_PARAM_CONTEXT_STRING "context-string"
#endif
#ifndef OSSL_SIGNATURE_PARAM_DETERMINISTIC
#define OSSL_SIGNATURE_PARAM_DETERMINISTIC "deterministic"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING
#define OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING "message-encoding"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MU
#define OSSL_SIGNATURE_PARAM_MU "mu"
#endif
#ifndef OSSL_SIGNATURE_PARAM_TEST_ENTROPY
#define OSSL_SIGNATURE_PARAM_TEST_ENTROPY "test-entropy"
#endif
/* "message-encoding" values: 0 raw (the input is M'), 1 pure (FIPS 204
 * Algorithm 2's M' = 0 || len(ctx) || ctx || M). */
#define QUILL_MLDSA_ENCODING_RAW 0
#define QUILL_MLDSA_ENCODING_PURE 1

/* OpenSSL 3.1's extra PSS salt length keyword, accepted here too. */
#define QUILL_PSS_SALT_LEN_AUTO_DIGEST_MAX "auto-digestmax"

/* Integer forms of the RSA padding modes and PSS salt lengths used by
 * OpenSSL's ctrl interface (rsa.h: RSA_PKCS1_PADDING, RSA_PSS_SALTLEN_*). */
#define QUILL_PAD_PKCS1 1
#define QUILL_PAD_NONE 3
#define QUILL_PAD_OAEP 4
#define QUILL_PAD_X931 5
#define QUILL_PAD_PSS 6

#define QUILL_SALTLEN_DIGEST (-1)
#define QUILL_SALTLEN_AUTO (-2)
#define QUILL_SALTLEN_MAX (-3)
#define QUILL_SALTLEN_AUTO_DIGEST_MAX (-4)

#endif
