/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#ifndef QUILL_COMMON_RNG_H
#define QUILL_COMMON_RNG_H

#include <stddef.h>
#include <stdint.h>

/* quill_rng is how the core asks for randomness: the provider wires it to its
 * library context's DRBG, tests to a seeded generator.  fill writes |len|
 * random bytes to |out| and returns 1, or returns 0 on failure (the core then
 * fails with QUILL_ERR_RNG and releases nothing it computed). */
typedef struct quill_rng {
    int (*fill)(void *arg, uint8_t *out, size_t len);
    void *arg;
} quill_rng;

#endif
