/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  The portable form of sign_row.h and the
 * dispatch to the AVX2 one (sign_row_avx2.c). */
#include "sign_row.h"

#include "hint.h"

/* |v| >= bound as the sign bit of bound - 1 - |v| (|v| = v - 2v for
 * negative v), for ORing into a mask; as quill_mldsa_poly_norm_ge_mask. */
QUILL_INLINE uint32_t ge_bit(int32_t v, int32_t bound) {
    int32_t abs = v - ((v >> 31) & (2 * v));
    return (uint32_t)(bound - 1 - abs);
}

/* The first l rows: v = c s1 + 2^9 c s2 (in *cs2, from one pair product)
 * with |c s1|, |c s2| <= beta < 2^8, so c s1 = ((v + 2^8) mod 2^9) - 2^8
 * and c s2 = (v - c s1) / 2^9 (left in *cs2); z = y + c s1.  Returns all-ones if
 * ||z|| >= bound = gamma1 - beta.  One pass. */
QUILL_INLINE quill_word split_body(quill_mldsa_poly *restrict z, quill_mldsa_poly *restrict cs2,
                                   const quill_mldsa_poly *restrict y, int32_t bound) {
    uint32_t bad = 0;
    for (unsigned j = 0; j < QUILL_MLDSA_N; j++) {
        int32_t v = cs2->c[j], cs1 = ((v + 256) & 511) - 256;
        int32_t zj = y->c[j] + cs1;
        cs2->c[j] = (v - cs1) >> 9;
        z->c[j] = zj;
        bad |= ge_bit(zj, bound);
    }
    return (quill_word)0 - (quill_word)(bad >> 31);
}

/* The checks of one row, in one pass: r0 = w0 - c s2 with
 * ||r0|| < gamma2 - beta, ||c t0|| < gamma2, and the hints from r0 + c t0
 * and w1 (hint.h: the same as FIPS 204's r0 check and MakeHint on
 * r = w - c s2) into h; adds their number to *ones and returns the
 * rejection mask. */
QUILL_INLINE quill_word row_body(quill_mldsa_poly *restrict h, const quill_mldsa_poly *restrict w0,
                                 const quill_mldsa_poly *restrict w1,
                                 const quill_mldsa_poly *restrict cs2,
                                 const quill_mldsa_poly *restrict ct0, int32_t gamma2,
                                 int32_t beta, uint32_t *ones) {
    uint32_t bad = 0, n = 0;
    for (unsigned j = 0; j < QUILL_MLDSA_N; j++) {
        int32_t r0 = w0->c[j] - cs2->c[j];
        bad |= ge_bit(r0, gamma2 - beta) | ge_bit(ct0->c[j], gamma2);
        uint32_t hint = quill_mldsa_hint_low(r0 + ct0->c[j], w1->c[j], gamma2);
        h->c[j] = (int32_t)hint;
        n += hint;
    }
    *ones += n;
    return (quill_word)0 - (quill_word)(bad >> 31);
}

typedef void (*mulc16_fn)(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                          const quill_mldsa_pair16 *s_hat, unsigned shift);

/* c s1 and c s2 (for i >= l the pair is (s2, 0): the shift is then
 * immaterial) from one pair product into ws[0], split from each other
 * with z = y + c s1 (split_body); c t0 recombined from its split into
 * ws[1]; then the checks (row_body). */
QUILL_INLINE quill_word sign_row_body(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                      const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                      const quill_mldsa_params *p, uint32_t *ones,
                                      mulc16_fn mulc16) {
    quill_word bad = 0;
    mulc16(ws[0].c, in->chat, in->s_hat, 9);
    if (in->y != NULL)
        bad |= split_body(z, &ws[0], in->y, p->gamma1 - (int32_t)p->beta);
    mulc16(ws[1].c, in->chat, in->t0_hat, QUILL_MLDSA_T0_SPLIT);
    bad |= row_body(h, in->w0, in->w1, &ws[0], &ws[1], p->gamma2, (int32_t)p->beta, ones);
    return bad;
}

quill_word quill_mldsa_sign_row_c(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                  const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                  const quill_mldsa_params *p, uint32_t *ones) {
    return sign_row_body(z, h, in, ws, p, ones, quill_mldsa_mulc16_c);
}

quill_word quill_mldsa_sign_row(quill_mldsa_poly *z, quill_mldsa_poly *h,
                                const quill_mldsa_sign_row_in *in, quill_mldsa_poly ws[2],
                                const quill_mldsa_params *p, uint32_t *ones) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable())
        return quill_mldsa_sign_row_avx512vl(z, h, in, ws, p, ones);
    if (quill_mldsa_avx2_capable())
        return quill_mldsa_sign_row_avx2(z, h, in, ws, p, ones);
#endif
    /* the NEON products where the CPU has them (ntt16.c) */
    return sign_row_body(z, h, in, ws, p, ones, quill_mldsa_mulc16);
}
