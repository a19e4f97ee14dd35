/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 point formulas in Jacobian coordinates (see p256_point.h).  The
 * formulas are from the Explicit-Formulas Database (Bernstein-Lange):
 * dbl-2001-b for a = -3, madd-2007-bl and add-2007-bl. */
#include "ec/p256_point.h"

#include <stddef.h>

#include "common/zeroize.h"
#include "ec/p256_adx.h"
#include "ec/p256_arm64.h"
#include "ec/p256_fe_inline.h"

/* The assembly addresses the coordinates as consecutive four-word arrays. */
_Static_assert(sizeof(quill_p256_fe) == 32, "fe layout");
_Static_assert(offsetof(quill_p256_jacobian, y) == 32 && offsetof(quill_p256_jacobian, z) == 64 &&
                   sizeof(quill_p256_jacobian) == 96,
               "jacobian layout");
_Static_assert(offsetof(quill_p256_affine, y) == 32 && sizeof(quill_p256_affine) == 64,
               "affine layout");

/* The point formulas inline the field operations where the carry chains
 * use the x86-64 add-with-carry intrinsics (p256_limbs.h); with the
 * portable 128-bit form gcc 12 spills heavily once several operations are
 * inlined together (doubling 1.7x slower), so that build calls them. */
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#define fe_mul quill_p256_fe_mul_inline
#define fe_sqr quill_p256_fe_sqr_inline
#define fe_add quill_p256_fe_add_inline
#define fe_sub quill_p256_fe_sub_inline
#define fe_half quill_p256_fe_half_inline
#else
#define fe_mul quill_p256_fe_mul
#define fe_sqr quill_p256_fe_sqr
#define fe_add quill_p256_fe_add
#define fe_sub quill_p256_fe_sub
#define fe_half quill_p256_fe_half
#endif

/* b * R mod p, the curve coefficient in the Montgomery domain; b is
 * 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b. */
static const quill_p256_fe curve_b = {{UINT64_C(0xd89cdf6229c4bddf), UINT64_C(0xacf005cd78843090),
                                       UINT64_C(0xe5a220abf7212ed6), UINT64_C(0xdc30061d04874834)}};

void quill_p256_generator(quill_p256_affine *out) {
    static const uint8_t gx[32] = {0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
                                   0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb,
                                   0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96};
    static const uint8_t gy[32] = {0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb,
                                   0x4a, 0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31,
                                   0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5};
    quill_p256_fe_plain t;
    (void)quill_p256_fe_plain_from_bytes(&t, gx);
    quill_p256_fe_to_mont(&out->x, &t);
    (void)quill_p256_fe_plain_from_bytes(&t, gy);
    quill_p256_fe_to_mont(&out->y, &t);
}

void quill_p256_point_double(quill_p256_jacobian *out, const quill_p256_jacobian *a) {
    /* With Y2 = 2Y: gamma4 = Y2^2 = 4 gamma, beta4 = X gamma4 = 4 beta,
     * Z3 = Y2 Z = (Y + Z)^2 - gamma - delta, and 8 gamma^2 = gamma4^2 / 2;
     * 4M + 4S and 9 additions instead of 3M + 5S and 14. */
    quill_p256_fe delta, y2, gamma4, beta4, alpha, t0, t1;
    fe_sqr(&delta, &a->z);
    fe_add(&y2, &a->y, &a->y);
    fe_sqr(&gamma4, &y2);
    fe_mul(&beta4, &a->x, &gamma4);
    fe_sub(&t0, &a->x, &delta);
    fe_add(&t1, &a->x, &delta);
    fe_mul(&alpha, &t0, &t1);
    fe_add(&t0, &alpha, &alpha);
    fe_add(&alpha, &t0, &alpha); /* 3 (X - delta)(X + delta) */
    fe_mul(&out->z, &y2, &a->z); /* Z3 before X, Y may be overwritten */
    /* X3 = alpha^2 - 2 beta4 */
    fe_sqr(&t0, &alpha);
    fe_sub(&t0, &t0, &beta4);
    fe_sub(&out->x, &t0, &beta4);
    /* Y3 = alpha (beta4 - X3) - gamma4^2 / 2 */
    fe_sub(&t0, &beta4, &out->x);
    fe_mul(&t0, &alpha, &t0);
    fe_sqr(&t1, &gamma4);
    fe_half(&t1, &t1);
    fe_sub(&out->y, &t0, &t1);
}

/* The temporaries of madd-2007-bl are a quill_p256_madd_scratch
 * (p256_point.h), so that the constant-time callers zeroise them once and
 * the variable-time caller not at all. */
