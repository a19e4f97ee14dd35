/* Copyright quill authors.
 *
 * Constant-time fixed-base multiplication k * G (see p256_point.h).
 *
 * k = sum_{i<64} d_i 16^i with 4-bit digits d_i, so k * G is the sum of the
 * 64 table entries T[i][d_i] = d_i 16^i G (T[i][0] is infinity): 64 mixed
 * additions and no doublings.  Each entry is read by scanning all 15 points
 * of its row with masks.
 *
 * Why the incomplete mixed addition is safe: before step i the accumulator
 * holds a G with 0 <= a < 16^i; the addend is t G with t = d_i 16^i, so
 * 0 < a < t < n whenever both are nonzero (15 * 16^63 < n), hence a != t.
 * a == -t mod n would need a + t = n, i.e. k = n, excluded by k < n.
 * Infinity of either operand is handled in constant time by the addition. */
#include "common/zeroize.h"
#include "ec/p256_point.h"
#include "ec/p256_table.h"

/* Sets out = row[d - 1] for d in 1..15 and (0, 0) for d = 0, reading all 15
 * entries and combining them with masks (no address depends on d).  The
 * eight words of an entry are gathered in one inlined loop, which the
 * compiler turns into vector AND/OR over the 960-byte row. */
QUILL_INLINE void comb_row_select(quill_p256_affine *out, const quill_p256_affine row[15],
                                  quill_word d) {
    uint64_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (unsigned j = 0; j < 15; j++) {
        const uint64_t m = quill_ct_eq_mask(d, j + 1);
        for (int w = 0; w < 4; w++) {
            acc[w] |= row[j].x.v[w] & m;
            acc[4 + w] |= row[j].y.v[w] & m;
        }
    }
    for (int w = 0; w < 4; w++) {
        out->x.v[w] = acc[w];
        out->y.v[w] = acc[4 + w];
    }
    quill_zeroize(acc, sizeof(acc));
}

void quill_p256_point_mul_base(quill_p256_jacobian *out, const quill_p256_scalar_plain *k) {
    quill_p256_jacobian acc;
    quill_p256_affine t;
    quill_p256_madd_scratch w;
    quill_p256_fe_one(&acc.x);
    quill_p256_fe_one(&acc.y);
    acc.z = (quill_p256_fe){{0, 0, 0, 0}};
    for (int i = 0; i < 64; i++) {
        quill_word d = (k->v[i / 16] >> (4 * (i % 16))) & 15;
        comb_row_select(&t, quill_p256_base_comb[i], d);
        quill_p256_point_add_mixed_scratch(&acc, &acc, &t, quill_ct_is_zero_mask(d), &w);
    }
    *out = acc;
    quill_zeroize(&acc, sizeof(acc));
    quill_zeroize(&t, sizeof(t));
    quill_zeroize(&w, sizeof(w));
}
