/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  The report: items, the first problem, text and
 * JSON output, OpenSSL's error queue as one line. */
#include <stdarg.h>
#include <string.h>

#include <openssl/err.h>

#include "info.h"

/* Replaces control characters (newlines in OpenSSL's error data, bytes of
 * a garbage file) with spaces, so that every value stays on its line. */
static void one_line(char *s) {
    for (; *s != '\0'; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

void quill_info_format(char *dst, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

void quill_info_add(quill_info_report *r, int detail, const char *key, const char *label,
                    const char *fmt, ...) {
    if (r->n >= QUILL_INFO_MAX_ITEMS)
        return;
    quill_info_item *it = &r->items[r->n++];
    snprintf(it->key, sizeof(it->key), "%s", key);
    snprintf(it->label, sizeof(it->label), "%s", label);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->value, sizeof(it->value), fmt, ap);
    va_end(ap);
    one_line(it->value);
    it->detail = detail;
}

void quill_info_fail(quill_info_report *r, const char *fmt, ...) {
    if (r->reason[0] != '\0')
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
    va_end(ap);
    one_line(r->reason);
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f) /* one_line leaves none below 0x20 */
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void quill_info_print(const quill_info_report *r, int verbose, int json, FILE *out) {
    if (json) {
        fputs("{\n", out);
        for (size_t i = 0; i < r->n; i++) {
            fputs("  ", out);
            json_string(out, r->items[i].key);
            fputs(": ", out);
            json_string(out, r->items[i].value);
            fputs(",\n", out);
        }
        fprintf(out, "  \"ok\": %s,\n  \"reason\": ", r->reason[0] == '\0' ? "true" : "false");
        json_string(out, r->reason);
        fputs("\n}\n", out);
        return;
    }
    int width = 0;
    for (size_t i = 0; i < r->n; i++) {
        int len = (int)strlen(r->items[i].label);
        if ((verbose || !r->items[i].detail) && len > width)
            width = len;
    }
    for (size_t i = 0; i < r->n; i++)
        if (verbose || !r->items[i].detail)
            fprintf(out, "%-*s  %s\n", width, r->items[i].label, r->items[i].value);
}

const char *quill_info_errors(char *buf, size_t cap) {
    size_t len = 0;
    unsigned long e;
    const char *data = NULL;
    int flags = 0;
    char last[256] = "";
    buf[0] = '\0';
    while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
        char text[512] = "";
        if ((flags & ERR_TXT_STRING) != 0 && data != NULL)
            quill_info_format(text, sizeof(text), "%s", data);
        for (size_t t = strlen(text); t > 0 && text[t - 1] == ' '; t--)
            text[t - 1] = '\0'; /* OpenSSL pads some numbers */
        data = text;
        int have_data = text[0] != '\0';
        const char *rs = ERR_reason_error_string(e);
        char reason[256];
        if (rs == NULL && !have_data)
            continue; /* a bare code says nothing to a person */
        /* A provider's reasons (quill's among them) do not name it: OpenSSL
         * prints its library, the provider's name, before them.  So does
         * this line, for a provider's library (numbered from ERR_LIB_USER
         * on), "quill: key check failed"; OpenSSL's own reasons as they are. */
        const char *ls = rs != NULL && ERR_GET_LIB(e) >= ERR_LIB_USER ? ERR_lib_error_string(e)
                                                                      : NULL;
        quill_info_format(reason, sizeof(reason), "%s%s%s", ls != NULL ? ls : "",
                          ls != NULL ? ": " : "", rs != NULL ? rs : "");
        /* OpenSSL repeats a reason on its way up: once is enough */
        if (!have_data && strcmp(reason, last) == 0)
            continue;
        quill_info_format(last, sizeof(last), "%s", reason);
        int n;
        if (reason[0] == '\0')
            n = snprintf(buf + len, cap - len, "%s%s", len > 0 ? "; " : "", data);
        else
            n = snprintf(buf + len, cap - len, "%s%s%s%s%s", len > 0 ? "; " : "", reason,
                         have_data ? " (" : "", have_data ? data : "", have_data ? ")" : "");
        if (n < 0 || (size_t)n >= cap - len) {
            ERR_clear_error();
            break;
        }
        len += (size_t)n;
    }
    one_line(buf);
    return buf;
}
