/* Copyright quill authors.
 *
 * The AVX2 backend of ntt.h: the same transforms as ntt.c (same layout,
 * same butterflies in the same order, so bit-identical results, compared
 * by test_mldsa_arith) with the Montgomery products written with AVX2
 * intrinsics, eight coefficients at a time:
 *   mont(a, b) = hi(a b) - hi(t q),  t = a (b q^-1 mod 2^32) mod 2^32,
 * exact because a b - t q is divisible by 2^32 (so the low halves of a b
 * and t q are equal), where hi() is the high 32 bits of the signed 64-bit
 * product (vpmuldq on the even and the odd lanes, then a blend).  No
 * branch or address depends on data.  Built on x86-64 unless QUILL_NO_ASM;
 * used when quill_mldsa_avx2_capable(). */
#include "ntt.h"

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

#include "reduce.h"

#define AVX2 __attribute__((target("avx2")))
#define INVNTT_F 41978

/* High halves of the signed products of the eight lanes. */
AVX2 static inline __m256i mulhi(__m256i a, __m256i b) {
    __m256i even = _mm256_srli_epi64(_mm256_mul_epi32(a, b), 32);
    __m256i odd = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    return _mm256_blend_epi32(even, odd, 0xaa);
}

/* a b 2^-32 mod q in (-q, q) given bq = b q^-1 mod 2^32.  In: |a b| < 2^31 q. */
AVX2 static inline __m256i montmul(__m256i a, __m256i b, __m256i bq) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    __m256i t = _mm256_mullo_epi32(a, bq);
    return _mm256_sub_epi32(mulhi(a, b), mulhi(t, q));
}

AVX2 static inline __m256i times_qinv(__m256i b) {
    return _mm256_mullo_epi32(b, _mm256_set1_epi32(QUILL_MLDSA_QINV));
}

AVX2 static inline __m256i ld(const int32_t *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}

AVX2 static inline void st(int32_t *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)p, v);
}

/* Forward butterflies over n lanes (n a multiple of 8), one zeta or a
 * vector of them. */
AVX2 static inline void fwd_run(int32_t *lo, int32_t *hi, int32_t zeta, unsigned n) {
    const __m256i z = _mm256_set1_epi32(zeta), zq = times_qinv(z);
    for (unsigned j = 0; j < n; j += 8) {
        __m256i t = montmul(ld(hi + j), z, zq), l = ld(lo + j);
        st(hi + j, _mm256_sub_epi32(l, t));
        st(lo + j, _mm256_add_epi32(l, t));
    }
}

AVX2 static inline void inv_run(int32_t *lo, int32_t *hi, int32_t zeta, unsigned n) {
    const __m256i z = _mm256_set1_epi32(zeta), zq = times_qinv(z);
    for (unsigned j = 0; j < n; j += 8) {
        __m256i l = ld(lo + j), h = ld(hi + j);
        st(lo + j, _mm256_add_epi32(l, h));
        st(hi + j, montmul(_mm256_sub_epi32(l, h), z, zq));
    }
}

/* 8 x 8 transpose of 32-bit values in eight registers: r[i] element j ->
 * r[j] element i (unpack pairs, then quadruples, then swap 128-bit
 * halves). */
