/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * SampleInBall (FIPS 204, Algorithm 29; sample.h): the first 8 bytes are
 * tau sign bits, then for i = 256 - tau .. 255 a position j <= i (a byte,
 * rejected while j > i) gets c_i = c_j, c_j = +-1.  Positions i are
 * public, j and the signs secret while signing:
 * quill_mldsa_sample_in_ball{,_block} keep them so (below), choosing
 * between the 16- and 32-byte builds of the scatter on the AVX2 bit;
 * quill_mldsa_sample_in_ball_public (verification: c~ is part of the
 * signature) swaps in place in variable time. */
#include "sample.h"

#include <string.h>

#include "common/compiler.h"
#include "common/ct.h"
#include "common/zeroize.h"
#include "ntt.h"

/* Rather than move values in c, the tau nonzero entries are followed by
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
 * j, sg[t] its sign (+-1 as a byte).  The same 32-byte source built for
 * AVX-512VL turns each select (a & m) | (b & ~m) and each acc | (s & m)
 * into one VPTERNLOGD: SampleInBall of ML-DSA-44 1582 -> 1174 TSC ticks,
 * ML-DSA-65 1827 -> 1305 (test/mldsa/mldsa_kernels, SHAKE256 included, Zen 4,
 * 2026-12-05), about 2% of a signature. */
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
BALL_BUILD(ball_build_avx512vl, __attribute__((target("avx2,avx512f,avx512vl"))), 32)
#else
#define ball_build_avx2 ball_build_c
#define ball_build_avx512vl ball_build_c
#define quill_mldsa_avx512vl_capable() 0
#endif

/* ball_stream starts SampleInBall's stream: SHAKE256(c~) in k, its first
 * block in buf. */
QUILL_INLINE void ball_stream(quill_keccak *k, uint8_t buf[QUILL_SHAKE256_RATE],
                              const uint8_t *ctilde, const quill_mldsa_params *p) {
    quill_shake256_init(k);
    quill_keccak_absorb(k, ctilde, p->ctilde_bytes);
    quill_keccak_squeeze_blocks(k, buf, 1);
}

void quill_mldsa_sample_in_ball(quill_mldsa_poly *c, const uint8_t *ctilde,
                                const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    ball_stream(&k, buf, ctilde, p);
    quill_mldsa_sample_in_ball_block(c, buf, &k, p);
    quill_zeroize(buf, sizeof(buf));
    quill_keccak_zeroize(&k);
}

void quill_mldsa_sample_in_ball_block_i8(int8_t ball[QUILL_MLDSA_N], const uint8_t *block,
                                         quill_keccak *k, const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE], js[64];
    int8_t sg[64];
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
    if (quill_mldsa_avx512vl_capable())
        ball_build_avx512vl(ball, js, sg, p->tau);
    else if (quill_mldsa_avx2_capable())
        ball_build_avx2(ball, js, sg, p->tau);
    else
        ball_build_c(ball, js, sg, p->tau);
    quill_zeroize(js, sizeof(js));
    quill_zeroize(sg, sizeof(sg));
    quill_zeroize(buf, sizeof(buf));
}

void quill_mldsa_sample_in_ball_block(quill_mldsa_poly *c, const uint8_t *block,
                                      quill_keccak *k, const quill_mldsa_params *p) {
    int8_t ball[QUILL_MLDSA_N];
    quill_mldsa_sample_in_ball_block_i8(ball, block, k, p);
    for (unsigned t = 0; t < QUILL_MLDSA_N; t++)
        c->c[t] = ball[t];
    quill_zeroize(ball, sizeof(ball));
}

void quill_mldsa_sample_in_ball_block_public(quill_mldsa_poly *c, const uint8_t *block,
                                             quill_keccak *k, const quill_mldsa_params *p) {
    uint8_t more[QUILL_SHAKE256_RATE];
    const uint8_t *buf = block;
    uint64_t signs = 0;
    for (unsigned i = 0; i < 8; i++)
        signs |= (uint64_t)buf[i] << (8 * i);
    unsigned pos = 8;
    memset(c->c, 0, sizeof(c->c));
    for (unsigned i = QUILL_MLDSA_N - p->tau; i < QUILL_MLDSA_N; i++) {
        unsigned j;
        do {
            if (pos == QUILL_SHAKE256_RATE) {
                quill_keccak_squeeze_blocks(k, more, 1);
                buf = more;
                pos = 0;
            }
            j = buf[pos++];
        } while (j > i);
        c->c[i] = c->c[j];
        c->c[j] = 1 - 2 * (int32_t)(signs & 1);
        signs >>= 1;
    }
}

void quill_mldsa_sample_in_ball_public(quill_mldsa_poly *c, const uint8_t *ctilde,
                                       const quill_mldsa_params *p) {
    uint8_t buf[QUILL_SHAKE256_RATE];
    quill_keccak k;
    ball_stream(&k, buf, ctilde, p);
    quill_mldsa_sample_in_ball_block_public(c, buf, &k, p);
}
