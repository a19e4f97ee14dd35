/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_cpu_probe_a64: quill_cpu_features() on aarch64 Linux reports what
 * getauxval(AT_HWCAP) says (ARM64 always, NEON from HWCAP_ASIMD, SHA3 from
 * HWCAP_SHA3 with NEON), minus the bits QUILL_CPU_MASK clears.
 *
 * Under qemu-aarch64 (the test environment's QUILL_EMULATOR names it: a
 * cross build, test/CMakeLists.txt) the CPU model that QEMU_CPU names (qemu
 * leaves it in the program's environment) must show through: unset or "max"
 * reports NEON and SHA-3, "cortex-a72" NEON without SHA-3.  This is what
 * makes the _a72 copies of the suites mean something: they do run without
 * the SHA-3 extension.  Elsewhere (Arm hardware) only the agreement with
 * getauxval and the masks is checked.  Skipped (77) off aarch64 Linux. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "test_util.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* The Linux arm64 AT_HWCAP bits (asm/hwcap.h), written out here
 * independently of core/common/cpu.c. */
#define HWCAP_BIT_ASIMD (1ul << 1)
#define HWCAP_BIT_SHA3 (1ul << 17)

static void names(uint32_t f, char *buf, size_t len) {
    snprintf(buf, len, "%s%s%s%s", (f & QUILL_CPU_ARM64) ? " ARM64" : "",
             (f & QUILL_CPU_ARM_NEON) ? " NEON" : "", (f & QUILL_CPU_ARM_SHA3) ? " SHA3" : "",
             f ? "" : " (none)");
}

int main(void) {
    const char *emu = getenv("QUILL_EMULATOR");
    int qemu = emu != NULL && strstr(emu, "qemu-aarch64") != NULL;
    unsigned long hw = getauxval(AT_HWCAP);
    const char *mask_s = getenv("QUILL_CPU_MASK");
    uint32_t mask = (mask_s != NULL && *mask_s != '\0') ? (uint32_t)strtoul(mask_s, NULL, 0) : 0;

    uint32_t want = QUILL_CPU_ARM64;
    if (hw & HWCAP_BIT_ASIMD) {
        want |= QUILL_CPU_ARM_NEON;
        if (hw & HWCAP_BIT_SHA3)
            want |= QUILL_CPU_ARM_SHA3;
    }
    uint32_t got = quill_cpu_features();
    char got_s[64], want_s[64];
    names(got, got_s, sizeof(got_s));
    names(want & ~mask, want_s, sizeof(want_s));
    const char *model = getenv("QEMU_CPU");
    printf("AT_HWCAP %#lx, QEMU_CPU %s, QUILL_CPU_MASK %s: quill_cpu_features %#x:%s\n", hw,
           model ? model : "(unset)", mask_s ? mask_s : "(unset)", (unsigned)got, got_s);

    /* The probe agrees with getauxval, masked, and reports no x86 bit. */
    QT_CHECK(got == (want & ~mask));
    if (got != (want & ~mask))
        fprintf(stderr, "expected%s\n", want_s);
    QT_CHECK((got & 0xffu) == 0);
    /* Stable: the second call gives the cached answer. */
    QT_CHECK(quill_cpu_features() == got);
    QT_CHECK(quill_cpu_has(got));
    /* Every aarch64 Linux CPU has Advanced SIMD. */
    QT_CHECK(hw & HWCAP_BIT_ASIMD);

    if (qemu) {
        if (model == NULL || strcmp(model, "max") == 0) {
            /* qemu's "max" CPU: every extension it emulates, SHA-3 included. */
            QT_CHECK(hw & HWCAP_BIT_SHA3);
            QT_CHECK(want == (QUILL_CPU_ARM64 | QUILL_CPU_ARM_NEON | QUILL_CPU_ARM_SHA3));
        } else if (strcmp(model, "cortex-a72") == 0) {
            /* ARMv8.0-A: NEON, no SHA-3 (the _a72 level). */
            QT_CHECK(!(hw & HWCAP_BIT_SHA3));
            QT_CHECK(want == (QUILL_CPU_ARM64 | QUILL_CPU_ARM_NEON));
        } else {
            printf("QEMU_CPU %s: no expectation for this model beyond getauxval\n", model);
        }
    }
    /* What the levels' masks must leave (test/CMakeLists.txt). */
    if (mask == 0xffffffffu)
        QT_CHECK(got == 0);
    if (mask == QUILL_CPU_ARM_SHA3)
        QT_CHECK(got == (want & ~(uint32_t)QUILL_CPU_ARM_SHA3) && !(got & QUILL_CPU_ARM_SHA3));
    return qt_finish("cpu_probe_a64");
}

#else

int main(void) {
    printf("not aarch64 Linux: skipped\n");
    return QT_SKIP;
}

#endif
