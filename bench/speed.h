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
 * RSA 2048 signing rate, measured in turn with each such row's rounds.
 *
 * Application rows (TLS 1.3 handshakes, fresh-key verification) are not
 * bound to a provider by a property query: they run as an application
 * configured with openssl.cnf.example would, in two library contexts made
 * for the row (speed_app), one with the default provider alone and one with
 * default + quill and the default properties "?quill.sig=yes"; quill's own
 * counters for its context are checked at the end of the row. */
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
 * algorithm (see above); ops is the set of speed_kind bits (SPEED_OP) it
 * offers. */
typedef struct speed_alg {
    const char *id;    /* filter name prefix, e.g. "rsa2048" */
    const char *label; /* human name, e.g. "RSA 2048" */
    const char *keytype;
    size_t bits;
    const char *group;
    const char *md;
    const char *pad_mode;
    int quill_only;
    unsigned ops;
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

/* The operations.  SPEED_VERIFY_FRESH and SPEED_HANDSHAKE are application
 * rows (see above): a verification with a key decoded from its
 * SubjectPublicKeyInfo for that one use (as in every TLS handshake), and a
 * full TLS 1.3 handshake (speed_tls). */
typedef enum speed_kind {
    SPEED_SIGN,
    SPEED_VERIFY,
    SPEED_KEYGEN,
    SPEED_VERIFY_FRESH,
    SPEED_HANDSHAKE,
    SPEED_KIND_COUNT
} speed_kind;

#define SPEED_OP(kind) (1u << (kind))
#define SPEED_OPS_SIG (SPEED_OP(SPEED_SIGN) | SPEED_OP(SPEED_VERIFY) | SPEED_OP(SPEED_KEYGEN))

/* speed_kind_name returns "sign", "verify", "keygen", "verify-fresh" or
 * "handshake"; speed_kind_phrase the BoringSSL-style words ("signing",
 * "verify", "key generation", "fresh-key verify", "full handshake"). */
const char *speed_kind_name(speed_kind kind);
const char *speed_kind_phrase(speed_kind kind);

/* speed_kind_is_app returns 1 for the application rows. */
int speed_kind_is_app(speed_kind kind);

/* speed_op_name writes the filter name of |kind| of |alg|: "<id>-<kind>",
 * or for a handshake the id alone ("tls13-p256"). */
void speed_op_name(char *buf, size_t len, const speed_alg *alg, speed_kind kind);

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

/* speed_fixed_input writes the fixed input that |alg| signs: bytes of
 * the size of alg->md's output (fetched from |libctx|), or a 64-byte
 * message.  Returns 0 if it does not fit |cap|. */
int speed_fixed_input(OSSL_LIB_CTX *libctx, const speed_alg *alg, uint8_t *tbs, size_t cap,
                      size_t *len);

/* speed_provider_load loads provider |name| into |libctx| (quill_speed.c);
 * on failure it says so on stderr, naming the module path |modules|, with
 * OpenSSL's errors, and returns NULL. */
OSSL_PROVIDER *speed_provider_load(OSSL_LIB_CTX *libctx, const char *name, const char *modules);

/* ---- Application library contexts (speed_app.c) ---- */

/* speed_now_ns reads CLOCK_MONOTONIC in nanoseconds. */
uint64_t speed_now_ns(void);

enum { SPEED_APP_DEFAULT, SPEED_APP_QUILL, SPEED_APP_N };

/* quill's operation counters for one library context, as quill writes them
 * at its teardown (provider/stats.h). */
typedef struct speed_counts {
    int valid; /* 0: no counter line was found */
    unsigned long rsa_sign, rsa_verify, ecdsa_sign, ecdsa_verify;
    unsigned long others; /* every other counter, summed (keygen, ML-DSA) */
} speed_counts;

/* speed_app is the pair of library contexts of one application row:
 * libctx[SPEED_APP_DEFAULT] with the default provider alone, and
 * libctx[SPEED_APP_QUILL] with default + quill and the default properties
 * "?quill.sig=yes" (what openssl.cnf.example configures).  Everything in
 * them is fetched with a NULL property query, as an application does. */
typedef struct speed_app {
    OSSL_LIB_CTX *libctx[SPEED_APP_N];
    OSSL_PROVIDER *loaded[3];
    char stats_path[256]; /* where quill's context writes its counters */
    char *saved_stats;    /* the caller's $QUILL_STATS, restored at close */
    int stats_set;
} speed_app;

/* speed_app_open makes the two contexts, quill.so taken from |modules|.
 * While they live, $QUILL_STATS names a temporary file, so that quill's
 * context reports its counters there at teardown; the caller's value is
 * restored by speed_app_close (and quill's line appended to the caller's
 * file, if it named one).  It also checks that RSA and ECDSA signatures
 * fetched with a NULL query resolve to quill in the quill context and to
 * the default provider in the other.  Returns 0 (said on stderr) on
 * failure; speed_app_close must be called either way. */
int speed_app_open(speed_app *app, const char *modules);

/* speed_app_close frees both contexts and fills *quill with the counters
 * quill reported for its context (quill->valid = 0 if none). */
void speed_app_close(speed_app *app, speed_counts *quill);

/* ---- Test PKI (speed_pki.c) ---- */

/* The server's name in its certificate, which the client checks. */
#define SPEED_PKI_HOST "localhost"

/* speed_pki is a CA and a server certificate for one key type, PEM in
 * memory (NUL-terminated): the CA's self-signed certificate (v3,
 * CA:TRUE, keyCertSign), the server certificate (CN and subjectAltName
 * "localhost", serverAuth, digitalSignature) signed by the CA with SHA-256,
 * and the server's private key (PKCS#8). */
typedef struct speed_pki {
    char *ca_cert;
    char *leaf_cert;
    char *leaf_key;
} speed_pki;

/* speed_pki_make generates the CA and server keys of |alg|'s type (RSA
 * alg->bits, or EC alg->group) with the default provider of |libctx| and
 * writes *pki.  Returns 0 (said on stderr) on failure. */
int speed_pki_make(speed_pki *pki, OSSL_LIB_CTX *libctx, const speed_alg *alg);
void speed_pki_free(speed_pki *pki);

/* ---- TLS 1.3 handshakes (speed_tls.c) ---- */

/* Where a handshake's time goes, in nanoseconds, read off the clock at the
 * protocol messages (speed_tls.c explains each interval). */
typedef enum speed_phase {
    SPEED_PH_CLIENT,   /* inside the client's SSL_do_handshake calls */
    SPEED_PH_SERVER,   /* inside the server's */
    SPEED_PH_C_KX,     /* client: ClientHello (X25519 keygen), ServerHello (derive) */
    SPEED_PH_C_CERT,   /* client: the Certificate message, chain verification included */
    SPEED_PH_C_CHAIN,  /* client: X509_verify_cert alone (inside SPEED_PH_C_CERT) */
    SPEED_PH_C_CV,     /* client: the CertificateVerify check with the fresh key */
    SPEED_PH_S_KX,     /* server: ClientHello to EncryptedExtensions (X25519) */
    SPEED_PH_S_SIGN,   /* server: the CertificateVerify signature */
    /* Fresh-key verification rows (speed_fresh.c). */
    SPEED_PH_F_DECODE, /* d2i_PUBKEY_ex */
    SPEED_PH_F_VERIFY, /* EVP_PKEY_CTX, verify_init, the verification, frees */
    SPEED_PH_COUNT
} speed_phase;

typedef struct speed_phases {
    uint64_t ns[SPEED_PH_COUNT];
} speed_phases;

/* A server and a client SSL_CTX on one library context. */
typedef struct speed_tls speed_tls;

/* speed_tls_new makes them with SSL_CTX_new_ex(libctx, NULL, ...): TLS 1.3
 * only, X25519 only, no session cache and no tickets; the server's
 * certificate and key decoded from |pki|'s PEM in |libctx|; the client
 * trusts |pki|'s CA (decoded in |libctx| too), verifies the server's chain
 * (SSL_VERIFY_PEER) and its name ("localhost").  NULL (said on stderr) on
 * failure. */
speed_tls *speed_tls_new(OSSL_LIB_CTX *libctx, const speed_pki *pki);

/* speed_tls_handshake runs one full handshake between fresh SSL objects
 * over a memory BIO pair and adds its phase times to *acc.  Returns 0 if it
 * failed. */
int speed_tls_handshake(speed_tls *t, speed_phases *acc);

/* speed_tls_check runs one handshake and checks what it negotiated: TLS
 * 1.3, X25519, no resumption, the chain verified (X509_V_OK), the server
 * signature scheme of |alg| (RSA-PSS or ECDSA, with SHA-256).  With
 * |negative| it also checks that a client without the CA, and one expecting
 * another name, are refused (two more handshakes that the server signs:
 * only where nothing is counted).  Returns 1 if all holds. */
int speed_tls_check(speed_tls *t, const speed_alg *alg, int negative);

void speed_tls_free(speed_tls *t);

/* ---- Fresh-key verification (speed_fresh.c) ---- */

typedef struct speed_fresh speed_fresh;

/* speed_fresh_new prepares the verification of |sig| over |alg|'s fixed
 * input with a public key decoded, on every run, from |spki| (DER
 * SubjectPublicKeyInfo) in |libctx| with a NULL query.  It runs once and
 * checks that the signature verifies and that provider |expect| served it.
 * NULL (said on stderr) on failure. */
speed_fresh *speed_fresh_new(OSSL_LIB_CTX *libctx, const char *expect, const speed_alg *alg,
                             const uint8_t *spki, size_t spki_len, const uint8_t *sig,
                             size_t sig_len);

/* speed_fresh_run decodes the key, verifies once and frees the key, adding
 * the times of the decoding and of the rest to acc (SPEED_PH_F_DECODE,
 * SPEED_PH_F_VERIFY); returns 1 if the signature verified. */
int speed_fresh_run(speed_fresh *f, speed_phases *acc);

void speed_fresh_free(speed_fresh *f);

/* ---- CPU levels (speed_level.c) ---- */

/* speed_level is the CPU level both providers run at: "native" (every
 * feature the CPU has, no mask), "avx2" (x86-64: AVX-512 masked on both
 * sides, QUILL_CPU_MASK=0x30 and OPENSSL_ia32cap=":~0xD0230000"), "bmi2"
 * (ADX masked too, as on Haswell: 0x32 and ":~0xD02B0000"), "x86_64"
 * (also AVX2, BMI1, BMI2 and ADX masked: QUILL_CPU_MASK=0x3f and
 * OPENSSL_ia32cap=":~0xD02B0128"), or, without --level, "custom" when the
 * environment carries masks that are none of these. */
typedef struct speed_level {
    char name[16];
    const char *what;   /* one line for people */
    char quill_mask[32]; /* QUILL_CPU_MASK in effect, "" for none */
    char ia32cap[64];    /* OPENSSL_ia32cap in effect, "" for none */
    /* 1 if this CPU has a feature the level masks, 0 if the level runs as
     * native here, -1 if unknown ("custom"). */
    int differs;
} speed_level;

/* speed_level_select fills *lv for --level |name| (NULL: none given, the
 * level is named after what the environment holds).  When the environment
 * lacks the level's masks it sets them (and QUILL_SPEED_LEVEL=name, the
 * guard against a loop) and re-executes /proc/self/exe with |argv|, not
 * returning; masks the user set that differ from the level's are refused.
 * Returns 1 to go on, 0 for a usage error (an unknown name, an x86-64 level
 * on another architecture, conflicting masks: one line said on stderr), -1
 * if the re-execution failed (said on stderr). */
int speed_level_select(speed_level *lv, const char *name, char **argv);

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
    /* Application rows: the extras below (NULL for the others). */
    struct speed_app_row *app;
} speed_row;

