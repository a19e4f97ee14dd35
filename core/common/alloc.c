/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>

#ifdef QUILL_ALLOC_TEST_HOOK
static quill_alloc_fail_fn test_fail;
static void *test_arg;

void quill_alloc_set_test_hook(quill_alloc_fail_fn fail, void *arg) {
    test_arg = arg;
    test_fail = fail;
}

#define QUILL_ALLOC_SHOULD_FAIL() (test_fail != NULL && test_fail(test_arg))
#else
#define QUILL_ALLOC_SHOULD_FAIL() 0
#endif

void *quill_malloc(size_t size) {
    if (QUILL_ALLOC_SHOULD_FAIL())
        return NULL;
    return malloc(size);
}

void *quill_calloc(size_t n, size_t size) {
    if (QUILL_ALLOC_SHOULD_FAIL())
        return NULL;
    return calloc(n, size);
}

void *quill_aligned_alloc(size_t align, size_t size) {
    if (QUILL_ALLOC_SHOULD_FAIL())
        return NULL;
    /* C11 aligned_alloc wants a size that is a multiple of the alignment. */
    if (size > SIZE_MAX - (align - 1))
        return NULL;
    return aligned_alloc(align, (size + align - 1) & ~(align - 1));
}

void quill_free(void *p) {
    free(p);
}
