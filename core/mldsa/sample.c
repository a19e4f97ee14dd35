/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  FIPS 204, section 7.3: sampling. */
#include "sample.h"

#include <string.h>

#include "common/cpu.h"
#include "common/ct.h"
#include "common/zeroize.h"
#include "ntt.h"
#include "pack.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"

/* The samplers take up to four streams at a time: two or more go through
 * the four-way SHAKE (sha3_x4.h), which pays from two streams on, with AVX2
 * (one four-way permutation costs about a scalar one) and on the portable
 * two-way vector code (which then permutes only the two states in use:
 * about 1.35 scalar permutations); a single stream uses the scalar sponge. */

/* RejNTTPoly (Algorithm 30): 3-byte candidates, the top bit dropped,
 * accepted below q.  Five SHAKE128 blocks give 280 candidates, enough for
 * 256 unless more than 24 are rejected (each is rejected with probability
 * 8191 / 2^23, about 2^-10); further blocks are drawn one at a time.
 * Accepted values go to a staging array in natural order and are moved to
 * quill's NTT order (QUILL_MLDSA_NTT_POS) at the end.  Everything here is
 * public (A is part of the public key). */
#define REJ_NTT_BLOCKS 5

typedef struct rej_stage {
    int32_t c[QUILL_MLDSA_N];
    unsigned n;
} rej_stage;

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

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* quill_mldsa_rej_ntt_avx2: eight candidates per step while 32 bytes
 * can be loaded and eight more values fit: the 24 bytes are spread to one
 * 32-bit lane per candidate (vpermq moves bytes 8..23 to the upper half,
 * vpshufb picks three bytes per lane), the accepted lanes are packed to
 * the front with vpermd on indices made by pdep/pext from the comparison
 * mask, and all eight are stored (c has room while n <= 248).  A is
 * public, so the variable-time packing is fine; the scalar loop finishes
 * the block. */
__attribute__((target("avx2,bmi2"))) unsigned quill_mldsa_rej_ntt_avx2(int32_t c[QUILL_MLDSA_N],
                                                                      unsigned n,
                                                                      const uint8_t *buf,
                                                                      size_t len) {
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15,
                                            -1);
    const __m256i low23 = _mm256_set1_epi32(0x7fffff), q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    size_t pos = 0;
    while (n <= QUILL_MLDSA_N - 8 && pos + 32 <= len) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(buf + pos));
        v = _mm256_permute4x64_epi64(v, 0x94); /* qwords 0, 1 | 1, 2 */
        v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), low23);
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v)));
        uint64_t lanes = _pdep_u64(mask, 0x0101010101010101u) * 0xff;
        uint64_t idx = _pext_u64(0x0706050403020100u, lanes);
        __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx));
        _mm256_storeu_si256((__m256i *)(c + n), _mm256_permutevar8x32_epi32(v, perm));
        n += (unsigned)__builtin_popcount(mask);
        pos += 24;
    }
    return quill_mldsa_rej_ntt_c(c, n, buf + pos, len - pos);
}

int quill_mldsa_rej_ntt_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2);
}
#else
int quill_mldsa_rej_ntt_avx2_capable(void) {
    return 0;
}
#endif

/* The parser is chosen once per ExpandA (the CPU bits are a function call
 * away). */
typedef unsigned (*rej_ntt_fn)(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len);

static rej_ntt_fn rej_ntt_pick(void) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_ntt_avx2_capable())
        return quill_mldsa_rej_ntt_avx2;
#endif
    return quill_mldsa_rej_ntt_c;
}

/* Entry i of the NTT vector goes to QUILL_MLDSA_NTT_POS(i): within each
 * chunk of 64, 8 x 8 transposed (written with constant strides so that it
 * compiles to straight-line moves). */
static void rej_ntt_finish(quill_mldsa_poly *a, const rej_stage *st) {
    for (unsigned g = 0; g < QUILL_MLDSA_N; g += 64)
        for (unsigned i = 0; i < 8; i++)
            for (unsigned p = 0; p < 8; p++)
                a->c[g + 8 * p + i] = st->c[g + 8 * i + p];
}

