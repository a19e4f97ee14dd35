/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * probe_median: the median of n timings, shared by the instruction probes
 * (quill-mont-probe, quill-p256-probe) and the A/B programs (ab_timing.h). */
#ifndef QUILL_BENCH_PROBE_MEDIAN_H
#define QUILL_BENCH_PROBE_MEDIAN_H

#include <stdlib.h>

static int probe_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median sorts the n timings of v in place and returns the median,
 * v[n / 2]; v[0] is then the minimum. */
static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), probe_cmp_double);
    return v[n / 2];
}

#endif
