/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-speed --level: both sides of the comparison held to one CPU level
 * (speed.h, "CPU levels").  quill reads QUILL_CPU_MASK when quill.so is
 * loaded (core/common/cpu.c), but libcrypto reads OPENSSL_ia32cap when it is
 * itself loaded (OPENSSL_cpuid_setup runs from libcrypto's .init section on
 * x86-64), before main: so the masks are put into the environment and the
 * program re-executes itself (the file /proc/self/exe names, same argv).
 *
 * The masks, checked against the sources they drive:
 *   quill, core/common/cpu.h: BMI2 0x1, ADX 0x2, AVX2 0x4, BMI1 0x8,
 *     AVX512VL 0x10, AVX512IFMA 0x20 (QUILL_CPU_X86_64, 0x40, and
 *     QUILL_CPU_X86_SHA, 0x80, stay: so does OpenSSL's SHA bit, EBX bit
 *     29, which no level clears, and both sides hash with SHA-NI where the
 *     CPU has it).
 *   OpenSSL 3.0, doc/man3/OPENSSL_ia32cap.pod and crypto/cpuid.c: after the
 *     ':' comes the second 64-bit word, CPUID.(EAX=7,ECX=0):EBX in its low
 *     half; ":~X" clears the bits of X there and keeps the first word
 *     (CPUID.1) as probed.  EBX bits: BMI1 3, AVX2 5, BMI2 8, AVX512F 16,
 *     AVX512DQ 17, ADX 19, AVX512IFMA 21, AVX512CD 28, AVX512BW 30,
 *     AVX512VL 31.  OpenSSL's RSA IFMA path (ossl_rsaz_mod_exp_avx512_x2)
 *     runs when ossl_rsaz_avx512ifma_eligible() sees F, DQ, IFMA and VL;
 *     with ":~0xD0230000" it returns 0 (seen under gdb on 3.0.22's
 *     libcrypto.so.3, at the function's return, signing with RSA-2048).
 *     Without ADX ("bmi2", ":~0xD02B0000") rsaz_avx2_eligible() returns 1
 *     (it declines when BMI2 and ADX are both present): RSA-2048 signing
 *     then runs OpenSSL's AVX2 RSAZ code, as on Haswell, and the MULX
 *     paths of bn_mul_mont and ecp_nistz256 (which need BMI2 and ADX) are
 *     off; with AVX2, BMI1 and BMI2 masked too ("x86_64", ":~0xD02B0128")
 *     it returns 0 again (both seen under gdb the same way; the default
 *     provider's RSA-2048 signing ran about 2000 and 1270 ops/s there,
 *     against 1740 at avx2). */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "speed.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* CPUID.(7,0):EBX bits (OpenSSL's second capability word, low half). */
#define EBX_BMI1 (1ul << 3)
#define EBX_AVX2 (1ul << 5)
#define EBX_BMI2 (1ul << 8)
#define EBX_AVX512F (1ul << 16)
#define EBX_AVX512DQ (1ul << 17)
#define EBX_ADX (1ul << 19)
#define EBX_AVX512IFMA (1ul << 21)
#define EBX_AVX512CD (1ul << 28)
#define EBX_AVX512BW (1ul << 30)
#define EBX_AVX512VL (1ul << 31)
/* 0xD0230000 */
#define EBX_AVX512_ALL                                                                           \
    (EBX_AVX512F | EBX_AVX512DQ | EBX_AVX512IFMA | EBX_AVX512CD | EBX_AVX512BW | EBX_AVX512VL)

/* QUILL_CPU_MASK bits (core/common/cpu.h; not included: bench/ does not
 * build against the core). */
#define QUILL_BITS_BMI2_ADX_AVX2_BMI1 0x0fu
#define QUILL_BITS_ADX 0x02u
#define QUILL_BITS_AVX512VL_IFMA 0x30u

/* One level.  ebx is what the OpenSSL mask clears (":~0x<ebx>"), and also
 * the CPUID bits whose presence makes the level differ from native. */
typedef struct level_def {
    const char *name;
    unsigned long quill_mask; /* 0: none */
    unsigned long ebx;        /* 0: none */
    const char *what;
} level_def;

static const level_def levels[] = {
    {"native", 0, 0, "every feature this CPU has"},
#if defined(__x86_64__)
    {"avx2", QUILL_BITS_AVX512VL_IFMA, EBX_AVX512_ALL,
     "AVX2, BMI1, BMI2 and ADX; AVX-512 (F, DQ, IFMA, CD, BW, VL) masked"},
    {"bmi2", QUILL_BITS_AVX512VL_IFMA | QUILL_BITS_ADX, EBX_AVX512_ALL | EBX_ADX,
     "AVX2, BMI1 and BMI2 without ADX, as on Haswell; ADX and AVX-512 masked"},
    {"x86_64", QUILL_BITS_AVX512VL_IFMA | QUILL_BITS_BMI2_ADX_AVX2_BMI1,
     EBX_AVX512_ALL | EBX_BMI1 | EBX_AVX2 | EBX_BMI2 | EBX_ADX,
     "x86-64 scalar code; AVX2, BMI1, BMI2, ADX and AVX-512 masked"},
#endif
};
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

/* The x86-64 names, refused with their own message elsewhere. */
static const char *const x86_names[] = {"avx2", "bmi2", "x86_64"};

static void level_names(char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t i = 0; i < NLEVELS; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", levels[i].name);
    }
}

