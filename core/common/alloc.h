/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The core's one allocation interface.  Every allocation of core/ goes
 * through these functions (never libc's directly), so that the
 * allocation-failure test can fail any one of them (the test hook below).
 * They behave as their libc namesakes; none of them zeroises: a caller
 * holding secrets calls quill_zeroize (common/zeroize.h) before
 * quill_free, as everywhere in the core. */
#ifndef QUILL_COMMON_ALLOC_H
#define QUILL_COMMON_ALLOC_H

#include <stddef.h>

/* quill_malloc returns |size| uninitialised bytes, or NULL if memory runs
 * out (or the test hook fails this allocation). */
void *quill_malloc(size_t size);

/* quill_calloc returns |n| * |size| zeroed bytes, or NULL if memory runs
 * out or n * size overflows (or the test hook fails this allocation). */
void *quill_calloc(size_t n, size_t size);

/* quill_aligned_alloc returns |size| uninitialised bytes aligned to |align|
 * (a power of two, at least sizeof(void *)), or NULL; |size| need not be a
 * multiple of |align| (it is rounded up).  Freed with quill_free. */
void *quill_aligned_alloc(size_t align, size_t size);

/* quill_free releases memory from any function above; NULL is fine. */
void quill_free(void *p);

#ifdef QUILL_ALLOC_TEST_HOOK
/* Test builds only: the core variant quill_core_fault (cmake/core.cmake,
 * ALLOC_HOOK) compiles alloc.c with QUILL_ALLOC_TEST_HOOK; quill_core, and
 * so quill.so, has neither the hook nor its check.
 *
 * quill_alloc_set_test_hook installs |fail|, called before every
 * allocation above with |arg|: a nonzero return makes that allocation fail
 * (NULL).  NULL removes the hook.  Not thread-safe against concurrent
 * allocations: install it while no other thread runs quill code. */
typedef int (*quill_alloc_fail_fn)(void *arg);
void quill_alloc_set_test_hook(quill_alloc_fail_fn fail, void *arg);
#endif

#endif
