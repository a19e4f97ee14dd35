/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill's own provider parameters, read with OSSL_PROVIDER_get_params() by
 * quill-info (info/) and by anyone else who wants to know what the loaded
 * module is doing.  Plain names, no OpenSSL types: this header is the
 * contract between the provider and its readers.
 *
 *   QUILL_PARAM_MODULE_PATH  UTF8 string (pointer or buffer): the absolute
 *                            path of the quill.so file this provider runs
 *                            from (dladdr() on its own code, else the file
 *                            name OpenSSL's core gave at load).
 *   QUILL_PARAM_BACKENDS     UTF8 string (pointer or buffer): the native
 *                            backend each algorithm selected on this CPU,
 *                            "rsa=NAME ecdsa-p256=NAME mldsa=NAME
 *                            keccak=NAME" (names in
 *                            core/common/backend_names.h); also appended to
 *                            the provider's "buildinfo".
 *   QUILL_PARAM_COUNTERS     UTF8 string, into the caller's buffer only
 *                            (the value changes): the operations counted in
 *                            this provider context so far, as the line
 *                            provider/stats.h describes without its newline,
 *                            "pid=N rsa-sign=N rsa-verify=N ...".  At most
 *                            QUILL_PARAM_COUNTERS_MAX bytes with the NUL.
 *                            With a statistics directory these are the
 *                            counters of the process's live file, which
 *                            every context of the process shares.
 *   QUILL_PARAM_DECLINED     UTF8 string (pointer or buffer): the algorithm
 *                            families quill does not offer on this
 *                            architecture, left to the default provider
 *                            (provider/decline.h), "none" or "FAMILY
 *                            (REASON); ...".
 *   QUILL_PARAM_STATS        UTF8 string (pointer): where the counters go,
 *                            "off", "live: DIR" or "error: " and the line
 *                            quill printed at load (provider/stats_conf.h). */
#ifndef QUILL_PROV_INFO_PARAMS_H
#define QUILL_PROV_INFO_PARAMS_H

#define QUILL_PARAM_MODULE_PATH "quill-module-path"
#define QUILL_PARAM_BACKENDS "quill-backends"
#define QUILL_PARAM_COUNTERS "quill-counters"
#define QUILL_PARAM_COUNTERS_MAX 512
#define QUILL_PARAM_STATS "quill-stats"
#define QUILL_PARAM_DECLINED "quill-declined"

#endif