/* Fills |lv| from |d|. */
static void level_fill(speed_level *lv, const level_def *d) {
    memset(lv, 0, sizeof(*lv));
    snprintf(lv->name, sizeof(lv->name), "%s", d->name);
    lv->what = d->what;
    if (d->quill_mask != 0)
        snprintf(lv->quill_mask, sizeof(lv->quill_mask), "0x%lx", d->quill_mask);
    if (d->ebx != 0)
        snprintf(lv->ia32cap, sizeof(lv->ia32cap), ":~0x%lX", d->ebx);
    lv->differs = 0;
#if defined(__x86_64__)
    unsigned a, b, c, dx;
    if (d->ebx != 0 && __get_cpuid_max(0, 0) >= 7) {
        __cpuid_count(7, 0, a, b, c, dx);
        lv->differs = (b & d->ebx) != 0;
    }
#endif
}

/* The environment's value of a mask: NULL when unset.  An empty
 * QUILL_CPU_MASK is no mask (cpu.c ignores it); an empty OPENSSL_ia32cap is
 * a value (OpenSSL then clears every capability bit). */
static const char *env_mask(const char *var) {
    const char *v = getenv(var);
    if (v != NULL && *v == '\0' && strcmp(var, "QUILL_CPU_MASK") == 0)
        return NULL;
    return v;
}

/* 1 if the environment holds exactly |d|'s masks (QUILL_CPU_MASK compared
 * as a number, OPENSSL_ia32cap as text, case aside). */
static int env_matches(const level_def *d) {
    const char *qm = env_mask("QUILL_CPU_MASK"), *ic = env_mask("OPENSSL_ia32cap");
    if (d->quill_mask == 0 ? qm != NULL : (qm == NULL || strtoul(qm, NULL, 0) != d->quill_mask))
        return 0;
    if (d->ebx == 0)
        return ic == NULL;
    char want[32];
    snprintf(want, sizeof(want), ":~0x%lX", d->ebx);
    return ic != NULL && strcasecmp(ic, want) == 0;
}

static void describe_env(char *buf, size_t len) {
    const char *qm = env_mask("QUILL_CPU_MASK"), *ic = env_mask("OPENSSL_ia32cap");
    snprintf(buf, len, "QUILL_CPU_MASK=%s, OPENSSL_ia32cap=%s", qm ? qm : "(unset)",
             ic ? ic : "(unset)");
}

