/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The four-way Keccak (core/sha3/sha3_x4.h) against the scalar one, which
 * test_sha3 checks against known answers and OpenSSL:
 *  1. quill_keccak_f1600_x4 (whatever the CPU dispatch picks) and, when the
 *     CPU has them, quill_keccak_f1600_x4_avx2 and _avx512vl against four
 *     quill_keccak_f1600_c calls on the all-zero, all-ones and random states
 *     and a chain of 200 (kt_x4_full_mismatches, keccak_test_common.h),
 *     and the assembly quill_keccak_f1600_x4_avx512vl_asm (x86-64 ELF) on
 *     a chain of 2000;
 *     quill_keccak_f1600_x4_c likewise.
 *  2. SHAKE128 and SHAKE256 x4: four different random inputs of one length
 *     (0..600 bytes, and every length around the rates), 1..8 blocks squeezed
 *     in one or several calls, each stream compared with quill_shake128 /
 *     quill_shake256 of its input;
 *  3. the per-instance functions: four sponges of unrelated lengths side
 *     by side, every length up to three blocks and a bit in each instance,
 *     against the scalar SHAKE (inst_case below).
 * Seeded; CTest runs it again with every CPU feature masked
 * (test_sha3_x4_portable), so the portable four-way permutation serves there. */
#include <stdlib.h>
#include <string.h>

#include "keccak_test_common.h"
#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

static void test_permutations(void) {
    QT_CHECK(kt_x4_full_mismatches(quill_keccak_f1600_x4, 3000, 200) == 0);
    QT_CHECK(kt_x4_full_mismatches(quill_keccak_f1600_x4_c, 1000, 200) == 0);
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx2_capable()) {
        QT_CHECK(kt_x4_full_mismatches(quill_keccak_f1600_x4_avx2, 3000, 200) == 0);
        printf("sha3_x4: avx2 permutation matched the scalar one on 3000 x 4 states\n");
    } else {
        printf("sha3_x4: avx2 not usable on this CPU (or masked)\n");
    }
    if (quill_keccak_f1600_x4_avx512vl_capable()) {
        QT_CHECK(kt_x4_full_mismatches(quill_keccak_f1600_x4_avx512vl, 3000, 200) == 0);
        printf("sha3_x4: avx512vl permutation matched the scalar one on 3000 x 4 states\n");
#if QUILL_KECCAK_HAVE_AVX512_ASM
        QT_CHECK(kt_x4_full_mismatches(quill_keccak_f1600_x4_avx512vl_asm, 3000, 2000) == 0);
        printf("sha3_x4: avx512vl assembly matched the scalar one on 3000 x 4 states and a "
               "chain of 2000\n");
#endif
    } else {
        printf("sha3_x4: avx512vl not usable on this CPU (or masked)\n");
    }
#endif
}

static unsigned long shake_cases;

/* One SHAKE x4 case with |used| instances in use (quill_keccak_x4.n, 2 to
 * 4); returns 1 if those streams all match. */
static int shake_case(int which, size_t len, size_t nblocks, int split, unsigned used) {
    const size_t rate = which == 128 ? QUILL_SHAKE128_RATE : QUILL_SHAKE256_RATE;
    uint8_t *in[4], *out[4], *want = malloc(nblocks * rate + 1);
    int ok = want != NULL;
    for (unsigned j = 0; j < 4; j++) {
        in[j] = malloc(len + 1);
        out[j] = malloc(nblocks * rate + 1);
        ok &= in[j] != NULL && out[j] != NULL;
    }
    QT_CHECK(ok);
    if (ok) {
        for (unsigned j = 0; j < 4; j++)
            qt_rng_bytes(in[j], len);
        quill_keccak_x4 k;
        if (which == 128)
            quill_shake128_x4_absorb_once(&k, in[0], in[1], in[2], in[3], len);
        else
            quill_shake256_x4_absorb_once(&k, in[0], in[1], in[2], in[3], len);
        k.n = used;
        size_t done = 0;
        while (done < nblocks) {
            size_t take = split ? 1 + (size_t)(qt_rng_u64() % (nblocks - done)) : nblocks;
            quill_keccak_x4_squeeze_blocks(&k, out[0] + done * rate, out[1] + done * rate,
                                           out[2] + done * rate, out[3] + done * rate, take);
            done += take;
        }
        quill_keccak_x4_zeroize(&k);
        for (unsigned j = 0; j < used; j++) {
            if (which == 128)
                quill_shake128(want, nblocks * rate, in[j], len);
            else
                quill_shake256(want, nblocks * rate, in[j], len);
            if (memcmp(want, out[j], nblocks * rate) != 0) {
                fprintf(stderr,
                        "SHAKE%d x4: instance %u of %u, input %zu bytes, %zu blocks differs\n",
                        which, j, used, len, nblocks);
                ok = 0;
            }
        }
        QT_CHECK(ok);
        shake_cases++;
    }
    for (unsigned j = 0; j < 4; j++) {
        free(in[j]);
        free(out[j]);
    }
    free(want);
    return ok;
}

