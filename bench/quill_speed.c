/* Copyright quill authors.
 *
 * quill-speed: OpenSSL's default provider against quill, operation by
 * operation, in the same process.
 *
 *   quill-speed [--rounds N] [--seconds S] [--json[=FILE]] [--list] [-v]
 *               [--require-quill] [FILTER...]
 *
 * Each operation is measured in N rounds (default 5); in every round each
 * provider runs it for S seconds (default 0.5; key generation at least one
 * key), the two taking turns (the order alternates between rounds) so that
 * clock changes and noise from other processes hit both alike.  The figures
 * reported are the median round by rate.  FILTERs are substrings that must
 * all occur in an operation's name ("rsa2048-sign"; see --list).
 *
 * quill.so is looked up in $OPENSSL_MODULES if set, else in the build
 * directory compiled in (QUILL_SPEED_MODULES_DIR).
 *
 * Adding an algorithm is one line in algs[] below: sign, verify and keygen
 * all come from it. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "speed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/provider.h>

#ifndef QUILL_SPEED_MODULES_DIR
#define QUILL_SPEED_MODULES_DIR "."
#endif

/* Signatures are over a SHA-256 digest with EVP_PKEY_sign, as `openssl
 * speed` does; RSA uses PKCS#1 v1.5 padding. */
