/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_verify_cache: the per-key verification cache of quill's EC keys
 * (provider/ec_key.h vcache) through EVP.  Repeated verification with one
 * key (first call without a table, later ones with it) must give the
 * default provider's verdicts on valid and corrupted signatures; so must a
 * dup'd key (its own empty cache), also after the original is freed; a key
 * whose public point is replaced must drop the old table; and N threads
 * (4, or the first argument or $QUILL_TEST_THREADS: 32 in the
 * ThreadSanitizer stage, test/tsan_ci.sh) verifying with one fresh shared
 * key race to build and publish its table.
 * Meant to run under the sanitizer build too (double free, leaks). */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "ec_evp.h"
#include "qt_evp.h"
#include "qt_threads.h"
#include "test_util.h"

#define N_SIGS 24
#define N_THREADS_DEFAULT 4
#define N_ROUNDS 3

static OSSL_LIB_CTX *libctx;

typedef struct sigcase {
    uint8_t msg[40];
    uint8_t sig[80];
    size_t sig_len;
    int valid;
} sigcase;

/* Signs N_SIGS messages with key (quill); every second signature gets a
 * flipped bit.  Returns 1 on success. */
static int make_sigs(sigcase *c, EVP_PKEY *key, unsigned seed) {
    for (int i = 0; i < N_SIGS; i++) {
        for (size_t j = 0; j < sizeof(c[i].msg); j++)
            c[i].msg[j] = (uint8_t)(seed * 29 + (unsigned)i * 7 + j);
        c[i].sig_len = sizeof(c[i].sig);
        if (!ect_sign(libctx, ECT_QUILL, key, "SHA256", c[i].msg, sizeof(c[i].msg), ECT_ONESHOT,
                      1, c[i].sig, &c[i].sig_len, NULL))
            return 0;
        c[i].valid = i % 2 == 0;
        if (!c[i].valid)
            c[i].sig[c[i].sig_len - 1 - (size_t)(i % 20)] ^= 0x04;
    }
    return 1;
}

/* Verifies every case with quill (served by quill) and checks the verdict;
 * returns the number of mismatches. */
static int verify_all(EVP_PKEY *key, const sigcase *c) {
    int bad = 0;
    for (int i = 0; i < N_SIGS; i++) {
        const OSSL_PROVIDER *served = NULL;
        int v = ect_verify(libctx, ECT_QUILL, key, "SHA256", c[i].msg, sizeof(c[i].msg),
                           ECT_ONESHOT, c[i].sig, c[i].sig_len, &served);
        if (v != c[i].valid || !ect_is_quill(served))
            bad++;
    }
    ERR_clear_error();
    return bad;
}

static sigcase sigs_a[N_SIGS], sigs_b[N_SIGS];

static void test_sequence(EVP_PKEY *a, EVP_PKEY *b) {
    /* Each case verified three times in a row: the key's first
     * verification has no table, the second builds it, later ones use it. */
    for (int i = 0; i < N_SIGS; i++)
        for (int r = 0; r < 3; r++) {
            int v = ect_verify(libctx, ECT_QUILL, a, "SHA256", sigs_a[i].msg,
                               sizeof(sigs_a[i].msg), ECT_STREAMED, sigs_a[i].sig,
                               sigs_a[i].sig_len, NULL);
            QT_CHECK(v == sigs_a[i].valid);
            /* the default provider agrees */
            QT_CHECK(ect_verify(libctx, ECT_DEFAULT, a, "SHA256", sigs_a[i].msg,
                                sizeof(sigs_a[i].msg), ECT_ONESHOT, sigs_a[i].sig,
                                sigs_a[i].sig_len, NULL) == sigs_a[i].valid);
        }
    ERR_clear_error();
    QT_CHECK(verify_all(a, sigs_a) == 0);
    /* b's valid signatures fail under a */
    for (int i = 0; i < N_SIGS; i += 2)
        QT_CHECK(ect_verify(libctx, ECT_QUILL, a, "SHA256", sigs_b[i].msg, sizeof(sigs_b[i].msg),
                            ECT_ONESHOT, sigs_b[i].sig, sigs_b[i].sig_len, NULL) == 0);
    ERR_clear_error();
    (void)b;
}

static void test_dup(EVP_PKEY *a) {
    EVP_PKEY *d = EVP_PKEY_dup(a);
    QT_CHECK(d != NULL);
    if (d == NULL)
        return;
    QT_CHECK(verify_all(d, sigs_a) == 0);
    QT_CHECK(verify_all(a, sigs_a) == 0);
    /* the dup outlives the original (and its table) */
    EVP_PKEY_free(a);
    QT_CHECK(verify_all(d, sigs_a) == 0);
    QT_CHECK(verify_all(d, sigs_a) == 0);
    /* a public-only copy made through todata/fromdata */
    EVP_PKEY *p = ect_key_copy(libctx, ECT_QUILL, d, EVP_PKEY_PUBLIC_KEY);
    QT_CHECK(p != NULL);
    if (p != NULL) {
        QT_CHECK(verify_all(p, sigs_a) == 0);
        QT_CHECK(verify_all(p, sigs_a) == 0);
        EVP_PKEY_free(p);
    }
    EVP_PKEY_free(d);
}

