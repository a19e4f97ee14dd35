/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA signatures on quill's bignum core (RFC 8017, FIPS 186-5).
 *
 * Keys are immutable after creation, so one key may be used from many
 * threads at once.  Every secret (d, p, q, dP, dQ, qInv, intermediate
 * values) is handled in constant time and zeroised before its memory is
 * released.  Byte strings are big-endian magnitudes; leading zeros allowed.
 *
 * Supported: two-prime keys; odd public exponents 3 <= e < n.  Two size
 * floors, deliberately different:
 *   - QUILL_RSA_IMPORT_MIN_BITS (1024): quill_rsa_key_new, the import path,
 *     refuses smaller moduli, so the provider lets OpenSSL's default
 *     provider keep small keys it did not make;
 *   - QUILL_RSA_MIN_BITS (512): the smallest key object the core handles at
 *     all.  Only quill_rsa_keygen (for compatibility with what OpenSSL's
 *     default provider generates) and quill_rsa_key_dup make keys below
 *     QUILL_RSA_IMPORT_MIN_BITS; every operation works on them.
 * Anything else is refused with a status, so the provider can let OpenSSL
 * fall back to its default provider. */
#ifndef QUILL_RSA_RSA_H
#define QUILL_RSA_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/md.h"
#include "common/rng.h"

#define QUILL_RSA_MIN_BITS 512
#define QUILL_RSA_IMPORT_MIN_BITS 1024
/* Imported keys with moduli above QUILL_RSA_LARGE_MODULUS_BITS may have a
 * public exponent of at most QUILL_RSA_LARGE_MODULUS_MAX_E_BITS bits (as in
 * OpenSSL: verification time grows with bits(e)). */
#define QUILL_RSA_LARGE_MODULUS_BITS 3072
#define QUILL_RSA_LARGE_MODULUS_MAX_E_BITS 64
#define QUILL_RSA_MAX_BITS 16384
/* Key generation follows FIPS 186-5 A.1.3 for nlen >= QUILL_RSA_FIPS_MIN_BITS
 * and e >= QUILL_RSA_FIPS_MIN_E; below, the same algorithm runs for
 * compatibility (see quill_rsa_keygen). */
#define QUILL_RSA_FIPS_MIN_BITS 2048
#define QUILL_RSA_FIPS_MIN_E 65537

typedef struct quill_rsa_key quill_rsa_key;

/* A borrowed byte string. */
typedef struct quill_bytes {
    const uint8_t *data;
    size_t len;
} quill_bytes;

/* Key components for import.  n and e are required.  For a private key d is
 * required; p, q, dp, dq, qinv are either all present (CRT) or all absent
 * (non-CRT private operation).  An absent component has data == NULL. */
typedef struct quill_rsa_components {
    quill_bytes n, e, d, p, q, dp, dq, qinv;
} quill_rsa_components;

typedef enum quill_rsa_field {
    QUILL_RSA_N,
    QUILL_RSA_E,
    QUILL_RSA_D,
    QUILL_RSA_P,
    QUILL_RSA_Q,
    QUILL_RSA_DP,
    QUILL_RSA_DQ,
    QUILL_RSA_QINV,
} quill_rsa_field;

/* quill_rsa_key_new builds a key from |c|, checking what can be checked
 * cheaply: modulus odd and of QUILL_RSA_IMPORT_MIN_BITS..QUILL_RSA_MAX_BITS
 * bits (the import policy: smaller keys are refused with QUILL_ERR_KEY_SIZE
 * even though the core could use them), 3 <= e < n with e odd,
 * 0 < d < n, each CRT value in range (p, q < n; dp < p; dq < q; qinv < p),
 * p * q == n and qinv * q == 1 mod p.  Precomputes the Montgomery contexts.
 * On success *out owns a new key; on failure *out is untouched and the
 * status says why: QUILL_ERR_INVALID_ARGUMENT (n or e absent, CRT values
 * without d), QUILL_ERR_KEY_SIZE, QUILL_ERR_MODULUS_EVEN,
 * QUILL_ERR_BAD_EXPONENT (e or d out of range), QUILL_ERR_BAD_CRT (some but
 * not all CRT values, or any CRT check failing), QUILL_ERR_MEMORY.
 * The private components are secret; the limb lengths of p and q are
 * treated as public. */
QUILL_MUST_CHECK quill_err quill_rsa_key_new(quill_rsa_key **out, const quill_rsa_components *c);

/* quill_rsa_key_dup copies |key| (any size the core holds, including keys
 * below QUILL_RSA_IMPORT_MIN_BITS that quill_rsa_keygen made) into a new
 * key *out, with the private components (secret, copied without looking
 * at them) only if |with_private| is nonzero and the key has them.  The
 * copy has its own Montgomery contexts.  QUILL_ERR_INVALID_ARGUMENT for
 * NULL arguments, QUILL_ERR_MEMORY; *out is set only on success. */
