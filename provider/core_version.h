/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The version of the OpenSSL core (libcrypto) that loaded quill, read once
 * at load from OSSL_PROV_PARAM_CORE_VERSION.  quill.so is built against the
 * 3.0 headers and runs on any 3.x core; where the default provider of a
 * later core behaves differently (3.1's PSS salt length, 3.4's signature
 * algorithms named for key and digest, 3.5's ML-DSA), quill follows the
 * core it runs in, so that an application sees the same parameters and
 * bytes from quill as from that core's default provider. */
#ifndef QUILL_PROV_CORE_VERSION_H
#define QUILL_PROV_CORE_VERSION_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* QUILL_CORE_VERSION(3, 5, 0) is the number quill_core_version_read
 * returns for "3.5.0": major << 16 | minor << 8 | patch (each part
 * saturated at 255), so that versions compare as numbers. */
#define QUILL_CORE_VERSION(major, minor, patch)                                                  \
    (((unsigned long)(major) << 16) | ((unsigned long)(minor) << 8) | (unsigned long)(patch))

/* What a core whose version cannot be read is taken for: 3.0.0, the oldest
 * core quill runs on, so that nothing of a later core is assumed. */
#define QUILL_CORE_VERSION_UNKNOWN 0UL

/* quill_core_version_parse turns a version string ("3.0.19", "3.5.0-dev",
 * "4.0.0") into QUILL_CORE_VERSION form; a missing patch number counts as
 * 0.  Returns QUILL_CORE_VERSION_UNKNOWN for NULL or a string that does
 * not start with major.minor. */
unsigned long quill_core_version_parse(const char *version);

/* quill_core_version_read asks the core (core_get_params may be NULL) for
 * OSSL_PROV_PARAM_CORE_VERSION and parses it; QUILL_CORE_VERSION_UNKNOWN if
 * the core does not answer. */
unsigned long quill_core_version_read(const OSSL_CORE_HANDLE *handle,
                                      OSSL_FUNC_core_get_params_fn *core_get_params);

#endif
