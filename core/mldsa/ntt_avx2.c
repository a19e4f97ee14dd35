/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The AVX2 backend of ntt.h: the same transforms as ntt_c.c (same layout,
 * same butterflies with the same operands and the same Montgomery
 * products, so bit-identical results, compared by test_mldsa_arith), eight
 * coefficients per register.  The same source, compiled again by
 * ntt_avx512vl.c with QUILL_MLDSA_NTT_AVX512VL set, gives the _avx512vl
 * backend (still 256-bit vectors; see merge_hi()).
 *
 * Montgomery products: by a zeta (montmul), ntt_c.c's unsigned form: A =
 * a + 256 q (non-negative, below 2^32), zp the zeta's residue in [0, q),
 * T = A zp q^-1 mod 2^32 taken unsigned, r = (A zp - T q) / 2^32, exact
 * because A zp - T q is divisible by 2^32; between two vectors
 * (montmul_vv, the pointwise product) the signed form mont(a, b) =
 * (a b - t q) / 2^32 with t = a b q^-1 mod 2^32 taken signed, the value of
 * quill_mldsa_mont_mul.  Every correct evaluation of either formula gives
 * the same value, so the vector code may order it as it likes.  AVX2 has
 * no 32-bit mulhi: vpmuludq (vpmuldq) multiplies the even lanes into
 * 64-bit products, the odd lanes go through it after vmovshdup (odd ->
 * even), the differences are taken on the 64-bit products (the low halves
 * cancel, so the high halves hold r exactly) and the two halves are merged
 * back: twelve instructions per eight products by a zeta (eleven with
 * AVX-512VL, and one fewer in the forward transform, whose values are held
 * biased), five of them multiplications; the signed form needs no bias,
 * one instruction fewer, but costs the portable code a quarter more.  On
 * current cores (AMD Zen 4 measured) these routines are bound by the number of vector
 * instructions and by the latency of the butterfly chains, so the code
 * avoids every other instruction it can and keeps two independent chains
 * in flight:
 *  - the NTTs make two passes over memory instead of one per level: the
 *    forward transform does levels 1-3 (distances 128, 64, 32) on eight
 *    registers holding a column of stride 32, then levels 4-8 on each chunk
 *    of 64 coefficients (blocks of 8, transposed in registers for the last
 *    three levels as in ntt_c.c); the inverse does levels 8-3 per chunk, then
 *    level 2 and level 1 fused with the final scaling on columns of
 *    stride 64;
 *  - every zeta comes prepared from a compile-time table (ntt.h,
 *    quill_mldsa_zetas_top_mult and _rows_mult: residues in [0, q) and
 *    their q^-1 products): the 31 single zetas are broadcast from memory,
 *    the per-block vectors of the last three levels loaded (no ALU work);
 *  - each pass works on two columns or two chunks at once (fwd2, inv2).
 * The fused forms of signing and key generation (ntt.h) are modes of the
 * same inverse body: freeze, or + s2, freeze and Power2Round, in the last
 * pass.  Key generation's transforms (quill_mldsa_ntt_lazy_from and the
 * Power2Round mode) multiply by zetas in Shoup's form instead (shoupmul:
 * seven or eight instructions per eight products, outputs in [0, 2q)),
 * where no caller reads the representatives (ntt.h).
 * No branch or address depends on data (the stack table holds public
 * zetas).  Built on x86-64 unless QUILL_NO_ASM; used when
 * quill_mldsa_avx2_capable() (quill_mldsa_avx512vl_capable()). */
#include "ntt.h"

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>
#include <stddef.h>

#include "reduce.h"

#if QUILL_MLDSA_NTT_AVX512VL
#define TARGET __attribute__((target("avx2,avx512f,avx512vl")))
#define BACKEND(name) name##_avx512vl
#else
#define TARGET __attribute__((target("avx2")))
#define BACKEND(name) name##_avx2
#endif
#define INVNTT_F QUILL_MLDSA_INVNTT_F /* ntt.h */
#define INVNTT_F_Z1 QUILL_MLDSA_INVNTT_F_Z1

/* A multiplier b prepared for mont(): b itself (vpmuldq reads the even
 * lanes), its odd lanes moved to the even ones, and b q^-1 mod 2^32. */
typedef struct {
    __m256i even, odd, qinv;
} mult;

TARGET static inline __m256i ld(const int32_t *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}

TARGET static inline void st(int32_t *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)p, v);
}

/* Odd lanes copied to the even ones (vmovshdup). */
TARGET static inline __m256i odd_to_even(__m256i a) {
    return _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(a)));
}

/* Lane 2i from the high half of 64-bit lane i of e, lane 2i + 1 from the
 * high half of 64-bit lane i of o.  AVX-512VL does it in one instruction (a
 * vmovshdup of e merged into o under the mask of the even lanes). */
TARGET static inline __m256i merge_hi(__m256i e, __m256i o) {
#if QUILL_MLDSA_NTT_AVX512VL
    return _mm256_castps_si256(
        _mm256_mask_movehdup_ps(_mm256_castsi256_ps(o), 0x55, _mm256_castsi256_ps(e)));
#else
    return _mm256_blend_epi32(odd_to_even(e), o, 0xaa);
#endif
}

