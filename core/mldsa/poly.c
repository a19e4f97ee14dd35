/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Coefficient-wise polynomial operations. */
#include "poly.h"

#include "clone.h"
#include "ntt.h"
#include "reduce.h"

QUILL_INLINE void add_body(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                           const quill_mldsa_poly *b) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        r->c[i] = a->c[i] + b->c[i];
}
QUILL_MLDSA_CLONE(void, add, (quill_mldsa_poly * r, const quill_mldsa_poly *a, const quill_mldsa_poly *b),
                  (r, a, b))

void quill_mldsa_poly_add(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                          const quill_mldsa_poly *b) {
    QUILL_MLDSA_PICK(add)(r, a, b);
}

QUILL_INLINE void sub_body(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                           const quill_mldsa_poly *b) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        r->c[i] = a->c[i] - b->c[i];
}
QUILL_MLDSA_CLONE(void, sub, (quill_mldsa_poly * r, const quill_mldsa_poly *a, const quill_mldsa_poly *b),
                  (r, a, b))

void quill_mldsa_poly_sub(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                          const quill_mldsa_poly *b) {
    QUILL_MLDSA_PICK(sub)(r, a, b);
}

void quill_mldsa_poly_shiftl(quill_mldsa_poly *a) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        a->c[i] = (int32_t)((uint32_t)a->c[i] << QUILL_MLDSA_D);
}

QUILL_INLINE void reduce32_body(quill_mldsa_poly *a) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        a->c[i] = quill_mldsa_reduce32(a->c[i]);
}
QUILL_MLDSA_CLONE(void, reduce32, (quill_mldsa_poly * a), (a))

void quill_mldsa_poly_reduce32(quill_mldsa_poly *a) {
    QUILL_MLDSA_PICK(reduce32)(a);
}

QUILL_INLINE void freeze_body(quill_mldsa_poly *a) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        a->c[i] = quill_mldsa_freeze(a->c[i]);
}
QUILL_MLDSA_CLONE(void, freeze, (quill_mldsa_poly * a), (a))

void quill_mldsa_poly_freeze(quill_mldsa_poly *a) {
    QUILL_MLDSA_PICK(freeze)(a);
}

void quill_mldsa_poly_centre(quill_mldsa_poly *a) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        a->c[i] = quill_mldsa_centre(a->c[i]);
}

void quill_mldsa_poly_ntt(quill_mldsa_poly *a) {
    quill_mldsa_ntt(a->c);
}

void quill_mldsa_poly_invntt_tomont(quill_mldsa_poly *a) {
    quill_mldsa_invntt_tomont(a->c);
}

void quill_mldsa_poly_pointwise_mont(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                                     const quill_mldsa_poly *b) {
    quill_mldsa_pointwise_mont(r->c, a->c, b->c);
}

void quill_mldsa_poly_matvec_mont(quill_mldsa_poly *r, const quill_mldsa_poly *a,
                                  const quill_mldsa_poly *b, unsigned n) {
    /* Consecutive polynomials are consecutive arrays of N coefficients. */
    _Static_assert(sizeof(quill_mldsa_poly) == QUILL_MLDSA_N * sizeof(int32_t), "poly layout");
    quill_mldsa_dot_mont(r->c, a[0].c, b[0].c, n);
}

/* |a| = a - 2a for negative a (sign mask selects the 2a), then bound - 1 -
 * |a| is negative exactly when |a| >= bound: its sign bits are ORed. */
QUILL_INLINE quill_word norm_ge_body(const quill_mldsa_poly *a, int32_t bound) {
    uint32_t bad = 0;
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        int32_t v = a->c[i];
        int32_t abs = v - ((v >> 31) & (2 * v));
        bad |= (uint32_t)(bound - 1 - abs);
    }
    return (quill_word)0 - (quill_word)(bad >> 31);
}
QUILL_MLDSA_CLONE(quill_word, norm_ge, (const quill_mldsa_poly *a, int32_t bound), (a, bound))

quill_word quill_mldsa_poly_norm_ge_mask(const quill_mldsa_poly *a, int32_t bound) {
    return QUILL_MLDSA_PICK(norm_ge)(a, bound);
}

/* The public check runs the vectorised mask too: an early exit per
 * coefficient cost more than the whole loop (about a tenth of a
 * verification's time). */
int quill_mldsa_poly_norm_ge_public(const quill_mldsa_poly *a, int32_t bound) {
    return QUILL_MLDSA_PICK(norm_ge)(a, bound) != 0;
}
