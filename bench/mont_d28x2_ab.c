/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_d28x2_ab: same-process A/B of the two-way radix-2^28 AVX2 Montgomery
 * kernels (core/bn/mont_d28x2_avx2.c, an experiment of issue 24) against
 * the MULX/ADX kernels at 16 limbs called once per lane (what the AVX2
 * level runs for the CRT halves of RSA-2048).  Alternating rounds of 200
 * calls of each pattern: a dependent chain r = r^2 (each lane), r = r b,
 * and EXPO (five squarings then one product, as a 5-bit window).  Prints
 * medians in TSC ticks per two-way operation and B/A (B = d28x2).  With
 * "probe" it times instruction mixes instead (core cycles per instruction
 * pair, from blocks of independent instructions, calibrated by a chain of
 * dependent ADDs).  Not a test; needs AVX2, BMI2 and ADX.
 *
 *   mont_d28x2_ab [ROUNDS]     (default 31, at most 201)
 *   mont_d28x2_ab probe */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ab_timing.h"
#include "bn/mont_adx.h"
#include "bn/mont_d28x2_avx2.h"

static quill_limb m[2][16], n0[2], xa[2][16], xb[2][16];
static quill_d28x2_mod md;
static uint64_t dx[QUILL_D28X2_WORDS], dy[QUILL_D28X2_WORDS];

static uint64_t run_adx(int pat) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < AB_CALLS; i++) {
        if (ab_is_sqr(pat, i)) {
            quill_mont_sqr_adx_16(xa[0], xa[0], m[0], n0[0], 16);
            quill_mont_sqr_adx_16(xa[1], xa[1], m[1], n0[1], 16);
        } else {
            quill_mont_mul_adx_16(xa[0], xa[0], xb[0], m[0], n0[0], 16);
            quill_mont_mul_adx_16(xa[1], xa[1], xb[1], m[1], n0[1], 16);
        }
    }
    return __rdtsc() - t0;
}

static uint64_t run_d28(int pat) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < AB_CALLS; i++) {
        if (ab_is_sqr(pat, i))
            quill_mont_sqr_d28x2_avx2(dx, dx, &md);
        else
            quill_mont_mul_d28x2_avx2(dx, dx, dy, &md);
    }
    return __rdtsc() - t0;
}

/* variant 0: the MULX/ADX kernels, 1: d28x2 */
static uint64_t run(int pat, int v) {
    return v == 0 ? run_adx(pat) : run_d28(pat);
}

/* Instruction-mix probe: 12 independent instructions per block. */
#define REP12(s) s s s s s s s s s s s s
#define PROBE(name, body, ninsn)                                                           \
    static double name(void) {                                                             \
        uint64_t t0 = __rdtsc();                                                           \
        for (int i = 0; i < 10000; i++)                                                    \
            __asm__ volatile(body ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
                             "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",    \
                             "xmm14", "xmm15", "rax", "memory");                                  \
        return (double)(__rdtsc() - t0) / (10000.0 * (ninsn));                             \
    }
#define MULS "vpmuludq %%ymm14, %%ymm15, %%ymm0\n vpmuludq %%ymm14, %%ymm15, %%ymm1\n vpmuludq %%ymm14, %%ymm15, %%ymm2\n vpmuludq %%ymm14, %%ymm15, %%ymm3\n"
#define ADDS "vpaddq %%ymm14, %%ymm15, %%ymm4\n vpaddq %%ymm14, %%ymm15, %%ymm5\n vpaddq %%ymm14, %%ymm15, %%ymm6\n vpaddq %%ymm14, %%ymm15, %%ymm7\n"
#define SHIFTS "vpsrlq $28, %%ymm14, %%ymm8\n vpsrlq $28, %%ymm15, %%ymm9\n vpsrlq $28, %%ymm14, %%ymm10\n vpsrlq $28, %%ymm15, %%ymm11\n"
#define ALIGNS "vpalignr $8, %%ymm14, %%ymm15, %%ymm8\n vpalignr $8, %%ymm15, %%ymm14, %%ymm9\n vpalignr $8, %%ymm14, %%ymm15, %%ymm10\n vpalignr $8, %%ymm15, %%ymm14, %%ymm11\n"
#define MULM "vpmuludq (%%rsp), %%ymm15, %%ymm0\n vpmuludq -32(%%rsp), %%ymm15, %%ymm1\n vpmuludq -64(%%rsp), %%ymm15, %%ymm2\n vpmuludq -96(%%rsp), %%ymm15, %%ymm3\n"
PROBE(p_mul, REP12(MULS), 48)
PROBE(p_add, REP12(ADDS), 48)
PROBE(p_shift, REP12(SHIFTS), 48)
PROBE(p_mul_add, REP12(MULS ADDS), 96)
PROBE(p_mul_2add, REP12(MULS ADDS ADDS), 144)
PROBE(p_mul_shift, REP12(MULS SHIFTS), 96)
PROBE(p_mul_align, REP12(MULS ALIGNS), 96)
PROBE(p_mulm_add, REP12(MULM ADDS), 96)
PROBE(p_chain, REP12("add $1, %%rax\n add $1, %%rax\n add $1, %%rax\n add $1, %%rax\n"), 48)

static int probe(void) {
    double (*f[])(void) = {p_chain, p_mul, p_add, p_shift, p_mul_add, p_mul_2add, p_mul_shift,
                           p_mul_align, p_mulm_add};
    const char *nm[] = {"add chain (ticks/cycle)", "vpmuludq", "vpaddq", "vpsrlq",
                        "vpmuludq + vpaddq", "vpmuludq + 2 vpaddq", "vpmuludq + vpsrlq",
                        "vpmuludq + vpalignr", "vpmuludq mem + vpaddq"};
    double best[9];
    for (int k = 0; k < 9; k++) {
        best[k] = 1e9;
        for (int r = 0; r < 51; r++) {
            double v = f[k]();
            if (v < best[k])
                best[k] = v;
        }
    }
    for (int k = 0; k < 9; k++)
        printf("%-28s %.3f %s\n", nm[k], k ? best[k] / best[0] : best[0],
               k ? "cycles per instruction" : "");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "probe") == 0)
        return probe();
    int rounds = ab_rounds(argc > 1 ? argv[1] : NULL);
    for (int l = 0; l < 2; l++)
        n0[l] = ab_lane(m[l], xa[l], xb[l], 16);
    quill_d28x2_mod_init(&md, m[0], m[1], 16);
    quill_d28x2_from_limbs(dx, xa[0], xa[1], 16);
    quill_d28x2_from_limbs(dy, xb[0], xb[1], 16);
    static double t[2][AB_NPAT][AB_MAX_ROUNDS];
    ab_alternate(t, 2, run, rounds);
    printf("%-12s %10s %10s %8s   (TSC ticks per two-way operation, medians of %d)\n",
           "pattern", "adx x2", "d28x2", "B/A", rounds);
    for (int p = 0; p < AB_NPAT; p++) {
        double a = t[0][p][rounds / 2], b = t[1][p][rounds / 2];
        printf("%-12s %10.1f %10.1f %8.3f   (minima %.1f / %.1f)\n", ab_pattern_name[p], a, b,
               b / a, t[0][p][0], t[1][p][0]);
    }
    return 0;
}
