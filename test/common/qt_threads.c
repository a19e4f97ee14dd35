/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "qt_threads.h"

#include <stdlib.h>

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
    unsigned long ops = 0;
    for (unsigned i = 0; i < started; i++) {
        QT_CHECK(pthread_join(w[i].thread, NULL) == 0);
        qt_checked += w[i].checks;
        qt_failed += w[i].failures;
        ops += w[i].ops;
    }
    printf("%s: %u threads, %lu operations in %.2f s\n", suite, started, ops, qt_now() - t0);
    free(w);
    return ops;
}
