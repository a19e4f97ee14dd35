/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RejBoundedPoly's parsers (FIPS 204, Algorithm 31 with CoeffFromHalfByte,
 * Algorithm 15: the bounded sampling of ExpandS, eta = 2 or 4; sample.h):
 * the portable parser (quill_mldsa_rej_eta_c) and its AVX2 + BMI2 twin
 * (quill_mldsa_rej_eta_avx2, same output); sample.c feeds them the
 * SHAKE256 streams and chooses between them.
 *
 * The candidates of byte i of the stream are half-bytes 2i (low) and 2i + 1
 * (high), in that order.  Each value is stored at the running count n of
 * kept ones and n advances by its accept bit, or, with BMI2, the kept ones
 * of eight candidates are packed first and stored together.  The accept
 * bits are declassified (sample.h: which candidates were rejected says
 * nothing about the kept values); values are never branched on or used as
 * an index.  The loops take eight candidates per step while eight more
 * values fit (no bound check per value), then one byte at a time; the
 * AVX2 one first takes 32 per step while 32 more fit (values from a
 * vpshufb table in a register: 196 -> 114 TSC ticks per eta = 2
 * polynomial and 139 -> 115 for eta = 4 on Zen 4, mldsa_kernels). */
#include "sample.h"

#include "common/compiler.h"
#include "common/ct.h"

/* Eight candidates at a time, one per byte of a 64-bit word, b in [0, 15]:
 *   - b + (0x80 - t) has its top bit set exactly when b >= t, and stays
 *     below 0x100 (b + 0x80 - t <= 0x8f), so no byte carries into the next;
 *   - the coefficient is formed as the byte 16 + value (REJ_ETA_OFFSET),
 *     which keeps every byte of the subtraction positive (no borrow): for
 *     eta = 4 (accept b < 9) the value is 4 - b, so 20 - b; for eta = 2
 *     (accept b < 15) it is 2 - (b mod 5), with b mod 5 = b - 5 [b >= 5] -
 *     5 [b >= 10] for b < 15, so 18 - b + 5 ([b >= 5] + [b >= 10]), in
 *     [3, 28].
 * The keep word has 0x80 in each accepted byte. */
#define REJ_ETA_ONES UINT64_C(0x0101010101010101)
#define REJ_ETA_HIGH UINT64_C(0x8080808080808080)
#define REJ_ETA_OFFSET 16

/* rej_eta_ge returns 0x80 in each byte of nib (bytes in [0, 15]) that is
 * >= t. */
QUILL_INLINE uint64_t rej_eta_ge(uint64_t nib, unsigned t) {
    return (nib + (0x80 - t) * REJ_ETA_ONES) & REJ_ETA_HIGH;
}

/* rej_eta_eval sets *keep and returns the offset values (see above) of the
 * eight candidates in nib.  eta is a compile-time constant at every use. */
QUILL_INLINE uint64_t rej_eta_eval(uint64_t nib, unsigned eta, uint64_t *keep) {
    if (eta == 2) {
        *keep = rej_eta_ge(nib, 15) ^ REJ_ETA_HIGH;
        uint64_t wraps = (rej_eta_ge(nib, 5) >> 7) + (rej_eta_ge(nib, 10) >> 7);
        return (REJ_ETA_OFFSET + 2) * REJ_ETA_ONES - nib + 5 * wraps;
    }
    *keep = rej_eta_ge(nib, 9) ^ REJ_ETA_HIGH;
    return (REJ_ETA_OFFSET + 4) * REJ_ETA_ONES - nib;
}

/* rej_eta_spread puts half-byte j of x (low half of byte 0 first) in byte
 * j of the result (what pdep with mask 0x0f0f...0f does). */
