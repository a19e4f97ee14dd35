/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  What the AVX-512 IFMA differential tests
 * (test_bn_ifma, test_bn_ifma_x1) share: the decision to run, the CPU mask
 * that makes the dispatched exponentiations take the portable path (their
 * oracle), and one modulus shape more. */
#ifndef QUILL_TEST_BN_IFMA_COMMON_H
#define QUILL_TEST_BN_IFMA_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

/* bt_ifma_oracle returns QT_SKIP (after saying so) if this build has no
 * IFMA code, the CPU lacks AVX-512 IFMA/VL or the user's QUILL_CPU_MASK
 * clears them; else 0, after adding both bits to QUILL_CPU_MASK, so that
 * quill's dispatch (probed later, once) takes the portable path while the
 * test calls the IFMA code directly.  Call before the first CPU probe; the
 * includer defines _POSIX_C_SOURCE (setenv). */
static inline int bt_ifma_oracle(const char *suite) {
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
    const unsigned long bits = QUILL_CPU_X86_AVX512IFMA | QUILL_CPU_X86_AVX512VL;
    const char *old = getenv("QUILL_CPU_MASK");
    unsigned long mask = old != NULL ? strtoul(old, NULL, 0) : 0;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512ifma") || !__builtin_cpu_supports("avx512vl") ||
        (mask & bits) != 0) {
        printf("%s: no usable AVX-512 IFMA, skipped\n", suite);
        return QT_SKIP;
    }
    char buf[32];
    snprintf(buf, sizeof(buf), "0x%lx", mask | bits);
    if (setenv("QUILL_CPU_MASK", buf, 1) != 0) {
        printf("%s: setenv failed\n", suite);
        return 1;
    }
    /* The features are probed at load (core/common/cpu.c): probe again so
     * that the dispatch sees the new mask. */
    (void)quill_cpu_probe();
    return 0;
#else
    printf("%s: no IFMA code in this build, skipped\n", suite);
    return QT_SKIP;
#endif
}

/* bt_ifma_modulus: bt_modulus's shapes, plus (kind BT_MODULUS_KINDS) a
 * modulus just above 2^(64n - 1): the top bit and a small odd low limb. */
static inline void bt_ifma_modulus(quill_limb *m, size_t n, unsigned kind) {
    if (kind < BT_MODULUS_KINDS) {
        bt_modulus(m, n, kind);
        return;
    }
    memset(m, 0, n * sizeof(quill_limb));
    m[n - 1] = (quill_limb)1 << 63;
    m[0] |= (qt_rng_u64() % 4096) | 1;
}
#define BT_IFMA_MODULUS_KINDS (BT_MODULUS_KINDS + 1)

#endif
