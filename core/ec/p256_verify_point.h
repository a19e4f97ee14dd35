/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Variable-time point helpers shared by the two verification paths
 * (p256_point_vartime.c: any public key; p256_verify_precomp.c: a public
 * key with a precomputed table).  Internal to core/ec.  Everything here
 * branches on the points and digits, which must be public.
 *
 * Formulas (Explicit-Formulas Database, Bernstein-Lange), a = -3 Jacobian
 * coordinates (X, Y, Z) ~ (X/Z^2, Y/Z^3), Montgomery-domain coordinates:
 *   vt_double      dbl-2001-b as 4M + 4S (the formula of p256_point.c);
 *   vt_madd        madd-2004-hmv, 8M + 3S: fewer additions than
 *                  madd-2007-bl's 7M + 4S, which measured slower here
 *                  (verification 139.0k against 143.3k TSC ticks, 60.6k
 *                  against 64.4k with a precomputed key; Zen 4, gcc 12);
 *   vt_add_cached  add-1998-cmo-2 with the second point's Z^2 and Z^3
 *                  precomputed (Chudnovsky form), 11M + 3S.
 * Both compute U2 and S2 once and only then branch on H = 0 (equal x),
 * where they double or return infinity: complete for public inputs.
 *
 * The loops call them through vt_double_n, vt_madd_x and vt_add_cached_x,
 * which take the x86-64 assembly (p256_adx.h: the same operation
 * sequences, so bit-identical results) when the caller's adx flag is set,
 * and out-of-line C functions otherwise (inlined into the loops, gcc 12
 * spilled the formulas' temporaries).  Callgrind per call, assembly
 * against C: doubling 1075 against 1827 instructions, mixed addition 1385
 * against 2432, cached addition 1748 against 3044; TSC ticks (Zen 4, one
 * process): 240 against 338, 346 against 440, 444 against 562. */
#ifndef QUILL_EC_P256_VERIFY_POINT_H
#define QUILL_EC_P256_VERIFY_POINT_H

#include <stdint.h>

#include "ec/p256_adx.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_point.h"

/* The inlined field operations need the add-with-carry intrinsics; the
 * portable build calls the out-of-line ones (as p256_point.c does). */
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#define vt_mul quill_p256_fe_mul_inline
#define vt_sqr quill_p256_fe_sqr_inline
#define vt_add quill_p256_fe_add_inline
#define vt_sub quill_p256_fe_sub_inline
#define vt_half quill_p256_fe_half_inline
#else
#define vt_mul quill_p256_fe_mul
#define vt_sqr quill_p256_fe_sqr
#define vt_add quill_p256_fe_add
#define vt_sub quill_p256_fe_sub
#define vt_half quill_p256_fe_half
#endif

/* Digits of a width-w NAF of a 256-bit scalar: positions 0..256. */
#define QUILL_P256_WNAF_LEN 257

/* A Jacobian point with Z^2 and Z^3 (for repeated additions of it). */
typedef struct quill_p256_chudnovsky {
    quill_p256_fe x, y, z, zz, zzz;
} quill_p256_chudnovsky;

/* quill_p256_wnaf_vartime writes a width-w NAF of k (2 <= w <= 8):
 * digits[i] is 0 or odd with |digits[i]| < 2^(w-1), any two nonzero digits
 * at least w positions apart, and k = sum digits[i] 2^i; the top nonzero
 * digit is positive and at position <= 256.  Returns the number of
 * positions up to and including the top nonzero digit (0 for k = 0).
 * Variable time in k (p256_point_vartime.c). */
int quill_p256_wnaf_vartime(int8_t digits[QUILL_P256_WNAF_LEN], const quill_p256_scalar_plain *k,
                            int w);

/* quill_p256_batch_to_affine_vartime sets out[i] = in[i] in affine form for
 * n >= 1 finite Jacobian points with one field inversion (Montgomery's
 * trick: 3(n - 1) extra products).  scratch holds n field elements.
 * The inversion is quill_p256_fe_inv (constant time, but nothing here is
 * secret).  Returns 0 (outputs unspecified) if some in[i] is infinity. */
int quill_p256_batch_to_affine_vartime(quill_p256_affine *out, const quill_p256_jacobian *in,
                                       quill_p256_fe *scratch, int n);

QUILL_INLINE void vt_set_infinity(quill_p256_jacobian *r) {
    quill_p256_fe_one(&r->x);
    quill_p256_fe_one(&r->y);
    r->z = (quill_p256_fe){{0, 0, 0, 0}};
}

QUILL_INLINE int vt_is_zero(const quill_p256_fe *a) {
    return (a->v[0] | a->v[1] | a->v[2] | a->v[3]) == 0;
}

/* r = 2a, the doubling of quill_p256_point_double (dbl-2001-b for a = -3
 * rearranged to 4M + 4S, see p256_point.c) inlined into the loops, where
 * the compiler can overlap it with the digit handling around it.  Complete
 * (Z = 0 stays 0; no point of P-256 has Y = 0).  r may alias a. */
QUILL_INLINE void vt_double(quill_p256_jacobian *r, const quill_p256_jacobian *a) {
    quill_p256_fe delta, y2, gamma4, beta4, alpha, t0, t1;
    vt_sqr(&delta, &a->z);
    vt_add(&y2, &a->y, &a->y);
    vt_sqr(&gamma4, &y2);       /* 4 Y^2 */
    vt_mul(&beta4, &a->x, &gamma4); /* 4 X Y^2 */
    vt_sub(&t0, &a->x, &delta);
    vt_add(&t1, &a->x, &delta);
    vt_mul(&alpha, &t0, &t1);
    vt_add(&t0, &alpha, &alpha);
    vt_add(&alpha, &t0, &alpha); /* 3 (X - Z^2)(X + Z^2) */
    vt_mul(&r->z, &y2, &a->z);
    vt_sqr(&t0, &alpha);
    vt_sub(&t0, &t0, &beta4);
    vt_sub(&r->x, &t0, &beta4); /* alpha^2 - 8 X Y^2 */
    vt_sub(&t0, &beta4, &r->x);
    vt_mul(&t0, &alpha, &t0);
    vt_sqr(&t1, &gamma4);
    vt_half(&t1, &t1);          /* 8 Y^4 */
    vt_sub(&r->y, &t0, &t1);
}

/* quill_p256_point_double_n_vartime sets r = 2^n a (n >= 1) by n rounds of
 * vt_double, a function of its own (p256_point_vartime.c): inlined into
 * the loops around it, gcc 12 spilled the doubling's temporaries (~1.5x
 * the instructions).  r may alias a. */
void quill_p256_point_double_n_vartime(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                       int n);

/* r = 2^n a (n >= 1): adx (the caller's quill_p256_adx_capable(), read
 * once per multiplication) selects the assembly twin,
 * quill_p256_point_double_n_adx, bit-identical.  r may alias a. */
QUILL_INLINE void vt_double_n(quill_p256_jacobian *r, const quill_p256_jacobian *a, int n,
                              int adx) {
#ifdef QUILL_P256_HAVE_ADX
    if (adx) {
        quill_p256_point_double_n_adx(r, a, (size_t)n);
        return;
    }
#endif
    (void)adx;
    quill_p256_point_double_n_vartime(r, a, n);
}

/* r = a + b, b affine and finite.  r may alias a. */
QUILL_INLINE void vt_madd(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                          const quill_p256_affine *b) {
    quill_p256_fe t1, t2, t3, t4, z3;
    if (vt_is_zero(&a->z)) {
        quill_p256_point_from_affine(r, b);
        return;
    }
    vt_sqr(&t1, &a->z);      /* Z1^2 */
    vt_mul(&t2, &t1, &a->z); /* Z1^3 */
    vt_mul(&t1, &t1, &b->x); /* U2 */
    vt_mul(&t2, &t2, &b->y); /* S2 */
    vt_sub(&t1, &t1, &a->x); /* H */
    vt_sub(&t2, &t2, &a->y); /* R */
    if (vt_is_zero(&t1)) {
        if (vt_is_zero(&t2))
            quill_p256_point_double(r, a);
        else
            vt_set_infinity(r);
        return;
    }
    vt_mul(&z3, &a->z, &t1); /* Z3 = Z1 H */
    vt_sqr(&t4, &t1);        /* H^2 */
    vt_mul(&t3, &t4, &t1);   /* H^3 */
    vt_mul(&t4, &t4, &a->x); /* V = X1 H^2 */
    vt_sqr(&t1, &t2);        /* R^2 */
    vt_sub(&t1, &t1, &t3);
    vt_sub(&t1, &t1, &t4);
    vt_sub(&t1, &t1, &t4);   /* X3 = R^2 - H^3 - 2V */
    vt_sub(&t4, &t4, &t1);
    vt_mul(&t4, &t4, &t2);   /* R (V - X3) */
    vt_mul(&t3, &t3, &a->y); /* Y1 H^3 */
    vt_sub(&r->y, &t4, &t3);
    r->x = t1;
    r->z = z3;
}

/* r = a + b, b finite in Chudnovsky form.  r may alias a. */
QUILL_INLINE void vt_add_cached(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                const quill_p256_chudnovsky *b) {
    quill_p256_fe z1z1, u1, u2, s1, s2, h, hh, hhh, v, x3, t;
    if (vt_is_zero(&a->z)) {
        r->x = b->x;
        r->y = b->y;
        r->z = b->z;
        return;
    }
    vt_sqr(&z1z1, &a->z);
    vt_mul(&u1, &a->x, &b->zz);
    vt_mul(&u2, &b->x, &z1z1);
    vt_mul(&s1, &a->y, &b->zzz);
    vt_mul(&s2, &z1z1, &a->z);
    vt_mul(&s2, &s2, &b->y);
    vt_sub(&h, &u2, &u1);
    vt_sub(&s2, &s2, &s1); /* R */
    if (vt_is_zero(&h)) {
        if (vt_is_zero(&s2))
            quill_p256_point_double(r, a);
        else
            vt_set_infinity(r);
        return;
    }
    vt_sqr(&hh, &h);
    vt_mul(&hhh, &hh, &h);
    vt_mul(&v, &u1, &hh);
    vt_sqr(&x3, &s2);
    vt_sub(&x3, &x3, &hhh);
    vt_sub(&x3, &x3, &v);
    vt_sub(&x3, &x3, &v);
    vt_sub(&t, &v, &x3);
    vt_mul(&t, &t, &s2);
    vt_mul(&s1, &s1, &hhh);
    vt_sub(&r->y, &t, &s1);
    vt_mul(&t, &a->z, &b->z);
    vt_mul(&r->z, &t, &h);
    r->x = x3;
}

/* quill_p256_point_madd_vartime_c and quill_p256_point_add_cached_vartime_c
 * are vt_madd and vt_add_cached as functions of their own
 * (p256_point_vartime.c): the portable twins of the assembly, and the
 * complete fallback around it. */
void quill_p256_point_madd_vartime_c(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                     const quill_p256_affine *b);
void quill_p256_point_add_cached_vartime_c(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                           const quill_p256_chudnovsky *b);

/* r = a + b as vt_madd, by the assembly when adx (the caller's
 * quill_p256_adx_capable()): a at infinity and H = 0 go to the C twin. */
QUILL_INLINE void vt_madd_x(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                            const quill_p256_affine *b, int adx) {
#ifdef QUILL_P256_HAVE_ADX
    if (adx) {
        if (vt_is_zero(&a->z) || !quill_p256_point_madd_vartime_adx(r, a, b))
            quill_p256_point_madd_vartime_c(r, a, b);
        return;
    }
#endif
    (void)adx;
    quill_p256_point_madd_vartime_c(r, a, b);
}

/* r = a + b as vt_add_cached, by the assembly when adx. */
QUILL_INLINE void vt_add_cached_x(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                  const quill_p256_chudnovsky *b, int adx) {
#ifdef QUILL_P256_HAVE_ADX
    if (adx) {
        if (vt_is_zero(&a->z) || !quill_p256_point_add_cached_vartime_adx(r, a, b))
            quill_p256_point_add_cached_vartime_c(r, a, b);
        return;
    }
#endif
    (void)adx;
    quill_p256_point_add_cached_vartime_c(r, a, b);
}

#endif