typedef quill_p256_madd_scratch madd_tmp;

/* madd-2007-bl without case handling; r is written only at the end so that
 * out may alias a.  w never aliases the points: restrict lets the compiler
 * keep the temporaries in registers between their stores (about 3% of a
 * fixed-base multiplication with gcc 12). */
static void point_add_mixed_raw(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                const quill_p256_affine *b, madd_tmp *restrict w) {
    fe_sqr(&w->z1z1, &a->z);
    fe_mul(&w->u2, &b->x, &w->z1z1);
    fe_mul(&w->s2, &a->z, &w->z1z1);
    fe_mul(&w->s2, &b->y, &w->s2);
    fe_sub(&w->h, &w->u2, &a->x);
    fe_sqr(&w->hh, &w->h);
    fe_add(&w->i, &w->hh, &w->hh);
    fe_add(&w->i, &w->i, &w->i);
    fe_mul(&w->j, &w->h, &w->i);
    fe_sub(&w->rr, &w->s2, &a->y);
    fe_add(&w->rr, &w->rr, &w->rr);
    fe_mul(&w->v, &a->x, &w->i);
    fe_sqr(&w->x3, &w->rr);
    fe_sub(&w->x3, &w->x3, &w->j);
    fe_sub(&w->x3, &w->x3, &w->v);
    fe_sub(&w->x3, &w->x3, &w->v);
    fe_sub(&w->t, &w->v, &w->x3);
    fe_mul(&w->y3, &w->rr, &w->t);
    fe_mul(&w->t, &a->y, &w->j);
    fe_add(&w->t, &w->t, &w->t);
    fe_sub(&w->y3, &w->y3, &w->t);
    fe_add(&w->z3, &a->z, &w->h);
    fe_sqr(&w->z3, &w->z3);
    fe_sub(&w->z3, &w->z3, &w->z1z1);
    fe_sub(&w->z3, &w->z3, &w->hh);
    r->x = w->x3;
    r->y = w->y3;
    r->z = w->z3;
}

void quill_p256_point_add_mixed_raw_c(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                      const quill_p256_affine *b, quill_p256_madd_scratch *w) {
    point_add_mixed_raw(out, a, b, w);
}

/* The case handling of the constant-time mixed addition around the raw
 * sum w->sum of a and b: a at infinity (a_is_inf, computed before the sum,
 * since out may alias a) gives b = (x, y, 1); b_is_inf gives a.  Word by
 * word (out may alias a: word i of out depends on word i of a only). */
QUILL_INLINE void add_mixed_cases(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                  const quill_p256_affine *b, quill_word a_is_inf,
                                  quill_word b_is_inf, const quill_p256_madd_scratch *w) {
    /* 1 in the Montgomery domain: R mod p = 2^256 - p. */
    static const uint64_t one[4] = {1, UINT64_C(0xffffffff00000000), UINT64_MAX,
                                    UINT64_C(0x00000000fffffffe)};
    for (int i = 0; i < 4; i++) {
        const quill_word x = quill_ct_select_w(a_is_inf, b->x.v[i], w->sum.x.v[i]);
        const quill_word y = quill_ct_select_w(a_is_inf, b->y.v[i], w->sum.y.v[i]);
        const quill_word z = quill_ct_select_w(a_is_inf, one[i], w->sum.z.v[i]);
        out->x.v[i] = quill_ct_select_w(b_is_inf, a->x.v[i], x);
        out->y.v[i] = quill_ct_select_w(b_is_inf, a->y.v[i], y);
        out->z.v[i] = quill_ct_select_w(b_is_inf, a->z.v[i], z);
    }
}

/* ~0 if Z = 0 (a at infinity; coordinates fully reduced), else 0. */
QUILL_INLINE quill_word jac_is_inf(const quill_p256_jacobian *a) {
    return quill_ct_is_zero_mask(a->z.v[0] | a->z.v[1] | a->z.v[2] | a->z.v[3]);
}

void quill_p256_point_add_mixed_scratch(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                        const quill_p256_affine *b, quill_word b_is_inf,
                                        quill_p256_madd_scratch *w) {
    quill_word a_is_inf = jac_is_inf(a);
#if defined(QUILL_P256_HAVE_ADX)
    if (quill_p256_adx_capable())
        quill_p256_point_add_mixed_adx(&w->sum, a, b);
    else
#elif defined(QUILL_P256_HAVE_ARM64)
    if (quill_p256_arm64_capable())
        quill_p256_point_add_mixed_arm64(&w->sum, a, b);
    else
#endif
        point_add_mixed_raw(&w->sum, a, b, w);
    add_mixed_cases(out, a, b, a_is_inf, b_is_inf, w);
}

