/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Status codes returned by every fallible core function.  QUILL_OK is zero;
 * everything else names the reason, which the provider turns into an OpenSSL
 * error with a reason string (provider/prov_err.c).  Keep the two in sync:
 * add new codes at the end, before QUILL_ERR_COUNT. */
#ifndef QUILL_COMMON_ERR_H
#define QUILL_COMMON_ERR_H

typedef enum quill_err {
    QUILL_OK = 0,
    QUILL_ERR_INTERNAL,            /* a bug or an impossible state */
    QUILL_ERR_MEMORY,              /* allocation failed */
    QUILL_ERR_INVALID_ARGUMENT,    /* a NULL, a bad length, an unknown enum */
    QUILL_ERR_RNG,                 /* the random callback failed */
    QUILL_ERR_KEY_SIZE,            /* modulus size outside what quill supports */
    QUILL_ERR_MODULUS_EVEN,        /* even modulus */
    QUILL_ERR_BAD_EXPONENT,        /* e = 1, even e, e >= n, or d out of range */
    QUILL_ERR_BAD_CRT,             /* CRT values inconsistent with n, d */
    QUILL_ERR_KEY_MISSING_PRIVATE, /* private operation on a public key */
    QUILL_ERR_KEY_CHECK,           /* key validation failed (p*q != n, ...) */
    QUILL_ERR_INPUT_RANGE,         /* input to the RSA primitive >= n */
    QUILL_ERR_SIG_LENGTH,          /* signature length differs from |n| */
    QUILL_ERR_BAD_SIGNATURE,       /* signature does not verify */
    QUILL_ERR_DIGEST_LENGTH,       /* digest length does not match the digest */
    QUILL_ERR_DIGEST_TOO_BIG,      /* encoded message does not fit the key */
    QUILL_ERR_SALT_LENGTH,         /* impossible PSS salt length */
    QUILL_ERR_UNSUPPORTED_DIGEST,  /* digest quill cannot encode */
    QUILL_ERR_FAULT_DETECTED,      /* private-key result failed its check */
    QUILL_ERR_KEYGEN,              /* key generation gave up */
    QUILL_ERR_BUFFER_TOO_SMALL,    /* output buffer too small */
    QUILL_ERR_KEY_LENGTH,          /* encoded key of the wrong length */
    QUILL_ERR_CONTEXT_LENGTH,      /* ML-DSA context string over 255 bytes */
    QUILL_ERR_COUNT
} quill_err;

#endif
