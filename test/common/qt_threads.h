/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The threads harness of the EVP suites (rsa_threads, ec_threads,
 * mldsa_threads, ec_verify_cache): start N workers on one function, join
 * them, and fold what each counted into the suite's totals (test_util.h).
 * A worker counts its own checks (QT_W_CHECK) because QT_CHECK's counters
 * are not synchronised.  The number of threads is the suite's first
 * argument or $QUILL_TEST_THREADS (qt_threads_count): the ThreadSanitizer
 * stage runs 32 (test/tsan_ci.sh). */
#ifndef QUILL_QT_THREADS_H
#define QUILL_QT_THREADS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/provider.h>

typedef struct qt_worker {
    pthread_t thread;
    unsigned id;        /* 0 .. n-1 */
    uint64_t rng;       /* this worker's generator (qt_worker_u64) */
    unsigned long ops;  /* operations done, counted by the worker */
    unsigned long signs, keygens; /* made by quill: what its counters must show */
    unsigned long checks, failures;
    void (*fn)(struct qt_worker *w);
} qt_worker;

/* QT_W_CHECK is QT_CHECK for a worker: records a failure with its location
 * and the worker's id, and goes on. */
#define QT_W_CHECK(w, cond)                                                               \
    do {                                                                                  \
        (w)->checks++;                                                                    \
        if (!(cond)) {                                                                    \
            (w)->failures++;                                                              \
            fprintf(stderr, "thread %u: %s:%d: check failed: %s\n", (w)->id, __FILE__,    \
                    __LINE__, #cond);                                                     \
        }                                                                                 \
    } while (0)

/* qt_worker_u64 returns the next value of the worker's own generator
 * (splitmix64, seeded by qt_threads_run). */
uint64_t qt_worker_u64(qt_worker *w);

/* qt_threads_run runs |fn| on |n| threads at once (worker i has id i and
 * its generator seeded with seed + i), waits for all of them, adds their
 * checks and failures to qt_checked and qt_failed, prints the operation
 * count and the time taken under |suite|'s name, and returns the sum of
 * the workers' ops.  A thread that cannot be created is a failure: no more
 * are started, and those already running are waited for. */
unsigned long qt_threads_run(const char *suite, unsigned n, void (*fn)(qt_worker *w),
                             uint64_t seed);

/* The quill signatures and key generations the workers of the last
 * qt_threads_run counted (the sums of their signs and keygens). */
extern unsigned long qt_threads_signs, qt_threads_keygens;

/* Most threads a suite may be asked for. */
#define QT_MAX_THREADS 256

/* qt_threads_count returns how many threads the suite runs: argv[1] if
 * given, else $QUILL_TEST_THREADS if set and non-empty, else |dflt|.  A
 * value that is not a whole number in [1, QT_MAX_THREADS] is reported on
 * standard error and gives 0 (the suite then fails). */
unsigned qt_threads_count(int argc, char **argv, unsigned dflt);

/* qt_quill_counter returns quill's operation counter |name| ("rsa-sign",
 * "ecdsa-sign", "mldsa-keygen", ...; provider/stats.h) from its provider
 * parameter "quill-counters", or UINT64_MAX if it cannot be read.  Safe
 * while other threads use the provider. */
uint64_t qt_quill_counter(OSSL_PROVIDER *quill, const char *name);

/* Quill's sign and key-generation counters read before a qt_threads_run
 * (qt_counts_begin), and checked after it (qt_counts_check): each must have
 * grown by exactly what the workers counted (qt_threads_signs,
 * qt_threads_keygens), and both must be readable. */
typedef struct qt_counts {
    OSSL_PROVIDER *quill;
    const char *sign, *keygen; /* counter names: "rsa-sign", "rsa-keygen" */
    uint64_t signs, keygens;
} qt_counts;
qt_counts qt_counts_begin(OSSL_PROVIDER *quill, const char *sign, const char *keygen);
void qt_counts_check(const qt_counts *before);

/* qt_counters_watch is for one worker to call now and then while the
 * others sign: it reads quill's counter |name| and checks that it has not
 * gone down since the value in *last, which it updates. */
void qt_counters_watch(qt_worker *w, OSSL_PROVIDER *quill, const char *name, uint64_t *last);

#endif