#if defined(QUILL_P256_HAVE_ADX)
void quill_p256_point_add_mixed_gather_scratch(quill_p256_jacobian *out,
                                               const quill_p256_jacobian *a,
                                               const quill_p256_affine *b, quill_word b_is_inf,
                                               quill_p256_madd_scratch *w, uint64_t gxy[8],
                                               const quill_p256_affine *row, quill_word abs) {
    quill_word a_is_inf = jac_is_inf(a);
    quill_p256_point_add_mixed_gather_adx(&w->sum, a, b, gxy, row, abs);
    add_mixed_cases(out, a, b, a_is_inf, b_is_inf, w);
}
#endif

void quill_p256_point_add_mixed(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                const quill_p256_affine *b, quill_word b_is_inf) {
    quill_p256_madd_scratch w;
    quill_p256_point_add_mixed_scratch(out, a, b, b_is_inf, &w);
    quill_zeroize(&w, sizeof(w));
}

void quill_p256_point_add_vartime(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                  const quill_p256_jacobian *b) {
    if (!quill_p256_fe_nonzero(&a->z)) {
        *out = *b;
        return;
    }
    if (!quill_p256_fe_nonzero(&b->z)) {
        *out = *a;
        return;
    }
    quill_p256_fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t, x3, y3, z3;
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s1, &b->z, &z2z2);
    fe_mul(&s1, &a->y, &s1);
    fe_mul(&s2, &a->z, &z1z1);
    fe_mul(&s2, &b->y, &s2);
    fe_sub(&h, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    if (!quill_p256_fe_nonzero(&h)) {
        if (!quill_p256_fe_nonzero(&rr)) {
            quill_p256_point_double(out, a);
        } else {
            quill_p256_fe_one(&out->x);
            quill_p256_fe_one(&out->y);
            out->z = (quill_p256_fe){{0, 0, 0, 0}};
        }
        return;
    }
    fe_add(&i, &h, &h);
    fe_sqr(&i, &i);
    fe_mul(&j, &h, &i);
    fe_add(&rr, &rr, &rr);
    fe_mul(&v, &u1, &i);
    fe_sqr(&x3, &rr);
    fe_sub(&x3, &x3, &j);
    fe_sub(&x3, &x3, &v);
    fe_sub(&x3, &x3, &v);
    fe_sub(&t, &v, &x3);
    fe_mul(&y3, &rr, &t);
    fe_mul(&t, &s1, &j);
    fe_add(&t, &t, &t);
    fe_sub(&y3, &y3, &t);
    fe_add(&z3, &a->z, &b->z);
    fe_sqr(&z3, &z3);
    fe_sub(&z3, &z3, &z1z1);
    fe_sub(&z3, &z3, &z2z2);
    fe_mul(&z3, &z3, &h);
    out->x = x3;
    out->y = y3;
    out->z = z3;
}

quill_word quill_p256_point_to_affine(quill_p256_affine *out, const quill_p256_jacobian *a) {
    quill_p256_fe zi, zi2, zi3;
    quill_word inf = ~quill_p256_fe_nonzero(&a->z);
    quill_p256_fe_inv(&zi, &a->z); /* 0 for infinity, so out becomes (0, 0) */
    fe_sqr(&zi2, &zi);
    fe_mul(&zi3, &zi2, &zi);
    fe_mul(&out->x, &a->x, &zi2);
    fe_mul(&out->y, &a->y, &zi3);
    quill_zeroize(&zi, sizeof(zi));
    quill_zeroize(&zi2, sizeof(zi2));
    quill_zeroize(&zi3, sizeof(zi3));
    return inf;
}

void quill_p256_point_from_affine(quill_p256_jacobian *out, const quill_p256_affine *a) {
    out->x = a->x;
    out->y = a->y;
    quill_p256_fe_one(&out->z);
}

quill_word quill_p256_affine_on_curve(const quill_p256_affine *a) {
    quill_p256_fe lhs, rhs, t;
    fe_sqr(&lhs, &a->y);
    fe_sqr(&rhs, &a->x);
    fe_mul(&rhs, &rhs, &a->x); /* x^3 */
    fe_add(&t, &a->x, &a->x);
    fe_add(&t, &t, &a->x); /* 3x */
    fe_sub(&rhs, &rhs, &t);
    fe_add(&rhs, &rhs, &curve_b);
    return quill_p256_fe_equal(&lhs, &rhs);
}
