/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_sign_count: a driver for counting the instructions of P-256 key
 * generation and ECDSA signing under valgrind --tool=callgrind, quill
 * against the default provider in the same driver.  Not a test.  Each
 * measured step is a function of its own, so that callgrind's inclusive
 * cost of that function divided by the count printed is the cost of one
 * operation:
 *
 *   ec_sign_count core [N]     sc_core_keygen: quill_p256_keygen_lazy,
 *                              sc_core_sign: quill_ecdsa_p256_sign (hedged,
 *                              SHA-256 HMAC-DRBG through OpenSSL's EVP), N each
 *   ec_sign_count quill [N]    default + quill (quill preferred), N each of
 *       sc_evp_keygen   EVP_PKEY_generate on a reused EVP_PKEY_CTX (P-256)
 *                       and EVP_PKEY_free of the key, as quill-speed does
 *       sc_evp_sign     EVP_PKEY_sign of a 32-byte digest on a reused
 *                       EVP_PKEY_CTX (ECDSA, SHA-256), as quill-speed does
 *   ec_sign_count default [N]  the same with the default provider alone
 *   ec_sign_count time [N]     not for callgrind: TSC ticks of one
 *       sc_evp_keygen + sc_evp_free and of one sc_evp_sign, quill's
 *       context and the default provider's alternating operation by
 *       operation in one process, N x 50 of each; prints the medians and
 *       the default/quill ratios (a same-process A/B that a loaded machine
 *       disturbs less than rates over fixed intervals)
 *
 * e.g. QUILL_CPU_MASK=0x30 OPENSSL_ia32cap=":~0xD0230000"
 *      OPENSSL_MODULES=build valgrind --tool=callgrind
 *      --callgrind-out-file=cg.out build/test/ec_sign_count quill 32
 *      callgrind_annotate --inclusive=yes cg.out | grep sc_
 * valgrind's CPUID hides ADX: with QUILL_SC_ASSUME_ADX=1 the core mode
 * runs quill's ADX level (qt_assume_adx.h); quill.so probes on its own and
 * runs its BMI2 level under valgrind, so in the EVP modes the cost outside
 * quill_p256_point_mul_base is the figure to read.  Every signature is
 * checked by the default provider (exit status 1 otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "ec/ecdsa.h"
#include "ec/ecdsa_lazy_pub.h"
#include "ec_hash.h"
#include "qt_evp.h"
#include "test_util.h"

#include "common/cpu.h"
#include "ec_count_main.h"
#include "qt_assume_adx.h"

#define MAX_N 1024
#define NOINLINE __attribute__((noinline))

static uint8_t digests[MAX_N][32];

/* The core's randomness for the count: the test RNG (no EVP). */
static int fill_test(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    qt_rng_bytes(out, len);
    return 1;
}

NOINLINE static int sc_core_keygen(uint8_t priv[32], quill_p256_lazy_public *pub,
                                   const quill_rng *rng) {
    return quill_p256_keygen_lazy(priv, pub, rng) == QUILL_OK;
}

NOINLINE static int sc_core_sign(uint8_t sig[64], const uint8_t priv[32], const uint8_t dg[32],
                                 const quill_hash *h, const quill_rng *rng) {
    return quill_ecdsa_p256_sign(sig, priv, dg, 32, h, QUILL_ECDSA_NONCE_HEDGED, rng) == QUILL_OK;
}

static int run_core(int n) {
    quill_hash h;
    quill_rng rng = {fill_test, NULL};
    uint8_t priv[32], sig[64];
    quill_p256_lazy_public pub = {0};
    int ok = ect_hash_init(&h, "SHA256");
    /* One warm-up key and signature outside the counted functions. */
    ok = ok && quill_p256_keygen_lazy(priv, &pub, &rng) == QUILL_OK &&
         quill_ecdsa_p256_sign(sig, priv, digests[0], 32, &h, QUILL_ECDSA_NONCE_HEDGED, &rng) ==
             QUILL_OK;
    for (int i = 0; ok && i < n; i++)
        ok = sc_core_keygen(priv, &pub, &rng);
    for (int i = 0; ok && i < n; i++) {
        quill_p256_public scratch;
        const quill_p256_public *q = quill_p256_lazy_public_get(&pub, &scratch);
        ok = sc_core_sign(sig, priv, digests[i], &h, &rng) && q != NULL &&
             quill_ecdsa_p256_verify(q, digests[i], 32, sig) == QUILL_OK;
    }
    quill_p256_lazy_public_clear(&pub);
    ect_hash_free(&h);
    return ok;
}

NOINLINE static EVP_PKEY *sc_evp_keygen(EVP_PKEY_CTX *g) {
    EVP_PKEY *key = NULL;
    if (EVP_PKEY_generate(g, &key) != 1)
        return NULL;
    return key;
}

NOINLINE static void sc_evp_free(EVP_PKEY *key) {
    EVP_PKEY_free(key);
}

NOINLINE static int sc_evp_sign(EVP_PKEY_CTX *s, uint8_t *sig, size_t *sig_len,
                                const uint8_t dg[32]) {
    return EVP_PKEY_sign(s, sig, sig_len, dg, 32) == 1;
}

/* Keys and signatures through EVP with the provider |propq| selects. */
static int run_evp(OSSL_LIB_CTX *ctx, const char *propq, int n) {
    OSSL_PARAM gp[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0),
                       OSSL_PARAM_END};
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "EC", propq);
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *s = NULL, *v = NULL;
    int ok = g != NULL && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_CTX_set_params(g, gp) == 1;
    /* A warm-up key and signature outside the counted functions: the first
     * draws instantiate the DRBGs (and seed them from the OS). */
    EVP_PKEY *warm = NULL;
    ok = ok && EVP_PKEY_generate(g, &warm) == 1;
    if (ok) {
        EVP_PKEY_CTX *ws = EVP_PKEY_CTX_new_from_pkey(ctx, warm, propq);
        uint8_t sig[80];
        size_t len = sizeof(sig);
        ok = ws != NULL && EVP_PKEY_sign_init(ws) == 1 &&
             EVP_PKEY_CTX_set_signature_md(ws, EVP_sha256()) == 1 &&
             EVP_PKEY_sign(ws, sig, &len, digests[0], 32) == 1;
        EVP_PKEY_CTX_free(ws);
    }
    EVP_PKEY_free(warm);
    for (int i = 0; ok && i < n; i++) {
        EVP_PKEY *k = sc_evp_keygen(g);
        ok = k != NULL;
        sc_evp_free(k);
    }
    ok = ok && EVP_PKEY_generate(g, &key) == 1;
    ok = ok && (s = EVP_PKEY_CTX_new_from_pkey(ctx, key, propq)) != NULL &&
         EVP_PKEY_sign_init(s) == 1 && EVP_PKEY_CTX_set_signature_md(s, EVP_sha256()) == 1;
    /* The check runs on the default provider. */
    ok = ok && (v = EVP_PKEY_CTX_new_from_pkey(ctx, key, "provider=default")) != NULL &&
         EVP_PKEY_verify_init(v) == 1 && EVP_PKEY_CTX_set_signature_md(v, EVP_sha256()) == 1;
    for (int i = 0; ok && i < n; i++) {
        uint8_t sig[80];
        size_t len = sizeof(sig);
        ok = sc_evp_sign(s, sig, &len, digests[i]) &&
             EVP_PKEY_verify(v, sig, len, digests[i], 32) == 1;
    }
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(v);
    EVP_PKEY_CTX_free(s);
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(g);
    return ok;
}

