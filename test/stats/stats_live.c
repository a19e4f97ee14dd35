/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Live statistics files (provider/stats_file.h) and quill-info --stats
 * (info/info_stats.h).  The test process never loads OpenSSL's
 * configuration or quill itself: it runs copies of itself as workers
 * (argv[1] == "worker"), each loading quill through a test openssl.cnf and
 * signing and verifying with ECDSA P-256 on quill a given number of times,
 * and reads their files.  Checked:
 *   - the `stats` setting: a file for the worker's pid appears, header
 *     right (magic, version, pid, boot id, size 0644), counts exact;
 *   - two library contexts of one process share one file;
 *   - live: counts read while the worker still runs, marked live; after
 *     SIGKILL the counts stay and it is marked exited;
 *   - fork: the child gets its own file with its own counts, the parent's
 *     file does not get them;
 *   - the sum over several processes (quill_info_stats' total line);
 *   - QUILL_STATS=DIR like the setting, and winning over it;
 *   - QUILL_STATS=FILE beside the setting: the line as before, and the
 *     live file;
 *   - unusable directories (missing, a regular file, one where no file can
 *     be created): the state parameter and the error raised on an explicit
 *     load name the path, one line on stderr per process, signatures still
 *     made by quill;
 *   - corrupt and truncated files skipped with a warning and counted;
 *     missing and empty directories. */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "info_stats.h"
#include "stats_file.h"
#include "stats_proc.h"
#include "test_util.h"

/* ---- The worker ---- */

/* Signs |signs| times and verifies |verifies| times with ECDSA P-256 on
 * quill in |ctx|; returns 1 if every operation succeeded. */
static int work(OSSL_LIB_CTX *ctx, EVP_PKEY *key, int signs, int verifies) {
    static const unsigned char msg[] = "quill stats";
    unsigned char sig[80];
    size_t siglen = 0;
    int ok = 1;
    for (int i = 0; i < signs || (i == 0 && verifies > 0); i++) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        siglen = sizeof(sig);
        /* With no sign asked, one sign on the default provider makes the
         * signature to verify. */
        const char *props = signs > 0 ? "provider=quill" : "provider=default";
        ok &= md != NULL && EVP_DigestSignInit_ex(md, NULL, "SHA256", ctx, props, key, NULL) == 1 &&
              EVP_DigestSign(md, sig, &siglen, msg, sizeof(msg)) == 1;
        EVP_MD_CTX_free(md);
    }
    for (int i = 0; i < verifies; i++) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        ok &= md != NULL &&
              EVP_DigestVerifyInit_ex(md, NULL, "SHA256", ctx, "provider=quill", key, NULL) == 1 &&
              EVP_DigestVerify(md, sig, siglen, msg, sizeof(msg)) == 1;
        EVP_MD_CTX_free(md);
    }
    return ok;
}

static EVP_PKEY *p256_key(OSSL_LIB_CTX *ctx) {
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, "EC", "provider=default");
    EVP_PKEY *key = NULL;
    if (g == NULL || EVP_PKEY_keygen_init(g) != 1 ||
        EVP_PKEY_CTX_set_group_name(g, "P-256") != 1 || EVP_PKEY_keygen(g, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(g);
    return key;
}

/* quill's "quill-stats" parameter in the default context. */
static void print_state(const char *tag, OSSL_LIB_CTX *ctx) {
    OSSL_PROVIDER *q = OSSL_PROVIDER_load(ctx, "quill");
    const char *state = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_ptr("quill-stats", (char **)&state, 0),
                      OSSL_PARAM_construct_end()};
    if (q != NULL && OSSL_PROVIDER_get_params(q, p) == 1 && state != NULL)
        printf("%s=%s\n", tag, state);
    else
        printf("%s=?\n", tag);
    OSSL_PROVIDER_unload(q);
}

/* 1 if quill.so is mapped in this process. */
static int quill_mapped(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL)
        found |= strstr(line, "/quill.so") != NULL;
    if (f != NULL)
        fclose(f);
    return found;
}

