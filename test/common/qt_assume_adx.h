/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * For the callgrind drivers that link the static core (ec_verify_count,
 * rsa_sign_count): valgrind's CPUID hides ADX, so under it the core would
 * run its C paths.  qt_assume_adx adds ADX beside BMI2 to the static core's
 * CPU word when the environment variable |env| is "1" and QUILL_CPU_MASK
 * does not clear ADX.  Call it at the start of main, before anything reads
 * the word.  Only for counting instructions: on a CPU without ADX the
 * kernels it enables would fault. */
#ifndef QUILL_QT_ASSUME_ADX_H
#define QUILL_QT_ASSUME_ADX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"

static inline void qt_assume_adx(const char *env) {
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
    uint32_t f = quill_cpu_features();
    const char *assume = getenv(env);
    const char *mask = getenv("QUILL_CPU_MASK");
    uint32_t cleared = mask != NULL && *mask != '\0' ? (uint32_t)strtoul(mask, NULL, 0) : 0;
    if (assume != NULL && strcmp(assume, "1") == 0 && (f & QUILL_CPU_X86_BMI2) &&
        !(cleared & QUILL_CPU_X86_ADX))
        __atomic_store_n(&quill_cpu_word, f | QUILL_CPU_X86_ADX | QUILL_CPU_PROBED,
                         __ATOMIC_RELAXED);
#else
    (void)env;
#endif
}

#endif