/* mont() from the 64-bit products a b of the even (pe) and odd (po) lanes
 * and t = a b q^-1 mod 2^32 in the low halves of te (even lanes) and to
 * (odd lanes), t taken signed.  In: |a b| < 2^31 q.  Out: (-q, q). */
TARGET static inline __m256i mont_finish(__m256i pe, __m256i po, __m256i te, __m256i to) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    __m256i de = _mm256_sub_epi64(pe, _mm256_mul_epi32(te, q));
    __m256i dw = _mm256_sub_epi64(po, _mm256_mul_epi32(to, q));
    return merge_hi(de, dw);
}

/* The unsigned Montgomery product by a zeta b (prepared, in [0, q); see
 * above and ntt_c.c's mont_zeta_v4) of an input already biased, big_a =
 * a + 256 q: T for all lanes with one vpmulld.  In: |a| < 256 q.
 * Out: (-q, q). */
TARGET static inline __m256i montmul_biased(__m256i big_a, mult b) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    __m256i t = _mm256_mullo_epi32(big_a, b.qinv);
    __m256i pe = _mm256_mul_epu32(big_a, b.even);
    __m256i po = _mm256_mul_epu32(odd_to_even(big_a), b.odd);
    __m256i de = _mm256_sub_epi64(pe, _mm256_mul_epu32(t, q));
    __m256i dw = _mm256_sub_epi64(po, _mm256_mul_epu32(odd_to_even(t), q));
    return merge_hi(de, dw);
}

/* Shoup's product by a zeta (ntt.h, quill_mldsa_ntt_lazy_from) of an
 * unsigned A < 2^32, b from the Shoup tables: even and odd = w' (the odd
 * lanes' in the even ones), qinv = w.  h = floor(A w' / 2^32) from the
 * high halves of the two vpmuludq products, then A w - h q with two
 * vpmulld: seven instructions with AVX-512VL, eight with AVX2 (merge_hi),
 * against montmul_biased's ten and eleven.  Out: [0, 2q), congruent to
 * montmul_biased(A, Montgomery form of the same zeta). */
TARGET static inline __m256i shoupmul(__m256i big_a, mult b) {
    /* q hidden from the optimiser: as a known constant, h q becomes
     * q = 2^23 - 2^13 + 1's two shifts, a subtraction and an addition (four
     * instructions for one vpmulld; the transform measured 8% slower). */
    __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    __asm__("" : "+v"(q));
    __m256i he = _mm256_mul_epu32(big_a, b.even);
    __m256i ho = _mm256_mul_epu32(odd_to_even(big_a), b.odd);
    return _mm256_sub_epi32(_mm256_mullo_epi32(big_a, b.qinv),
                            _mm256_mullo_epi32(merge_hi(he, ho), q));
}

/* The signed form (ntt.h, the inverse Shoup tables) of a signed d,
 * |d| < 2^31: w and w' centred and signed, vpmuldq for the high halves,
 * no bias needed.  Out: [-q, 2q), congruent to d w. */
TARGET static inline __m256i shoupmul_signed(__m256i d, mult b) {
    __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    __asm__("" : "+v"(q));
    __m256i he = _mm256_mul_epi32(d, b.even);
    __m256i ho = _mm256_mul_epi32(odd_to_even(d), b.odd);
    return _mm256_sub_epi32(_mm256_mullo_epi32(d, b.qinv),
                            _mm256_mullo_epi32(merge_hi(he, ho), q));
}

TARGET static inline __m256i bias(__m256i a) {
    return _mm256_add_epi32(a, _mm256_set1_epi32(QUILL_MLDSA_MONT_BIAS));
}

TARGET static inline __m256i unbias(__m256i a) {
    return _mm256_sub_epi32(a, _mm256_set1_epi32(QUILL_MLDSA_MONT_BIAS));
}

/* The same on an input as it is.  In: |a| < 256 q.  Out: (-q, q). */
TARGET static inline __m256i montmul(__m256i a, mult b) {
    return montmul_biased(bias(a), b);
}

/* v + q for negative v, in (-q, q) (a montmul output): INV_FREEZE's and
 * INV_P2R's last step.  The smaller of v and v + q taken unsigned: for v
 * >= 0, v + q > v (no wrap, v + q < 2q); for v < 0, v is >= 2^31 unsigned
 * and v + q is in (0, q).  Two instructions where the sign mask (shift,
 * and, add) took three. */
TARGET static inline __m256i caddq(__m256i v) {
    return _mm256_min_epu32(v, _mm256_add_epi32(v, _mm256_set1_epi32(QUILL_MLDSA_Q)));
}

/* A multiplier from a table (z[k], zq[k] = z[k] q^-1), broadcast:
 * every lane, so the odd ones too, holds it. */
TARGET static inline mult mult_table(const int32_t *z, const int32_t *zq, unsigned k) {
    __m256i v = _mm256_set1_epi32(z[k]);
    mult m = {v, v, _mm256_set1_epi32(zq[k])};
    return m;
}

/* A compile-time constant in [0, q) (b q^-1 folds). */