static const speed_alg algs[] = {
    {"rsa2048", "RSA 2048", "RSA", 2048, NULL, "SHA256", "pkcs1"},
    {"rsa3072", "RSA 3072", "RSA", 3072, NULL, "SHA256", "pkcs1"},
    {"rsa4096", "RSA 4096", "RSA", 4096, NULL, "SHA256", "pkcs1"},
    {"ecdsa-p256", "ECDSA P-256", "EC", 0, "P-256", "SHA256", NULL},
    /* Next: {"mldsa65", "ML-DSA-65", "ML-DSA-65", 0, NULL, NULL, NULL}. */
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

#define ROW_CAP_FACTOR 60

static const char *const provs[2] = {"default", "quill"};

typedef struct options {
    size_t rounds;
    double seconds;
    int json;              /* 0: none; 1: JSON to stdout, text to stderr; 2: to json_path */
    const char *json_path;
    int list, verbose;
    int require_quill;     /* fail unless quill served every operation run */
    char **filters;
    size_t nfilters;
} options;

/* Per-algorithm state, made on first use: the benchmark key in each
 * provider (NULL if the provider cannot hold it) and a reference signature
 * by the default provider. */
typedef struct alg_state {
    int made;
    EVP_PKEY *key[2];
    uint8_t *ref_sig;
    size_t ref_sig_len;
} alg_state;

static void usage(FILE *out) {
    fprintf(out,
            "usage: quill-speed [--rounds N] [--seconds S] [--json[=FILE]] [--list] [-v]\n"
            "                   [--require-quill] [FILTER...]\n"
            "  --rounds N       rounds per operation and provider (default 5, max %d)\n"
            "  --seconds S      time per round (default 0.5)\n"
            "  --json           JSON results on stdout (the text goes to stderr)\n"
            "  --json=FILE      JSON results written to FILE\n"
            "  --list           list the operation names and exit\n"
            "  -v               print every round\n"
            "  --require-quill  exit 1 unless quill served every operation (smoke test)\n"
            "  FILTER           run only operations whose name contains every FILTER\n",
            SPEED_MAX_ROUNDS);
}

static int parse_args(int argc, char **argv, options *o) {
    o->rounds = 5;
    o->seconds = 0.5;
    o->filters = calloc((size_t)argc, sizeof(char *));
    if (o->filters == NULL)
        return 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if ((strcmp(a, "--rounds") == 0 || strcmp(a, "--seconds") == 0) && i + 1 < argc) {
            const char *v = argv[++i];
            errno = 0;
            if (a[2] == 'r') {
                unsigned long n = strtoul(v, &end, 10);
                if (errno || *end || n < 1 || n > SPEED_MAX_ROUNDS)
                    return 0;
                o->rounds = (size_t)n;
            } else {
                double s = strtod(v, &end);
                if (errno || *end || !(s > 0.0 && s <= 60.0))
                    return 0;
                o->seconds = s;
            }
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strncmp(a, "--json=", 7) == 0 && a[7] != '\0') {
            o->json = 2;
            o->json_path = a + 7;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (strcmp(a, "--require-quill") == 0) {
            o->require_quill = 1;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-') {
            return 0;
        } else {
            o->filters[o->nfilters++] = argv[i];
        }
    }
    return 1;
}

static int selected(const options *o, const char *name) {
    for (size_t i = 0; i < o->nfilters; i++)
        if (strstr(name, o->filters[i]) == NULL)
            return 0;
    return 1;
}

static uint64_t now_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Runs |im| for |seconds| (at least once).  Returns 0 if an operation
 * failed. */
static int measure(speed_impl *im, double seconds, uint64_t *iters, uint64_t *usec) {
    uint64_t budget = (uint64_t)(seconds * 1e6), t0 = now_usec(), t, n = 0;
    do {
        if (!speed_impl_run(im))
            return 0;
        n++;
        t = now_usec();
    } while (t - t0 < budget);
    *iters = n;
    *usec = t - t0;
    return 1;
}

static void alg_state_make(OSSL_LIB_CTX *libctx, const speed_alg *alg, alg_state *st) {
    st->made = 1;
    EVP_PKEY *key = speed_key_make(libctx, alg);
    if (key == NULL)
        return;
    for (int p = 0; p < 2; p++) {
        st->key[p] = speed_key_import(libctx, key, provs[p]);
        if (st->key[p] == NULL)
            fprintf(stderr, "quill-speed: provider %s cannot hold the %s key\n", provs[p],
                    alg->label);
    }
    EVP_PKEY_free(key);
    if (st->key[0] != NULL &&
        !speed_sign_once(libctx, alg, st->key[0], "default", &st->ref_sig, &st->ref_sig_len))
        fprintf(stderr, "quill-speed: cannot make a reference %s signature\n", alg->label);
}

static void alg_state_free(alg_state *st) {
    EVP_PKEY_free(st->key[0]);
    EVP_PKEY_free(st->key[1]);
    free(st->ref_sig);
}

/* Measures one row.  Returns 0 on a hard failure: a wrong signature or an
 * operation failing midway (the row is then marked unavailable). */
static int run_row(OSSL_LIB_CTX *libctx, const options *o, speed_row *row, alg_state *st,
                   FILE *text) {
    speed_impl *im[2] = {NULL, NULL};
    speed_result *res[2] = {&row->def, &row->quill};
    int ok = 1;

    if (row->kind != SPEED_KEYGEN && !st->made)
        alg_state_make(libctx, row->alg, st);
    for (int p = 0; p < 2; p++) {
        if (row->kind != SPEED_KEYGEN && (st->key[p] == NULL || st->ref_sig == NULL))
            continue;
        im[p] = speed_impl_new(libctx, row->alg, row->kind, provs[p], st->key[p], st->ref_sig,
                               st->ref_sig_len);
        if (im[p] != NULL && row->kind == SPEED_SIGN) {
            /* The signature this provider makes must verify with the other
             * implementation, or its speed means nothing. */
            size_t len;
            const uint8_t *sig = speed_impl_signature(im[p], &len);
            if (!speed_verify_once(libctx, row->alg, st->key[0], "default", sig, len)) {
                fprintf(stderr, "quill-speed: %s signature by %s does NOT verify\n",
                        row->alg->label, provs[p]);
                speed_impl_free(im[p]);
                im[p] = NULL;
                ok = 0;
            }
        }
        res[p]->available = im[p] != NULL;
    }

    /* Key generation is slow and its time varies a lot from key to key: a
     * row stops starting new rounds once it has used ROW_CAP_FACTOR times
     * the per-round time (30 s at the default 0.5 s). */
    uint64_t t_row = now_usec(), cap = (uint64_t)(o->seconds * ROW_CAP_FACTOR * 1e6);
    for (size_t r = 0; r < o->rounds; r++) {
        if (r > 0 && now_usec() - t_row > cap) {
            fprintf(text, "  (%s %s: time cap reached after %zu rounds)\n", row->alg->label,
                    speed_kind_name(row->kind), r);
            break;
        }
        for (int t = 0; t < 2; t++) {
            int p = (int)(r & 1) ^ t; /* alternate which provider goes first */
            if (im[p] == NULL)
                continue;
            uint64_t n, us;
            if (!measure(im[p], o->seconds, &n, &us)) {
                fprintf(stderr, "quill-speed: %s %s failed on provider %s\n", row->alg->label,
                        speed_kind_name(row->kind), provs[p]);
                ERR_print_errors_fp(stderr);
                speed_impl_free(im[p]);
                im[p] = NULL;
                res[p]->available = 0;
                ok = 0;
                continue;
            }
            res[p]->iters[res[p]->rounds] = n;
            res[p]->usec[res[p]->rounds] = us;
            res[p]->rounds++;
            if (o->verbose)
                fprintf(text, "  round %zu %-7s %llu ops in %lluus (%.1f ops/sec)\n", r + 1,
                        provs[p], (unsigned long long)n, (unsigned long long)us,
                        (double)n * 1e6 / (double)(us ? us : 1));
        }
    }
    speed_impl_free(im[0]);
    speed_impl_free(im[1]);
    speed_result_finish(&row->def);
    speed_result_finish(&row->quill);
    speed_print_line(text, row, "default", &row->def, -1.0);
    speed_print_line(text, row, "quill", &row->quill, speed_row_ratio(row));
    fflush(text);
    return ok;
}

static const char *quill_version(OSSL_PROVIDER *quill) {
    static char buf[64] = "unknown";
    const char *v = NULL;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&v, 0),
                       OSSL_PARAM_construct_end()};
    if (OSSL_PROVIDER_get_params(quill, p) == 1 && v != NULL)
        snprintf(buf, sizeof(buf), "%s", v);
    return buf;
}

