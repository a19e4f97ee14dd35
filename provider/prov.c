/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The provider entry point: OSSL_provider_init builds the provider context
 * (error upcalls, child library context, statistics) and answers OpenSSL's
 * queries for parameters, algorithms and reason strings.  The only symbol
 * quill.so exports (see quill.map). */
#include <stdlib.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "core_version.h"
#include "names.h"
#include "prov_ctx.h"
#include "prov_err.h"
#include "algorithms.h"
#include "decline.h"
#include "mldsa_obj.h"
#include "stats_conf.h"
#include "tls_sigalg.h"

/* The entry point must be visible despite -fvisibility=hidden; quill.map
 * keeps every other symbol local. */
__attribute__((visibility("default"))) OSSL_provider_init_fn OSSL_provider_init;
static OSSL_FUNC_provider_teardown_fn quill_teardown;
static OSSL_FUNC_provider_gettable_params_fn quill_gettable_params;
static OSSL_FUNC_provider_get_params_fn quill_get_params;
static OSSL_FUNC_provider_query_operation_fn quill_query_operation;
static OSSL_FUNC_provider_get_reason_strings_fn quill_get_reason_strings;

static const OSSL_ALGORITHM quill_keymgmts[] = {
    {QUILL_NAMES_RSA, QUILL_PROPS_KEYMGMT, quill_rsa_keymgmt_functions, "quill RSA keys"},
    {QUILL_NAMES_RSA_PSS, QUILL_PROPS_KEYMGMT, quill_rsapss_keymgmt_functions,
     "quill RSA-PSS keys"},
    {QUILL_NAMES_EC, QUILL_PROPS_KEYMGMT, quill_ec_keymgmt_functions, "quill EC P-256 keys"},
    {QUILL_NAMES_MLDSA44, QUILL_PROPS_KEYMGMT_SIG_ONLY, quill_mldsa44_keymgmt_functions,
     "quill ML-DSA-44 keys"},
    {QUILL_NAMES_MLDSA65, QUILL_PROPS_KEYMGMT_SIG_ONLY, quill_mldsa65_keymgmt_functions,
     "quill ML-DSA-65 keys"},
    {QUILL_NAMES_MLDSA87, QUILL_PROPS_KEYMGMT_SIG_ONLY, quill_mldsa87_keymgmt_functions,
     "quill ML-DSA-87 keys"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *quill_query_operation(void *provctx, int operation_id,
                                                   int *no_cache) {
    *no_cache = 0;
    const quill_provctx *ctx = provctx;
    switch (operation_id) {
    case OSSL_OP_SIGNATURE:
        /* OpenSSL 3.4's names for key and digest, where the core has them. */
        return ctx->core_version >= QUILL_CORE_VERSION(3, 4, 0) ? ctx->signatures_34
                                                                : ctx->signatures;
    case OSSL_OP_KEYMGMT:
        return ctx->keymgmts;
    case OSSL_OP_ENCODER:
        return ctx->encoders[0].algorithm_names != NULL ? ctx->encoders : NULL;
    case OSSL_OP_DECODER:
        return ctx->decoders[0].algorithm_names != NULL ? ctx->decoders : NULL;
    default:
        return NULL;
    }
}

/* The tables without the families this CPU declines (decline.h). */
static int quill_tables_init(quill_provctx *ctx) {
    unsigned active = quill_decline_active();
    int off = quill_decline_overridden(active);
    quill_declined_text(ctx->declined, sizeof(ctx->declined), active, off);
    ctx->keymgmts = quill_decline_filter(quill_keymgmts, active, off);
    ctx->signatures = quill_decline_filter(quill_signatures, active, off);
    ctx->signatures_34 = quill_decline_filter(quill_signatures_34, active, off);
    ctx->encoders = quill_decline_filter(quill_encoders, active, off);
    ctx->decoders = quill_decline_filter(quill_decoders, active, off);
    return ctx->keymgmts != NULL && ctx->signatures != NULL && ctx->signatures_34 != NULL &&
           ctx->encoders != NULL && ctx->decoders != NULL;
}

static void quill_tables_free(quill_provctx *ctx) {
    quill_decline_free(ctx->keymgmts, quill_keymgmts);
    quill_decline_free(ctx->signatures, quill_signatures);
    quill_decline_free(ctx->signatures_34, quill_signatures_34);
    quill_decline_free(ctx->encoders, quill_encoders);
    quill_decline_free(ctx->decoders, quill_decoders);
}

static const OSSL_PARAM quill_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(QUILL_PARAM_STATS, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(QUILL_PARAM_DECLINED, OSSL_PARAM_UTF8_PTR, NULL, 0),
    QUILL_PROV_INFO_GETTABLE,
    OSSL_PARAM_END,
};

static const OSSL_PARAM *quill_gettable_params(void *provctx) {
    return quill_param_types;
}

static int quill_get_params(void *provctx, OSSL_PARAM params[]) {
    const quill_provctx *ctx = provctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, QUILL_PROV_NAME))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, QUILL_PROV_VERSION))
        return 0;
    /* buildinfo (with the CPU backends), module path, backends, counters */
    if (!quill_prov_info_get_params(&ctx->info, &ctx->stats, params))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
        !OSSL_PARAM_set_int(p, 1))
        return 0;
    if ((p = OSSL_PARAM_locate(params, QUILL_PARAM_STATS)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, quill_prov_stats_state(provctx)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, QUILL_PARAM_DECLINED)) != NULL &&
        !(p->data_type == OSSL_PARAM_UTF8_PTR
              ? OSSL_PARAM_set_utf8_ptr(p, ctx->declined)
              : OSSL_PARAM_set_utf8_string(p, ctx->declined)))
        return 0;
    return 1;
}

