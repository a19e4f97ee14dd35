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

/* x4_min_streams is the fewest streams worth a four-way SHAKE (sha3_x4.h)
 * instead of scalar ones: two with AVX2 (one four-way permutation costs
 * about a scalar one), three on the portable two-way vector code (four
 * states cost about 2.7 scalar permutations). */
static unsigned x4_min_streams(void) {
    return quill_mldsa_avx2_capable() ? 2 : 3;
}

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

/* rej_ntt_parse appends the accepted candidates of buf to st.  While eight
 * more fit, it takes eight candidates at a time, storing each
 * unconditionally and advancing on acceptance (no branch per candidate). */
static void rej_ntt_parse_c(rej_stage *st, const uint8_t *buf, size_t len) {
    unsigned n = st->n;
    size_t pos = 0;
    while (n <= QUILL_MLDSA_N - 8 && pos + 24 <= len)
        for (unsigned t = 0; t < 8; t++, pos += 3) {
            uint32_t v = rej_ntt_candidate(buf + pos);
            st->c[n] = (int32_t)v;
            n += v < QUILL_MLDSA_Q;
        }
    for (; pos + 3 <= len && n < QUILL_MLDSA_N; pos += 3) {
        uint32_t v = rej_ntt_candidate(buf + pos);
        if (v < QUILL_MLDSA_Q)
            st->c[n++] = (int32_t)v;
    }
    st->n = n;
}

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* rej_ntt_parse on AVX2 + BMI2, eight candidates per step while 32 bytes
 * can be loaded and eight more values fit: the 24 bytes are spread to one
 * 32-bit lane per candidate (vpermq moves bytes 8..23 to the upper half,
 * vpshufb picks three bytes per lane), the accepted lanes are packed to
 * the front with vpermd on indices made by pdep/pext from the comparison
 * mask, and all eight are stored (the staging array has room).  A is
 * public, so the variable-time packing is fine; the scalar loop finishes
 * the block. */
__attribute__((target("avx2,bmi2"))) static void rej_ntt_parse_avx2(rej_stage *st,
                                                                    const uint8_t *buf, size_t len) {
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15,
                                            -1);
    const __m256i low23 = _mm256_set1_epi32(0x7fffff), q = _mm256_set1_epi32(QUILL_MLDSA_Q);
    unsigned n = st->n;
    size_t pos = 0;
    while (n <= QUILL_MLDSA_N - 8 && pos + 32 <= len) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(buf + pos));
        v = _mm256_permute4x64_epi64(v, 0x94); /* qwords 0, 1 | 1, 2 */
        v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), low23);
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v)));
        uint64_t lanes = _pdep_u64(mask, 0x0101010101010101u) * 0xff;
        uint64_t idx = _pext_u64(0x0706050403020100u, lanes);
        __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx));
        _mm256_storeu_si256((__m256i *)(st->c + n), _mm256_permutevar8x32_epi32(v, perm));
        n += (unsigned)__builtin_popcount(mask);
        pos += 24;
    }
    st->n = n;
    rej_ntt_parse_c(st, buf + pos, len - pos);
}

static int rej_ntt_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2);
}
#else
#define rej_ntt_parse_avx2 rej_ntt_parse_c
static int rej_ntt_avx2_capable(void) {
    return 0;
}
#endif

static void rej_ntt_parse(rej_stage *st, const uint8_t *buf, size_t len) {
    if (rej_ntt_avx2_capable())
        rej_ntt_parse_avx2(st, buf, len);
    else
        rej_ntt_parse_c(st, buf, len);
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

static void rej_ntt_poly(quill_mldsa_poly *a, const uint8_t seed[34]) {
    uint8_t buf[REJ_NTT_BLOCKS * QUILL_SHAKE128_RATE];
    rej_stage st = {.n = 0};
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, seed, 34);
    quill_keccak_squeeze_blocks(&k, buf, REJ_NTT_BLOCKS);
    rej_ntt_parse(&st, buf, sizeof(buf));
    while (st.n < QUILL_MLDSA_N) { /* 168 = 3 * 56: blocks hold whole candidates */
        quill_keccak_squeeze_blocks(&k, buf, 1);
        rej_ntt_parse(&st, buf, QUILL_SHAKE128_RATE);
    }
    rej_ntt_finish(a, &st);
}