QUILL_INLINE uint64_t rej_eta_spread(uint32_t x) {
    uint64_t t = x;
    t = (t | (t << 16)) & UINT64_C(0x0000ffff0000ffff);
    t = (t | (t << 8)) & UINT64_C(0x00ff00ff00ff00ff);
    return (t | (t << 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
}

QUILL_INLINE uint32_t rej_eta_load32(const uint8_t *b) {
    return b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

/* rej_eta_emit stores the first m candidates of (vals, keep) from a[n] on,
 * each unconditionally, kept ones advancing n; returns the new n.  Needs
 * n + m <= 256. */
QUILL_INLINE unsigned rej_eta_emit(int32_t *a, unsigned n, uint64_t vals, uint64_t keep,
                                   unsigned m) {
    keep >>= 7;
    for (unsigned j = 0; j < m; j++) {
        a[n] = (int32_t)((vals >> (8 * j)) & 0xff) - REJ_ETA_OFFSET;
        n += (unsigned)(keep >> (8 * j)) & 1;
    }
    return n;
}

/* rej_eta_tail finishes buf one byte (two candidates) at a time while
 * fewer than 256 are kept: what the eight-wide loops leave. */
QUILL_INLINE unsigned rej_eta_tail(int32_t *a, unsigned n, const uint8_t *buf, size_t len,
                                   unsigned eta) {
    for (size_t i = 0; i < len && n < QUILL_MLDSA_N; i++) {
        uint64_t keep, vals = rej_eta_eval(rej_eta_spread(buf[i]), eta, &keep);
        keep = quill_ct_declassify_w(keep);
        n = rej_eta_emit(a, n, vals, keep, 1);
        if (n < QUILL_MLDSA_N) /* public: the count */
            n = rej_eta_emit(a, n, vals >> 8, keep >> 8, 1);
    }
    return n;
}

/* The portable loops.  For eta = 2 the word form above; for eta = 4 one
 * candidate at a time is as fast (measured on Zen 4: the word form saves
 * less in the evaluation than the unpacking of the word costs). */
QUILL_INLINE unsigned rej_eta_body_c(int32_t *a, unsigned n, const uint8_t *buf, size_t len,
                                     unsigned eta) {
    size_t i = 0;
    if (eta == 2) {
        for (; n <= QUILL_MLDSA_N - 8 && i + 4 <= len; i += 4) {
            uint64_t keep, vals = rej_eta_eval(rej_eta_spread(rej_eta_load32(buf + i)), 2, &keep);
            n = rej_eta_emit(a, n, vals, quill_ct_declassify_w(keep), 8);
        }
    } else {
        for (; n <= QUILL_MLDSA_N - 8 && i + 4 <= len; i += 4)
            for (unsigned t = 0; t < 8; t++) {
                int32_t b = (buf[i + t / 2] >> (4 * (t & 1))) & 15;
                quill_word keep = quill_ct_declassify_w((quill_word)((b - 9) >> 31) & 1);
                a[n] = 4 - b;
                n += (unsigned)keep;
            }
    }
    return rej_eta_tail(a, n, buf + i, len - i, eta);
}

unsigned quill_mldsa_rej_eta_c(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len, unsigned eta) {
    return eta == 2 ? rej_eta_body_c(a, n, buf, len, 2) : rej_eta_body_c(a, n, buf, len, 4);
}

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* rej_eta_emit8_avx2 appends the kept ones of eight candidates: vals
 * holds their values as signed bytes, keep8 (public) their accept bits;
 * pext packs the kept bytes to the bottom under the mask made from keep8,
 * vpmovsxbd widens them, one store writes all eight (the caller keeps
 * n <= 248). */
__attribute__((target("avx2,bmi2"))) static inline unsigned
rej_eta_emit8_avx2(int32_t *a, unsigned n, uint64_t vals, unsigned keep8) {
    uint64_t packed = _pext_u64(vals, _pdep_u64(keep8, REJ_ETA_ONES) * 0xff);
    _mm256_storeu_si256((__m256i *)(void *)(a + n),
                        _mm256_cvtepi8_epi32(_mm_cvtsi64_si128((long long)packed)));
    return n + (unsigned)__builtin_popcount(keep8);
}

/* The 32 candidates of the 16 bytes of b: the half-bytes split and
 * interleaved in order (vpunpck[lh]bw), their values looked up with
 * vpshufb in a 16-entry table held in a register (a permutation of
 * register bytes, no memory access: constant time in the index) into v[0]
 * (candidates 0..15) and v[1] (16..31), and the accept bits from one
 * signed comparison per 16 in k[0] and k[1] (still secret: the callers
 * declassify them).  Table entries of rejected candidates are never kept:
 * 0. */
__attribute__((target("avx2"), always_inline)) static inline void
rej_eta_split(__m128i b, unsigned eta, __m128i v[2], quill_word k[2]) {
    const __m128i table =
        eta == 2 ? _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0)
                 : _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
    const __m128i bound = _mm_set1_epi8(eta == 2 ? 15 : 9), low4 = _mm_set1_epi8(15);
    __m128i lo = _mm_and_si128(b, low4), hi = _mm_and_si128(_mm_srli_epi16(b, 4), low4);
    __m128i c0 = _mm_unpacklo_epi8(lo, hi), c1 = _mm_unpackhi_epi8(lo, hi);
    v[0] = _mm_shuffle_epi8(table, c0);
    v[1] = _mm_shuffle_epi8(table, c1);
    k[0] = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(bound, c0));
    k[1] = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(bound, c1));
}

