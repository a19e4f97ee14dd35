/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The live statistics file: the counters one process keeps in a statistics
 * directory (the provider setting `stats`, or $QUILL_STATS naming a
 * directory), memory-mapped MAP_SHARED by the process that owns it, so that
 * another process reads them while it runs and they survive its death by
 * any signal.  Read by quill-info --stats (info/info_stats.c).  No OpenSSL
 * here: a reader includes this header alone.
 *
 * File name: quill-<pid>-<start>-<boot>.stats, where <pid> is the decimal
 * process id, <start> the process's start time in clock ticks since boot
 * (field 22 of /proc/<pid>/stat, decimal), and <boot> the first 8 hex
 * digits of the kernel's boot id (/proc/sys/kernel/random/boot_id), so that
 * a reused pid, or the same pid and start time after a reboot, names a
 * different file.  Names starting with '.' are files being created (a file
 * is written whole under a temporary name, then linked to its name).
 *
 * Layout (struct quill_stats_file): a 64-byte header, then
 * QUILL_STATS_FILE_SLOTS 64-bit counters; every field has a fixed width and
 * is in the writer's native byte order (the endian field tells a reader on
 * another machine that it cannot read it).  The file is exactly
 * sizeof(quill_stats_file) = 320 bytes.  The writer adds to the counters
 * with relaxed atomic increments; nothing else in the file changes after
 * creation.  Counter i counts the operations of quill_stat i; slots at and
 * beyond `counters` are zero (room for later algorithms: a newer writer
 * raises `counters`, and an older reader ignores the counters it has no
 * name for). */
#ifndef QUILL_PROV_STATS_FILE_H
#define QUILL_PROV_STATS_FILE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* The operations counted, one counter each; the values are the counters'
 * indices in the file, so they never change (new ones go at the end). */
typedef enum quill_stat {
    QUILL_STAT_RSA_SIGN = 0,
    QUILL_STAT_RSA_VERIFY = 1,
    QUILL_STAT_RSA_KEYGEN = 2,
    QUILL_STAT_ECDSA_SIGN = 3,
    QUILL_STAT_ECDSA_VERIFY = 4,
    QUILL_STAT_EC_KEYGEN = 5,
    QUILL_STAT_MLDSA_KEYGEN = 6, /* all three ML-DSA sets together */
    QUILL_STAT_MLDSA_SIGN = 7,
    QUILL_STAT_MLDSA_VERIFY = 8,
    QUILL_STAT_COUNT
} quill_stat;

/* quill_stat_name is the name of counter |i| ("rsa-sign", ...), as in the
 * QUILL_STATS=FILE lines and quill-info's output, or NULL past the last. */
static inline const char *quill_stat_name(unsigned i) {
    static const char *const names[QUILL_STAT_COUNT] = {
        [QUILL_STAT_RSA_SIGN] = "rsa-sign",
        [QUILL_STAT_RSA_VERIFY] = "rsa-verify",
        [QUILL_STAT_RSA_KEYGEN] = "rsa-keygen",
        [QUILL_STAT_ECDSA_SIGN] = "ecdsa-sign",
        [QUILL_STAT_ECDSA_VERIFY] = "ecdsa-verify",
        [QUILL_STAT_EC_KEYGEN] = "ec-keygen",
        [QUILL_STAT_MLDSA_KEYGEN] = "mldsa-keygen",
        [QUILL_STAT_MLDSA_SIGN] = "mldsa-sign",
        [QUILL_STAT_MLDSA_VERIFY] = "mldsa-verify",
    };
    return i < QUILL_STAT_COUNT ? names[i] : NULL;
}

/* "QUILLSTS": the file's first 8 bytes. */
#define QUILL_STATS_FILE_MAGIC "QUILLSTS"
#define QUILL_STATS_FILE_MAGIC_LEN 8
/* Format version; a reader refuses others. */
#define QUILL_STATS_FILE_VERSION 1u
/* Written natively: reads back as 0x01020304 only in the writer's byte
 * order. */
#define QUILL_STATS_FILE_ENDIAN 0x01020304u
/* Counter slots in the file (QUILL_STAT_COUNT of them in use today). */
#define QUILL_STATS_FILE_SLOTS 32
/* File names: QUILL_STATS_FILE_PREFIX <pid>-<start>-<boot>
 * QUILL_STATS_FILE_SUFFIX. */
#define QUILL_STATS_FILE_PREFIX "quill-"
#define QUILL_STATS_FILE_SUFFIX ".stats"

typedef struct quill_stats_file {
    char magic[QUILL_STATS_FILE_MAGIC_LEN]; /*  0: QUILL_STATS_FILE_MAGIC, no NUL */
    uint32_t version;                       /*  8: QUILL_STATS_FILE_VERSION */
    uint32_t endian;                        /* 12: QUILL_STATS_FILE_ENDIAN */
    uint32_t size;                          /* 16: sizeof(quill_stats_file) */
    uint32_t counters;                      /* 20: counters in use (<= slots) */
    int64_t pid;                            /* 24: the owning process */
    uint64_t start_ticks;                   /* 32: its start time, ticks since boot */
    uint8_t boot_id[16];                    /* 40: the kernel's boot id (a UUID) */
    int64_t created;                        /* 56: creation, seconds since the epoch */
    _Atomic uint64_t count[QUILL_STATS_FILE_SLOTS]; /* 64: the counters */
} quill_stats_file;

_Static_assert(sizeof(_Atomic uint64_t) == 8, "counters must be plain 64-bit words");
_Static_assert(offsetof(quill_stats_file, count) == 64, "header must be 64 bytes");
_Static_assert(sizeof(quill_stats_file) == 64 + 8 * QUILL_STATS_FILE_SLOTS,
               "no padding in the stats file");
_Static_assert(QUILL_STAT_COUNT <= QUILL_STATS_FILE_SLOTS, "too many counters for the file");

#endif
