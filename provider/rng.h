/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The core's randomness source, wired to the DRBGs of the provider's child
 * library context. */
#ifndef QUILL_PROV_RNG_H
#define QUILL_PROV_RNG_H

#include "common/rng.h"
#include "prov_ctx.h"

/* quill_prov_rng_private returns a quill_rng drawing from the private DRBG
 * (RAND_priv_bytes_ex): for blinding values, PSS salts and key generation. */
quill_rng quill_prov_rng_private(const quill_provctx *ctx);

/* quill_prov_rng_public returns a quill_rng drawing from the public DRBG
 * (RAND_bytes_ex): for values that are published. */
quill_rng quill_prov_rng_public(const quill_provctx *ctx);

#endif
