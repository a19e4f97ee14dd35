/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Shared by the differential signature-verification harnesses
 * (fuzz_rsa_verify.c, fuzz_ecdsa_verify.c): one library context with the
 * default provider and quill loaded, each operation fetched with
 * "provider=quill" or "provider=default", a reader over the fuzz input,
 * fuzz-chosen mutations of a buffer, and the checks that quill really
 * served its side (the provider behind each operation context, and quill's
 * own operation counters, provider/info_params.h). */
#ifndef QUILL_FUZZ_SIGCMP_H
#define QUILL_FUZZ_SIGCMP_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#define FZ_QUILL "provider=quill"
#define FZ_DEFAULT "provider=default"

/* The library context and the two providers, set by fz_init. */
extern OSSL_LIB_CTX *fz_libctx;
extern OSSL_PROVIDER *fz_prov_quill, *fz_prov_default;

/* fz_init creates fz_libctx and loads both providers (quill.so from
 * $OPENSSL_MODULES if set); aborts on failure.  |harness| names the caller
 * in the summary printed at exit (fz_stats). */
void fz_init(const char *harness);

/* fz_fail prints "<harness>: DISAGREEMENT: <message>" and what follows to
 * stderr, the OpenSSL error queue, and aborts (libFuzzer then saves the
 * input as a crash). */
__attribute__((noreturn, format(printf, 1, 2))) void fz_fail(const char *fmt, ...);

/* fz_counter returns quill's counter |name| ("rsa-verify",
 * "ecdsa-verify"...) from its QUILL_PARAM_COUNTERS provider parameter;
 * aborts if it cannot be read. */
uint64_t fz_counter(const char *name);

/* fz_check_served aborts unless |pctx| runs on |want| (a side was fetched
 * with a property query that must select that provider). */
void fz_check_served(const EVP_PKEY_CTX *pctx, const OSSL_PROVIDER *want, const char *what);

/* Per-run tallies, printed at exit: inputs, and per side how often the
 * operation was set up (served), accepted, refused at set-up; inputs
 * skipped as a known divergence (the harness says which). */
typedef struct fz_tally {
    unsigned long inputs, served[2], accepted[2], setup_failed[2], both_accept, genuine;
    unsigned long known_divergence; /* skipped as a known, reported difference */
    unsigned long quill_declined_keys; /* keys in the input quill did not import */
} fz_tally;
extern fz_tally fz_stats;

/* fz_record counts one input's verdicts res[0] (quill) and res[1]
 * (default) in fz_stats: 1 accepted, 0 refused, -1 refused at set-up, -2
 * not run (quill declined the key).  It fails unless quill's counter
 * |counter| moved from |before| to |after| by one exactly when quill
 * accepted. */
void fz_record(const int res[2], const char *counter, uint64_t before, uint64_t after);

/* A reader over the fuzz input: bytes past the end read as zero. */
typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

uint8_t fz_u8(fz_in *in);
size_t fz_u16(fz_in *in);
/* fz_take returns up to |want| bytes (fewer at the end), *got their count. */
const uint8_t *fz_take(fz_in *in, size_t want, size_t *got);

/* fz_mutate applies the rest of |in| to buf[0..*len) (capacity |cap|):
 * (offset hi, offset lo, xor) triples, then, if one or two bytes are left
 * over, a length change from the first: bit 7 set: drop ((t & 0x3f) + 1)
 * bytes from the end (bit 6 clear) or the front (bit 6 set); bit 7 clear:
 * add ((t & 0x3f) + 1) zero bytes at the end (bit 6 clear) or the front
 * (bit 6 set).  Returns the number of changes made (0: unchanged).  Not
 * quill_fuzz_mutate's language (fuzz_util.h): see there why. */
unsigned fz_mutate(uint8_t *buf, size_t *len, size_t cap, fz_in *in);

/* fz_tbs writes what EVP_PKEY_sign / verify / verify_recover take to tbs:
 * the |md| digest of msg (computed by the default provider), or msg itself
 * when md is NULL.  Returns its length, 0 if the digest failed. */
size_t fz_tbs(const char *md, const uint8_t *msg, size_t msg_len, uint8_t *tbs);

/* fz_chunk returns the size of the next streaming chunk (1..remaining)
 * from a small generator seeded by |*state|. */
size_t fz_chunk(unsigned *state, size_t remaining);

/* fz_digest_verify finishes a verification on |m|, set up by
 * EVP_DigestVerifyInit_ex: in one shot (EVP_DigestVerify), or with
 * |streaming| set in EVP_DigestVerifyUpdate chunks of fz_chunk's sizes
 * from |chunk_seed|, then EVP_DigestVerifyFinal.  Returns 1 if the
 * signature verified, else 0. */
int fz_digest_verify(EVP_MD_CTX *m, int streaming, unsigned chunk_seed, const uint8_t *sig,
                     size_t sig_len, const uint8_t *msg, size_t msg_len);

#endif