/* What an application row adds: for handshakes the phase times of each
 * round (index 0 the default context, 1 quill's), and for every such row
 * quill's counters for its context against the operations run there. */
typedef struct speed_app_row {
    speed_phases phases[2][SPEED_MAX_ROUNDS];
    speed_counts counts;
    unsigned long want_sign, want_verify; /* what quill must have counted */
    int confirmed;                        /* counts == wants */
} speed_app_row;

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

/* speed_print_phases prints the per-operation times of an application
 * row's median round on context |which| (SPEED_APP_DEFAULT or
 * SPEED_APP_QUILL): a handshake's split, or a fresh-key verification's
 * decoding and verification. */
void speed_print_phases(FILE *out, const speed_row *row, int which);

/* speed_print_summary prints the table (and, if handshakes were measured,
 * their time split); |portable| adds the quill_portable columns. */
void speed_print_summary(FILE *out, const speed_row *rows, size_t count, int portable);

typedef struct speed_meta {
    const char *cpu;
    const char *openssl;
    const char *quill_version;
    size_t rounds;
    double seconds;
    int portable; /* quill_portable was measured (--portable) */
    const speed_level *level;
    const char *quill_backends; /* quill's "quill-backends" parameter, or "unknown" */
    /* quill's "quill-declined" parameter (provider/decline.h): "none", or
     * the families quill leaves to the default provider on this CPU. */
    const char *quill_declined;
    /* Operations selected but skipped because quill lacks the algorithm. */
    const char *const *skipped;
    size_t nskipped;
} speed_meta;

/* speed_print_level prints the header lines on the CPU level: its name,
 * both masks in effect, quill's backends, the families quill declines on
 * this CPU (their quill rows are n/a), and when the level masks nothing
 * this CPU has, one line saying so. */
void speed_print_level(FILE *out, const speed_meta *meta);

/* speed_write_json writes every row as JSON; returns 1 on success. */
int speed_write_json(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count);

/* speed_write_svg draws the summary as an SVG picture (speed_svg.c): a bar
 * per provider and operation on a log scale, ratios beside quill's bars.
 * Returns 1 on success. */
int speed_write_svg(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count);

#endif