static void rej_ntt_poly(quill_mldsa_poly *a, const uint8_t seed[34], rej_ntt_fn parse) {
    uint8_t buf[REJ_NTT_BLOCKS * QUILL_SHAKE128_RATE];
    rej_stage st = {.n = 0};
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, seed, 34);
    quill_keccak_squeeze_blocks(&k, buf, REJ_NTT_BLOCKS);
    st.n = parse(st.c, st.n, buf, sizeof(buf));
    while (st.n < QUILL_MLDSA_N) { /* 168 = 3 * 56: blocks hold whole candidates */
        quill_keccak_squeeze_blocks(&k, buf, 1);
        st.n = parse(st.c, st.n, buf, QUILL_SHAKE128_RATE);
    }
    rej_ntt_finish(a, &st);
}

/* Up to four RejNTTPoly at once on the four-way Keccak (unused lanes
 * repeat the first seed and are discarded). */
static void rej_ntt_poly_x4(quill_mldsa_poly *const a[4], const uint8_t seeds[4][34],
                            unsigned count, rej_ntt_fn parse) {
    static const unsigned blk = REJ_NTT_BLOCKS * QUILL_SHAKE128_RATE;
    uint8_t buf[4][REJ_NTT_BLOCKS * QUILL_SHAKE128_RATE];
    rej_stage st[4];
    quill_keccak_x4 k;
    const uint8_t *in[4];
    unsigned done = 0;
    for (unsigned j = 0; j < 4; j++) {
        in[j] = seeds[j < count ? j : 0];
        st[j].n = 0;
    }
    quill_shake128_x4_absorb_once(&k, in[0], in[1], in[2], in[3], 34);
    k.n = count;
    quill_keccak_x4_squeeze_blocks(&k, buf[0], buf[1], buf[2], buf[3], REJ_NTT_BLOCKS);
    for (size_t len = blk; done < count; len = QUILL_SHAKE128_RATE) {
        if (len != blk)
            quill_keccak_x4_squeeze_blocks(&k, buf[0], buf[1], buf[2], buf[3], 1);
        done = 0;
        for (unsigned j = 0; j < count; j++) {
            st[j].n = parse(st[j].c, st[j].n, buf[j], len);
            done += st[j].n == QUILL_MLDSA_N;
        }
    }
    for (unsigned j = 0; j < count; j++)
        rej_ntt_finish(a[j], &st[j]);
}

void quill_mldsa_expand_a(quill_mldsa_poly *a, const uint8_t rho[32], const quill_mldsa_params *p) {
    const unsigned total = p->k * p->l;
    const rej_ntt_fn parse = rej_ntt_pick();
    uint8_t seeds[4][34];
    quill_mldsa_poly *polys[4];
    for (unsigned e = 0; e < total;) {
        unsigned count = total - e < 4 ? total - e : 4;
        for (unsigned j = 0; j < count; j++) {
            unsigned r = (e + j) / p->l, s = (e + j) % p->l;
            memcpy(seeds[j], rho, 32);
            seeds[j][32] = (uint8_t)s; /* rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) */
            seeds[j][33] = (uint8_t)r;
            polys[j] = &a[e + j];
        }
        if (count == 1)
            rej_ntt_poly(polys[0], seeds[0], parse);
        else
            rej_ntt_poly_x4(polys, (const uint8_t(*)[34])seeds, count, parse);
        e += count;
    }
}