QUILL_MUST_CHECK quill_err quill_rsa_key_dup(quill_rsa_key **out, const quill_rsa_key *key,
                                             int with_private);

/* quill_rsa_key_free zeroises and frees |key| (NULL is fine). */
void quill_rsa_key_free(quill_rsa_key *key);

/* Modulus size in bits and in bytes (public). */
size_t quill_rsa_key_bits(const quill_rsa_key *key);
size_t quill_rsa_key_size(const quill_rsa_key *key);
int quill_rsa_key_has_private(const quill_rsa_key *key);
int quill_rsa_key_has_crt(const quill_rsa_key *key);

/* quill_rsa_key_get writes field |f| as a minimal big-endian magnitude ("0"
 * is one zero byte).  With out == NULL it only sets *out_len to the size
 * needed.  Fails with QUILL_ERR_INVALID_ARGUMENT if the key lacks the field,
 * QUILL_ERR_BUFFER_TOO_SMALL if cap is too small (*out_len is still set).
 * Private fields are secret: the caller zeroises its copy.  Their byte
 * length is computed in constant time and then released (it is the output
 * size). */
QUILL_MUST_CHECK quill_err quill_rsa_key_get(const quill_rsa_key *key, quill_rsa_field f,
                                             uint8_t *out, size_t cap, size_t *out_len);

/* Returns 1 if the two keys have the same n and e. */
int quill_rsa_key_public_equal(const quill_rsa_key *a, const quill_rsa_key *b);

/* quill_rsa_key_check performs the full consistency check of a private key
 * (FIPS 186-5 / SP 800-56B style): p, q probable primes (trial division,
 * Miller-Rabin with the rounds of FIPS 186-5 Table B.1), p * q == n,
 * d * e == 1 mod lcm(p-1, q-1), dp == d mod (p-1), dq == d mod (q-1),
 * qinv * q == 1 mod p, and a pairwise sign/verify test (the only check
 * possible for a private key without CRT values).  d is not required to be
 * below lcm(p-1, q-1) (keys with d mod phi(n) pass).  For a public key it
 * checks n (odd, supported size, no prime factor below 8192) and e only, and
 * |rng| may be NULL.  Returns QUILL_OK, QUILL_ERR_KEY_CHECK (or the import
 * statuses for n and e), QUILL_ERR_RNG, QUILL_ERR_MEMORY.  Constant time in
 * the private components; only the verdicts are released. */
QUILL_MUST_CHECK quill_err quill_rsa_key_check(const quill_rsa_key *key, const quill_rng *rng);

/* quill_rsa_key_check_public checks the public part only (odd n of
 * supported size with no prime factor below 8192, odd 3 <= e < n), whether
 * or not the key holds private components, which are not looked at: the
 * check of a public-key selection.  Statuses as quill_rsa_key_check. */
QUILL_MUST_CHECK quill_err quill_rsa_key_check_public(const quill_rsa_key *key);

/* quill_rsa_keygen generates a two-prime key of |bits| bits
 * (QUILL_RSA_MIN_BITS..QUILL_RSA_MAX_BITS, i.e. 512..16384, what OpenSSL
 * 3.0's default provider accepts) with public exponent e (odd, 3 <= e <
 * 2^256; NULL means 65537) by FIPS 186-5 A.1.3 (random probable primes,
 * top two bits set, gcd(p - 1, e) = 1, |p - q| > 2^(nlen/2 - 100),
 * d > 2^(nlen/2)).  For bits >= QUILL_RSA_FIPS_MIN_BITS and e >=
 * QUILL_RSA_FIPS_MIN_E this is FIPS 186-5 key generation with the
 * Miller-Rabin rounds of Table B.1.  Smaller sizes or exponents are
 * generated for compatibility with applications that ask OpenSSL for them
 * (FIPS 186-5 does not allow them): the same algorithm, with 64
 * Miller-Rabin rounds per prime (OpenSSL 3.0's count for primes up to 2048
 * bits, error <= 2^-128 even for adversarial candidates).  Multi-prime
 * keys are not generated (the caller refuses them).  Randomness only from
 * |rng|.  For an odd |bits|, p has one bit more than q.  Statuses:
 * QUILL_ERR_KEY_SIZE, QUILL_ERR_BAD_EXPONENT (even, < 3 or >= 2^256),
 * QUILL_ERR_RNG, QUILL_ERR_KEYGEN (attempt limits exhausted),
 * QUILL_ERR_MEMORY; *out is set only on success.  The key passed a
 * pairwise test before it is returned.  Constant time in the accepted
 * primes. */