int main(int argc, char **argv) {
    options o;
    memset(&o, 0, sizeof(o));
    if (!parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }

    speed_row rows[NALGS * SPEED_KIND_COUNT];
    size_t nrows = 0;
    memset(rows, 0, sizeof(rows));
    for (size_t a = 0; a < NALGS; a++) {
        for (int k = 0; k < SPEED_KIND_COUNT; k++) {
            char name[128];
            snprintf(name, sizeof(name), "%s-%s", algs[a].id, speed_kind_name((speed_kind)k));
            if (o.list) {
                printf("%s\n", name);
                continue;
            }
            if (!selected(&o, name))
                continue;
            rows[nrows].alg = &algs[a];
            rows[nrows].kind = (speed_kind)k;
            nrows++;
        }
    }
    if (o.list) {
        free(o.filters);
        return 0;
    }
    if (nrows == 0) {
        fprintf(stderr, "quill-speed: no operation matches the filters (see --list)\n");
        free(o.filters);
        return 2;
    }

    FILE *text = o.json == 1 ? stderr : stdout;
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    if (libctx == NULL)
        return 1;
    const char *modules = getenv("OPENSSL_MODULES");
    if (modules == NULL || *modules == '\0')
        modules = QUILL_SPEED_MODULES_DIR;
    OSSL_PROVIDER_set_default_search_path(libctx, modules);
    OSSL_PROVIDER *def = OSSL_PROVIDER_load(libctx, "default");
    OSSL_PROVIDER *quill = OSSL_PROVIDER_load(libctx, "quill");
    if (def == NULL || quill == NULL) {
        fprintf(stderr, "quill-speed: cannot load the %s provider (module path %s)\n",
                def == NULL ? "default" : "quill", modules);
        ERR_print_errors_fp(stderr);
        return 1;
    }

    char cpu[256];
    speed_meta meta = {speed_cpu_model(cpu, sizeof(cpu)), OpenSSL_version(OPENSSL_VERSION),
                       quill_version(quill), o.rounds, o.seconds};
    fprintf(text, "CPU: %s\nOpenSSL: %s\nquill: %s (%s)\n", meta.cpu, meta.openssl,
            meta.quill_version, modules);
    fprintf(text, "%zu rounds of %.2fs per operation and provider, in turns; medians shown\n\n",
            o.rounds, o.seconds);
    fflush(text);

    int ok = 1;
    alg_state states[NALGS];
    memset(states, 0, sizeof(states));
    for (size_t i = 0; i < nrows; i++)
        ok &= run_row(libctx, &o, &rows[i], &states[rows[i].alg - algs], text);
    speed_print_summary(text, rows, nrows);
    for (size_t i = 0; o.require_quill && i < nrows; i++) {
        if (!rows[i].quill.available || rows[i].quill.rounds == 0) {
            fprintf(stderr, "quill-speed: quill did not serve %s %s\n", rows[i].alg->label,
                    speed_kind_name(rows[i].kind));
            ok = 0;
        }
    }

    if (o.json != 0) {
        FILE *out = o.json == 1 ? stdout : fopen(o.json_path, "w");
        if (out == NULL || !speed_write_json(out, &meta, rows, nrows)) {
            fprintf(stderr, "quill-speed: cannot write the JSON results\n");
            ok = 0;
        }
        if (out != NULL && out != stdout && fclose(out) != 0)
            ok = 0;
    }

    for (size_t a = 0; a < NALGS; a++)
        alg_state_free(&states[a]);
    OSSL_PROVIDER_unload(quill);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(libctx);
    free(o.filters);
    return ok ? 0 : 1;
}