TARGET static inline mult mult_const(int32_t b) {
    __m256i v = _mm256_set1_epi32(b);
    mult m = {v, v, _mm256_set1_epi32((int32_t)((uint32_t)b * (uint32_t)QUILL_MLDSA_QINV))};
    return m;
}

/* The same for shoupmul_signed by a constant b in [0, q) held in
 * Montgomery form: w = b 2^-32 mod q (2^-32 = 8265825 mod q) centred, and
 * w' = floor(w 2^32 / q), both folded. */
TARGET static inline mult mult_shoup_const(int32_t b) {
    int64_t w = (int64_t)(((uint64_t)b * 8265825u) % QUILL_MLDSA_Q);
    if (w > (QUILL_MLDSA_Q - 1) / 2)
        w -= QUILL_MLDSA_Q;
    const int64_t n = w * ((int64_t)1 << 32);
    const int64_t wp = n >= 0 ? n / QUILL_MLDSA_Q : (n - (QUILL_MLDSA_Q - 1)) / QUILL_MLDSA_Q;
    mult m = {_mm256_set1_epi32((int32_t)wp), _mm256_set1_epi32((int32_t)wp),
              _mm256_set1_epi32((int32_t)w)};
    return m;
}

/* The zeta vector for the 8 blocks of chunk g from row `row' of the tables
 * of the last three levels, prepared at compile time (ntt.h,
 * quill_mldsa_zetas_rows_mult, _inv_rows_mult): three loads, the odd lanes
 * from one entry further.  It was computed from quill_mldsa_zetas_rows
 * (caddq, vpmulld, vmovshdup: five vector instructions a vector, 140 a
 * transform); the tables took quill-limits' mldsa.ntt from 393 to 370
 * and mldsa.invntt from 428 to 409 TSC ticks on Zen 4 (AVX-512VL level,
 * minima of three alternating runs). */
TARGET static inline mult row_mult(const quill_mldsa_zeta_rows_mult *t, unsigned row, unsigned g) {
    const int32_t *res = t->res + 32 * row + 8 * g;
    mult m = {ld(res), ld(res + 1), ld(t->qinv[row] + 8 * g)};
    return m;
}

/* Forward butterfly (lo, hi) -> (lo + z hi, lo - z hi) and inverse
 * butterfly (lo, hi) -> (lo + hi, z (lo - hi)), as in ntt_c.c (no reduction
 * of lo: ntt.h's bounds; the forward one on values held biased by 256 q
 * from their first load to their last store, ntt_c.c's fwd_bf), on
 * registers lo and hi of two independent sets
 * r[0] and r[1] with zetas z0 and z1.  A butterfly is a chain of about
 * eleven cycles and the four of one level are all the work a level of one
 * set offers, too little to fill the machine: working on two sets at once
 * (the next level of one set cannot start before its previous one ends)
 * makes the transforms 5-15% faster on Zen 4, despite the few spills it
 * costs with AVX2's 16 registers (none with AVX-512VL's 32). */
TARGET static inline void fwd2(__m256i r[2][8], unsigned lo, unsigned hi, mult z0, mult z1,
                               int shoup) {
    __m256i t0 = shoup ? shoupmul(r[0][hi], z0) : montmul_biased(r[0][hi], z0);
    __m256i t1 = shoup ? shoupmul(r[1][hi], z1) : montmul_biased(r[1][hi], z1);
    r[0][hi] = _mm256_sub_epi32(r[0][lo], t0);
    r[0][lo] = _mm256_add_epi32(r[0][lo], t0);
    r[1][hi] = _mm256_sub_epi32(r[1][lo], t1);
    r[1][lo] = _mm256_add_epi32(r[1][lo], t1);
}

/* shoup: the products in Shoup's signed form (key generation's rows: the
 * products land in [-q, 2q) instead of (-q, q), which leaves every value
 * at level l's input below 2^(l - 1) q as before; see invntt_body). */
TARGET static inline void inv2(__m256i r[2][8], unsigned lo, unsigned hi, mult z0, mult z1,
                               int shoup) {
    __m256i d0 = _mm256_sub_epi32(r[0][lo], r[0][hi]), d1 = _mm256_sub_epi32(r[1][lo], r[1][hi]);
    r[0][lo] = _mm256_add_epi32(r[0][lo], r[0][hi]);
    r[1][lo] = _mm256_add_epi32(r[1][lo], r[1][hi]);
    r[0][hi] = shoup ? shoupmul_signed(d0, z0) : montmul(d0, z0);
    r[1][hi] = shoup ? shoupmul_signed(d1, z1) : montmul(d1, z1);
}

/* 8 x 8 transpose of 32-bit values in eight registers: r[i] element j ->
 * r[j] element i (unpack pairs, then quadruples, then swap 128-bit
 * halves). */
