/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * OpenSSL 3.4's signature algorithms named for key and digest
 * ("RSA-SHA2-256", "ECDSA-SHA2-256", ..., with their OIDs as aliases),
 * which applications use through EVP_PKEY_sign_message_init /
 * EVP_PKEY_verify_message_init (a message, hashed inside, in one call or
 * streamed) or EVP_PKEY_sign_init_ex2 / EVP_PKEY_verify_init_ex2 (a
 * digest computed by the caller).  Each is a thin wrapper (sigalg.c) over
 * quill's RSA or ECDSA signature with the digest fixed, as OpenSSL 3.5's
 * default provider has them: RSA with PKCS#1 v1.5 padding only, on "RSA"
 * keys (not RSA-PSS), ECDSA on "EC" keys; the verified signature of a
 * streamed message is given as the parameter "signature"
 * (EVP_PKEY_CTX_set_signature).  Offered only to a 3.4+ core (sig_algs.c);
 * a 3.0 core sees none of this.  Nothing here is secret. */
#ifndef QUILL_PROV_SIGALG_H
#define QUILL_PROV_SIGALG_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* OpenSSL 3.4's dispatch numbers and parameter, for the 3.0 headers. */
#ifndef OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES
#define OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES 26
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT 27
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE 28
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL 29
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT 30
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE 31
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL 32
#endif
#ifndef OSSL_SIGNATURE_PARAM_SIGNATURE
#define OSSL_SIGNATURE_PARAM_SIGNATURE "signature"
#endif

/* The algorithms: X(id, names, digest) for RSA and for ECDSA.  The digests
 * are those quill signs with on a 3.4+ core (SM3 is RSA's only from 3.4,
 * as in the default provider; SHAKE has no such algorithm). */
#define QUILL_RSA_SIGALGS(X)                                                                     \
    X(rsa_ripemd160, QUILL_NAMES_RSA_RIPEMD160, "RIPEMD160")                                    \
    X(rsa_sha1, QUILL_NAMES_RSA_SHA1, "SHA1")                                                   \
    X(rsa_sha224, QUILL_NAMES_RSA_SHA224, "SHA2-224")                                           \
    X(rsa_sha256, QUILL_NAMES_RSA_SHA256, "SHA2-256")                                           \
    X(rsa_sha384, QUILL_NAMES_RSA_SHA384, "SHA2-384")                                           \
    X(rsa_sha512, QUILL_NAMES_RSA_SHA512, "SHA2-512")                                           \
    X(rsa_sha512_224, QUILL_NAMES_RSA_SHA512_224, "SHA2-512/224")                               \
    X(rsa_sha512_256, QUILL_NAMES_RSA_SHA512_256, "SHA2-512/256")                               \
    X(rsa_sha3_224, QUILL_NAMES_RSA_SHA3_224, "SHA3-224")                                       \
    X(rsa_sha3_256, QUILL_NAMES_RSA_SHA3_256, "SHA3-256")                                       \
    X(rsa_sha3_384, QUILL_NAMES_RSA_SHA3_384, "SHA3-384")                                       \
    X(rsa_sha3_512, QUILL_NAMES_RSA_SHA3_512, "SHA3-512")                                       \
    X(rsa_sm3, QUILL_NAMES_RSA_SM3, "SM3")
#define QUILL_ECDSA_SIGALGS(X)                                                                   \
    X(ecdsa_sha1, QUILL_NAMES_ECDSA_SHA1, "SHA1")                                               \
    X(ecdsa_sha224, QUILL_NAMES_ECDSA_SHA224, "SHA2-224")                                       \
    X(ecdsa_sha256, QUILL_NAMES_ECDSA_SHA256, "SHA2-256")                                       \
    X(ecdsa_sha384, QUILL_NAMES_ECDSA_SHA384, "SHA2-384")                                       \
    X(ecdsa_sha512, QUILL_NAMES_ECDSA_SHA512, "SHA2-512")                                       \
    X(ecdsa_sha3_224, QUILL_NAMES_ECDSA_SHA3_224, "SHA3-224")                                   \
    X(ecdsa_sha3_256, QUILL_NAMES_ECDSA_SHA3_256, "SHA3-256")                                   \
    X(ecdsa_sha3_384, QUILL_NAMES_ECDSA_SHA3_384, "SHA3-384")                                   \
    X(ecdsa_sha3_512, QUILL_NAMES_ECDSA_SHA3_512, "SHA3-512")

/* One dispatch table per algorithm: quill_sigalg_<id>_functions. */
#define QUILL_SIGALG_DECLARE(id, names, md) extern const OSSL_DISPATCH quill_sigalg_##id##_functions[];
QUILL_RSA_SIGALGS(QUILL_SIGALG_DECLARE)
QUILL_ECDSA_SIGALGS(QUILL_SIGALG_DECLARE)
#undef QUILL_SIGALG_DECLARE

#endif
