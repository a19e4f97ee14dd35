/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ab_timing: the frame of the same-process A/B programs (quill-d27-ab,
 * quill-d28x2-ab, quill-d27x2-ab, quill-d27x2-32-ab and bench/mont_adx_ab.c):
 * the ROUNDS argument, the random moduli and operands with their Montgomery
 * constant, the three patterns of calls and the alternating rounds, so that
 * each program states only what it times.  Includes no quill header
 * (bench/mont_adx_ab.sh compiles mont_adx_ab.c on its own). */
#ifndef QUILL_BENCH_AB_TIMING_H
#define QUILL_BENCH_AB_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench_fill.h"
#include "probe_median.h"

#define AB_MAX_ROUNDS 201
#define AB_DEFAULT_ROUNDS 31

/* ab_rounds returns ROUNDS from its command-line word arg: a number from 1
 * to AB_MAX_ROUNDS, otherwise (and for arg NULL) AB_DEFAULT_ROUNDS. */
static inline int ab_rounds(const char *arg) {
    int rounds = arg != NULL ? atoi(arg) : AB_DEFAULT_ROUNDS;
    return rounds < 1 || rounds > AB_MAX_ROUNDS ? AB_DEFAULT_ROUNDS : rounds;
}

/* ab_n0 returns -m0^-1 mod 2^64 for an odd m0: Newton's iteration
 * inv <- inv (2 - m0 inv) from inv = m0, which is m0's inverse mod 2^3
 * (m0^2 = 1 mod 8); each step doubles the bits, six give 3 2^6 >= 64. */
static inline uint64_t ab_n0(uint64_t m0) {
    uint64_t inv = m0;
    for (int k = 0; k < 6; k++)
        inv *= 2 - m0 * inv;
    return -inv;
}

/* ab_lane fills one lane of n words from bench_next64, word by word in
 * turn (m_i, a_i, b_i): the modulus m, odd with its top bit set, and the
 * operands a and b below 2^(64n - 1).  Returns m's n0 (ab_n0). */
static inline uint64_t ab_lane(uint64_t *m, uint64_t *a, uint64_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        m[i] = bench_next64();
        a[i] = bench_next64();
        b[i] = bench_next64();
    }
    m[0] |= 1;
    m[n - 1] |= 1ull << 63;
    a[n - 1] >>= 1;
    b[n - 1] >>= 1;
    return ab_n0(m[0]);
}

/* The patterns that each round times, AB_CALLS calls each: a dependent
 * chain of squarings r = r^2, one of products r = r b, and EXPO, five
 * squarings then one product (a 5-bit window). */
#define AB_CALLS 200
enum { AB_SQR, AB_MUL, AB_EXPO, AB_NPAT };
static const char *const ab_pattern_name[AB_NPAT] = {"sqr", "mul", "expo(5s+1m)"};

/* ab_is_sqr returns 1 if call i of pattern pat is a squaring, 0 if it is a
 * product. */
static inline int ab_is_sqr(int pat, int i) {
    return pat == AB_SQR || (pat == AB_EXPO && i % 6 != 5);
}

/* ab_run_fn returns the TSC ticks of the AB_CALLS calls of pattern pat by
 * variant v of a program. */
typedef uint64_t ab_run_fn(int pat, int v);

/* ab_alternate times rounds rounds (at most AB_MAX_ROUNDS), in each every
 * pattern and for each pattern the variants 0 .. nv - 1 in turn, so that a
 * change of load reaches them alike: t[v][pat][round] = ticks per call.
 * Then it sorts each t[v][pat]: t[v][pat][rounds / 2] is the median and
 * t[v][pat][0] the minimum. */
static inline void ab_alternate(double (*t)[AB_NPAT][AB_MAX_ROUNDS], int nv, ab_run_fn *run,
                                int rounds) {
    for (int r = 0; r < rounds; r++)
        for (int p = 0; p < AB_NPAT; p++)
            for (int v = 0; v < nv; v++)
                t[v][p][r] = (double)run(p, v) / AB_CALLS;
    for (int v = 0; v < nv; v++)
        for (int p = 0; p < AB_NPAT; p++)
            median(t[v][p], rounds);
}

#endif
