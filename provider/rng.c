/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "rng.h"

#include <limits.h>

#include <openssl/rand.h>

/* RAND_*_bytes_ex take a size_t length and a strength; 0 asks for the
 * DRBG's default strength (256 bits for OpenSSL's CTR-DRBG). */
static int fill_private(void *arg, uint8_t *out, size_t len) {
    const quill_provctx *ctx = arg;
    return RAND_priv_bytes_ex(ctx->libctx, out, len, 0) == 1;
}

static int fill_public(void *arg, uint8_t *out, size_t len) {
    const quill_provctx *ctx = arg;
    return RAND_bytes_ex(ctx->libctx, out, len, 0) == 1;
}

quill_rng quill_prov_rng_private(const quill_provctx *ctx) {
    quill_rng r = {fill_private, (void *)ctx};
    return r;
}

quill_rng quill_prov_rng_public(const quill_provctx *ctx) {
    quill_rng r = {fill_public, (void *)ctx};
    return r;
}
