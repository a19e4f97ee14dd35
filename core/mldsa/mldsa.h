/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA-44, -65 and -87 (FIPS 204): key generation from a seed, signing and
 * verification on the internal interface (on mu, the 64-byte message
 * representative), and the incremental computation of mu for pure ML-DSA
 * (with a context string) and for a caller-formatted M'.
 *
 * Encodings are FIPS 204's: pkEncode (rho || t1), skEncode
 * (rho || K || tr || s1 || s2 || t0), sigEncode (c~ || z || h).
 *
 * Keys are immutable after creation, so one key may be used from many
 * threads at once.  Secret: the seed, K, s1, s2, t0, the expanded private
 * key and everything derived from them during signing (y, the commitment
 * before it is published, c*s1, c*s2); all handled in constant time (the
 * rejection loop leaks only its iteration count) and zeroised before their
 * memory is released.  Public keys, signatures, mu and messages are public. */
#ifndef QUILL_MLDSA_MLDSA_H
#define QUILL_MLDSA_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/err.h"
#include "sha3/sha3.h"

typedef enum quill_mldsa_set {
    QUILL_MLDSA_44 = 0,
    QUILL_MLDSA_65 = 1,
    QUILL_MLDSA_87 = 2,
} quill_mldsa_set;

#define QUILL_MLDSA_SEED_BYTES 32
#define QUILL_MLDSA_TR_BYTES 64
#define QUILL_MLDSA_MU_BYTES 64
#define QUILL_MLDSA_RND_BYTES 32
#define QUILL_MLDSA_MAX_CONTEXT_BYTES 255
#define QUILL_MLDSA_MAX_PUB_BYTES 2592  /* ML-DSA-87 */
#define QUILL_MLDSA_MAX_PRIV_BYTES 4896 /* ML-DSA-87 */
#define QUILL_MLDSA_MAX_SIG_BYTES 4627  /* ML-DSA-87 */

/* Sizes of the encodings (1312/2560/2420, 1952/4032/3309, 2592/4896/4627),
 * and the claimed security strength in bits (128, 192, 256).  0 for a set
 * outside the enum. */
size_t quill_mldsa_pub_bytes(quill_mldsa_set set);
size_t quill_mldsa_priv_bytes(quill_mldsa_set set);
size_t quill_mldsa_sig_bytes(quill_mldsa_set set);
unsigned quill_mldsa_security_bits(quill_mldsa_set set);

typedef struct quill_mldsa_key quill_mldsa_key;

/* quill_mldsa_key_from_seed runs ML-DSA.KeyGen_internal on the 32-byte seed
 * xi (secret) and returns a private key that remembers its seed.
 * QUILL_ERR_INVALID_ARGUMENT for an unknown set or NULL, QUILL_ERR_MEMORY. */
QUILL_MUST_CHECK quill_err quill_mldsa_key_from_seed(quill_mldsa_key **out, quill_mldsa_set set,
                                                     const uint8_t seed[QUILL_MLDSA_SEED_BYTES]);

/* quill_mldsa_key_from_priv decodes an expanded private key (secret) and
 * derives its public key.  It performs FIPS 204's private-key checks:
 * QUILL_ERR_KEY_LENGTH if len != quill_mldsa_priv_bytes(set);
 * QUILL_ERR_KEY_CHECK if a coefficient of s1 or s2 is outside [-eta, eta],
 * or if tr or t0 do not match those recomputed from rho, s1 and s2.  Only
 * the verdict is declassified.  The key has no seed. */
QUILL_MUST_CHECK quill_err quill_mldsa_key_from_priv(quill_mldsa_key **out, quill_mldsa_set set,
                                                     const uint8_t *priv, size_t len);

/* quill_mldsa_key_from_pub decodes a public key (every 10-bit t1 value is
 * valid, so only the length is checked: QUILL_ERR_KEY_LENGTH). */
QUILL_MUST_CHECK quill_err quill_mldsa_key_from_pub(quill_mldsa_key **out, quill_mldsa_set set,
                                                    const uint8_t *pub, size_t len);

/* quill_mldsa_key_dup copies |key|, keeping the private part and seed only
 * if with_private is nonzero.  QUILL_ERR_MEMORY. */
