/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _DEFAULT_SOURCE /* O_NOFOLLOW, struct dirent's d_name, timegm-free gmtime_r */

#include "info_stats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats_file.h"
#include "stats_proc.h"

/* One stats file read whole (a snapshot: the counters may move on). */
typedef struct proc_stats {
    int64_t pid;
    uint64_t start_ticks;
    int64_t created;
    int live;
    uint32_t counters;
    uint64_t count[QUILL_STATS_FILE_SLOTS];
} proc_stats;

static int has_suffix(const char *s, const char *suffix) {
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Reads and checks the file |name| in the directory open as |dfd|; returns
 * NULL (reason in *why) if it is not a whole stats file. */
static const char *read_stats_file(int dfd, const char *name, proc_stats *ps) {
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno == ELOOP ? "a symbolic link" : strerror(errno);
    struct stat st;
    quill_stats_file f;
    ssize_t n = -1;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if ((n = pread(fd, &f, sizeof(f), 0)) < 0)
        why = strerror(errno);
    close(fd);
    if (why != NULL)
        return why;
    if ((size_t)n < offsetof(quill_stats_file, count) ||
        memcmp(f.magic, QUILL_STATS_FILE_MAGIC, QUILL_STATS_FILE_MAGIC_LEN) != 0)
        return (size_t)n < QUILL_STATS_FILE_MAGIC_LEN ? "truncated (no header)"
                                                       : "not a quill stats file (bad magic)";
    if (f.endian != QUILL_STATS_FILE_ENDIAN)
        return "written in another byte order";
    if (f.version != QUILL_STATS_FILE_VERSION)
        return "unknown format version";
    if (f.size != sizeof(f) || f.counters > QUILL_STATS_FILE_SLOTS)
        return "bad header (size or counter count)";
    if ((size_t)n != sizeof(f) || st.st_size != (off_t)sizeof(f))
        return "truncated or wrong size";
    char want[128];
    if (quill_stats_file_name(want, sizeof(want), "", (long)f.pid, f.start_ticks, f.boot_id) ==
            0 ||
        strcmp(want, name) != 0)
        return "name does not match its header";
    ps->pid = f.pid;
    ps->start_ticks = f.start_ticks;
    ps->created = f.created;
    ps->counters = f.counters;
    for (size_t i = 0; i < QUILL_STATS_FILE_SLOTS; i++)
        ps->count[i] = i < f.counters ? atomic_load_explicit(&f.count[i], memory_order_relaxed)
                                      : 0;
    /* Live: the pid exists, started at the same tick, in this boot. */
    uint8_t boot[16];
    uint64_t start;
    ps->live = (kill((pid_t)f.pid, 0) == 0 || errno == EPERM) &&
               quill_stats_read_start_ticks((long)f.pid, &start) && start == f.start_ticks &&
               quill_stats_read_boot_id(boot) && memcmp(boot, f.boot_id, sizeof(boot)) == 0;
    return NULL;
}

static int by_creation(const void *a, const void *b) {
    const proc_stats *x = a, *y = b;
    if (x->created != y->created)
        return x->created < y->created ? -1 : 1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void print_counters(FILE *out, const uint64_t *count, uint32_t counters) {
    for (unsigned i = 0; i < counters; i++) {
        const char *name = quill_stat_name(i);
        if (name != NULL)
            fprintf(out, " %s=%llu", name, (unsigned long long)count[i]);
        else
            fprintf(out, " counter-%u=%llu", i, (unsigned long long)count[i]);
    }
}

int quill_info_stats(const char *dir, int per_process, FILE *out) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "quill-info: cannot read the stats directory %s: %s\n", dir,
                strerror(errno));
        return QUILL_INFO_STATS_UNREADABLE_DIR;
    }
    proc_stats *all = NULL;
    size_t n = 0, cap = 0, skipped = 0;
    int status = QUILL_INFO_STATS_OK;
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (e == NULL) {
            if (errno != 0) {
                fprintf(stderr, "quill-info: cannot read the stats directory %s: %s\n", dir,
                        strerror(errno));
                status = QUILL_INFO_STATS_UNREADABLE_DIR;
            }
            break;
        }
        const char *name = e->d_name;
        if (strncmp(name, QUILL_STATS_FILE_PREFIX, strlen(QUILL_STATS_FILE_PREFIX)) != 0 ||
            !has_suffix(name, QUILL_STATS_FILE_SUFFIX))
            continue;
        if (n == cap) {
            size_t ncap = cap != 0 ? 2 * cap : 16;
            proc_stats *grown = realloc(all, ncap * sizeof(*all));
            if (grown == NULL) {
                fprintf(stderr, "quill-info: out of memory reading %s\n", dir);
                status = QUILL_INFO_STATS_UNREADABLE_DIR;
                break;
            }
            all = grown;
            cap = ncap;
        }
        const char *why = read_stats_file(dirfd(d), name, &all[n]);
        if (why != NULL) {
            fprintf(stderr, "quill-info: skipping %s/%s: %s\n", dir, name, why);
            skipped++;
            continue;
        }
        n++;
    }
    closedir(d);
    if (status != QUILL_INFO_STATS_OK) {
        free(all);
        return status;
    }
    if (n == 0) {
        if (skipped != 0)
            fprintf(stderr, "quill-info: no usable quill stats files in %s (%zu skipped)\n", dir,
                    skipped);
        else
            fprintf(stderr, "quill-info: no quill stats files in %s\n", dir);
        free(all);
        return QUILL_INFO_STATS_NO_FILES;
    }
    qsort(all, n, sizeof(*all), by_creation);

    uint64_t total[QUILL_STATS_FILE_SLOTS] = {0};
    uint32_t counters = QUILL_STAT_COUNT;
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        live += all[i].live != 0;
        if (all[i].counters > counters)
            counters = all[i].counters;
        for (size_t j = 0; j < QUILL_STATS_FILE_SLOTS; j++)
            total[j] += all[i].count[j];
    }
    fprintf(out, "quill stats in %s: %zu process%s (%zu live, %zu exited)", dir, n,
            n == 1 ? "" : "es", live, n - live);
    if (skipped != 0)
        fprintf(out, ", %zu file%s skipped", skipped, skipped == 1 ? "" : "s");
    fputc('\n', out);
    for (size_t i = 0; per_process && i < n; i++) {
        char when[32] = "?";
        time_t t = (time_t)all[i].created;
        struct tm tm;
        if (gmtime_r(&t, &tm) != NULL)
            (void)strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
        fprintf(out, "pid=%lld %s start=%llu created=%s", (long long)all[i].pid,
                all[i].live ? "live" : "exited", (unsigned long long)all[i].start_ticks, when);
        print_counters(out, all[i].count, counters);
        fputc('\n', out);
    }
    fputs("total", out);
    print_counters(out, total, counters);
    fputc('\n', out);
    free(all);
    if (skipped != 0) {
        fprintf(stderr, "quill-info: %zu file%s in %s skipped as corrupt\n", skipped,
                skipped == 1 ? "" : "s", dir);
        return QUILL_INFO_STATS_SKIPPED;
    }
    return QUILL_INFO_STATS_OK;
}
