/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The provider context: one per library context that loads quill, shared by
 * every thread using it.  Everything in it is set once in OSSL_provider_init
 * and read-only afterwards, except the statistics counters, which are
 * atomic. */
#ifndef QUILL_PROV_CTX_H
#define QUILL_PROV_CTX_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>

#include "prov_info.h"
#include "stats.h"

typedef struct quill_provctx {
    const OSSL_CORE_HANDLE *handle;
    /* A child of the loading library context: digests and the DRBG are
     * fetched here, so quill sees the same providers as its caller. */
    OSSL_LIB_CTX *libctx;
    /* Error upcalls into the core (prov_err.c). */
    OSSL_FUNC_core_new_error_fn *core_new_error;
    OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
    OSSL_FUNC_core_vset_error_fn *core_vset_error;
    /* The core's parameters (its version, and the provider's own
     * configuration keys from openssl.cnf); NULL if not offered. */
    OSSL_FUNC_core_get_params_fn *core_get_params;
    /* The core's version, QUILL_CORE_VERSION form (core_version.h): where
     * a later core's default provider differs from 3.0's, quill follows
     * the core it runs in. */
    unsigned long core_version;
    quill_stats stats;
    /* Where the live counters go, for the provider parameter
     * QUILL_PARAM_STATS (stats_conf.h): "off", "live: DIR" or "error:
     * ..."; malloc'ed, or NULL for "off". */
    char *stats_state;
    /* Buildinfo, backends and module path (prov_info.h). */
    quill_prov_info info;
    /* The tables query_operation answers with, without the families this
     * CPU declines (decline.h); the static tables themselves when nothing
     * is declined. */
    const OSSL_ALGORITHM *keymgmts, *signatures, *signatures_34, *encoders, *decoders;
    /* What was declined and why, for QUILL_PARAM_DECLINED. */
    char declined[512];
} quill_provctx;

#endif