/* rej_eta_split of the 16 bytes at buf. */
__attribute__((target("avx2"), always_inline)) static inline void
rej_eta_split16(const uint8_t *buf, unsigned eta, __m128i v[2], quill_word k[2]) {
    rej_eta_split(_mm_loadu_si128((const __m128i *)(const void *)buf), eta, v, k);
}

/* The same with AVX2 + BMI2, eight candidates per step: pdep spreads the
 * half-bytes, pext packs the kept value bytes to the bottom, vpmovzxbd
 * widens them for one 32-byte store, and n advances by the count (a
 * multiply sums the keep bits into the top byte; no POPCNT needed).
 * pext's mask is the declassified keep word, so even where its timing
 * depends on the mask (AMD before Zen 3) nothing secret shows. */
__attribute__((target("avx2,bmi2"))) static unsigned rej_eta_body_avx2(int32_t *a, unsigned n,
                                                                       const uint8_t *buf,
                                                                       size_t len, unsigned eta) {
    const __m256i offset = _mm256_set1_epi32(REJ_ETA_OFFSET);
    size_t i = 0;
    /* 32 candidates (16 bytes) per step while 32 more values fit
     * (rej_eta_split16; the accept bits declassified, as above). */
    for (; n <= QUILL_MLDSA_N - 32 && i + 16 <= len; i += 16) {
        __m128i v[2];
        quill_word k[2];
        rej_eta_split16(buf + i, eta, v, k);
        quill_word keep = k[0] | k[1] << 16;
        keep = quill_ct_declassify_w(keep);
        const uint64_t w[4] = {
            (uint64_t)_mm_cvtsi128_si64(v[0]), (uint64_t)_mm_extract_epi64(v[0], 1),
            (uint64_t)_mm_cvtsi128_si64(v[1]), (uint64_t)_mm_extract_epi64(v[1], 1)};
        for (unsigned g = 0; g < 4; g++)
            n = rej_eta_emit8_avx2(a, n, w[g], (unsigned)(keep >> (8 * g)) & 0xff);
    }
    for (; n <= QUILL_MLDSA_N - 8 && i + 4 <= len; i += 4) {
        uint64_t nib = _pdep_u64(rej_eta_load32(buf + i), UINT64_C(0x0f0f0f0f0f0f0f0f));
        uint64_t keep, vals = rej_eta_eval(nib, eta, &keep);
        keep = quill_ct_declassify_w(keep) >> 7;
        uint64_t packed = _pext_u64(vals, keep * 0xff);
        __m256i v = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)packed));
        _mm256_storeu_si256((__m256i *)(a + n), _mm256_sub_epi32(v, offset));
        n += (unsigned)((keep * REJ_ETA_ONES) >> 56);
    }
    return rej_eta_tail(a, n, buf + i, len - i, eta);
}

/* rej_eta_emit16_avx512vl appends the kept ones of the 16 candidates of
 * v (signed bytes) under kh (their accept bits, public), while a has room:
 * vpmovsxbd widens them to 16 dwords, vpcompressd packs the kept ones to
 * the front of the register (the form with a register destination: on
 * Zen 4 the one that stores to memory is slow), and a store masked to the
 * first min(popcount, 256 - n) of them writes them; returns the new n
 * (n <= 256 before and after).  The store never reaches past a[255]. */
