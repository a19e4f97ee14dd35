/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: quill_mldsa_verify_mu on arbitrary signature bytes
 * under a fixed key and mu, with a differential oracle.
 *
 * Input: byte 0 picks the set (mod 3); byte 1 picks the mode:
 *   even: the rest is a list of (offset hi, offset lo, xor) triples applied
 *         to a valid signature (reaches the hint decoder and the final
 *         comparison with few mutations);
 *   odd:  the rest is the signature itself (any length).
 * Oracle: without the private key the fuzzer cannot forge, and FIPS 204's
 * encoding of (c~, z, h) is unique (Algorithm 21 refuses every other
 * hint layout, every z value of the width has one encoding), so an accepted
 * signature must be byte for byte one of the two signatures the harness
 * made (deterministic and hedged).  Anything else accepted aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa/mldsa.h"

typedef struct fixture {
    quill_mldsa_key *key;
    uint8_t mu[QUILL_MLDSA_MU_BYTES];
    uint8_t sig[2][QUILL_MLDSA_MAX_SIG_BYTES];
    size_t sig_len;
} fixture;

static fixture fx[3];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    for (int s = 0; s < 3; s++) {
        uint8_t seed[QUILL_MLDSA_SEED_BYTES], rnd[QUILL_MLDSA_RND_BYTES];
        for (unsigned i = 0; i < sizeof(seed); i++)
            seed[i] = (uint8_t)(17 * i + s);
        if (quill_mldsa_key_from_seed(&fx[s].key, (quill_mldsa_set)s, seed) != QUILL_OK)
            abort();
        quill_mldsa_mu m;
        if (quill_mldsa_mu_init_pure(&m, fx[s].key, (const uint8_t *)"fz", 2) != QUILL_OK)
            abort();
        quill_mldsa_mu_update(&m, (const uint8_t *)"message", 7);
        quill_mldsa_mu_final(&m, fx[s].mu);
        fx[s].sig_len = quill_mldsa_sig_bytes((quill_mldsa_set)s);
        memset(rnd, 0, sizeof(rnd));
        if (quill_mldsa_sign_mu(fx[s].key, fx[s].mu, rnd, fx[s].sig[0], sizeof(fx[s].sig[0])) != QUILL_OK)
            abort();
        memset(rnd, 0xa5, sizeof(rnd));
        if (quill_mldsa_sign_mu(fx[s].key, fx[s].mu, rnd, fx[s].sig[1], sizeof(fx[s].sig[1])) != QUILL_OK)
            abort();
        for (int j = 0; j < 2; j++)
            if (quill_mldsa_verify_mu(fx[s].key, fx[s].mu, fx[s].sig[j], fx[s].sig_len) != QUILL_OK)
                abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    const fixture *f = &fx[data[0] % 3];
    uint8_t *sig;
    size_t len;
    if ((data[1] & 1) == 0) {
        len = f->sig_len;
        sig = malloc(len);
        if (sig == NULL)
            return 0;
        memcpy(sig, f->sig[(data[1] >> 1) & 1], len);
        for (size_t i = 2; i + 3 <= size; i += 3) {
            size_t off = (((size_t)data[i] << 8) | data[i + 1]) % len;
            sig[off] ^= data[i + 2];
        }
    } else {
        len = size - 2;
        sig = malloc(len ? len : 1); /* exact size: ASan sees any over-read */
        if (sig == NULL)
            return 0;
        memcpy(sig, data + 2, len);
    }
    quill_err e = quill_mldsa_verify_mu(f->key, f->mu, sig, len);
    if (e == QUILL_OK) {
        if (len != f->sig_len ||
            (memcmp(sig, f->sig[0], len) != 0 && memcmp(sig, f->sig[1], len) != 0))
            abort(); /* a signature the key holder never made was accepted */
    } else if (len == f->sig_len &&
               (memcmp(sig, f->sig[0], len) == 0 || memcmp(sig, f->sig[1], len) == 0)) {
        abort(); /* a valid signature was refused */
    } else if (len != f->sig_len && e != QUILL_ERR_SIG_LENGTH) {
        abort();
    } else if (len == f->sig_len && e != QUILL_ERR_BAD_SIGNATURE) {
        abort();
    }
    free(sig);
    return 0;
}
