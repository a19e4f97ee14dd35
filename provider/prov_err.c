/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "prov_err.h"

#include <stdarg.h>
#include <stddef.h>

#define CORE(e) (QUILL_R_CORE_BASE + (e))

static const OSSL_ITEM reason_strings[] = {
    {CORE(QUILL_ERR_INTERNAL), "internal error"},
    {CORE(QUILL_ERR_MEMORY), "out of memory"},
    {CORE(QUILL_ERR_INVALID_ARGUMENT), "invalid argument"},
    {CORE(QUILL_ERR_RNG), "random number generator failed"},
    {CORE(QUILL_ERR_KEY_SIZE), "RSA modulus size not supported"},
    {CORE(QUILL_ERR_MODULUS_EVEN), "RSA modulus is even"},
    {CORE(QUILL_ERR_BAD_EXPONENT), "bad RSA exponent"},
    {CORE(QUILL_ERR_BAD_CRT), "inconsistent RSA CRT values"},
    {CORE(QUILL_ERR_KEY_MISSING_PRIVATE), "private key required"},
    {CORE(QUILL_ERR_KEY_CHECK), "key check failed"},
    {CORE(QUILL_ERR_INPUT_RANGE), "input out of range for the modulus"},
    {CORE(QUILL_ERR_SIG_LENGTH), "wrong signature length"},
    {CORE(QUILL_ERR_BAD_SIGNATURE), "bad signature"},
    {CORE(QUILL_ERR_DIGEST_LENGTH), "digest length does not match the digest"},
    {CORE(QUILL_ERR_DIGEST_TOO_BIG), "digest too big for the RSA key"},
    {CORE(QUILL_ERR_SALT_LENGTH), "impossible PSS salt length"},
    {CORE(QUILL_ERR_UNSUPPORTED_DIGEST), "digest not supported for this padding"},
    {CORE(QUILL_ERR_FAULT_DETECTED), "fault detected in RSA private operation"},
    {CORE(QUILL_ERR_KEYGEN), "RSA key generation failed"},
    {CORE(QUILL_ERR_BUFFER_TOO_SMALL), "output buffer too small"},
    {CORE(QUILL_ERR_KEY_LENGTH), "encoded key has the wrong length"},
    {CORE(QUILL_ERR_CONTEXT_LENGTH), "context string longer than 255 bytes"},
    {QUILL_R_UNKNOWN_DIGEST, "unknown digest"},
    {QUILL_R_UNSUPPORTED_DIGEST, "unsupported digest"},
    {QUILL_R_BAD_PAD_MODE, "padding mode not allowed (or not with this digest)"},
    {QUILL_R_BAD_SALT_LENGTH, "bad PSS salt length"},
    {QUILL_R_UNSUPPORTED_KEY, "unsupported key"},
    {QUILL_R_MISSING_KEY_COMPONENT, "missing key component"},
    {QUILL_R_BAD_PARAMETER, "bad parameter"},
    {QUILL_R_NO_KEY, "no key"},
    {QUILL_R_NOT_PRIVATE_KEY, "not a private key"},
    {QUILL_R_BUFFER_TOO_SMALL, "output buffer too small"},
    {QUILL_R_OPERATION_NOT_INITIALISED, "operation not initialised"},
    {QUILL_R_DIGEST_NOT_ALLOWED, "digest not allowed"},
    {QUILL_R_PSS_NEEDS_DIGEST, "PSS requires a digest"},
    {QUILL_R_NOT_SUPPORTED, "operation not supported"},
    {QUILL_R_BAD_KEY_SIZE, "key size not supported for generation"},
    {QUILL_R_BAD_PRIMES, "only two-prime RSA keys are supported"},
    {QUILL_R_DIGEST_FAILED, "digest computation failed"},
    {QUILL_R_RNG_FAILED, "random generator failed"},
    {QUILL_R_ALGID_FAILED, "cannot encode the AlgorithmIdentifier"},
    {QUILL_R_MEMORY, "out of memory"},
    {QUILL_R_INVALID_DIGEST_LENGTH, "invalid digest length"},
    {QUILL_R_BAD_SIGNATURE, "bad signature"},
    {QUILL_R_PSS_RESTRICTED, "PSS parameters not allowed by the key"},
    {QUILL_R_UNSUPPORTED_CURVE, "unsupported curve (only P-256)"},
    {QUILL_R_BAD_NONCE_TYPE, "bad nonce-type (0 random, 1 deterministic)"},
    {QUILL_R_SEED_MISMATCH, "ML-DSA seed does not match the expanded private key"},
    {QUILL_R_PUBLIC_MISMATCH, "public key does not match the private key"},
    {QUILL_R_BAD_ENCODING, "malformed key encoding"},
    {QUILL_R_OBJ_REGISTRATION, "cannot register an object identifier with the core"},
    {QUILL_R_STATS_DIR, "cannot keep live statistics (counting stays in memory)"},
    {0, NULL},
};

/* Every core status and every provider reason has a string; checked by the
 * table's size (one entry per value, plus the terminator). */
_Static_assert(sizeof(reason_strings) / sizeof(reason_strings[0]) ==
                   (QUILL_ERR_COUNT - 1) + (QUILL_R_LIMIT - QUILL_R_UNKNOWN_DIGEST) + 1,
               "reason table out of sync with quill_err or QUILL_R_*");

int quill_prov_core_reason(quill_err err) {
    if ((int)err <= 0 || (int)err >= QUILL_ERR_COUNT)
        return CORE(QUILL_ERR_INTERNAL);
    return CORE(err);
}

const OSSL_ITEM *quill_prov_reason_strings(void) {
    return reason_strings;
}

static size_t reason_count(unsigned int id) {
    size_t n = 0;
    for (size_t i = 0; reason_strings[i].ptr != NULL; i++)
        n += reason_strings[i].id == id;
    return n;
}

int quill_prov_reason_table_ok(void) {
    for (int e = 1; e < QUILL_ERR_COUNT; e++)
        if (reason_count((unsigned int)CORE(e)) != 1)
            return 0;
    for (int r = QUILL_R_UNKNOWN_DIGEST; r < QUILL_R_LIMIT; r++)
        if (reason_count((unsigned int)r) != 1)
            return 0;
    return 1;
}

void quill_prov_raise(const quill_provctx *ctx, int reason, const char *file, int line,
                      const char *func, const char *fmt, ...) {
    if (ctx == NULL || ctx->core_new_error == NULL)
        return;
    ctx->core_new_error(ctx->handle);
    if (ctx->core_set_error_debug != NULL)
        ctx->core_set_error_debug(ctx->handle, file, line, func);
    if (ctx->core_vset_error != NULL) {
        va_list ap;
        va_start(ap, fmt);
        ctx->core_vset_error(ctx->handle, (uint32_t)reason, fmt, ap);
        va_end(ap);
    }
}
