/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Variable-time double-scalar multiplication u1 * G + u2 * Q for ECDSA
 * verification with any public key (see p256_point.h): interleaved
 * width-w NAFs, w = 7 for G (odd multiples 1..63 G from p256_table.h) and
 * w = QW for Q (odd multiples computed here), one shared chain of 256
 * doublings.  Everything is public.
 *
 * The doublings are two thirds of the work.  For Q the table is kept in
 * Chudnovsky form (Z^2 and Z^3 stored: 2S fewer per addition than
 * add-2007-bl): converting it to affine with one batched inversion
 * (Montgomery's trick) so that Q's additions become mixed costs more
 * (~6000 ticks for the inversion, 3M per entry) than the ~100 ticks it
 * saves on each of the ~43 additions: 143.0k against 139.0k TSC ticks per
 * verification (Zen 4, gcc 12).  Before this file used the Chudnovsky
 * table, madd-2004-hmv and an inlined doubling: 153.0k.
 *
 * With BMI2 and ADX the doublings and additions run in assembly
 * (p256_adx.h; the C formulas are the twins, so both paths give the same
 * Jacobian result).  Per verification then (callgrind, 32 keys): 257
 * doublings (256 + 2Q) ~276k instructions, ~37 mixed additions ~51k, ~45
 * cached additions (7 for the table) ~79k, the rest ~14k; field
 * operations 1827 M + 1282 S, as in C.  The affine Q table still does not
 * pay: the cached additions cost ~360 instructions more than mixed ones
 * (~15k over 43 digits), the inversion (divsteps, ~12k) plus Montgomery's
 * trick and the conversion (~53 M/S, ~6k) as much or more. */
#include <stddef.h>

#include "ec/p256_adx.h"
#include "ec/p256_point.h"
#include "ec/p256_table.h"
#include "ec/p256_verify_point.h"

/* p256_add_vartime_adx.S reads a Chudnovsky point as five consecutive
 * four-word coordinates (the Jacobian and affine layouts are asserted in
 * p256_point.c). */
_Static_assert(offsetof(quill_p256_chudnovsky, y) == 32 &&
                   offsetof(quill_p256_chudnovsky, z) == 64 &&
                   offsetof(quill_p256_chudnovsky, zz) == 96 &&
                   offsetof(quill_p256_chudnovsky, zzz) == 128 &&
                   sizeof(quill_p256_chudnovsky) == 160,
               "chudnovsky layout");

/* wNAF width for Q: 5 (8 odd multiples).  6 needs 8 more table additions
 * to save ~6 in the main loop, 4 saves 4 table additions for ~8 more. */
#define QW 5
#define QODD (1 << (QW - 2))

/* Not inlined into the multiplication below: gcc 12 then allocated the
 * main loop's registers worse (1.6k more instructions per verification
 * than the ~0.7k the faster recoding saves). */
QUILL_NOINLINE int quill_p256_wnaf_vartime(int8_t digits[QUILL_P256_WNAF_LEN],
                                           const quill_p256_scalar_plain *k, int w) {
    /* Left to right over the bits with a carry: at a position where bit +
     * carry is odd, the w-bit window there plus the carry is odd; taken as a
     * signed digit in (-2^(w-1), 2^(w-1)) it leaves a carry of 1 into
     * position i + w when negative.  A negative digit needs bit i + w - 1
     * set, so carries stop at position 256 (k < 2^256). */
    const uint64_t limbs[5] = {k->v[0], k->v[1], k->v[2], k->v[3], 0};
    const unsigned full = 1u << w, half = full >> 1;
    unsigned carry = 0;
    int len = 0;
    for (int i = 0; i < QUILL_P256_WNAF_LEN; i++)
        digits[i] = 0;
    for (int i = 0; i < QUILL_P256_WNAF_LEN;) {
        const int word = i >> 6, sh = i & 63;
        /* Bits equal to the carry give zero digits and keep the carry:
         * jump to the next bit that differs (or past this word). */
        const uint64_t differ = (limbs[word] ^ ((uint64_t)0 - carry)) >> sh;
        if (differ == 0) {
            i = 64 * (word + 1);
            continue;
        }
        if ((differ & 1) == 0) {
            i += __builtin_ctzll(differ);
            continue;
        }
        uint64_t bits = limbs[word] >> sh;
        if (sh + w > 64 && word < 4)
            bits |= limbs[word + 1] << (64 - sh);
        unsigned window = ((unsigned)bits & (full - 1)) + carry;
        int d;
        if (window >= half) {
            d = (int)window - (int)full;
            carry = 1;
        } else {
            d = (int)window;
            carry = 0;
        }
        digits[i] = (int8_t)d;
        len = i + 1;
        i += w;
    }
    return len;
}

int quill_p256_batch_to_affine_vartime(quill_p256_affine *out, const quill_p256_jacobian *in,
                                       quill_p256_fe *scratch, int n) {
    quill_p256_fe inv, zi, zi2, t;
    /* scratch[i] = Z_0 ... Z_i; inv = (Z_0 ... Z_{n-1})^-1; then walking
     * back, Z_i^-1 = inv * scratch[i - 1] and inv *= Z_i. */
    scratch[0] = in[0].z;
    for (int i = 1; i < n; i++)
        vt_mul(&scratch[i], &scratch[i - 1], &in[i].z);
    if (vt_is_zero(&scratch[n - 1]))
        return 0;
    quill_p256_fe_inv(&inv, &scratch[n - 1]);
    for (int i = n - 1; i >= 0; i--) {
        if (i > 0) {
            vt_mul(&zi, &inv, &scratch[i - 1]);
            vt_mul(&inv, &inv, &in[i].z);
        } else {
            zi = inv;
        }
        vt_sqr(&zi2, &zi);
        vt_mul(&out[i].x, &in[i].x, &zi2);
        vt_mul(&t, &zi2, &zi);
        vt_mul(&out[i].y, &in[i].y, &t);
    }
    return 1;
}

void quill_p256_point_double_n_vartime(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                       int n) {
    vt_double(r, a);
    for (int i = 1; i < n; i++)
        vt_double(r, r);
}

void quill_p256_point_madd_vartime_c(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                     const quill_p256_affine *b) {
    vt_madd(r, a, b);
}

void quill_p256_point_add_cached_vartime_c(quill_p256_jacobian *r, const quill_p256_jacobian *a,
                                           const quill_p256_chudnovsky *b) {
    vt_add_cached(r, a, b);
}

/* tab[0][i] = (2i + 1) Q and tab[1][i] = -(2i + 1) Q in Chudnovsky form,
 * i < QODD. */
static void q_table(quill_p256_chudnovsky tab[2][QODD], const quill_p256_affine *q, int adx) {
    quill_p256_jacobian acc, twice;
    quill_p256_point_from_affine(&acc, q);
    vt_double_n(&twice, &acc, 1, adx);
    quill_p256_fe_one(&tab[0][0].z);
    tab[0][0].x = q->x;
    tab[0][0].y = q->y;
    tab[0][0].zz = tab[0][0].z;
    tab[0][0].zzz = tab[0][0].z;
    for (int i = 1; i < QODD; i++) {
        /* (2i + 1) Q != +-2Q for 2i + 1 < n: never a doubling or infinity */
        vt_add_cached_x(&acc, &twice, &tab[0][i - 1], adx);
        tab[0][i].x = acc.x;
        tab[0][i].y = acc.y;
        tab[0][i].z = acc.z;
#ifdef QUILL_P256_HAVE_ADX
        if (adx) {
            quill_p256_fe_sqr_adx(tab[0][i].zz.v, acc.z.v);
            quill_p256_fe_mul_adx(tab[0][i].zzz.v, tab[0][i].zz.v, acc.z.v);
            continue;
        }
#endif
        vt_sqr(&tab[0][i].zz, &acc.z);
        vt_mul(&tab[0][i].zzz, &tab[0][i].zz, &acc.z);
    }
    for (int i = 0; i < QODD; i++) {
        tab[1][i] = tab[0][i];
        quill_p256_fe_opp(&tab[1][i].y, &tab[0][i].y);
    }
}

void quill_p256_point_mul_double_vartime(quill_p256_jacobian *out,
                                         const quill_p256_scalar_plain *u1,
                                         const quill_p256_scalar_plain *u2,
                                         const quill_p256_affine *q) {
    int8_t d1[QUILL_P256_WNAF_LEN], d2[QUILL_P256_WNAF_LEN];
    quill_p256_chudnovsky qtab[2][QODD];
    quill_p256_jacobian acc;
    quill_p256_affine g, qa[2];
    int len1 = quill_p256_wnaf_vartime(d1, u1, QUILL_P256_BASE_WNAF_WIDTH);
    int len2 = quill_p256_wnaf_vartime(d2, u2, QW);
    int len = len1 > len2 ? len1 : len2;

    const int adx = quill_p256_adx_capable();
    if (len2 > 0) {
        q_table(qtab, q, adx);
        qa[0] = *q;
        qa[1].x = q->x;
        qa[1].y = qtab[1][0].y;
    }
    vt_set_infinity(&acc);
    /* From the top digit (position len - 1, nonzero) down: the digits at
     * position i, then the run of doublings to the next nonzero position
     * (or to position 0) in one call. */
    for (int i = len - 1; i >= 0;) {
        if (d1[i] != 0) {
            int d = d1[i];
            g = quill_p256_base_wnaf[0][(d < 0 ? -d : d) >> 1];
            if (d < 0)
                quill_p256_fe_opp(&g.y, &g.y);
            vt_madd_x(&acc, &acc, &g, adx);
        }
        if (d2[i] != 0) {
            const int d = d2[i], sign = d < 0, k = (sign ? -d : d) >> 1;
            /* +-Q itself is affine: a mixed addition (3M cheaper) */
            if (k == 0)
                vt_madd_x(&acc, &acc, &qa[sign], adx);
            else
                vt_add_cached_x(&acc, &acc, &qtab[sign][k], adx);
        }
        int j = i - 1;
        while (j >= 0 && d1[j] == 0 && d2[j] == 0)
            j--;
        const int steps = j >= 0 ? i - j : i;
        if (steps > 0)
            vt_double_n(&acc, &acc, steps, adx);
        i = j;
    }
    *out = acc;
}
