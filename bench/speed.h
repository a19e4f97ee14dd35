/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-speed: measures each signature algorithm on OpenSSL's default
 * provider and on quill, in turns, in one process and one library context;
 * with --portable also on quill_portable.so (quill over its portable C core),
 * which lives in a second library context (see speed_prov).
 *
 * An algorithm is one speed_alg table entry (quill_speed.c); it yields three
 * operations (sign, verify, keygen), each run through plain EVP with the
 * fetch property query "provider=<name>" so that exactly one provider serves
 * it.  Nothing here is secret: the keys are throw-away benchmark keys.
 *
 * Algorithms only quill implements (ML-DSA: OpenSSL 3.0's default provider
 * has none) run on quill alone.  Their keys come from quill, their
 * signatures are checked by quill's own verification (there is no second
 * implementation in the process), and instead of a ratio to the default
 * provider they are compared with a yardstick: the default provider's
 * RSA 2048 signing rate, measured in turn with each such row's rounds. */
#ifndef QUILL_BENCH_SPEED_H
#define QUILL_BENCH_SPEED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/evp.h>

/* speed_alg describes one algorithm.  keytype is the EVP key type name;
 * bits (RSA modulus size) and group (EC curve) are keygen parameters, 0 or
 * NULL when the algorithm has none; md is the digest whose output is signed
 * with EVP_PKEY_sign (as `openssl speed` does), NULL to sign a fixed 64-byte
 * message with EVP_DigestSign and no digest (ML-DSA); pad_mode is the RSA
 * "pad-mode" or NULL; quill_only is 1 when the default provider lacks the
 * algorithm (see above). */
typedef struct speed_alg {
    const char *id;    /* filter name prefix, e.g. "rsa2048" */
    const char *label; /* human name, e.g. "RSA 2048" */
    const char *keytype;
    size_t bits;
    const char *group;
    const char *md;
    const char *pad_mode;
    int quill_only;
} speed_alg;

/* speed_prov is one provider under test.  |name| is the module it was loaded
 * as, which every operation is checked to be served by; |fetch| is the name
 * its algorithms carry in their "provider=" property, used in every fetch.
 * The two differ for quill_portable.so: it is quill.so's provider code, whose
 * algorithms say "provider=quill", so it is loaded into a library context of
 * its own (with the default provider for digests and randomness) where that
 * query can only find it; in quill's context it would make "provider=quill"
 * ambiguous. */
typedef struct speed_prov {
    const char *label; /* as printed: "default", "quill", "quill-portable" */
    const char *name;
    const char *fetch;
    OSSL_LIB_CTX *libctx;
} speed_prov;

typedef enum speed_kind { SPEED_SIGN, SPEED_VERIFY, SPEED_KEYGEN, SPEED_KIND_COUNT } speed_kind;

/* speed_kind_name returns "sign", "verify" or "keygen"; speed_kind_phrase the
 * BoringSSL-style words ("signing", "verify", "key generation"). */
const char *speed_kind_name(speed_kind kind);
const char *speed_kind_phrase(speed_kind kind);

/* speed_key_make generates the benchmark key of |alg| with provider |prov|
 * (the default provider, or quill for quill-only algorithms).  Returns NULL
 * (with OpenSSL errors printed) on failure. */
EVP_PKEY *speed_key_make(const speed_prov *prov, const speed_alg *alg);

/* speed_prov_has returns 1 if |prov| offers both the key management and the
 * signature of |alg|. */
int speed_prov_has(const speed_prov *prov, const speed_alg *alg);

/* speed_key_import copies |key| (a key pair, possibly from another library
 * context) into the key management of |prov| so that the operation under
 * test needs no export.  Returns NULL if that provider cannot hold the key. */
EVP_PKEY *speed_key_import(const speed_prov *prov, const EVP_PKEY *key);

/* One operation bound to one provider, ready to be repeated. */
typedef struct speed_impl speed_impl;

/* speed_impl_new prepares |kind| of |alg| on provider |prov| (which must
 * outlive it): for sign and verify |key| must be a key held by |prov| and
 * |ref_sig| a valid signature (verify only) of the fixed input; for keygen
 * key and ref_sig are unused.  It runs the operation once, checks its result
 * and that |prov| served it.  Returns NULL (and says why on stderr) if the
 * provider cannot do it. */
speed_impl *speed_impl_new(const speed_prov *prov, const speed_alg *alg, speed_kind kind,
                           EVP_PKEY *key, const uint8_t *ref_sig, size_t ref_sig_len);

