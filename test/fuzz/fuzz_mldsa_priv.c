/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: quill_mldsa_key_from_priv on mutated expanded keys.
 *
 * Input: byte 0 picks the set (mod 3); byte 1 even: (offset hi, offset lo,
 * xor) triples applied to a valid expanded key; odd: the rest is the key
 * itself (any length).
 * Oracle: skEncode is injective and every field but K is determined by
 * rho, s1 and s2 (tr = H(pk), t0 from t), and a change of rho, s1 or s2
 * changes tr or t0 except with negligible probability; so an accepted key
 * must equal the valid key outside K (bytes 32..63).  An accepted key must
 * also sign and verify, and its stored encoding must be the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa/mldsa.h"

static quill_mldsa_key *base[3];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    for (int s = 0; s < 3; s++) {
        uint8_t seed[QUILL_MLDSA_SEED_BYTES];
        for (unsigned i = 0; i < sizeof(seed); i++)
            seed[i] = (uint8_t)(29 * i + s);
        if (quill_mldsa_key_from_seed(&base[s], (quill_mldsa_set)s, seed) != QUILL_OK)
            abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    const quill_mldsa_set set = (quill_mldsa_set)(data[0] % 3);
    const size_t plen = quill_mldsa_priv_bytes(set);
    const uint8_t *ref = quill_mldsa_key_priv(base[set]);
    uint8_t *priv;
    size_t len;
    if ((data[1] & 1) == 0) {
        len = plen;
        priv = malloc(len);
        if (priv == NULL)
            return 0;
        memcpy(priv, ref, len);
        for (size_t i = 2; i + 3 <= size; i += 3)
            priv[((((size_t)data[i] << 8) | data[i + 1]) % len)] ^= data[i + 2];
    } else {
        len = size - 2;
        priv = malloc(len ? len : 1);
        if (priv == NULL)
            return 0;
        memcpy(priv, data + 2, len);
    }
    quill_mldsa_key *key = NULL;
    quill_err e = quill_mldsa_key_from_priv(&key, set, priv, len);
    if (e == QUILL_OK) {
        if (len != plen || memcmp(priv, ref, 32) != 0 || memcmp(priv + 64, ref + 64, len - 64) != 0)
            abort(); /* rho, tr, s1, s2 or t0 changed and still accepted */
        if (memcmp(quill_mldsa_key_priv(key), priv, len) != 0 || quill_mldsa_key_has_seed(key) ||
            !quill_mldsa_key_public_equal(key, base[set]))
            abort();
        uint8_t mu[QUILL_MLDSA_MU_BYTES] = {1}, rnd[QUILL_MLDSA_RND_BYTES] = {2};
        uint8_t sig[QUILL_MLDSA_MAX_SIG_BYTES];
        if (quill_mldsa_sign_mu(key, mu, rnd, sig, sizeof(sig)) != QUILL_OK ||
            quill_mldsa_verify_mu(base[set], mu, sig, quill_mldsa_sig_bytes(set)) != QUILL_OK)
            abort();
        quill_mldsa_key_free(key);
    } else {
        if (key != NULL)
            abort(); /* output touched on failure */
        if (len == plen && memcmp(priv, ref, len) == 0)
            abort(); /* the valid key refused */
        if (len != plen && e != QUILL_ERR_KEY_LENGTH)
            abort();
        if (len == plen && e != QUILL_ERR_KEY_CHECK)
            abort();
    }
    free(priv);
    return 0;
}