TARGET static inline void transpose8(__m256i r[8]) {
    __m256i t[8], u[8];
    for (unsigned i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (unsigned i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (unsigned i = 0; i < 4; i++) {
        r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
}

/* Registers r[w][i] <-> p[w_step w + stride i]. */
TARGET static inline void load2(__m256i r[2][8], const int32_t *p, unsigned w_step,
                                unsigned stride) {
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < 8; i++)
            r[w][i] = ld(p + w_step * w + stride * i);
}

TARGET static inline void store2(int32_t *p, __m256i r[2][8], unsigned w_step, unsigned stride) {
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < 8; i++)
            st(p + w_step * w + stride * i, r[w][i]);
}

/* The first pass reads in and writes out (each column only after reading
 * it), the second works on out in place: out may be in. */
/* The forward body, with Montgomery products (shoup = 0: quill_mldsa_ntt)
 * or Shoup's (quill_mldsa_ntt_lazy_from): the same butterflies, the
 * multipliers from the corresponding tables. */
TARGET QUILL_INLINE void ntt_body(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N],
                                  const int shoup) {
    int32_t *a = out;
    const quill_mldsa_zeta_top_mult *top =
        shoup ? &quill_mldsa_zetas_top_shoup : &quill_mldsa_zetas_top_mult;
    const int32_t *z = top->fwd_res, *zq = top->fwd_qinv;
    /* Levels 1-3 on columns j and j + 8 with r[w][i] = a[j + 8w + 32 i]:
     * distance 128 pairs i, i + 4 (zeta 1), 64 pairs i, i + 2 (zetas 2,
     * 3), 32 pairs i, i + 1 (zetas 4-7), ntt_c.c's order of the table. */
    for (unsigned j = 0; j < 32; j += 16) {
        __m256i r[2][8];
        load2(r, in + j, 8, 32);
        if (shoup) {
            /* Level 1 on s1 (|in| <= 4, ntt.h): the exact products by the
             * centred residue, the outputs biased (four instructions a
             * pair of registers, where Shoup's product and two biases take
             * eleven).  w1 hidden as q is in shoupmul. */
            __m256i w1 = _mm256_set1_epi32(QUILL_MLDSA_LAZY_W1);
            __asm__("" : "+v"(w1));
            for (unsigned w = 0; w < 2; w++)
                for (unsigned i = 0; i < 4; i++) {
                    __m256i t = _mm256_mullo_epi32(r[w][i + 4], w1), lo = bias(r[w][i]);
                    r[w][i + 4] = _mm256_sub_epi32(lo, t);
                    r[w][i] = _mm256_add_epi32(lo, t);
                }
        } else {
            for (unsigned w = 0; w < 2; w++)
                for (unsigned i = 0; i < 8; i++)
                    r[w][i] = bias(r[w][i]);
            for (unsigned i = 0; i < 4; i++)
                fwd2(r, i, i + 4, mult_table(z, zq, 1), mult_table(z, zq, 1), shoup);
        }
        for (unsigned s = 0; s < 2; s++)
            for (unsigned i = 4 * s; i < 4 * s + 2; i++)
                fwd2(r, i, i + 2, mult_table(z, zq, 2 + s), mult_table(z, zq, 2 + s), shoup);
        for (unsigned s = 0; s < 4; s++)
            fwd2(r, 2 * s, 2 * s + 1, mult_table(z, zq, 4 + s), mult_table(z, zq, 4 + s),
                     shoup);
        store2(a + j, r, 8, 32);
    }
    /* Chunks g + w (w = 0, 1) of 64 with r[w][i] = block i: distance 16
     * pairs i, i + 2 (zetas 8 + 2g + s), 8 pairs 2m, 2m + 1 (zetas
     * 16 + 4g + m); then the transpose so that r[w][p] holds position p of
     * the 8 blocks, the last three levels with a zeta per lane, and row p
     * stored at 8p (ntt_c.c). */
    for (unsigned g = 0; g < 4; g += 2) {
        __m256i r[2][8];
        load2(r, a + 64 * g, 64, 8);
        for (unsigned s = 0; s < 2; s++)
            for (unsigned i = 4 * s; i < 4 * s + 2; i++)
                fwd2(r, i, i + 2, mult_table(z, zq, 8 + 2 * g + s),
                     mult_table(z, zq, 10 + 2 * g + s), shoup);
        for (unsigned m = 0; m < 4; m++)
            fwd2(r, 2 * m, 2 * m + 1, mult_table(z, zq, 16 + 4 * g + m),
                 mult_table(z, zq, 20 + 4 * g + m), shoup);
        transpose8(r[0]);
        transpose8(r[1]);
        const quill_mldsa_zeta_rows_mult *rows =
            shoup ? &quill_mldsa_zetas_rows_shoup : &quill_mldsa_zetas_rows_mult;
        const mult z40 = row_mult(rows, 0, g), z41 = row_mult(rows, 0, g + 1);
        for (unsigned p = 0; p < 4; p++)
            fwd2(r, p, p + 4, z40, z41, shoup);
        for (unsigned s = 0; s < 2; s++) {
            const mult z20 = row_mult(rows, 1 + s, g), z21 = row_mult(rows, 1 + s, g + 1);
            for (unsigned p = 4 * s; p < 4 * s + 2; p++)
                fwd2(r, p, p + 2, z20, z21, shoup);
        }
        for (unsigned s = 0; s < 4; s++)
            fwd2(r, 2 * s, 2 * s + 1, row_mult(rows, 3 + s, g), row_mult(rows, 3 + s, g + 1),
                 shoup);
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = 0; i < 8; i++)
                r[w][i] = unbias(r[w][i]);
        store2(a + 64 * g, r, 64, 8);
    }
}

