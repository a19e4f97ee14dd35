/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * probe_median: the median of n timings (sorted in place), shared by the
 * instruction probes (quill-mont-probe, quill-p256-probe). */
#ifndef QUILL_BENCH_PROBE_MEDIAN_H
#define QUILL_BENCH_PROBE_MEDIAN_H

#include <stdlib.h>

static int probe_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), probe_cmp_double);
    return v[n / 2];
}

#endif
