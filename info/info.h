/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-info's parts (info/): the report (info_report.c), the configuration
 * file as OpenSSL would read it (info_config.c), the providers of the
 * default library context (info_provider.c) and the one-shot signatures
 * (info_selftest.c).  quill_info.c runs them in that order and turns the
 * first problem found into the exit status and the one line on stderr.
 *
 * Everything runs in the default library context, configured as any
 * application's: quill-info never loads quill itself unless asked to
 * (--load). */
#ifndef QUILL_INFO_H
#define QUILL_INFO_H

#include <stddef.h>
#include <stdio.h>

#include <openssl/types.h>

/* ---- the report ---------------------------------------------------- */

#define QUILL_INFO_MAX_ITEMS 64
#define QUILL_INFO_VALUE_MAX 1024

/* One line of the report: a JSON key, a label for people, a value.  Items
 * marked detail are shown with -v (and always in the JSON). */
typedef struct quill_info_item {
    char key[40];
    char label[24];
    char value[QUILL_INFO_VALUE_MAX];
    int detail;
} quill_info_item;

typedef struct quill_info_report {
    quill_info_item items[QUILL_INFO_MAX_ITEMS];
    size_t n;
    /* The first problem found, one line without the program name; empty
     * while everything is fine. */
    char reason[QUILL_INFO_VALUE_MAX];
} quill_info_report;

/* quill_info_add appends an item (dropped silently past
 * QUILL_INFO_MAX_ITEMS; values are cut at QUILL_INFO_VALUE_MAX - 1). */
void quill_info_add(quill_info_report *r, int detail, const char *key, const char *label,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* quill_info_fail records |fmt| as the reason unless one is recorded
 * already: the first problem is the one reported. */
void quill_info_fail(quill_info_report *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* quill_info_print writes the report: aligned text (items marked detail
 * only if |verbose|), or a JSON object with every item plus "ok" and
 * "reason" if |json|. */
void quill_info_print(const quill_info_report *r, int verbose, int json, FILE *out);

/* quill_info_format is snprintf for values that may be cut to |cap|
 * (shown to people, never used as paths): truncation is intended. */
void quill_info_format(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* quill_info_errors drains OpenSSL's error queue into |buf| as one line,
 * "reason (data); reason ...", most recent last, and returns |buf| ("" if
 * the queue was empty).  A provider's reason is preceded by the provider's
 * name ("quill: key check failed"), as OpenSSL's error lines show it. */
const char *quill_info_errors(char *buf, size_t cap);

/* ---- the configuration file ---------------------------------------- */

#define QUILL_INFO_PATH_MAX 4096

typedef struct quill_info_config {
    char file[QUILL_INFO_PATH_MAX]; /* the file in effect */
    int from_env;                   /* named by OPENSSL_CONF */
    int readable;                   /* opened and parsed */
    char problem[QUILL_INFO_VALUE_MAX]; /* why not readable, one line */
    int has_init;                   /* openssl_conf names a section */
    char init_section[128];
    int has_providers; /* the init section names a providers section */
    char providers_section[128];
    int diagnostics;   /* config_diagnostics (default section) non-zero */
    char default_properties[256]; /* from the alg_section, "" if none */
    /* The provider entry that names quill (the first one found). */
    int names_quill;
    char quill_name[128];    /* its name in the providers section */
    char quill_section[128]; /* its section */
    int quill_section_missing; /* that section is not in the file */
    char quill_module[QUILL_INFO_PATH_MAX]; /* its module value, "" if none */
    int quill_activate;      /* activate set to a true value */
    char quill_activate_value[64]; /* as written, "" if absent */
    /* Where OpenSSL looks for the module file, and why there. */
    char module_file[QUILL_INFO_PATH_MAX];
    char module_dir_from[64]; /* "OPENSSL_MODULES", "modules directory",
                                 "module =" */
    char providers[256]; /* every provider the section names */
} quill_info_config;

/* quill_info_config_read finds the configuration file OpenSSL reads in the
 * default library context (OPENSSL_CONF, else CONF_get1_default_config_file)
 * and parses it with OpenSSL's own parser into |c|, without applying it.
 * Never fails: what went wrong is in c->problem.  Bad input gives a reason,
 * never a crash. */
void quill_info_config_read(quill_info_config *c);

/* ---- the providers -------------------------------------------------- */

typedef struct quill_info_quill {
    OSSL_PROVIDER *prov; /* quill in the default library context, or NULL */
    char config_name[128];  /* its name there */
    char version[64];
    char module_path[QUILL_INFO_PATH_MAX];
    char backends[256];
    char stats[QUILL_INFO_PATH_MAX + 64]; /* where quill's counters go */
    char declined[512]; /* families left to the default provider, or "none" */
    char buildinfo[512];
    char active[512]; /* every active provider, "default quill" */
} quill_info_quill;

/* quill_info_find_quill fills |q| from the providers active in the default
 * library context (identified by the name quill reports, whatever the
 * configuration calls it).  Loads nothing. */
void quill_info_find_quill(quill_info_quill *q);

/* quill_info_declined returns 1 if quill declined the family of key type
 * |keytype| ("RSA", "EC", "ML-DSA-65") on this CPU: its
 * QUILL_PARAM_DECLINED list ("EC (why); ...") names it. */
int quill_info_declined(const quill_info_quill *q, const char *keytype);

/* quill_info_provider_name returns the configuration's name of |prov|, or
 * "none" if NULL. */
const char *quill_info_provider_name(const OSSL_PROVIDER *prov);

/* quill_info_serving adds one report item per algorithm with the providers
 * that the default property query picks for its signatures and key
 * generation; records a problem if a signature quill should serve goes to
 * another provider. */
void quill_info_serving(quill_info_report *r, const quill_info_quill *q,
                        const quill_info_config *c);

/* quill_info_counters reads quill's counter line (info_params.h) into buf;
 * returns 0 if quill offers none. */
int quill_info_counters(OSSL_PROVIDER *quill, char *buf, size_t cap);

/* quill_info_counter returns the value of |name| in a counter line, or -1. */
long quill_info_counter(const char *line, const char *name);

/* ---- the one-shot signatures ---------------------------------------- */

/* quill_info_selftest signs and verifies once per algorithm (RSA-2048 with
 * PKCS#1 v1.5 and PSS, ECDSA P-256, ML-DSA-65) on keys made on the spot,
 * through the default property query, and checks that quill served and
 * counted each operation; one report item per algorithm, the first failure
 * recorded as the problem. */
void quill_info_selftest(quill_info_report *r, const quill_info_quill *q, int verbose);

#endif
