/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * AVX2 twins of three packers of key generation (pack.h; FIPS 204,
 * Algorithms 16 and 17): SimpleBitPack(t1, 2^10 - 1), BitPack(t0, 2^12 - 1,
 * 2^12) and BitPack(s, 2, 2).  Same bytes as pack.c's portable forms, which
 * test_mldsa_arith compares with the generic packer at every CPU level.
 * t0 and s are secret: no branch or address here depends on a coefficient
 * (the loops and stores are fixed; pext's mask is a constant, so its
 * timing, which on some AMD cores depends on the mask, says nothing).
 *
 * Bytes at and past the end of an encoding are never written: the last
 * group of each loop stores only the bytes that belong to it.
 *
 * On Zen 4 (mldsa_kernels, TSC ticks per polynomial, portable form ->
 * this): t1 136 -> 48, t0 171 -> 72, eta = 2 167 -> 52. */
#include "pack.h"

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>
#include <string.h>

/* sixteen_u16 loads c[0..15] (each in [0, 2^16) after off - c, or c as is
 * when neg is 0) as 16-bit lanes in natural order: vpackusdw interleaves
 * the two loads by 128-bit halves, vpermq 0xd8 undoes it. */
__attribute__((target("avx2"))) static inline __m256i sixteen_u16(const int32_t *c,
                                                                 __m256i off, int neg) {
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)c);
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 8));
    if (neg) {
        a0 = _mm256_sub_epi32(off, a0);
        a1 = _mm256_sub_epi32(off, a1);
    }
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(a0, a1), 0xd8);
}

/* t1 (10 bits): sixteen coefficients per step, eight per 128-bit half.
 * vpmaddwd by (1, 2^10) joins pairs into 20 bits per dword; shifting the
 * even dwords up by 12 and each qword down by 12 joins pairs of those into
 * 40 bits (5 bytes) per qword; vpshufb gathers the 2 x 5 bytes of each
 * half to its front.  Each half's 10 bytes are stored as 8 + 2. */
__attribute__((target("avx2"))) void
quill_mldsa_poly_pack_t1_avx2(uint8_t out[QUILL_MLDSA_T1_BYTES], const int32_t c[QUILL_MLDSA_N]) {
    const __m256i join10 = _mm256_set1_epi32(1 + (1 << (10 + 16)));
    const __m256i up = _mm256_setr_epi32(12, 0, 12, 0, 12, 0, 12, 0);
    const __m256i gather =
        _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1, /* low half */
                         0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 16, c += 16, out += 20) {
        __m256i v = _mm256_madd_epi16(sixteen_u16(c, _mm256_setzero_si256(), 0), join10);
        v = _mm256_srli_epi64(_mm256_sllv_epi32(v, up), 12);
        v = _mm256_shuffle_epi8(v, gather);
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        uint16_t t;
        _mm_storel_epi64((__m128i *)(void *)out, lo);
        t = (uint16_t)_mm_extract_epi16(lo, 4);
        memcpy(out + 8, &t, 2);
        _mm_storel_epi64((__m128i *)(void *)(out + 10), hi);
        t = (uint16_t)_mm_extract_epi16(hi, 4);
        memcpy(out + 18, &t, 2);
    }
}

/* t0 (2^12 - t0 in 13 bits): sixteen per step.  vpmaddwd by (1, 2^13)
 * joins pairs into 26 bits per dword; the four dwords of a half go to bit
 * offsets 0, 26, 52 and 78, that is bytes 0, 3, 6 and 9 shifted by 0, 2,
 * 4 and 6 bits: vpsllvd makes the shifts (26 + 6 <= 32), one vpshufb
 * places dwords 0 and 2, another 1 and 3, and an OR merges the bytes they
 * share (3, 6 and 9).  Each half's 13 bytes are stored as 8 + 4 + 1. */
__attribute__((target("avx2"))) void
quill_mldsa_poly_pack_t0_avx2(uint8_t out[QUILL_MLDSA_T0_BYTES], const int32_t c[QUILL_MLDSA_N]) {
    const __m256i half = _mm256_set1_epi32(1 << (QUILL_MLDSA_D - 1));
    const __m256i join13 = _mm256_set1_epi32(1 + (1 << (13 + 16)));
    const __m256i shifts = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256i even =
        _mm256_setr_epi8(0, 1, 2, 3, -1, -1, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, /* d0, d2 */
                         0, 1, 2, 3, -1, -1, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1);
    const __m256i odd =
        _mm256_setr_epi8(-1, -1, -1, 4, 5, 6, 7, -1, -1, 12, 13, 14, 15, -1, -1, -1, /* d1, d3 */
                         -1, -1, -1, 4, 5, 6, 7, -1, -1, 12, 13, 14, 15, -1, -1, -1);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 16, c += 16, out += 26) {
        __m256i v = _mm256_madd_epi16(sixteen_u16(c, half, 1), join13);
        v = _mm256_sllv_epi32(v, shifts);
        v = _mm256_or_si256(_mm256_shuffle_epi8(v, even), _mm256_shuffle_epi8(v, odd));
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        uint32_t w;
        _mm_storel_epi64((__m128i *)(void *)out, lo);
        w = (uint32_t)_mm_extract_epi32(lo, 2);
        memcpy(out + 8, &w, 4);
        out[12] = (uint8_t)_mm_extract_epi8(lo, 12);
        _mm_storel_epi64((__m128i *)(void *)(out + 13), hi);
        w = (uint32_t)_mm_extract_epi32(hi, 2);
        memcpy(out + 21, &w, 4);
        out[25] = (uint8_t)_mm_extract_epi8(hi, 12);
    }
}

/* eta = 2 (2 - s in 3 bits): 32 coefficients per step narrowed to the
 * bytes 2 - s_i, in [0, 4] (two signed-saturating packs, exact for
 * s_i in [-2, 2], and a dword permutation that undoes their 128-bit
 * interleaving), then the low 3 bits of each 8 bytes gathered by pext into
 * 24 bits; the four 24-bit groups are stored as 8 + 4 bytes. */
__attribute__((target("avx2,bmi2"))) void
quill_mldsa_poly_pack_eta2_avx2(uint8_t out[96], const int32_t c[QUILL_MLDSA_N]) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i two = _mm256_set1_epi8(2);
    const uint64_t low3 = UINT64_C(0x0707070707070707);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 32, c += 32, out += 12) {
        const __m256i *in = (const __m256i *)(const void *)c;
        __m256i b = _mm256_packs_epi16(
            _mm256_packs_epi32(_mm256_loadu_si256(in), _mm256_loadu_si256(in + 1)),
            _mm256_packs_epi32(_mm256_loadu_si256(in + 2), _mm256_loadu_si256(in + 3)));
        b = _mm256_sub_epi8(two, _mm256_permutevar8x32_epi32(b, order));
        __m128i lo = _mm256_castsi256_si128(b), hi = _mm256_extracti128_si256(b, 1);
        uint64_t p0 = _pext_u64((uint64_t)_mm_cvtsi128_si64(lo), low3);
        uint64_t p1 = _pext_u64((uint64_t)_mm_extract_epi64(lo, 1), low3);
        uint64_t p2 = _pext_u64((uint64_t)_mm_cvtsi128_si64(hi), low3);
        uint64_t p3 = _pext_u64((uint64_t)_mm_extract_epi64(hi, 1), low3);
        uint64_t w0 = p0 | (p1 << 24) | (p2 << 48);
        uint32_t w1 = (uint32_t)((p2 >> 16) | (p3 << 8));
        memcpy(out, &w0, 8);
        memcpy(out + 8, &w1, 4);
    }
}
#endif
