/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Compiler attributes used throughout the core. */
#ifndef QUILL_COMMON_COMPILER_H
#define QUILL_COMMON_COMPILER_H

/* QUILL_MUST_CHECK marks functions whose status must be looked at. */
#define QUILL_MUST_CHECK __attribute__((warn_unused_result))
#define QUILL_INLINE static inline __attribute__((always_inline))
#define QUILL_NOINLINE __attribute__((noinline))
#define QUILL_LIKELY(x) __builtin_expect(!!(x), 1)
#define QUILL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define QUILL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
