/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Operation counters.  Each provider context counts the core operations that
 * succeeded through it, in one of two places:
 *
 * - live: with a statistics directory (the provider setting `stats`, or
 *   $QUILL_STATS naming a directory; stats_conf.h), into the process's
 *   memory-mapped file there (stats_dir.h, format stats_file.h), shared by
 *   every context of the process, readable while it runs and after it dies;
 * - in the context (own[]): at teardown, if the environment variable
 *   QUILL_STATS names a file (not a directory), one line is appended to it:
 *
 *   pid=N rsa-sign=N rsa-verify=N rsa-keygen=N ecdsa-sign=N ecdsa-verify=N
 *   ec-keygen=N mldsa-keygen=N mldsa-sign=N mldsa-verify=N
 *
 * (fields in the order of quill_stat; later algorithms add theirs at the
 * end).  The line is written with a single write(2) on an O_APPEND
 * descriptor, so lines from several library contexts or processes never
 * interleave; readers sum the lines.
 *
 * A context that is never torn down (an application that leaks a key, so
 * OpenSSL never frees its providers: OpenSSL 3.0's `openssl speed ecdsa*`
 * does) would never report.  Live contexts are therefore also listed
 * process-wide, and an exit handler reports those still listed; each
 * context reports exactly once, at teardown or at exit, whichever comes
 * first. */
#ifndef QUILL_PROV_STATS_H
#define QUILL_PROV_STATS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats_file.h" /* quill_stat */

typedef struct quill_stats {
    /* Where quill_stats_add counts: own[], or the process's live file in
     * the statistics directory (stats_dir.h).  Set at init, then only
     * read. */
    _Atomic uint64_t *slot;
    /* The live file's counters when own[] is also kept (QUILL_STATS names
     * a file, whose line reports this context's own counts); else NULL. */
    _Atomic uint64_t *mirror;
    _Atomic uint64_t own[QUILL_STAT_COUNT];
    struct quill_stats *next; /* the live list (stats.c), under its lock */
    int listed;
} quill_stats;

/* quill_stats_init sets every counter to zero and counts into own[]. */
void quill_stats_init(quill_stats *s);

/* quill_stats_env_dir returns $QUILL_STATS if it names a directory (a
 * statistics directory, overriding the `stats` setting), else NULL. */
const char *quill_stats_env_dir(void);

/* quill_stats_line_mode returns 1 if $QUILL_STATS is set, non-empty and
 * not a directory: the QUILL_STATS=FILE line is wanted. */
int quill_stats_line_mode(void);

/* quill_stats_use_file makes |s| count into |counters| (a live file's,
 * from quill_stats_dir_open) as well: instead of own[], or, in line mode
 * (own counts needed for the line), beside them. */
void quill_stats_use_file(quill_stats *s, _Atomic uint64_t *counters);

/* quill_stats_add counts one successful operation: one relaxed atomic add
 * on s->slot (two in line mode with a live file). */
void quill_stats_add(quill_stats *s, quill_stat which);

/* quill_stats_format writes the stats line (with its newline and a NUL)
 * to buf; returns its length, or 0 if cap is too small.  It shows the
 * counters s->slot points to: the context's own, or, with a live file and
 * no line mode, the process's (every context counting into that file). */
size_t quill_stats_format(const quill_stats *s, long pid, char *buf, size_t cap);

/* quill_stats_register lists |s| as live, so that it is reported at
 * process exit if it has not been finished by then (the exit handler is
 * installed on the first call). */
void quill_stats_register(quill_stats *s);

/* quill_stats_finish unlists |s| and reports it (quill_stats_report)
 * unless the exit handler already did.  Called at teardown. */
void quill_stats_finish(quill_stats *s);

/* quill_stats_report appends the line to the file named by $QUILL_STATS, if
 * set, non-empty and not a directory (quill_stats_line_mode).  Failures
 * are silent: statistics never break a caller. */
void quill_stats_report(const quill_stats *s);

#endif
