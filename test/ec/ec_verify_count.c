/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_verify_count: a driver for counting the instructions of one ECDSA
 * P-256 verification with a key used once (the one-shot path: no per-key
 * table), under valgrind --tool=callgrind.  Not a test.  Each measured step
 * is a function of its own, so that callgrind's inclusive cost of that
 * function divided by the count printed is the cost of one operation:
 *
 *   ec_verify_count core [N]      vc_core_verify: quill_ecdsa_p256_verify
 *                                 (core, no cache) on N distinct keys and
 *                                 signatures
 *   ec_verify_count quill [N]     default + quill (?quill.sig=yes), N keys
 *   ec_verify_count default [N]   default provider alone, N keys
 *   ec_verify_count time [N]      not for callgrind: TSC ticks of
 *       vc_evp_init + vc_evp_verify + vc_evp_free with a freshly decoded
 *       key (decoding not timed), quill's context and the default
 *       provider's alternating in one process, N keys x 20 rounds; prints
 *       the medians and their ratio
 *       vc_evp_decode   d2i_PUBKEY_ex of the key's SubjectPublicKeyInfo
 *       vc_evp_init     EVP_MD_CTX_new + EVP_DigestVerifyInit_ex (SHA-256)
 *       vc_evp_verify   EVP_DigestVerify of a 64-byte message
 *       vc_evp_free     EVP_MD_CTX_free + EVP_PKEY_free
 *
 * e.g. QUILL_CPU_MASK=0x30 OPENSSL_MODULES=build valgrind --tool=callgrind
 *      --callgrind-out-file=cg.out build/ec_verify_count core 32
 *      callgrind_annotate --inclusive=yes cg.out | grep vc_
 * valgrind's CPUID is a Haswell's: BMI2 without ADX, though it executes
 * ADCX and ADOX.  So that callgrind can count quill's ADX level, this
 * driver adds ADX to BMI2 in the static core's CPU word (quill_cpu_word,
 * before any other use) when QUILL_VC_ASSUME_ADX=1; QUILL_CPU_MASK still
 * applies.  Only the core mode sees it: quill.so probes on its own.
 * Keys, messages and signatures come from a fixed seed: two runs (before
 * and after a change) verify the same signatures.  Every verification must
 * succeed (exit status 1 otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "ec/ecdsa.h"
#include "ec_evp.h"
#include "qt_evp.h"
#include "test_util.h"

#include "common/cpu.h"
#include "ec_count_main.h"
#include "qt_assume_adx.h"

#define MAX_N 256

#define NOINLINE __attribute__((noinline))

typedef struct vc_case {
    uint8_t spki[128];
    int spki_len;
    uint8_t msg[64];
    uint8_t sig[80];
    size_t sig_len;
    uint8_t digest[32];
    uint8_t raw[64]; /* r || s */
    quill_p256_public pub;
} vc_case;

static vc_case cases[MAX_N];

NOINLINE static int vc_core_verify(const vc_case *c) {
    return quill_ecdsa_p256_verify(&c->pub, c->digest, sizeof(c->digest), c->raw) == QUILL_OK;
}

NOINLINE static EVP_PKEY *vc_evp_decode(OSSL_LIB_CTX *ctx, const vc_case *c) {
    const unsigned char *p = c->spki;
    return d2i_PUBKEY_ex(NULL, &p, c->spki_len, ctx, NULL);
}

NOINLINE static EVP_MD_CTX *vc_evp_init(OSSL_LIB_CTX *ctx, EVP_PKEY *key) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m != NULL && EVP_DigestVerifyInit_ex(m, NULL, "SHA256", ctx, NULL, key, NULL) != 1) {
        EVP_MD_CTX_free(m);
        m = NULL;
    }
    return m;
}

NOINLINE static int vc_evp_verify(EVP_MD_CTX *m, const vc_case *c) {
    return EVP_DigestVerify(m, c->sig, c->sig_len, c->msg, sizeof(c->msg)) == 1;
}

NOINLINE static void vc_evp_free(EVP_MD_CTX *m, EVP_PKEY *key) {
    EVP_MD_CTX_free(m);
    EVP_PKEY_free(key);
}

/* Keys and signatures made by the default provider, so that both contexts
 * verify the same inputs. */