static void test_shake(unsigned random_cases) {
    static const int whiches[2] = {128, 256};
    for (unsigned w = 0; w < 2; w++) {
        const size_t rate = whiches[w] == 128 ? QUILL_SHAKE128_RATE : QUILL_SHAKE256_RATE;
        /* Every length up to three blocks and a bit, around the padding. */
        for (size_t len = 0; len <= 3 * rate + 2; len++)
            shake_case(whiches[w], len, 1 + len % 3, (int)(len & 1), 2 + (unsigned)(len % 3));
        unsigned failures = 0;
        for (unsigned n = 0; n < random_cases && failures < 10; n++) {
            size_t len = (size_t)(qt_rng_u64() % 601);
            size_t nblocks = 1 + (size_t)(qt_rng_u64() % 8);
            unsigned used = 2 + (unsigned)(qt_rng_u64() % 3);
            failures += !shake_case(whiches[w], len, nblocks, (int)(qt_rng_u64() & 1), used);
        }
    }
}

/* The per-instance functions: four sponges of different input lengths run
 * side by side, each absorbing block by block (inst_start, inst_absorb)
 * and squeezing through read_block while the others are still absorbing,
 * then one more block through its scalar sponge (inst_sponge); every
 * stream must equal the scalar SHAKE's.  Returns 1 if all four match. */
#define INST_MAX_BLOCKS 12
static unsigned long inst_cases;

static int inst_case(int which, const size_t len[4]) {
    const unsigned rate = which == 128 ? QUILL_SHAKE128_RATE : QUILL_SHAKE256_RATE;
    static uint8_t in[4][4 * QUILL_SHAKE128_RATE], out[4][(INST_MAX_BLOCKS + 1) * 168];
    uint8_t spare[168], want[(INST_MAX_BLOCKS + 1) * 168];
    size_t off[4];
    unsigned got[4] = {0, 0, 0, 0}, last[4];
    quill_keccak_x4 k;
    memset(&k, 0, sizeof(k));
    k.rate = rate;
    for (unsigned j = 0; j < 4; j++) {
        qt_rng_bytes(in[j], len[j]);
        off[j] = len[j] < rate ? len[j] : rate;
        quill_keccak_x4_inst_start(&k, j, in[j], off[j], rate);
        last[j] = off[j] < rate; /* the padded block is in */
    }
    for (unsigned steps = 0; steps < 4 * 4 + INST_MAX_BLOCKS; steps++) {
        uint8_t *dst[4];
        unsigned squeezing[4];
        for (unsigned j = 0; j < 4; j++) {
            squeezing[j] = last[j] && got[j] < INST_MAX_BLOCKS;
            dst[j] = squeezing[j] ? out[j] + got[j] * rate : spare;
        }
        quill_keccak_f1600_x4(k.s);
        quill_keccak_x4_read_block(&k, dst);
        unsigned busy = 0;
        for (unsigned j = 0; j < 4; j++) {
            if (squeezing[j]) {
                got[j]++;
            } else if (!last[j]) {
                size_t n = len[j] - off[j] < rate ? len[j] - off[j] : rate;
                quill_keccak_x4_inst_absorb(&k, j, in[j] + off[j], n, rate);
                off[j] += n;
                last[j] = n < rate;
            }
            busy |= got[j] < 2;
        }
        if (!busy)
            break;
    }
    int ok = 1;
    for (unsigned j = 0; j < 4; j++) {
        quill_keccak rest;
        quill_keccak_x4_inst_sponge(&k, j, rate, &rest);
        quill_keccak_squeeze(&rest, out[j] + got[j] * rate, rate);
        size_t n = (got[j] + 1) * rate;
        if (which == 128)
            quill_shake128(want, n, in[j], len[j]);
        else
            quill_shake256(want, n, in[j], len[j]);
        if (got[j] < 2 || memcmp(want, out[j], n) != 0) {
            fprintf(stderr, "SHAKE%d instance %u of %zu bytes (%u blocks) differs\n", which, j,
                    len[j], got[j] + 1);
            ok = 0;
        }
    }
    QT_CHECK(ok);
    inst_cases++;
    return ok;
}

static void test_instances(void) {
    static const int whiches[2] = {128, 256};
    for (unsigned w = 0; w < 2; w++) {
        const size_t rate = whiches[w] == 128 ? QUILL_SHAKE128_RATE : QUILL_SHAKE256_RATE;
        /* every length up to three blocks and a bit in each instance in
         * turn, the others random */
        for (size_t l = 0; l <= 3 * rate + 2; l++) {
            size_t len[4];
            for (unsigned j = 0; j < 4; j++)
                len[j] = (size_t)(qt_rng_u64() % (3 * rate + 3));
            len[l % 4] = l;
            inst_case(whiches[w], len);
        }
    }
}

int main(int argc, char **argv) {
    unsigned cases = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1000;
    qt_rng_seed(0x5a3a5a3a20260004ull);
    test_permutations();
    test_shake(cases);
    test_instances();
    printf("sha3_x4: %lu SHAKE x4 cases and %lu per-instance cases against the scalar SHAKE\n",
           shake_cases, inst_cases);
    return qt_finish("sha3_x4");
}
