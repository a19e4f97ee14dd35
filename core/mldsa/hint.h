/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The hint of signing from the low bits of w (the Dilithium round-3
 * reference's form of FIPS 204's MakeHint, Algorithm 39).
 *
 * FIPS 204 signing (Algorithm 7) decomposes r = w - c s2, rejects when
 * ||r0|| >= gamma2 - beta, and sets h = MakeHint(-c t0, r + c t0).  With
 * (w1, w0) = Decompose(w) and ||c s2|| <= beta < gamma2 / 2:
 *  - ||LowBits(w - c s2)|| >= gamma2 - beta exactly when
 *    ||w0 - c s2|| >= gamma2 - beta;
 *  - when it is smaller, HighBits(w - c s2) = w1 and LowBits(w - c s2) =
 *    w0 - c s2, so the hint is 1 exactly when a0 = w0 - c s2 + c t0 leaves
 *    (-gamma2, gamma2], or equals -gamma2 while w1 != 0 (Decompose maps
 *    the top of [0, q) to w1 = 0 with r0 one lower, see
 *    quill_mldsa_decompose).
 * When the first check fails the attempt is rejected whatever the hints.
 * test_mldsa_arith checks both statements against the definitions. */
#ifndef QUILL_MLDSA_HINT_H
#define QUILL_MLDSA_HINT_H

#include <stdint.h>

#include "common/compiler.h"

/* quill_mldsa_hint_low returns the hint bit (0 or 1) for a0 = w0 - c s2 +
 * c t0 and w1 = HighBits(w), without branches.  In: |a0| < 2^30,
 * 0 <= a1 < 2^30. */
QUILL_INLINE uint32_t quill_mldsa_hint_low(int32_t a0, int32_t w1, int32_t gamma2) {
    uint32_t above = (uint32_t)(gamma2 - a0) >> 31; /* a0 > gamma2 */
    uint32_t below = (uint32_t)(a0 + gamma2) >> 31; /* a0 < -gamma2 */
    uint32_t at = ~(uint32_t)((a0 + gamma2) | -(a0 + gamma2)) >> 31; /* a0 == -gamma2 */
    uint32_t w1nz = (uint32_t)(w1 | -w1) >> 31;
    return above | below | (at & w1nz);
}

#endif
