/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _POSIX_C_SOURCE 200809L

#include "stats.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void quill_stats_init(quill_stats *s) {
    for (size_t i = 0; i < QUILL_STAT_COUNT; i++)
        atomic_init(&s->own[i], 0);
    s->slot = s->own;
    s->mirror = NULL;
    s->next = NULL;
    s->listed = 0;
}

const char *quill_stats_env_dir(void) {
    const char *path = getenv("QUILL_STATS");
    struct stat st;
    if (path == NULL || *path == '\0' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return path;
}

int quill_stats_line_mode(void) {
    const char *path = getenv("QUILL_STATS");
    return path != NULL && *path != '\0' && quill_stats_env_dir() == NULL;
}

void quill_stats_use_file(quill_stats *s, _Atomic uint64_t *counters) {
    if (quill_stats_line_mode())
        s->mirror = counters;
    else
        s->slot = counters;
}

void quill_stats_add(quill_stats *s, quill_stat which) {
    atomic_fetch_add_explicit(&s->slot[which], 1, memory_order_relaxed);
    _Atomic uint64_t *m = s->mirror;
    if (m != NULL)
        atomic_fetch_add_explicit(&m[which], 1, memory_order_relaxed);
}

size_t quill_stats_format(const quill_stats *s, long pid, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "pid=%ld", pid);
    if (n < 0 || (size_t)n >= cap)
        return 0;
    size_t len = (size_t)n;
    for (size_t i = 0; i < QUILL_STAT_COUNT; i++) {
        unsigned long long v = atomic_load_explicit(&s->slot[i], memory_order_relaxed);
        n = snprintf(buf + len, cap - len, " %s=%llu", quill_stat_name((unsigned)i), v);
        if (n < 0 || (size_t)n >= cap - len)
            return 0;
        len += (size_t)n;
    }
    if (len + 2 > cap)
        return 0;
    buf[len++] = '\n';
    buf[len] = '\0';
    return len;
}

void quill_stats_report(const quill_stats *s) {
    if (!quill_stats_line_mode())
        return; /* no QUILL_STATS, or a statistics directory */
    const char *path = getenv("QUILL_STATS");
    char line[512];
    size_t len = quill_stats_format(s, (long)getpid(), line, sizeof(line));
    if (len == 0)
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    /* One write on an O_APPEND descriptor: the line lands whole. */
    ssize_t w = write(fd, line, len);
    (void)w;
    close(fd);
}

/* Process-wide list of live contexts, for the exit handler. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static quill_stats *live_head;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* Reports every context still listed.  Registered with atexit() from this
 * module, so it also runs (with an empty list) if the module is unloaded
 * before exit. */
static void report_at_exit(void) {
    pthread_mutex_lock(&live_lock);
    for (quill_stats *s = live_head; s != NULL; s = s->next) {
        s->listed = 0;
        quill_stats_report(s);
    }
    live_head = NULL;
    pthread_mutex_unlock(&live_lock);
}

static void install_exit_handler(void) {
    (void)atexit(report_at_exit);
}

void quill_stats_register(quill_stats *s) {
    pthread_once(&exit_once, install_exit_handler);
    pthread_mutex_lock(&live_lock);
    s->next = live_head;
    s->listed = 1;
    live_head = s;
    pthread_mutex_unlock(&live_lock);
}

void quill_stats_finish(quill_stats *s) {
    pthread_mutex_lock(&live_lock);
    int was_listed = s->listed;
    for (quill_stats **pp = &live_head; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    }
    s->listed = 0;
    s->next = NULL;
    pthread_mutex_unlock(&live_lock);
    if (was_listed)
        quill_stats_report(s);
}
