/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _GNU_SOURCE /* realpath with a NULL buffer, O_NOFOLLOW, MAP_ANONYMOUS */

#include "stats_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats_file.h"
#include "stats_proc.h"

/* Cross-process counters must not need a lock. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics must be lock-free");

/* One statistics directory of this process.  This list, unlike the rest of
 * the provider, allocates with libc (not OPENSSL_malloc): it is process-wide
 * state shared by every provider instance, released by a destructor after
 * libcrypto may have been torn down, and holds realpath(3)'s libc string. */
typedef struct stats_dir {
    struct stats_dir *next;
    char *dir;              /* realpath of the directory */
    char *path, *tmp_path;  /* buffers for dir + "/" + a file name */
    size_t path_cap;        /* of each */
    quill_stats_file *map;  /* MAP_SHARED mapping of this process's file */
} stats_dir;

static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static stats_dir *dirs;     /* under dirs_lock; freed only when quill.so is
                             * unloaded (release_dirs) */
static uint8_t boot_id[16]; /* read once, before the first file */
static pthread_once_t boot_once = PTHREAD_ONCE_INIT;

/* Room for "/.quill-<pid>-<start>-<boot>.stats.tmp" after the directory. */
#define NAME_ROOM 80

/* Writes the file's path into d->path, and its temporary name (a '.'
 * before, ".tmp" after) into d->tmp_path. */
static int make_paths(stats_dir *d, long pid, uint64_t start) {
    size_t dl = strlen(d->dir);
    if (dl + 2 > d->path_cap)
        return 0;
    memcpy(d->path, d->dir, dl);
    memcpy(d->tmp_path, d->dir, dl);
    d->path[dl] = d->tmp_path[dl] = '/';
    dl++;
    if (quill_stats_file_name(d->path + dl, d->path_cap - dl, "", pid, start, boot_id) == 0)
        return 0;
    size_t n = quill_stats_file_name(d->tmp_path + dl, d->path_cap - dl, ".", pid, start, boot_id);
    if (n == 0 || dl + n + 5 > d->path_cap)
        return 0;
    memcpy(d->tmp_path + dl + n, ".tmp", 5);
    return 1;
}

static int full_write(int fd, const void *buf, size_t len) {
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        len -= (size_t)w;
    }
    return 1;
}

/* Reopens the file this process already has (quill unloaded and loaded
 * again): it must be ours, whole and stamped with our identity. */
static int reopen_own(const char *path, const quill_stats_file *want, int *err) {
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    struct stat st;
    quill_stats_file have;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        st.st_size != (off_t)sizeof(have) ||
        pread(fd, &have, offsetof(quill_stats_file, count), 0) !=
            (ssize_t)offsetof(quill_stats_file, count) ||
        memcmp(&have, want, offsetof(quill_stats_file, created)) != 0) {
        close(fd);
        *err = EEXIST;
        return -1;
    }
    return fd;
}

/* Creates (or, for this very process, reopens) the file of |pid| started
 * at |start| in d->dir and maps it: at |addr| with MAP_FIXED if addr is
 * not NULL (the fork child), else where the kernel likes.  Returns the
 * mapping, or NULL with *err and *step set.  Async-signal-safe. */
