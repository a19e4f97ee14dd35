/* Copyright quill authors.
 *
 * The ML-DSA key object (internal layout) and the precomputation it
 * carries.  A key holds, besides its encodings:
 *   a_hat   A-hat = ExpandA(rho), k x l, NTT domain, coefficients in [0, q);
 *           computed when the key is made (key generation needs it anyway).
 *   t1_hat  NTT(t1 2^d), k, |.| < q (public); made by the first verification.
 *   sign_hat  u_hat (l), s2_hat (k), t0_hat (k): NTT(s1 + 2^9 s2) (first l
 *           rows of s2), NTT(s2), NTT(t0), |.| < q (secret); made by the
 *           first signature from the encoded private key.  One inverse NTT
 *           of c o u_hat gives c s1 + 2^9 c s2, from which both products are
 *           read (|c s1|, |c s2| <= beta < 2^8), so signing needs l fewer
 *           inverse transforms per attempt.
 * The two lazy blocks cost 6 (t1_hat) and 17 (sign_hat, ML-DSA-65)
 * transforms: a key that is generated and written out, or only used to
 * verify, never pays for the signing half.  They are published with one
 * compare-and-swap each, so threads sharing a key may race to make them:
 * the loser wipes and frees its copy.  Sizes: A-hat is 16 / 30 / 56 KiB
 * (ML-DSA-44 / 65 / 87), t1_hat 4 / 6 / 8 KiB, sign_hat 12 / 17 / 23 KiB,
 * plus the key structure itself (about 7.8 KiB of encodings).  Secret parts
 * are zeroised before they are freed. */
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
    quill_mldsa_poly *a_hat;              /* k l polynomials, 32-byte aligned */
    _Atomic(quill_mldsa_poly *) t1_hat;   /* NULL until first needed */
    _Atomic(quill_mldsa_poly *) sign_hat; /* NULL until first needed; secret */
};

/* quill_mldsa_key_alloc returns a zeroed key of set |p| with room for
 * A-hat.  NULL if out of memory. */
quill_mldsa_key *quill_mldsa_key_alloc(const quill_mldsa_params *p);

/* quill_mldsa_key_finish_public sets key->tr = H(key->pub, 64). */
void quill_mldsa_key_finish_public(quill_mldsa_key *key);

/* quill_mldsa_key_publish stores |fresh| (n polynomials, from
 * aligned_alloc) into *slot unless another thread got there first, in which
 * case |fresh| is wiped and freed; returns the block that won. */
const quill_mldsa_poly *quill_mldsa_key_publish(_Atomic(quill_mldsa_poly *) *slot,
                                                quill_mldsa_poly *fresh, size_t n);

/* quill_mldsa_key_t1_hat returns NTT(t1 2^d) (k polynomials), made from
 * key->pub on the first call; NULL if out of memory. */
const quill_mldsa_poly *quill_mldsa_key_t1_hat(const quill_mldsa_key *key);

/* quill_mldsa_key_sign_hat returns u_hat, s2_hat and t0_hat (l + 2k
 * polynomials, in that order), made from key->priv on the first call; NULL
 * if out of memory.  The key must have its private part. */
const quill_mldsa_poly *quill_mldsa_key_sign_hat(const quill_mldsa_key *key);

/* quill_mldsa_compute_t sets t = NTT^-1(A-hat o s1_hat) + s2 in [0, q)
 * (FIPS 204, Algorithm 6, line 5), with s1_hat = NTT(s1) given. */
void quill_mldsa_compute_t(quill_mldsa_poly *t, const quill_mldsa_poly *a_hat,
                           const quill_mldsa_poly *s1_hat, const quill_mldsa_poly *s2,
                           const quill_mldsa_params *p);

#endif