/* worker MODE SIGNS VERIFIES: loads the configuration ($OPENSSL_CONF), prints
 * "pid=N", works, then by mode:
 *   plain   exits;
 *   pause   prints "ready=1" and waits for its stdin to close;
 *   fork    forks; the child prints "child=N", works SIGNS+1 and VERIFIES+1
 *           times and exits; the parent waits, then signs once more;
 *   reload  (quill not in the configuration) works twice in fresh
 *           contexts loading quill explicitly, unloading it after each, and
 *           prints "mapped-after-unload=0|1" after the first;
 *   twoctx  also works in a second library context loading the same
 *           configuration;
 *   state   prints "state=..." (the quill-stats parameter), then loads quill
 *           in a fresh context with QUILL_STATS=$QUILL_TEST_BAD_DIR and
 *           prints "load-error=LIB:REASON: DATA" (the first error's
 *           library, reason string and data). */
static int worker(int argc, char **argv) {
    if (argc != 5)
        return 2;
    const char *mode = argv[2];
    int signs = atoi(argv[3]), verifies = atoi(argv[4]);
    setvbuf(stdout, NULL, _IONBF, 0);
    if (OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL) != 1)
        return 3;
    printf("pid=%ld\n", (long)getpid());
    EVP_PKEY *key = p256_key(NULL);
    int reload = strcmp(mode, "reload") == 0; /* quill not in the configuration */
    if (key == NULL || (!reload && !work(NULL, key, signs, verifies)))
        return 4;
    if (strcmp(mode, "pause") == 0) {
        printf("ready=1\n");
        char c;
        while (read(STDIN_FILENO, &c, 1) > 0)
            ;
    } else if (strcmp(mode, "fork") == 0) {
        pid_t child = fork();
        if (child < 0)
            return 5;
        if (child == 0) {
            printf("child=%ld\n", (long)getpid());
            exit(work(NULL, key, signs + 1, verifies + 1) ? 0 : 6);
        }
        int st;
        if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 7;
        if (!work(NULL, key, 1, 0))
            return 8;
    } else if (strcmp(mode, "twoctx") == 0) {
        OSSL_LIB_CTX *c2 = OSSL_LIB_CTX_new();
        EVP_PKEY *k2 = NULL;
        if (c2 == NULL || OSSL_LIB_CTX_load_config(c2, getenv("OPENSSL_CONF")) != 1 ||
            (k2 = p256_key(c2)) == NULL || !work(c2, k2, signs, verifies))
            return 9;
        EVP_PKEY_free(k2);
        OSSL_LIB_CTX_free(c2);
    } else if (strcmp(mode, "reload") == 0) {
        /* quill loaded, used and unloaded twice in fresh contexts (the
         * module is unloaded in between): the second load reopens the
         * process's file. */
        for (int round = 0; round < 2; round++) {
            OSSL_LIB_CTX *c2 = OSSL_LIB_CTX_new();
            OSSL_PROVIDER *d2 = c2 != NULL ? OSSL_PROVIDER_load(c2, "default") : NULL;
            OSSL_PROVIDER *q2 = d2 != NULL ? OSSL_PROVIDER_load(c2, "quill") : NULL;
            EVP_PKEY *k2 = q2 != NULL ? p256_key(c2) : NULL;
            if (k2 == NULL || !work(c2, k2, signs, verifies))
                return 11;
            EVP_PKEY_free(k2);
            OSSL_PROVIDER_unload(q2);
            OSSL_PROVIDER_unload(d2);
            OSSL_LIB_CTX_free(c2);
            if (round == 0)
                printf("mapped-after-unload=%d\n", quill_mapped());
        }
    } else if (strcmp(mode, "state") == 0) {
        print_state("state", NULL);
        const char *bad = getenv("QUILL_TEST_BAD_DIR");
        if (bad != NULL) {
            setenv("QUILL_STATS", bad, 1);
            ERR_clear_error();
            OSSL_LIB_CTX *c2 = OSSL_LIB_CTX_new();
            OSSL_PROVIDER *q = c2 != NULL ? OSSL_PROVIDER_load(c2, "quill") : NULL;
            const char *data = NULL, *func = NULL;
            int flags = 0;
            unsigned long e = ERR_get_error_all(NULL, NULL, &func, &data, &flags);
            int more = ERR_peek_error() != 0;
            const char *lib = e != 0 ? ERR_lib_error_string(e) : NULL;
            printf("load-error=%s:%s: %s%s\n", lib != NULL ? lib : "none",
                   e != 0 ? ERR_reason_error_string(e) : "none",
                   data != NULL && (flags & ERR_TXT_STRING) ? data : "",
                   more ? " (more errors)" : "");
            print_state("state2", c2);
            OSSL_PROVIDER_unload(q);
            OSSL_LIB_CTX_free(c2);
        }
    } else if (strcmp(mode, "plain") != 0) {
        return 10;
    }
    EVP_PKEY_free(key);
    return 0;
}

