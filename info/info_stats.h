/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-info --stats DIR [--per-process]: the sum of the live statistics
 * files in a statistics directory (format: provider/stats_file.h), those of
 * running processes and of exited ones alike.
 *
 * Output (to |out|), one line each:
 *
 *   quill stats in DIR: N processes (L live, E exited)
 *   pid=P live|exited start=TICKS created=YYYY-MM-DDTHH:MM:SSZ rsa-sign=N ... mldsa-verify=N
 *                                            (per process, with per_process)
 *   total rsa-sign=N rsa-verify=N rsa-keygen=N ecdsa-sign=N ecdsa-verify=N ec-keygen=N
 *         mldsa-keygen=N mldsa-sign=N mldsa-verify=N          (one line)
 *
 * Counters are named as in the QUILL_STATS=FILE lines; a counter this
 * reader has no name for (a newer quill) shows as counter-<index>=N.  A
 * process is "live" if a process with its pid exists (kill(pid, 0)) with
 * the same start time (/proc/<pid>/stat) in the same boot (boot id), so a
 * reused pid is not mistaken for the original; otherwise "exited".
 *
 * Files read: regular files named quill-<pid>-<start>-<boot>.stats;
 * anything else in the directory (names starting with '.', files being
 * created, other files) is ignored.  A stats file that is truncated, has
 * the wrong magic, version, byte order or size, or whose name does not
 * match its header is skipped with one warning line on stderr and counted
 * ("N files skipped" in the exit status and the first line).
 *
 * Link: info/info_stats.c and provider/stats_proc.c, include path
 * provider/ (no OpenSSL needed). */
#ifndef QUILL_INFO_STATS_H
#define QUILL_INFO_STATS_H

#include <stdio.h>

/* quill_info_stats' exit statuses. */
enum {
    QUILL_INFO_STATS_OK = 0,
    QUILL_INFO_STATS_UNREADABLE_DIR = 1, /* cannot open or list the directory */
    QUILL_INFO_STATS_NO_FILES = 2,       /* no usable stats file in it */
    QUILL_INFO_STATS_SKIPPED = 3,        /* some files skipped as corrupt; the
                                            sums of the others were printed */
};

/* quill_info_stats prints the counters of the stats files in |dir| to
 * |out|: the total over all processes, preceded by one line per process
 * (sorted by creation time, then pid) if per_process is non-zero.  Returns
 * the program's exit status, one of QUILL_INFO_STATS_*: on any status but
 * OK one line on stderr says why (prefixed "quill-info: "), and every
 * skipped file gets its own warning line there too.  With no usable file,
 * nothing is written to |out|. */
int quill_info_stats(const char *dir, int per_process, FILE *out);

#endif