QUILL_MUST_CHECK quill_err quill_mldsa_key_dup(quill_mldsa_key **out, const quill_mldsa_key *key,
                                               int with_private);

/* quill_mldsa_key_free zeroises and frees |key| (NULL is fine). */
void quill_mldsa_key_free(quill_mldsa_key *key);

quill_mldsa_set quill_mldsa_key_set(const quill_mldsa_key *key);
int quill_mldsa_key_has_private(const quill_mldsa_key *key);
int quill_mldsa_key_has_seed(const quill_mldsa_key *key);

/* Borrowed views of the encodings, valid while the key lives: the public key
 * (always), the expanded private key and the seed (NULL when absent; secret),
 * tr = H(pk, 64). */
const uint8_t *quill_mldsa_key_pub(const quill_mldsa_key *key);
const uint8_t *quill_mldsa_key_priv(const quill_mldsa_key *key);
const uint8_t *quill_mldsa_key_seed(const quill_mldsa_key *key);
const uint8_t *quill_mldsa_key_tr(const quill_mldsa_key *key);

/* Returns 1 if both keys are of the same set with the same public key. */
int quill_mldsa_key_public_equal(const quill_mldsa_key *a, const quill_mldsa_key *b);

/* mu = H(tr || M', 64), computed incrementally.  For pure ML-DSA,
 * M' = 0 || len(ctx) || ctx || M (quill_mldsa_mu_init_pure); for the
 * internal interface the caller supplies M' whole (quill_mldsa_mu_init, then
 * updates).  A mu state holds only public data. */
typedef struct quill_mldsa_mu {
    quill_keccak k;
} quill_mldsa_mu;

void quill_mldsa_mu_init(quill_mldsa_mu *m, const quill_mldsa_key *key);

/* QUILL_ERR_CONTEXT_LENGTH if ctx_len > 255 (m is then unusable). */
QUILL_MUST_CHECK quill_err quill_mldsa_mu_init_pure(quill_mldsa_mu *m, const quill_mldsa_key *key,
                                                    const uint8_t *ctx, size_t ctx_len);
void quill_mldsa_mu_update(quill_mldsa_mu *m, const uint8_t *data, size_t len);
void quill_mldsa_mu_final(quill_mldsa_mu *m, uint8_t mu[QUILL_MLDSA_MU_BYTES]);

/* quill_mldsa_sign_mu is ML-DSA.Sign_internal on mu with the 32-byte rnd
 * (random for hedged signing, all zeros for deterministic signing), writing
 * quill_mldsa_sig_bytes(set) bytes to sig.  QUILL_ERR_KEY_MISSING_PRIVATE
 * for a public key, QUILL_ERR_BUFFER_TOO_SMALL if sig_cap is too small.
 * rnd is secret. */
QUILL_MUST_CHECK quill_err quill_mldsa_sign_mu(const quill_mldsa_key *key,
                                               const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                                               const uint8_t rnd[QUILL_MLDSA_RND_BYTES],
                                               uint8_t *sig, size_t sig_cap);

/* quill_mldsa_verify_mu is ML-DSA.Verify_internal on mu (variable time: all
 * inputs are public).  QUILL_OK if valid; QUILL_ERR_SIG_LENGTH for a wrong
 * length; QUILL_ERR_BAD_SIGNATURE for anything else (malformed hints, z out
 * of range, challenge mismatch). */
QUILL_MUST_CHECK quill_err quill_mldsa_verify_mu(const quill_mldsa_key *key,
                                                 const uint8_t mu[QUILL_MLDSA_MU_BYTES],
                                                 const uint8_t *sig, size_t sig_len);

/* quill_mldsa_verify_mu_sponge is quill_mldsa_verify_mu on the mu that m
 * would give (every byte of M' absorbed, quill_mldsa_mu_final not called):
 * it finishes m (which is then spent) and, where the four-way Keccak is
 * wide, runs mu's last permutation together with SampleInBall's.  The
 * same results as quill_mldsa_mu_final then quill_mldsa_verify_mu. */
QUILL_MUST_CHECK quill_err quill_mldsa_verify_mu_sponge(const quill_mldsa_key *key,
                                                        quill_mldsa_mu *m, const uint8_t *sig,
                                                        size_t sig_len);

#endif
