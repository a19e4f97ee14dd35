/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The TLS signature schemes quill announces (see capabilities.h). */
#include "capabilities.h"

#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "core_version.h"
#include "mldsa_key.h"
#include "prov_ctx.h"

/* OpenSSL 3.2's capability parameters (3.5 documents the DTLS ones),
 * defined here for the 3.0 headers; the strings are 3.5's core_names.h. */
#ifndef OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME
#define OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME "tls-sigalg-iana-name"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_NAME
#define OSSL_CAPABILITY_TLS_SIGALG_NAME "tls-sigalg-name"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_OID
#define OSSL_CAPABILITY_TLS_SIGALG_OID "tls-sigalg-oid"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT
#define OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT "tls-sigalg-code-point"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS
#define OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS "tls-sigalg-sec-bits"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS
#define OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS "tls-min-tls"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS
#define OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS "tls-max-tls"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_MIN_DTLS
#define OSSL_CAPABILITY_TLS_SIGALG_MIN_DTLS "tls-min-dtls"
#endif
#ifndef OSSL_CAPABILITY_TLS_SIGALG_MAX_DTLS
#define OSSL_CAPABILITY_TLS_SIGALG_MAX_DTLS "tls-max-dtls"
#endif

/* The protocol version numbers of TLS 1.3 (RFC 8446 4.2.1), as libssl's
 * TLS1_3_VERSION (quill includes no libssl header). */
#define QUILL_TLS1_3_VERSION 0x0304

/* One ML-DSA TLS 1.3 signature scheme: the code points of
 * draft-ietf-tls-mldsa (the ones OpenSSL 3.5 uses), and the security bits
 * OpenSSL 3.5 gives each set (its NIST category's AES key size). */
typedef struct {
    quill_mldsa_set set;
    const char *iana_name;
    unsigned int code_point;
    unsigned int security_bits;
} quill_tls_sigalg;

static const quill_tls_sigalg quill_tls_sigalgs[] = {
    {QUILL_MLDSA_44, "mldsa44", 0x0904, 128},
    {QUILL_MLDSA_65, "mldsa65", 0x0905, 192},
    {QUILL_MLDSA_87, "mldsa87", 0x0906, 256},
};

/* Calls |cb| with |s|'s parameters: the same set as 3.5's default provider
 * (TLS 1.3 and later, max 0 = no upper bound; DTLS -1 = not usable).  The
 * parameters live on this stack frame; libssl copies what it keeps. */
static int announce_sigalg(const quill_tls_sigalg *s, OSSL_CALLBACK *cb, void *arg) {
    const quill_mldsa_alg *a = quill_mldsa_alg_get(s->set);
    unsigned int code_point = s->code_point, security_bits = s->security_bits;
    int min_tls = QUILL_TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME,
                                         (char *)s->iana_name, 0),
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_NAME, (char *)a->name, 0),
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_OID, (char *)a->oid, 0),
        OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT, &code_point),
        OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS, &security_bits),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS, &min_tls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS, &max_tls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MIN_DTLS, &min_dtls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MAX_DTLS, &max_dtls),
        OSSL_PARAM_construct_end(),
    };
    return cb(params, arg);
}

int quill_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg) {
    const quill_provctx *ctx = provctx;
    if (capability == NULL || strcasecmp(capability, "TLS-SIGALG") != 0 ||
        ctx->core_version < QUILL_CORE_VERSION(3, 5, 0))
        return 1;
    for (size_t i = 0; i < sizeof(quill_tls_sigalgs) / sizeof(quill_tls_sigalgs[0]); i++)
        if (!announce_sigalg(&quill_tls_sigalgs[i], cb, arg))
            return 0;
    return 1;
}
