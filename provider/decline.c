/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The per-architecture list of algorithm families quill declines at load
 * (decline.h), and the filter that drops their rows from the tables
 * prov.c registers. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "decline.h"

typedef struct quill_decline {
    const char *prefix; /* first algorithm name starts with this */
    const char *reason;
} quill_decline;

#if defined(__aarch64__)
/* Filled from bench/aarch64_model.py (llvm-mca-16 on qemu-traced whole
 * operations, kernels and the C between them, against OpenSSL 3.0.22's
 * armv8 assembly; -mcpu=neoverse-n1 uses LLVM's Cortex-A57 tables and
 * -mcpu=apple-m1 its Cyclone tables; model estimates, not measured times;
 * README "aarch64"): a family is declined when quill's estimate for one of
 * its whole operations is slower than OpenSSL's on either model.  One
 * signature implementation serves signing and verification, so a family
 * goes as a whole.  Rerun the model after changing an aarch64 kernel or a
 * path around one, and update this list and the README with it.
 *   RSA (2048-4096, sign and verify): quill 0.34-0.94x OpenSSL's time on
 *     both models: kept.
 *   EC P-256: signing 1.09x (N1) and 1.26x (M1) OpenSSL's time, the C
 *     point formulas and comb lookup against ecp_nistz256's assembly:
 *     declined, with verification (0.39x / 0.44x) and key generation.
 *   ML-DSA: OpenSSL's default provider has none before 3.5: never
 *     declined.
 * One X(prefix, reason) per family. */
#define QUILL_DECLINE_LIST(X)                                                                  \
    X("EC", "P-256 ECDSA signing: OpenSSL 3.0's armv8 ecp_nistz256 is estimated faster on "    \
            "both aarch64 models (verification and key generation go with it)")
#else
/* Nothing is declined on other architectures (x86-64: quill is faster). */
#define QUILL_DECLINE_LIST(X)
#endif

#define QUILL_DECLINE_ROW(prefix, reason) {prefix, reason},
#define QUILL_DECLINE_TEXT(prefix, reason) "; " prefix " (" reason ")"

static const quill_decline quill_declines[] = {QUILL_DECLINE_LIST(QUILL_DECLINE_ROW){NULL, NULL}};
#define QUILL_DECLINE_N (sizeof(quill_declines) / sizeof(quill_declines[0]) - 1)

unsigned quill_decline_count(void) {
    return (unsigned)QUILL_DECLINE_N;
}

int quill_decline_overridden(void) {
    const char *v = getenv("QUILL_DECLINE");
    return QUILL_DECLINE_N > 0 && v != NULL && strcmp(v, "none") == 0;
}

const char *quill_declined_text(int overridden) {
    /* "; A (why); B (why)" without its first separator */
    static const char text[] = "" QUILL_DECLINE_LIST(QUILL_DECLINE_TEXT);
    static const char off[] = "none (QUILL_DECLINE=none overrides this build's list" QUILL_DECLINE_LIST(
        QUILL_DECLINE_TEXT) ")";
    if (QUILL_DECLINE_N == 0)
        return "none";
    return overridden ? off : &text[sizeof(text) > 2 ? 2 : 0];
}

static int declined(const char *names) {
    if (names == NULL)
        return 0;
    size_t first = strcspn(names, ":");
    for (const quill_decline *d = quill_declines; d->prefix != NULL; d++) {
        size_t len = strlen(d->prefix);
        if (first >= len && strncmp(names, d->prefix, len) == 0)
            return 1;
    }
    return 0;
}

const OSSL_ALGORITHM *quill_decline_filter(const OSSL_ALGORITHM *table, int overridden) {
    if (overridden)
        return table;
    size_t n = 0, keep = 0;
    for (; table[n].algorithm_names != NULL; n++)
        keep += !declined(table[n].algorithm_names);
    if (keep == n)
        return table;
    OSSL_ALGORITHM *out = OPENSSL_zalloc((keep + 1) * sizeof(*out));
    if (out == NULL)
        return NULL;
    for (size_t i = 0, j = 0; i < n; i++)
        if (!declined(table[i].algorithm_names))
            out[j++] = table[i];
    return out;
}

void quill_decline_free(const OSSL_ALGORITHM *filtered, const OSSL_ALGORITHM *table) {
    if (filtered != table)
        OPENSSL_free((void *)filtered);
}
