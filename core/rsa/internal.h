/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Private helpers of core/rsa: the key layout, blinding, the key arithmetic
 * RSA needs beyond bn.h (lcm(p - 1, q - 1), e^-1 mod lambda), primality
 * testing, key checks, encoding helpers.
 *
 * Timing contract as in bn.h: unless a name ends in _vartime or _public, time
 * and memory addresses depend only on the length arguments. */
#ifndef QUILL_RSA_INTERNAL_H
#define QUILL_RSA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bn/bn.h"
#include "common/ct.h"
#include "rsa/rsa.h"

typedef struct quill_rsa_blinding quill_rsa_blinding;

/* The key.  Immutable after quill_rsa_key_assemble, except for the blinding
 * pair behind |blind| (its own try-lock, blinding.c); all limb arrays live in
 * one allocation (|mem|, |mem_limbs| limbs) that is zeroised on free.
 * Limb counts are public: nl from the modulus, pl and ql from the sizes of p
 * and q (declassified at import: the bit length of a prime factor of n is
 * considered public, as everywhere). */
struct quill_rsa_key {
    size_t bits;  /* bits of n */
    size_t bytes; /* bytes of n: k in RFC 8017 */
    size_t nl;    /* limbs of n */
    size_t el;    /* limbs of e (top limb non-zero) */
    quill_limb *n, *e;
    quill_mont *mont_n;

    int has_private, has_crt;
    quill_limb *d; /* nl limbs, secret */
    size_t pl, ql; /* limbs of p and q (top limbs non-zero) */
    quill_limb *p, *q, *dp, *dq, *qinv; /* pl, ql, pl, ql, pl limbs; secret */
    quill_limb *qinv_mont;              /* qinv * R mod p (pl limbs), secret */
    quill_mont *mont_p, *mont_q;
    /* Public: the bit lengths of p and q (the sizes of the factors are
     * public; declassified at assembly).  They choose the shortcuts of the
     * CRT steps (private.c): q no longer than p makes q < 2p, a prime of
     * whole limbs (top bit set) makes every value of its limb count below
     * twice the prime. */
    size_t p_bits, q_bits;

    /* The blinding pair of a private key (secret; NULL for a public key or
     * if its allocation failed).  Never copied by quill_rsa_key_dup. */
    quill_rsa_blinding *blind;

    quill_limb *mem;
    size_t mem_limbs;
};

/* Key components as limb arrays, for quill_rsa_key_assemble.  n (nl limbs)
 * and e (el limbs) are required.  d (nl limbs) may be NULL for a public key;
 * p (pl), q (ql), dp (pl), dq (ql), qinv (pl) are all set or all NULL. */
typedef struct quill_rsa_limbs {
    const quill_limb *n, *e, *d, *p, *q, *dp, *dq, *qinv;
    size_t nl, el, pl, ql;
} quill_rsa_limbs;

/* quill_rsa_key_assemble copies the components into a new key and builds the
 * Montgomery contexts, with no consistency check (the caller has checked, or
 * generated them).  n must be odd with top limb non-zero; p and q likewise.
 * Returns QUILL_OK or QUILL_ERR_MEMORY. */
QUILL_MUST_CHECK quill_err quill_rsa_key_assemble(quill_rsa_key **out, const quill_rsa_limbs *c);

/* ---- Blinding (blinding.c) ---- */

/* Uses of a blinding pair (each the square of the previous one) before it is
 * drawn again from fresh randomness. */
#define QUILL_RSA_BLINDING_REFRESH 32

/* quill_rsa_blinding_new allocates an empty pair for a modulus of nl limbs
 * (filled on first use); NULL if memory runs out (the key then blinds with a
 * fresh r every time).  quill_rsa_blinding_free zeroises and frees it (NULL
 * is fine). */
quill_rsa_blinding *quill_rsa_blinding_new(size_t nl);
void quill_rsa_blinding_free(quill_rsa_blinding *b);

