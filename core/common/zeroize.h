/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#ifndef QUILL_COMMON_ZEROIZE_H
#define QUILL_COMMON_ZEROIZE_H

#include <stddef.h>

/* quill_zeroize overwrites |len| bytes at |p| with zeros in a way the
 * compiler cannot elide.  Used on every secret before its memory is
 * released or goes out of scope. */
void quill_zeroize(void *p, size_t len);

#endif
