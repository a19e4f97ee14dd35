/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * What identifies a process across pid reuse and reboots, read from /proc
 * (Linux): its start time and the kernel's boot id.  Used by the writer of
 * the live statistics files (stats_dir.c) to name and stamp its file, and
 * by their reader (quill-info --stats) to tell a live owner from an exited
 * one.  No OpenSSL, no allocation; every function is async-signal-safe
 * (open, read, close only), so the fork handler may call them. */
#ifndef QUILL_PROV_STATS_PROC_H
#define QUILL_PROV_STATS_PROC_H

#include <stddef.h>
#include <stdint.h>

/* quill_stats_read_start_ticks reads field 22 (starttime: clock ticks since
 * boot) of /proc/<pid>/stat, or of /proc/self/stat if pid is 0; returns 1
 * and sets *ticks, or 0 if it cannot be read or parsed. */
int quill_stats_read_start_ticks(long pid, uint64_t *ticks);

/* quill_stats_read_boot_id reads /proc/sys/kernel/random/boot_id (a UUID)
 * into id[16]; returns 1, or 0 with id zeroed if unreadable. */
int quill_stats_read_boot_id(uint8_t id[16]);

/* quill_stats_file_name writes "quill-<pid>-<start>-<boot>.stats" (stats_file.h)
 * to buf, prefixed with |prefix| (may be ""); returns the length, or 0 if
 * cap (which counts the NUL) is too small. */
size_t quill_stats_file_name(char *buf, size_t cap, const char *prefix, long pid,
                             uint64_t start_ticks, const uint8_t boot_id[16]);

#endif
