/* Copyright quill authors.  Schoolbook multiplication and squaring. */
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

void quill_bn_sqr_c(quill_limb *r, const quill_limb *a, size_t n) {
    /* a^2 = sum a_i^2 2^(128 i) + 2 sum_{i<j} a_i a_j 2^(64 (i+j)): the cross
     * products once, doubled by a one-bit shift, then the diagonal. */
    for (size_t i = 0; i < 2 * n; i++)
        r[i] = 0;
    for (size_t i = 0; i + 1 < n; i++)
        r[n + i] = quill_bn_mul_add_word_c(r + 2 * i + 1, a + i + 1, n - i - 1, a[i]);
    quill_limb top = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        quill_limb next = r[i] >> 63;
        r[i] = (r[i] << 1) | top;
        top = next;
    }
    quill_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        quill_dlimb sq = (quill_dlimb)a[i] * a[i];
        quill_dlimb lo = (quill_dlimb)r[2 * i] + (quill_limb)sq + carry;
        r[2 * i] = (quill_limb)lo;
        quill_dlimb hi = (quill_dlimb)r[2 * i + 1] + (quill_limb)(sq >> 64) + (quill_limb)(lo >> 64);
        r[2 * i + 1] = (quill_limb)hi;
        carry = (quill_limb)(hi >> 64);
    }
}
