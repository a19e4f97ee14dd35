/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_abi_a64_selftest: the aarch64 ABI checker catches what it must (a
 * routine that changes x23, one that changes d12) and passes a routine that
 * keeps the ABI, with every argument register delivered; quill_abi_a64_check
 * agrees.  Skipped (77)
 * off aarch64. */
#include <stdio.h>
#include <string.h>

#include "abi_check_aarch64.h"
#include "test_util.h"

#if QUILL_HAVE_ABI_A64

static uint64_t sum8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f,
                     uint64_t g, uint64_t h) {
    return a + 3 * b + 5 * c + 7 * d + 11 * e + 13 * f + 17 * g + 19 * h;
}

int main(void) {
    uint64_t args[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ret = 0;
    QT_CHECK(quill_abi_a64_call(quill_abi_a64_fn((void (*)(void))sum8), args, &ret) == 0);
    QT_CHECK(ret == sum8(1, 2, 3, 4, 5, 6, 7, 8));
    ret = 0;
    QT_CHECK(quill_abi_a64_check("sum8", (void (*)(void))sum8, args, &ret));
    QT_CHECK(ret == sum8(1, 2, 3, 4, 5, 6, 7, 8));

    uint32_t bad = quill_abi_a64_call(quill_abi_a64_fn(quill_abi_a64_bad_x23), args, &ret);
    QT_CHECK(bad == 1u << 4);
    QT_CHECK(strcmp(quill_abi_a64_reg_name(4), "x23") == 0);
    bad = quill_abi_a64_call(quill_abi_a64_fn(quill_abi_a64_bad_d12), args, &ret);
    QT_CHECK(bad == 1u << 15);
    QT_CHECK(strcmp(quill_abi_a64_reg_name(15), "d12") == 0);
    QT_CHECK(!quill_abi_a64_check("quill_abi_a64_bad_x23 (expected)", quill_abi_a64_bad_x23, args,
                                  &ret));
    return qt_finish("abi_a64_selftest");
}

#else
int main(void) {
    puts("test_abi_a64_selftest: not an aarch64 ELF build: skipped");
    return 77;
}
#endif