QUILL_MUST_CHECK quill_err quill_rsa_keygen(quill_rsa_key **out, size_t bits, const quill_bytes *e,
                                            const quill_rng *rng);

/* ---- The raw primitives ---- */

/* out = in^e mod n.  |in| is exactly quill_rsa_key_size() bytes and must be
 * < n (QUILL_ERR_INPUT_RANGE otherwise).  Variable time in |in| as well as
 * in e (quill_mont_exp_public's almost-Montgomery squarings branch on
 * their values): for public inputs (signature verification). */
QUILL_MUST_CHECK quill_err quill_rsa_public(const quill_rsa_key *key, uint8_t *out,
                                            const uint8_t *in, size_t in_len);

/* out = in^d mod n with base blinding, CRT when the key has it, and the
 * result checked against the public exponent before it is released
 * (QUILL_ERR_FAULT_DETECTED, out zeroed, if not).  |in| (public) is exactly
 * quill_rsa_key_size() bytes (QUILL_ERR_INVALID_ARGUMENT otherwise) and < n
 * (QUILL_ERR_INPUT_RANGE).  Other statuses: QUILL_ERR_KEY_MISSING_PRIVATE,
 * QUILL_ERR_RNG, QUILL_ERR_MEMORY; out is zeroed on every failure.  Constant
 * time in d, p, q, dp, dq, qinv and the blinding value.  The Montgomery
 * contexts of n, p and q are built with the key (quill_rsa_key_new,
 * quill_rsa_keygen, quill_rsa_key_dup), never here.  Blinding: the key keeps
 * a secret pair (r^e, r^-1) that is squared after each use; |rng| is
 * consulted (and QUILL_ERR_RNG possible) only when a pair is drawn: on first
 * use, every QUILL_RSA_BLINDING_REFRESH uses, after fork, or when another
 * thread holds the key's pair. */
QUILL_MUST_CHECK quill_err quill_rsa_private(const quill_rsa_key *key, uint8_t *out,
                                             const uint8_t *in, size_t in_len,
                                             const quill_rng *rng);

/* ---- Digests ---- */

/* Digests are named by quill_md, whose sizes quill_md_size gives
 * (common/md.h).  PSS and MGF1 hash through quill_hash (common/hash.h),
 * supplied by the caller: the core has no SHA-2 of its own. */

/* ---- RSASSA-PKCS1-v1_5 (RFC 8017 8.2, EMSA-PKCS1-v1_5 9.2) ---- */

/* sig (quill_rsa_key_size() bytes) = the signature of |digest| (whose
 * length must be quill_md_size(md), or any length up to k - 11 for
 * QUILL_MD_NONE).  QUILL_MD_MD5_SHA1's 36 bytes go in without a DigestInfo
 * (TLS 1.0/1.1); every other digest with its DigestInfo. */
QUILL_MUST_CHECK quill_err quill_rsa_pkcs1_sign(const quill_rsa_key *key, uint8_t *sig,
                                                quill_md md, const uint8_t *digest,
                                                size_t digest_len, const quill_rng *rng);

/* Verifies by re-encoding and comparing the whole encoded message (never by
 * parsing it).  QUILL_OK only for a valid signature; QUILL_ERR_SIG_LENGTH,
 * QUILL_ERR_INPUT_RANGE or QUILL_ERR_BAD_SIGNATURE otherwise. */
QUILL_MUST_CHECK quill_err quill_rsa_pkcs1_verify(const quill_rsa_key *key, const uint8_t *sig,
                                                  size_t sig_len, quill_md md,
                                                  const uint8_t *digest, size_t digest_len);

/* Recovers the signed payload: the digest for md != QUILL_MD_NONE (checking
 * the DigestInfo), or the raw bytes after the padding for QUILL_MD_NONE.
 * Writes *out_len bytes to out (capacity cap). */
QUILL_MUST_CHECK quill_err quill_rsa_pkcs1_recover(const quill_rsa_key *key, uint8_t *out,
                                                   size_t cap, size_t *out_len,
                                                   const uint8_t *sig, size_t sig_len,
                                                   quill_md md);

/* ---- ANSI X9.31 rDSA signatures (as OpenSSL's RSA_X931_PADDING) ---- */

/* quill_rsa_x931_hash_id returns the X9.31 hash identifier of |md| (SHA-1
 * 0x33, SHA-256 0x34, SHA-384 0x36, SHA-512 0x35: the ones OpenSSL signs
 * with), or 0 for any other digest. */
uint8_t quill_rsa_x931_hash_id(quill_md md);

