/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Operation counters.  Each provider context counts the core operations that
 * succeeded through it; at teardown, if the environment variable QUILL_STATS
 * names a file, one line is appended to it:
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

typedef enum quill_stat {
    QUILL_STAT_RSA_SIGN,
    QUILL_STAT_RSA_VERIFY,
    QUILL_STAT_RSA_KEYGEN,
    QUILL_STAT_ECDSA_SIGN,
    QUILL_STAT_ECDSA_VERIFY,
    QUILL_STAT_EC_KEYGEN,
    QUILL_STAT_MLDSA_KEYGEN, /* all three ML-DSA sets together */
    QUILL_STAT_MLDSA_SIGN,
    QUILL_STAT_MLDSA_VERIFY,
    QUILL_STAT_COUNT
} quill_stat;

typedef struct quill_stats {
    atomic_ulong count[QUILL_STAT_COUNT];
    struct quill_stats *next; /* the live list (stats.c), under its lock */
    int listed;
} quill_stats;

/* quill_stats_init sets every counter to zero. */
void quill_stats_init(quill_stats *s);

/* quill_stats_add counts one successful operation (relaxed atomic). */
void quill_stats_add(quill_stats *s, quill_stat which);

/* quill_stats_format writes the stats line (with its newline and a NUL) to
 * buf; returns its length, or 0 if cap is too small. */
size_t quill_stats_format(const quill_stats *s, long pid, char *buf, size_t cap);

/* quill_stats_register lists |s| as live, so that it is reported at
 * process exit if it has not been finished by then (the exit handler is
 * installed on the first call). */
void quill_stats_register(quill_stats *s);

/* quill_stats_finish unlists |s| and reports it (quill_stats_report)
 * unless the exit handler already did.  Called at teardown. */
void quill_stats_finish(quill_stats *s);

/* quill_stats_report appends the line to the file named by $QUILL_STATS, if
 * set and non-empty.  Failures are silent: statistics never break a
 * caller. */
void quill_stats_report(const quill_stats *s);

#endif
