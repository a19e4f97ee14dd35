/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * CPU features, probed once.  Native routines are chosen at their call sites
 * with a plain if/else on these bits (see STYLE.md): a routine foo_adx has a
 * foo_adx_capable() predicate built on quill_cpu_has() and a portable foo_c
 * twin that is always compiled.
 *
 * Test-only mask: the environment variable QUILL_CPU_MASK (a number, decimal
 * or 0x-hex; read once, with the probe) clears the feature bits it names, so the suites and the
 * benchmark can force the portable paths at run time.  The build option
 * QUILL_NO_ASM removes the native routines altogether. */
#ifndef QUILL_COMMON_CPU_H
#define QUILL_COMMON_CPU_H

#include <stdint.h>

enum {
    QUILL_CPU_X86_BMI2 = 1u << 0,
    QUILL_CPU_X86_ADX = 1u << 1,
    QUILL_CPU_X86_AVX2 = 1u << 2,
    QUILL_CPU_X86_BMI1 = 1u << 3,
    /* AVX-512 Foundation and Vector Length extensions, with the OS saving
     * the opmask and ZMM state. */
    QUILL_CPU_X86_AVX512VL = 1u << 4,
    /* AVX-512 IFMA (52-bit multiply-accumulate), reported only with
     * QUILL_CPU_X86_AVX512VL. */
    QUILL_CPU_X86_AVX512IFMA = 1u << 5,
    /* Assembly that needs nothing beyond x86-64 (ADC/SBB loops): set on
     * every x86-64 build with the assembly, a bit of its own so that
     * QUILL_CPU_MASK can force the portable twins. */
    QUILL_CPU_X86_64 = 1u << 6,
    /* The SHA extensions (SHA256RNDS2, SHA256MSG1/2; CPUID.(7,0):EBX bit
     * 29) with SSSE3 and SSE4.1 (PSHUFB, PBLENDW): Zen and later, Intel
     * from Goldmont and Ice Lake. */
    QUILL_CPU_X86_SHA = 1u << 7,

    /* aarch64 (bits 8 and up, probed with getauxval(AT_HWCAP) on Linux): */
    /* Scalar assembly that needs nothing beyond ARMv8.0-A (ADDS/ADCS chains,
     * MUL/UMULH): set on every aarch64 build with the assembly, a bit of its
     * own so that QUILL_CPU_MASK can force the portable twins. */
    QUILL_CPU_ARM64 = 1u << 8,
    /* Advanced SIMD (NEON; HWCAP_ASIMD, present on every aarch64 Linux
     * server CPU). */
    QUILL_CPU_ARM_NEON = 1u << 9,
    /* The ARMv8.2-A SHA-3 instructions EOR3, RAX1, XAR and BCAX
     * (HWCAP_SHA3: Neoverse V1/V2/N2, Apple M1 and later; not Cortex-A72 or
     * Neoverse N1), reported only with QUILL_CPU_ARM_NEON. */
    QUILL_CPU_ARM_SHA3 = 1u << 10,
};

/* quill_cpu_word holds the process's feature bits: probed once at load
 * (a constructor in cpu.c, before main or while dlopen loads the module),
 * minus those QUILL_CPU_MASK clears, with QUILL_CPU_PROBED set.  Read it
 * only through quill_cpu_features() and quill_cpu_has(): a relaxed load of
 * one word written once, so any thread may read it.  Code that ran before
 * the probe (only other constructors could) would read 0, every feature
 * absent: the portable paths, which give the same results.  A driver linked
 * with the static core may store a value of that form into it at the start
 * of main (test/ec/ec_verify_count.c).  Each core variant has its own copy,
 * hidden inside its module (quill_core_portable's is QUILL_CPU_PROBED
 * alone). */
extern __attribute__((visibility("hidden"))) uint32_t quill_cpu_word;

/* QUILL_CPU_PROBED marks quill_cpu_word as filled in; never a feature bit
 * (QUILL_CPU_MASK cannot clear it). */
#define QUILL_CPU_PROBED (1u << 31)

/* quill_cpu_probe probes the CPU, clears the bits QUILL_CPU_MASK names,
 * stores the result into quill_cpu_word and returns the feature bits.  Run
 * by cpu.c's constructor; calling it again recomputes the same word. */
uint32_t quill_cpu_probe(void);

/* quill_cpu_features returns the usable feature bits (probed once at load)
 * minus those cleared by QUILL_CPU_MASK. */
static inline uint32_t quill_cpu_features(void) {
    return __atomic_load_n(&quill_cpu_word, __ATOMIC_RELAXED) & ~QUILL_CPU_PROBED;
}

/* quill_cpu_has returns nonzero when every bit of bits is usable: a load and
 * a test, cheap enough for a dispatch on every field product. */
static inline int quill_cpu_has(uint32_t bits) {
    return (__atomic_load_n(&quill_cpu_word, __ATOMIC_RELAXED) & bits) == bits;
}

#endif
