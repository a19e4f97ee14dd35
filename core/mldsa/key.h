/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA key object (internal layout) and the precomputation it
 * carries.  A key holds, besides its encodings:
 *   a_hat   A-hat = ExpandA(rho), k x l, NTT domain, coefficients in [0, q);
 *           computed when the key is made (key generation needs it anyway).
 *   t1_hat  NTT(-t1 2^d), k, in [0, q) (public; negated and frozen for
 *           quill_mldsa_dot_mont_x2_tail's extra pair); made by the first
 *           verification.
 *   sign_hat  2k pairs in the 16-bit NTT of ntt16.h (secret): for row i,
 *           (s1_i, s2_i) if i < l, else (s2_i, 0); then for each row the
 *           split of t0_i = lo + 2^6 hi as (lo, hi).  Made by the first
 *           signature from the encoded private key; each pair gives its two
 *           challenge products in one quill_mldsa_mulc16.
 * The two lazy blocks cost 6 (t1_hat) and 12 pair transforms (sign_hat,
 * ML-DSA-65): a key that is generated and written out, or only used to
 * verify, never pays for the signing half.  They are published with one
 * compare-and-swap each, so threads sharing a key may race to make them:
 * the loser wipes and frees its copy.  Sizes: A-hat is 16 / 30 / 56 KiB
 * (ML-DSA-44 / 65 / 87), t1_hat 4 / 6 / 8 KiB, sign_hat 8 / 12 / 16 KiB,
 * plus the key structure itself (about 7.8 KiB of encodings).  Secret parts
 * are zeroised before they are freed. */
#ifndef QUILL_MLDSA_KEY_H
#define QUILL_MLDSA_KEY_H

#include "mldsa/mldsa.h"
#include "ntt16.h"
#include "params.h"
#include "poly.h"

struct quill_mldsa_key {
    const quill_mldsa_params *p;
    int has_private, has_seed;
    uint8_t pub[QUILL_MLDSA_MAX_PUB_BYTES];
    uint8_t tr[QUILL_MLDSA_TR_BYTES];
    uint8_t rho[32];
    uint8_t seed[QUILL_MLDSA_SEED_BYTES]; /* secret */
    uint8_t key[32];                      /* K, secret */
    uint8_t priv[QUILL_MLDSA_MAX_PRIV_BYTES]; /* secret */
    quill_mldsa_poly *a_hat; /* k l polynomials, 32-byte aligned, in the key's own block */
    _Atomic(void *) t1_hat;   /* quill_mldsa_poly[k]; NULL until first needed */
    _Atomic(void *) sign_hat; /* quill_mldsa_pair16[2k]; NULL until first needed; secret */
};

/* quill_mldsa_key_alloc returns a key of set |p| with room for A-hat,
 * zeroed except pub and priv, which its constructor must fill (the first
 * p->pub_bytes / p->priv_bytes) before they are read.  NULL if out of
 * memory. */
quill_mldsa_key *quill_mldsa_key_alloc(const quill_mldsa_params *p);

/* quill_mldsa_key_finish_public sets key->tr = H(key->pub, 64). */
void quill_mldsa_key_finish_public(quill_mldsa_key *key);

/* quill_mldsa_key_publish stores |fresh| (|len| bytes, from
 * aligned_alloc) into *slot unless another thread got there first, in which
 * case |fresh| is wiped and freed; returns the block that won. */
const void *quill_mldsa_key_publish(_Atomic(void *) *slot, void *fresh, size_t len);

/* quill_mldsa_key_t1_hat returns NTT(-t1 2^d) in [0, q) (k polynomials), made from
 * key->pub on the first call; NULL if out of memory. */
const quill_mldsa_poly *quill_mldsa_key_t1_hat(const quill_mldsa_key *key);

/* quill_mldsa_key_sign_hat returns the 2k pairs of sign_hat (above), made
 * from key->priv on the first call; NULL if out of memory.  The key must
 * have its private part. */
const quill_mldsa_pair16 *quill_mldsa_key_sign_hat(const quill_mldsa_key *key);

/* quill_mldsa_keygen_lanes does the rest of key generation once key->rho
 * is known: A-hat into key->a_hat, t row by row, t1 into key->pub (with
 * rho), t0 into key->priv at QUILL_MLDSA_SK_T0_OFFSET, and key->tr =
 * H(pk), running the samplers' streams and H's blocks together on the
 * four-way Keccak (keygen_lanes.c).  With rhop (rho', 64 bytes, secret)
 * it runs ExpandS in the lanes too: s1_hat receives NTT(s1) (|.| < 17q,
 * quill_mldsa_ntt_lazy_from's unreduced output) and s2 receives s2, both
 * secret (the caller wipes them), and their encodings go into key->priv
 * at offset 128.  With rhop NULL, s1_hat = NTT(s1) and s2 are inputs, and
 * key->priv's s1 and s2 part is not written.  |t| is scratch for three
 * polynomials: t[0] and t[1] (secret; t[1] is used for ML-DSA-65 and -87
 * only) are wiped on return, t[2] only ever holds rows of t1 (public).
 * Meant for CPUs where quill_keccak_f1600_x4_wide() holds; the result is
 * the same on any. */
void quill_mldsa_keygen_lanes(quill_mldsa_key *key, const uint8_t *rhop, quill_mldsa_poly *s1_hat,
                              quill_mldsa_poly *s2, quill_mldsa_poly t[3]);

#endif
