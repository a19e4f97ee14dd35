/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_sign_count: a driver for counting the instructions of RSA PKCS#1 v1.5
 * signatures and verifications (SHA-256 digest) under valgrind
 * --tool=callgrind.  Not a test.  Each measured loop is a function of its
 * own, so that callgrind's inclusive cost of it divided by N is the cost of
 * one operation, and the inclusive costs of the core's functions inside it
 * (quill_mont_exp_consttime_x2, quill_rsa_blinding_get, quill_mont_exp_vartime,
 * ...) and their call counts give the budget of one signature:
 *
 *   rsa_sign_count core KEY.pem [N]     rc_core_sign, rc_core_verify:
 *                                       quill_rsa_pkcs1_sign / _verify
 *   rsa_sign_count default KEY.pem [N]  rc_default_sign, rc_default_verify:
 *                                       EVP_PKEY_sign / _verify on the
 *                                       default provider (contexts made once)
 *   rsa_sign_count time KEY.pem [N]     not for callgrind: the core's and the
 *       default provider's signatures (and verifications) in alternating
 *       rounds of N, each round timed in this thread's CPU time (so that
 *       other processes on a loaded machine do not count), 40 rounds per
 *       side; prints the best round of each and the ratio default/core
 *       (above 1: the core is faster).  With the masks of quill-speed
 *       --level avx2 (QUILL_CPU_MASK=0x30 OPENSSL_ia32cap=":~0xD0230000")
 *       or none (native).  The core path leaves out the provider's glue
 *       (about 600 instructions per signature, callgrind).
 *
 * N defaults to 32, the blinding pair's refresh period on both sides
 * (QUILL_RSA_BLINDING_REFRESH, OpenSSL's BN_BLINDING_COUNTER): one fresh
 * pair per 32 signatures, as in a long run.  Each loop starts after one
 * signature, so the first pair's drawing is not counted.
 *
 * The AVX2 level under valgrind (which hides ADX from CPUID, though it
 * executes ADCX and ADOX, and cannot run AVX-512):
 *   QUILL_CPU_MASK=0x30 QUILL_RC_ASSUME_ADX=1 OPENSSL_ia32cap=":0x000C27AA"
 *     valgrind --tool=callgrind --callgrind-out-file=cg.out
 *     build/rsa_sign_count core KEY.pem 32
 *   callgrind_annotate --inclusive=yes cg.out | grep -E 'rc_|quill_'
 * QUILL_RC_ASSUME_ADX=1 adds ADX beside BMI2 to the static core's CPU word
 * (as ec_verify_count does); OPENSSL_ia32cap=":0x000C27AA" is valgrind's
 * CPUID.(7,0):EBX with ADX (bit 19) added, so that the default provider
 * runs its MULX/ADX bn_mul_mont and sqrx8x code, as at the avx2 level of
 * quill-speed on a real CPU. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "rsa_test_common.h"
#include "test_util.h"

#include "common/cpu.h"
#include "qt_assume_adx.h"

#define NOINLINE __attribute__((noinline))


static uint8_t digest[32], sig[2048];
static size_t sig_len;

NOINLINE static int rc_core_sign(const quill_rsa_key *key, int n) {
    for (int i = 0; i < n; i++)
        if (quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA256, digest, sizeof(digest), &qr_rng) !=
            QUILL_OK)
            return 0;
    return 1;
}

/* The first signature (which draws the first blinding pair), outside the
 * measured loops. */
NOINLINE static int rc_core_first(const quill_rsa_key *key) {
    return quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA256, digest, sizeof(digest), &qr_rng) ==
           QUILL_OK;
}

NOINLINE static int rc_core_verify(const quill_rsa_key *key, int n) {
    for (int i = 0; i < n; i++)
        if (quill_rsa_pkcs1_verify(key, sig, sig_len, QUILL_MD_SHA256, digest, sizeof(digest)) !=
            QUILL_OK)
            return 0;
    return 1;
}

NOINLINE static int rc_default_sign(EVP_PKEY_CTX *ctx, int n) {
    for (int i = 0; i < n; i++) {
        size_t len = sizeof(sig);
        if (EVP_PKEY_sign(ctx, sig, &len, digest, sizeof(digest)) != 1)
            return 0;
        sig_len = len;
    }
    return 1;
}

NOINLINE static int rc_default_first(EVP_PKEY_CTX *ctx) {
    size_t len = sizeof(sig);
    return EVP_PKEY_sign(ctx, sig, &len, digest, sizeof(digest)) == 1;
}

