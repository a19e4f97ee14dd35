/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RejNTTPoly's parsers (FIPS 204, Algorithm 30, the uniform rejection
 * sampling of ExpandA; sample.h): 3-byte candidates, the top bit dropped,
 * accepted below q, appended in natural order.  The portable parser
 * (quill_mldsa_rej_ntt_c) and its AVX2 + BMI2 twin (quill_mldsa_rej_ntt_avx2,
 * same output); sample.c feeds them the SHAKE128 streams and chooses
 * between them.  Also the move of the sampled values into quill's NTT
 * order (quill_mldsa_rej_ntt_order, portable and AVX2).  Everything here is
 * public (A is part of the public key), so variable time is fine. */
#include "sample.h"

#include <string.h>

#include "common/compiler.h"

QUILL_INLINE uint32_t rej_ntt_candidate(const uint8_t *b) {
    return b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)(b[2] & 0x7f) << 16);
}

/* rej_ntt_candidate_wide is rej_ntt_candidate reading b[0..3] (one 32-bit
 * load on little-endian targets). */
QUILL_INLINE uint32_t rej_ntt_candidate_wide(const uint8_t *b) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, b, 4);
    return v & 0x7fffff;
#else
    return rej_ntt_candidate(b);
#endif
}

/* quill_mldsa_rej_ntt_c (sample.h): while eight more values fit and a byte
 * beyond the eighth candidate can be read, eight candidates at a time with
 * 32-bit loads.  A is public, so the acceptance is a branch: it is almost
 * always taken (a rejection has probability about 2^-10), which measured
 * faster on Zen 4 than advancing the count by the comparison. */
unsigned quill_mldsa_rej_ntt_c(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len) {
    size_t pos = 0;
    while (n <= QUILL_MLDSA_N - 8 && pos + 25 <= len)
        for (unsigned t = 0; t < 8; t++, pos += 3) {
            uint32_t v = rej_ntt_candidate_wide(buf + pos);
            if (v < QUILL_MLDSA_Q)
                c[n++] = (int32_t)v;
        }
    for (; pos + 3 <= len && n < QUILL_MLDSA_N; pos += 3) {
        uint32_t v = rej_ntt_candidate(buf + pos);
        if (v < QUILL_MLDSA_Q)
            c[n++] = (int32_t)v;
    }
    return n;
}

/* Entry i of the NTT vector goes to QUILL_MLDSA_NTT_POS(i): within each
 * chunk of 64, 8 x 8 transposed (written with constant strides so that it
 * compiles to straight-line moves); chunks first..3 only. */
void quill_mldsa_rej_ntt_order_c(int32_t a[QUILL_MLDSA_N], const int32_t c[QUILL_MLDSA_N],
                                 unsigned first) {
    for (unsigned g = 64 * first; g < QUILL_MLDSA_N; g += 64)
        for (unsigned i = 0; i < 8; i++)
            for (unsigned p = 0; p < 8; p++)
                a[g + 8 * p + i] = c[g + 8 * i + p];
}

/* quill_mldsa_rej_ntt_chunks_c: each chunk's 64 candidates decoded into
 * v, written to a only when none was rejected (a branch on public data). */
unsigned quill_mldsa_rej_ntt_chunks_c(int32_t a[QUILL_MLDSA_N], const uint8_t *buf, size_t len) {
    unsigned g = 0;
    for (; g < QUILL_MLDSA_N / 64 && QUILL_MLDSA_REJ_CHUNK_READ(g) <= len; g++) {
        const uint8_t *p = buf + QUILL_MLDSA_REJ_CHUNK_BYTES * g;
        uint32_t v[64], bad = 0;
        for (unsigned i = 0; i < 64; i++) {
            v[i] = rej_ntt_candidate_wide(p + 3 * i);
            bad |= (uint32_t)QUILL_MLDSA_Q - 1 - v[i]; /* top bit set iff v[i] >= q */
        }
        if (bad >> 31)
            break;
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++)
                a[64 * g + 8 * j + i] = (int32_t)v[8 * i + j];
    }
    return g;
}

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* The eight candidates of the 24 bytes at p (32 readable) spread to one
 * 32-bit lane each: vpermq moves bytes 8..23 to the upper half, vpshufb
 * picks three bytes per lane, the top bit is cleared. */
