/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "cpu.h"

#include <stdlib.h>

#if !defined(QUILL_NO_ASM) && defined(__x86_64__)
#include <cpuid.h>

static uint32_t probe(void) {
    unsigned a, b, c, d;
    uint32_t f = QUILL_CPU_X86_64;
    if (__get_cpuid_max(0, 0) < 7)
        return f;
    __cpuid(1, a, b, c, d);
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    int ssse3_sse41 = ((c >> 9) & 1) && ((c >> 19) & 1);
    __cpuid_count(7, 0, a, b, c, d);
    if ((b & (1u << 29)) && ssse3_sse41)
        f |= QUILL_CPU_X86_SHA;
    if (b & (1u << 3))
        f |= QUILL_CPU_X86_BMI1;
    if (b & (1u << 8))
        f |= QUILL_CPU_X86_BMI2;
    if (b & (1u << 19))
        f |= QUILL_CPU_X86_ADX;
    if ((b & (1u << 5)) && osxsave && avx) {
        /* XGETBV: the OS must save the XMM and YMM state (XCR0 bits 1, 2). */
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6) == 6)
            f |= QUILL_CPU_X86_AVX2;
        /* AVX512F (bit 16) and AVX512VL (bit 31), and XCR0 bits 5-7
         * (opmask, upper halves of ZMM0-15, ZMM16-31). */
        if ((lo & 0xe6) == 0xe6 && (b & (1u << 16)) && (b & (1u << 31))) {
            f |= QUILL_CPU_X86_AVX512VL;
            if (b & (1u << 21))
                f |= QUILL_CPU_X86_AVX512IFMA;
        }
    }
    return f;
}
#elif !defined(QUILL_NO_ASM) && defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* The AT_HWCAP bits of the Linux arm64 ABI (asm/hwcap.h), spelled out so
 * that the build needs no kernel headers. */
#define QUILL_HWCAP_ASIMD (1ul << 1)
#define QUILL_HWCAP_SHA3 (1ul << 17)

static uint32_t probe(void) {
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = QUILL_CPU_ARM64;
    if (hw & QUILL_HWCAP_ASIMD) {
        f |= QUILL_CPU_ARM_NEON;
        if (hw & QUILL_HWCAP_SHA3)
            f |= QUILL_CPU_ARM_SHA3;
    }
    return f;
}
#elif !defined(QUILL_NO_ASM) && defined(__aarch64__)
/* Other aarch64 systems (no getauxval): the baseline, NEON included (every
 * AArch64 CPU an OS supports has it). */
static uint32_t probe(void) {
    return QUILL_CPU_ARM64 | QUILL_CPU_ARM_NEON;
}
#else
static uint32_t probe(void) {
    return 0;
}
#endif

uint32_t quill_cpu_word;

uint32_t quill_cpu_probe(void) {
    uint32_t f = probe();
    const char *mask = getenv("QUILL_CPU_MASK");
    if (mask != NULL && *mask != '\0')
        f &= ~(uint32_t)strtoul(mask, NULL, 0);
    f &= ~QUILL_CPU_PROBED;
    __atomic_store_n(&quill_cpu_word, f | QUILL_CPU_PROBED, __ATOMIC_RELAXED);
    return f;
}

/* The probe, once per process (or per module: each has its own word), at
 * load time, while nothing else runs in the module yet. */
__attribute__((constructor)) static void cpu_probe_at_load(void) {
    (void)quill_cpu_probe();
}