/* Up to four RejNTTPoly at once on the four-way Keccak (unused lanes
 * repeat the first seed and are discarded). */
static void rej_ntt_poly_x4(quill_mldsa_poly *const a[4], const uint8_t seeds[4][34],
                            unsigned count) {
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
    quill_keccak_x4_squeeze_blocks(&k, buf[0], buf[1], buf[2], buf[3], REJ_NTT_BLOCKS);
    for (size_t len = blk; done < count; len = QUILL_SHAKE128_RATE) {
        if (len != blk)
            quill_keccak_x4_squeeze_blocks(&k, buf[0], buf[1], buf[2], buf[3], 1);
        done = 0;
        for (unsigned j = 0; j < count; j++) {
            rej_ntt_parse(&st[j], buf[j], len);
            done += st[j].n == QUILL_MLDSA_N;
        }
    }
    for (unsigned j = 0; j < count; j++)
        rej_ntt_finish(a[j], &st[j]);
}

void quill_mldsa_expand_a(quill_mldsa_poly *a, const uint8_t rho[32], const quill_mldsa_params *p) {
    const unsigned total = p->k * p->l;
    const unsigned x4_min = x4_min_streams();
    uint8_t seeds[4][34];
    quill_mldsa_poly *polys[4];
    for (unsigned e = 0; e < total;) {
        unsigned count = total - e < 4 ? total - e : 4;
        if (count < x4_min)
            count = 1;
        for (unsigned j = 0; j < count; j++) {
            unsigned r = (e + j) / p->l, s = (e + j) % p->l;
            memcpy(seeds[j], rho, 32);
            seeds[j][32] = (uint8_t)s; /* rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) */
            seeds[j][33] = (uint8_t)r;
            polys[j] = &a[e + j];
        }
        if (count == 1)
            rej_ntt_poly(polys[0], seeds[0]);
        else
            rej_ntt_poly_x4(polys, (const uint8_t(*)[34])seeds, count);
        e += count;
    }
}

/* RejBoundedPoly (Algorithm 31) with CoeffFromHalfByte (Algorithm 15):
 * for eta = 2, b < 15 gives 2 - (b mod 5), with b mod 5 = b - 5 floor(b * 205
 * / 1024) for b < 15; for eta = 4, b < 9 gives 4 - b.  The accept bit is
 * declassified (see sample.h), the value never branched on. */
QUILL_INLINE unsigned rej_bounded_take(quill_mldsa_poly *a, unsigned n, int32_t b,
                                       unsigned eta) {
    const int32_t bound = eta == 2 ? 15 : 9;
    int32_t v = eta == 2 ? 2 - (b - 5 * ((b * 205) >> 10)) : 4 - b;
    quill_word keep = quill_ct_declassify_w((quill_word)((b - bound) >> 31) & 1);
    a->c[n] = v;
    return n + (unsigned)keep;
}

/* rej_bounded_parse continues filling a from n and returns the new count:
 * two candidates per byte, each stored unconditionally and kept on its
 * (declassified) accept bit; four bytes at a time while eight more fit. */
static unsigned rej_bounded_parse(quill_mldsa_poly *a, unsigned n, const uint8_t *buf, size_t len,
                                  unsigned eta) {
    size_t i = 0;
    while (n <= QUILL_MLDSA_N - 8 && i + 4 <= len)
        for (unsigned t = 0; t < 4; t++, i++) {
            n = rej_bounded_take(a, n, buf[i] & 15, eta);
            n = rej_bounded_take(a, n, buf[i] >> 4, eta);
        }
    for (; i < len && n < QUILL_MLDSA_N; i++) {
        n = rej_bounded_take(a, n, buf[i] & 15, eta);
        if (n < QUILL_MLDSA_N)
            n = rej_bounded_take(a, n, buf[i] >> 4, eta);
    }
    return n;
}

static void rej_bounded_poly(quill_mldsa_poly *a, const uint8_t seed[66], unsigned eta) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, seed, 66);
    unsigned n = 0;
    while (n < QUILL_MLDSA_N) {
        quill_keccak_squeeze_blocks(&k, buf, 1);
        n = rej_bounded_parse(a, n, buf, QUILL_SHAKE256_RATE, eta);
    }
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_zeroize(&k);
}