/* RejBoundedPoly (Algorithm 31) with CoeffFromHalfByte (Algorithm 15).
 * The candidates of byte i of the stream are half-bytes 2i (low) and 2i + 1
 * (high), in that order.  Each value is stored at the running count n of
 * kept ones and n advances by its accept bit, or, with BMI2, the kept ones
 * of eight candidates are packed first and stored together.  The accept
 * bits are declassified (sample.h: which candidates were rejected says
 * nothing about the kept values); values are never branched on or used as
 * an index.  The loops take eight candidates per step while eight more
 * values fit (no bound check per value), then one byte at a time.
 *
 * Eight candidates at a time, one per byte of a 64-bit word, b in [0, 15]:
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

__attribute__((target("avx2,bmi2"))) unsigned quill_mldsa_rej_eta_avx2(int32_t a[QUILL_MLDSA_N],
                                                                      unsigned n,
                                                                      const uint8_t *buf,
                                                                      size_t len, unsigned eta) {
    return eta == 2 ? rej_eta_body_avx2(a, n, buf, len, 2) : rej_eta_body_avx2(a, n, buf, len, 4);
}

int quill_mldsa_rej_eta_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2);
}
#else
int quill_mldsa_rej_eta_avx2_capable(void) {
    return 0;
}
#endif

typedef unsigned (*rej_eta_fn)(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len, unsigned eta);

static rej_eta_fn rej_eta_pick(void) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_eta_avx2_capable())
        return quill_mldsa_rej_eta_avx2;
#endif
    return quill_mldsa_rej_eta_c;
}

static void rej_bounded_poly(quill_mldsa_poly *a, const uint8_t seed[66], unsigned eta,
                             rej_eta_fn parse) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, seed, 66);
    unsigned n = 0;
    while (n < QUILL_MLDSA_N) {
        quill_keccak_squeeze_blocks(&k, buf, 1);
        n = parse(a->c, n, buf, QUILL_SHAKE256_RATE, eta);
    }
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_zeroize(&k);
}

/* Up to four RejBoundedPoly at once (unused lanes repeat the first seed);
 * two blocks each to start with (544 candidates, 510 or 306 accepted on
 * average for eta = 2 or 4), then one more block for all four while any
 * needs it. */
static void rej_bounded_poly_x4(quill_mldsa_poly *const a[4], const uint8_t seeds[4][66],
                                unsigned count, unsigned eta, rej_eta_fn parse) {
    uint8_t buf[4][2 * QUILL_SHAKE256_RATE];
    quill_keccak_x4 st;
    const uint8_t *in[4];
    unsigned n[4] = {0, 0, 0, 0}, done = 0;
    for (unsigned j = 0; j < 4; j++)
        in[j] = seeds[j < count ? j : 0];
    quill_shake256_x4_absorb_once(&st, in[0], in[1], in[2], in[3], 66);
    st.n = count;
    quill_keccak_x4_squeeze_blocks(&st, buf[0], buf[1], buf[2], buf[3], 2);
    for (size_t len = sizeof(buf[0]); done < count; len = QUILL_SHAKE256_RATE) {
        if (len != sizeof(buf[0]))
            quill_keccak_x4_squeeze_blocks(&st, buf[0], buf[1], buf[2], buf[3], 1);
        done = 0;
        for (unsigned j = 0; j < count; j++) {
            n[j] = parse(a[j]->c, n[j], buf[j], len, eta);
            done += n[j] == QUILL_MLDSA_N;
        }
    }
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_x4_zeroize(&st);
}

void quill_mldsa_expand_s(quill_mldsa_poly *s1, quill_mldsa_poly *s2,
                          const uint8_t rhop[QUILL_MLDSA_CRH_BYTES], const quill_mldsa_params *p) {
    const unsigned total = p->l + p->k;
    const rej_eta_fn parse = rej_eta_pick();
    uint8_t seeds[4][66];
    quill_mldsa_poly *polys[4];
    for (unsigned r = 0; r < total;) {
        unsigned count = total - r < 4 ? total - r : 4;
        for (unsigned j = 0; j < count; j++) {
            memcpy(seeds[j], rhop, 64);
            seeds[j][64] = (uint8_t)(r + j); /* IntegerToBytes(r, 2) */
            seeds[j][65] = (uint8_t)((r + j) >> 8);
            polys[j] = r + j < p->l ? &s1[r + j] : &s2[r + j - p->l];
        }
        if (count == 1)
            rej_bounded_poly(polys[0], seeds[0], p->eta, parse);
        else
            rej_bounded_poly_x4(polys, (const uint8_t(*)[66])seeds, count, p->eta, parse);
        r += count;
    }
    quill_zeroize(seeds, sizeof(seeds));
}