/* A key whose point is replaced (set_params "encoded-pub-key") after its
 * table was built verifies under the new point only. */
static void test_replace_pub(EVP_PKEY *b) {
    EVP_PKEY *k = ect_key_copy(libctx, ECT_QUILL, b, EVP_PKEY_PUBLIC_KEY);
    EVP_PKEY *a2 = ect_keygen(libctx, ECT_QUILL, "P-256");
    sigcase fresh[N_SIGS];
    QT_CHECK(k != NULL && a2 != NULL);
    if (k == NULL || a2 == NULL) {
        EVP_PKEY_free(k);
        EVP_PKEY_free(a2);
        return;
    }
    QT_CHECK(make_sigs(fresh, a2, 7));
    QT_CHECK(verify_all(k, sigs_b) == 0);
    QT_CHECK(verify_all(k, sigs_b) == 0); /* with b's table */
    uint8_t enc[65];
    size_t len = 0;
    QT_CHECK(EVP_PKEY_get_octet_string_param(a2, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, enc,
                                             sizeof(enc), &len) == 1);
    QT_CHECK(EVP_PKEY_set1_encoded_public_key(k, enc, len) == 1);
    QT_CHECK(verify_all(k, fresh) == 0);
    QT_CHECK(verify_all(k, fresh) == 0);
    for (int i = 0; i < N_SIGS; i += 2) /* b's valid signatures now fail */
        QT_CHECK(ect_verify(libctx, ECT_QUILL, k, "SHA256", sigs_b[i].msg, sizeof(sigs_b[i].msg),
                            ECT_ONESHOT, sigs_b[i].sig, sigs_b[i].sig_len, NULL) == 0);
    ERR_clear_error();
    EVP_PKEY_free(k);
    EVP_PKEY_free(a2);
}

static EVP_PKEY *shared_key;
static pthread_barrier_t barrier;

typedef struct worker {
    pthread_t thread;
    unsigned long checks, failures;
} worker;

static void *run(void *arg) {
    worker *w = arg;
    pthread_barrier_wait(&barrier);
    for (int r = 0; r < N_ROUNDS; r++) {
        w->checks++;
        if (verify_all(shared_key, sigs_b) != 0)
            w->failures++;
    }
    OPENSSL_thread_stop_ex(libctx);
    OPENSSL_thread_stop();
    return NULL;
}

static void test_threads(EVP_PKEY *b, unsigned n) {
    worker *w = calloc(n, sizeof(*w));
    QT_CHECK(w != NULL);
    if (w == NULL)
        return;
    /* A fresh copy of b, verified once (so every thread's first call finds
     * no table and tries to build one). */
    shared_key = ect_key_copy(libctx, ECT_QUILL, b, EVP_PKEY_PUBLIC_KEY);
    QT_CHECK(shared_key != NULL);
    if (shared_key == NULL) {
        free(w);
        return;
    }
    QT_CHECK(ect_verify(libctx, ECT_QUILL, shared_key, "SHA256", sigs_b[0].msg,
                        sizeof(sigs_b[0].msg), ECT_ONESHOT, sigs_b[0].sig, sigs_b[0].sig_len,
                        NULL) == 1);
    QT_CHECK(pthread_barrier_init(&barrier, NULL, n) == 0);
    for (unsigned i = 0; i < n; i++)
        QT_CHECK(pthread_create(&w[i].thread, NULL, run, &w[i]) == 0);
    for (unsigned i = 0; i < n; i++) {
        QT_CHECK(pthread_join(w[i].thread, NULL) == 0);
        QT_CHECK(w[i].checks == N_ROUNDS && w[i].failures == 0);
    }
    pthread_barrier_destroy(&barrier);
    EVP_PKEY_free(shared_key);
    printf("ec_verify_cache: %u threads, %lu verifications of one shared key\n", n,
           (unsigned long)n * N_ROUNDS * N_SIGS);
    free(w);
}

int main(int argc, char **argv) {
    unsigned n = qt_threads_count(argc, argv, N_THREADS_DEFAULT);
    if (n == 0)
        return 1;
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    EVP_PKEY *a = ect_keygen(libctx, ECT_QUILL, "P-256");
    EVP_PKEY *b = ect_keygen(libctx, ECT_QUILL, "P-256");
    QT_CHECK(a != NULL && b != NULL);
    if (a != NULL && b != NULL && make_sigs(sigs_a, a, 1) && make_sigs(sigs_b, b, 2)) {
        test_sequence(a, b);
        test_replace_pub(b);
        test_threads(b, n);
        test_dup(a); /* frees a */
        a = NULL;
    } else {
        QT_CHECK(0);
    }
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    qt_libctx_free(libctx, def, quill);
    return qt_finish("ec_verify_cache");
}
