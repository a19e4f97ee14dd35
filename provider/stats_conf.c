/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _POSIX_C_SOURCE 200809L

#include "stats_conf.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov_err.h"
#include "stats_dir.h"

/* The configuration's "stats" value (a string the core owns while the
 * provider is loaded), or NULL. */
static const char *conf_stats_dir(const quill_provctx *ctx) {
    const char *value = NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_utf8_ptr(QUILL_CONF_STATS, (char **)&value, 0),
        OSSL_PARAM_END,
    };
    if (ctx->core_get_params == NULL || !ctx->core_get_params(ctx->handle, params) ||
        !OSSL_PARAM_modified(&params[0]) || value == NULL || *value == '\0')
        return NULL;
    return value;
}

/* Writes the line to standard error, once per process, if fd 2 is open and
 * not a socket (a daemon's fd 2 may be a reused descriptor: never write
 * into a connection). */
static void tell_stderr_once(const char *line) {
    static atomic_flag told = ATOMIC_FLAG_INIT;
    struct stat st;
    if (fstat(STDERR_FILENO, &st) != 0 || S_ISSOCK(st.st_mode))
        return;
    if (atomic_flag_test_and_set(&told))
        return;
    char buf[1024];
    int n = snprintf(buf, sizeof(buf), "%s\n", line);
    if (n <= 0)
        return;
    size_t len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
    if (buf[len - 1] != '\n')
        buf[len - 1] = '\n';
    ssize_t w = write(STDERR_FILENO, buf, len);
    (void)w;
}

static char *state_string(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *s = OPENSSL_malloc(la + lb + 1);
    if (s != NULL) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

void quill_prov_stats_configure(quill_provctx *ctx) {
    const char *dir, *source;
    if ((dir = quill_stats_env_dir()) != NULL) {
        source = "QUILL_STATS";
    } else if ((dir = conf_stats_dir(ctx)) != NULL) {
        source = "stats";
    } else {
        return;
    }
    int err = 0;
    const char *step = "";
    _Atomic uint64_t *counters = quill_stats_dir_open(dir, &err, &step);
    if (counters == NULL) {
        char detail[768];
        (void)snprintf(detail, sizeof(detail), "%s = %s: %s: %s", source, dir, step,
                       strerror(err));
        QUILL_RAISE_MSG(ctx, QUILL_R_STATS_DIR, "%s", detail);
        char line[900];
        (void)snprintf(line, sizeof(line),
                       "quill: cannot keep live statistics (counting stays in memory): %s",
                       detail);
        tell_stderr_once(line);
        ctx->stats_state = state_string("error: ", line);
        return;
    }
    quill_stats_use_file(&ctx->stats, counters);
    ctx->stats_state = state_string("live: ", dir);
}

const char *quill_prov_stats_state(const quill_provctx *ctx) {
    return ctx->stats_state != NULL ? ctx->stats_state : "off";
}
