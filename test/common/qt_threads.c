/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "qt_threads.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "test_util.h"

uint64_t qt_worker_u64(qt_worker *w) {
    uint64_t z = (w->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void *start(void *arg) {
    qt_worker *w = arg;
    w->fn(w);
    return NULL;
}

unsigned long qt_threads_run(const char *suite, unsigned n, void (*fn)(qt_worker *w),
                             uint64_t seed) {
    qt_worker *w = calloc(n, sizeof(*w));
    QT_CHECK(w != NULL);
    if (w == NULL)
        return 0;
    double t0 = qt_now();
    unsigned started = 0;
    for (unsigned i = 0; i < n; i++) {
        w[i].id = i;
        w[i].rng = seed + i;
        w[i].fn = fn;
        if (pthread_create(&w[i].thread, NULL, start, &w[i]) != 0)
            break;
        started++;
    }
    QT_CHECK(started == n);
    unsigned long ops = 0, signs = 0, keygens = 0;
    for (unsigned i = 0; i < started; i++) {
        QT_CHECK(pthread_join(w[i].thread, NULL) == 0);
        qt_checked += w[i].checks;
        qt_failed += w[i].failures;
        ops += w[i].ops;
        signs += w[i].signs;
        keygens += w[i].keygens;
    }
    printf("%s: %u threads, %lu operations (%lu signatures, %lu key generations by quill) "
           "in %.2f s\n",
           suite, started, ops, signs, keygens, qt_now() - t0);
    qt_threads_signs = signs;
    qt_threads_keygens = keygens;
    free(w);
    return ops;
}

unsigned long qt_threads_signs, qt_threads_keygens;

unsigned qt_threads_count(int argc, char **argv, unsigned dflt) {
    const char *v = argc > 1 ? argv[1] : getenv("QUILL_TEST_THREADS");
    const char *what = argc > 1 ? "argument" : "QUILL_TEST_THREADS";
    if (v == NULL || *v == '\0')
        return dflt;
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno != 0 || *end != '\0' || v[0] < '0' || v[0] > '9' || n < 1 || n > QT_MAX_THREADS) {
        fprintf(stderr, "threads %s \"%s\": want a number from 1 to %d\n", what, v,
                QT_MAX_THREADS);
        return 0;
    }
    return (unsigned)n;
}

uint64_t qt_quill_counter(OSSL_PROVIDER *quill, const char *name) {
    char line[512];
    OSSL_PARAM params[] = {OSSL_PARAM_utf8_string("quill-counters", line, sizeof(line)),
                           OSSL_PARAM_END};
    if (quill == NULL || !OSSL_PROVIDER_get_params(quill, params))
        return UINT64_MAX;
    /* "pid=N rsa-sign=N ..." */
    size_t nl = strlen(name);
    for (const char *p = line; (p = strstr(p, name)) != NULL; p += nl) {
        if ((p == line || p[-1] == ' ') && p[nl] == '=')
            return strtoull(p + nl + 1, NULL, 10);
    }
    return UINT64_MAX;
}

void qt_counters_watch(qt_worker *w, OSSL_PROVIDER *quill, const char *name, uint64_t *last) {
    uint64_t v = qt_quill_counter(quill, name);
    QT_W_CHECK(w, v != UINT64_MAX && v >= *last);
    if (v != UINT64_MAX)
        *last = v;
}

qt_counts qt_counts_begin(OSSL_PROVIDER *quill, const char *sign, const char *keygen) {
    qt_counts c = {quill, sign, keygen, qt_quill_counter(quill, sign),
                   qt_quill_counter(quill, keygen)};
    return c;
}

void qt_counts_check(const qt_counts *before) {
    uint64_t signs = qt_quill_counter(before->quill, before->sign);
    uint64_t keygens = qt_quill_counter(before->quill, before->keygen);
    QT_CHECK(before->signs != UINT64_MAX && signs != UINT64_MAX &&
             signs - before->signs == qt_threads_signs);
    QT_CHECK(before->keygens != UINT64_MAX && keygens != UINT64_MAX &&
             keygens - before->keygens == qt_threads_keygens);
}
