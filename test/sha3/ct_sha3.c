/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ct_sha3 MODE: constant-time validation of core/sha3 under valgrind's
 * memcheck (run by test/ct/memcheck.sh).  Built with QUILL_CT_VALIDATION,
 * so QUILL_CT_SECRET marks the inputs "undefined": any branch or memory
 * index that depends on them (or on the states derived from them) is
 * reported.  ML-DSA feeds SHAKE secret seeds (ExpandS, ExpandMask, the
 * private-key hash), so every path must be clean.
 *
 *   scalar  SHA3-256/512 and SHAKE128/256 on secret inputs of lengths around
 *           the rates, absorbed whole and byte by byte, squeezed in pieces
 *           and in blocks, through quill_keccak_f1600 (dispatching) and
 *           quill_keccak_f1600_c
 *   x4      SHAKE128/256 x4 on secret inputs through quill_keccak_f1600_x4
 *           and each four-way backend the CPU (as valgrind presents it) has
 *
 * Each output is declassified and compared with the same computation on a
 * public copy of the input, so a broken build cannot pass by computing
 * nothing.  Exit 0 on success, 1 on a mismatch. */
#include <stdio.h>
#include <string.h>

#include "common/ct.h"
#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"

static unsigned failures, runs;

static void fill(uint8_t *p, size_t len, unsigned seed) {
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)(seed * 131u + i * 29u + (i >> 3));
}

/* One scalar hash of |in| (kind 0..3) with the given absorb / squeeze
 * pattern; out receives 300 bytes (SHA-3: the digest, rest zero). */
static void scalar_hash(int kind, const uint8_t *in, size_t len, int bytewise, uint8_t out[300]) {
    quill_keccak k;
    memset(out, 0, 300);
    switch (kind) {
    case 0:
        quill_sha3_256_init(&k);
        break;
    case 1:
        quill_sha3_512_init(&k);
        break;
    case 2:
        quill_shake128_init(&k);
        break;
    default:
        quill_shake256_init(&k);
        break;
    }
    if (bytewise) {
        for (size_t i = 0; i < len; i++)
            quill_keccak_absorb(&k, in + i, 1);
    } else {
        quill_keccak_absorb(&k, in, len);
    }
    if (kind == 0) {
        quill_sha3_256_final(&k, out);
    } else if (kind == 1) {
        quill_sha3_512_final(&k, out);
    } else if (bytewise) {
        quill_keccak_squeeze(&k, out, 7);
        quill_keccak_squeeze(&k, out + 7, 300 - 7);
    } else {
        quill_keccak_squeeze_blocks(&k, out, 1); /* 168 or 136 bytes */
        quill_keccak_squeeze(&k, out + k.rate, 300 - k.rate);
    }
    quill_keccak_zeroize(&k);
}

static void check(const uint8_t *got, const uint8_t *want, size_t len, const char *what) {
    QUILL_CT_DECLASSIFY(got, len);
    runs++;
    if (memcmp(got, want, len) != 0) {
        fprintf(stderr, "ct_sha3: %s differs from the public computation\n", what);
        failures++;
    }
}

static void mode_scalar(void) {
    static const size_t lens[] = {0, 1, 33, 71, 72, 73, 135, 136, 137, 167, 168, 169, 400};
    uint8_t pub[400], sec[400], want[300], got[300];
    for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        for (int kind = 0; kind < 4; kind++) {
            for (int bytewise = 0; bytewise < 2; bytewise++) {
                fill(pub, lens[l], (unsigned)(l * 8 + (size_t)kind));
                memcpy(sec, pub, lens[l]);
                scalar_hash(kind, pub, lens[l], bytewise, want);
                QUILL_CT_SECRET(sec, lens[l]);
                scalar_hash(kind, sec, lens[l], bytewise, got);
                check(got, want, sizeof(got), "scalar hash");
            }
        }
    }
    /* The portable permutation directly, on a secret state. */
    uint64_t s[25], t[25];
    fill((uint8_t *)s, sizeof(s), 7);
    memcpy(t, s, sizeof(s));
    quill_keccak_f1600_c(t);
    QUILL_CT_SECRET(s, sizeof(s));
    quill_keccak_f1600_c(s);
    check((const uint8_t *)s, (const uint8_t *)t, sizeof(s), "quill_keccak_f1600_c");
}

static void x4_run(int which, uint8_t in[4][200], size_t len, uint8_t out[4][2 * 168]) {
    quill_keccak_x4 k;
    if (which == 128)
        quill_shake128_x4_absorb_once(&k, in[0], in[1], in[2], in[3], len);
    else
        quill_shake256_x4_absorb_once(&k, in[0], in[1], in[2], in[3], len);
    quill_keccak_x4_squeeze_blocks(&k, out[0], out[1], out[2], out[3], 2);
    quill_keccak_x4_zeroize(&k);
}

static void x4_perm(void (*f)(uint64_t *), const char *what) {
    _Alignas(32) uint64_t s[100], t[100];
    fill((uint8_t *)s, sizeof(s), 11);
    memcpy(t, s, sizeof(s));
    for (unsigned j = 0; j < 4; j++) { /* the reference: four scalar permutations */
        uint64_t one[25];
        for (unsigned i = 0; i < 25; i++)
            one[i] = t[4 * i + j];
        quill_keccak_f1600_c(one);
        for (unsigned i = 0; i < 25; i++)
            t[4 * i + j] = one[i];
    }
    QUILL_CT_SECRET(s, sizeof(s));
    f(s);
    check((const uint8_t *)s, (const uint8_t *)t, sizeof(s), what);
}

static void mode_x4(void) {
    static const size_t lens[] = {0, 32, 34, 66, 135, 136, 167, 168, 200};
    static uint8_t in[4][200], out[4][2 * 168];
    uint8_t want[2 * 168];
    for (int w = 0; w < 2; w++) {
        const int which = w ? 256 : 128;
        const size_t rate = w ? QUILL_SHAKE256_RATE : QUILL_SHAKE128_RATE;
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            for (unsigned j = 0; j < 4; j++)
                fill(in[j], lens[l], (unsigned)(l * 4 + j));
            QUILL_CT_SECRET(in, sizeof(in));
            x4_run(which, in, lens[l], out);
            QUILL_CT_DECLASSIFY(in, sizeof(in));
            for (unsigned j = 0; j < 4; j++) {
                if (which == 128)
                    quill_shake128(want, 2 * rate, in[j], lens[l]);
                else
                    quill_shake256(want, 2 * rate, in[j], lens[l]);
                check(out[j], want, 2 * rate, "SHAKE x4");
            }
        }
    }
    x4_perm(quill_keccak_f1600_x4_c, "quill_keccak_f1600_x4_c");
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx2_capable())
        x4_perm(quill_keccak_f1600_x4_avx2, "quill_keccak_f1600_x4_avx2");
    else
        printf("ct_sha3: avx2 four-way permutation not available here\n");
    if (quill_keccak_f1600_x4_avx512vl_capable())
        x4_perm(quill_keccak_f1600_x4_avx512vl, "quill_keccak_f1600_x4_avx512vl");
    else
        printf("ct_sha3: avx512vl four-way permutation not available here (valgrind has none)\n");
#endif
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "scalar") == 0) {
        mode_scalar();
    } else if (strcmp(mode, "x4") == 0) {
        mode_x4();
    } else {
        fprintf(stderr, "usage: ct_sha3 scalar|x4\n");
        return 2;
    }
    printf("ct_sha3 %s: %u computations on secret inputs, %u mismatches\n", mode, runs, failures);
    return failures == 0 && runs > 0 ? 0 : 1;
}
