/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The core's version (see core_version.h). */
#include "core_version.h"

#include <stdlib.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

/* Reads one decimal part at *s, saturated at 255; advances *s.  Returns 0
 * if no digit is there. */
static int read_part(const char **s, unsigned long *out) {
    char *end = NULL;
    if (**s < '0' || **s > '9')
        return 0;
    unsigned long v = strtoul(*s, &end, 10);
    *out = v > 255 ? 255 : v;
    *s = end;
    return 1;
}

unsigned long quill_core_version_parse(const char *version) {
    unsigned long major = 0, minor = 0, patch = 0;
    const char *s = version;
    if (s == NULL || !read_part(&s, &major) || *s++ != '.' || !read_part(&s, &minor))
        return QUILL_CORE_VERSION_UNKNOWN;
    if (*s == '.') {
        s++;
        if (!read_part(&s, &patch))
            patch = 0;
    }
    return QUILL_CORE_VERSION(major, minor, patch);
}

unsigned long quill_core_version_read(const OSSL_CORE_HANDLE *handle,
                                      OSSL_FUNC_core_get_params_fn *core_get_params) {
    const char *version = NULL;
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_CORE_VERSION, (char **)&version, 0),
        OSSL_PARAM_construct_end(),
    };
    if (core_get_params == NULL || !core_get_params(handle, p))
        return QUILL_CORE_VERSION_UNKNOWN;
    return quill_core_version_parse(version);
}