__attribute__((target("avx2"), always_inline)) static inline __m256i
rej_ntt_spread24(const uint8_t *p) {
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15,
                                            -1);
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    v = _mm256_permute4x64_epi64(v, 0x94); /* qwords 0, 1 | 1, 2 */
    return _mm256_and_si256(_mm256_shuffle_epi8(v, spread), _mm256_set1_epi32(0x7fffff));
}

/* Rows r_0..r_7 of a chunk (entries 8 i .. 8 i + 7 in r_i) stored 8 x 8
 * transposed at a (a's row p holds entry p of every r_i): interleaved by
 * pairs of dwords (vpunpck[lh]dq: r_2j and r_2j+1), then by pairs of
 * qwords (vpunpck[lh]qdq: rows 0-3 and 4-7 of columns p and p + 4 in the
 * two 128-bit halves), then the halves joined (vperm2i128). */
__attribute__((target("avx2"), always_inline)) static inline void
transpose8_store(int32_t *a, const __m256i r[8]) {
    __m256i t[8], u[8];
    for (unsigned j = 0; j < 4; j++) {
        t[2 * j] = _mm256_unpacklo_epi32(r[2 * j], r[2 * j + 1]);     /* cols 0 1 | 4 5 */
        t[2 * j + 1] = _mm256_unpackhi_epi32(r[2 * j], r[2 * j + 1]); /* cols 2 3 | 6 7 */
    }
    for (unsigned h = 0; h < 2; h++) { /* rows 0-3, then 4-7 */
        const __m256i *v = t + 4 * h;
        u[4 * h + 0] = _mm256_unpacklo_epi64(v[0], v[2]); /* col 0 | col 4 */
        u[4 * h + 1] = _mm256_unpackhi_epi64(v[0], v[2]); /* col 1 | col 5 */
        u[4 * h + 2] = _mm256_unpacklo_epi64(v[1], v[3]); /* col 2 | col 6 */
        u[4 * h + 3] = _mm256_unpackhi_epi64(v[1], v[3]); /* col 3 | col 7 */
    }
    for (unsigned p = 0; p < 4; p++) {
        _mm256_storeu_si256((__m256i *)(void *)(a + 8 * p),
                            _mm256_permute2x128_si256(u[p], u[4 + p], 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(a + 8 * (p + 4)),
                            _mm256_permute2x128_si256(u[p], u[4 + p], 0x31));
    }
}

/* quill_mldsa_rej_ntt_order_avx2: the same 8 x 8 transposes of 32-bit
 * values in registers (transpose8_store).  About a fifth of the portable
 * moves' time on Zen 4 (mldsa_kernels). */
__attribute__((target("avx2"))) void quill_mldsa_rej_ntt_order_avx2(int32_t a[QUILL_MLDSA_N],
                                                                    const int32_t c[QUILL_MLDSA_N],
                                                                    unsigned first) {
    for (unsigned g = 64 * first; g < QUILL_MLDSA_N; g += 64) {
        __m256i r[8];
        for (unsigned i = 0; i < 8; i++)
            r[i] = _mm256_loadu_si256((const __m256i *)(const void *)(c + g + 8 * i));
        transpose8_store(a + g, r);
    }
}

/* The four candidates of the 12 bytes at lo (16 readable) in the lower
 * 128-bit half and those at hi in the upper half, one 32-bit lane each:
 * two vbroadcasti128 loads (load ports only) joined by vpblendd (any ALU
 * port), vpshufb picks three bytes per lane, the top bit is cleared.  No
 * cross-lane shuffle, where rej_ntt_spread24 needs vpermq. */
__attribute__((target("avx2"), always_inline)) static inline __m256i
rej_ntt_spread12x2(const uint8_t *lo, const uint8_t *hi) {
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i *l = (const __m128i *)(const void *)lo, *h = (const __m128i *)(const void *)hi;
    const __m256i v = _mm256_blend_epi32(_mm256_broadcastsi128_si256(_mm_loadu_si128(l)),
                                         _mm256_broadcastsi128_si256(_mm_loadu_si128(h)), 0xf0);
    return _mm256_and_si256(_mm256_shuffle_epi8(v, spread), _mm256_set1_epi32(0x7fffff));
}

/* x[0..3] transposed 4 x 4 within each 128-bit half (two stages of
 * vpunpck: dwords, then qwords) and stored at a, 8 dwords apart: row j of
 * the output holds entry j of each x[i]'s lower half, then entry j of
 * each upper half. */
__attribute__((target("avx2"), always_inline)) static inline void
transpose4x2_store(int32_t *a, const __m256i x[4]) {
    const __m256i t0 = _mm256_unpacklo_epi32(x[0], x[1]); /* x0[0] x1[0] x0[1] x1[1] */
    const __m256i t1 = _mm256_unpackhi_epi32(x[0], x[1]); /* x0[2] x1[2] x0[3] x1[3] */
    const __m256i t2 = _mm256_unpacklo_epi32(x[2], x[3]);
    const __m256i t3 = _mm256_unpackhi_epi32(x[2], x[3]);
    _mm256_storeu_si256((__m256i *)(void *)(a + 0), _mm256_unpacklo_epi64(t0, t2));
    _mm256_storeu_si256((__m256i *)(void *)(a + 8), _mm256_unpackhi_epi64(t0, t2));
    _mm256_storeu_si256((__m256i *)(void *)(a + 16), _mm256_unpacklo_epi64(t1, t3));
    _mm256_storeu_si256((__m256i *)(void *)(a + 24), _mm256_unpackhi_epi64(t1, t3));
}

/* quill_mldsa_rej_ntt_chunks_avx2: a chunk's 64 candidates (entry 8 i + p
 * at bytes 24 i + 3 p) spread to eight registers already grouped for the
 * NTT order, lo[i] = entries 8 i .. 8 i + 3 | 8 (i + 4) .. 8 (i + 4) + 3
 * and hi[i] the same plus 4 (i = 0..3; rej_ntt_spread12x2, the last
 * window reads 4 bytes past the chunk), their unsigned maximum compared
 * with q once, and, when all 64 are accepted, two in-lane 4 x 4
 * transposes give rows 0-3 (from lo) and 4-7 (from hi) of the chunk's
 * 8 x 8 transpose: 24 shuffles per chunk against 40 with
 * rej_ntt_spread24 and transpose8_store (vpermq per group, a third
 * transpose stage joining the halves); Zen 4 runs two shuffles per cycle,
 * which bound this loop.  The parser's packing and stores and the
 * reordering's loads are left out.  Public data: the branch on the
 * comparison is fine. */
__attribute__((target("avx2"))) unsigned quill_mldsa_rej_ntt_chunks_avx2(int32_t a[QUILL_MLDSA_N],
                                                                        const uint8_t *buf,
                                                                        size_t len) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    unsigned g = 0;
    for (; g < QUILL_MLDSA_N / 64 && QUILL_MLDSA_REJ_CHUNK_READ(g) <= len; g++) {
        const uint8_t *p = buf + QUILL_MLDSA_REJ_CHUNK_BYTES * g;
        __m256i lo[4], hi[4];
        for (unsigned i = 0; i < 4; i++) {
            lo[i] = rej_ntt_spread12x2(p + 24 * i, p + 24 * (i + 4));
            hi[i] = rej_ntt_spread12x2(p + 24 * i + 12, p + 24 * (i + 4) + 12);
        }
        __m256i m = _mm256_max_epu32(_mm256_max_epu32(lo[0], lo[1]),
                                     _mm256_max_epu32(lo[2], lo[3]));
        m = _mm256_max_epu32(m, _mm256_max_epu32(_mm256_max_epu32(hi[0], hi[1]),
                                                 _mm256_max_epu32(hi[2], hi[3])));
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, m))) != 0xff)
            break;
        transpose4x2_store(a + 64 * g, lo);
        transpose4x2_store(a + 64 * g + 32, hi);
    }
    return g;
}