#if defined(__x86_64__)
typedef struct sc_side {
    EVP_PKEY_CTX *g, *s;
    EVP_PKEY *key;
} sc_side;

static int side_init(sc_side *d, OSSL_LIB_CTX *ctx, const char *propq) {
    OSSL_PARAM gp[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0),
                       OSSL_PARAM_END};
    memset(d, 0, sizeof(*d));
    d->g = EVP_PKEY_CTX_new_from_name(ctx, "EC", propq);
    return d->g != NULL && EVP_PKEY_keygen_init(d->g) == 1 &&
           EVP_PKEY_CTX_set_params(d->g, gp) == 1 && EVP_PKEY_generate(d->g, &d->key) == 1 &&
           (d->s = EVP_PKEY_CTX_new_from_pkey(ctx, d->key, propq)) != NULL &&
           EVP_PKEY_sign_init(d->s) == 1 && EVP_PKEY_CTX_set_signature_md(d->s, EVP_sha256()) == 1;
}

static void side_free(sc_side *d) {
    EVP_PKEY_CTX_free(d->s);
    EVP_PKEY_CTX_free(d->g);
    EVP_PKEY_free(d->key);
}

/* Ticks of one key generation (and release) and one signature on d; 0 on
 * failure. */
static int time_side(sc_side *d, const uint8_t dg[32], uint64_t *tk, uint64_t *ts) {
    uint8_t sig[80];
    size_t len = sizeof(sig);
    uint64_t t0 = __rdtsc();
    EVP_PKEY *k = sc_evp_keygen(d->g);
    sc_evp_free(k);
    uint64_t t1 = __rdtsc();
    int ok = k != NULL && sc_evp_sign(d->s, sig, &len, dg);
    uint64_t t2 = __rdtsc();
    *tk = t1 - t0;
    *ts = t2 - t1;
    return ok;
}

