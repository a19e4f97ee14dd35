/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  FIPS 204, Table 1 and Table 2. */
#include "params.h"

/* Sizes (FIPS 204, Table 2):
 *   pk  = 32 + 32 k (bitlen(q - 1) - d)               = 32 + 320 k
 *   sk  = 128 + 32 ((k + l) bitlen(2 eta) + d k)
 *   sig = lambda / 4 + 32 l (1 + bitlen(gamma1 - 1)) + omega + k */
#define PUB_BYTES(k) (32u + 320u * (k))
#define PRIV_BYTES(k, l, eb) (128u + 32u * (((k) + (l)) * (eb) + 13u * (k)))
#define SIG_BYTES(ct, l, g1b, om, k) ((ct) + 32u * (l) * ((g1b) + 1u) + (om) + (k))

static const quill_mldsa_params params[3] = {
    {QUILL_MLDSA_44, 4, 4, 2, 3, 39, 78, 17, 1 << 17, (QUILL_MLDSA_Q - 1) / 88, 6, 80, 32, 128,
     PUB_BYTES(4), PRIV_BYTES(4, 4, 3), SIG_BYTES(32, 4, 17, 80, 4)},
    {QUILL_MLDSA_65, 6, 5, 4, 4, 49, 196, 19, 1 << 19, (QUILL_MLDSA_Q - 1) / 32, 4, 55, 48, 192,
     PUB_BYTES(6), PRIV_BYTES(6, 5, 4), SIG_BYTES(48, 5, 19, 55, 6)},
    {QUILL_MLDSA_87, 8, 7, 2, 3, 60, 120, 19, 1 << 19, (QUILL_MLDSA_Q - 1) / 32, 4, 75, 64, 256,
     PUB_BYTES(8), PRIV_BYTES(8, 7, 3), SIG_BYTES(64, 7, 19, 75, 8)},
};

const quill_mldsa_params *quill_mldsa_params_get(quill_mldsa_set set) {
    if ((unsigned)set >= 3)
        return NULL;
    return &params[set];
}

size_t quill_mldsa_pub_bytes(quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    return p ? p->pub_bytes : 0;
}

size_t quill_mldsa_priv_bytes(quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    return p ? p->priv_bytes : 0;
}

size_t quill_mldsa_sig_bytes(quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    return p ? p->sig_bytes : 0;
}

unsigned quill_mldsa_security_bits(quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    return p ? p->security_bits : 0;
}
