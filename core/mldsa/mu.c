/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mu = H(tr || M', 64) (FIPS 204, Algorithm 7, line 6), incrementally; for
 * pure ML-DSA, M' = IntegerToBytes(0, 1) || IntegerToBytes(|ctx|, 1) || ctx
 * || M (Algorithm 2, line 10). */
#include "key.h"

void quill_mldsa_mu_init(quill_mldsa_mu *m, const quill_mldsa_key *key) {
    quill_shake256_init(&m->k);
    quill_keccak_absorb(&m->k, key->tr, QUILL_MLDSA_TR_BYTES);
}

quill_err quill_mldsa_mu_init_pure(quill_mldsa_mu *m, const quill_mldsa_key *key,
                                   const uint8_t *ctx, size_t ctx_len) {
    if (ctx_len > QUILL_MLDSA_MAX_CONTEXT_BYTES)
        return QUILL_ERR_CONTEXT_LENGTH;
    if (ctx == NULL && ctx_len != 0)
        return QUILL_ERR_INVALID_ARGUMENT;
    const uint8_t prefix[2] = {0, (uint8_t)ctx_len};
    quill_mldsa_mu_init(m, key);
    quill_keccak_absorb(&m->k, prefix, sizeof(prefix));
    if (ctx_len != 0)
        quill_keccak_absorb(&m->k, ctx, ctx_len);
    return QUILL_OK;
}

void quill_mldsa_mu_update(quill_mldsa_mu *m, const uint8_t *data, size_t len) {
    if (len != 0)
        quill_keccak_absorb(&m->k, data, len);
}

void quill_mldsa_mu_final(quill_mldsa_mu *m, uint8_t mu[QUILL_MLDSA_MU_BYTES]) {
    quill_keccak_squeeze(&m->k, mu, QUILL_MLDSA_MU_BYTES);
}
