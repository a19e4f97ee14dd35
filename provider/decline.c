/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The list of algorithm families quill may decline at load (decline.h),
 * each with the CPU condition under which it does, and the filter that
 * drops their rows from the tables prov.c registers. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "common/cpu.h"
#include "decline.h"

typedef struct quill_decline {
    const char *prefix; /* first algorithm name starts with this */
    const char *reason;
    int (*applies)(void); /* whether this process's CPU declines it */
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
 *   EC P-256: signing 0.88x (N1) and 0.73x (M1) OpenSSL's time since the
 *     mixed addition and the comb's table scan are assembly
 *     (p256_point_arm64.S, p256_gather_neon.S) and the field inversion a
 *     Fermat chain on the assembly products (1.13x and 1.31x before);
 *     verification 0.39x / 0.43x, key generation 0.47x / 0.40x: kept.
 *   ML-DSA: OpenSSL's default provider has none before 3.5: never
 *     declined.
 * One X(prefix, reason, condition) per family; nothing is declined on
 * aarch64 at present. */
#define QUILL_DECLINE_LIST(X)
#elif defined(__x86_64__)
/* x86-64 CPUs without MULX and ADCX/ADOX (BMI2 and ADX: Intel before
 * Broadwell, AMD before Zen): quill's RSA runs its plain ADC/MUL
 * Montgomery kernel there, while OpenSSL 3.0 has AVX2 RSAZ (Haswell) or
 * its own MUL kernels.  quill-speed --level bmi2 and --level x86_64
 * (bench/speed_level.c) measured quill's RSA at 0.66-0.73x (2048 sign),
 * 0.82-0.96x (2048 verify) and 0.86-0.87x (4096 sign) of the default
 * provider's rate on a Zen 4 with those features masked, so RSA is
 * declined on such CPUs.  quill's P-256 (1.08-1.24x signing, 2.9-3.0x
 * verification there) and ML-DSA are kept.  Only where quill's assembly is
 * present (QUILL_CPU_X86_64): quill_portable.so and QUILL_NO_ASM builds,
 * which exist to run the portable C path, decline nothing. */
static int x86_without_mulx_adx(void) {
    return quill_cpu_has(QUILL_CPU_X86_64) &&
           !quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX);
}
#define QUILL_DECLINE_LIST(X)                                                                  \
    X("RSA",                                                                                   \
      "this x86-64 CPU lacks BMI2 and ADX, where OpenSSL's own RSA code is faster (quill "      \
      "measured 0.66-0.96x of its rate with those features masked)",                           \
      x86_without_mulx_adx)
#else
#define QUILL_DECLINE_LIST(X)
#endif

#define QUILL_DECLINE_ROW(prefix, reason, applies) {prefix, reason, applies},

static const quill_decline quill_declines[] = {QUILL_DECLINE_LIST(QUILL_DECLINE_ROW){NULL, NULL, NULL}};

unsigned quill_decline_active(void) {
    unsigned active = 0;
    for (unsigned i = 0; quill_declines[i].prefix != NULL; i++)
        if (quill_declines[i].applies())
            active |= 1u << i;
    return active;
}

int quill_decline_overridden(unsigned active) {
    const char *v = getenv("QUILL_DECLINE");
    return active != 0 && v != NULL && strcmp(v, "none") == 0;
}

/* Appends |s| to |buf| (|len| bytes, NUL-terminated), truncating. */
static void append(char *buf, size_t len, const char *s) {
    size_t used = strlen(buf);
    if (used + 1 < len)
        OPENSSL_strlcpy(buf + used, s, len - used);
}

void quill_declined_text(char *buf, size_t len, unsigned active, int overridden) {
    if (len == 0)
        return;
    buf[0] = '\0';
    if (active == 0) {
        append(buf, len, "none");
        return;
    }
    if (overridden)
        append(buf, len, "none (QUILL_DECLINE=none overrides this CPU's list: ");
    const char *sep = "";
    for (unsigned i = 0; quill_declines[i].prefix != NULL; i++) {
        if (!(active >> i & 1))
            continue;
        append(buf, len, sep);
        append(buf, len, quill_declines[i].prefix);
        append(buf, len, " (");
        append(buf, len, quill_declines[i].reason);
        append(buf, len, ")");
        sep = "; ";
    }
    if (overridden)
        append(buf, len, ")");
}

static int declined(const char *names, unsigned active) {
    if (names == NULL)
        return 0;
    size_t first = strcspn(names, ":");
    for (unsigned i = 0; quill_declines[i].prefix != NULL; i++) {
        size_t len = strlen(quill_declines[i].prefix);
        if ((active >> i & 1) && first >= len &&
            strncmp(names, quill_declines[i].prefix, len) == 0)
            return 1;
    }
    return 0;
}

const OSSL_ALGORITHM *quill_decline_filter(const OSSL_ALGORITHM *table, unsigned active,
                                           int overridden) {
    if (overridden || active == 0)
        return table;
    size_t n = 0, keep = 0;
    for (; table[n].algorithm_names != NULL; n++)
        keep += !declined(table[n].algorithm_names, active);
    if (keep == n)
        return table;
    OSSL_ALGORITHM *out = OPENSSL_zalloc((keep + 1) * sizeof(*out));
    if (out == NULL)
        return NULL;
    for (size_t i = 0, j = 0; i < n; i++)
        if (!declined(table[i].algorithm_names, active))
            out[j++] = table[i];
    return out;
}

void quill_decline_free(const OSSL_ALGORITHM *filtered, const OSSL_ALGORITHM *table) {
    if (filtered != table)
        OPENSSL_free((void *)filtered);
}
