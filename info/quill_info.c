/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-info: is quill working?  Configures OpenSSL's default library
 * context as an application does (OPENSSL_init_crypto with the
 * configuration file, OPENSSL_CONF and OPENSSL_MODULES honoured), then
 * reports the configuration file, whether it names quill, whether quill is
 * active (version, module file, CPU backends), which provider serves each
 * algorithm, and one signature and verification per algorithm counted on
 * quill.  Exit status 0 when quill is active and served everything; 1 with
 * the reason in one line on stderr otherwise; 2 for a usage error.
 *
 * Modes: the report (default), --stats DIR (the live counters, info_stats.c
 * when built), --help, --version.  A new mode is one more enum value, one
 * more option in parse_options and one more case in main. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "info.h"
#include "info_stats.h"

#ifndef QUILL_INFO_VERSION
#error "the build defines QUILL_INFO_VERSION (project(VERSION))"
#endif

enum info_mode { MODE_REPORT, MODE_STATS, MODE_HELP, MODE_VERSION };

typedef struct info_options {
    enum info_mode mode;
    int verbose;
    int json;
    int load;
    const char *stats_dir;
    int per_process;
} info_options;

static void usage(FILE *out) {
    fputs("usage: quill-info [-v] [--json] [--load]\n"
          "       quill-info --stats DIR [--per-process]\n"
          "       quill-info --help | --version\n"
          "\n"
          "Reports whether OpenSSL, configured as applications are (OPENSSL_CONF,\n"
          "OPENSSL_MODULES), has quill active, and signs and verifies once per\n"
          "algorithm to prove that quill serves them.\n"
          "\n"
          "  -v, --verbose   more detail (configuration, all providers, timings)\n"
          "  --json          the report as a JSON object\n"
          "  --load          load quill even if the configuration does not (and prefer\n"
          "                  its signatures, as openssl.cnf.example does), to check the\n"
          "                  module itself\n"
          "  --stats DIR     sum the live counters in DIR (--per-process: one line per\n"
          "                  process)\n"
          "\n"
          "Exit status: 0 quill is active and served every signature; 1 it is not (the\n"
          "reason in one line on stderr); 2 usage error.\n",
          out);
}

/* Returns 0 on success, else prints the problem and returns 2. */
static int parse_options(int argc, char **argv, info_options *o) {
    memset(o, 0, sizeof(*o));
    o->mode = MODE_REPORT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->mode = MODE_HELP;
        } else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            o->mode = MODE_VERSION;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--load") == 0) {
            o->load = 1;
        } else if (strcmp(a, "--stats") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "quill-info: --stats needs a directory\n");
                return 2;
            }
            o->mode = MODE_STATS;
            o->stats_dir = argv[++i];
        } else if (strncmp(a, "--stats=", 8) == 0) {
            o->mode = MODE_STATS;
            o->stats_dir = a + 8;
        } else if (strcmp(a, "--per-process") == 0) {
            o->per_process = 1;
        } else {
            fprintf(stderr, "quill-info: unknown option %s (try --help)\n", a);
            return 2;
        }
    }
    if (o->per_process && o->mode != MODE_STATS) {
        fprintf(stderr, "quill-info: --per-process goes with --stats DIR\n");
        return 2;
    }
    return 0;
}

/* The configuration file and what it says about quill. */
static void report_config(quill_info_report *r, const quill_info_config *c) {
    const char *origin = c->from_env ? "OPENSSL_CONF" : "OpenSSL's default";
    if (c->problem[0] != '\0') {
        quill_info_add(r, 0, "config.file", "config file", "NOT READ: %s", c->problem);
        quill_info_fail(r, "%s", c->problem);
        return;
    }
    quill_info_add(r, 0, "config.file", "config file", "%s (%s), read%s", c->file, origin,
                   c->from_env && c->file[0] != '/'
                       ? " (relative: programs started in another directory will not find it)"
                       : "");
    quill_info_add(r, 1, "config.sections", "config sections",
                   "openssl_conf = %s, providers = %s (%s), default_properties = %s, "
                   "config_diagnostics = %s",
                   c->has_init ? c->init_section : "(none)",
                   c->has_providers ? c->providers_section : "(none)", c->providers,
                   c->default_properties[0] ? c->default_properties : "(none)",
                   c->diagnostics ? "1" : "0");
    if (c->names_quill)
        quill_info_add(r, 0, "config.quill", "config names quill",
                       "yes: %s = %s in [%s], activate = %s, module %s (%s%s)", c->quill_name,
                       c->quill_section, c->providers_section,
                       c->quill_activate_value[0] ? c->quill_activate_value : "(absent)",
                       c->module_file, c->module_dir_from,
                       c->module_file[0] != '/'
                           ? "; relative: programs started in another directory will not find it"
                           : "");
    else if (!c->has_init)
        quill_info_add(r, 0, "config.quill", "config names quill",
                       "no: the file has no openssl_conf section, so it configures no provider");
    else if (!c->has_providers)
        quill_info_add(r, 0, "config.quill", "config names quill",
                       "no: [%s] has no providers section", c->init_section);
    else
        quill_info_add(r, 0, "config.quill", "config names quill", "no: [%s] names only %s",
                       c->providers_section, c->providers[0] ? c->providers : "(nothing)");
}

