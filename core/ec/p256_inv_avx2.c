/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_p256_inv_divsteps_x2_avx2 (p256_inv_avx2.h): the divsteps of two
 * inversions in 256-bit vectors, the 62 steps of a batch per call from
 * the state quill_inv_x2 (p256_inv.h).  The rows of the step are held as
 *   F = (fa, fb, fa, fb)   G = (ga, gb, ga, gb)   Z = (za, zb, za, zb)
 *   UV = (ua, ub, va, vb)  QR = (qa, qb, ra, rb)
 * so that a mask computed lane-wise from G or Z lines up with the matrix
 * entries of its own inversion (f, g and zeta are duplicated for that).
 * A step computes both outcomes and selects with VBLENDVPD, which reads only
 * the sign bit of each mask lane, so the masks are shifts and ANDs:
 *   par = G << 63 (sign: g odd), c = Z & par (sign: zeta < 0 and g odd);
 *   G = (par ? (zeta < 0 ? g - f : g + f) : g) >> 1, QR likewise with UV;
 *   F = c ? g : f; UV = 2 (c ? (q, r) : (u, v));
 *   Z = c ? -zeta - 2 : zeta - 1.
 * These are the divsteps of quill_inv_divsteps_62 (p256_inv.h): on c the
 * swap (f, g, u, v, q, r) = (g, -f, q, r, -u, -v) followed by g += f gives
 * g - f, q - u, and f = old g, u = old q.  18 vector instructions per step
 * for both inversions, against 27 for the portable two-lane kernel; the
 * dependency chain on g is four (add or subtract, two selects, shift).
 *
 * The selects are written as inline VBLENDVPD: gcc 12 turns the intrinsic
 * into a comparison with zero (VPCMPGTQ) plus the blend, one more
 * instruction per select on the chain (measured: 5,750 against 4,930 ticks
 * per inversion pair).
 *
 * Constant time: every step runs the same instructions on every input;
 * VBLENDVPD's timing does not depend on its operands; there are no loads or
 * stores inside the loop. */
#include "ec/p256_inv_avx2.h"

#include "ec/p256_inv.h"

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#include <immintrin.h>

#include "common/zeroize.h"

/* b where the sign bit of m's 64-bit lane is set, else a. */
__attribute__((target("avx2"), always_inline)) static inline __m256i blend(__m256i a, __m256i b,
                                                                           __m256i m) {
    __m256i r;
    __asm__("vblendvpd %3, %2, %1, %0" : "=x"(r) : "x"(a), "x"(b), "x"(m));
    return r;
}

__attribute__((target("avx2"))) void quill_p256_inv_divsteps_x2_avx2(quill_inv_x2 *st) {
    const long long fa = (long long)st->f[0], fb = (long long)st->f[1];
    const long long ga = (long long)st->g[0], gb = (long long)st->g[1];
    __m256i f = _mm256_setr_epi64x(fa, fb, fa, fb);
    __m256i g = _mm256_setr_epi64x(ga, gb, ga, gb);
    __m256i z = _mm256_setr_epi64x(st->zeta[0], st->zeta[1], st->zeta[0], st->zeta[1]);
    __m256i uv = _mm256_setr_epi64x(st->t[0][0], st->t[1][0], st->t[0][1], st->t[1][1]);
    __m256i qr = _mm256_setr_epi64x(st->t[0][2], st->t[1][2], st->t[0][3], st->t[1][3]);
    const __m256i one = _mm256_set1_epi64x(1), minus2 = _mm256_set1_epi64x(-2);
    for (int i = 0; i < 62; i++) {
        const __m256i par = _mm256_slli_epi64(g, 63);
        const __m256i c = _mm256_and_si256(z, par);
        __m256i t = blend(_mm256_add_epi64(g, f), _mm256_sub_epi64(g, f), z);
        t = blend(g, t, par);
        f = blend(f, g, c);
        g = _mm256_srli_epi64(t, 1);
        __m256i s = blend(_mm256_add_epi64(qr, uv), _mm256_sub_epi64(qr, uv), z);
        s = blend(qr, s, par);
        const __m256i w = blend(uv, qr, c);
        qr = s;
        uv = _mm256_add_epi64(w, w);
        z = blend(_mm256_sub_epi64(z, one), _mm256_sub_epi64(minus2, z), c);
    }
    /* Lanes 0 and 1 of f, g and z (lanes 2 and 3 are their copies). */
    _mm_storeu_si128((__m128i *)(void *)st->f, _mm256_castsi256_si128(f));
    _mm_storeu_si128((__m128i *)(void *)st->g, _mm256_castsi256_si128(g));
    _mm_storeu_si128((__m128i *)(void *)st->zeta, _mm256_castsi256_si128(z));
    int64_t a[4], b[4];
    _mm256_storeu_si256((__m256i *)(void *)a, uv);
    _mm256_storeu_si256((__m256i *)(void *)b, qr);
    st->t[0][0] = a[0];
    st->t[0][1] = a[2];
    st->t[0][2] = b[0];
    st->t[0][3] = b[2];
    st->t[1][0] = a[1];
    st->t[1][1] = a[3];
    st->t[1][2] = b[1];
    st->t[1][3] = b[3];
    /* Secret matrices: the copies on the stack are wiped, the vector
     * registers cleared. */
    quill_zeroize(a, sizeof(a));
    quill_zeroize(b, sizeof(b));
    _mm256_zeroall();
}
#endif
