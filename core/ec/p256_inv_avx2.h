/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX2 divsteps kernel of the paired inversion (p256_inv.h,
 * quill_p256_inv2_consttime; p256_inv_pair.c dispatches to it). */
#ifndef QUILL_EC_P256_INV_AVX2_H
#define QUILL_EC_P256_INV_AVX2_H

#include <stdint.h>

#include "common/cpu.h"

struct quill_inv_x2;

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
/* quill_p256_inv_divsteps_x2_avx2 is quill_inv_divsteps_x2 (p256_inv.h):
 * 62 divsteps on each of the two states of st (f odd),
 * continuing their matrices; the same outputs for every input.  All inputs are secret: constant time (selects
 * by VBLENDVPD on mask vectors, no branch or address depends on them).
 * Call only when quill_p256_inv_avx2_capable(). */
void quill_p256_inv_divsteps_x2_avx2(struct quill_inv_x2 *st);

/* quill_p256_inv_avx2_capable returns nonzero when the CPU has AVX2 and
 * QUILL_CPU_MASK does not clear it. */
static inline int quill_p256_inv_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2);
}
#else
static inline int quill_p256_inv_avx2_capable(void) {
    return 0;
}
#endif

#endif