/* Up to four RejBoundedPoly at once (unused lanes repeat the first seed);
 * two blocks each to start with (544 candidates, 510 or 306 accepted on
 * average for eta = 2 or 4), then one more block for all four while any
 * needs it. */
static void rej_bounded_poly_x4(quill_mldsa_poly *const a[4], const uint8_t seeds[4][66],
                                unsigned count, unsigned eta) {
    uint8_t buf[4][2 * QUILL_SHAKE256_RATE];
    quill_keccak_x4 st;
    const uint8_t *in[4];
    unsigned n[4] = {0, 0, 0, 0}, done = 0;
    for (unsigned j = 0; j < 4; j++)
        in[j] = seeds[j < count ? j : 0];
    quill_shake256_x4_absorb_once(&st, in[0], in[1], in[2], in[3], 66);
    quill_keccak_x4_squeeze_blocks(&st, buf[0], buf[1], buf[2], buf[3], 2);
    for (size_t len = sizeof(buf[0]); done < count; len = QUILL_SHAKE256_RATE) {
        if (len != sizeof(buf[0]))
            quill_keccak_x4_squeeze_blocks(&st, buf[0], buf[1], buf[2], buf[3], 1);
        done = 0;
        for (unsigned j = 0; j < count; j++) {
            n[j] = rej_bounded_parse(a[j], n[j], buf[j], len, eta);
            done += n[j] == QUILL_MLDSA_N;
        }
    }
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_x4_zeroize(&st);
}

void quill_mldsa_expand_s(quill_mldsa_poly *s1, quill_mldsa_poly *s2,
                          const uint8_t rhop[QUILL_MLDSA_CRH_BYTES], const quill_mldsa_params *p) {
    const unsigned total = p->l + p->k;
    const unsigned x4_min = x4_min_streams();
    uint8_t seeds[4][66];
    quill_mldsa_poly *polys[4];
    for (unsigned r = 0; r < total;) {
        unsigned count = total - r < 4 ? total - r : 4;
        if (count < x4_min)
            count = 1;
        for (unsigned j = 0; j < count; j++) {
            memcpy(seeds[j], rhop, 64);
            seeds[j][64] = (uint8_t)(r + j); /* IntegerToBytes(r, 2) */
            seeds[j][65] = (uint8_t)((r + j) >> 8);
            polys[j] = r + j < p->l ? &s1[r + j] : &s2[r + j - p->l];
        }
        if (count == 1)
            rej_bounded_poly(polys[0], seeds[0], p->eta);
        else
            rej_bounded_poly_x4(polys, (const uint8_t(*)[66])seeds, count, p->eta);
        r += count;
    }
    quill_zeroize(seeds, sizeof(seeds));
}

void quill_mldsa_expand_mask(quill_mldsa_poly *y, const uint8_t rhopp[QUILL_MLDSA_CRH_BYTES],
                             unsigned first, unsigned n, const quill_mldsa_params *p) {
    /* 32 (gamma1_bits + 1) bytes per polynomial: 576 or 640, within 5
     * SHAKE256 blocks.  Four at a time on the four-way Keccak when it is
     * available and at least two remain. */
    uint8_t buf[4][5 * QUILL_SHAKE256_RATE];
    uint8_t seed[4][66];
    quill_keccak k;
    quill_keccak_x4 st;
    const unsigned x4_min = x4_min_streams();
    for (unsigned j = 0; j < 4; j++)
        memcpy(seed[j], rhopp, 64);
    for (unsigned r = 0; r < n;) {
        unsigned count = n - r < 4 ? n - r : 4;
        if (count < x4_min)
            count = 1;
        for (unsigned j = 0; j < 4; j++) {
            unsigned idx = first + r + (j < count ? j : 0);
            seed[j][64] = (uint8_t)idx; /* IntegerToBytes(kappa + r, 2) */
            seed[j][65] = (uint8_t)(idx >> 8);
        }
        if (count == 1) {
            quill_shake256_init(&k);
            quill_keccak_absorb(&k, seed[0], 66);
            quill_keccak_squeeze_blocks(&k, buf[0], 5);
        } else {
            quill_shake256_x4_absorb_once(&st, seed[0], seed[1], seed[2], seed[3], 66);
            quill_keccak_x4_squeeze_blocks(&st, buf[0], buf[1], buf[2], buf[3], 5);
        }
        for (unsigned j = 0; j < count; j++)
            quill_mldsa_poly_unpack_z(&y[r + j], buf[j], p);
        r += count;
    }
    quill_zeroize(buf, sizeof(buf));
    quill_zeroize(seed, sizeof(seed));
    quill_keccak_x4_zeroize(&st);
    quill_keccak_zeroize(&k);
}