/* speed_impl_run performs the operation once; returns 1, or 0 if it failed
 * (a wrong result included: a verify that does not return 1). */
int speed_impl_run(speed_impl *impl);

void speed_impl_free(speed_impl *impl);

/* speed_impl_reinits returns 1 if each run re-initialises its EVP_MD_CTX
 * (message-signing algorithms on an OpenSSL that refuses a second one-shot
 * call on one context). */
int speed_impl_reinits(const speed_impl *impl);

/* speed_impl_signature returns the signature made by the last run of a sign
 * operation (length in *len). */
const uint8_t *speed_impl_signature(const speed_impl *impl, size_t *len);

/* speed_verify_once checks |sig| over the fixed input with |key| (held by
 * |prov|) on provider |prov|; returns 1 if it verifies. */
int speed_verify_once(const speed_prov *prov, const speed_alg *alg, EVP_PKEY *key,
                      const uint8_t *sig, size_t sig_len);

/* speed_sign_once signs the fixed input with |key| (held by |prov|) on
 * provider |prov|; *sig is malloc'ed.  Returns 1 on success. */
int speed_sign_once(const speed_prov *prov, const speed_alg *alg, EVP_PKEY *key, uint8_t **sig,
                    size_t *sig_len);

/* ---- Results and reporting (speed_report.c) ---- */

#define SPEED_MAX_ROUNDS 64

/* The rounds measured for one operation on one provider. */
typedef struct speed_result {
    int available;     /* 0: the provider could not do it */
    size_t rounds;     /* rounds measured */
    uint64_t iters[SPEED_MAX_ROUNDS];
    uint64_t usec[SPEED_MAX_ROUNDS];
    size_t median;     /* index of the median round (by rate) */
} speed_result;

/* speed_result_rate is iters/seconds of round |i|. */
double speed_result_rate(const speed_result *r, size_t i);
/* speed_result_finish sets r->median. */
void speed_result_finish(speed_result *r);
double speed_result_median_rate(const speed_result *r);

typedef struct speed_row {
    const speed_alg *alg;
    speed_kind kind;
    speed_result def, quill;
    speed_result portable; /* quill_portable.so; unavailable without --portable */
    /* Quill-only rows: the default provider's RSA 2048 signing, measured in
     * turn with the row's own rounds, and its median rate (0 if unknown). */
    speed_result yard;
    double yardstick;
} speed_row;

/* speed_cpu_model returns the "model name" of /proc/cpuinfo in |buf|, or
 * "unknown". */
const char *speed_cpu_model(char *buf, size_t len);

/* speed_print_line prints the BoringSSL-style "Did N ... ops/sec" line for
 * one provider (|prov| is its label); ratio < 0 means none is printed, gain
 * (quill native over portable) < 0 likewise. */
void speed_print_line(FILE *out, const speed_row *row, const char *prov, const speed_result *r,
                      double ratio, double gain);

/* speed_row_ratio is quill's median rate over the default provider's, or
 * -1 if either is unavailable. */
double speed_row_ratio(const speed_row *row);

/* speed_row_yardstick_ratio is quill's median rate over row->yardstick for
 * a quill-only row, or -1 if it has none. */
double speed_row_yardstick_ratio(const speed_row *row);

/* speed_row_portable_ratio is the portable rate over the default
 * provider's, or for a quill-only row over row->yardstick; -1 if either is
 * unavailable. */
double speed_row_portable_ratio(const speed_row *row);

/* speed_row_gain is quill's median rate over quill_portable's (what the
 * native code buys), or -1 if either is unavailable. */
double speed_row_gain(const speed_row *row);

/* speed_print_summary prints the table; |portable| adds the quill_portable
 * columns. */
void speed_print_summary(FILE *out, const speed_row *rows, size_t count, int portable);

typedef struct speed_meta {
    const char *cpu;
    const char *openssl;
    const char *quill_version;
    size_t rounds;
    double seconds;
    int portable; /* quill_portable was measured (--portable) */
    /* Operations selected but skipped because quill lacks the algorithm. */
    const char *const *skipped;
    size_t nskipped;
} speed_meta;

/* speed_write_json writes every row as JSON; returns 1 on success. */
int speed_write_json(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count);

/* speed_write_svg draws the summary as an SVG picture (speed_svg.c): a bar
 * per provider and operation on a log scale, ratios beside quill's bars.
 * Returns 1 on success. */
int speed_write_svg(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count);

#endif
