/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The driver of tools/mca_mldsa_a64.sh: calls the kernel named by argv[1]
 * (ntt_c, ntt_neon, invntt_tomont_c, ..., dot_mont_neon, ntt16_c,
 * ntt16_neon, mulc16_prepare_c/_neon, mulc16_c/_neon; argv[2] = n for the
 * dot product, default 4, the shift of mulc16, default 9, or gamma1_bits
 * of poly_unpack_z_c/_neon, 17 or 19) once on fixed inputs, so that qemu can log the instructions of
 * that one call (the trace the machine model is fed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa/ntt.h"
#include "mldsa/ntt16.h"
#include "mldsa/pack.h"
#include "mldsa/params.h"

static int32_t a[8 * 256], b[8 * 256], r[256];
static quill_mldsa_pair16 pair;
static quill_mldsa_chal16 chal;
static quill_mldsa_poly zp;
static uint8_t enc[640];

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
    /* the 16-bit challenge products: c ternary, the pair s1-like, shift n */
    int32_t c[256], s[256];
    for (unsigned i = 0; i < 256; i++) {
        c[i] = (i * 7u) % 5u == 0 ? 1 : (i * 7u) % 5u == 1 ? -1 : 0;
        s[i] = (int32_t)((i * 13u) % 9u) - 4;
    }
    quill_mldsa_pair16_set(&pair, s, s);
    quill_mldsa_ntt16_c(&pair);
    quill_mldsa_mulc16_prepare_c(&chal, c);
    if (strncmp(argv[1], "mulc16_", 7) == 0 && strncmp(argv[1], "mulc16_prepare", 14) != 0)
        n = argc > 2 ? n : 9;
    CALL(ntt16_c, &pair) CALL(ntt16_neon, &pair)
    CALL(mulc16_prepare_c, &chal, c) CALL(mulc16_prepare_neon, &chal, c)
    CALL(mulc16_c, r, &chal, &pair, n) CALL(mulc16_neon, r, &chal, &pair, n)
    /* BitUnpack of z: n = gamma1_bits (17: ML-DSA-44, 19: ML-DSA-65) */
    const quill_mldsa_params *par = quill_mldsa_params_get(n == 17 ? QUILL_MLDSA_44 : QUILL_MLDSA_65);
    for (unsigned i = 0; i < sizeof(enc); i++)
        enc[i] = (uint8_t)(i * 151u + 7u);
    CALL(poly_unpack_z_c, &zp, enc, par)
    CALL(poly_unpack_z_neon, zp.c, enc, par->gamma1_bits, par->gamma1)
    printf("%d\n", r[0] + a[1] + zp.c[0]);
    return done ? 0 : 1;
}
