/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Per-key tables and the 64-doubling double-scalar multiplication of
 * verification with a known key (see p256_verify_precomp.h). */
#include "ec/p256_verify_precomp.h"

#include <stdlib.h>

#include "common/alloc.h"
#include "ec/p256_verify_point.h"
#include "ec/p256_table.h"

#define QODD QUILL_P256_VERIFY_Q_ODD
#define NPOINTS (4 * QODD)

quill_p256_verify_precomp *quill_p256_verify_precomp_new_vartime(const quill_p256_affine *q) {
    quill_p256_verify_precomp *p = quill_malloc(sizeof(*p));
    quill_p256_jacobian jac[NPOINTS], base, acc;
    quill_p256_chudnovsky twice;
    quill_p256_fe scratch[NPOINTS];
    if (p == NULL)
        return NULL;
    const int adx = quill_p256_adx_capable();
    p->q = *q;
    quill_p256_point_from_affine(&base, q);
    for (int j = 0; j < 4; j++) {
        /* base = 2^(64 j) Q; jac[QODD j + k] = (2k + 1) base.  No sum here
         * is a doubling or infinity: (2k + 1) 2^(64 j) and 2^(64 j + 1) are
         * distinct and nonzero mod the prime n. */
        quill_p256_point_double(&acc, &base);
        twice.x = acc.x;
        twice.y = acc.y;
        twice.z = acc.z;
        vt_sqr(&twice.zz, &acc.z);
        vt_mul(&twice.zzz, &twice.zz, &acc.z);
        jac[QODD * j] = base;
        for (int k = 1; k < QODD; k++)
            vt_add_cached_x(&jac[QODD * j + k], &jac[QODD * j + k - 1], &twice, adx);
        if (j < 3)
            vt_double_n(&base, &base, 64, adx);
    }
    if (!quill_p256_batch_to_affine_vartime(&p->t[0][0], jac, scratch, NPOINTS)) {
        quill_free(p); /* unreachable for a point of order n */
        return NULL;
    }
    return p;
}

void quill_p256_verify_precomp_free(quill_p256_verify_precomp *p) {
    quill_free(p);
}

/* acc += d * t[|d| >> 1] for an odd digit d (negating y for d < 0). */
QUILL_INLINE void add_digit(quill_p256_jacobian *acc, const quill_p256_affine *t, int d,
                            int adx) {
    if (d > 0) {
        vt_madd_x(acc, acc, &t[d >> 1], adx);
    } else {
        quill_p256_affine neg = t[(-d) >> 1];
        quill_p256_fe_opp(&neg.y, &neg.y);
        vt_madd_x(acc, acc, &neg, adx);
    }
}

/* Whether some slice has a digit of u1 or u2 at offset k (0 <= k <= 64;
 * only slice 3 has offset 64). */
QUILL_INLINE int any_digit(const int8_t *d1, const int8_t *d2, int k) {
    for (int j = (k == 64 ? 3 : 0); j < 4; j++)
        if ((d1[64 * j + k] | d2[64 * j + k]) != 0)
            return 1;
    return 0;
}

void quill_p256_point_mul_double_precomp_vartime(quill_p256_jacobian *out,
                                                 const quill_p256_scalar_plain *u1,
                                                 const quill_p256_scalar_plain *u2,
                                                 const quill_p256_verify_precomp *pre) {
    int8_t d1[QUILL_P256_WNAF_LEN], d2[QUILL_P256_WNAF_LEN];
    quill_p256_jacobian acc;
    (void)quill_p256_wnaf_vartime(d1, u1, QUILL_P256_BASE_WNAF_WIDTH);
    (void)quill_p256_wnaf_vartime(d2, u2, QUILL_P256_VERIFY_Q_WIDTH);
    const int adx = quill_p256_adx_capable();
    vt_set_infinity(&acc);
    /* Digit position i = 64 j + k goes to slice j = min(i / 64, 3): slice 3
     * also takes position 256 (k = 64), the carry out of a NAF of a 256-bit
     * scalar.  After the additions for k, acc holds the slices' partial sums
     * at 2^k, so the remaining k doublings finish them; each run of
     * doublings up to the next k with a digit is one call. */
    int k = 64;
    while (k >= 0 && !any_digit(d1, d2, k))
        k--;
    while (k >= 0) {
        for (int j = (k == 64 ? 3 : 0); j < 4; j++) {
            const int i = 64 * j + k;
            if (d1[i] != 0)
                add_digit(&acc, quill_p256_base_wnaf[j], d1[i], adx);
            if (d2[i] != 0)
                add_digit(&acc, pre->t[j], d2[i], adx);
        }
        int next = k - 1;
        while (next >= 0 && !any_digit(d1, d2, next))
            next--;
        const int steps = next >= 0 ? k - next : k;
        if (steps > 0)
            vt_double_n(&acc, &acc, steps, adx);
        k = next;
    }
    *out = acc;
}
