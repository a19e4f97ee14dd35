/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "zeroize.h"

#include <string.h>

void quill_zeroize(void *p, size_t len) {
    if (len == 0)
        return;
    memset(p, 0, len);
    /* The empty asm takes p as an input and clobbers memory, so the compiler
     * must assume the zeros are read and cannot drop the memset. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
