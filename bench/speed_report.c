/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-speed's output: BoringSSL-style "Did N ... operations in T us" lines,
 * the summary table and the JSON document.  Every figure is the median
 * round (by rate) of the rounds measured.  Quill-only algorithms (ML-DSA)
 * show "n/a" for the default provider and, instead of a ratio, their rate
 * over the yardstick (the default provider's RSA 2048 signing rate,
 * measured in turn with the row's rounds) as "x RSA-2048-sign".  With
 * --portable, quill_portable's rate comes with the same kind of ratio (to
 * the default provider, or to the yardstick) and with the gain of quill's
 * native code over it. */
#include "speed.h"

#include <stdlib.h>
#include <string.h>

double speed_result_rate(const speed_result *r, size_t i) {
    if (r->usec[i] == 0)
        return 0.0;
    return (double)r->iters[i] * 1e6 / (double)r->usec[i];
}

void speed_result_finish(speed_result *r) {
    /* Rank the rounds by rate (insertion sort on a copy of the indices) and
     * keep the middle one: the upper middle for an even count, so that the
     * reported line is a real round. */
    size_t idx[SPEED_MAX_ROUNDS];
    for (size_t i = 0; i < r->rounds; i++) {
        size_t j = i;
        while (j > 0 && speed_result_rate(r, idx[j - 1]) > speed_result_rate(r, i)) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    r->median = r->rounds > 0 ? idx[r->rounds / 2] : 0;
}

double speed_result_median_rate(const speed_result *r) {
    if (!r->available || r->rounds == 0)
        return 0.0;
    return speed_result_rate(r, r->median);
}

/* num / den, or -1 if either rate is unknown. */
static double rate_ratio(double num, double den) {
    return num > 0.0 && den > 0.0 ? num / den : -1.0;
}

double speed_row_yardstick_ratio(const speed_row *row) {
    if (!row->alg->quill_only)
        return -1.0;
    return rate_ratio(speed_result_median_rate(&row->quill), row->yardstick);
}

double speed_row_ratio(const speed_row *row) {
    return rate_ratio(speed_result_median_rate(&row->quill), speed_result_median_rate(&row->def));
}

double speed_row_portable_ratio(const speed_row *row) {
    double p = speed_result_median_rate(&row->portable);
    if (row->alg->quill_only)
        return rate_ratio(p, row->yardstick);
    return rate_ratio(p, speed_result_median_rate(&row->def));
}

double speed_row_gain(const speed_row *row) {
    return rate_ratio(speed_result_median_rate(&row->quill),
                      speed_result_median_rate(&row->portable));
}

const char *speed_cpu_model(char *buf, size_t len) {
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return buf;
    char line[512];
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (v == NULL)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(buf, len, "%s", v);
        buf[strcspn(buf, "\n")] = '\0';
        break;
    }
    fclose(f);
    return buf;
}

void speed_print_line(FILE *out, const speed_row *row, const char *prov, const speed_result *r,
                      double ratio, double gain) {
    if (row->alg->quill_only && strcmp(prov, "default") == 0) {
        fprintf(out, "%s %s: n/a [default] (OpenSSL's default provider has no %s)\n",
                row->alg->label, speed_kind_phrase(row->kind), row->alg->label);
        return;
    }
    if (!r->available || r->rounds == 0) {
        fprintf(out, "%s %s: not available [%s]\n", row->alg->label,
                speed_kind_phrase(row->kind), prov);
        return;
    }
    size_t m = r->median;
    fprintf(out, "Did %llu %s %s operations in %lluus (%.1f ops/sec) [%s]",
            (unsigned long long)r->iters[m], row->alg->label, speed_kind_phrase(row->kind),
            (unsigned long long)r->usec[m], speed_result_rate(r, m), prov);
    if (ratio >= 0.0 && row->alg->quill_only)
        fprintf(out, " %.4fx RSA-2048-sign", ratio);
    else if (ratio >= 0.0)
        fprintf(out, " ratio %.2fx", ratio);
    if (gain >= 0.0)
        fprintf(out, " (native/portable %.2fx)", gain);
    fputc('\n', out);
}

