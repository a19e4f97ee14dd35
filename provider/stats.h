/* Copyright quill authors.
 *
 * Operation counters.  Each provider context counts the core operations that
 * succeeded through it; at teardown, if the environment variable QUILL_STATS
 * names a file, one line is appended to it:
 *
 *   pid=N rsa-sign=N rsa-verify=N rsa-keygen=N ecdsa-sign=N ecdsa-verify=N
 *   ec-keygen=N
 *
 * (fields in the order of quill_stat; later algorithms add theirs at the
 * end).  The line is written with a single write(2) on an O_APPEND
 * descriptor, so lines from several library contexts or processes never
 * interleave; readers sum the lines. */
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
    QUILL_STAT_COUNT
} quill_stat;

typedef struct quill_stats {
    atomic_ulong count[QUILL_STAT_COUNT];
} quill_stats;

/* quill_stats_init sets every counter to zero. */
void quill_stats_init(quill_stats *s);

/* quill_stats_add counts one successful operation (relaxed atomic). */
void quill_stats_add(quill_stats *s, quill_stat which);

/* quill_stats_format writes the stats line (with its newline and a NUL) to
 * buf; returns its length, or 0 if cap is too small. */
size_t quill_stats_format(const quill_stats *s, long pid, char *buf, size_t cap);

/* quill_stats_report appends the line to the file named by $QUILL_STATS, if
 * set and non-empty.  Failures are silent: statistics never break a
 * caller. */
void quill_stats_report(const quill_stats *s);

#endif