AVX2 static inline void transpose8(__m256i r[8]) {
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

/* One butterfly on registers, forward (lo + z hi, lo - z hi) and inverse
 * (lo + hi, z (lo - hi)), z a vector of zetas. */
AVX2 static inline void fwd_reg(__m256i *lo, __m256i *hi, __m256i z) {
    __m256i t = montmul(*hi, z, times_qinv(z));
    *hi = _mm256_sub_epi32(*lo, t);
    *lo = _mm256_add_epi32(*lo, t);
}

AVX2 static inline void inv_reg(__m256i *lo, __m256i *hi, __m256i z) {
    __m256i l = *lo;
    *lo = _mm256_add_epi32(l, *hi);
    *hi = montmul(_mm256_sub_epi32(l, *hi), z, times_qinv(z));
}

AVX2 void quill_mldsa_ntt_avx2(int32_t a[QUILL_MLDSA_N]) {
    unsigned k = 0;
    for (unsigned len = 128; len >= 8; len >>= 1)
        for (unsigned start = 0; start < QUILL_MLDSA_N; start += 2 * len)
            fwd_run(a + start, a + start + len, quill_mldsa_zetas[++k], len);
    /* Per chunk of 64: load the 8 blocks, transpose so that r[p] holds
     * position p of the 8 blocks, run the last three levels in registers,
     * store row p at 8p (see ntt.c). */
    for (unsigned g = 0; g < 4; g++) {
        int32_t *c = a + 64 * g;
        __m256i r[8];
        for (unsigned i = 0; i < 8; i++)
            r[i] = ld(c + 8 * i);
        transpose8(r);
        for (unsigned p = 0; p < 4; p++)
            fwd_reg(&r[p], &r[p + 4], ld(quill_mldsa_zetas_rows[0] + 8 * g));
        for (unsigned s = 0; s < 2; s++)
            for (unsigned p = 4 * s; p < 4 * s + 2; p++)
                fwd_reg(&r[p], &r[p + 2], ld(quill_mldsa_zetas_rows[1 + s] + 8 * g));
        for (unsigned s = 0; s < 4; s++)
            fwd_reg(&r[2 * s], &r[2 * s + 1], ld(quill_mldsa_zetas_rows[3 + s] + 8 * g));
        for (unsigned p = 0; p < 8; p++)
            st(c + 8 * p, r[p]);
    }
}

AVX2 void quill_mldsa_invntt_tomont_avx2(int32_t a[QUILL_MLDSA_N]) {
    for (unsigned g = 0; g < 4; g++) {
        int32_t *c = a + 64 * g;
        __m256i r[8];
        for (unsigned p = 0; p < 8; p++)
            r[p] = ld(c + 8 * p);
        for (unsigned s = 0; s < 4; s++)
            inv_reg(&r[2 * s], &r[2 * s + 1], ld(quill_mldsa_zetas_inv_rows[3 + s] + 8 * g));
        for (unsigned s = 0; s < 2; s++)
            for (unsigned p = 4 * s; p < 4 * s + 2; p++)
                inv_reg(&r[p], &r[p + 2], ld(quill_mldsa_zetas_inv_rows[1 + s] + 8 * g));
        for (unsigned p = 0; p < 4; p++)
            inv_reg(&r[p], &r[p + 4], ld(quill_mldsa_zetas_inv_rows[0] + 8 * g));
        transpose8(r);
        for (unsigned i = 0; i < 8; i++)
            st(c + 8 * i, r[i]);
    }
    unsigned k = 32;
    for (unsigned len = 8; len < QUILL_MLDSA_N; len <<= 1)
        for (unsigned start = 0; start < QUILL_MLDSA_N; start += 2 * len)
            inv_run(a + start, a + start + len, -quill_mldsa_zetas[--k], len);
    const __m256i f = _mm256_set1_epi32(INVNTT_F), fq = times_qinv(f);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 8)
        st(a + i, montmul(ld(a + i), f, fq));
}

AVX2 void quill_mldsa_pointwise_mont_avx2(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                          const int32_t b[QUILL_MLDSA_N]) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 8) {
        __m256i vb = ld(b + i);
        st(c + i, montmul(ld(a + i), vb, times_qinv(vb)));
    }
}

AVX2 void quill_mldsa_pointwise_acc_mont_avx2(int32_t c[QUILL_MLDSA_N],
                                              const int32_t a[QUILL_MLDSA_N],
                                              const int32_t b[QUILL_MLDSA_N]) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 8) {
        __m256i vb = ld(b + i);
        st(c + i, _mm256_add_epi32(ld(c + i), montmul(ld(a + i), vb, times_qinv(vb))));
    }
}
#endif