/* ---- The test ---- */

static char tmp_root[64];
static char exe[4096];

/* Writes a test openssl.cnf at |path| with `stats = stats_dir` (none if
 * NULL). */
static void write_cnf(const char *path, const char *stats_dir) {
    FILE *f = fopen(path, "w");
    QT_CHECK(f != NULL);
    if (f == NULL)
        return;
    fprintf(f,
            "openssl_conf = openssl_init\n"
            "[openssl_init]\nproviders = provider_sect\n"
            "[provider_sect]\ndefault = default_sect\nquill = quill_sect\n"
            "[default_sect]\nactivate = 1\n"
            "[quill_sect]\nactivate = 1\n");
    if (stats_dir != NULL)
        fprintf(f, "stats = %s\n", stats_dir);
    fclose(f);
}

/* A running worker: its pid, a pipe to its stdin and from its stdout. */
typedef struct run {
    pid_t pid;
    int to, from;
    FILE *out;
} run;

/* Starts a worker with OPENSSL_CONF=cnf, QUILL_STATS=env (unset if NULL),
 * stderr to |errfile| (inherited if NULL). */
static int start(run *r, const char *cnf, const char *env, const char *errfile,
                 const char *mode, int signs, int verifies) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        return 0;
    fflush(NULL);
    r->pid = fork();
    if (r->pid < 0)
        return 0;
    if (r->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        if (errfile != NULL) {
            int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0)
                dup2(fd, STDERR_FILENO);
        }
        setenv("OPENSSL_CONF", cnf, 1);
        if (env != NULL)
            setenv("QUILL_STATS", env, 1);
        else
            unsetenv("QUILL_STATS");
        char s[16], v[16];
        snprintf(s, sizeof(s), "%d", signs);
        snprintf(v, sizeof(v), "%d", verifies);
        execl(exe, exe, "worker", mode, s, v, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    r->to = in[1];
    r->from = out[0];
    r->out = fdopen(out[0], "r");
    return r->out != NULL;
}

/* Reads the worker's next line that starts with |key|= and returns its
 * value as a number (-1 on EOF). */
static long read_value(run *r, const char *key, char *text, size_t cap) {
    char line[1024];
    size_t kl = strlen(key);
    while (fgets(line, sizeof(line), r->out) != NULL) {
        if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
            line[strcspn(line, "\n")] = '\0';
            if (text != NULL)
                snprintf(text, cap, "%s", line + kl + 1);
            return strtol(line + kl + 1, NULL, 10);
        }
    }
    return -1;
}

/* Closes the worker's stdin and waits; returns its exit status or -1. */
static int finish(run *r) {
    close(r->to);
    int st;
    pid_t w = waitpid(r->pid, &st, 0);
    fclose(r->out);
    if (w != r->pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Runs a worker to its end; returns its pid (0 on failure). */
static long run_worker(const char *cnf, const char *env, const char *mode, int signs,
                       int verifies) {
    run r;
    if (!start(&r, cnf, env, NULL, mode, signs, verifies))
        return 0;
    long pid = read_value(&r, "pid", NULL, 0);
    int st = finish(&r);
    if (st != 0)
        fprintf(stderr, "worker %s %d %d exited with %d\n", mode, signs, verifies, st);
    return st == 0 ? pid : 0;
}

/* Reads the stats file of |pid| in |dir|; returns 1 if exactly one exists
 * and was read whole. */
static int read_pid_file(const char *dir, long pid, quill_stats_file *f, struct stat *st) {
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "%s%ld-", QUILL_STATS_FILE_PREFIX, pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDONLY);
        if (fd >= 0 && fstat(fd, st) == 0 && read(fd, f, sizeof(*f)) == (ssize_t)sizeof(*f))
            found++;
        else
            found += 100;
        if (fd >= 0)
            close(fd);
    }
    closedir(d);
    return found == 1;
}