TARGET void BACKEND(quill_mldsa_ntt_from)(int32_t out[QUILL_MLDSA_N],
                                          const int32_t in[QUILL_MLDSA_N]) {
    ntt_body(out, in, 0);
}

TARGET void BACKEND(quill_mldsa_ntt_lazy_from)(int32_t out[QUILL_MLDSA_N],
                                               const int32_t in[QUILL_MLDSA_N]) {
    ntt_body(out, in, 1);
}

TARGET void BACKEND(quill_mldsa_ntt)(int32_t a[QUILL_MLDSA_N]) {
    BACKEND(quill_mldsa_ntt_from)(a, a);
}

/* mont(a, b) for two vectors: t is taken from the low halves of the 64-bit
 * products a b (a vpmuldq by q^-1 per half, whose low half is
 * a b q^-1 mod 2^32): one multiplication more than gathering a b mod 2^32
 * (a shift and a blend) for one vpmulld and moving t's odd lanes (a
 * shuffle), but two instructions fewer in all, 10% faster on Zen 4.
 * In: |a b| < 2^31 q.  Out: (-q, q). */
TARGET static inline __m256i montmul_vv(__m256i a, __m256i b) {
    const __m256i qinv = _mm256_set1_epi32(QUILL_MLDSA_QINV);
    __m256i pe = _mm256_mul_epi32(a, b);
    __m256i po = _mm256_mul_epi32(odd_to_even(a), odd_to_even(b));
    return mont_finish(pe, po, _mm256_mul_epi32(pe, qinv), _mm256_mul_epi32(po, qinv));
}

/* The modes of the inverse transform, as in ntt_c.c: plain (the last level
 * fused with the scaling: sums times INVNTT_F, differences times
 * INVNTT_F_Z1), or the same then caddq; or key generation's row of t
 * (INV_P2R, below). */
enum { INV_TOMONT, INV_FREEZE, INV_P2R };

/* Key generation's end of a row (ntt.h, quill_mldsa_invntt_power2round):
 * v in [0, q) from the last level (inv_finish), plus s2 (|s2| < q)
 * to [-q, 2q), then the residue in [0, q) as the smallest of v, v + q and
 * v - q taken unsigned (the two wrong ones are >= q or wrap past 2^31),
 * then Power2Round (rounding.h): t1 = (t + 2^12 - 1) >> 13, t0 = t -
 * t1 2^13.  Eleven vector instructions and a load, where the separate
 * passes over the polynomial (add, freeze, Power2Round) each load and
 * store it again. */
TARGET static inline void p2r_store(int32_t *t0, int32_t *t1, const int32_t *s2, __m256i v) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    v = _mm256_add_epi32(v, ld(s2));
    v = _mm256_min_epu32(v, _mm256_min_epu32(_mm256_add_epi32(v, q), _mm256_sub_epi32(v, q)));
    __m256i r1 = _mm256_srai_epi32(
        _mm256_add_epi32(v, _mm256_set1_epi32((1 << (QUILL_MLDSA_D - 1)) - 1)), QUILL_MLDSA_D);
    st(t1, r1);
    st(t0, _mm256_sub_epi32(v, _mm256_slli_epi32(r1, QUILL_MLDSA_D)));
}

/* The last level's product by the scaling factor f: Montgomery's in
 * (-q, q), caddq'd for INV_FREEZE; for INV_P2R Shoup's signed form in
 * [-q, 2q), then the smallest of v, v + q and v - q taken unsigned, [0, q)
 * (the wrong two are >= q or wrap past 2^31). */
TARGET static inline __m256i inv_finish(__m256i v, mult f, int mode) {
    if (mode == INV_P2R) {
        const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
        v = shoupmul_signed(v, f);
        return _mm256_min_epu32(v,
                                _mm256_min_epu32(_mm256_add_epi32(v, q), _mm256_sub_epi32(v, q)));
    }
    v = montmul(v, f);
    if (mode == INV_FREEZE)
        v = caddq(v);
    return v;
}

/* HighBits (FIPS 204, Algorithm 37) of eight values in [0, q), as
 * rounding.h's quill_mldsa_decompose computes r1: y = (r + gamma2 - 1)
 * >> s, r1 = (y M) >> k, and 0 where r1 = m; h holds the set's constants. */
typedef struct {
    __m256i g2m1, mul, m;
    __m128i s, k;
} hb_consts;

TARGET static inline hb_consts hb_prepare(int32_t gamma2) {
    const int wide = gamma2 == (QUILL_MLDSA_Q - 1) / 32; /* else (q - 1) / 88 */
    hb_consts h = {_mm256_set1_epi32(gamma2 - 1), _mm256_set1_epi32(wide ? 65601 : 11276),
                   _mm256_set1_epi32((QUILL_MLDSA_Q - 1) / (2 * gamma2)),
                   _mm_cvtsi32_si128(wide ? 9 : 11), _mm_cvtsi32_si128(wide ? 26 : 20)};
    return h;
}