/* quill_rsa_x931_sign: sig (quill_rsa_key_size() bytes) = min(s, n - s)
 * for s = EM^d mod n, EM = 0x6b 0xbb.. 0xba || payload || 0xcc (0x6a ||
 * payload || 0xcc when it fills the key exactly), payload = digest || hash
 * id for an |md| with a hash id (digest_len must be quill_md_size(md)), or
 * the |digest| bytes as given for QUILL_MD_NONE.  Statuses:
 * QUILL_ERR_UNSUPPORTED_DIGEST (md without hash id), QUILL_ERR_DIGEST_LENGTH,
 * QUILL_ERR_DIGEST_TOO_BIG (payload over k - 2 bytes), QUILL_ERR_INPUT_RANGE
 * (EM >= n, possible when bits is not a multiple of 8), else as
 * quill_rsa_private; sig is zeroed on failure.  Constant time in the key as
 * quill_rsa_private; the finished signature is public. */
QUILL_MUST_CHECK quill_err quill_rsa_x931_sign(const quill_rsa_key *key, uint8_t *sig,
                                               quill_md md, const uint8_t *digest,
                                               size_t digest_len, const quill_rng *rng);

/* quill_rsa_x931_verify accepts s and n - s alike.  QUILL_OK only for a
 * valid signature of |digest| (the payload for QUILL_MD_NONE);
 * QUILL_ERR_SIG_LENGTH (sig_len != k), QUILL_ERR_INPUT_RANGE or
 * QUILL_ERR_BAD_SIGNATURE otherwise, QUILL_ERR_UNSUPPORTED_DIGEST or
 * QUILL_ERR_DIGEST_LENGTH for bad arguments.  Public data: variable time. */
QUILL_MUST_CHECK quill_err quill_rsa_x931_verify(const quill_rsa_key *key, const uint8_t *sig,
                                                 size_t sig_len, quill_md md,
                                                 const uint8_t *digest, size_t digest_len);

/* quill_rsa_x931_recover writes the signed digest (checking the hash id of
 * |md|), or for QUILL_MD_NONE the whole payload (digest || hash id), to out
 * (capacity cap) and its length to *out_len (also set, with
 * QUILL_ERR_BUFFER_TOO_SMALL, when cap is too small).  Other statuses as
 * quill_rsa_x931_verify. */
QUILL_MUST_CHECK quill_err quill_rsa_x931_recover(const quill_rsa_key *key, uint8_t *out,
                                                  size_t cap, size_t *out_len,
                                                  const uint8_t *sig, size_t sig_len,
                                                  quill_md md);

/* ---- RSASSA-PSS (RFC 8017 8.1, EMSA-PSS 9.1) ---- */

/* Salt length for verification: recover it from the signature. */
#define QUILL_PSS_SALT_AUTO (-1)

/* Largest salt for this key and hash: emLen - hLen - 2, emLen = ceil((bits-1)/8).
 * Negative if the key is too small for the hash. */
long quill_rsa_pss_max_salt(const quill_rsa_key *key, const quill_hash *md);

/* sig = PSS signature of |digest| (md->size bytes) with a salt of
 * salt_len >= 0 bytes from |rng|, MGF1 with |mgf1| (hash outputs up to 64
 * bytes).  QUILL_ERR_DIGEST_LENGTH for a digest of the wrong size,
 * QUILL_ERR_DIGEST_TOO_BIG if emLen < hLen + 2, QUILL_ERR_SALT_LENGTH for
 * salt_len < 0 or > quill_rsa_pss_max_salt(), else as quill_rsa_private. */
QUILL_MUST_CHECK quill_err quill_rsa_pss_sign(const quill_rsa_key *key, uint8_t *sig,
                                              const quill_hash *md, const quill_hash *mgf1,
                                              const uint8_t *digest, size_t digest_len,
                                              long salt_len, const quill_rng *rng);

/* RFC 8017 9.1.2 verification.  salt_len >= 0 requires exactly that salt
 * length; QUILL_PSS_SALT_AUTO accepts any.  QUILL_OK only for a valid
 * signature; QUILL_ERR_SIG_LENGTH, QUILL_ERR_INPUT_RANGE or
 * QUILL_ERR_BAD_SIGNATURE for an invalid one; QUILL_ERR_DIGEST_LENGTH or
 * QUILL_ERR_SALT_LENGTH (salt_len < -1) for bad arguments.  Public data
 * only: variable time. */
QUILL_MUST_CHECK quill_err quill_rsa_pss_verify(const quill_rsa_key *key, const uint8_t *sig,
                                                size_t sig_len, const quill_hash *md,
                                                const quill_hash *mgf1, const uint8_t *digest,
                                                size_t digest_len, long salt_len);

#endif