static quill_stats_file *create_and_map(stats_dir *d, long pid, uint64_t start, void *addr,
                                        int *err, const char **step) {
    quill_stats_file hdr;
    memset(&hdr, 0, sizeof(hdr));
    memcpy(hdr.magic, QUILL_STATS_FILE_MAGIC, QUILL_STATS_FILE_MAGIC_LEN);
    hdr.version = QUILL_STATS_FILE_VERSION;
    hdr.endian = QUILL_STATS_FILE_ENDIAN;
    hdr.size = (uint32_t)sizeof(hdr);
    hdr.counters = QUILL_STAT_COUNT;
    hdr.pid = pid;
    hdr.start_ticks = start;
    memcpy(hdr.boot_id, boot_id, sizeof(hdr.boot_id));
    struct timespec now;
    hdr.created = clock_gettime(CLOCK_REALTIME, &now) == 0 ? (int64_t)now.tv_sec : 0;

    /* Written whole under a temporary name (created O_EXCL, never through
     * a symbolic link), then linked to its name, which fails if that
     * exists: a reader never sees a half-written file. */
    if (!make_paths(d, pid, start)) {
        *err = ENAMETOOLONG;
        *step = "file name too long";
        return NULL;
    }
    int fd = open(d->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 && errno == EEXIST) {
        /* Our own leftover (same pid and start time): a creation that
         * failed half-way. */
        (void)unlink(d->tmp_path);
        fd = open(d->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    }
    if (fd < 0) {
        *err = errno;
        *step = "cannot create a file there";
        return NULL;
    }
    /* 0644 whatever the umask: readers are other users (the directory's
     * permissions decide who may list it). */
    errno = EIO;
    int ok = fchmod(fd, 0644) == 0 && full_write(fd, &hdr, sizeof(hdr));
    int linked = ok && link(d->tmp_path, d->path) == 0;
    *err = errno;
    (void)unlink(d->tmp_path);
    if (!ok || (!linked && *err != EEXIST)) {
        *step = ok ? "cannot link a file there" : "cannot write a file there";
        close(fd);
        return NULL;
    }
    if (!linked) {
        close(fd);
        *step = "cannot reopen this process's file there";
        fd = reopen_own(d->path, &hdr, err);
        if (fd < 0)
            return NULL;
    }
    void *m = mmap(addr, sizeof(quill_stats_file), PROT_READ | PROT_WRITE,
                   MAP_SHARED | (addr != NULL ? MAP_FIXED : 0), fd, 0);
    *err = errno;
    close(fd);
    if (m == MAP_FAILED) {
        *step = "cannot map a file there";
        return NULL;
    }
    return m;
}

/* Set by fork_prepare while it holds dirs_lock across a fork, so that the
 * parent and child handlers unlock only a lock it took. */
static int fork_locked;

static void fork_prepare(void) {
    pthread_mutex_lock(&dirs_lock);
    fork_locked = 1;
}

static void fork_parent(void) {
    if (fork_locked) {
        fork_locked = 0;
        pthread_mutex_unlock(&dirs_lock);
    }
}

/* In the child: a file of its own in every directory, mapped over the
 * inherited one (see stats_dir.h). */
static void fork_child(void) {
    int saved = errno;
    long pid = (long)getpid();
    uint64_t start = 0;
    int have_start = quill_stats_read_start_ticks(0, &start);
    for (stats_dir *d = dirs; d != NULL; d = d->next) {
        int err;
        const char *step;
        if (!have_start || create_and_map(d, pid, start, d->map, &err, &step) == NULL) {
            /* Counted nowhere rather than in the parent's file. */
            void *m = mmap(d->map, sizeof(quill_stats_file), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            (void)m;
        }
    }
    if (fork_locked) {
        fork_locked = 0;
        pthread_mutex_unlock(&dirs_lock);
    }
    errno = saved;
}

/* The fork handlers are registered when quill.so is loaded, before any
 * thread can hold dirs_lock: registered at the first directory instead,
 * they could land in the middle of another thread's fork (glibc runs the
 * handlers registered before it), and a child could inherit dirs_lock held
 * without the handler that releases it. */
__attribute__((constructor)) static void install_fork_handler(void) {
    (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void read_boot_id(void) {
    (void)quill_stats_read_boot_id(boot_id);
}

/* When quill.so is unloaded (dlclose at OPENSSL_cleanup, or the end of the
 * process, after the exit handlers): the entries go, since nothing could
 * reach them once the module's data is unmapped (a leak checker would say
 * they were lost).  The mappings stay, as the header promises: a thread
 * still finishing an operation while the process exits counts into valid
 * memory.  A later load in the same process finds its file again
 * (reopen_own). */
__attribute__((destructor)) static void release_dirs(void) {
    pthread_mutex_lock(&dirs_lock);
    while (dirs != NULL) {
        stats_dir *d = dirs;
        dirs = d->next;
        free(d->dir);
        free(d->path);
        free(d);
    }
    pthread_mutex_unlock(&dirs_lock);
}

_Atomic uint64_t *quill_stats_dir_open(const char *dir, int *err, const char **step) {
    pthread_once(&boot_once, read_boot_id);
    *step = "cannot resolve the path";
    char *real = realpath(dir, NULL);
    if (real == NULL) {
        *err = errno;
        return NULL;
    }
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *err = ENOTDIR;
        *step = "cannot use it";
        free(real);
        return NULL;
    }
    _Atomic uint64_t *counters = NULL;
    pthread_mutex_lock(&dirs_lock);
    for (stats_dir *d = dirs; d != NULL; d = d->next) {
        if (strcmp(d->dir, real) == 0) {
            counters = d->map->count;
            break;
        }
    }
    if (counters == NULL) {
        uint64_t start;
        stats_dir *d = calloc(1, sizeof(*d));
        size_t cap = strlen(real) + NAME_ROOM;
        char *path = malloc(2 * cap);
        *step = "out of memory";
        *err = ENOMEM;
        if (d != NULL && path != NULL) {
            d->dir = real;
            d->path = path;
            d->tmp_path = path + cap;
            d->path_cap = cap;
            errno = 0;
            if (quill_stats_read_start_ticks(0, &start)) {
                d->map = create_and_map(d, (long)getpid(), start, NULL, err, step);
            } else {
                *err = errno != 0 ? errno : ENOENT;
                *step = "cannot read this process's start time (/proc/self/stat)";
            }
        }
        if (d != NULL && d->map != NULL) {
            d->next = dirs;
            dirs = d;
            counters = d->map->count;
            real = NULL; /* kept in d */
        } else {
            free(path);
            free(d);
        }
    }
    pthread_mutex_unlock(&dirs_lock);
    free(real);
    return counters;
}
