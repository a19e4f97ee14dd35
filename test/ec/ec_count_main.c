/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  See ec_count_main.h. */
#include "ec_count_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/provider.h>

#include "qt_evp.h"
#include "test_util.h"

int ect_count_args(int argc, char **argv, const char *prog, int max_n, const char **mode,
                   int *n) {
    *mode = argc > 1 ? argv[1] : "core";
    *n = argc > 2 ? atoi(argv[2]) : 32;
    if (*n < 1 || *n > max_n) {
        fprintf(stderr, "usage: %s core|quill|default|time [1..%d]\n", prog, max_n);
        return 0;
    }
    return 1;
}

/* A library context with the default provider alone; free it with
 * qt_libctx_free(ctx, *def, NULL). */
static OSSL_LIB_CTX *default_libctx_new(OSSL_PROVIDER **def) {
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    *def = ctx != NULL ? OSSL_PROVIDER_load(ctx, "default") : NULL;
    return ctx;
}

int ect_count_run(const ect_count_modes *m, const char *mode, int n) {
    OSSL_PROVIDER *def = NULL, *quill = NULL, *ddef = NULL;
    OSSL_LIB_CTX *qctx, *dctx;
    int ok;
    if (strcmp(mode, "core") == 0)
        return m->core(n);
    if (strcmp(mode, "quill") == 0) {
        qctx = qt_evp_libctx_new(&def, &quill);
        ok = qctx != NULL && m->evp(qctx, "provider=quill", n);
        qt_libctx_free(qctx, def, quill);
        return ok;
    }
    if (strcmp(mode, "default") == 0) {
        dctx = default_libctx_new(&ddef);
        ok = ddef != NULL && m->evp(dctx, "provider=default", n);
        qt_libctx_free(dctx, ddef, NULL);
        return ok;
    }
    if (strcmp(mode, "time") == 0 && m->time != NULL) {
        qctx = qt_evp_libctx_new(&def, &quill);
        dctx = default_libctx_new(&ddef);
        ok = qctx != NULL && ddef != NULL && m->time(qctx, dctx, n);
        qt_libctx_free(dctx, ddef, NULL);
        qt_libctx_free(qctx, def, quill);
        return ok;
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return -1;
}

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t ect_median_u64(uint64_t *v, size_t n) {
    qsort(v, n, sizeof(v[0]), cmp_u64);
    return v[n / 2];
}
