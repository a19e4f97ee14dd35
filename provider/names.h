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
#define QUILL_PROV_BUILDINFO "quill " QUILL_PROV_VERSION " (constant-time RSA and ECDSA P-256 cores)"

/* Signatures carry quill.sig=yes so that default_properties = ?quill.sig=yes
 * prefers them; key managers carry only provider=quill, so that every other
 * operation keeps its usual provider. */
#define QUILL_PROPS_SIG "provider=quill,quill.sig=yes"
#define QUILL_PROPS_KEYMGMT "provider=quill"

#define QUILL_NAMES_RSA "RSA:rsaEncryption:1.2.840.113549.1.1.1"
#define QUILL_NAMES_RSA_PSS "RSA-PSS:RSASSA-PSS:1.2.840.113549.1.1.10"
#define QUILL_NAMES_EC "EC:id-ecPublicKey:1.2.840.10045.2.1"
#define QUILL_NAMES_ECDSA "ECDSA"

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
