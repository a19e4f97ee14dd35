/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _GNU_SOURCE /* dladdr */

#include "prov_info.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>

#include "common/backend_names.h"
#include "names.h"

/* Copies |path| into |out| made absolute (realpath), or as given if it
 * cannot be resolved; |out| is left empty if it does not fit. */
static void set_path(char out[QUILL_PROV_INFO_PATH_MAX], const char *path) {
    char resolved[PATH_MAX];
    out[0] = '\0';
    if (path == NULL || *path == '\0')
        return;
    if (realpath(path, resolved) != NULL)
        path = resolved;
    if (strlen(path) < QUILL_PROV_INFO_PATH_MAX)
        strcpy(out, path);
}

void quill_prov_info_init(quill_prov_info *info, const OSSL_CORE_HANDLE *handle,
                          OSSL_FUNC_core_get_params_fn *core_get_params) {
    snprintf(info->backends, sizeof(info->backends), "rsa=%s ecdsa-p256=%s mldsa=%s keccak=%s",
             quill_rsa_backend_name(), quill_p256_backend_name(), quill_mldsa_backend_name(),
             quill_keccak_backend_name());
    snprintf(info->buildinfo, sizeof(info->buildinfo), "%s backends: %s", QUILL_PROV_BUILDINFO,
             info->backends);

    /* The file this very function was loaded from. */
    Dl_info dl;
    if (dladdr((void *)(uintptr_t)quill_prov_info_init, &dl) != 0 && dl.dli_fname != NULL &&
        dl.dli_fname[0] != '\0') {
        set_path(info->module_path, dl.dli_fname);
        return;
    }
    info->module_path[0] = '\0';
    if (core_get_params == NULL)
        return;
    const char *name = NULL;
    OSSL_PARAM p[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_CORE_MODULE_FILENAME, (char **)&name, 0),
        OSSL_PARAM_END,
    };
    if (core_get_params(handle, p) && name != NULL)
        set_path(info->module_path, name);
}

/* Sets a constant string as a pointer or into the caller's buffer, as the
 * caller asked. */
static int set_string(OSSL_PARAM *p, const char *value) {
    if (p->data_type == OSSL_PARAM_UTF8_PTR)
        return OSSL_PARAM_set_utf8_ptr(p, value);
    return OSSL_PARAM_set_utf8_string(p, value);
}

int quill_prov_info_get_params(const quill_prov_info *info, const quill_stats *stats,
                               OSSL_PARAM params[]) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
        !set_string(p, info->buildinfo))
        return 0;
    if ((p = OSSL_PARAM_locate(params, QUILL_PARAM_BACKENDS)) != NULL &&
        !set_string(p, info->backends))
        return 0;
    if ((p = OSSL_PARAM_locate(params, QUILL_PARAM_MODULE_PATH)) != NULL &&
        !set_string(p, info->module_path))
        return 0;
    if ((p = OSSL_PARAM_locate(params, QUILL_PARAM_COUNTERS)) != NULL) {
        char line[QUILL_PARAM_COUNTERS_MAX];
        size_t len = quill_stats_format(stats, (long)getpid(), line, sizeof(line));
        if (len == 0)
            return 0;
        if (line[len - 1] == '\n')
            line[len - 1] = '\0';
        if (!OSSL_PARAM_set_utf8_string(p, line))
            return 0;
    }
    return 1;
}
