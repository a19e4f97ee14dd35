/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The command line and mode dispatch shared by the P-256 callgrind drivers
 * ec_sign_count and ec_verify_count (`PROG core|quill|default|time [N]`).
 * Each driver supplies what its modes measure; this file makes the library
 * contexts they run in. */
#ifndef QUILL_TEST_EC_COUNT_MAIN_H
#define QUILL_TEST_EC_COUNT_MAIN_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/types.h>

/* What one driver measures in each mode.  |time| is NULL off x86-64 (the
 * mode reads the TSC), where "time" is then an unknown mode. */
typedef struct ect_count_modes {
    /* core: the core called directly on |n| inputs; 1 if all succeeded. */
    int (*core)(int n);
    /* quill and default: |n| inputs through EVP in |ctx|, with |propq|
     * "provider=quill" (ctx: qt_evp_libctx_new, default + quill with
     * quill's signatures preferred) or "provider=default" (ctx: the
     * default provider alone). */
    int (*evp)(OSSL_LIB_CTX *ctx, const char *propq, int n);
    /* time: quill's context |qctx| (as for quill) against the default
     * provider's |dctx|, alternating in one process. */
    int (*time)(OSSL_LIB_CTX *qctx, OSSL_LIB_CTX *dctx, int n);
} ect_count_modes;

/* ECT_COUNT_TIME(f) is the time mode |f| on x86-64, NULL elsewhere (where
 * the drivers do not define |f|). */
#if defined(__x86_64__)
#define ECT_COUNT_TIME(f) (f)
#else
#define ECT_COUNT_TIME(f) NULL
#endif

/* ect_count_args reads `PROG [mode [N]]` (mode "core" and N 32 by default)
 * into |*mode| and |*n|; prints the usage of |prog| and returns 0 if N is
 * not in 1..max_n. */
int ect_count_args(int argc, char **argv, const char *prog, int max_n, const char **mode,
                   int *n);

/* ect_count_run runs |mode| of |m| on |n| inputs, making and freeing the
 * library contexts it needs: 1 if it succeeded, 0 if it failed, -1 (with
 * "unknown mode" printed) if |m| has no such mode. */
int ect_count_run(const ect_count_modes *m, const char *mode, int n);

/* ect_median_u64 sorts v[0..n) and returns its median v[n / 2] (n > 0). */
uint64_t ect_median_u64(uint64_t *v, size_t n);

#endif