/* SampleInBall (Algorithm 29): the first 8 bytes are tau sign bits, then
 * each position j <= i (a byte, rejected while j > i) gets c_i = c_j,
 * c_j = +-1.  Positions i of the loop are public, j and the signs secret:
 * c_j is read and written in one masked pass over all of c (bytes, so
 * that the pass vectorises 16 or 32 lanes wide), then c_i is c_j, or the
 * sign when j = i.  The pass covers all 256 bytes, not just c_0..c_i, so
 * that its trip count is a constant: c_i and everything above it are
 * still 0 and t == j never holds above i, so the extra lanes change
 * nothing (c_i is overwritten after the pass). */
/* One masked pass of SampleInBall: returns ball[j] and sets ball[j] = s.
 * The same body compiled for the baseline and for AVX2 (32 byte lanes),
 * chosen on the CPU bit. */
QUILL_INLINE int8_t ball_pass_body(int8_t *ball, uint8_t jb, int8_t s) {
    int8_t cj = 0;
    for (unsigned t = 0; t < QUILL_MLDSA_N; t++) {
        int8_t eq = (int8_t)(-(int8_t)((uint8_t)t == jb));
        cj = (int8_t)(cj | (ball[t] & eq));
        ball[t] = (int8_t)((s & eq) | (ball[t] & ~eq));
    }
    return cj;
}

static int8_t ball_pass_c(int8_t *ball, uint8_t jb, int8_t s) {
    return ball_pass_body(ball, jb, s);
}

#if QUILL_MLDSA_HAVE_AVX2
__attribute__((target("avx2"))) static int8_t ball_pass_avx2(int8_t *ball, uint8_t jb, int8_t s) {
    return ball_pass_body(ball, jb, s);
}
#else
#define ball_pass_avx2 ball_pass_c
#endif

void quill_mldsa_sample_in_ball(quill_mldsa_poly *c, const uint8_t *ctilde,
                                const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    _Alignas(32) int8_t ball[QUILL_MLDSA_N];
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, ctilde, p->ctilde_bytes);
    quill_keccak_squeeze_blocks(&k, buf, 1);
    uint64_t signs = 0;
    for (unsigned i = 0; i < 8; i++)
        signs |= (uint64_t)buf[i] << (8 * i);
    unsigned pos = 8;
    const int avx2 = quill_mldsa_avx2_capable();
    memset(ball, 0, sizeof(ball));
    for (unsigned i = QUILL_MLDSA_N - p->tau; i < QUILL_MLDSA_N; i++) {
        int32_t j;
        for (;;) {
            if (pos == QUILL_SHAKE256_RATE) {
                quill_keccak_squeeze_blocks(&k, buf, 1);
                pos = 0;
            }
            j = buf[pos++];
            if (quill_ct_declassify_w((quill_word)(((int32_t)i - j) >> 31) & 1) == 0)
                break; /* j <= i */
        }
        const int8_t s = (int8_t)(1 - 2 * (int32_t)(signs & 1));
        const uint8_t jb = (uint8_t)j;
        signs >>= 1;
        int8_t cj = avx2 ? ball_pass_avx2(ball, jb, s) : ball_pass_c(ball, jb, s);
        int8_t last = (int8_t)(-(int8_t)(i == (unsigned)j));
        ball[i] = (int8_t)((s & last) | (cj & ~last));
    }
    for (unsigned t = 0; t < QUILL_MLDSA_N; t++)
        c->c[t] = ball[t];
    quill_zeroize(ball, sizeof(ball));
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_zeroize(&k);
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
