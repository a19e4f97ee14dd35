/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time primitives.  Every helper here runs in time independent of
 * the values of its arguments (not of their lengths) on the compilers and
 * targets quill supports.  The reasoning for each is next to it.
 *
 * Masks are all-zeros or all-ones words.  Functions that leak end in
 * _vartime or _public, never here.
 *
 * Validation build: with QUILL_CT_VALIDATION, QUILL_CT_SECRET marks memory as
 * undefined for valgrind's memcheck, so that any branch or memory index that
 * depends on it is reported; QUILL_CT_DECLASSIFY marks a value public where
 * the algorithm makes it so (a signature, a validated key size).  Outside that
 * build both are no-ops. */
#ifndef QUILL_COMMON_CT_H
#define QUILL_COMMON_CT_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"

#if defined(QUILL_CT_VALIDATION)
#include <valgrind/memcheck.h>
#define QUILL_CT_SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define QUILL_CT_DECLASSIFY(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))
#else
#define QUILL_CT_SECRET(p, len) ((void)(p), (void)(len))
#define QUILL_CT_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

typedef uint64_t quill_word;

/* quill_value_barrier_w returns |a| unchanged but hides its value from the
 * optimiser.  Use it only where a compiler could really turn a mask back
 * into a branch (for instance a mask derived from a comparison and then used
 * to select); arithmetic on limbs does not need it and it blocks
 * vectorisation. */
QUILL_INLINE quill_word quill_value_barrier_w(quill_word a) {
    __asm__("" : "+r"(a) : /* no inputs */);
    return a;
}

QUILL_INLINE uint32_t quill_value_barrier_u32(uint32_t a) {
    __asm__("" : "+r"(a) : /* no inputs */);
    return a;
}

/* quill_ct_msb_mask returns all-ones if the top bit of |a| is set. */
QUILL_INLINE quill_word quill_ct_msb_mask(quill_word a) {
    return (quill_word)0 - (a >> 63);
}

/* quill_ct_is_zero_mask returns all-ones if a == 0: ~a & (a - 1) has its top
 * bit set exactly when a is zero. */
QUILL_INLINE quill_word quill_ct_is_zero_mask(quill_word a) {
    return quill_ct_msb_mask(~a & (a - 1));
}

QUILL_INLINE quill_word quill_ct_eq_mask(quill_word a, quill_word b) {
    return quill_ct_is_zero_mask(a ^ b);
}

/* quill_ct_lt_mask returns all-ones if a < b (unsigned): the borrow of a - b,
 * computed without a branch as in Hacker's Delight 2-12. */
QUILL_INLINE quill_word quill_ct_lt_mask(quill_word a, quill_word b) {
    return quill_ct_msb_mask(a ^ ((a ^ b) | ((a - b) ^ a)));
}

/* quill_ct_select_w returns |a| if mask is all-ones and |b| if it is zero. */
QUILL_INLINE quill_word quill_ct_select_w(quill_word mask, quill_word a, quill_word b) {
    return (mask & a) | (~mask & b);
}

/* quill_ct_memeq_mask compares |len| bytes and returns all-ones if they are
 * equal, reading every byte. */
QUILL_INLINE quill_word quill_ct_memeq_mask(const void *a, const void *b, size_t len) {
    const uint8_t *pa = a, *pb = b;
    quill_word acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= (quill_word)(pa[i] ^ pb[i]);
    /* The barrier keeps clang from turning "acc == 0" into a branch once the
     * mask is combined with another (found by the clang ct build). */
    return quill_ct_is_zero_mask(quill_value_barrier_w(acc));
}

/* quill_ct_memcpy_if copies |len| bytes from src to dst if mask is all-ones
 * and leaves dst unchanged otherwise, touching every byte either way. */
QUILL_INLINE void quill_ct_memcpy_if(quill_word mask, void *dst, const void *src, size_t len) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    uint8_t m = (uint8_t)mask;
    for (size_t i = 0; i < len; i++)
        d[i] = (uint8_t)((m & s[i]) | (~m & d[i]));
}

/* quill_ct_declassify_w returns |a| marked public (validation build). */
QUILL_INLINE quill_word quill_ct_declassify_w(quill_word a) {
    QUILL_CT_DECLASSIFY(&a, sizeof(a));
    return a;
}

#endif
