/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * stats_dump DIR [--per-process]: quill_info_stats (info/info_stats.h) as a
 * program, until quill-info --stats calls it; its exit status is the
 * function's. */
#include <stdio.h>
#include <string.h>

#include "info_stats.h"

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--per-process") != 0)) {
        fprintf(stderr, "usage: stats_dump DIR [--per-process]\n");
        return 64;
    }
    return quill_info_stats(argv[1], argc == 3, stdout);
}
