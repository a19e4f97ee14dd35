/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: time-stamp-counter ticks per kernel and per operation of
 * quill's core on x86-64, the measured column of docs/limits.md
 * (tools/limits.py turns them into the table with the cycle budgets).
 *
 * Every figure is the minimum and the median over many samples, a sample
 * being rdtsc ticks over a fixed batch of calls divided by the batch size.
 * On a shared machine other processes only ever add ticks, so the minimum
 * is the estimator to compare; the median says how loaded the run was. */
#ifndef QUILL_BENCH_LIMITS_H
#define QUILL_BENCH_LIMITS_H

#include <stddef.h>

/* limits_fn runs `iters` back-to-back repetitions of one measured thing on
 * ctx. */
typedef void (*limits_fn)(void *ctx, unsigned iters);

/* limits_measure prints one result line
 *   name <TAB> min <TAB> median <TAB> unit <TAB> note
 * where min and median are ticks per unit over `samples` samples of `batch`
 * calls of fn, each call counting `units` units (e.g. 4 states for one
 * four-way permutation).  samples is scaled by the global --quick / --long
 * factor.  Returns the minimum. */
double limits_measure(const char *name, const char *unit, const char *note, limits_fn fn,
                      void *ctx, unsigned batch, unsigned samples, double units);

/* limits_item_fn runs item i (0 <= i < count) of a fixed set once. */
typedef void (*limits_item_fn)(void *ctx, unsigned i);

/* limits_measure_set prints one result line for an operation whose cost
 * varies with its input (ML-DSA's rejection loops): every item of the set
 * is timed alone in each of `rounds` rounds; min is the mean over the items
 * of each item's fastest time (short samples, so that a preemption rarely
 * lands in every round of an item), median the median over the rounds of
 * the round's mean.  rounds is scaled like samples.  Returns min. */
double limits_measure_set(const char *name, const char *unit, const char *note,
                          limits_item_fn fn, void *ctx, unsigned count, unsigned rounds);

/* limits_wanted returns 1 if name matches one of the filters given on the
 * command line (substrings), or if there are none. */
int limits_wanted(const char *name);

/* limits_wanted_group returns 1 if some result whose name starts with
 * prefix may be wanted: no filters, a filter inside prefix, or a filter
 * that starts with prefix. */
int limits_wanted_group(const char *prefix);

/* limits_clock prints the TSC ticks per core cycle (a chain of dependent
 * adds, one per cycle: the fastest of limits_ports_sample's passes, or one
 * long run if there were none) and returns it; 0 off x86-64. */
double limits_clock(void);

/* limits_ports_sample times one pass of the clock and of the port probes
 * (blocks of independent instructions: VPMADD52LUQ, MULX, the Keccak and
 * NTT vector instructions), `rounds` rounds each, and keeps each one's best
 * round.
 * quill-limits runs a pass before every measured line (LIMITS_PASS_ROUNDS
 * rounds) and two long ones, at the start and the end, so that the passes
 * span the whole run (a run filtered to a few lines tops them up to 16).
 * Returns the number of passes so far (0 off x86-64, where there are no
 * probes). */
#define LIMITS_PASS_ROUNDS 40
unsigned limits_ports_sample(int rounds);

/* limits_ports prints the measured reciprocal throughput, in core cycles,
 * of the instructions that bound the kernels: per probe, its fastest pass
 * (min) and its median pass; ticks_per_cycle is limits_clock()'s figure. */
void limits_ports(double ticks_per_cycle);

/* limits_kernels and limits_ops measure the kernels and the whole
 * operations (bench/limits_kernels.c, bench/limits_ops.c). */
void limits_kernels(void);
void limits_ops(void);

/* limits_rsa_parts times the parts of RSA-2048's private operation one by
 * one (bench/limits_rsa.c: rsa2048.part.*). */
void limits_rsa_parts(void);

/* LIMITS_MLDSA_SEEDS is the number of fixed seeds of the ML-DSA key
 * generation lines; limits_mldsa_seed writes seed |i| of them (a counter
 * pattern), shared by mldsaS.keygen and evp.mldsaS.keygen_seeded so that
 * both make the same keys. */
#define LIMITS_MLDSA_SEEDS 16
void limits_mldsa_seed(unsigned i, unsigned char seed[32]);

/* limits_evp measures a few operations through EVP on quill.so
 * (bench/limits_evp.c), the cost of the EVP and provider layer. */
void limits_evp(void);

/* limits_count runs operation `op` (a name that limits_ops prints) `n` times
 * and nothing else, for an instruction counter such as callgrind; returns 0
 * on success, 2 for an unknown name. */
int limits_count(const char *op, unsigned n);

#endif
