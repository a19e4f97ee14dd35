/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The aarch64 ABI checker for the assembly's tests
 * (test/common/abi_check_aarch64.S): call a routine with canaries in every
 * callee-saved register and see which it did not preserve. */
#ifndef QUILL_TEST_ABI_CHECK_AARCH64_H
#define QUILL_TEST_ABI_CHECK_AARCH64_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__aarch64__) && defined(__ELF__)
#define QUILL_HAVE_ABI_A64 1

/* quill_abi_a64_call calls fn(args[0], ..., args[7]) (pointers and integers
 * as 64-bit words), stores its x0 in *ret, and returns the registers it
 * changed: bits 0..9 for x19..x28, bit 10 for x29, bits 11..18 for d8..d15,
 * bit 19 for the stack pointer (0: the ABI held). */
uint32_t quill_abi_a64_call(const void *fn, const uint64_t args[8], uint64_t *ret);

/* Negative controls: change x23 (bit 4) and d12 (bit 15). */
void quill_abi_a64_bad_x23(void);
void quill_abi_a64_bad_d12(void);

/* quill_abi_a64_reg_name names bit i of a quill_abi_a64_call mask. */
static inline const char *quill_abi_a64_reg_name(unsigned i) {
    static const char *const names[20] = {
        "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
        "x29", "d8",  "d9",  "d10", "d11", "d12", "d13", "d14", "d15", "sp"};
    return i < 20 ? names[i] : "?";
}

/* quill_abi_a64_fn turns a function pointer (of any type, cast to
 * void (*)(void)) into the address quill_abi_a64_call takes. */
static inline const void *quill_abi_a64_fn(void (*f)(void)) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

/* quill_abi_a64_check calls fn (cast to void (*)(void)) through
 * quill_abi_a64_call with args, stores its x0 in *ret, prints a line
 * "name does not preserve REG" for each callee-saved register it changed,
 * and returns 1 when it preserved them all. */
static inline int quill_abi_a64_check(const char *name, void (*fn)(void), const uint64_t args[8],
                                      uint64_t *ret) {
    uint32_t bad = quill_abi_a64_call(quill_abi_a64_fn(fn), args, ret);
    for (unsigned i = 0; i < 20; i++)
        if (bad & (1u << i))
            fprintf(stderr, "%s does not preserve %s\n", name, quill_abi_a64_reg_name(i));
    return bad == 0;
}
#else
#define QUILL_HAVE_ABI_A64 0
#endif

#endif
