/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Power2Round, Decompose, HighBits/LowBits, MakeHint and UseHint (FIPS 204,
 * Algorithms 35 to 40).  The scalar forms are inline so the polynomial loops
 * vectorise; all but UseHint are constant time (UseHint only runs in
 * verification, on public values). */
#ifndef QUILL_MLDSA_ROUNDING_H
#define QUILL_MLDSA_ROUNDING_H

#include <stdint.h>

#include "common/compiler.h"
#include "params.h"
#include "poly.h"

/* quill_mldsa_power2round returns r1 and sets *r0 with r = r1 2^d + r0,
 * r0 = r mod± 2^d in (-2^12, 2^12] (FIPS 204, Algorithm 35).  In: 0 <= r < q. */
QUILL_INLINE int32_t quill_mldsa_power2round(int32_t *r0, int32_t r) {
    int32_t r1 = (r + (1 << (QUILL_MLDSA_D - 1)) - 1) >> QUILL_MLDSA_D;
    *r0 = r - (r1 << QUILL_MLDSA_D);
    return r1;
}

/* quill_mldsa_decompose returns r1 and sets *r0 (FIPS 204, Algorithm 36):
 * r0 = r mod± 2 gamma2 in (-gamma2, gamma2], r1 = (r - r0) / (2 gamma2),
 * except that r - r0 = q - 1 gives r1 = 0 and r0 - 1.  In: 0 <= r < q;
 * gamma2 is (q - 1) / 88 or (q - 1) / 32 (a compile-time constant once
 * inlined).
 *
 * r1 = floor((r + gamma2 - 1) / (2 gamma2)) with 32-bit products only (so
 * that the polynomial loops vectorise without 64-bit multiplies): 2 gamma2
 * = 2^s d with d odd (s = 9, d = 1023 for (q - 1) / 32; s = 11, d = 93 for
 * (q - 1) / 88), x = r + gamma2 - 1 < q + gamma2, and floor(x / (2^s d)) =
 * floor(y / d) with y = floor(x / 2^s), which is floor(y M / 2^k) for
 * M = ceil(2^k / d) = (2^k + e) / d as long as y e < 2^k (then the
 * error y e / (d 2^k) stays below 1 / d):
 *   d = 1023, k = 26, M = 65601, e = 959: y < 16880 < 2^26 / 959;
 *   d = 93, k = 20, M = 11276, e = 92: y < 4139 < 2^20 / 92;
 * and y M < 2^31 in both (1.11e9, 4.7e7).  (test_mldsa_arith checks every r.)  The
 * special case is the mask of r1 == (q - 1) / (2 gamma2). */
QUILL_INLINE int32_t quill_mldsa_decompose(int32_t *r0, int32_t r, int32_t gamma2) {
    const int32_t m = (QUILL_MLDSA_Q - 1) / (2 * gamma2);
    int32_t y = (r + gamma2 - 1) >> (gamma2 == (QUILL_MLDSA_Q - 1) / 32 ? 9 : 11), r1;
    if (gamma2 == (QUILL_MLDSA_Q - 1) / 32)
        r1 = (y * 65601) >> 26;
    else
        r1 = (y * 11276) >> 20;
    int32_t lo = r - r1 * 2 * gamma2;
    int32_t wrap = ((r1 ^ m) - 1) >> 31; /* all-ones iff r1 == m */
    *r0 = lo + wrap;                     /* lo - 1 */
    return r1 & ~wrap;
}

/* quill_mldsa_poly_decompose sets r1 = HighBits(r) and r0 = LowBits(r)
 * coefficient-wise.  In: r_i in [0, q). */
void quill_mldsa_poly_decompose(quill_mldsa_poly *r1, quill_mldsa_poly *r0,
                                const quill_mldsa_poly *r, int32_t gamma2);

/* quill_mldsa_poly_highbits sets r1 = HighBits(r).  In: r_i in [0, q). */
void quill_mldsa_poly_highbits(quill_mldsa_poly *r1, const quill_mldsa_poly *r, int32_t gamma2);

/* quill_mldsa_use_hint_from_high returns UseHint(1, r) (FIPS 204,
 * Algorithm 40 with h = 1) from r and r1 = HighBits(r), already made (as
 * quill_mldsa_invntt_freeze_highbits makes them for verification):
 * r0' = r - 2 gamma2 r1 is Decompose's r0 except at the top of [0, q)
 * (r > q - 1 - gamma2), where Decompose gives r1 = 0 and r0 = r - q < 0
 * while r0' = r > gamma2.  So r0 > 0 exactly when 0 < r0' <= gamma2
 * (one unsigned comparison), and the result is r1 + 1 or r1 - 1 modulo
 * m = (q - 1) / (2 gamma2).  Public data, but written without branches:
 * the comparison goes either way about half the time, and as a branch
 * (what gcc 12 made of the two-way return) its mispredictions cost more
 * than the rest of the loop.  t = r1 - 1 + 2 up lies in [-1, m] and is
 * brought back into [0, m): masks for gamma2 = (q - 1) / 88 (m = 44), an
 * AND for (q - 1) / 32 (m = 16).  In: 0 <= r < q; gamma2 as for
 * quill_mldsa_decompose.  Inline for quill_mldsa_use_hints_public and the
 * tests' index-list UseHint (test/mldsa/mldsa_ref.h), which checks it for
 * every r. */
QUILL_INLINE int32_t quill_mldsa_use_hint_from_high(int32_t r, int32_t r1, int32_t gamma2) {
    const int32_t m = (QUILL_MLDSA_Q - 1) / (2 * gamma2);
    const int32_t r0 = r - 2 * gamma2 * r1;
    const int32_t up = (uint32_t)(r0 - 1) < (uint32_t)gamma2;
    int32_t t = r1 - 1 + 2 * up;
    if ((m & (m - 1)) == 0)
        return t & (m - 1);
    t += (t >> 31) & m;
    t -= ((m - 1 - t) >> 31) & m;
    return t;
}

/* quill_mldsa_use_hints_public checks the omega + k bytes at |hint| (the
 * end of a signature) as HintBitUnpack does (FIPS 204, Algorithm 21,
 * lines 4-5, 7, 13: a count above omega or below the previous one, indices
 * not strictly increasing within a polynomial, or nonzero padding) and
 * applies UseHint(1, .) (quill_mldsa_use_hint_from_high) to the k
 * polynomials of w1 (each holding HighBits of its w, as
 * quill_mldsa_invntt_freeze_highbits makes them) at the hinted indices.
 * Returns 1 if the encoding is well formed; else 0, and then w1 may have
 * been partly changed (verification rejects the signature whatever it
 * holds).  Verification's form: the checks made in the pass that applies
 * the hints (the tests' separate check and index-list UseHint are
 * test/mldsa/mldsa_ref.h's).  In: w_i in [0, q).  Variable time (public
 * data). */
int quill_mldsa_use_hints_public(quill_mldsa_poly *w1, const quill_mldsa_poly *w,
                                 const uint8_t *hint, const quill_mldsa_params *p);

#endif
