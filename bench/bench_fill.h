/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The deterministic filler of the kernel benchmarks (quill-limits,
 * quill-mont-probe): inputs that only have to be fixed and spread, never
 * secret or uniform. */
#ifndef QUILL_BENCH_FILL_H
#define QUILL_BENCH_FILL_H

#include <stdint.h>

/* bench_next64 returns the next word of a xorshift64 sequence (shifts 13,
 * 7, 17) that starts from the same seed in every program (one sequence per
 * translation unit), so two runs fill the same inputs. */
static inline uint64_t bench_next64(void) {
    static uint64_t x = 0x9e3779b97f4a7c15u;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

#endif
