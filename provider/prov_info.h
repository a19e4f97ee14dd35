/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * What the provider says about itself beyond name, version and status: its
 * buildinfo with the CPU backends, and the parameters of info_params.h.
 * Filled once in OSSL_provider_init, read-only afterwards (the counters are
 * read from the statistics at each call). */
#ifndef QUILL_PROV_INFO_H
#define QUILL_PROV_INFO_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h>

#include "info_params.h"
#include "stats.h"

#define QUILL_PROV_INFO_PATH_MAX 4096

typedef struct quill_prov_info {
    char backends[128];
    char buildinfo[256];
    char module_path[QUILL_PROV_INFO_PATH_MAX]; /* "" if unknown */
} quill_prov_info;

/* The gettable entries of the parameters quill_prov_info_get_params
 * answers, for the provider's gettable table (buildinfo is listed there
 * already). */
#define QUILL_PROV_INFO_GETTABLE                                                           \
    OSSL_PARAM_DEFN(QUILL_PARAM_MODULE_PATH, OSSL_PARAM_UTF8_PTR, NULL, 0),                \
        OSSL_PARAM_DEFN(QUILL_PARAM_BACKENDS, OSSL_PARAM_UTF8_PTR, NULL, 0),               \
        OSSL_PARAM_DEFN(QUILL_PARAM_COUNTERS, OSSL_PARAM_UTF8_STRING, NULL, 0)

/* quill_prov_info_init fills |info|: the backends from core's
 * backend_names.h, the buildinfo (QUILL_PROV_BUILDINFO and the backends),
 * the module's path from dladdr() or, failing that, the core's
 * "module-filename" through |core_get_params| (may be NULL).  Cannot fail:
 * an unknown path is left empty. */
void quill_prov_info_init(quill_prov_info *info, const OSSL_CORE_HANDLE *handle,
                          OSSL_FUNC_core_get_params_fn *core_get_params);

/* quill_prov_info_get_params answers OSSL_PROV_PARAM_BUILDINFO and the
 * parameters of info_params.h found in |params| (the strings as pointers or
 * into the caller's buffers; the counters from |stats| into a buffer only).
 * Returns 0 if one of them cannot be set (wrong type, buffer too small),
 * else 1; other parameters are left alone. */
int quill_prov_info_get_params(const quill_prov_info *info, const quill_stats *stats,
                               OSSL_PARAM params[]);

#endif