/* Number of entries in dir other than . and .. */
static int count_files(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d != NULL)
        closedir(d);
    return n;
}

static unsigned long long cnt(const quill_stats_file *f, quill_stat s) {
    return (unsigned long long)atomic_load(&f->count[s]);
}

/* The file of |pid| in |dir| holds exactly |signs| ECDSA signatures and
 * |verifies| verifications, nothing else, with a right header. */
static void check_file(const char *where, const char *dir, long pid, unsigned long long signs,
                       unsigned long long verifies) {
    quill_stats_file f;
    struct stat st;
    int ok = read_pid_file(dir, pid, &f, &st);
    QT_CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s: no single stats file for pid %ld in %s\n", where, pid, dir);
        return;
    }
    uint8_t boot[16];
    QT_CHECK(memcmp(f.magic, QUILL_STATS_FILE_MAGIC, QUILL_STATS_FILE_MAGIC_LEN) == 0);
    QT_CHECK(f.version == QUILL_STATS_FILE_VERSION && f.endian == QUILL_STATS_FILE_ENDIAN);
    QT_CHECK(f.size == sizeof(f) && st.st_size == (off_t)sizeof(f));
    QT_CHECK(f.counters == QUILL_STAT_COUNT);
    QT_CHECK(f.pid == pid && f.start_ticks != 0);
    QT_CHECK(quill_stats_read_boot_id(boot) && memcmp(boot, f.boot_id, 16) == 0);
    QT_CHECK((st.st_mode & 07777) == 0644);
    QT_CHECK(S_ISREG(st.st_mode));
    int counts_ok = cnt(&f, QUILL_STAT_ECDSA_SIGN) == signs &&
                    cnt(&f, QUILL_STAT_ECDSA_VERIFY) == verifies;
    for (unsigned i = 0; i < QUILL_STATS_FILE_SLOTS; i++)
        if (i != QUILL_STAT_ECDSA_SIGN && i != QUILL_STAT_ECDSA_VERIFY)
            counts_ok &= atomic_load(&f.count[i]) == 0;
    QT_CHECK(counts_ok);
    if (!counts_ok)
        fprintf(stderr, "%s: pid %ld: ecdsa-sign=%llu ecdsa-verify=%llu, want %llu %llu\n",
                where, pid, cnt(&f, QUILL_STAT_ECDSA_SIGN), cnt(&f, QUILL_STAT_ECDSA_VERIFY),
                signs, verifies);
}

/* quill_info_stats into a string; returns its status. */
static int info(const char *dir, int per_process, char *buf, size_t cap, const char *errfile) {
    FILE *out = fmemopen(buf, cap, "w");
    if (out == NULL)
        return -1;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = errfile != NULL ? open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (fd >= 0)
        dup2(fd, STDERR_FILENO);
    int st = quill_info_stats(dir, per_process, out);
    fflush(stderr);
    if (fd >= 0) {
        dup2(saved, STDERR_FILENO);
        close(fd);
    }
    close(saved);
    fclose(out);
    return st;
}

static char *make_dir(const char *name) {
    static char paths[16][128];
    static int used;
    char *p = paths[used++ % 16];
    snprintf(p, 128, "%s/%s", tmp_root, name);
    QT_CHECK(mkdir(p, 0755) == 0);
    return p;
}

