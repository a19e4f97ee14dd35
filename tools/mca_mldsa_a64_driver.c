/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The driver of tools/mca_mldsa_a64.sh: calls the kernel named by argv[1]
 * (ntt_c, ntt_neon, invntt_tomont_c, ..., dot_mont_neon; argv[2] = n for
 * the dot product, default 4) once on fixed inputs, so that qemu can log the instructions of
 * that one call (the trace the machine model is fed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa/ntt.h"

static int32_t a[8 * 256], b[8 * 256], r[256];

#define CALL(name, ...)                         \
    if (strcmp(argv[1], #name) == 0) {          \
        quill_mldsa_##name(__VA_ARGS__);        \
        done = 1;                               \
    }

int main(int argc, char **argv) {
    int done = 0;
    if (argc < 2)
        return 2;
    unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
    for (unsigned i = 0; i < 8 * 256; i++) {
        a[i] = (int32_t)((i * 2654435761u) % 8380417u);
        b[i] = (int32_t)((i * 40503u) % 8380417u) - 4190208;
    }
    CALL(ntt_c, a) CALL(ntt_neon, a)
    CALL(invntt_tomont_c, a) CALL(invntt_tomont_neon, a)
    CALL(invntt_tomont_freeze_c, a) CALL(invntt_tomont_freeze_neon, a)
    CALL(pointwise_mont_c, r, a, b) CALL(pointwise_mont_neon, r, a, b)
    CALL(dot_mont_c, r, a, b, n) CALL(dot_mont_neon, r, a, b, n)
    printf("%d\n", r[0] + a[1]);
    return done ? 0 : 1;
}
