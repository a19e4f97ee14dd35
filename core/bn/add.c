/* Copyright quill authors.  Multi-limb addition and subtraction. */
#include "bn/internal.h"

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

quill_limb quill_bn_add(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
    return quill_bn_add_c(r, a, b, n);
}

quill_limb quill_bn_sub(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n) {
    return quill_bn_sub_c(r, a, b, n);
}

void quill_bn_cond_sub_c(quill_limb *r, const quill_limb *t, quill_limb hi, const quill_limb *m,
                         size_t n) {
    /* (hi:t) < 2m.  Compute t - m; the value hi:t is >= m exactly when the
     * subtraction does not borrow out of the (n+1)-limb number, i.e. when
     * hi >= borrow.  Keep t - m in that case.  One pass computing the
     * difference into a buffer would need scratch; instead subtract, then
     * add m back under a mask. */
    quill_limb borrow = quill_bn_sub_c(r, t, m, n);
    /* hi - borrow: -1 (all-ones) means the result went negative: restore. */
    quill_limb restore = (quill_limb)0 - (borrow & ~hi & 1);
    restore = quill_value_barrier_w(restore);
    quill_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        quill_dlimb s = (quill_dlimb)r[i] + (m[i] & restore) + carry;
        r[i] = (quill_limb)s;
        carry = (quill_limb)(s >> 64);
    }
}