void quill_mldsa_expand_mask(quill_mldsa_poly *y, const uint8_t rhopp[QUILL_MLDSA_CRH_BYTES],
                             unsigned first, unsigned n, const quill_mldsa_params *p) {
    /* 32 (gamma1_bits + 1) bytes per polynomial: 576 or 640, within 5
     * SHAKE256 blocks.  One stream at a time: signing draws these on the
     * four-way Keccak (mask.h), which test_mldsa_mask checks against this. */
    uint8_t buf[5 * QUILL_SHAKE256_RATE], seed[66];
    memcpy(seed, rhopp, 64);
    for (unsigned r = 0; r < n; r++) {
        seed[64] = (uint8_t)(first + r); /* IntegerToBytes(kappa + r, 2) */
        seed[65] = (uint8_t)((first + r) >> 8);
        quill_keccak k;
        quill_shake256_init(&k);
        quill_keccak_absorb(&k, seed, sizeof(seed));
        quill_keccak_squeeze_blocks(&k, buf, 5);
        quill_mldsa_poly_unpack_z(&y[r], buf, p);
        quill_keccak_zeroize(&k);
    }
    quill_zeroize(buf, sizeof(buf));
    quill_zeroize(seed, sizeof(seed));
}

/* SampleInBall (Algorithm 29): the first 8 bytes are tau sign bits, then
 * for i = 256 - tau .. 255 a position j <= i (a byte, rejected while
 * j > i) gets c_i = c_j, c_j = +-1.  Positions i are public, j and the
 * signs secret.
 *
 * Rather than move values in c, the tau nonzero entries are followed by
 * where they sit: entry t, made at step t, has a sign and a position
 * pos[t].  Step t moves the entry at j (if any) to i and puts entry t at
 * j; at the end c is the signs scattered to their positions.  Both halves
 * are masked passes over small byte vectors, so nothing is indexed by j:
 *  - the step compares the 64 positions with j (at most one real entry
 *    matches, positions being distinct) and sets those to i, then sets
 *    lane t to j.  Lanes not yet made hold 0xff, which j reaches only at
 *    the last step (i = 255), where moving them to 255 changes nothing;
 *  - the scatter compares each entry's position with the 256 indices and
 *    ORs its sign into the match (distinct positions: at most one each).
 * With AVX2 that is about 1.3k vector operations against 3k for the
 * earlier form, a masked pass over all of c per step: SampleInBall of
 * ML-DSA-65 2310 -> 2000 TSC ticks on Zen 4 (SHAKE256 included; portable
 * 2600 -> 2520).
 *
 * BALL_BUILD defines both halves on the compiler's generic vectors of
 * bytes, 16 lanes for the baseline (SSE2, NEON) and 32 for AVX2 (gcc
 * splits a 32-byte generic vector badly without AVX2): js[t] is step t's
 * j, sg[t] its sign (+-1 as a byte). */