NOINLINE static int rc_default_verify(EVP_PKEY_CTX *ctx, int n) {
    for (int i = 0; i < n; i++)
        if (EVP_PKEY_verify(ctx, sig, sig_len, digest, sizeof(digest)) != 1)
            return 0;
    return 1;
}

static double rc_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define RC_ROUNDS 40

/* The time mode: best CPU time per operation of each side over RC_ROUNDS
 * alternating rounds of n operations.  Returns 1 if every operation
 * succeeded. */
static int rc_time(const quill_rsa_key *key, EVP_PKEY_CTX *s, EVP_PKEY_CTX *v, int n) {
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    for (int r = 0; r < RC_ROUNDS; r++) {
        double t[5];
        t[0] = rc_now();
        if (!rc_core_sign(key, n))
            return 0;
        t[1] = rc_now();
        if (!rc_default_sign(s, n))
            return 0;
        t[2] = rc_now();
        if (!rc_core_verify(key, n))
            return 0;
        t[3] = rc_now();
        if (!rc_default_verify(v, n))
            return 0;
        t[4] = rc_now();
        for (int k = 0; k < 4; k++)
            if ((t[k + 1] - t[k]) / n < best[k])
                best[k] = (t[k + 1] - t[k]) / n;
    }
    printf("sign:   core %.1f us, default %.1f us, default/core %.3f\n", 1e6 * best[0],
           1e6 * best[1], best[1] / best[0]);
    printf("verify: core %.2f us, default %.2f us, default/core %.3f\n", 1e6 * best[2],
           1e6 * best[3], best[3] / best[2]);
    return 1;
}

static EVP_PKEY_CTX *rc_ctx(EVP_PKEY *pkey, int sign) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, NULL);
    if (ctx == NULL || (sign ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx)) != 1 ||
        EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) != 1 ||
        EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) != 1) {
        EVP_PKEY_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "core") != 0 && strcmp(argv[1], "default") != 0 &&
                     strcmp(argv[1], "time") != 0)) {
        fprintf(stderr, "usage: rsa_sign_count core|default|time KEY.pem [N]\n");
        return 2;
    }
    qt_assume_adx("QUILL_RC_ASSUME_ADX");
    int n = argc > 3 ? atoi(argv[3]) : 32;
    if (n < 1)
        n = 1;
    FILE *f = fopen(argv[2], "r");
    EVP_PKEY *pkey = f != NULL ? PEM_read_PrivateKey_ex(f, NULL, NULL, NULL, qr_ctx(), NULL)
                               : NULL;
    if (f != NULL)
        fclose(f);
    if (pkey == NULL) {
        fprintf(stderr, "rsa_sign_count: cannot read an RSA private key from %s\n", argv[2]);
        return 1;
    }
    for (size_t i = 0; i < sizeof(digest); i++)
        digest[i] = (uint8_t)(0x5a + 3 * i);
    int ok = 0;
    if (strcmp(argv[1], "core") == 0) {
        quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
        if (key != NULL) {
            sig_len = quill_rsa_key_size(key);
            ok = rc_core_first(key) && rc_core_sign(key, n) && rc_core_verify(key, n);
        }
        quill_rsa_key_free(key);
    } else if (strcmp(argv[1], "time") == 0) {
        quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
        EVP_PKEY_CTX *s = rc_ctx(pkey, 1), *v = rc_ctx(pkey, 0);
        if (key != NULL && s != NULL && v != NULL) {
            sig_len = quill_rsa_key_size(key);
            ok = rc_core_first(key) && rc_default_first(s) && rc_time(key, s, v, n);
        }
        quill_rsa_key_free(key);
        EVP_PKEY_CTX_free(s);
        EVP_PKEY_CTX_free(v);
    } else {
        EVP_PKEY_CTX *s = rc_ctx(pkey, 1), *v = rc_ctx(pkey, 0);
        ok = s != NULL && v != NULL && rc_default_first(s) &&
             rc_default_sign(s, n) &&
             rc_default_verify(v, n);
        EVP_PKEY_CTX_free(s);
        EVP_PKEY_CTX_free(v);
    }
    EVP_PKEY_free(pkey);
    qr_cleanup();
    if (!ok) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "rsa_sign_count: a signature or verification failed\n");
        return 1;
    }
    printf("rsa_sign_count %s: %d signatures and verifications\n", argv[1], n);
    return 0;
}
