/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Controls for the constant-time validation harness: proof that memcheck,
 * run the way test/ct/memcheck.sh runs it on the core, both catches a leak
 * and stays quiet on constant-time code.
 *
 *   ct_leak branch   branches on a marked secret        (must be reported)
 *   ct_leak index    reads a table at a secret index    (must be reported)
 *   ct_leak select   the same work with ct.h masks      (must be clean)
 *
 * The secret is marked with QUILL_CT_SECRET exactly as the core marks its
 * secrets, so the controls exercise the same mechanism. */
#include <stdio.h>
#include <string.h>

#include "common/compiler.h"
#include "common/ct.h"

#if !defined(QUILL_CT_VALIDATION)
#error "ct_leak must be built with QUILL_CT_VALIDATION"
#endif

static uint8_t table[256];
static volatile unsigned sink;

/* Deliberately leaky: the branch direction depends on the secret. */
static QUILL_NOINLINE unsigned ct_leaky_branch(const uint8_t *secret) {
    if (secret[0] & 1) {
        puts("odd");
        return 1;
    }
    puts("even");
    return 0;
}

/* Deliberately leaky: the load address depends on the secret. */
static QUILL_NOINLINE unsigned ct_leaky_index(const uint8_t *secret) {
    return table[secret[0]];
}

/* Constant time: every table entry read, the wanted one kept by a mask. */
static QUILL_NOINLINE unsigned ct_clean_select(const uint8_t *secret) {
    quill_word acc = 0;
    for (unsigned i = 0; i < 256; i++)
        acc |= quill_ct_eq_mask(i, secret[0]) & table[i];
    return (unsigned)quill_ct_declassify_w(acc);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: ct_leak branch|index|select\n");
        return 2;
    }
    for (unsigned i = 0; i < 256; i++)
        table[i] = (uint8_t)(i * 7 + 3);
    uint8_t secret[16];
    memset(secret, 0x2b, sizeof(secret));
    QUILL_CT_SECRET(secret, sizeof(secret));

    if (strcmp(argv[1], "branch") == 0)
        sink = ct_leaky_branch(secret);
    else if (strcmp(argv[1], "index") == 0)
        sink = ct_leaky_index(secret);
    else if (strcmp(argv[1], "select") == 0) {
        unsigned v = ct_clean_select(secret);
        sink = v;
        /* The declassified result is usable as a public value. */
        if (v != table[0x2b]) {
            fprintf(stderr, "ct_clean_select returned %u, expected %u\n", v, table[0x2b]);
            return 1;
        }
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    printf("ct_leak %s done\n", argv[1]);
    return 0;
}
