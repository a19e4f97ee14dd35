/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_speed: microseconds per operation of the ML-DSA core for the three
 * parameter sets: key generation from a seed (including the precomputation
 * the key carries), key from an encoded public key, signing (hedged, the
 * rejection loop averaged over a fixed set of 128 messages) and
 * verification.  Timing tool, not a test.
 *
 * Each operation runs a fixed workload (32 seeds, or the 128 messages) in
 * rounds; the per-operation thread CPU time of the fastest round and of the
 * median round is printed.  The fastest round is the figure to compare when
 * other jobs share the cores (their interference only adds time).
 * Usage: mldsa_speed [rounds] (default 15). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mldsa/mldsa.h"
#include "test_util.h"

#define NSEEDS 32
#define NMSGS 128

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int g_rounds = 15;
static int g_fail;

static void report(const char *set, const char *op, double *t, unsigned per_round) {
    qsort(t, (size_t)g_rounds, sizeof(double), cmp_double);
    printf("%-10s %-9s %9.2f us/op best %9.2f us/op median\n", set, op,
           t[0] * 1e6 / per_round, t[g_rounds / 2] * 1e6 / per_round);
}

int main(int argc, char **argv) {
    if (argc > 1)
        g_rounds = atoi(argv[1]);
    if (g_rounds < 1 || g_rounds > 1000)
        g_rounds = 15;
    static const char *names[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
    double *t = calloc((size_t)g_rounds, sizeof(double));
    static uint8_t seeds[NSEEDS][32], mus[NMSGS][64], rnds[NMSGS][32];
    static uint8_t sigs[NMSGS][QUILL_MLDSA_MAX_SIG_BYTES];
    if (t == NULL)
        return 1;
    qt_rng_seed(1);
    qt_rng_bytes(seeds, sizeof(seeds));
    qt_rng_bytes(mus, sizeof(mus));
    qt_rng_bytes(rnds, sizeof(rnds));
    for (int s = 0; s < 3; s++) {
        quill_mldsa_set set = (quill_mldsa_set)s;
        const size_t pl = quill_mldsa_pub_bytes(set), sl = quill_mldsa_sig_bytes(set);
        quill_mldsa_key *key = NULL, *pub = NULL;
        if (quill_mldsa_key_from_seed(&key, set, seeds[0]) != QUILL_OK ||
            quill_mldsa_key_from_pub(&pub, set, quill_mldsa_key_pub(key), pl) != QUILL_OK)
            return 1;
        for (int r = 0; r < g_rounds; r++) {
            double c0 = cpu_now();
            for (int i = 0; i < NSEEDS; i++) {
                quill_mldsa_key *k = NULL;
                g_fail |= quill_mldsa_key_from_seed(&k, set, seeds[i]) != QUILL_OK;
                quill_mldsa_key_free(k);
            }
            t[r] = cpu_now() - c0;
        }
        report(names[s], "keygen", t, NSEEDS);
        for (int r = 0; r < g_rounds; r++) {
            double c0 = cpu_now();
            for (int i = 0; i < NSEEDS; i++) {
                quill_mldsa_key *k = NULL;
                g_fail |= quill_mldsa_key_from_pub(&k, set, quill_mldsa_key_pub(key), pl) != QUILL_OK;
                quill_mldsa_key_free(k);
            }
            t[r] = cpu_now() - c0;
        }
        report(names[s], "pub-load", t, NSEEDS);
        for (int r = 0; r < g_rounds; r++) {
            double c0 = cpu_now();
            for (int i = 0; i < NMSGS; i++)
                g_fail |= quill_mldsa_sign_mu(key, mus[i], rnds[i], sigs[i], sl) != QUILL_OK;
            t[r] = cpu_now() - c0;
        }
        report(names[s], "sign", t, NMSGS);
        for (int r = 0; r < g_rounds; r++) {
            double c0 = cpu_now();
            for (int i = 0; i < NMSGS; i++)
                g_fail |= quill_mldsa_verify_mu(pub, mus[i], sigs[i], sl) != QUILL_OK;
            t[r] = cpu_now() - c0;
        }
        report(names[s], "verify", t, NMSGS);
        quill_mldsa_key_free(key);
        quill_mldsa_key_free(pub);
    }
    free(t);
    if (g_fail)
        fprintf(stderr, "mldsa_speed: an operation failed\n");
    return g_fail;
}
