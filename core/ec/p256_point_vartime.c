/* Copyright quill authors.
 *
 * Variable-time double-scalar multiplication u1 * G + u2 * Q for ECDSA
 * verification (see p256_point.h): interleaved width-w NAFs, w = 7 for G
 * (odd multiples 1..63 G from p256_table.h) and w = 5 for Q (odd multiples
 * 1..15 Q computed here), one shared doubling chain.  Everything is public. */
#include "ec/p256_point.h"
#include "ec/p256_table.h"

#define WNAF_LEN 258

/* Width-w NAF of the 256-bit k: digits[i] odd in (-2^(w-1), 2^(w-1)) or 0,
 * k = sum digits[i] 2^i.  Returns the number of digits used. */
static int wnaf_vartime(int8_t digits[WNAF_LEN], const quill_p256_scalar_plain *k, int w) {
    uint64_t t[5] = {k->v[0], k->v[1], k->v[2], k->v[3], 0};
    const int64_t full = (int64_t)1 << w, half = full >> 1;
    int len = 0;
    for (int i = 0; i < WNAF_LEN; i++)
        digits[i] = 0;
    for (int i = 0; i < WNAF_LEN && (t[0] | t[1] | t[2] | t[3] | t[4]) != 0; i++) {
        if (t[0] & 1) {
            int64_t d = (int64_t)(t[0] & (uint64_t)(full - 1));
            if (d >= half)
                d -= full;
            digits[i] = (int8_t)d;
            /* t -= d */
            if (d > 0) {
                uint64_t b = (uint64_t)d;
                for (int j = 0; j < 5 && b; j++) {
                    uint64_t old = t[j];
                    t[j] = old - b;
                    b = old < b;
                }
            } else {
                uint64_t c = (uint64_t)(-d);
                for (int j = 0; j < 5 && c; j++) {
                    t[j] += c;
                    c = t[j] < c;
                }
            }
        }
        for (int j = 0; j < 4; j++)
            t[j] = (t[j] >> 1) | (t[j + 1] << 63);
        t[4] >>= 1;
        len = i + 1;
    }
    return len;
}

void quill_p256_point_mul_double_vartime(quill_p256_jacobian *out,
                                         const quill_p256_scalar_plain *u1,
                                         const quill_p256_scalar_plain *u2,
                                         const quill_p256_affine *q) {
    int8_t d1[WNAF_LEN], d2[WNAF_LEN];
    quill_p256_jacobian qtab[8], q2, acc, neg;
    quill_p256_affine g;
    int len1 = wnaf_vartime(d1, u1, 7);
    int len2 = wnaf_vartime(d2, u2, 5);
    int len = len1 > len2 ? len1 : len2;

    quill_p256_point_from_affine(&qtab[0], q);
    quill_p256_point_double(&q2, &qtab[0]);
    for (int i = 1; i < 8; i++)
        quill_p256_point_add_vartime(&qtab[i], &qtab[i - 1], &q2);

    quill_p256_fe_one(&acc.x);
    quill_p256_fe_one(&acc.y);
    acc.z = (quill_p256_fe){{0, 0, 0, 0}};
    int started = 0;
    for (int i = len - 1; i >= 0; i--) {
        if (started)
            quill_p256_point_double(&acc, &acc);
        if (d1[i] != 0) {
            int d = d1[i];
            g = quill_p256_base_wnaf[(d < 0 ? -d : d) >> 1];
            if (d < 0)
                quill_p256_fe_opp(&g.y, &g.y);
            quill_p256_point_add_mixed_vartime(&acc, &acc, &g);
            started = 1;
        }
        if (d2[i] != 0) {
            int d = d2[i];
            neg = qtab[(d < 0 ? -d : d) >> 1];
            if (d < 0)
                quill_p256_fe_opp(&neg.y, &neg.y);
            quill_p256_point_add_vartime(&acc, &acc, &neg);
            started = 1;
        }
    }
    *out = acc;
}
