/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The per-row work of one signing attempt after c is known (FIPS 204,
 * Algorithm 7, lines 17-28, in the Dilithium round-3 form of hint.h): for
 * row i of the attempt,
 *  - the challenge products c s1_i (rows i < l), c s2_i and c t0_i, from
 *    the key's 16-bit NTT pairs (ntt16.h);
 *  - for i < l, z_i = y_i + c s1_i and the check ||z_i|| >= gamma1 - beta;
 *  - r0 = w0_i - c s2_i with ||r0|| >= gamma2 - beta, ||c t0_i|| >= gamma2;
 *  - the hints h_i from r0 + c t0_i and w1_i (quill_mldsa_hint_low).
 *
 * The portable form runs quill_mldsa_mulc16 twice and two coefficient
 * loops over the products stored as int32; the AVX2 form (sign_row_avx2.c)
 * runs both inverse 16-bit transforms and consumes the two products of
 * each 8-coefficient column straight from their int16 vectors in one pass
 * with the checks and the hints, without storing them.  Bit-identical
 * (test_mldsa_sign_arith).
 *
 * Secret: everything but the set and the row number.  No branch or index
 * on values; the caller ORs the returned mask into the attempt's. */
#ifndef QUILL_MLDSA_SIGN_ROW_H
#define QUILL_MLDSA_SIGN_ROW_H

#include <stdint.h>

#include "common/ct.h"
#include "ntt16.h"
#include "params.h"
#include "poly.h"

/* The inputs of row i; y and z NULL for i >= l. */
typedef struct quill_mldsa_sign_row_in {
    const quill_mldsa_chal16 *chat; /* c, prepared (quill_mldsa_mulc16_prepare) */
    const quill_mldsa_pair16 *s_hat; /* NTT16 of (s1_i, s2_i) for i < l, (s2_i, 0) after */
    const quill_mldsa_pair16 *t0_hat; /* NTT16 of t0_i split at QUILL_MLDSA_T0_SPLIT */
    const quill_mldsa_poly *y;  /* y_i, |y| <= gamma1 */
    const quill_mldsa_poly *w0; /* LowBits(w_i) */
    const quill_mldsa_poly *w1; /* HighBits(w_i) */
} quill_mldsa_sign_row_in;

/* quill_mldsa_sign_row fills h (hint bits 0 or 1) and, if in->y is not
 * NULL, z; adds the number of hints to *ones and returns all-ones if one
 * of row i's norm checks fails, else 0.  ws is workspace (two
 * polynomials, secret on return: the caller wipes it).
 * quill_mldsa_sign_row_c is the portable form, for tests. */
quill_word quill_mldsa_sign_row(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                const quill_mldsa_params *p, uint32_t *ones);
quill_word quill_mldsa_sign_row_c(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                  const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                  const quill_mldsa_params *p, uint32_t *ones);
#if QUILL_MLDSA_HAVE_AVX2
quill_word quill_mldsa_sign_row_avx2(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                     const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                     const quill_mldsa_params *p, uint32_t *ones);
quill_word quill_mldsa_sign_row_avx512vl(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                         const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                         const quill_mldsa_params *p, uint32_t *ones);
#endif

#endif