/* quill_rsa_blinding_get sets a_m = r^e R and ai_m = r^-1 R mod n (nl limbs
 * each, Montgomery domain of key->mont_n; secret) for the next private
 * operation with |key|.  It takes the key's pair (then squares it in place)
 * if no other thread holds it, else draws a fresh r from |rng|; the pair is
 * drawn afresh from |rng| on first use, every QUILL_RSA_BLINDING_REFRESH uses
 * and in a forked child.  |r| (nl limbs) and |rand| (key->bytes) are
 * scratch, left secret.  Never waits for another thread.  Returns QUILL_OK,
 * QUILL_ERR_RNG (the generator failed: no pair is kept), QUILL_ERR_MEMORY or
 * QUILL_ERR_INTERNAL. */
QUILL_MUST_CHECK quill_err quill_rsa_blinding_get(const quill_rsa_key *key, quill_limb *a_m,
                                                  quill_limb *ai_m, quill_limb *r, uint8_t *rand,
                                                  const quill_rng *rng);

/* ---- The CRT steps of the private operation (private.c) ---- */

/* quill_rsa_crt_split sets cp = xb mod p and cq = xb mod q (pl, ql limbs)
 * for xb < n (nl limbs) and a key with CRT values.  Constant time. */
void quill_rsa_crt_split(const quill_rsa_key *key, quill_limb *cp, quill_limb *cq,
                         const quill_limb *xb);

/* quill_rsa_crt_join sets sb (nl limbs) to the value below n that is m1 mod
 * p and m2 mod q, for m1 < p (pl limbs) and m2 < q (ql limbs): Garner's
 * recombination, sb = m2 + q (qinv (m1 - m2) mod p) (RFC 8017 5.1.2 step
 * 2b).  t is scratch of QUILL_RSA_CRT_JOIN_SCRATCH(nl) limbs, left holding
 * secrets.  Constant time. */
#define QUILL_RSA_CRT_JOIN_SCRATCH(nl) (5 * (nl))
void quill_rsa_crt_join(const quill_rsa_key *key, quill_limb *sb, const quill_limb *m1,
                        const quill_limb *m2, quill_limb *t);

/* ---- Key arithmetic (arith.c) ----
 * The generic constant-time helpers (bit lengths, secret shifts, long
 * division, reduction of long values, gcd) are in bn.h. */

/* quill_rsa_lambda_consttime: lambda (out_n limbs) = lcm(p - 1, q - 1) for odd
 * p (pl limbs) and q (ql limbs), both > 1, secret.  lcm must fit in out_n
 * limbs (it does for out_n = limbs of n = p * q).  Returns 1, or 0 on
 * allocation failure. */
QUILL_MUST_CHECK int quill_rsa_lambda_consttime(quill_limb *lambda, size_t out_n,
                                                const quill_limb *p, size_t pl,
                                                const quill_limb *q, size_t ql);

/* quill_rsa_inv_e_consttime: d (nd limbs) = e^-1 mod lambda for a public odd
 * e (el limbs, e > 1) and a secret lambda (nd limbs, non-zero).  Uses
 * d = (1 + k * lambda) / e with k = -lambda^-1 mod e, so needs no inversion
 * modulo the even lambda.  Returns all-ones on success, zero if e is not
 * invertible or allocation failed (d is then zero); the mask is secret. */
QUILL_MUST_CHECK quill_word quill_rsa_inv_e_consttime(quill_limb *d, const quill_limb *lambda,
                                                      size_t nd, const quill_limb *e, size_t el);

/* quill_rsa_mont_new_secret is quill_mont_new for a secret modulus (a prime
 * factor, a prime candidate).  quill_mont_new is constant time in m and
 * declassifies only its verdict (m odd, top limb non-zero, facts the caller
 * has made true), so this is now a plain call, kept as the one name the RSA
 * code uses for secret moduli. */
QUILL_MUST_CHECK quill_mont *quill_rsa_mont_new_secret(const quill_limb *m, size_t n);