#define BALL_BUILD(name, attr, width)                                                  \
    typedef uint8_t name##_v __attribute__((vector_size(width)));                    \
    attr static void name(int8_t ball[QUILL_MLDSA_N], const uint8_t *js, const int8_t *sg, \
                          unsigned tau) {                                             \
        enum { P = 64 / (width), C = QUILL_MLDSA_N / (width) };                       \
        name##_v pos[P], acc[C], idx[C]; /* idx: 0, 1, ..., 255 (and entries 0..63) */ \
        for (unsigned m = 0; m < C; m++)                                              \
            for (unsigned l = 0; l < (width); l++)                                    \
                idx[m][l] = (uint8_t)(m * (width) + l);                               \
        for (unsigned q = 0; q < P; q++)                                              \
            for (unsigned l = 0; l < (width); l++)                                    \
                pos[q][l] = 0xff;                                                     \
        for (unsigned t = 0; t < tau; t++) {                                          \
            name##_v zero = {0}, jv = zero + js[t];                                   \
            name##_v iv = zero + (uint8_t)(QUILL_MLDSA_N - tau + t);                  \
            name##_v tv = zero + (uint8_t)t;                                          \
            for (unsigned q = 0; q < P; q++) {                                        \
                name##_v at_j = (name##_v)(pos[q] == jv), is_t = (name##_v)(idx[q] == tv); \
                pos[q] = (iv & at_j) | (pos[q] & ~at_j);                              \
                pos[q] = (jv & is_t) | (pos[q] & ~is_t);                              \
            }                                                                         \
        }                                                                             \
        uint8_t where[64];                                                            \
        memcpy(where, pos, sizeof(where));                                            \
        for (unsigned m = 0; m < C; m++) {                                            \
            name##_v zero = {0};                                                      \
            acc[m] = zero;                                                            \
        }                                                                             \
        for (unsigned t = 0; t < tau; t++) {                                          \
            name##_v zero = {0}, pv = zero + where[t], sv = zero + (uint8_t)sg[t];    \
            for (unsigned m = 0; m < C; m++)                                          \
                acc[m] |= sv & (name##_v)(idx[m] == pv);                              \
        }                                                                             \
        memcpy(ball, acc, QUILL_MLDSA_N);                                             \
        quill_zeroize(where, sizeof(where));                                          \
        quill_zeroize(pos, sizeof(pos));                                              \
        quill_zeroize(acc, sizeof(acc));                                              \
    }

BALL_BUILD(ball_build_c, , 16)
#if QUILL_MLDSA_HAVE_AVX2
BALL_BUILD(ball_build_avx2, __attribute__((target("avx2"))), 32)
#else
#define ball_build_avx2 ball_build_c
#endif

void quill_mldsa_sample_in_ball(quill_mldsa_poly *c, const uint8_t *ctilde,
                                const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, ctilde, p->ctilde_bytes);
    quill_keccak_squeeze_blocks(&k, buf, 1);
    quill_mldsa_sample_in_ball_block(c, buf, &k, p);
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_zeroize(&k);
}

void quill_mldsa_sample_in_ball_block(quill_mldsa_poly *c, const uint8_t *block,
                                      quill_keccak *k, const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE], js[64];
    int8_t sg[64];
    _Alignas(32) int8_t ball[QUILL_MLDSA_N];
    memcpy(buf, block, sizeof(buf));
    unsigned pos = 8;
    for (unsigned t = 0; t < p->tau; t++) {
        const unsigned i = QUILL_MLDSA_N - p->tau + t;
        int32_t j;
        for (;;) {
            if (pos == QUILL_SHAKE256_RATE) {
                quill_keccak_squeeze_blocks(k, buf, 1);
                pos = 0;
            }
            j = buf[pos++];
            if (quill_ct_declassify_w((quill_word)(((int32_t)i - j) >> 31) & 1) == 0)
                break; /* j <= i */
        }
        js[t] = (uint8_t)j;
        sg[t] = (int8_t)(1 - 2 * ((block[t >> 3] >> (t & 7)) & 1)); /* sign bit t */
    }
    if (quill_mldsa_avx2_capable())
        ball_build_avx2(ball, js, sg, p->tau);
    else
        ball_build_c(ball, js, sg, p->tau);
    for (unsigned t = 0; t < QUILL_MLDSA_N; t++)
        c->c[t] = ball[t];
    quill_zeroize(ball, sizeof(ball));
    quill_zeroize(js, sizeof(js));
    quill_zeroize(sg, sizeof(sg));
    quill_zeroize(buf, sizeof(buf));
}

void quill_mldsa_sample_in_ball_public(quill_mldsa_poly *c, const uint8_t *ctilde,
                                       const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, ctilde, p->ctilde_bytes);
    quill_keccak_squeeze_blocks(&k, buf, 1);
    uint64_t signs = 0;
    for (unsigned i = 0; i < 8; i++)
        signs |= (uint64_t)buf[i] << (8 * i);
    unsigned pos = 8;
    memset(c->c, 0, sizeof(c->c));
    for (unsigned i = QUILL_MLDSA_N - p->tau; i < QUILL_MLDSA_N; i++) {
        unsigned j;
        do {
            if (pos == QUILL_SHAKE256_RATE) {
                quill_keccak_squeeze_blocks(&k, buf, 1);
                pos = 0;
            }
            j = buf[pos++];
        } while (j > i);
        c->c[i] = c->c[j];
        c->c[j] = 1 - 2 * (int32_t)(signs & 1);
        signs >>= 1;
    }
}
