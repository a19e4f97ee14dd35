/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Schoolbook multiplication (portable only): one
 * multiply-accumulate row per limb of b.  There is no plain squaring here;
 * the squarings of the exponentiations are the Montgomery kernels
 * (mont_kernels.c, mont_adx.c, exp_ifma.c). */
#include "bn/internal.h"

quill_limb quill_bn_mul_add_word_c(quill_limb *r, const quill_limb *a, size_t n, quill_limb w) {
    quill_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        quill_dlimb t = (quill_dlimb)a[i] * w + r[i] + carry;
        r[i] = (quill_limb)t;
        carry = (quill_limb)(t >> 64);
    }
    return carry;
}

void quill_bn_mul_c(quill_limb *r, const quill_limb *a, size_t na, const quill_limb *b,
                    size_t nb) {
    for (size_t i = 0; i < na + nb; i++)
        r[i] = 0;
    for (size_t j = 0; j < nb; j++)
        r[na + j] = quill_bn_mul_add_word_c(r + j, a, na, b[j]);
}

void quill_bn_mul(quill_limb *r, const quill_limb *a, size_t na, const quill_limb *b, size_t nb) {
    quill_bn_mul_c(r, a, na, b, nb);
}
