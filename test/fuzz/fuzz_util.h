/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers shared by the EVP-level libFuzzer harnesses (fuzz_fromdata,
 * fuzz_decoder, fuzz_mldsa_mu): the library contexts, the mutation
 * language their inputs use, the seed-corpus mode, and reference
 * computations done with OpenSSL's default provider only. */
#ifndef QUILL_FUZZ_UTIL_H
#define QUILL_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

/* The contexts every harness uses, made by quill_fuzz_init: |both| has the
 * default provider and quill (quill.so from $OPENSSL_MODULES), |dflt| the
 * default provider alone (the reference).  Aborts if quill cannot load. */
extern OSSL_LIB_CTX *quill_fuzz_both;
extern OSSL_LIB_CTX *quill_fuzz_dflt;
void quill_fuzz_init(void);

/* Mutations: an input carries a list of 4-byte operations (op, offset hi,
 * offset lo, value) applied in order to a valid starting encoding of
 * *len bytes in |buf| (capacity |cap|), offsets taken modulo the current
 * length (plus one for an insertion):
 *   op % 4 == 0: xor the byte at offset with value;
 *   op % 4 == 1: truncate to offset bytes;
 *   op % 4 == 2: insert value at offset (if there is room);
 *   op % 4 == 3: set the byte at offset to value.
 * A trailing partial operation is ignored.  Returns the number of input
 * bytes consumed (a multiple of 4).  The differential verification
 * harnesses speak another language (fz_mutate, fuzz_sigcmp.h): this one
 * edits inside a structure (insert, overwrite, cut at any offset), theirs
 * pads or strips a signature at either end and counts the changes for
 * their oracle; neither covers the other, and one language for both would
 * change what every saved input of one family means. */
size_t quill_fuzz_mutate(uint8_t *buf, size_t *len, size_t cap, const uint8_t *ops, size_t nops);

/* Seed-corpus mode: if QUILL_FUZZ_SEED_CORPUS names a directory, the
 * harness's LLVMFuzzerInitialize writes its starting inputs there with
 * quill_fuzz_seed_write and exits (status 0).  quill_fuzz_seed_mode, called
 * at the end of LLVMFuzzerInitialize, does that with |write| (given the
 * directory); it returns only when the variable is unset or empty. */
void quill_fuzz_seed_mode(void (*write)(const char *dir));
void quill_fuzz_seed_write(const char *dir, const char *name, unsigned idx, const uint8_t *data,
                           size_t len);

/* SHAKE256 through the default provider (|dflt|): out = SHAKE256(a || b || c, outlen). */
void quill_fuzz_shake256(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen,
                         const uint8_t *b, size_t blen, const uint8_t *c, size_t clen);

/* The reference ML-DSA mu (FIPS 204, Algorithms 3 and 8) computed with the
 * default provider's SHAKE256: tr = H(pk, 64), mu = H(tr || M', 64), where
 * M' = |mprime| when |pure| is 0, else 0 || len(ctx) || ctx || |mprime|. */
void quill_fuzz_mldsa_mu_ref(uint8_t mu[64], const uint8_t *pub, size_t publen, int pure,
                             const uint8_t *ctx, size_t ctxlen, const uint8_t *mprime,
                             size_t mlen);

/* An octet-string key parameter, or 0 (with *len = 0) if absent. */
int quill_fuzz_get_octets(const EVP_PKEY *pk, const char *name, uint8_t *buf, size_t cap,
                          size_t *len);

/* Name of the provider that holds |pk|'s key ("quill", "default"). */
const char *quill_fuzz_provider_of(const EVP_PKEY *pk);

/* Signs |msg| with |pk| using the signature of provider |prov| ("quill" or
 * "default") in |ctx| (one-shot EVP_DigestSign with |md|, NULL for none).
 * Returns the length, 0 on failure (the error queue is cleared). */
size_t quill_fuzz_sign(OSSL_LIB_CTX *ctx, EVP_PKEY *pk, const char *prov, const char *md,
                       const uint8_t *msg, size_t mlen, uint8_t *sig, size_t cap);

/* Verifies likewise: 1 valid, 0 not (errors cleared). */
int quill_fuzz_verify(OSSL_LIB_CTX *ctx, EVP_PKEY *pk, const char *prov, const char *md,
                      const uint8_t *msg, size_t mlen, const uint8_t *sig, size_t slen);

/* Fixed start-up keys, made with the default provider alone (never with
 * quill), the same in every run so that saved inputs reproduce:
 * quill_fuzz_rsa_fixed fills out[8] with n, e, d, p, q, dp, dq, qinv of a
 * |bits|-bit key whose primes are the first ones above fixed SHAKE256
 * outputs (BN_check_prime), e = 65537; quill_fuzz_ec_fixed writes a fixed
 * P-256 scalar (32 bytes) and its point (65 bytes, uncompressed). */
void quill_fuzz_rsa_fixed(int bits, BIGNUM *out[8]);
void quill_fuzz_ec_fixed(uint8_t priv[32], uint8_t pub[65]);

/* priv * G on P-256 as 65 uncompressed bytes by OpenSSL's EC_POINT_mul;
 * 0 if priv is not in [1, n-1]. */
int quill_fuzz_p256_mul_base(const BIGNUM *priv, uint8_t out[65]);

/* With QUILL_FUZZ_TRACE set, prints one line per checked input (what was
 * accepted, verdicts) to stderr, to see that the oracles are exercised. */
void quill_fuzz_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Aborts with a one-line reason on stderr (libFuzzer then saves the input). */
void quill_fuzz_fail(const char *why) __attribute__((noreturn));

#endif
