/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Multi-limb addition and subtraction: the
 * portable bodies, and the dispatch to the x86-64 ADC/SBB loops
 * (asm/x86_64/bn_add.S) or the aarch64 ADCS/SBCS loops (asm/aarch64/bn_add.S)
 * on the CPU bit at each call; adding a secret carry
 * bit in constant time. */
#include "bn/internal.h"

#include "common/cpu.h"

quill_limb quill_bn_add_c(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
    quill_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        quill_dlimb t = (quill_dlimb)a[i] + b[i] + carry;
        r[i] = (quill_limb)t;
        carry = (quill_limb)(t >> 64);
    }
    return carry;
}

quill_limb quill_bn_sub_c(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
    quill_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        /* a - b - borrow as a 128-bit difference: its top half is all-ones
         * exactly when it went negative. */
        quill_dlimb t = (quill_dlimb)a[i] - b[i] - borrow;
        r[i] = (quill_limb)t;
        borrow = (quill_limb)(t >> 64) & 1;
    }
    return borrow;
}

int quill_bn_addsub_x86_64_capable(void) {
    return QUILL_BN_HAVE_X86_64 && quill_cpu_has(QUILL_CPU_X86_64);
}

int quill_bn_addsub_arm64_capable(void) {
    return QUILL_BN_HAVE_ARM64 && quill_cpu_has(QUILL_CPU_ARM64);
}

quill_limb quill_bn_add(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
#if QUILL_BN_HAVE_X86_64
    if (quill_bn_addsub_x86_64_capable())
        return quill_bn_add_x86_64(r, a, b, n);
#endif
#if QUILL_BN_HAVE_ARM64
    if (quill_bn_addsub_arm64_capable())
        return quill_bn_add_arm64(r, a, b, n);
#endif
    return quill_bn_add_c(r, a, b, n);
}

quill_limb quill_bn_sub(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
#if QUILL_BN_HAVE_X86_64
    if (quill_bn_addsub_x86_64_capable())
        return quill_bn_sub_x86_64(r, a, b, n);
#endif
#if QUILL_BN_HAVE_ARM64
    if (quill_bn_addsub_arm64_capable())
        return quill_bn_sub_arm64(r, a, b, n);
#endif
    return quill_bn_sub_c(r, a, b, n);
}

quill_limb quill_bn_add_word_consttime(quill_limb *r, size_t n, quill_limb c) {
    for (size_t i = 0; i < n; i++) {
        quill_limb s = r[i] + c;
        /* Carry out iff c == 1 and s == 0.  The barrier hides ~s & (s - 1)
         * (top bit set iff s == 0) so the compiler cannot see the test. */
        c &= quill_ct_msb_mask(quill_value_barrier_w(~s & (s - 1)));
        r[i] = s;
    }
    return c;
}
