/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA constants and per-set parameters (FIPS 204, section 4, Table 1 and
 * Table 2).  Internal to core/mldsa. */
#ifndef QUILL_MLDSA_PARAMS_H
#define QUILL_MLDSA_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa/mldsa.h"

#define QUILL_MLDSA_N 256
#define QUILL_MLDSA_Q 8380417 /* 2^23 - 2^13 + 1 */
#define QUILL_MLDSA_D 13      /* dropped bits of t */
#define QUILL_MLDSA_K_MAX 8
#define QUILL_MLDSA_L_MAX 7
#define QUILL_MLDSA_CTILDE_MAX 64 /* lambda / 4 for ML-DSA-87 */
#define QUILL_MLDSA_CRH_BYTES 64  /* rho' and rho'' */

/* quill_mldsa_params holds one row of FIPS 204's Table 1 and the sizes that
 * follow from it (Table 2). */
typedef struct quill_mldsa_params {
    quill_mldsa_set set;
    unsigned k, l;          /* A is k x l */
    unsigned eta;           /* s1, s2 in [-eta, eta] */
    unsigned eta_bits;      /* bitlen(2 eta): 3 or 4 */
    unsigned tau;           /* nonzero coefficients of c */
    unsigned beta;          /* tau * eta */
    unsigned gamma1_bits;   /* gamma1 = 2^gamma1_bits (17 or 19) */
    int32_t gamma1;
    int32_t gamma2;         /* (q - 1) / 88 or (q - 1) / 32 */
    unsigned w1_bits;       /* bitlen((q - 1) / (2 gamma2) - 1): 6 or 4 */
    unsigned omega;         /* maximum number of hint bits */
    unsigned ctilde_bytes;  /* lambda / 4 */
    unsigned security_bits; /* lambda */
    size_t pub_bytes, priv_bytes, sig_bytes;
} quill_mldsa_params;

/* quill_mldsa_params_get returns the row for |set|, or NULL for a value
 * outside the enum. */
const quill_mldsa_params *quill_mldsa_params_get(quill_mldsa_set set);

#endif