static const OSSL_ITEM *quill_get_reason_strings(void *provctx) {
    return quill_prov_reason_strings();
}

static void quill_teardown(void *vctx) {
    quill_provctx *ctx = vctx;
    if (ctx == NULL)
        return;
    quill_stats_finish(&ctx->stats);
    quill_tables_free(ctx);
    OPENSSL_free(ctx->stats_state);
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
}

#define QUILL_DISPATCH_COMMON                                                                  \
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))quill_teardown},                             \
        {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))quill_gettable_params},           \
        {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))quill_get_params},                     \
        {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))quill_query_operation},           \
        {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))quill_get_reason_strings}

static const OSSL_DISPATCH quill_dispatch[] = {
    QUILL_DISPATCH_COMMON,
    {0, NULL},
};

/* For a 3.5+ core: ML-DSA's TLS signature algorithms (tls_sigalg.h). */
static const OSSL_DISPATCH quill_dispatch_35[] = {
    QUILL_DISPATCH_COMMON,
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))quill_prov_get_capabilities},
    {0, NULL},
};

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx) {
    if (!quill_prov_reason_table_ok())
        return 0;
    quill_provctx *ctx = OPENSSL_zalloc(sizeof(*ctx));
    if (ctx == NULL)
        return 0;
    ctx->handle = handle;
    for (const OSSL_DISPATCH *f = in; f->function_id != 0; f++) {
        switch (f->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            ctx->core_new_error = OSSL_FUNC_core_new_error(f);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            ctx->core_set_error_debug = OSSL_FUNC_core_set_error_debug(f);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            ctx->core_vset_error = OSSL_FUNC_core_vset_error(f);
            break;
        case OSSL_FUNC_CORE_GET_PARAMS:
            ctx->core_get_params = OSSL_FUNC_core_get_params(f);
            break;
        default:
            break;
        }
    }
    ctx->core_version = quill_core_version_read(handle, ctx->core_get_params);
    if (!quill_tables_init(ctx)) {
        quill_tables_free(ctx);
        OPENSSL_free(ctx);
        return 0;
    }
    /* The ML-DSA OIDs, for a core older than 3.5 (once per process). */
    if (!quill_mldsa_obj_register(ctx, in)) {
        quill_tables_free(ctx);
        OPENSSL_free(ctx);
        return 0;
    }
    quill_stats_init(&ctx->stats);
    /* The child library context sees the providers of the one loading us
     * (digests, DRBGs); OSSL_LIB_CTX_new_child takes the upcalls it needs
     * from the core's dispatch table. */
    ctx->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (ctx->libctx == NULL) {
        quill_tables_free(ctx);
        OPENSSL_free(ctx);
        return 0;
    }
    quill_prov_info_init(&ctx->info, handle, ctx->core_get_params);
    /* The live statistics file, if configured: after everything that can
     * fail the load, so that its error is the only one it raises. */
    quill_prov_stats_configure(ctx);
    quill_stats_register(&ctx->stats);
    *out = ctx->core_version >= QUILL_CORE_VERSION(3, 5, 0) ? quill_dispatch_35 : quill_dispatch;
    *provctx = ctx;
    return 1;
}