TARGET static inline __m256i highbits(__m256i r, const hb_consts *h) {
    __m256i y = _mm256_srl_epi32(_mm256_add_epi32(r, h->g2m1), h->s);
    __m256i r1 = _mm256_srl_epi32(_mm256_mullo_epi32(y, h->mul), h->k);
    return _mm256_andnot_si256(_mm256_cmpeq_epi32(r1, h->m), r1);
}

/* w1 not NULL (mode INV_FREEZE): HighBits of each output vector also
 * stored at the same place in w1 (gamma2 the set's).  t1 and s2 are used
 * in mode INV_P2R only (NULL otherwise).  Inlined into each entry point,
 * so that mode, w1 and t1 are constants in each copy: as one shared
 * function taking them at run time, signing's transforms (no w1) cost
 * 2.5% more instructions (callgrind, ML-DSA-44), verification's 0.9% more
 * in all, and invntt_tomont measured 469 against 458 TSC ticks, the
 * keygen row 574 against 562 on Zen 4 (mldsa_kernels). */
TARGET QUILL_INLINE void invntt_body(int32_t a[QUILL_MLDSA_N], int mode, int32_t *w1,
                                   int32_t gamma2, int32_t *t1, const int32_t *s2) {
    /* Key generation's rows (INV_P2R) take Shoup's signed products: only their
     * frozen values leave, so the representatives inside do not matter
     * (bit-identical to ntt_c.c's t1 and t0), and the bounds hold: a value
     * at level l's input is a sum of 2^(l - 1) inputs (|.| < q) or of
     * 2^(l - 1 - m) products of level m >= 1 (each in [-q, 2q)), so below
     * 2^(l - 1) q either way, every multiplied difference below 256 q. */
    const int shoup = mode == INV_P2R;
    const quill_mldsa_zeta_top_mult *top =
        shoup ? &quill_mldsa_zetas_top_shoup : &quill_mldsa_zetas_top_mult;
    const int32_t *z = top->inv_res, *zq = top->inv_qinv;
    /* Chunks g + w: the last three levels on the rows, the transpose back
     * to blocks r[w][i], then distance 8 (blocks 2m, 2m + 1,
     * -zetas[31 - 4g - m]), 16 (blocks i, i + 2 for i = 4m, 4m + 1,
     * -zetas[15 - 2g - m]) and 32 (blocks i, i + 4, -zetas[7 - g]): ntt_c.c's
     * backward walk of the table. */
    for (unsigned g = 0; g < 4; g += 2) {
        __m256i r[2][8];
        load2(r, a + 64 * g, 64, 8);
        const quill_mldsa_zeta_rows_mult *rows =
            shoup ? &quill_mldsa_zetas_inv_rows_shoup : &quill_mldsa_zetas_inv_rows_mult;
        for (unsigned s = 0; s < 4; s++)
            inv2(r, 2 * s, 2 * s + 1, row_mult(rows, 3 + s, g), row_mult(rows, 3 + s, g + 1),
                 shoup);
        for (unsigned s = 0; s < 2; s++) {
            const mult z20 = row_mult(rows, 1 + s, g), z21 = row_mult(rows, 1 + s, g + 1);
            for (unsigned p = 4 * s; p < 4 * s + 2; p++)
                inv2(r, p, p + 2, z20, z21, shoup);
        }
        const mult z40 = row_mult(rows, 0, g), z41 = row_mult(rows, 0, g + 1);
        for (unsigned p = 0; p < 4; p++)
            inv2(r, p, p + 4, z40, z41, shoup);
        transpose8(r[0]);
        transpose8(r[1]);
        for (unsigned m = 0; m < 4; m++)
            inv2(r, 2 * m, 2 * m + 1, mult_table(z, zq, 31 - 4 * g - m),
                 mult_table(z, zq, 27 - 4 * g - m), shoup);
        for (unsigned m = 0; m < 2; m++)
            for (unsigned i = 4 * m; i < 4 * m + 2; i++)
                inv2(r, i, i + 2, mult_table(z, zq, 15 - 2 * g - m),
                     mult_table(z, zq, 13 - 2 * g - m), shoup);
        for (unsigned i = 0; i < 4; i++)
            inv2(r, i, i + 4, mult_table(z, zq, 7 - g), mult_table(z, zq, 6 - g), shoup);
        store2(a + 64 * g, r, 64, 8);
    }
    /* Four columns at a time, r[w][4h + i] = a[j + 16w + 8h + 64 i]:
     * distance 64 (i = 0, 1 with -zetas[3]; i = 2, 3 with -zetas[2]),
     * distance 128 (i, i + 2) fused with the factor 2^64 / 256: the sums
     * times INVNTT_F, the differences times INVNTT_F_Z1 (ntt_c.c). */
    const mult f = shoup ? mult_shoup_const(INVNTT_F) : mult_const(INVNTT_F);
    const mult fz1 = shoup ? mult_shoup_const(INVNTT_F_Z1) : mult_const(INVNTT_F_Z1);
    const hb_consts hb = hb_prepare(w1 != NULL ? gamma2 : (QUILL_MLDSA_Q - 1) / 32);
    for (unsigned j = 0; j < 64; j += 32) {
        __m256i r[2][8];
        for (unsigned w = 0; w < 2; w++)
            for (unsigned h = 0; h < 2; h++)
                for (unsigned i = 0; i < 4; i++)
                    r[w][4 * h + i] = ld(a + j + 16 * w + 8 * h + 64 * i);
        for (unsigned h = 0; h < 2; h++) {
            inv2(r, 4 * h, 4 * h + 1, mult_table(z, zq, 3), mult_table(z, zq, 3), shoup);
            inv2(r, 4 * h + 2, 4 * h + 3, mult_table(z, zq, 2), mult_table(z, zq, 2), shoup);
        }
        for (unsigned w = 0; w < 2; w++)
            for (unsigned h = 0; h < 2; h++)
                for (unsigned i = 0; i < 2; i++) {
                    __m256i lo = r[w][4 * h + i], hi = r[w][4 * h + i + 2];
                    const unsigned o = j + 16 * w + 8 * h + 64 * i;
                    __m256i sum = inv_finish(_mm256_add_epi32(lo, hi), f, mode);
                    __m256i dif = inv_finish(_mm256_sub_epi32(lo, hi), fz1, mode);
                    if (mode == INV_P2R) {
                        p2r_store(a + o, t1 + o, s2 + o, sum);
                        p2r_store(a + o + 128, t1 + o + 128, s2 + o + 128, dif);
                    } else {
                        st(a + o, sum);
                        st(a + o + 128, dif);
                    }
                    if (w1 != NULL) {
                        st(w1 + o, highbits(sum, &hb));
                        st(w1 + o + 128, highbits(dif, &hb));
                    }
                }
    }
}