static void test_setting(void) {
    char cnf[128];
    char *dir = make_dir("setting");
    snprintf(cnf, sizeof(cnf), "%s/setting.cnf", tmp_root);
    write_cnf(cnf, dir);
    long pid = run_worker(cnf, NULL, "plain", 3, 2);
    QT_CHECK(pid > 0);
    check_file("setting", dir, pid, 3, 2);
    QT_CHECK(count_files(dir) == 1);
    /* Two library contexts of one process: one file, both counted. */
    char *dir2 = make_dir("twoctx");
    snprintf(cnf, sizeof(cnf), "%s/twoctx.cnf", tmp_root);
    write_cnf(cnf, dir2);
    pid = run_worker(cnf, NULL, "twoctx", 2, 1);
    QT_CHECK(pid > 0);
    check_file("twoctx", dir2, pid, 4, 2);
    QT_CHECK(count_files(dir2) == 1);
}

static void test_live_and_kill(void) {
    char cnf[128], buf[4096], want[256];
    char *dir = make_dir("live");
    snprintf(cnf, sizeof(cnf), "%s/live.cnf", tmp_root);
    write_cnf(cnf, dir);
    run r;
    QT_CHECK(start(&r, cnf, NULL, NULL, "pause", 4, 1));
    long pid = read_value(&r, "pid", NULL, 0);
    QT_CHECK(read_value(&r, "ready", NULL, 0) == 1);
    /* The worker now waits: its counts are visible, and it is live. */
    check_file("live", dir, pid, 4, 1);
    QT_CHECK(info(dir, 1, buf, sizeof(buf), NULL) == QUILL_INFO_STATS_OK);
    snprintf(want, sizeof(want), "pid=%ld live ", pid);
    QT_CHECK(strstr(buf, want) != NULL);
    QT_CHECK(strstr(buf, "1 process (1 live, 0 exited)") != NULL);
    /* SIGKILL: nothing runs at exit, the counts stay. */
    QT_CHECK(kill(r.pid, SIGKILL) == 0);
    QT_CHECK(finish(&r) == 128 + SIGKILL);
    check_file("killed", dir, pid, 4, 1);
    QT_CHECK(info(dir, 1, buf, sizeof(buf), NULL) == QUILL_INFO_STATS_OK);
    snprintf(want, sizeof(want), "pid=%ld exited ", pid);
    QT_CHECK(strstr(buf, want) != NULL);
    QT_CHECK(strstr(buf, "total rsa-sign=0 rsa-verify=0 rsa-keygen=0 ecdsa-sign=4 "
                         "ecdsa-verify=1 ") != NULL);
}

static void test_fork(void) {
    char cnf[128];
    char *dir = make_dir("fork");
    snprintf(cnf, sizeof(cnf), "%s/fork.cnf", tmp_root);
    write_cnf(cnf, dir);
    run r;
    QT_CHECK(start(&r, cnf, NULL, NULL, "fork", 2, 1));
    long pid = read_value(&r, "pid", NULL, 0);
    long child = read_value(&r, "child", NULL, 0);
    QT_CHECK(finish(&r) == 0);
    QT_CHECK(pid > 0 && child > 0 && child != pid);
    /* Parent: 2 signs and 1 verify before the fork, 1 sign after; the
     * child: 3 and 2, in its own file. */
    check_file("fork parent", dir, pid, 3, 1);
    check_file("fork child", dir, child, 3, 2);
    QT_CHECK(count_files(dir) == 2);
}

static void test_sum(void) {
    char cnf[128], buf[4096];
    char *dir = make_dir("sum");
    snprintf(cnf, sizeof(cnf), "%s/sum.cnf", tmp_root);
    write_cnf(cnf, dir);
    QT_CHECK(run_worker(cnf, NULL, "plain", 1, 0) > 0);
    QT_CHECK(run_worker(cnf, NULL, "plain", 2, 1) > 0);
    QT_CHECK(run_worker(cnf, NULL, "plain", 5, 2) > 0);
    QT_CHECK(info(dir, 0, buf, sizeof(buf), NULL) == QUILL_INFO_STATS_OK);
    QT_CHECK(strstr(buf, "3 processes (0 live, 3 exited)") != NULL);
    QT_CHECK(strstr(buf, "\ntotal rsa-sign=0 rsa-verify=0 rsa-keygen=0 ecdsa-sign=8 "
                         "ecdsa-verify=3 ec-keygen=0 mldsa-keygen=0 mldsa-sign=0 "
                         "mldsa-verify=0\n") != NULL);
    QT_CHECK(strstr(buf, "pid=") == NULL); /* no per-process lines */
    QT_CHECK(info(dir, 1, buf, sizeof(buf), NULL) == QUILL_INFO_STATS_OK);
    int lines = 0;
    for (const char *p = buf; (p = strstr(p, "\npid=")) != NULL; p++)
        lines++;
    QT_CHECK(lines == 3);
}

