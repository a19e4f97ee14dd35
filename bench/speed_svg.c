/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-speed --svg=FILE: the summary as a picture.  One group of
 * horizontal bars per operation (the default provider, quill, and with
 * --portable quill's portable C path), the median rates in operations per
 * second on a logarithmic axis (the rates run from a few RSA-4096 signatures
 * to ~10^5 verifications per second, so a linear axis would flatten most
 * bars), the ratio written beside quill's bar.  Quill-only rows (ML-DSA)
 * draw the default provider's RSA 2048 signing rate measured with them, as
 * the yardstick the text output compares them with. */
#include "speed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Layout, in SVG user units (pixels). */
enum {
    SVG_WIDTH = 960,
    SVG_LABEL_W = 190, /* operation names, left of the axis */
    SVG_RIGHT_W = 150, /* ratio text, right of the longest bar */
    SVG_TOP = 78,      /* title and legend */
    SVG_BAR_H = 11,
    SVG_GROUP_GAP = 10,
    SVG_BOTTOM = 48, /* axis labels and footnote */
};

static const char *const svg_colour[3] = {"#9a9a9a", "#1f6fb2", "#8cb9e0"};

/* XML text: escape the five special characters. */
static void svg_text(FILE *out, const char *s) {
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* A decade's label: 0.01, 0.1, 1, 10, 100, 1k, 10k, 100k, 1M, ... */
static void decade_label(char *buf, size_t len, int d) {
    static const char *const suffix[] = {"", "k", "M", "G"};
    if (d < 0)
        snprintf(buf, len, "%.*f", -d, pow(10.0, d));
    else if (d / 3 < 4)
        snprintf(buf, len, "%.0f%s", pow(10.0, d % 3), suffix[d / 3]);
    else
        snprintf(buf, len, "1e%d", d);
}

/* The rates drawn for one row: [0] default (or the yardstick), [1] quill,
 * [2] quill_portable; 0 where not measured. */
static void row_rates(const speed_row *row, double rate[3]) {
    rate[0] = row->alg->quill_only ? row->yardstick : speed_result_median_rate(&row->def);
    rate[1] = speed_result_median_rate(&row->quill);
    rate[2] = speed_result_median_rate(&row->portable);
}

int speed_write_svg(FILE *out, const speed_meta *meta, const speed_row *rows, size_t count) {
    int nbars = meta->portable ? 3 : 2;
    /* Axis range: whole decades around every rate drawn. */
    double lo = 0.0, hi = 0.0;
    for (size_t i = 0; i < count; i++) {
        double rate[3];
        row_rates(&rows[i], rate);
        for (int b = 0; b < nbars; b++) {
            if (rate[b] <= 0.0)
                continue;
            if (lo == 0.0 || rate[b] < lo)
                lo = rate[b];
            if (rate[b] > hi)
                hi = rate[b];
        }
    }
    if (hi == 0.0)
        lo = 1.0, hi = 10.0;
    int dlo = (int)floor(log10(lo)), dhi = (int)ceil(log10(hi));
    if (dhi <= dlo)
        dhi = dlo + 1;
    const double x0 = SVG_LABEL_W, xw = SVG_WIDTH - SVG_LABEL_W - SVG_RIGHT_W;
    const int group_h = nbars * SVG_BAR_H + SVG_GROUP_GAP;
    const int plot_h = (int)count * group_h;
    const int height = SVG_TOP + plot_h + SVG_BOTTOM;

    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
                 "font-size=\"11\">\n",
            SVG_WIDTH, height, SVG_WIDTH, height);
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">quill %s "
                 "against OpenSSL's default provider (quill-speed, median of %zu round%s)"
                 "</text>\n",
            meta->quill_version, meta->rounds, meta->rounds == 1 ? "" : "s");
    fprintf(out, "<text x=\"10\" y=\"38\" fill=\"#444\">");
    svg_text(out, meta->cpu);
    fputs("; ", out);
    svg_text(out, meta->openssl);
    fputs("; level ", out);
    svg_text(out, meta->level->name);
    if (meta->level->quill_mask[0] || meta->level->ia32cap[0]) {
        fputs(" (QUILL_CPU_MASK=", out);
        svg_text(out, meta->level->quill_mask[0] ? meta->level->quill_mask : "unset");
        fputs(", OPENSSL_ia32cap=", out);
        svg_text(out, meta->level->ia32cap[0] ? meta->level->ia32cap : "unset");
        fputs(")", out);
    }
    fputs("</text>\n", out);
    static const char *const legend[3] = {"default provider (ML-DSA rows: its RSA 2048 signing)",
                                          "quill", "quill portable C"};
    for (int b = 0, x = 10; b < nbars; b++) {
        fprintf(out, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"10\" fill=\"%s\"/>"
                     "<text x=\"%d\" y=\"59\">%s</text>\n",
                x, svg_colour[b], x + 16, legend[b]);
        x += 16 + 7 * (int)strlen(legend[b]) + 18;
    }

    /* Decade grid lines with their labels. */
    for (int d = dlo; d <= dhi; d++) {
        double x = x0 + xw * (d - dlo) / (dhi - dlo);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x,
                SVG_TOP - 4, x, SVG_TOP + plot_h);
        char label[16];
        decade_label(label, sizeof(label), d);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%s"
                     "</text>\n",
                x, SVG_TOP + plot_h + 14, label);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">operations per "
                 "second (log scale)</text>\n",
            x0 + xw / 2, SVG_TOP + plot_h + 30);

    for (size_t i = 0; i < count; i++) {
        const speed_row *row = &rows[i];
        double rate[3];
        row_rates(row, rate);
        int y = SVG_TOP + (int)i * group_h;
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", SVG_LABEL_W - 8,
                y + nbars * SVG_BAR_H / 2 + 4);
        svg_text(out, row->alg->label);
        fprintf(out, " %s</text>\n", speed_kind_name(row->kind));
        double end = x0;
        for (int b = 0; b < nbars; b++) {
            if (rate[b] <= 0.0)
                continue;
            double w = xw * (log10(rate[b]) - dlo) / (dhi - dlo);
            if (w < 1.0)
                w = 1.0;
            fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                         "<title>%.1f ops/s</title></rect>\n",
                    x0, y + b * SVG_BAR_H, w, SVG_BAR_H - 1, svg_colour[b], rate[b]);
            if (x0 + w > end)
                end = x0 + w;
        }
        double ratio = row->alg->quill_only ? speed_row_yardstick_ratio(row)
                                            : speed_row_ratio(row);
        if (ratio >= 0.0)
            fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-weight=\"bold\">%.2fx%s</text>\n",
                    end + 6, y + SVG_BAR_H + 3, ratio,
                    row->alg->quill_only ? " RSA-2048-sign" : "");
    }
    fprintf(out, "<text x=\"10\" y=\"%d\" fill=\"#444\">Ratios: quill's rate over the default "
                 "provider's in the same run; ML-DSA (which OpenSSL 3.0's default provider "
                 "lacks): over its RSA 2048 signing rate.</text>\n",
            height - 4);
    fputs("</svg>\n", out);
    return fflush(out) == 0 && !ferror(out);
}