int speed_level_select(speed_level *lv, const char *name, char **argv) {
    char names[64], env[160];
    level_names(names, sizeof(names));
    if (name == NULL) {
        /* No --level: name what the environment holds. */
        for (size_t i = 0; i < NLEVELS; i++)
            if (env_matches(&levels[i])) {
                level_fill(lv, &levels[i]);
                return 1;
            }
        memset(lv, 0, sizeof(*lv));
        snprintf(lv->name, sizeof(lv->name), "custom");
        lv->what = "masks set in the environment, not one of quill-speed's levels";
        const char *qm = env_mask("QUILL_CPU_MASK"), *ic = env_mask("OPENSSL_ia32cap");
        snprintf(lv->quill_mask, sizeof(lv->quill_mask), "%s", qm ? qm : "");
        /* An empty OPENSSL_ia32cap clears every bit: shown as "". */
        snprintf(lv->ia32cap, sizeof(lv->ia32cap), "%s", ic == NULL ? "" : *ic ? ic : "\"\"");
        lv->differs = -1;
        return 1;
    }
    const level_def *d = NULL;
    for (size_t i = 0; i < NLEVELS; i++)
        if (strcmp(levels[i].name, name) == 0)
            d = &levels[i];
    if (d == NULL) {
        for (size_t i = 0; i < sizeof(x86_names) / sizeof(x86_names[0]); i++)
            if (strcmp(x86_names[i], name) == 0) {
                fprintf(stderr, "quill-speed: --level %s is an x86-64 level; this build is for "
                                "another architecture (levels here: %s)\n",
                        name, names);
                return 0;
            }
        fprintf(stderr, "quill-speed: unknown --level '%s' (levels: %s)\n", name, names);
        return 0;
    }
    if (env_matches(d)) {
        level_fill(lv, d);
        return 1;
    }
    describe_env(env, sizeof(env));
    if (env_mask("QUILL_CPU_MASK") != NULL || env_mask("OPENSSL_ia32cap") != NULL) {
        /* Masks of the user's own: refuse rather than guess how to combine
         * them with the level's. */
        fprintf(stderr, "quill-speed: --level %s %s, but the environment has %s: unset them, or "
                        "drop --level\n",
                name, d->quill_mask == 0 ? "runs without CPU masks" : "sets the CPU masks itself",
                env);
        return 0;
    }
    const char *guard = getenv("QUILL_SPEED_LEVEL");
    if (guard != NULL && strcmp(guard, name) == 0) {
        /* We were re-executed for this level, yet its masks are gone: stop
         * rather than loop. */
        fprintf(stderr, "quill-speed: --level %s: QUILL_SPEED_LEVEL=%s is set but the level's "
                        "masks are not (lost in a re-execution?): unset QUILL_SPEED_LEVEL\n",
                name, guard);
        return 0;
    }
    /* native with no masks matched above: here d has masks to set. */
    speed_level want;
    level_fill(&want, d);
    if (setenv("QUILL_CPU_MASK", want.quill_mask, 1) != 0 ||
        setenv("OPENSSL_ia32cap", want.ia32cap, 1) != 0 ||
        setenv("QUILL_SPEED_LEVEL", name, 1) != 0) {
        fprintf(stderr, "quill-speed: --level %s: cannot set the environment\n", name);
        return -1;
    }
    /* The executable's path as /proc/self/exe names it, rather than that
     * link itself: under valgrind (--trace-children=yes) the link is the
     * tool's, while readlink gives the program's. */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0 || (size_t)n >= sizeof(exe) - 1)
        snprintf(exe, sizeof(exe), "/proc/self/exe");
    else
        exe[n] = '\0';
    fflush(NULL);
    execv(exe, argv);
    fprintf(stderr, "quill-speed: --level %s: cannot re-execute %s with the masks set: %s\n",
            name, exe, strerror(errno));
    return -1;
}