static void test_env_dir(void) {
    char cnf[128], cnf2[128];
    char *dir = make_dir("env");
    char *dir_setting = make_dir("env-setting");
    snprintf(cnf, sizeof(cnf), "%s/nostats.cnf", tmp_root);
    write_cnf(cnf, NULL);
    long pid = run_worker(cnf, dir, "plain", 2, 1);
    QT_CHECK(pid > 0);
    check_file("QUILL_STATS=DIR", dir, pid, 2, 1);
    /* Both: the environment wins. */
    snprintf(cnf2, sizeof(cnf2), "%s/env-setting.cnf", tmp_root);
    write_cnf(cnf2, dir_setting);
    pid = run_worker(cnf2, dir, "plain", 1, 1);
    QT_CHECK(pid > 0);
    check_file("QUILL_STATS=DIR over the setting", dir, pid, 1, 1);
    QT_CHECK(count_files(dir_setting) == 0);
    /* quill.so unloaded and loaded again in one process: the second load
     * reopens the process's file. */
    char *dir_reload = make_dir("env-reload");
    char noquill[128];
    snprintf(noquill, sizeof(noquill), "%s/noquill.cnf", tmp_root);
    FILE *f = fopen(noquill, "w");
    QT_CHECK(f != NULL);
    if (f != NULL) {
        fputs("openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
              "[provider_sect]\ndefault = default_sect\n[default_sect]\nactivate = 1\n",
              f);
        fclose(f);
    }
    run r;
    QT_CHECK(start(&r, noquill, dir_reload, NULL, "reload", 2, 1));
    pid = read_value(&r, "pid", NULL, 0);
    QT_CHECK(read_value(&r, "mapped-after-unload", NULL, 0) == 0);
    QT_CHECK(finish(&r) == 0);
    check_file("QUILL_STATS=DIR, reloaded", dir_reload, pid, 4, 2);
    QT_CHECK(count_files(dir_reload) == 1);
}

static void test_env_file(void) {
    char cnf[128], line_file[128];
    char *dir = make_dir("file-and-setting");
    snprintf(cnf, sizeof(cnf), "%s/file-and-setting.cnf", tmp_root);
    write_cnf(cnf, dir);
    snprintf(line_file, sizeof(line_file), "%s/lines.txt", tmp_root);
    long pid = run_worker(cnf, line_file, "plain", 2, 3);
    QT_CHECK(pid > 0);
    check_file("QUILL_STATS=FILE and the setting", dir, pid, 2, 3);
    size_t len = 0;
    char *text = qt_read_file(line_file, &len);
    char want[256];
    snprintf(want, sizeof(want),
             "pid=%ld rsa-sign=0 rsa-verify=0 rsa-keygen=0 ecdsa-sign=2 ecdsa-verify=3 "
             "ec-keygen=0 mldsa-keygen=0 mldsa-sign=0 mldsa-verify=0\n",
             pid);
    QT_CHECK(text != NULL && strcmp(text, want) == 0);
    if (text != NULL && strcmp(text, want) != 0)
        fprintf(stderr, "QUILL_STATS=FILE: got '%s', want '%s'\n", text, want);
    free(text);
}

/* One unusable directory: the worker loads and signs on quill, says why
 * in the parameter, once on stderr, and in the error of an explicit
 * load. */