/* Why quill, named and activated by the configuration, is not active: the
 * module file missing, else what OpenSSL says loading it again. */
static void why_not_loaded(quill_info_report *r, const quill_info_config *c,
                           const char *init_errors) {
    char reason[QUILL_INFO_VALUE_MAX];
    struct stat st;
    if (stat(c->module_file, &st) != 0) {
        const char *slash = strrchr(c->module_file, '/');
        if (strcmp(c->module_dir_from, "module =") == 0 || slash == NULL)
            quill_info_format(reason, sizeof(reason), "module %s (module = in [%s]) not found",
                     c->module_file, c->quill_section);
        else
            quill_info_format(reason, sizeof(reason), "module %s not found in %.*s (%s%s)",
                              slash + 1, (int)(slash - c->module_file), c->module_file,
                              c->module_dir_from,
                              c->module_file[0] != '/' ? ", relative to the current directory"
                                                       : "");
    } else if (init_errors[0] != '\0') {
        quill_info_format(reason, sizeof(reason), "%s: %s", c->module_file, init_errors);
    } else {
        /* OpenSSL 3.0 takes a provider that fails to activate as a
         * non-fatal configuration error and drops its errors, even with
         * config_diagnostics: load the same file again, in a library
         * context of its own, to collect them. */
        char errs[QUILL_INFO_VALUE_MAX] = "";
        OSSL_LIB_CTX *scratch = OSSL_LIB_CTX_new();
        ERR_clear_error();
        /* A relative name would be looked up inside the modules
         * directory again: make it absolute. */
        char file[QUILL_INFO_PATH_MAX + 1];
        char cwd[QUILL_INFO_PATH_MAX];
        if (c->module_file[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
            quill_info_format(file, sizeof(file), "%s/%s", cwd, c->module_file);
        else
            quill_info_format(file, sizeof(file), "%s", c->module_file);
        OSSL_PROVIDER *p = scratch != NULL ? OSSL_PROVIDER_load(scratch, file) : NULL;
        quill_info_errors(errs, sizeof(errs));
        if (p != NULL)
            OSSL_PROVIDER_unload(p);
        OSSL_LIB_CTX_free(scratch);
        ERR_clear_error();
        quill_info_format(reason, sizeof(reason), "%s: %s", c->module_file,
                          errs[0] != '\0'  ? errs
                          : p != NULL      ? "it loads when asked directly, but the "
                                             "configuration did not activate it"
                                           : "loading it reports no error");
    }
    quill_info_add(r, 0, "quill.problem", "why not loaded", "%s", reason);
    quill_info_fail(r, "%s names quill but it is not loaded: %s", c->file, reason);
}

static int run_report(const info_options *o) {
    static quill_info_report report; /* large: off the stack */
    static quill_info_config config;
    static quill_info_quill quill;
    quill_info_report *r = &report;
    char init_errors[QUILL_INFO_VALUE_MAX] = "";

    /* As an application: the default context, configured at start-up. */
    int init_ok = OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL);
    quill_info_errors(init_errors, sizeof(init_errors));
    quill_info_config_read(&config);

    quill_info_add(r, 1, "openssl", "OpenSSL", "%s (modules directory %s)",
                   OpenSSL_version(OPENSSL_VERSION), OPENSSL_info(OPENSSL_INFO_MODULES_DIR));
    report_config(r, &config);
    if (init_ok) {
        quill_info_add(r, 1, "config.init", "configuration loaded", "yes");
    } else {
        /* Only with config_diagnostics: applications that check refuse to
         * start (openssl: "FATAL: Startup failure"). */
        quill_info_add(r, 0, "config.init", "configuration loaded", "FAILED: %s", init_errors);
        quill_info_fail(r, "OpenSSL rejects %s (config_diagnostics = 1): %s", config.file,
                        init_errors[0] ? init_errors : "no reason given");
    }

    quill_info_find_quill(&quill);
    int loaded_here = 0;
    if (quill.prov == NULL && o->load) {
        if (OSSL_PROVIDER_try_load(NULL, "quill", 1) != NULL) {
            loaded_here = 1;
            if (config.default_properties[0] == '\0')
                EVP_set_default_properties(NULL, "?quill.sig=yes");
            quill_info_find_quill(&quill);
        } else {
            char errs[QUILL_INFO_VALUE_MAX];
            quill_info_fail(r, "--load: quill could not be loaded: %s",
                            quill_info_errors(errs, sizeof(errs)));
        }
    }

    if (quill.prov != NULL) {
        quill_info_add(r, 0, "quill", "quill", "active%s, version %s (provider \"%s\")",
                       loaded_here ? " (loaded by --load, not by the configuration)" : "",
                       quill.version[0] ? quill.version : "?", quill.config_name);
        quill_info_add(r, 0, "module", "module", "%s",
                       quill.module_path[0] ? quill.module_path : "(not reported)");
        quill_info_add(r, 0, "backends", "backends", "%s",
                       quill.backends[0] ? quill.backends : "(not reported)");
        /* "off", "live: DIR" or "error: ..." (the statistics directory) */
        quill_info_add(r, 0, "stats", "stats", "%s",
                       quill.stats[0] ? quill.stats : "(not reported)");
        /* the families quill leaves to the default provider here */
        quill_info_add(r, 0, "declined", "declined", "%s",
                       quill.declined[0] ? quill.declined : "(not reported)");
        quill_info_add(r, 1, "buildinfo", "buildinfo", "%s", quill.buildinfo);
    } else {
        quill_info_add(r, 0, "quill", "quill", "NOT ACTIVE in the default library context");
        if (config.problem[0] != '\0' || o->load) {
            /* reported above */
        } else if (!config.names_quill) {
            quill_info_fail(r,
                            "%s does not name quill: add its provider section (quill = "
                            "quill_sect with activate = 1, see openssl.cnf.example) or run with "
                            "OPENSSL_CONF=/path/to/openssl.cnf.example",
                            config.file);
        } else if (config.quill_section_missing) {
            quill_info_fail(r, "%s names quill (%s = %s in [%s]) but has no section [%s]",
                            config.file, config.quill_name, config.quill_section,
                            config.providers_section, config.quill_section);
        } else if (!config.quill_activate) {
            quill_info_fail(r, "%s names quill ([%s]) but does not activate it: add activate = 1",
                            config.file, config.quill_section);
        } else {
            why_not_loaded(r, &config, init_errors);
        }
    }
    quill_info_add(r, 1, "providers", "active providers", "%s",
                   quill.active[0] ? quill.active : "(none)");

    quill_info_serving(r, &quill, &config);
    if (quill.prov != NULL)
        quill_info_selftest(r, &quill, o->verbose);

    if (r->reason[0] == '\0')
        quill_info_add(r, 0, "result", "result",
                       "ok: quill is active and served every signature above%s",
                       quill.prov != NULL && quill.declined[0] != '\0' &&
                               strncmp(quill.declined, "none", 4) != 0
                           ? " but those of the families it declines on this CPU"
                           : "");
    else
        quill_info_add(r, 0, "result", "result", "PROBLEM: %s", r->reason);
    quill_info_print(r, o->verbose, o->json, stdout);
    fflush(stdout);
    if (r->reason[0] != '\0') {
        fprintf(stderr, "quill-info: %s\n", r->reason);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    info_options o;
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    switch (o.mode) {
    case MODE_HELP:
        usage(stdout);
        return 0;
    case MODE_VERSION:
        printf("quill-info %s\n", QUILL_INFO_VERSION);
        return 0;
    case MODE_STATS:
        return quill_info_stats(o.stats_dir, o.per_process, stdout);
    case MODE_REPORT:
    default:
        return run_report(&o);
    }
}
