/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * probe_frame: the frame of the instruction probes (quill-mont-probe,
 * quill-p256-probe): the ticks of one probe's loop, the ROUNDS argument and
 * the CPU check, so that each program states only what it times.  x86-64
 * with quill_core. */
#ifndef QUILL_BENCH_PROBE_FRAME_H
#define QUILL_BENCH_PROBE_FRAME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "probe_median.h"
#include "common/cpu.h"

#define PROBE_MAX_ROUNDS 201
#define PROBE_ITERS 400

/* probe_fn: a probe of the programs' .S file, iterations times its loop
 * over buf (the operands; some of quill-mont-probe's probes also write
 * there, quill-p256-probe's only read). */
typedef void probe_fn(long iterations, uint64_t *buf);

/* probe_ticks returns the TSC ticks per iteration of PROBE_ITERS
 * iterations of f over buf. */
static inline double probe_ticks(probe_fn *f, uint64_t *buf) {
    uint64_t t0 = __rdtsc();
    f(PROBE_ITERS, buf);
    return (double)(__rdtsc() - t0) / PROBE_ITERS;
}

/* probe_main is the main of the program prog: it returns run(ROUNDS), ROUNDS
 * from argv[1] (31 without one), or 2 after a line on stderr if ROUNDS is
 * not 1 .. PROBE_MAX_ROUNDS, or 77 (skipped) after a line if the CPU lacks
 * BMI2 or ADX, which the probes run unconditionally. */
static inline int probe_main(int argc, char **argv, const char *prog, int (*run)(int rounds)) {
    int rounds = 31;
    if (argc > 1) {
        rounds = atoi(argv[1]);
        if (rounds < 1 || rounds > PROBE_MAX_ROUNDS) {
            fprintf(stderr, "%s: ROUNDS must be 1..%d\n", prog, PROBE_MAX_ROUNDS);
            return 2;
        }
    }
    if (!quill_cpu_has(QUILL_CPU_X86_BMI2) || !quill_cpu_has(QUILL_CPU_X86_ADX)) {
        printf("%s: the CPU lacks BMI2 or ADX (or QUILL_CPU_MASK cleared them)\n", prog);
        return 77;
    }
    return run(rounds);
}

#endif