static void fmt_rate(char *buf, size_t len, const speed_result *r) {
    if (!r->available || r->rounds == 0)
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.1f", speed_result_median_rate(r));
}

/* fmt_ratio writes "1.23x" (|digits| decimals), or "-" when x < 0. */
static void fmt_ratio(char *buf, size_t len, double x, int digits) {
    if (x < 0.0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.*fx", digits, x);
}

/* Microseconds per handshake of phase |ph| in the median round of context
 * |which|, or -1 if unknown. */
static double phase_us(const speed_row *row, int which, speed_phase ph) {
    const speed_result *r = which == SPEED_APP_QUILL ? &row->quill : &row->def;
    if (row->app == NULL || !r->available || r->rounds == 0 || r->iters[r->median] == 0)
        return -1.0;
    return (double)row->app->phases[which][r->median].ns[ph] / 1e3 /
           (double)r->iters[r->median];
}

/* The seven figures of a handshake row on one context: server, its key
 * exchange, its signing, client, its key exchange, certificate (chain
 * inside), CertificateVerify; and the two rests. */
typedef struct split {
    double server, s_kx, s_sign, s_rest;
    double client, c_kx, c_cert, c_chain, c_cv, c_rest;
} split;

static int split_of(const speed_row *row, int which, split *s) {
    s->server = phase_us(row, which, SPEED_PH_SERVER);
    if (s->server < 0.0)
        return 0;
    s->s_kx = phase_us(row, which, SPEED_PH_S_KX);
    s->s_sign = phase_us(row, which, SPEED_PH_S_SIGN);
    s->s_rest = s->server - s->s_kx - s->s_sign;
    s->client = phase_us(row, which, SPEED_PH_CLIENT);
    s->c_kx = phase_us(row, which, SPEED_PH_C_KX);
    s->c_cert = phase_us(row, which, SPEED_PH_C_CERT);
    s->c_chain = phase_us(row, which, SPEED_PH_C_CHAIN);
    s->c_cv = phase_us(row, which, SPEED_PH_C_CV);
    s->c_rest = s->client - s->c_kx - s->c_cert - s->c_cv;
    return 1;
}

/* A fresh-key verification's decoding and the rest, per operation. */
static int fresh_of(const speed_row *row, int which, double *decode, double *verify) {
    *decode = phase_us(row, which, SPEED_PH_F_DECODE);
    *verify = phase_us(row, which, SPEED_PH_F_VERIFY);
    return *decode >= 0.0 && *verify >= 0.0;
}

void speed_print_phases(FILE *out, const speed_row *row, int which) {
    double dec, ver, dec0, ver0;
    if (row->kind == SPEED_VERIFY_FRESH && fresh_of(row, which, &dec, &ver)) {
        fprintf(out, "  per verification: decoding %.1fus, the rest %.1fus (context, "
                     "verification, frees)",
                dec, ver);
        if (which == SPEED_APP_QUILL && fresh_of(row, SPEED_APP_DEFAULT, &dec0, &ver0) &&
            ver > 0.0)
            fprintf(out, "; the rest's ratio %.2fx", ver0 / ver);
        fputc('\n', out);
        return;
    }
    split s;
    if (row->kind != SPEED_HANDSHAKE || !split_of(row, which, &s))
        return;
    fprintf(out, "  per handshake: server %.1fus (key exchange %.1f, signing %.1f, rest %.1f); "
                 "client %.1fus (key exchange %.1f, certificate %.1f of which chain "
                 "verification %.1f, CertificateVerify %.1f, rest %.1f)\n",
            s.server, s.s_kx, s.s_sign, s.s_rest, s.client, s.c_kx, s.c_cert, s.c_chain, s.c_cv,
            s.c_rest);
}

/* The handshakes' time split, both contexts, after the summary table. */
static void print_phase_table(FILE *out, const speed_row *rows, size_t count) {
    int any = 0;
    for (size_t i = 0; i < count; i++) {
        split s;
        for (int w = 0; w < SPEED_APP_N; w++) {
            if (rows[i].kind != SPEED_HANDSHAKE || !split_of(&rows[i], w, &s))
                continue;
            if (!any)
                fprintf(out, "\nTLS 1.3 handshakes, microseconds per handshake (median round):\n"
                             "%-17s %-8s %8s %7s %7s %7s %8s %7s %7s %7s %7s %7s\n",
                        "certificate", "context", "server", "kx", "sign", "rest", "client", "kx",
                        "cert", "(chain)", "certvfy", "rest");
            any = 1;
            fprintf(out, "%-17s %-8s %8.1f %7.1f %7.1f %7.1f %8.1f %7.1f %7.1f %7.1f %7.1f %7.1f\n",
                    rows[i].alg->label, w == SPEED_APP_QUILL ? "quill" : "default", s.server,
                    s.s_kx, s.s_sign, s.s_rest, s.client, s.c_kx, s.c_cert, s.c_chain, s.c_cv,
                    s.c_rest);
        }
    }
    if (any)
        fprintf(out, "server and client: time inside each side's SSL_do_handshake; kx: key "
                     "exchange (X25519) and key schedule;\nsign: the CertificateVerify "
                     "signature; cert: the server's Certificate processed, with (chain) "
                     "X509_verify_cert;\ncertvfy: the CertificateVerify checked with the key "
                     "decoded from that certificate; rest: everything else\n");
}

void speed_print_summary(FILE *out, const speed_row *rows, size_t count, int portable) {
    /* The yardstick column appears only when a quill-only row is shown. */
    int yard = 0;
    for (size_t i = 0; i < count; i++)
        yard |= rows[i].alg->quill_only;
    fprintf(out, "\n%-20s %-12s %14s %14s %8s", "algorithm", "op", "default ops/s",
            "quill ops/s", "ratio");
    if (yard)
        fprintf(out, " %16s", "x RSA-2048-sign");
    if (portable)
        fprintf(out, " %14s %14s %8s", "portable ops/s", "portable ratio", "gain");
    fputc('\n', out);
    for (size_t i = 0; i < count; i++) {
        const speed_row *row = &rows[i];
        char d[32], q[32], ratio[32];
        fmt_rate(d, sizeof(d), &row->def);
        fmt_rate(q, sizeof(q), &row->quill);
        fmt_ratio(ratio, sizeof(ratio), speed_row_ratio(row), 2);
        fprintf(out, "%-20s %-12s %14s %14s %8s", row->alg->label, speed_kind_name(row->kind), d,
                q, ratio);
        /* Rows of both providers leave the yardstick column empty (blank
         * only when more columns follow). */
        if (yard && row->alg->quill_only) {
            char ys[32];
            fmt_ratio(ys, sizeof(ys), speed_row_yardstick_ratio(row), 4);
            fprintf(out, " %16s", ys);
        } else if (yard && portable) {
            fprintf(out, " %16s", "");
        }
        if (portable) {
            char p[32], pr[32], g[32];
            fmt_rate(p, sizeof(p), &row->portable);
            fmt_ratio(pr, sizeof(pr), speed_row_portable_ratio(row), row->alg->quill_only ? 4 : 2);
            fmt_ratio(g, sizeof(g), speed_row_gain(row), 2);
            fprintf(out, " %14s %14s %8s", p, pr, g);
        }
        fputc('\n', out);
    }
    if (portable)
        fprintf(out, "portable: quill's portable C path (quill_portable.so); portable ratio: "
                     "over default, or x RSA-2048-sign;\ngain: quill ops/s over portable ops/s "
                     "(what the native code buys)\n");
    print_phase_table(out, rows, count);
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_result(FILE *out, const speed_result *r) {
    if (!r->available || r->rounds == 0) {
        fprintf(out, "null");
        return;
    }
    size_t m = r->median;
    fprintf(out, "{\"ops_per_sec\": %.3f, \"iterations\": %llu, \"microseconds\": %llu, "
                 "\"rounds\": [",
            speed_result_rate(r, m), (unsigned long long)r->iters[m],
            (unsigned long long)r->usec[m]);
    for (size_t i = 0; i < r->rounds; i++)
        fprintf(out, "%s{\"iterations\": %llu, \"microseconds\": %llu}", i ? ", " : "",
                (unsigned long long)r->iters[i], (unsigned long long)r->usec[i]);
    fprintf(out, "]}");
}

/* "name": x with |digits| decimals, or null when x < 0. */
static void json_ratio(FILE *out, const char *name, double x, int digits) {
    if (x < 0.0)
        fprintf(out, ", \"%s\": null", name);
    else
        fprintf(out, ", \"%s\": %.*f", name, digits, x);
}

static void json_portable(FILE *out, const speed_row *row) {
    fprintf(out, ",\n     \"quill_portable\": ");
    json_result(out, &row->portable);
    if (row->alg->quill_only)
        json_ratio(out, "portable_x_rsa2048_sign", speed_row_portable_ratio(row), 6);
    else
        json_ratio(out, "portable_ratio", speed_row_portable_ratio(row), 4);
    json_ratio(out, "native_gain", speed_row_gain(row), 4);
}

/* An application row's extras: the handshake split per context (median
 * round, microseconds per handshake) and quill's counters. */
static void json_app(FILE *out, const speed_row *row) {
    const speed_app_row *ar = row->app;
    if (row->kind == SPEED_HANDSHAKE) {
        fprintf(out, ",\n     \"per_handshake_us\": {");
        for (int w = 0; w < SPEED_APP_N; w++) {
            split s;
            fprintf(out, "%s\"%s\": ", w ? ", " : "", w == SPEED_APP_QUILL ? "quill" : "default");
            if (!split_of(row, w, &s)) {
                fprintf(out, "null");
                continue;
            }
            fprintf(out, "{\"server\": %.2f, \"server_key_exchange\": %.2f, "
                         "\"server_sign\": %.2f, \"server_rest\": %.2f, \"client\": %.2f, "
                         "\"client_key_exchange\": %.2f, \"client_certificate\": %.2f, "
                         "\"client_chain_verify\": %.2f, \"client_certificate_verify\": %.2f, "
                         "\"client_rest\": %.2f}",
                    s.server, s.s_kx, s.s_sign, s.s_rest, s.client, s.c_kx, s.c_cert, s.c_chain,
                    s.c_cv, s.c_rest);
        }
        fprintf(out, "}");
    }
    double dec, ver;
    if (row->kind == SPEED_VERIFY_FRESH) {
        fprintf(out, ",\n     \"per_verification_us\": {");
        for (int w = 0; w < SPEED_APP_N; w++) {
            fprintf(out, "%s\"%s\": ", w ? ", " : "", w == SPEED_APP_QUILL ? "quill" : "default");
            if (fresh_of(row, w, &dec, &ver))
                fprintf(out, "{\"decode\": %.2f, \"rest\": %.2f}", dec, ver);
            else
                fprintf(out, "null");
        }
        fprintf(out, "}");
    }
    fprintf(out, ",\n     \"quill_counters\": {\"confirmed\": %s, \"sign\": %lu, "
                 "\"verify\": %lu}",
            ar->confirmed ? "true" : "false", ar->want_sign, ar->want_verify);
}

void speed_print_level(FILE *out, const speed_meta *meta) {
    const speed_level *lv = meta->level;
    fprintf(out, "Level: %s (%s): QUILL_CPU_MASK=%s, OPENSSL_ia32cap=%s\n", lv->name, lv->what,
            lv->quill_mask[0] ? lv->quill_mask : "(unset)",
            lv->ia32cap[0] ? lv->ia32cap : "(unset)");
    fprintf(out, "quill backends: %s\n", meta->quill_backends);
    if (strncmp(meta->quill_declined, "none", 4) != 0)
        fprintf(out, "quill declines on this CPU, so the default provider serves them and "
                     "quill's rows say not available (QUILL_DECLINE=none measures quill's own "
                     "code): %s\n",
                meta->quill_declined);
    if (lv->differs == 0 && (lv->quill_mask[0] || lv->ia32cap[0]))
        fprintf(out, "Level %s: this CPU has none of the features it masks, so it runs as the "
                     "native level here\n",
                lv->name);
}

/* The level object of the JSON header (see speed_print_level). */
static void json_level(FILE *out, const speed_meta *meta) {
    const speed_level *lv = meta->level;
    fprintf(out, "\n  \"level\": {\"name\": ");
    json_string(out, lv->name);
    fprintf(out, ", \"quill_cpu_mask\": ");
    if (lv->quill_mask[0])
        json_string(out, lv->quill_mask);
    else
        fprintf(out, "null");
    fprintf(out, ", \"openssl_ia32cap\": ");
    if (lv->ia32cap[0])
        json_string(out, lv->ia32cap);
    else
        fprintf(out, "null");
    fprintf(out, ", \"differs_from_native\": %s},",
            lv->differs < 0 ? "null" : lv->differs ? "true" : "false");
    fprintf(out, "\n  \"quill_backends\": ");
    json_string(out, meta->quill_backends);
    fprintf(out, ",\n  \"quill_declined\": ");
    json_string(out, meta->quill_declined);
    fprintf(out, ",");
}

int speed_write_json(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count) {
    fprintf(out, "{\n  \"tool\": \"quill-speed\",\n  \"cpu\": ");
    json_string(out, meta->cpu);
    fprintf(out, ",\n  \"openssl\": ");
    json_string(out, meta->openssl);
    fprintf(out, ",\n  \"quill_version\": ");
    json_string(out, meta->quill_version);
    fprintf(out, ",\n  \"rounds\": %zu,\n  \"seconds_per_round\": %.3f,", meta->rounds,
            meta->seconds);
    /* With --portable each result also has "quill_portable", its
     * "portable_ratio" (quill-only rows: "portable_x_rsa2048_sign") and
     * "native_gain" (quill over quill_portable). */
    /* The CPU level both providers ran at (--level) and the masks in
     * effect; null for a mask not set. */
    json_level(out, meta);
    fprintf(out, "\n  \"portable\": %s,", meta->portable ? "true" : "false");
    fprintf(out, "\n  \"skipped\": [");
    for (size_t i = 0; i < meta->nskipped; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, meta->skipped[i]);
    }
    fprintf(out, "],\n  \"results\": [");
    for (size_t i = 0; i < count; i++) {
        const speed_row *row = &rows[i];
        char name[128];
        speed_op_name(name, sizeof(name), row->alg, row->kind);
        fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
        json_string(out, name);
        fprintf(out, ", \"algorithm\": ");
        json_string(out, row->alg->label);
        fprintf(out, ", \"op\": \"%s\",\n     \"default\": ", speed_kind_name(row->kind));
        json_result(out, &row->def);
        fprintf(out, ",\n     \"quill\": ");
        json_result(out, &row->quill);
        double x = speed_row_ratio(row);
        if (x < 0.0)
            fprintf(out, ",\n     \"ratio\": null");
        else
            fprintf(out, ",\n     \"ratio\": %.4f", x);
        if (row->alg->quill_only) {
            double y = speed_row_yardstick_ratio(row);
            fprintf(out, ", \"quill_only\": true");
            if (y < 0.0)
                fprintf(out, ", \"x_rsa2048_sign\": null");
            else
                fprintf(out, ", \"x_rsa2048_sign\": %.6f", y);
            /* The yardstick of x_rsa2048_sign, measured in this row's turns. */
            if (row->yardstick > 0.0)
                fprintf(out, ",\n     \"yardstick\": {\"name\": \"rsa2048-sign\", "
                             "\"provider\": \"default\", \"ops_per_sec\": %.3f}",
                        row->yardstick);
            else
                fprintf(out, ",\n     \"yardstick\": null");
        }
        if (row->app != NULL)
            json_app(out, row);
        if (meta->portable)
            json_portable(out, row);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]\n}\n");
    return fflush(out) == 0 && !ferror(out);
}
