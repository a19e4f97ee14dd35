/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA's TLS signature algorithms (see tls_sigalg.h). */
#include "tls_sigalg.h"

#include <strings.h>

#include <openssl/params.h>
#include <openssl/prov_ssl.h>

/* OpenSSL 3.2's capability parameter names, for the 3.0 headers. */
#define CAP_IANA_NAME "tls-sigalg-iana-name"
#define CAP_NAME "tls-sigalg-name"
#define CAP_OID "tls-sigalg-oid"
#define CAP_CODE_POINT "tls-sigalg-code-point"
#define CAP_SECURITY_BITS "tls-sigalg-sec-bits"
#define CAP_MIN_TLS "tls-min-tls"
#define CAP_MAX_TLS "tls-max-tls"
#define CAP_MIN_DTLS "tls-min-dtls"
#define CAP_MAX_DTLS "tls-max-dtls"

typedef struct tls_sigalg {
    const char *iana, *name, *oid;
    unsigned int code_point, security_bits;
} tls_sigalg;

static const tls_sigalg sigalgs[] = {
    {"mldsa44", "ML-DSA-44", "2.16.840.1.101.3.4.3.17", 0x0904, 128},
    {"mldsa65", "ML-DSA-65", "2.16.840.1.101.3.4.3.18", 0x0905, 192},
    {"mldsa87", "ML-DSA-87", "2.16.840.1.101.3.4.3.19", 0x0906, 256},
};

int quill_prov_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb,
                                void *arg) {
    (void)provctx;
    if (capability == NULL || strcasecmp(capability, "TLS-SIGALG") != 0)
        return 1;
    for (size_t i = 0; i < sizeof(sigalgs) / sizeof(sigalgs[0]); i++) {
        const tls_sigalg *s = &sigalgs[i];
        unsigned int cp = s->code_point, bits = s->security_bits;
        int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
        OSSL_PARAM p[] = {
            OSSL_PARAM_construct_utf8_string(CAP_IANA_NAME, (char *)s->iana, 0),
            OSSL_PARAM_construct_utf8_string(CAP_NAME, (char *)s->name, 0),
            OSSL_PARAM_construct_utf8_string(CAP_OID, (char *)s->oid, 0),
            OSSL_PARAM_construct_uint(CAP_CODE_POINT, &cp),
            OSSL_PARAM_construct_uint(CAP_SECURITY_BITS, &bits),
            OSSL_PARAM_construct_int(CAP_MIN_TLS, &min_tls),
            OSSL_PARAM_construct_int(CAP_MAX_TLS, &max_tls),
            OSSL_PARAM_construct_int(CAP_MIN_DTLS, &min_dtls),
            OSSL_PARAM_construct_int(CAP_MAX_DTLS, &max_dtls),
            OSSL_PARAM_construct_end(),
        };
        if (!cb(p, arg))
            return 0;
    }
    return 1;
}