static int run_time(OSSL_LIB_CTX *qctx, OSSL_LIB_CTX *dctx, int n) {
    enum { ROUNDS = 50 };
    static uint64_t qk[MAX_N * ROUNDS], qs[MAX_N * ROUNDS], dk[MAX_N * ROUNDS], ds[MAX_N * ROUNDS];
    sc_side q, d;
    int ok = side_init(&q, qctx, "provider=quill") && side_init(&d, dctx, "provider=default");
    int m = 0;
    for (int r = 0; ok && r < ROUNDS; r++)
        for (int i = 0; ok && i < n; i++, m++)
            ok = time_side(&q, digests[i], &qk[m], &qs[m]) &&
                 time_side(&d, digests[i], &dk[m], &ds[m]);
    side_free(&q);
    side_free(&d);
    if (!ok) {
        ERR_print_errors_fp(stderr);
        return 0;
    }
    const uint64_t mqk = ect_median_u64(qk, (size_t)m), mqs = ect_median_u64(qs, (size_t)m);
    const uint64_t mdk = ect_median_u64(dk, (size_t)m), mds = ect_median_u64(ds, (size_t)m);
    printf("TSC ticks, median of %d: keygen+free quill %llu default %llu ratio %.3f; "
           "sign quill %llu default %llu ratio %.3f\n",
           m, (unsigned long long)mqk, (unsigned long long)mdk, (double)mdk / (double)mqk,
           (unsigned long long)mqs, (unsigned long long)mds, (double)mds / (double)mqs);
    return 1;
}
#endif

int main(int argc, char **argv) {
    static const ect_count_modes modes = {run_core, run_evp, ECT_COUNT_TIME(run_time)};
    const char *mode;
    int n;
    if (!ect_count_args(argc, argv, "ec_sign_count", MAX_N, &mode, &n))
        return 2;
    qt_assume_adx("QUILL_SC_ASSUME_ADX");
    qt_rng_seed(11);
    qt_rng_bytes(digests, sizeof(digests));
    const int ok = ect_count_run(&modes, mode, n);
    if (ok < 0)
        return 2;
    printf("%s: %d keys and %d signatures %s\n", mode, n, n, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