__attribute__((target("avx512f,avx512vl,avx2,bmi2"), always_inline)) static inline unsigned
rej_eta_emit16_avx512vl(int32_t *a, unsigned n, __m128i v, quill_word kh) {
    const unsigned pc = (unsigned)__builtin_popcount((unsigned)kh), room = QUILL_MLDSA_N - n;
    const unsigned m = pc < room ? pc : room; /* public: counts */
    _mm512_mask_storeu_epi32((void *)(a + n), (__mmask16)((1u << m) - 1),
                             _mm512_maskz_compress_epi32((__mmask16)kh, _mm512_cvtepi8_epi32(v)));
    return n + m;
}

/* rej_eta_body_avx512vl is rej_eta_body_avx2 with the packing of the
 * 32-candidate steps done by AVX-512: each half of 16 value bytes is
 * widened to 16 dwords (vpmovsxbd zmm), compressed to the front of the
 * register under the declassified keep bits and stored whole while 32
 * more values fit; the same bits as before are declassified and used, now
 * as a mask register instead of pext's mask.  Past that, the same steps
 * with the store masked to the room left (rej_eta_emit16_avx512vl) run
 * until a is full, and a last 8 bytes (the end of a SHAKE256 block: 136 =
 * 8 * 16 + 8) are one more step of 16 candidates from an 8-byte load; the
 * four-byte and one-byte loops of rej_eta_body_avx2 take what is left
 * (nothing of a whole block).  Before, a block's last 40-odd values went
 * through those loops (pdep/pext eight at a time, then byte by byte):
 * 52 -> 48 TSC ticks per polynomial parsed block by block on Zen 4
 * (mldsa_kernels).  The masked steps are kept off the first part: their
 * count (n + min(popcount, room)) is a longer chain from one step to the
 * next, and with them throughout a polynomial took 64. */
__attribute__((target("avx512f,avx512vl,avx2,bmi2"))) static unsigned
rej_eta_body_avx512vl(int32_t *a, unsigned n, const uint8_t *buf, size_t len, unsigned eta) {
    size_t i = 0;
    __m128i v[2];
    quill_word k[2];
    for (; n <= QUILL_MLDSA_N - 32 && i + 16 <= len; i += 16) {
        rej_eta_split16(buf + i, eta, v, k);
        for (unsigned h = 0; h < 2; h++) {
            const quill_word kh = quill_ct_declassify_w(k[h]);
            _mm512_storeu_si512((void *)(a + n), _mm512_maskz_compress_epi32(
                                                     (__mmask16)kh, _mm512_cvtepi8_epi32(v[h])));
            n += (unsigned)__builtin_popcount((unsigned)kh);
        }
    }
    for (; n < QUILL_MLDSA_N && i + 16 <= len; i += 16) {
        rej_eta_split16(buf + i, eta, v, k);
        n = rej_eta_emit16_avx512vl(a, n, v[0], quill_ct_declassify_w(k[0]));
        n = rej_eta_emit16_avx512vl(a, n, v[1], quill_ct_declassify_w(k[1]));
    }
    if (n < QUILL_MLDSA_N && i + 8 <= len) {
        /* The upper 8 bytes are zero: their 16 candidates (in v[1], k[1])
         * are not used. */
        rej_eta_split(_mm_loadl_epi64((const __m128i *)(const void *)(buf + i)), eta, v, k);
        n = rej_eta_emit16_avx512vl(a, n, v[0], quill_ct_declassify_w(k[0]));
        i += 8;
    }
    return n < QUILL_MLDSA_N ? rej_eta_body_avx2(a, n, buf + i, len - i, eta) : n;
}

__attribute__((target("avx512f,avx512vl,avx2,bmi2"))) unsigned
quill_mldsa_rej_eta_avx512vl(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf, size_t len,
                             unsigned eta) {
    return eta == 2 ? rej_eta_body_avx512vl(a, n, buf, len, 2)
                    : rej_eta_body_avx512vl(a, n, buf, len, 4);
}

__attribute__((target("avx2,bmi2"))) unsigned quill_mldsa_rej_eta_avx2(int32_t a[QUILL_MLDSA_N],
                                                                      unsigned n,
                                                                      const uint8_t *buf,
                                                                      size_t len, unsigned eta) {
    return eta == 2 ? rej_eta_body_avx2(a, n, buf, len, 2) : rej_eta_body_avx2(a, n, buf, len, 4);
}
#endif
