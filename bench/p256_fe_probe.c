/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-p256-probe: core cycles per P-256 field product of the macros the
 * MULX/ADX point formulas are made of (asm/x86_64/p256_fe_macros.h), as
 * latency (one dependent chain) and as throughput (two independent
 * chains, in program order or interleaved row by row in one macro), and
 * the cost of MULX beside independent ADDs (bench/p256_fe_probe.S), so
 * that a formula's schedule can be judged against both (docs/limits.md,
 * P-256).  Not a test.
 *
 *   quill-p256-probe [ROUNDS]     (default 31 rounds; medians printed)
 *
 * Each figure is the median over ROUNDS of a timed loop (rdtsc), converted
 * to core cycles by a chain of dependent ADDs timed in the same rounds (one
 * cycle each).  On a shared machine run it twice. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "bench_fill.h"
#include "probe_frame.h"
#include "common/cpu.h"

probe_fn quill_p256probe_add_chain, quill_p256probe_mul_chain, quill_p256probe_mul_two,
    quill_p256probe_mul_pair, quill_p256probe_sqr_chain, quill_p256probe_mulx_add,
    quill_p256probe_add_only;

static _Alignas(64) uint64_t g_buf[16];

typedef struct {
    const char *name;
    probe_fn *f;
    double per; /* field products (or MULX) per iteration */
    const char *unit;
} probe;

static const probe g_probes[] = {
    {"FE_MUL, one dependent chain", quill_p256probe_mul_chain, 1, "product"},
    {"FE_MUL, two independent chains", quill_p256probe_mul_two, 2, "product"},
    {"FE_MUL2, the two chains interleaved row by row", quill_p256probe_mul_pair, 2, "product"},
    {"FE_SQR, one dependent chain", quill_p256probe_sqr_chain, 1, "squaring"},
    {"48 MULX beside 96 independent ADDs", quill_p256probe_mulx_add, 48, "MULX"},
    {"the 96 ADDs alone", quill_p256probe_add_only, 48, "MULX (of the probe above)"},
};
#define N_PROBES (sizeof(g_probes) / sizeof(g_probes[0]))

static int run(int rounds) {
    /* four field elements below p (top word below p's top word) */
    for (size_t i = 0; i < 16; i++)
        g_buf[i] = bench_next64();
    for (size_t i = 3; i < 16; i += 4)
        g_buf[i] >>= 1;
    static double cal[PROBE_MAX_ROUNDS], pr[N_PROBES][PROBE_MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        cal[k] = probe_ticks(quill_p256probe_add_chain, g_buf) / 32;
        for (size_t p = 0; p < N_PROBES; p++)
            pr[p][k] = probe_ticks(g_probes[p].f, g_buf);
    }
    double tick = median(cal, rounds); /* ticks per core cycle */
    printf("core cycles per TSC tick: %.3f (median of %d rounds)\n", 1.0 / tick, rounds);
    for (size_t p = 0; p < N_PROBES; p++) {
        double c = median(pr[p], rounds) / tick;
        printf("%-50s %7.1f cycles per iteration, %6.2f per %s\n", g_probes[p].name, c,
               c / g_probes[p].per, g_probes[p].unit);
    }
    return 0;
}

int main(int argc, char **argv) {
    return probe_main(argc, argv, "quill-p256-probe", run);
}
