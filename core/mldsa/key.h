/* Copyright quill authors.
 *
 * The ML-DSA key object (internal layout) and the precomputation it
 * carries.  A key holds, besides its encodings:
 *   a_hat   A-hat = ExpandA(rho), k x l, NTT domain, coefficients in [0, q)
 *   t1_hat  NTT(t1 2^d), k, |.| < q             (public; for verification)
 *   u_hat, s2_hat, t0_hat  NTT(s1 + 2^9 s2) (first l rows of s2), NTT(s2),
 *           NTT(t0), |.| < q   (secret; for signing; NULL in a public key).
 *           One inverse NTT of c o u_hat gives c s1 + 2^9 c s2, from which
 *           both products are read (|c s1|, |c s2| <= beta < 2^8), so
 *           signing needs l fewer inverse transforms per attempt.
 * all in one 32-byte-aligned allocation of (k l + k [+ l + 2k]) polynomials
 * of 1 KiB: ML-DSA-44 20 (+12) KiB, ML-DSA-65 36 (+17) KiB, ML-DSA-87
 * 64 (+23) KiB, plus the key structure itself (about 7.8 KiB of encodings).
 * Secret parts are zeroised before they are freed. */
#ifndef QUILL_MLDSA_KEY_H
#define QUILL_MLDSA_KEY_H

#include "mldsa/mldsa.h"
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
    quill_mldsa_poly *polys;              /* the allocation below */
    size_t npolys, nsecret;               /* total, and secret ones at the end */
    quill_mldsa_poly *a_hat, *t1_hat, *u_hat, *s2_hat, *t0_hat;
};

/* quill_mldsa_key_alloc returns a zeroed key of set |p| with room for the
 * public precomputation, and the secret one if with_private.  NULL if out
 * of memory. */
quill_mldsa_key *quill_mldsa_key_alloc(const quill_mldsa_params *p, int with_private);

/* quill_mldsa_key_finish_public fills tr and t1_hat from key->pub
 * (everything public).  key->a_hat must already hold ExpandA(rho): the
 * callers expand it first. */
void quill_mldsa_key_finish_public(quill_mldsa_key *key, const quill_mldsa_poly *t1);

/* quill_mldsa_compute_t sets t = NTT^-1(A-hat o s1_hat) + s2 in [0, q)
 * (FIPS 204, Algorithm 6, line 5), with s1_hat = NTT(s1) given. */
void quill_mldsa_compute_t(quill_mldsa_poly *t, const quill_mldsa_poly *a_hat,
                           const quill_mldsa_poly *s1_hat, const quill_mldsa_poly *s2,
                           const quill_mldsa_params *p);

#endif
