/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Four SHAKE instances in lockstep (sha3_x4.h): the sponge of sha3.c with
 * equal-length inputs absorbed at once, so that every permutation serves all
 * four.  Byte b of a block is byte b mod 8 (little-endian) of lane b / 8, as
 * in sha3.c.  After absorb_once the states are padded but not permuted;
 * each squeezed block is one permutation followed by its output. */
#include "sha3/sha3_x4.h"

#include <string.h>

#include "common/cpu.h"
#include "common/endian.h"
#include "common/zeroize.h"
#include "sha3/keccak.h"
#include "sha3/sha3.h"

#if QUILL_KECCAK_HAVE_AVX2
#include <immintrin.h>
#endif

/* Xors |words| little-endian words of each input, from byte off, into the
 * first lanes of the four states. */
static void xor_words(quill_keccak_x4 *k, const uint8_t *const in[4], size_t off,
                      unsigned words) {
    for (unsigned i = 0; i < words; i++)
        for (unsigned j = 0; j < 4; j++)
            k->s[4 * i + j] ^= quill_load_le64(in[j] + off + 8 * i);
}

static void absorb_once(quill_keccak_x4 *k, unsigned rate, const uint8_t *in0,
                        const uint8_t *in1, const uint8_t *in2, const uint8_t *in3, size_t len) {
    const uint8_t *in[4] = {in0, in1, in2, in3};
    memset(k->s, 0, sizeof(k->s));
    k->rate = rate;
    k->n = 4;
    size_t off = 0;
    for (; len - off >= rate; off += rate) {
        xor_words(k, in, off, rate / 8);
        quill_keccak_f1600_x4_some(k->s, k->n);
    }
    /* The last, partial block (possibly empty) with its padding. */
    for (unsigned j = 0; j < 4; j++)
        quill_keccak_x4_inst_absorb(k, j, in[j] + off, len - off, rate);
}

void quill_shake128_x4_absorb_once(quill_keccak_x4 *k, const uint8_t *in0, const uint8_t *in1,
                                   const uint8_t *in2, const uint8_t *in3, size_t len) {
    absorb_once(k, QUILL_SHAKE128_RATE, in0, in1, in2, in3, len);
}

void quill_shake256_x4_absorb_once(quill_keccak_x4 *k, const uint8_t *in0, const uint8_t *in1,
                                   const uint8_t *in2, const uint8_t *in3, size_t len) {
    absorb_once(k, QUILL_SHAKE256_RATE, in0, in1, in2, in3, len);
}

/* The lanes [first, last) of the four states to out[0..3] (lane i at byte
 * 8 i of each), one word at a time. */
static void store_lanes(uint8_t *const out[4], const uint64_t *s, unsigned first,
                        unsigned last) {
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = first; i < last; i++)
            quill_store_le64(out[j] + 8 * i, s[4 * i + j]);
}

