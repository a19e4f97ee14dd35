/* Copyright quill authors.
 *
 * mldsa_speed: microseconds per operation of the ML-DSA core for the three
 * parameter sets: key generation from a seed (including the precomputation
 * the key carries), key from an encoded public key, signing (hedged, on
 * fresh random mu, averaged over the rejection loop) and verification.
 * Timing tool, not a test.  Usage: mldsa_speed [seconds per measurement].
 * Reports thread CPU time per operation (robust when other jobs share the
 * cores) and wall time. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mldsa/mldsa.h"
#include "test_util.h"

static double g_secs = 0.5;

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define MEASURE(label, body)                                                   \
    do {                                                                       \
        unsigned long n_ = 0;                                                  \
        double t0_ = qt_now(), c0_ = cpu_now(), t_;                            \
        do {                                                                   \
            for (int r_ = 0; r_ < 16; r_++) {                                  \
                body;                                                          \
            }                                                                  \
            n_ += 16;                                                          \
            t_ = qt_now() - t0_;                                               \
        } while (t_ < g_secs);                                                 \
        double c_ = cpu_now() - c0_;                                           \
        printf("  %-10s %9.2f us/op cpu %9.2f us/op wall (%lu ops)\n", label,  \
               c_ * 1e6 / (double)n_, t_ * 1e6 / (double)n_, n_);              \
    } while (0)

int main(int argc, char **argv) {
    if (argc > 1)
        g_secs = atof(argv[1]);
    static const char *names[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
    qt_rng_seed(1);
    int fail = 0;
    for (int s = 0; s < 3; s++) {
        quill_mldsa_set set = (quill_mldsa_set)s;
        uint8_t seed[32], mu[64], rnd[32], sig[QUILL_MLDSA_MAX_SIG_BYTES];
        quill_mldsa_key *key = NULL, *pub = NULL;
        qt_rng_bytes(seed, sizeof(seed));
        if (quill_mldsa_key_from_seed(&key, set, seed) != QUILL_OK ||
            quill_mldsa_key_from_pub(&pub, set, quill_mldsa_key_pub(key),
                                     quill_mldsa_pub_bytes(set)) != QUILL_OK)
            return 1;
        printf("%s\n", names[s]);
        MEASURE("keygen", {
            quill_mldsa_key *k = NULL;
            seed[0]++;
            fail |= quill_mldsa_key_from_seed(&k, set, seed) != QUILL_OK;
            quill_mldsa_key_free(k);
        });
        MEASURE("pub-load", {
            quill_mldsa_key *k = NULL;
            fail |= quill_mldsa_key_from_pub(&k, set, quill_mldsa_key_pub(key),
                                             quill_mldsa_pub_bytes(set)) != QUILL_OK;
            quill_mldsa_key_free(k);
        });
        MEASURE("sign", {
            qt_rng_bytes(mu, sizeof(mu));
            qt_rng_bytes(rnd, sizeof(rnd));
            fail |= quill_mldsa_sign_mu(key, mu, rnd, sig, sizeof(sig)) != QUILL_OK;
        });
        MEASURE("verify", {
            fail |= quill_mldsa_verify_mu(pub, mu, sig, quill_mldsa_sig_bytes(set)) != QUILL_OK;
        });
        quill_mldsa_key_free(key);
        quill_mldsa_key_free(pub);
    }
    if (fail)
        fprintf(stderr, "mldsa_speed: an operation failed\n");
    return fail;
}