static void check_bad_dir(const char *what, const char *bad, const char *why, int is_dir) {
    char cnf[128], errfile[128], state[1024], load_err[1024];
    snprintf(cnf, sizeof(cnf), "%s/bad.cnf", tmp_root);
    snprintf(errfile, sizeof(errfile), "%s/bad.err", tmp_root);
    write_cnf(cnf, bad);
    /* QUILL_STATS naming anything but a directory means a file (the
     * line): the explicit load is tried with directories only. */
    if (is_dir)
        setenv("QUILL_TEST_BAD_DIR", bad, 1);
    run r;
    QT_CHECK(start(&r, cnf, NULL, errfile, "state", 2, 1));
    QT_CHECK(read_value(&r, "pid", NULL, 0) > 0);
    state[0] = load_err[0] = '\0';
    QT_CHECK(read_value(&r, "state", state, sizeof(state)) != -1);
    QT_CHECK(!is_dir || read_value(&r, "load-error", load_err, sizeof(load_err)) != -1);
    int st = finish(&r);
    unsetenv("QUILL_TEST_BAD_DIR");
    QT_CHECK(st == 0); /* signed and verified on quill */
    char want[512];
    snprintf(want, sizeof(want),
             "error: quill: cannot keep live statistics (counting stays in memory): stats = %s: "
             "%s",
             bad, why);
    QT_CHECK(strncmp(state, want, strlen(want)) == 0);
    /* The error: library "quill" (OpenSSL prints it before the reason),
     * so the reason has no "quill: " of its own, unlike the stderr line. */
    snprintf(want, sizeof(want),
             "quill:cannot keep live statistics (counting stays in memory): QUILL_STATS = %s: "
             "%s",
             bad, why);
    int load_ok = !is_dir || (strncmp(load_err, want, strlen(want)) == 0 &&
                              strstr(load_err, "(more") == NULL);
    QT_CHECK(load_ok);
    size_t len = 0;
    char *text = qt_read_file(errfile, &len);
    snprintf(want, sizeof(want),
             "quill: cannot keep live statistics (counting stays in memory): stats = %s: %s", bad,
             why);
    /* Exactly one line on stderr, for both loads. */
    QT_CHECK(text != NULL && strncmp(text, want, strlen(want)) == 0 &&
             strchr(text, '\n') == text + len - 1);
    if (text == NULL || strncmp(text, want, strlen(want)) != 0 ||
        strncmp(state, "error: ", 7) != 0 || !load_ok)
        fprintf(stderr, "%s: state '%s', load error '%s', stderr '%s'\n", what, state, load_err,
                text != NULL ? text : "(none)");
    free(text);
}

static void test_bad_dirs(void) {
    char missing[128], file[128];
    snprintf(missing, sizeof(missing), "%s/no-such-dir", tmp_root);
    check_bad_dir("missing", missing, "cannot resolve the path: No such file or directory", 0);
    snprintf(file, sizeof(file), "%s/a-file", tmp_root);
    FILE *f = fopen(file, "w");
    QT_CHECK(f != NULL);
    if (f != NULL)
        fclose(f);
    check_bad_dir("a file", file, "cannot use it: Not a directory", 0);
    if (geteuid() != 0) {
        char *ro = make_dir("read-only");
        QT_CHECK(chmod(ro, 0555) == 0);
        check_bad_dir("read-only", ro, "cannot create a file there: Permission denied", 1);
        chmod(ro, 0755);
    }
    /* A directory where nobody, root included, can create a file. */
    struct stat st;
    if (stat("/proc/1", &st) == 0 && S_ISDIR(st.st_mode))
        check_bad_dir("/proc/1", "/proc/1", "cannot create a file there: ", 1);
}