/* quill_mldsa_rej_ntt_avx2: eight candidates per step while 32 bytes
 * can be loaded and eight more values fit: the 24 bytes are spread to one
 * 32-bit lane per candidate (vpermq moves bytes 8..23 to the upper half,
 * vpshufb picks three bytes per lane), the accepted lanes are packed to
 * the front with vpermd on indices made by pdep/pext from the comparison
 * mask, and all eight are stored (c has room while n <= 248).  A step
 * that keeps all eight (each candidate is rejected with probability
 * 8191 / 2^23, so 99.2% of them) stores them as they are: a branch on
 * public data, mispredicted about once per polynomial, that skips the
 * six instructions of the packing (130 -> 106 TSC ticks per polynomial on
 * Zen 4, mldsa_kernels).  A is public, so the variable-time packing is
 * fine; the scalar loop finishes the block. */
__attribute__((target("avx2,bmi2"))) unsigned quill_mldsa_rej_ntt_avx2(int32_t c[QUILL_MLDSA_N],
                                                                      unsigned n,
                                                                      const uint8_t *buf,
                                                                      size_t len) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    size_t pos = 0;
    while (n <= QUILL_MLDSA_N - 8 && pos + 32 <= len) {
        __m256i v = rej_ntt_spread24(buf + pos);
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v)));
        pos += 24;
        if (mask == 0xff) {
            _mm256_storeu_si256((__m256i *)(c + n), v);
            n += 8;
            continue;
        }
        /* Hide the mask's value on this path: otherwise the compiler
         * folds the packing for mask 0xff into the identity, finds both
         * paths equal and merges them back into one branch-free body. */
        __asm__("" : "+r"(mask));
        uint64_t lanes = _pdep_u64(mask, 0x0101010101010101u) * 0xff;
        uint64_t idx = _pext_u64(0x0706050403020100u, lanes);
        __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx));
        _mm256_storeu_si256((__m256i *)(c + n), _mm256_permutevar8x32_epi32(v, perm));
        n += (unsigned)__builtin_popcount(mask);
    }
    return quill_mldsa_rej_ntt_c(c, n, buf + pos, len - pos);
}
/* quill_mldsa_rej_ntt_avx512vl: quill_mldsa_rej_ntt_avx2's steps with the
 * comparison into a mask register and the accepted lanes packed by
 * vpcompressd to a register (no branch, no pdep/pext; on Zen 4 the form
 * that compresses straight to memory is slow), then stored whole; two
 * steps (16 candidates, 48 bytes) per iteration while 56 bytes can be
 * loaded and 16 more values fit, then the AVX2 twin finishes.  Public
 * data. */
__attribute__((target("avx512f,avx512vl,avx2,bmi2"))) unsigned
quill_mldsa_rej_ntt_avx512vl(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                             size_t len) {
    const __m256i q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    size_t pos = 0;
    for (; n <= QUILL_MLDSA_N - 16 && pos + 56 <= len; pos += 48) {
        __m256i v0 = rej_ntt_spread24(buf + pos), v1 = rej_ntt_spread24(buf + pos + 24);
        __mmask8 m0 = _mm256_cmpgt_epi32_mask(q, v0), m1 = _mm256_cmpgt_epi32_mask(q, v1);
        _mm256_storeu_si256((__m256i *)(void *)(c + n), _mm256_maskz_compress_epi32(m0, v0));
        n += (unsigned)__builtin_popcount(m0);
        _mm256_storeu_si256((__m256i *)(void *)(c + n), _mm256_maskz_compress_epi32(m1, v1));
        n += (unsigned)__builtin_popcount(m1);
    }
    return quill_mldsa_rej_ntt_avx2(c, n, buf + pos, len - pos);
}
#endif
