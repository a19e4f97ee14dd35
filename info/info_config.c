/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The configuration file, read as OpenSSL reads it for the default library
 * context, but only read: the file OPENSSL_CONF names (else OpenSSL's
 * default one), parsed with NCONF_load, then the chain OpenSSL follows,
 * openssl_conf -> init section -> providers = section -> one section per
 * provider, looking for an entry that is quill: named quill, with identity
 * quill, or with a module file whose name starts with "quill".  Where
 * OpenSSL would look for the module file is worked out as OpenSSL 3's
 * provider loader does it (provider_core.c): the module value, else the
 * name plus ".so", taken as is if absolute, else inside $OPENSSL_MODULES or
 * OpenSSL's modules directory. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "info.h"

/* Copies into a fixed array, cut if too long (PATH_MAX-sized arrays hold
 * any path). */
#define COPY(dst, src) quill_info_format((dst), sizeof(dst), "%s", (src))

/* A value of |name| in |section|, or NULL; never leaves an error queued. */
static const char *get(const CONF *conf, const char *section, const char *name) {
    ERR_set_mark();
    const char *v = NCONF_get_string(conf, section, name);
    ERR_pop_to_mark();
    return v;
}

/* OpenSSL's reading of a boolean setting (activate, config_diagnostics). */
static int is_true(const char *v) {
    static const char *const yes[] = {"1", "yes", "YES", "true", "TRUE", "on", "ON"};
    if (v == NULL)
        return 0;
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (strcmp(v, yes[i]) == 0)
            return 1;
    return 0;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* Whether the provider entry |name| with section |sect| is quill. */
static int is_quill(const CONF *conf, const char *name, const char *sect) {
    if (strcmp(name, "quill") == 0)
        return 1;
    if (sect == NULL)
        return 0;
    const char *identity = get(conf, sect, "identity");
    if (identity != NULL && strcmp(identity, "quill") == 0)
        return 1;
    const char *module = get(conf, sect, "module");
    return module != NULL && strncmp(base_name(module), "quill", 5) == 0;
}

/* Where OpenSSL's provider loader looks for the module of the entry. */
static void module_file(quill_info_config *c, const char *name, const char *module) {
    const char *env = getenv("OPENSSL_MODULES");
    const char *dir = env != NULL ? env : OPENSSL_info(OPENSSL_INFO_MODULES_DIR);
    if (dir == NULL)
        dir = "";
    char file[QUILL_INFO_PATH_MAX];
    if (module != NULL && module[0] != '\0')
        COPY(file, module);
    else
        quill_info_format(file, sizeof(file), "%s.so", name);
    if (file[0] == '/') {
        COPY(c->module_file, file);
        COPY(c->module_dir_from, "module =");
    } else {
        quill_info_format(c->module_file, sizeof(c->module_file), "%s/%s", dir, file);
        COPY(c->module_dir_from, env != NULL ? "OPENSSL_MODULES" : "OpenSSL's modules directory");
    }
}

/* Follows openssl_conf -> init -> providers and alg_section. */
static void follow(quill_info_config *c, const CONF *conf) {
    /* OpenSSL reads config_diagnostics in the default section only (any
     * non-zero number), not in the init section. */
    const char *diag = get(conf, NULL, "config_diagnostics");
    c->diagnostics = diag != NULL && strtol(diag, NULL, 0) != 0;
    const char *init = get(conf, NULL, "openssl_conf");
    if (init == NULL || NCONF_get_section(conf, init) == NULL)
        return;
    c->has_init = 1;
    COPY(c->init_section, init);
    const char *alg = get(conf, init, "alg_section");
    const char *props = alg != NULL ? get(conf, alg, "default_properties") : NULL;
    if (props != NULL)
        COPY(c->default_properties, props);

    const char *psect = get(conf, init, "providers");
    STACK_OF(CONF_VALUE) *entries = psect != NULL ? NCONF_get_section(conf, psect) : NULL;
    if (entries == NULL)
        return;
    c->has_providers = 1;
    COPY(c->providers_section, psect);
    size_t used = 0;
    for (int i = 0; i < sk_CONF_VALUE_num(entries); i++) {
        const CONF_VALUE *e = sk_CONF_VALUE_value(entries, i);
        if (e == NULL || e->name == NULL)
            continue;
        int n = snprintf(c->providers + used, sizeof(c->providers) - used, "%s%s",
                         used > 0 ? " " : "", e->name);
        if (n > 0 && (size_t)n < sizeof(c->providers) - used)
            used += (size_t)n;
        const char *sect = e->value;
        int missing = sect == NULL || NCONF_get_section(conf, sect) == NULL;
        if (missing)
            sect = NULL; /* OpenSSL fails on such an entry */
        if (c->names_quill || !is_quill(conf, e->name, sect))
            continue;
        c->names_quill = 1;
        c->quill_section_missing = missing;
        COPY(c->quill_name, e->name);
        COPY(c->quill_section, e->value != NULL ? e->value : "");
        const char *module = sect != NULL ? get(conf, sect, "module") : NULL;
        const char *identity = sect != NULL ? get(conf, sect, "identity") : NULL;
        const char *activate = sect != NULL ? get(conf, sect, "activate") : NULL;
        COPY(c->quill_module, module != NULL ? module : "");
        COPY(c->quill_activate_value, activate != NULL ? activate : "");
        /* OpenSSL before 3.2 activates on the key alone, whatever its
         * value; later versions read the value as a boolean. */
        c->quill_activate =
            activate != NULL && (OpenSSL_version_num() < 0x30200000L || is_true(activate));
        module_file(c, identity != NULL ? identity : e->name, module);
    }
}

void quill_info_config_read(quill_info_config *c) {
    memset(c, 0, sizeof(*c));
    const char *env = getenv("OPENSSL_CONF");
    c->from_env = env != NULL;
    char *file = CONF_get1_default_config_file();
    if (file == NULL) {
        COPY(c->problem, "cannot tell which configuration file OpenSSL reads (out of memory)");
        return;
    }
    COPY(c->file, file);
    OPENSSL_free(file);

    const char *origin = c->from_env ? " (OPENSSL_CONF)" : " (OpenSSL's default)";
    struct stat st;
    if (c->file[0] == '\0') {
        COPY(c->problem, "OPENSSL_CONF is set but empty");
        return;
    }
    if (stat(c->file, &st) != 0) {
        int err = errno;
        if (err == ENOENT && c->file[0] != '/') {
            char cwd[QUILL_INFO_PATH_MAX];
            if (getcwd(cwd, sizeof(cwd)) == NULL)
                COPY(cwd, "?");
            quill_info_format(c->problem, sizeof(c->problem),
                     "config file %s%s not found (a relative OPENSSL_CONF is relative to the "
                     "current directory, %s)",
                     c->file, origin, cwd);
        } else {
            quill_info_format(c->problem, sizeof(c->problem), "config file %s%s: %s", c->file, origin,
                     err == ENOENT ? "not found" : strerror(err));
        }
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        quill_info_format(c->problem, sizeof(c->problem), "config file %s%s is a directory", c->file,
                 origin);
        return;
    }
    if (access(c->file, R_OK) != 0) {
        quill_info_format(c->problem, sizeof(c->problem), "config file %s%s: %s", c->file, origin,
                 strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        /* /dev/null is a common "no configuration"; a device or pipe could
         * block or never end, so it is not parsed. */
        c->readable = 1;
        return;
    }

    CONF *conf = NCONF_new(NULL);
    long line = -1;
    if (conf == NULL) {
        COPY(c->problem, "out of memory");
        return;
    }
    ERR_set_mark();
    if (NCONF_load(conf, c->file, &line) <= 0) {
        unsigned long e = ERR_peek_last_error();
        const char *why = e != 0 ? ERR_reason_error_string(e) : NULL;
        if (line > 0)
            quill_info_format(c->problem, sizeof(c->problem), "config file %s%s: %s at line %ld",
                     c->file, origin, why != NULL ? why : "syntax error", line);
        else
            quill_info_format(c->problem, sizeof(c->problem), "config file %s%s cannot be parsed: %s",
                     c->file, origin, why != NULL ? why : "unknown error");
        ERR_pop_to_mark();
        NCONF_free(conf);
        return;
    }
    ERR_pop_to_mark();
    c->readable = 1;
    follow(c, conf);
    NCONF_free(conf);
}