static void test_corrupt(void) {
    char buf[4096], cnf[128], path[256], errfile[128];
    char *dir = make_dir("corrupt");
    snprintf(cnf, sizeof(cnf), "%s/corrupt.cnf", tmp_root);
    snprintf(errfile, sizeof(errfile), "%s/corrupt.err", tmp_root);
    write_cnf(cnf, dir);
    long pid = run_worker(cnf, NULL, "plain", 2, 0);
    QT_CHECK(pid > 0);
    quill_stats_file good;
    struct stat st;
    QT_CHECK(read_pid_file(dir, pid, &good, &st));
    /* Garbage under a stats file's name. */
    snprintf(path, sizeof(path), "%s/quill-1-2-00000000.stats", dir);
    FILE *f = fopen(path, "w");
    QT_CHECK(f != NULL && fputs("not a stats file, but long enough to hold a header ........"
                                "...............................................\n", f) >= 0);
    if (f != NULL)
        fclose(f);
    /* A truncated copy of a good file, under its own right name. */
    quill_stats_file cut = good;
    cut.pid = 2;
    char name[128];
    QT_CHECK(quill_stats_file_name(name, sizeof(name), "", 2, cut.start_ticks, cut.boot_id) > 0);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    QT_CHECK(f != NULL && fwrite(&cut, 1, 100, f) == 100);
    if (f != NULL)
        fclose(f);
    /* A good file whose name does not match its header. */
    snprintf(path, sizeof(path), "%s/quill-3-4-00000000.stats", dir);
    f = fopen(path, "w");
    QT_CHECK(f != NULL && fwrite(&good, 1, sizeof(good), f) == sizeof(good));
    if (f != NULL)
        fclose(f);
    /* Ignored: not named like a stats file, or being created. */
    snprintf(path, sizeof(path), "%s/README", dir);
    f = fopen(path, "w");
    if (f != NULL)
        fclose(f);
    snprintf(path, sizeof(path), "%s/.quill-5-6-00000000.stats.tmp", dir);
    f = fopen(path, "w");
    if (f != NULL)
        fclose(f);

    QT_CHECK(info(dir, 1, buf, sizeof(buf), errfile) == QUILL_INFO_STATS_SKIPPED);
    QT_CHECK(strstr(buf, "1 process (0 live, 1 exited), 3 files skipped") != NULL);
    QT_CHECK(strstr(buf, "total rsa-sign=0 rsa-verify=0 rsa-keygen=0 ecdsa-sign=2 ") != NULL);
    size_t len = 0;
    char *text = qt_read_file(errfile, &len);
    QT_CHECK(text != NULL && strstr(text, "quill-1-2-00000000.stats: not a quill stats file") &&
             strstr(text, ": truncated or wrong size") &&
             strstr(text, "quill-3-4-00000000.stats: name does not match its header") &&
             strstr(text, "3 files in ") && strstr(text, "README") == NULL &&
             strstr(text, ".tmp") == NULL);
    if (text != NULL)
        fputs(text, stdout);
    free(text);

    /* Nothing usable, nothing at all, no directory. */
    char *empty = make_dir("empty");
    QT_CHECK(info(empty, 0, buf, sizeof(buf), errfile) == QUILL_INFO_STATS_NO_FILES);
    text = qt_read_file(errfile, &len);
    QT_CHECK(text != NULL && strstr(text, "no quill stats files in ") != NULL);
    free(text);
    snprintf(path, sizeof(path), "%s/none", tmp_root);
    QT_CHECK(info(path, 0, buf, sizeof(buf), errfile) == QUILL_INFO_STATS_UNREADABLE_DIR);
    text = qt_read_file(errfile, &len);
    QT_CHECK(text != NULL && strstr(text, "cannot read the stats directory") != NULL &&
             strstr(text, "No such file or directory") != NULL);
    free(text);
}

static void remove_tree(const char *path) {
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", path);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "worker") == 0)
        return worker(argc, argv);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    uint64_t ticks;
    if (n <= 0 || !quill_stats_read_start_ticks(0, &ticks)) {
        fprintf(stderr, "stats_live: no /proc (Linux only); skipped\n");
        return QT_SKIP;
    }
    exe[n] = '\0';
    const char *t = getenv("TMPDIR");
    snprintf(tmp_root, sizeof(tmp_root), "%s/quill-stats-XXXXXX",
             t != NULL && strlen(t) < 32 ? t : "/tmp");
    if (mkdtemp(tmp_root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    unsetenv("QUILL_STATS");
    test_setting();
    test_live_and_kill();
    test_fork();
    test_sum();
    test_env_dir();
    test_env_file();
    test_bad_dirs();
    test_corrupt();
    if (qt_failed == 0)
        remove_tree(tmp_root);
    else
        fprintf(stderr, "files kept in %s\n", tmp_root);
    return qt_finish("stats_live");
}
