/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The library contexts of quill-speed's application rows (speed_app in
 * speed.h) and the check that quill served them.
 *
 * quill counts every operation it completes, per provider context, and
 * writes the counts as one line to the file named by $QUILL_STATS when the
 * context is torn down (provider/stats.h).  Each application row therefore
 * gets a quill context of its own: $QUILL_STATS names a temporary file from
 * before quill is loaded into it until after it is freed, and the line
 * found there is compared by the caller with the operations the row ran
 * there.  Counts that match exactly show that quill, and nothing else,
 * signed and verified in that context.  quill-speed's other contexts are
 * not torn down meanwhile, so they write nothing there. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, setenv, clock_gettime */

#include "speed.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/provider.h>

uint64_t speed_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The default properties of openssl.cnf.example's [evp_properties]. */
#define APP_PROPERTIES "?quill.sig=yes"

/* Sets $QUILL_STATS to a new empty temporary file, keeping the caller's
 * value. */
static int stats_redirect(speed_app *app) {
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || *tmp == '\0')
        tmp = "/tmp";
    int n = snprintf(app->stats_path, sizeof(app->stats_path), "%s/quill-speed-stats-XXXXXX",
                     tmp);
    if (n < 0 || (size_t)n >= sizeof(app->stats_path))
        return 0;
    int fd = mkstemp(app->stats_path);
    if (fd < 0) {
        app->stats_path[0] = '\0';
        return 0;
    }
    close(fd);
    const char *old = getenv("QUILL_STATS");
    if (old != NULL && (app->saved_stats = strdup(old)) == NULL)
        return 0;
    if (setenv("QUILL_STATS", app->stats_path, 1) != 0)
        return 0;
    app->stats_set = 1;
    return 1;
}

/* The provider that a NULL-query fetch of signature |alg| resolves to. */
static int sig_resolves_to(OSSL_LIB_CTX *libctx, const char *alg, const char *want) {
    EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(libctx, alg, NULL);
    const char *got = sig != NULL ? OSSL_PROVIDER_get0_name(EVP_SIGNATURE_get0_provider(sig))
                                  : "none";
    int ok = strcmp(got, want) == 0;
    if (!ok)
        fprintf(stderr, "quill-speed: %s signatures resolve to %s, not %s\n", alg, got, want);
    EVP_SIGNATURE_free(sig);
    return ok;
}

int speed_app_open(speed_app *app, const char *modules) {
    memset(app, 0, sizeof(*app));
    if (!stats_redirect(app)) {
        fprintf(stderr, "quill-speed: cannot make a temporary file for quill's counters\n");
        return 0;
    }
    for (size_t c = 0; c < SPEED_APP_N; c++) {
        if ((app->libctx[c] = OSSL_LIB_CTX_new()) == NULL)
            return 0;
        OSSL_PROVIDER_set_default_search_path(app->libctx[c], modules);
    }
    OSSL_LIB_CTX *q = app->libctx[SPEED_APP_QUILL];
    if ((app->loaded[0] = speed_provider_load(app->libctx[SPEED_APP_DEFAULT], "default", modules)) == NULL ||
        (app->loaded[1] = speed_provider_load(q, "default", modules)) == NULL ||
        (app->loaded[2] = speed_provider_load(q, "quill", modules)) == NULL)
        return 0;
    if (EVP_set_default_properties(q, APP_PROPERTIES) != 1) {
        ERR_print_errors_fp(stderr);
        return 0;
    }
    int ok = sig_resolves_to(q, "RSA", "quill") & sig_resolves_to(q, "ECDSA", "quill") &
             sig_resolves_to(app->libctx[SPEED_APP_DEFAULT], "RSA", "default") &
             sig_resolves_to(app->libctx[SPEED_APP_DEFAULT], "ECDSA", "default");
    ERR_clear_error();
    return ok;
}

/* Adds up quill's lines "pid=N name=N ..." (one per context torn down
 * while the file was named; normally just the row's). */
static void parse_counts(const char *text, speed_counts *c) {
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        const char *stop = nl != NULL ? nl : line + strlen(line);
        if (strncmp(line, "pid=", 4) == 0) {
            c->valid = 1;
            for (const char *p = line; p < stop;) {
                const char *eq = memchr(p, '=', (size_t)(stop - p));
                if (eq == NULL)
                    break;
                size_t klen = (size_t)(eq - p);
                char *end;
                unsigned long v = strtoul(eq + 1, &end, 10);
                if (klen == 8 && strncmp(p, "rsa-sign", 8) == 0)
                    c->rsa_sign += v;
                else if (klen == 10 && strncmp(p, "rsa-verify", 10) == 0)
                    c->rsa_verify += v;
                else if (klen == 10 && strncmp(p, "ecdsa-sign", 10) == 0)
                    c->ecdsa_sign += v;
                else if (klen == 12 && strncmp(p, "ecdsa-verify", 12) == 0)
                    c->ecdsa_verify += v;
                else if (!(klen == 3 && strncmp(p, "pid", 3) == 0))
                    c->others += v;
                p = end;
                while (p < stop && *p == ' ')
                    p++;
            }
        }
        line = nl != NULL ? nl + 1 : stop;
    }
}

/* Reads the counter file (small: one line per context torn down). */
static void read_counts(const speed_app *app, speed_counts *c, char *line, size_t cap) {
    line[0] = '\0';
    FILE *f = fopen(app->stats_path, "r");
    if (f == NULL)
        return;
    size_t n = fread(line, 1, cap - 1, f);
    line[n] = '\0';
    fclose(f);
    parse_counts(line, c);
}

void speed_app_close(speed_app *app, speed_counts *quill) {
    memset(quill, 0, sizeof(*quill));
    for (size_t i = 3; i-- > 0;)
        if (app->loaded[i] != NULL)
            OSSL_PROVIDER_unload(app->loaded[i]);
    for (size_t c = SPEED_APP_N; c-- > 0;)
        OSSL_LIB_CTX_free(app->libctx[c]);
    char line[1024];
    if (app->stats_path[0] != '\0')
        read_counts(app, quill, line, sizeof(line));
    if (app->stats_set) {
        if (app->saved_stats != NULL)
            setenv("QUILL_STATS", app->saved_stats, 1);
        else
            unsetenv("QUILL_STATS");
    }
    /* The caller's own counter file still gets quill's line. */
    if (app->saved_stats != NULL && *app->saved_stats != '\0' && line[0] != '\0') {
        int fd = open(app->saved_stats, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ssize_t w = write(fd, line, strlen(line));
            (void)w;
            close(fd);
        }
    }
    if (app->stats_path[0] != '\0')
        unlink(app->stats_path);
    free(app->saved_stats);
    memset(app, 0, sizeof(*app));
}
