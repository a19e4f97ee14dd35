/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Errors: every failure in the provider is raised through the core's error
 * upcalls with a reason code whose text OpenSSL obtains from
 * OSSL_FUNC_PROVIDER_GET_REASON_STRINGS (quill_prov_reason_strings).
 *
 * Reason codes: a core status quill_err e is reason QUILL_R_CORE_BASE + e;
 * provider-level reasons are the QUILL_R_* values below.
 *
 * Reason texts do not name quill: OpenSSL names a provider's error library
 * after the provider and prints it before the reason,
 *   error:408000E0:quill:quill_ec_sig_set_ctx_params:bad nonce-type (...)
 * and Node.js turns the reason into an error code (ERR_OSSL_BAD_NONCE-TYPE_
 * ...), so a text has no "quill: " of its own and no ':'.  (quill's own
 * lines on standard error, written without OpenSSL, do start "quill: ".) */
#ifndef QUILL_PROV_ERR_H
#define QUILL_PROV_ERR_H

#include <openssl/core.h>

#include "common/err.h"
#include "prov_ctx.h"

#define QUILL_R_CORE_BASE 100

enum {
    QUILL_R_UNKNOWN_DIGEST = 200,      /* the library has no such digest */
    QUILL_R_UNSUPPORTED_DIGEST,        /* a digest quill cannot encode */
    QUILL_R_BAD_PAD_MODE,              /* padding other than PKCS#1 v1.5 and PSS */
    QUILL_R_BAD_SALT_LENGTH,           /* unparsable or impossible salt length */
    QUILL_R_UNSUPPORTED_KEY,           /* key quill refuses (primes, size...) */
    QUILL_R_MISSING_KEY_COMPONENT,     /* n or e absent, partial CRT values */
    QUILL_R_BAD_PARAMETER,             /* an OSSL_PARAM of the wrong type */
    QUILL_R_NO_KEY,                    /* operation on an empty key object */
    QUILL_R_NOT_PRIVATE_KEY,           /* signing with a public key */
    QUILL_R_BUFFER_TOO_SMALL,          /* output buffer too small */
    QUILL_R_OPERATION_NOT_INITIALISED, /* call out of order */
    QUILL_R_DIGEST_NOT_ALLOWED,        /* digest changed mid-stream or refused
                                          by the key's PSS restrictions */
    QUILL_R_PSS_NEEDS_DIGEST,          /* PSS without a digest */
    QUILL_R_NOT_SUPPORTED,             /* e.g. verify_recover with PSS */
    QUILL_R_BAD_KEY_SIZE,              /* keygen bits out of range */
    QUILL_R_BAD_PRIMES,                /* keygen with other than two primes */
    QUILL_R_DIGEST_FAILED,             /* the library's digest failed */
    QUILL_R_RNG_FAILED,                /* the library's DRBG failed */
    QUILL_R_ALGID_FAILED,              /* AlgorithmIdentifier encoding failed */
    QUILL_R_MEMORY,                    /* allocation failed */
    QUILL_R_INVALID_DIGEST_LENGTH,     /* tbs length differs from the digest's */
    QUILL_R_BAD_SIGNATURE,             /* signature does not verify */
    QUILL_R_PSS_RESTRICTED,            /* parameters below the key's PSS
                                          restrictions */
    QUILL_R_UNSUPPORTED_CURVE,         /* EC key on a curve other than P-256 */
    QUILL_R_BAD_NONCE_TYPE,            /* nonce-type other than 0 and 1 */
    QUILL_R_SEED_MISMATCH,             /* ML-DSA seed and expanded key differ */
    QUILL_R_PUBLIC_MISMATCH,           /* public key does not match the private */
    QUILL_R_BAD_ENCODING,              /* malformed DER/PEM key encoding */
    QUILL_R_OBJ_REGISTRATION,          /* cannot register an OID with the core */
    QUILL_R_STATS_DIR,                 /* statistics directory unusable (at load) */
    QUILL_R_LIMIT
};

/* quill_prov_raise raises |reason| with the caller's location and an
 * optional printf-style detail (fmt may be NULL).  ctx may be NULL (then
 * nothing is raised: there is no handle to raise through). */
void quill_prov_raise(const quill_provctx *ctx, int reason, const char *file, int line,
                      const char *func, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* QUILL_RAISE(ctx, reason) raises a provider reason (QUILL_R_*). */
#define QUILL_RAISE(ctx, reason) \
    quill_prov_raise((ctx), (reason), __FILE__, __LINE__, __func__, NULL)
/* QUILL_RAISE_MSG(ctx, reason, fmt, ...) adds a detail string. */
#define QUILL_RAISE_MSG(ctx, reason, ...) \
    quill_prov_raise((ctx), (reason), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* QUILL_RAISE_CORE(ctx, err) raises the reason of a core status. */
#define QUILL_RAISE_CORE(ctx, err) \
    quill_prov_raise((ctx), quill_prov_core_reason(err), __FILE__, __LINE__, __func__, NULL)

/* quill_prov_core_reason maps a core status to its reason code. */
int quill_prov_core_reason(quill_err err);

/* quill_prov_reason_strings is the table served to the core: every reason
 * with its text, terminated by {0, NULL}. */
const OSSL_ITEM *quill_prov_reason_strings(void);

/* quill_prov_reason_table_ok returns 1 if every core status (but QUILL_OK)
 * and every QUILL_R_* reason has exactly one entry in the table; the
 * provider refuses to load otherwise, so a missing string cannot ship. */
int quill_prov_reason_table_ok(void);

#endif
