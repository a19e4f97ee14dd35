/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time complete addition and variable-base scalar multiplication
 * k * Q (see p256_point.h).  Nothing here branches on or indexes memory by
 * the points or the scalar. */
#include "common/zeroize.h"
#include "ec/p256_point.h"

static void jac_select(quill_p256_jacobian *out, quill_word mask, const quill_p256_jacobian *z,
                       const quill_p256_jacobian *nz) {
    quill_p256_fe_selectznz(&out->x, mask, &z->x, &nz->x);
    quill_p256_fe_selectznz(&out->y, mask, &z->y, &nz->y);
    quill_p256_fe_selectznz(&out->z, mask, &z->z, &nz->z);
}

void quill_p256_point_add_consttime(quill_p256_jacobian *out, const quill_p256_jacobian *a,
                                    const quill_p256_jacobian *b) {
    quill_p256_fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    quill_p256_jacobian sum, dbl, res;
    quill_word a_inf = ~quill_p256_fe_nonzero(&a->z);
    quill_word b_inf = ~quill_p256_fe_nonzero(&b->z);
    /* add-2007-bl */
    quill_p256_fe_sqr(&z1z1, &a->z);
    quill_p256_fe_sqr(&z2z2, &b->z);
    quill_p256_fe_mul(&u1, &a->x, &z2z2);
    quill_p256_fe_mul(&u2, &b->x, &z1z1);
    quill_p256_fe_mul(&s1, &b->z, &z2z2);
    quill_p256_fe_mul(&s1, &a->y, &s1);
    quill_p256_fe_mul(&s2, &a->z, &z1z1);
    quill_p256_fe_mul(&s2, &b->y, &s2);
    quill_p256_fe_sub(&h, &u2, &u1);
    quill_p256_fe_sub(&rr, &s2, &s1);
    /* H = 0 and r = 0 with both finite: a == b, the sum formula fails.
     * (H = 0, r != 0 means a == -b: the formula gives Z3 = 0, infinity.) */
    quill_word same = ~quill_p256_fe_nonzero(&h) & ~quill_p256_fe_nonzero(&rr);
    quill_p256_fe_add(&i, &h, &h);
    quill_p256_fe_sqr(&i, &i);
    quill_p256_fe_mul(&j, &h, &i);
    quill_p256_fe_add(&rr, &rr, &rr);
    quill_p256_fe_mul(&v, &u1, &i);
    quill_p256_fe_sqr(&sum.x, &rr);
    quill_p256_fe_sub(&sum.x, &sum.x, &j);
    quill_p256_fe_sub(&sum.x, &sum.x, &v);
    quill_p256_fe_sub(&sum.x, &sum.x, &v);
    quill_p256_fe_sub(&t, &v, &sum.x);
    quill_p256_fe_mul(&sum.y, &rr, &t);
    quill_p256_fe_mul(&t, &s1, &j);
    quill_p256_fe_add(&t, &t, &t);
    quill_p256_fe_sub(&sum.y, &sum.y, &t);
    quill_p256_fe_add(&sum.z, &a->z, &b->z);
    quill_p256_fe_sqr(&sum.z, &sum.z);
    quill_p256_fe_sub(&sum.z, &sum.z, &z1z1);
    quill_p256_fe_sub(&sum.z, &sum.z, &z2z2);
    quill_p256_fe_mul(&sum.z, &sum.z, &h);
    quill_p256_point_double(&dbl, a);
    jac_select(&res, same, &sum, &dbl);
    jac_select(&res, a_inf, &res, b);
    jac_select(out, b_inf, &res, a);
    quill_zeroize(&z1z1, sizeof(z1z1));
    quill_zeroize(&z2z2, sizeof(z2z2));
    quill_zeroize(&u1, sizeof(u1));
    quill_zeroize(&u2, sizeof(u2));
    quill_zeroize(&s1, sizeof(s1));
    quill_zeroize(&s2, sizeof(s2));
    quill_zeroize(&h, sizeof(h));
    quill_zeroize(&i, sizeof(i));
    quill_zeroize(&j, sizeof(j));
    quill_zeroize(&rr, sizeof(rr));
    quill_zeroize(&v, sizeof(v));
    quill_zeroize(&t, sizeof(t));
    quill_zeroize(&sum, sizeof(sum));
    quill_zeroize(&dbl, sizeof(dbl));
    quill_zeroize(&res, sizeof(res));
}

void quill_p256_point_mul_consttime(quill_p256_jacobian *out, const quill_p256_scalar_plain *k,
                                    const quill_p256_affine *q) {
    quill_p256_jacobian tab[16], acc, t;
    /* tab[d] = d Q; tab[0] is infinity.  Q is public, but the table is
     * built with the complete constant-time addition anyway. */
    quill_p256_fe_one(&tab[0].x);
    quill_p256_fe_one(&tab[0].y);
    tab[0].z = (quill_p256_fe){{0, 0, 0, 0}};
    quill_p256_point_from_affine(&tab[1], q);
    for (int d = 2; d < 16; d++)
        quill_p256_point_add_consttime(&tab[d], &tab[d - 1], &tab[1]);
    acc = tab[0];
    for (int i = 63; i >= 0; i--) {
        quill_word d = (k->v[i / 16] >> (4 * (i % 16))) & 15;
        for (int n = 0; n < 4; n++)
            quill_p256_point_double(&acc, &acc);
        t = tab[0];
        for (unsigned e = 1; e < 16; e++)
            jac_select(&t, quill_ct_eq_mask(d, e), &t, &tab[e]);
        quill_p256_point_add_consttime(&acc, &acc, &t);
    }
    *out = acc;
    quill_zeroize(tab, sizeof(tab));
    quill_zeroize(&acc, sizeof(acc));
    quill_zeroize(&t, sizeof(t));
}
