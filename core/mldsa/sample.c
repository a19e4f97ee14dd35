/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The expansions of FIPS 204, section 7.3 (sample.h), from their seeds:
 * ExpandA (Algorithm 32) and ExpandS (Algorithm 33) draw their SHAKE
 * streams here, one at a time or up to four at once, and hand the bytes to
 * the parsers of RejNTTPoly (sample_rej_ntt.c) and RejBoundedPoly
 * (sample_rej_eta.c), the AVX2 twin or the portable one chosen once per
 * call; ExpandMask (Algorithm 34) in its reference form.  SampleInBall is
 * in sample_ball.c.
 *
 * The samplers take up to four streams at a time: two or more go through
 * the four-way SHAKE (sha3_x4.h), which pays from two streams on, with AVX2
 * (one four-way permutation costs about a scalar one) and on the portable
 * two-way vector code (which then permutes only the two states in use:
 * about 1.35 scalar permutations); a single stream uses the scalar sponge. */
#include "sample.h"

#include <string.h>

#include "common/compiler.h"
#include "common/cpu.h"
#include "common/zeroize.h"
#include "pack.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"

/* The AVX2 twins of both parsers need AVX2 and BMI2 (pdep, pext). */
QUILL_INLINE int rej_avx2_capable(void) {
    return QUILL_MLDSA_HAVE_AVX2 && quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2);
}

int quill_mldsa_rej_ntt_avx2_capable(void) {
    return rej_avx2_capable();
}

int quill_mldsa_rej_eta_avx2_capable(void) {
    return rej_avx2_capable();
}

int quill_mldsa_rej_ntt_avx512vl_capable(void) {
    return rej_avx2_capable() && quill_cpu_has(QUILL_CPU_X86_AVX512VL);
}

int quill_mldsa_rej_eta_avx512vl_capable(void) {
    return rej_avx2_capable() && quill_cpu_has(QUILL_CPU_X86_AVX512VL);
}

#if !QUILL_MLDSA_HAVE_AVX2
/* Never chosen (rej_avx2_capable() is 0): names for the picks below. */
#define quill_mldsa_rej_ntt_avx2 quill_mldsa_rej_ntt_c
#define quill_mldsa_rej_eta_avx2 quill_mldsa_rej_eta_c
#define quill_mldsa_rej_eta_avx512vl quill_mldsa_rej_eta_c
#define quill_mldsa_rej_ntt_avx512vl quill_mldsa_rej_ntt_c
#endif

/* The parser is chosen once per ExpandA or ExpandS (the CPU bits are a
 * function call away). */
typedef unsigned (*rej_ntt_fn)(int32_t c[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len);
typedef unsigned (*rej_eta_fn)(int32_t a[QUILL_MLDSA_N], unsigned n, const uint8_t *buf,
                               size_t len, unsigned eta);

static rej_ntt_fn rej_ntt_pick(void) {
    if (quill_mldsa_rej_ntt_avx512vl_capable())
        return quill_mldsa_rej_ntt_avx512vl;
    return rej_avx2_capable() ? quill_mldsa_rej_ntt_avx2 : quill_mldsa_rej_ntt_c;
}

quill_mldsa_rej_ntt_fn quill_mldsa_rej_ntt_pick(void) {
    return rej_ntt_pick();
}

static rej_eta_fn rej_eta_pick(void) {
    if (quill_mldsa_rej_eta_avx512vl_capable())
        return quill_mldsa_rej_eta_avx512vl;
    return rej_avx2_capable() ? quill_mldsa_rej_eta_avx2 : quill_mldsa_rej_eta_c;
}

quill_mldsa_rej_eta_fn quill_mldsa_rej_eta_pick(void) {
    return rej_eta_pick();
}

/* ExpandA: RejNTTPoly (Algorithm 30) on SHAKE128(rho || s || r).  Five
 * SHAKE128 blocks give 280 candidates, enough for 256 unless more than 24
 * are rejected (each is rejected with probability 8191 / 2^23, about
 * 2^-10); further blocks are drawn one at a time.
 * The first chunks of 64 values without a rejection go straight into
 * quill's NTT order (QUILL_MLDSA_NTT_POS); from the first chunk with one,
 * accepted values go to a staging array in natural order and are moved
 * there at the end.  Everything here is public (A is part of the public
 * key). */
#define REJ_NTT_BLOCKS 5

typedef struct rej_stage {
    int32_t c[QUILL_MLDSA_N];
    unsigned n;
    unsigned first; /* chunks written in place (quill_mldsa_rej_ntt_chunks) */
} rej_stage;

/* Entry i of the NTT vector goes to QUILL_MLDSA_NTT_POS(i)
 * (sample_rej_ntt.c). */
void quill_mldsa_rej_ntt_order(quill_mldsa_poly *a, const int32_t c[QUILL_MLDSA_N],
                               unsigned first) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_rej_ntt_order_avx2(a->c, c, first);
        return;
    }
#endif
    quill_mldsa_rej_ntt_order_c(a->c, c, first);
}

/* Only the vector form writes chunks in place: in portable C, decoding a
 * chunk, checking it and storing it transposed cost more than the parser
 * and the reordering it replaces (quill-limits, QUILL_CPU_MASK=0xffffffff:
 * key generation 3-4% slower with quill_mldsa_rej_ntt_chunks_c), so the
 * portable path writes no chunk here and parses every value; the C form
 * stays as the tests' reference for the AVX2 one. */
unsigned quill_mldsa_rej_ntt_chunks(quill_mldsa_poly *a, const uint8_t *buf, size_t len) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable())
        return quill_mldsa_rej_ntt_chunks_avx2(a->c, buf, len);
#endif
    (void)a;
    (void)buf;
    (void)len;
    return 0;
}

/* The first blocks of a stream: whole chunks in place while they have no
 * rejection, then the parser from there. */
static void rej_ntt_start(quill_mldsa_poly *a, rej_stage *st, const uint8_t *buf, size_t len,
                          rej_ntt_fn parse) {
    st->first = quill_mldsa_rej_ntt_chunks(a, buf, len);
    st->n = 64 * st->first;
    const size_t used = QUILL_MLDSA_REJ_CHUNK_BYTES * st->first;
    if (st->n < QUILL_MLDSA_N)
        st->n = parse(st->c, st->n, buf + used, len - used);
}

static void rej_ntt_finish(quill_mldsa_poly *a, const rej_stage *st) {
    quill_mldsa_rej_ntt_order(a, st->c, st->first);
}

static void rej_ntt_poly(quill_mldsa_poly *a, const uint8_t seed[34], rej_ntt_fn parse) {
    uint8_t buf[REJ_NTT_BLOCKS * QUILL_SHAKE128_RATE];
    rej_stage st = {.n = 0};
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, seed, 34);
    quill_keccak_squeeze_blocks(&k, buf, REJ_NTT_BLOCKS);
    rej_ntt_start(a, &st, buf, sizeof(buf), parse);
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
            if (len == blk)
                rej_ntt_start(a[j], &st[j], buf[j], len, parse);
            else
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

/* ExpandS: RejBoundedPoly (Algorithm 31) on SHAKE256(rho' || r), one
 * stream at a time. */
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

