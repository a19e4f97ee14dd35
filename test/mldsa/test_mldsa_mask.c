/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Signing's mask stream (core/mldsa/mask.h) against the one-at-a-time
 * definitions, for the three parameter sets:
 *  - every polynomial quill_mldsa_mask_get returns equals
 *    quill_mldsa_expand_mask of that index alone (one SHAKE256 per
 *    polynomial), in signing's pattern (release the attempt's first index,
 *    take its l polynomials, hash signing's 832 or 1088 bytes and c~, check
 *    the polynomials again) over 60 attempts, including indices past 255
 *    (the second byte of IntegerToBytes);
 *  - every hash quill_mldsa_mask_shake256 makes, interleaved with the
 *    stream at every input length from 0 to three blocks and a bit (so
 *    both sides of each block boundary and the padding block of an exact
 *    multiple), equals quill_shake256: its first block, and a second
 *    block squeezed from the sponge it hands back.
 * Natively the hashes ride instance 0 of the four-way Keccak (AVX-512VL;
 * test_mldsa_mask_avx2 masks AVX-512 off for the AVX2 permutation);
 * test_mldsa_mask_portable runs the same with every CPU feature masked, where
 * all four instances make polynomials and the hashes use the scalar
 * sponge. */
#include <string.h>

#include "mldsa/mask.h"
#include "mldsa/params.h"
#include "mldsa/sample.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

#define RATE QUILL_SHAKE256_RATE

static unsigned long polys_checked, hashes_checked;

static int poly_matches(const quill_mldsa_poly *got, const uint8_t rhopp[64], unsigned idx,
                        const quill_mldsa_params *p) {
    quill_mldsa_poly want;
    quill_mldsa_expand_mask(&want, rhopp, idx, 1, p);
    polys_checked++;
    int ok = memcmp(want.c, got->c, sizeof(want.c)) == 0;
    if (!ok)
        fprintf(stderr, "mask: set %d polynomial %u differs\n", (int)p->set, idx);
    QT_CHECK(ok);
    return ok;
}

/* One hash of len random bytes through the stream; 1 if both blocks match. */
static int hash_matches(quill_mldsa_mask *m, size_t len) {
    uint8_t in[QUILL_MLDSA_MU_BYTES + QUILL_MLDSA_K_MAX * 32 * 6], block[RATE], second[RATE],
        want[2 * RATE];
    qt_rng_bytes(in, len);
    quill_keccak rest;
    quill_mldsa_mask_shake256(m, in, len, block, &rest);
    quill_keccak_squeeze(&rest, second, sizeof(second));
    quill_shake256(want, sizeof(want), in, len);
    hashes_checked++;
    int ok = memcmp(want, block, RATE) == 0 && memcmp(want + RATE, second, RATE) == 0;
    if (!ok)
        fprintf(stderr, "mask: SHAKE256 of %zu bytes differs\n", len);
    QT_CHECK(ok);
    return ok;
}

static void test_set(quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    uint8_t rhopp[64];
    qt_rng_bytes(rhopp, sizeof(rhopp));
    quill_mldsa_mask m;
    quill_mldsa_mask_init(&m, rhopp, p);
    unsigned bad = 0;
    size_t len = 0;
    /* signing's c~ input, mu || w1Encode(w1): 832 bytes, or 1088 = 8 * 136 */
    const size_t hlen = QUILL_MLDSA_MU_BYTES + p->k * 32 * p->w1_bits;
    for (unsigned a = 0; a < 60 && bad < 5; a++) {
        unsigned kappa = a * p->l;
        const quill_mldsa_poly *y[QUILL_MLDSA_L_MAX];
        quill_mldsa_mask_release(&m, kappa);
        for (unsigned r = 0; r < p->l; r++) {
            y[r] = quill_mldsa_mask_get(&m, kappa + r);
            bad += !poly_matches(y[r], rhopp, kappa + r, p);
        }
        /* signing's two hashes, then one of the sweep's lengths */
        bad += !hash_matches(&m, hlen);
        bad += !hash_matches(&m, p->ctilde_bytes);
        bad += !hash_matches(&m, len);
        len = (len + 1) % (3 * RATE + 3);
        /* signing reads y after its hashes: none may have been refilled */
        for (unsigned r = 0; r < p->l; r++)
            bad += !poly_matches(y[r], rhopp, kappa + r, p);
    }
    /* The polynomials an attempt took stay valid through its hashes. */
    unsigned kappa = 60 * p->l;
    quill_mldsa_mask_release(&m, kappa);
    const quill_mldsa_poly *held = quill_mldsa_mask_get(&m, kappa);
    for (unsigned h = 0; h < 8; h++)
        bad += !hash_matches(&m, RATE * 3);
    bad += !poly_matches(held, rhopp, kappa, p);
    /* The remaining lengths, with the stream idle or running. */
    for (; len < 3 * RATE + 3; len++)
        bad += !hash_matches(&m, len);
    quill_mldsa_mask_wipe(&m);
}

int main(void) {
    qt_rng_seed(0x6d61736b73747265ULL);
    printf("mldsa_mask: hashes %s\n",
           quill_keccak_f1600_x4_wide() ? "in instance 0 of the four-way Keccak"
                                        : "on the scalar sponge (portable four-way)");
    test_set(QUILL_MLDSA_44);
    test_set(QUILL_MLDSA_65);
    test_set(QUILL_MLDSA_87);
    printf("mldsa_mask: %lu polynomials and %lu hashes matched the one-at-a-time forms\n",
           polys_checked, hashes_checked);
    return qt_finish("mldsa_mask");
}