TARGET void BACKEND(quill_mldsa_invntt_tomont)(int32_t a[QUILL_MLDSA_N]) {
    invntt_body(a, INV_TOMONT, NULL, 0, NULL, NULL);
}

TARGET void BACKEND(quill_mldsa_invntt_tomont_freeze)(int32_t a[QUILL_MLDSA_N]) {
    invntt_body(a, INV_FREEZE, NULL, 0, NULL, NULL);
}

TARGET void BACKEND(quill_mldsa_invntt_freeze_highbits)(int32_t a[QUILL_MLDSA_N],
                                                        int32_t w1[QUILL_MLDSA_N],
                                                        int32_t gamma2) {
    invntt_body(a, INV_FREEZE, w1, gamma2, NULL, NULL);
}

TARGET void BACKEND(quill_mldsa_invntt_power2round)(int32_t t1[QUILL_MLDSA_N],
                                                    int32_t a[QUILL_MLDSA_N],
                                                    const int32_t s2[QUILL_MLDSA_N]) {
    invntt_body(a, INV_P2R, NULL, 0, t1, s2);
}

/* The odd lanes of the 8 values at a + i moved to the even ones, for
 * vpmuldq: below the last block of a polynomial (i < 248) a load from
 * a + i + 1, whose even lanes are a[i + 1], a[i + 3], ... (its odd lanes,
 * a[i + 2] ... a[i + 8], still inside the polynomial, are never read by
 * vpmuldq), in place of a vmovshdup of the first load; in the last block
 * the vmovshdup (a + i + 1 would reach one value past the polynomial, and
 * past the end of A-hat's allocation for its last one).  A load is free
 * where the dot products are bound by their vector instructions
 * (dot_mont_x2 on Zen 4, AVX-512VL: 458 / 544 / 717 -> 402 / 473 / 616 TSC
 * ticks for l = 4 / 5 / 7); the shared operand b keeps its vmovshdup
 * (loading it too measured 5-15% slower than before: the loads then
 * bound the loop). */
TARGET static inline __m256i ld_odd(const int32_t *a, __m256i av, int last) {
    return last ? odd_to_even(av) : ld(a + 1);
}

/* The dot products' bodies are inlined with n a constant for the sets' l
 * (4, 5 and 7), so that the loop over the n terms is unrolled: with n
 * only known at run time, each eight outputs paid a short loop of its
 * own, and the products ran a third slower on Zen 4 (mldsa_kernels,
 * dot_mont n = 4: 292 -> ~200 TSC ticks). */
#define DOT_INLINE TARGET QUILL_INLINE
#define DOT_SWITCH(n, call) \
    switch (n) {           \
    case 4:                \
        call(4);           \
        break;             \
    case 5:                \
        call(5);           \
        break;             \
    case 7:                \
        call(7);           \
        break;             \
    default:               \
        call(n);           \
        break;             \
    }

/* The sum of the n signed 64-bit products, exact (below 2^31 q), reduced
 * once: the value of quill_mldsa_mont_reduce on it, as ntt_c.c's. */
DOT_INLINE void dot_block(int32_t *r, const int32_t *a, const int32_t *b, unsigned n, int last) {
    const __m256i qinv = _mm256_set1_epi32(QUILL_MLDSA_QINV);
    __m256i se = _mm256_setzero_si256(), so = _mm256_setzero_si256();
    for (unsigned j = 0; j < n; j++) {
        const int32_t *aj = a + QUILL_MLDSA_N * j;
        __m256i av = ld(aj), bv = ld(b + QUILL_MLDSA_N * j);
        se = _mm256_add_epi64(se, _mm256_mul_epi32(av, bv));
        so = _mm256_add_epi64(so, _mm256_mul_epi32(ld_odd(aj, av, last), odd_to_even(bv)));
    }
    st(r, mont_finish(se, so, _mm256_mul_epi32(se, qinv), _mm256_mul_epi32(so, qinv)));
}

