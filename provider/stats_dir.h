/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The process's live statistics files (format: stats_file.h).  A process
 * keeps one file per statistics directory, created at the first
 * quill_stats_dir_open for that directory and shared by every library
 * context of the process that names it; the mapping lives until the process
 * ends (a few hundred bytes; never unmapped, so counter pointers stay valid
 * even across provider teardown).
 *
 * fork: a pthread_atfork child handler gives the child a file of its own in
 * each directory, mapped MAP_FIXED over the inherited mapping at the same
 * address, so every counter pointer the child inherited now counts into
 * its own file and the parent's file never sees the child's operations;
 * the hot path pays nothing for it.  The handler uses only
 * async-signal-safe calls (open, write, link, unlink, fchmod, mmap, close).
 * If the child's file cannot be created, its counters are replaced by
 * private zeroed memory: the child's operations are not counted anywhere
 * (still never in the parent's file). */
#ifndef QUILL_PROV_STATS_DIR_H
#define QUILL_PROV_STATS_DIR_H

#include <stdatomic.h>
#include <stdint.h>

/* quill_stats_dir_open returns this process's counters in directory |dir|
 * (QUILL_STATS_FILE_SLOTS of them, the mapped file's count[]), creating
 * the file at the first call for that directory.  The directory is resolved
 * with realpath(3), so two spellings of one directory share one file.  A
 * file the process already has (quill reloaded in the same process) is
 * reopened and counted on.  On failure returns NULL with *err an errno
 * value and *step a static phrase naming what failed ("cannot create a
 * file in", ...), for the caller's error message; nothing is created. */
_Atomic uint64_t *quill_stats_dir_open(const char *dir, int *err, const char **step);

#endif
