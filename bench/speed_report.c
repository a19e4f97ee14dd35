/* Copyright quill authors.
 *
 * quill-speed's output: BoringSSL-style "Did N ... operations in T us" lines,
 * the summary table and the JSON document.  Every figure is the median
 * round (by rate) of the rounds measured.  Quill-only algorithms (ML-DSA)
 * show "n/a" for the default provider and, instead of a ratio, their rate
 * over the yardstick (the default provider's RSA 2048 signing rate in the
 * same run) as "x RSA-2048-sign". */
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

double speed_row_yardstick_ratio(const speed_row *row) {
    double q = speed_result_median_rate(&row->quill);
    if (!row->alg->quill_only || row->yardstick <= 0.0 || q <= 0.0)
        return -1.0;
    return q / row->yardstick;
}

double speed_row_ratio(const speed_row *row) {
    double d = speed_result_median_rate(&row->def), q = speed_result_median_rate(&row->quill);
    if (d <= 0.0 || q <= 0.0)
        return -1.0;
    return q / d;
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
                      double ratio) {
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
    fputc('\n', out);
}

static void fmt_rate(char *buf, size_t len, const speed_result *r) {
    if (!r->available || r->rounds == 0)
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.1f", speed_result_median_rate(r));
}

void speed_print_summary(FILE *out, const speed_row *rows, size_t count) {
    /* The yardstick column appears only when a quill-only row is shown. */
    int yard = 0;
    for (size_t i = 0; i < count; i++)
        yard |= rows[i].alg->quill_only;
    fprintf(out, "\n%-20s %-8s %14s %14s %8s", "algorithm", "op", "default ops/s", "quill ops/s",
            "ratio");
    fprintf(out, yard ? " %16s\n" : "\n", "x RSA-2048-sign");
    for (size_t i = 0; i < count; i++) {
        char d[32], q[32], ratio[32];
        fmt_rate(d, sizeof(d), &rows[i].def);
        fmt_rate(q, sizeof(q), &rows[i].quill);
        double x = speed_row_ratio(&rows[i]);
        if (x < 0.0)
            snprintf(ratio, sizeof(ratio), "-");
        else
            snprintf(ratio, sizeof(ratio), "%.2fx", x);
        fprintf(out, "%-20s %-8s %14s %14s %8s", rows[i].alg->label,
                speed_kind_name(rows[i].kind), d, q, ratio);
        if (yard) {
            double y = speed_row_yardstick_ratio(&rows[i]);
            char ys[32] = "";
            if (y >= 0.0)
                snprintf(ys, sizeof(ys), "%.4fx", y);
            else if (rows[i].alg->quill_only)
                snprintf(ys, sizeof(ys), "-");
            if (ys[0] != '\0') /* rows of both providers leave the column empty */
                fprintf(out, " %16s", ys);
        }
        fputc('\n', out);
    }
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

int speed_write_json(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count) {
    fprintf(out, "{\n  \"tool\": \"quill-speed\",\n  \"cpu\": ");
    json_string(out, meta->cpu);
    fprintf(out, ",\n  \"openssl\": ");
    json_string(out, meta->openssl);
    fprintf(out, ",\n  \"quill_version\": ");
    json_string(out, meta->quill_version);
    fprintf(out, ",\n  \"rounds\": %zu,\n  \"seconds_per_round\": %.3f,", meta->rounds,
            meta->seconds);
    /* The yardstick of the quill-only rows' "x_rsa2048_sign" fields. */
    if (meta->yardstick > 0.0)
        fprintf(out, "\n  \"yardstick\": {\"name\": \"rsa2048-sign\", \"provider\": \"default\", "
                     "\"ops_per_sec\": %.3f, \"measured_separately\": %s},",
                meta->yardstick, meta->yardstick_separate ? "true" : "false");
    else
        fprintf(out, "\n  \"yardstick\": null,");
    fprintf(out, "\n  \"skipped\": [");
    for (size_t i = 0; i < meta->nskipped; i++) {
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, meta->skipped[i]);
    }
    fprintf(out, "],\n  \"results\": [");
    for (size_t i = 0; i < count; i++) {
        const speed_row *row = &rows[i];
        char name[128];
        snprintf(name, sizeof(name), "%s-%s", row->alg->id, speed_kind_name(row->kind));
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
        }
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]\n}\n");
    return fflush(out) == 0 && !ferror(out);
}