static int make_cases(int n) {
    for (int i = 0; i < n; i++) {
        vc_case *c = &cases[i];
        EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        unsigned char *p = c->spki;
        qt_rng_bytes(c->msg, sizeof(c->msg));
        c->sig_len = sizeof(c->sig);
        if (k == NULL || m == NULL || EVP_DigestSignInit(m, NULL, EVP_sha256(), NULL, k) != 1 ||
            EVP_DigestSign(m, c->sig, &c->sig_len, c->msg, sizeof(c->msg)) != 1 ||
            i2d_PUBKEY(k, NULL) > (int)sizeof(c->spki) || (c->spki_len = i2d_PUBKEY(k, &p)) <= 0 ||
            !ect_der_to_p1363(c->sig, c->sig_len, c->raw) ||
            EVP_Digest(c->msg, sizeof(c->msg), c->digest, NULL, EVP_sha256(), NULL) != 1 ||
            quill_p256_public_decode(&c->pub, c->spki + c->spki_len - 65, 65) != QUILL_OK) {
            ERR_print_errors_fp(stderr);
            return 0;
        }
        EVP_MD_CTX_free(m);
        EVP_PKEY_free(k);
    }
    return 1;
}

/* |propq| is not used: the context's default properties choose (quill's
 * signatures preferred in quill's context). */
static int run_evp(OSSL_LIB_CTX *ctx, const char *propq, int n) {
    (void)propq;
    for (int i = 0; i < n; i++) {
        EVP_PKEY *key = vc_evp_decode(ctx, &cases[i]);
        EVP_MD_CTX *m = key != NULL ? vc_evp_init(ctx, key) : NULL;
        int ok = m != NULL && vc_evp_verify(m, &cases[i]);
        vc_evp_free(m, key);
        if (!ok) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "verification %d failed\n", i);
            return 0;
        }
    }
    return 1;
}

#if defined(__x86_64__)
/* Ticks of one fresh-key verification after decoding (init, verify,
 * free); 0 on failure. */
static uint64_t time_one(OSSL_LIB_CTX *ctx, const vc_case *c) {
    EVP_PKEY *key = vc_evp_decode(ctx, c);
    if (key == NULL)
        return 0;
    const uint64_t t0 = __rdtsc();
    EVP_MD_CTX *m = vc_evp_init(ctx, key);
    const int ok = m != NULL && vc_evp_verify(m, c);
    vc_evp_free(m, NULL);
    const uint64_t t1 = __rdtsc();
    EVP_PKEY_free(key);
    return ok ? t1 - t0 : 0;
}

static int run_time(OSSL_LIB_CTX *qctx, OSSL_LIB_CTX *dctx, int n) {
    enum { ROUNDS = 20 };
    static uint64_t tq[MAX_N * ROUNDS], td[MAX_N * ROUNDS];
    int k = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < n; i++, k++) {
            tq[k] = time_one(qctx, &cases[i]);
            td[k] = time_one(dctx, &cases[i]);
            if (tq[k] == 0 || td[k] == 0)
                return 0;
        }
    const uint64_t mq = ect_median_u64(tq, (size_t)k), md = ect_median_u64(td, (size_t)k);
    printf("fresh-key init+verify+free, TSC ticks, median of %d: quill %llu, default %llu, "
           "ratio %.2f\n",
           k, (unsigned long long)mq, (unsigned long long)md, (double)md / (double)mq);
    return 1;
}
#endif

static int run_core(int n) {
    int ok = 1;
    for (int i = 0; i < n && ok; i++)
        ok = vc_core_verify(&cases[i]);
    return ok;
}

int main(int argc, char **argv) {
    static const ect_count_modes modes = {run_core, run_evp, ECT_COUNT_TIME(run_time)};
    const char *mode;
    int n;
    if (!ect_count_args(argc, argv, "ec_verify_count", MAX_N, &mode, &n))
        return 2;
    qt_assume_adx("QUILL_VC_ASSUME_ADX");
    qt_rng_seed(7);
    if (!make_cases(n))
        return 1;
    const int ok = ect_count_run(&modes, mode, n);
    if (ok < 0)
        return 2;
    printf("%s: %d verifications %s\n", mode, n, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
