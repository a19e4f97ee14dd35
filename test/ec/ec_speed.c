/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_speed: times quill's ECDSA P-256 sign and verify (core, portable C)
 * against OpenSSL's default provider (EVP_PKEY_sign / EVP_PKEY_verify over
 * a SHA-256 digest; x86-64 assembly on this machine).  Not a test.
 * Times are process CPU time, so that other load on the machine affects
 * both sides alike.  Usage: ec_speed [seconds-per-measurement, default 1] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "ec/ecdsa.h"
#include "ec/ecdsa_der.h"
#include "ec_hash.h"
#include "test_util.h"

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int rng_fill(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    qt_rng_bytes(out, len);
    return 1;
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    quill_rng rng = {rng_fill, NULL};
    quill_hash h = {32, ect_evp_digest, (void *)EVP_sha256(), 64, 1};
    uint8_t priv[32], dg[32], sig[64], der[80];
    size_t derlen;
    quill_p256_public pub;
    qt_rng_seed(1);
    qt_rng_bytes(dg, sizeof(dg));
    if (quill_p256_keygen(priv, &pub, &rng) != QUILL_OK)
        return 1;

    EVP_PKEY *pk = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    EVP_PKEY_CTX *sc = EVP_PKEY_CTX_new(pk, NULL), *vc = EVP_PKEY_CTX_new(pk, NULL);
    if (pk == NULL || sc == NULL || vc == NULL || EVP_PKEY_sign_init(sc) != 1 ||
        EVP_PKEY_verify_init(vc) != 1)
        return 1;

    /* Each measurement runs for secs / ROUNDS, alternating between quill
     * and OpenSSL, ROUNDS times; the best rate of each is kept, so that
     * bursts of load from other processes do not decide the ratio. */
    enum { ROUNDS = 5 };
    double t0, t;
    long n;
    double q_sign = 0, q_ver = 0, q_kg = 0, o_sign = 0, o_ver = 0;
#define TIME(var, stmt)                                                                          \
    do {                                                                                         \
        n = 0;                                                                                   \
        t0 = cpu_now();                                                                          \
        do {                                                                                     \
            for (int i_ = 0; i_ < 20; i_++) {                                                    \
                stmt;                                                                            \
            }                                                                                    \
            n += 20;                                                                             \
        } while ((t = cpu_now() - t0) < secs / ROUNDS);                                          \
        if (n / t > var)                                                                         \
            var = n / t;                                                                         \
    } while (0)

    for (int round = 0; round < ROUNDS; round++) {
        TIME(q_sign, if (quill_ecdsa_p256_sign(sig, priv, dg, 32, &h, QUILL_ECDSA_NONCE_HEDGED,
                                               &rng) != QUILL_OK) return 1);
        TIME(o_sign, derlen = sizeof(der);
             if (EVP_PKEY_sign(sc, der, &derlen, dg, 32) != 1) return 1);
        TIME(q_ver, if (quill_ecdsa_p256_verify(&pub, dg, 32, sig) != QUILL_OK) return 1);
        TIME(o_ver, if (EVP_PKEY_verify(vc, der, derlen, dg, 32) != 1) return 1);
    }
    TIME(q_kg, if (quill_p256_keygen(priv, &pub, &rng) != QUILL_OK) return 1);

    printf("ECDSA P-256 (ops/s)       quill     OpenSSL   ratio\n");
    printf("sign (hedged, SHA-256)  %8.0f  %8.0f   %.2fx\n", q_sign, o_sign, q_sign / o_sign);
    printf("verify                  %8.0f  %8.0f   %.2fx\n", q_ver, o_ver, q_ver / o_ver);
    printf("keygen                  %8.0f\n", q_kg);
    EVP_PKEY_CTX_free(sc);
    EVP_PKEY_CTX_free(vc);
    EVP_PKEY_free(pk);
    return 0;
}
