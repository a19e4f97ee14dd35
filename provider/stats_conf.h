/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Where a provider context keeps its live counters: the statistics
 * directory, chosen at load (OSSL_provider_init) from
 *
 *   1. $QUILL_STATS, if it names an existing directory (the environment is
 *      the per-run choice, so it overrides the configuration, as
 *      OPENSSL_CONF overrides the built-in configuration path), else
 *   2. the provider's configuration key `stats` in openssl.cnf
 *      ([quill_sect] stats = /var/lib/quill-stats).
 *
 * $QUILL_STATS naming anything else (a file, or a path that does not
 * exist) keeps its old meaning, the line appended at teardown (stats.h),
 * and the `stats` setting still applies beside it.
 *
 * A directory that cannot be used (missing, not a directory, not writable)
 * raises one error at load, reason QUILL_R_STATS_DIR ("cannot keep live
 * statistics (counting stays in memory)", under the library "quill" as
 * OpenSSL prints it) with the path and the system's error text, and the
 * provider loads and works as without the setting; nothing is reported per
 * operation.  Because OpenSSL's configuration loader drops the errors
 * raised while loading succeeds (CONF_modules_load_file pops them, even
 * with config_diagnostics = 1), the same text is also written, as one line
 * that names quill itself,
 *
 *   quill: cannot keep live statistics (counting stays in memory):
 *   stats = /var/lib/quill-stats: cannot create a file there: Permission denied
 *
 * once per process to standard error, if that is open and not a socket
 * (a terminal, a log file, the journal's pipe: where nginx -t, a
 * service manager or `openssl list -providers` shows it); and the
 * provider parameter QUILL_PARAM_STATS says where the counters go
 * ("live: DIR", "off", or "error: " and the line), for quill-info. */
#ifndef QUILL_PROV_STATS_CONF_H
#define QUILL_PROV_STATS_CONF_H

#include "info_params.h"
#include "prov_ctx.h"

/* The openssl.cnf key in quill's provider section. */
#define QUILL_CONF_STATS "stats"

/* quill_prov_stats_configure points ctx->stats at the process's live file
 * in the statistics directory, if one is configured; raises
 * QUILL_R_STATS_DIR (through ctx's error upcalls) if it cannot.  Never
 * fails the load. */
void quill_prov_stats_configure(quill_provctx *ctx);

/* quill_prov_stats_state is ctx's state string for QUILL_PARAM_STATS. */
const char *quill_prov_stats_state(const quill_provctx *ctx);

#endif