/* quill_rsa_verdict declassifies a secret all-ones/zero mask into 0/1: the
 * place where a secret comparison becomes a public decision. */
QUILL_INLINE int quill_rsa_verdict(quill_word mask) {
    return quill_ct_declassify_w(mask) != 0;
}

/* ---- Primality (prime.c) ---- */

/* quill_rsa_mr_rounds returns the Miller-Rabin rounds used for a prime of
 * |bits| bits (FIPS 186-5 Table B.1, error probability 2^-112 .. 2^-144
 * column; more rounds below 1024 bits). */
size_t quill_rsa_mr_rounds(size_t bits);

/* quill_rsa_small_primes fills |out| (capacity cap) with the odd primes below
 * QUILL_RSA_TRIAL_LIMIT and returns their count. */
#define QUILL_RSA_TRIAL_LIMIT 8192
#define QUILL_RSA_TRIAL_MAX 1100 /* > pi(8192) = 1028 */
size_t quill_rsa_small_primes(uint16_t *out, size_t cap);

/* quill_rsa_trial_division_consttime returns all-ones if no prime in
 * primes[0..count) divides w (n limbs, secret, w larger than every listed
 * prime).  Time depends on n and count only. */
quill_word quill_rsa_trial_division_consttime(const quill_limb *w, size_t n,
                                              const uint16_t *primes, size_t count);

/* quill_rsa_miller_rabin: *probable_prime = 1 if the odd w (the modulus of
 * |mont|, bits bits with bits >= 8) passes |rounds| rounds of Miller-Rabin
 * (FIPS 186-5 B.3.1) with bases from |rng|, else 0.  Constant time in w: the
 * squaring loop always runs bits - 1 times; only each round's verdict is
 * declassified (a composite may stop early).  Returns QUILL_OK,
 * QUILL_ERR_RNG or QUILL_ERR_MEMORY. */
QUILL_MUST_CHECK quill_err quill_rsa_miller_rabin(int *probable_prime, const quill_mont *mont,
                                                  size_t bits, size_t rounds,
                                                  const quill_rng *rng);

/* ---- Key checks (check.c) ---- */

/* quill_rsa_pairwise_test signs a random value below n with the private key
 * (blinded, fault-checked) and verifies it with the public key.  QUILL_OK or
 * QUILL_ERR_KEY_CHECK (or QUILL_ERR_RNG / _MEMORY). */
QUILL_MUST_CHECK quill_err quill_rsa_pairwise_test(const quill_rsa_key *key, const quill_rng *rng);

/* ---- Digests (md.c) ---- */

/* quill_rsa_digest_info returns the DER DigestInfo prefix for |md| (RFC 8017
 * 9.2 note 1) in |out| (at least QUILL_RSA_DIGEST_INFO_MAX bytes) and its
 * length; 0 for the digests signed raw (quill_rsa_md_raw) and for unknown
 * values. */
#define QUILL_RSA_DIGEST_INFO_MAX 19
size_t quill_rsa_digest_info(quill_md md, uint8_t *out);

/* quill_rsa_md_known returns 1 if md is a member of quill_md. */
int quill_rsa_md_known(quill_md md);

/* quill_rsa_md_raw returns 1 for the digests EMSA-PKCS1-v1_5 carries with
 * no DigestInfo: QUILL_MD_NONE (the caller's bytes) and QUILL_MD_MD5_SHA1
 * (TLS 1.0/1.1). */
int quill_rsa_md_raw(quill_md md);

/* ---- Shared by the encodings ---- */

/* quill_rsa_public_raw_vartime: em (k bytes) = sig^e mod n with the checks
 * every verification needs (sig_len == k, sig < n).  QUILL_OK,
 * QUILL_ERR_SIG_LENGTH, QUILL_ERR_INPUT_RANGE or QUILL_ERR_MEMORY. */
QUILL_MUST_CHECK quill_err quill_rsa_public_raw_vartime(const quill_rsa_key *key, uint8_t *em,
                                                        const uint8_t *sig, size_t sig_len);

#endif