DOT_INLINE void dot_body(int32_t *r, const int32_t *a, const int32_t *b, unsigned n) {
    unsigned i = 0;
    for (; i < QUILL_MLDSA_N - 8; i += 8)
        dot_block(r + i, a + i, b + i, n, 0);
    dot_block(r + i, a + i, b + i, n, 1);
}

TARGET void BACKEND(quill_mldsa_dot_mont)(int32_t r[QUILL_MLDSA_N], const int32_t *a,
                                          const int32_t *b, unsigned n) {
#define DOT_CALL(m) dot_body(r, a, b, m)
    DOT_SWITCH(n, DOT_CALL)
#undef DOT_CALL
}

/* Two rows at once, r0 = a0 . b and r1 = a1 . b: each vector of b (and
 * its odd lanes) loaded once for both.  With e0 (verification's
 * NTT(-t1 2^d)), one more pair after the n: a sides e0 and e1, b side
 * b + n N.  Inlined into each entry point, so e0 == NULL costs signing
 * nothing (one body with the pair count and a-side pointer chosen per
 * pair at run time made ML-DSA-65 signing 1.9% slower natively). */
DOT_INLINE void dot2_block(int32_t *r0, int32_t *r1, const int32_t *a0, const int32_t *a1,
                           const int32_t *e0, const int32_t *e1, const int32_t *b, unsigned n,
                           int last) {
    const __m256i qinv = _mm256_set1_epi32(QUILL_MLDSA_QINV);
    __m256i se0 = _mm256_setzero_si256(), so0 = _mm256_setzero_si256();
    __m256i se1 = _mm256_setzero_si256(), so1 = _mm256_setzero_si256();
    for (unsigned j = 0; j <= n; j++) {
        const int32_t *xj = a0 + QUILL_MLDSA_N * j, *yj = a1 + QUILL_MLDSA_N * j;
        if (j == n) {
            if (e0 == NULL)
                break;
            xj = e0;
            yj = e1;
        }
        __m256i bv = ld(b + QUILL_MLDSA_N * j), bo = odd_to_even(bv);
        __m256i x = ld(xj), y = ld(yj);
        se0 = _mm256_add_epi64(se0, _mm256_mul_epi32(x, bv));
        so0 = _mm256_add_epi64(so0, _mm256_mul_epi32(ld_odd(xj, x, last), bo));
        se1 = _mm256_add_epi64(se1, _mm256_mul_epi32(y, bv));
        so1 = _mm256_add_epi64(so1, _mm256_mul_epi32(ld_odd(yj, y, last), bo));
    }
    st(r0, mont_finish(se0, so0, _mm256_mul_epi32(se0, qinv), _mm256_mul_epi32(so0, qinv)));
    st(r1, mont_finish(se1, so1, _mm256_mul_epi32(se1, qinv), _mm256_mul_epi32(so1, qinv)));
}

DOT_INLINE void dot2_body(int32_t *r0, int32_t *r1, const int32_t *a0, const int32_t *a1,
                          const int32_t *e0, const int32_t *e1, const int32_t *b, unsigned n) {
    unsigned i = 0;
    for (; i < QUILL_MLDSA_N - 8; i += 8)
        dot2_block(r0 + i, r1 + i, a0 + i, a1 + i, e0 ? e0 + i : NULL, e1 ? e1 + i : NULL,
                   b + i, n, 0);
    dot2_block(r0 + i, r1 + i, a0 + i, a1 + i, e0 ? e0 + i : NULL, e1 ? e1 + i : NULL, b + i, n,
               1);
}

TARGET void BACKEND(quill_mldsa_dot_mont_x2)(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                             const int32_t *a0, const int32_t *a1,
                                             const int32_t *b, unsigned n) {
#define DOT_CALL(m) dot2_body(r0, r1, a0, a1, NULL, NULL, b, m)
    DOT_SWITCH(n, DOT_CALL)
#undef DOT_CALL
}

/* The same with pair n's a sides at e0 and e1 (verification's
 * NTT(-t1 2^d)). */
TARGET void BACKEND(quill_mldsa_dot_mont_x2_tail)(int32_t r0[QUILL_MLDSA_N],
                                                  int32_t r1[QUILL_MLDSA_N], const int32_t *a0,
                                                  const int32_t *a1, const int32_t *e0,
                                                  const int32_t *e1, const int32_t *b,
                                                  unsigned n) {
#define DOT_CALL(m) dot2_body(r0, r1, a0, a1, e0, e1, b, m)
    DOT_SWITCH(n, DOT_CALL)
#undef DOT_CALL
}

TARGET void BACKEND(quill_mldsa_pointwise_mont)(int32_t c[QUILL_MLDSA_N],
                                                const int32_t a[QUILL_MLDSA_N],
                                                const int32_t b[QUILL_MLDSA_N]) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 8)
        st(c + i, montmul_vv(ld(a + i), ld(b + i)));
}
#endif