#if QUILL_KECCAK_HAVE_AVX2
/* The same for lanes [0, 4 * groups), four lanes of the four states at a
 * time: a 4 x 4 transpose of 64-bit words (two unpacks and two lane
 * permutes per pair of outputs) turns four loads into four 32-byte stores,
 * against sixteen word loads and stores (x86 is little-endian).  Measured
 * on Zen 4: ExpandA of ML-DSA-65 34.7k -> 31.8k TSC ticks, key generation
 * -4%.  The four pointers are taken by value: read through out, each
 * would be loaded again after every store (a byte store may alias
 * anything). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
store_lanes_avx2(uint8_t *o0, uint8_t *o1, uint8_t *o2, uint8_t *o3, const uint64_t *s,
                 unsigned groups) {
    for (unsigned g = 0; g < groups; g++) {
        const __m256i *v = (const __m256i *)(s + 16 * g);
        __m256i r0 = _mm256_load_si256(v), r1 = _mm256_load_si256(v + 1);
        __m256i r2 = _mm256_load_si256(v + 2), r3 = _mm256_load_si256(v + 3);
        __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
        __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
        _mm256_storeu_si256((__m256i *)(o0 + 32 * g), _mm256_permute2x128_si256(t0, t2, 0x20));
        _mm256_storeu_si256((__m256i *)(o1 + 32 * g), _mm256_permute2x128_si256(t1, t3, 0x20));
        _mm256_storeu_si256((__m256i *)(o2 + 32 * g), _mm256_permute2x128_si256(t0, t2, 0x31));
        _mm256_storeu_si256((__m256i *)(o3 + 32 * g), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
}

/* A whole block of lanes lanes: the groups of four above, then the last
 * lanes one word at a time; lanes is a constant for the two rates ML-DSA
 * reads (SHAKE128's 21, SHAKE256's 17), so that both loops unroll (with
 * the count known only at run time, and the pointers reloaded after each
 * store, a call cost 26 TSC ticks for 21 lanes on Zen 4, mldsa_kernels). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
store_block_body(uint8_t *const out[4], const uint64_t *s, unsigned lanes) {
    uint8_t *o[4] = {out[0], out[1], out[2], out[3]};
    store_lanes_avx2(o[0], o[1], o[2], o[3], s, lanes / 4);
    for (unsigned i = lanes / 4 * 4; i < lanes; i++) {
        const uint64_t w0 = s[4 * i], w1 = s[4 * i + 1], w2 = s[4 * i + 2], w3 = s[4 * i + 3];
        quill_store_le64(o[0] + 8 * i, w0);
        quill_store_le64(o[1] + 8 * i, w1);
        quill_store_le64(o[2] + 8 * i, w2);
        quill_store_le64(o[3] + 8 * i, w3);
    }
}

__attribute__((target("avx2"))) static void store_block_avx2(uint8_t *const out[4],
                                                             const uint64_t *s,
                                                             unsigned lanes) {
    if (lanes == QUILL_SHAKE128_RATE / 8)
        store_block_body(out, s, QUILL_SHAKE128_RATE / 8);
    else if (lanes == QUILL_SHAKE256_RATE / 8)
        store_block_body(out, s, QUILL_SHAKE256_RATE / 8);
    else
        store_block_body(out, s, lanes);
}
#endif

void quill_keccak_x4_read_block(const quill_keccak_x4 *k, uint8_t *const out[4]) {
    const unsigned lanes = k->rate / 8;
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        store_block_avx2(out, k->s, lanes);
        return;
    }
#endif
    store_lanes(out, k->s, 0, lanes);
}

void quill_keccak_x4_squeeze_blocks(quill_keccak_x4 *k, uint8_t *out0, uint8_t *out1,
                                    uint8_t *out2, uint8_t *out3, size_t nblocks) {
    uint8_t *out[4] = {out0, out1, out2, out3};
    for (size_t b = 0; b < nblocks; b++) {
        quill_keccak_f1600_x4_some(k->s, k->n);
        quill_keccak_x4_read_block(k, out);
        for (unsigned j = 0; j < 4; j++)
            out[j] += k->rate;
    }
}

/* Instance j's lanes are every fourth word from s[j]: d[4 i] below.
 * Stepping through them with one pointer (rather than recomputing
 * 4 (i / 8) + j per word) and folding the last partial word and the first
 * pad byte into one word halves the instructions per absorbed word
 * (callgrind: 9 -> 6 per word; ML-DSA-44 signing absorbs about 200 words
 * per signature this way). */
void quill_keccak_x4_inst_start(quill_keccak_x4 *k, unsigned j, const uint8_t *in, size_t len,
                                unsigned rate) {
    uint64_t *d = k->s + j;
    for (unsigned i = 0; i < 25; i++)
        d[4 * i] = 0;
    quill_keccak_x4_inst_absorb(k, j, in, len, rate);
}

void quill_keccak_x4_inst_absorb(quill_keccak_x4 *k, unsigned j, const uint8_t *in,
                                 size_t len, unsigned rate) {
    uint64_t *d = k->s + j;
    const size_t words = len / 8;
    for (size_t i = 0; i < words; i++)
        d[4 * i] ^= quill_load_le64(in + 8 * i);
    /* A short block is the last: SHAKE's domain bits 1111 with the first
     * pad bit (0x1f) and the final pad bit (0x80 in the block's last byte;
     * FIPS 202, Sections 5.1 and 6.2).  The pad byte goes into the word of
     * the input's last bytes (len mod 8 < 8 of them). */
    if (len < rate) {
        const size_t rest = len & 7;
        uint64_t t = (uint64_t)0x1f << (8 * rest);
        for (size_t b = 0; b < rest; b++)
            t |= (uint64_t)in[8 * words + b] << (8 * b);
        d[4 * words] ^= t;
        d[4 * ((rate - 1) >> 3)] ^= (uint64_t)0x80 << (8 * ((rate - 1) & 7));
    }
}

void quill_keccak_x4_inst_sponge(const quill_keccak_x4 *k, unsigned j, unsigned rate,
                                 quill_keccak *out) {
    for (unsigned i = 0; i < 25; i++)
        out->s[i] = k->s[4 * i + j];
    out->rate = rate;
    out->pos = rate; /* the block is used up: the next squeeze permutes */
    out->dsbyte = 0x1f;
    out->squeezing = 1;
}

void quill_keccak_x4_zeroize(quill_keccak_x4 *k) {
    quill_zeroize(k, sizeof(*k));
}
