/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  FIPS 204, section 7.2: encodings. */
#include "pack.h"

#include <string.h>

#include "clone.h"
#include "common/cpu.h"

/* The generic little-endian bit packing (SimpleBitPack / SimpleBitUnpack,
 * FIPS 204 Algorithms 16 and 18): the reference that the fixed-width forms
 * below are tested against.  The inner loops depend on the public width
 * only. */
void quill_mldsa_pack_bits(uint8_t *out, const uint32_t v[QUILL_MLDSA_N], unsigned bits) {
    uint64_t acc = 0;
    unsigned have = 0;
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        acc |= (uint64_t)v[i] << have;
        have += bits;
        while (have >= 8) {
            *out++ = (uint8_t)acc;
            acc >>= 8;
            have -= 8;
        }
    }
}

void quill_mldsa_unpack_bits(uint32_t v[QUILL_MLDSA_N], const uint8_t *in, unsigned bits) {
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    uint64_t acc = 0;
    unsigned have = 0;
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        while (have < bits) {
            acc |= (uint64_t)*in++ << have;
            have += 8;
        }
        v[i] = (uint32_t)(acc & mask);
        acc >>= bits;
        have -= bits;
    }
}

/* Fixed-width forms: each step packs the g coefficients that fill a whole
 * number of bytes (g bits / 8 bytes) into one or two words and stores them
 * byte by byte (unpacking the reverse); the compiler merges the byte moves
 * into wide ones on little-endian targets, and the code stays correct on
 * the others.  The offset (eta, 2^12, gamma1 minus the coefficient) is
 * applied in the same pass, so no temporary array of secret values is
 * made.  Measured on Zen 4 against the generic loops (TSC ticks per
 * polynomial): t0 pack ~900 -> 175, unpack ~1070 -> 275; eta pack (3 bits)
 * ~500 -> 165; z pack ~1000 -> 200. */
QUILL_INLINE void store_le(uint8_t *p, uint64_t x, unsigned bytes) {
    for (unsigned b = 0; b < bytes; b++)
        p[b] = (uint8_t)(x >> (8 * b));
}

/* load_le is written out per length: the compiler merges these
 * expressions into wide loads, but not the same loop once unrolled. */
QUILL_INLINE uint64_t load_le(const uint8_t *p, unsigned bytes) {
    const uint64_t lo = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16);
    if (bytes == 3)
        return lo;
    const uint64_t w = lo | ((uint64_t)p[3] << 24);
    if (bytes == 4)
        return w;
    if (bytes == 5)
        return w | ((uint64_t)p[4] << 32);
    return w | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) |
           ((uint64_t)p[7] << 56); /* 8 */
}

/* t1: 10 bits, 4 per 5 bytes. */
static void pack_t1_c(uint8_t out[QUILL_MLDSA_T1_BYTES], const int32_t *c) {
    for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++) {
        uint64_t x = (uint64_t)(uint32_t)c[4 * i] | ((uint64_t)(uint32_t)c[4 * i + 1] << 10) |
                     ((uint64_t)(uint32_t)c[4 * i + 2] << 20) |
                     ((uint64_t)(uint32_t)c[4 * i + 3] << 30);
        for (unsigned b = 0; b < 5; b++)
            out[5 * i + b] = (uint8_t)(x >> (8 * b));
    }
}

void quill_mldsa_poly_pack_t1(uint8_t out[QUILL_MLDSA_T1_BYTES], const quill_mldsa_poly *t1) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_poly_pack_t1_avx2(out, t1->c);
        return;
    }
#endif
    pack_t1_c(out, t1->c);
}

void quill_mldsa_poly_unpack_t1(quill_mldsa_poly *t1, const uint8_t in[QUILL_MLDSA_T1_BYTES]) {
    int32_t *c = t1->c;
    for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++, c += 4, in += 5) {
        uint64_t x = load_le(in, 5);
        c[0] = (int32_t)(x & 0x3ff);
        c[1] = (int32_t)((x >> 10) & 0x3ff);
        c[2] = (int32_t)((x >> 20) & 0x3ff);
        c[3] = (int32_t)(x >> 30);
    }
}

/* t0: 2^12 - t0 in 13 bits, 8 per 13 bytes (bits 0..63 in one word, the
 * coefficient straddling bit 64 split across both). */
#define T0_HALF (1 << (QUILL_MLDSA_D - 1))

static void pack_t0_c(uint8_t out[QUILL_MLDSA_T0_BYTES], const int32_t *c) {
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, c += 8, out += 13) {
        uint64_t v[8];
        for (unsigned j = 0; j < 8; j++)
            v[j] = (uint32_t)(T0_HALF - c[j]);
        store_le(out, v[0] | (v[1] << 13) | (v[2] << 26) | (v[3] << 39) | (v[4] << 52), 8);
        store_le(out + 8, (v[4] >> 12) | (v[5] << 1) | (v[6] << 14) | (v[7] << 27), 5);
    }
}

void quill_mldsa_poly_pack_t0(uint8_t out[QUILL_MLDSA_T0_BYTES], const quill_mldsa_poly *t0) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_poly_pack_t0_avx2(out, t0->c);
        return;
    }
#endif
    pack_t0_c(out, t0->c);
}

void quill_mldsa_poly_unpack_t0(quill_mldsa_poly *t0, const uint8_t in[QUILL_MLDSA_T0_BYTES]) {
    int32_t *c = t0->c;
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, c += 8, in += 13) {
        uint64_t lo = load_le(in, 8), hi = load_le(in + 8, 5);
        c[0] = T0_HALF - (int32_t)(lo & 0x1fff);
        c[1] = T0_HALF - (int32_t)((lo >> 13) & 0x1fff);
        c[2] = T0_HALF - (int32_t)((lo >> 26) & 0x1fff);
        c[3] = T0_HALF - (int32_t)((lo >> 39) & 0x1fff);
        c[4] = T0_HALF - (int32_t)(((lo >> 52) | (hi << 12)) & 0x1fff);
        c[5] = T0_HALF - (int32_t)((hi >> 1) & 0x1fff);
        c[6] = T0_HALF - (int32_t)((hi >> 14) & 0x1fff);
        c[7] = T0_HALF - (int32_t)(hi >> 27);
    }
}

/* eta - s: 3 bits (eta = 2, 8 per 3 bytes) or 4 bits (eta = 4, 8 per 4
 * bytes); one loop per width, each with its constants. */
QUILL_INLINE void pack_eta_body(uint8_t *out, const int32_t *c, unsigned eta, unsigned bits) {
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, c += 8, out += bits) {
        uint32_t x = 0;
        for (unsigned j = 0; j < 8; j++)
            x |= (uint32_t)((int32_t)eta - c[j]) << (bits * j);
        store_le(out, x, bits);
    }
}

/* eta = 4 and w1 with 4 bits: two per byte, a loop the compiler
 * vectorises; built for the baseline and for AVX2 (clone.h). */
QUILL_INLINE void pack_nibbles_body(uint8_t *out, const int32_t *c, int32_t off) {
    for (unsigned i = 0; i < QUILL_MLDSA_N / 2; i++)
        out[i] = (uint8_t)((uint32_t)(off - c[2 * i]) | ((uint32_t)(off - c[2 * i + 1]) << 4));
}
QUILL_MLDSA_CLONE(void, pack_nibbles, (uint8_t * out, const int32_t *c, int32_t off),
                  (out, c, off))

void quill_mldsa_poly_pack_eta(uint8_t *out, const quill_mldsa_poly *s,
                               const quill_mldsa_params *p) {
#if QUILL_MLDSA_HAVE_AVX2
    if (p->eta == 2 && quill_mldsa_avx2_capable() && quill_cpu_has(QUILL_CPU_X86_BMI2)) {
        quill_mldsa_poly_pack_eta2_avx2(out, s->c);
        return;
    }
#endif
    if (p->eta == 2)
        pack_eta_body(out, s->c, 2, 3);
    else
        QUILL_MLDSA_PICK(pack_nibbles)(out, s->c, 4);
}

/* A decoded value v (eta - s) is out of range when v > 2 eta: 2 eta - v is
 * then negative, and its sign bits are ORed. */
QUILL_INLINE uint32_t unpack_eta_body(int32_t *c, const uint8_t *in, unsigned eta, unsigned bits) {
    const uint32_t mask = (1u << bits) - 1;
    uint32_t bad = 0;
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, c += 8, in += bits) {
        uint32_t x = (uint32_t)load_le(in, bits);
        for (unsigned j = 0; j < 8; j++) {
            int32_t v = (int32_t)((x >> (bits * j)) & mask);
            bad |= (uint32_t)(2 * (int32_t)eta - v);
            c[j] = (int32_t)eta - v;
        }
    }
    return bad;
}

quill_word quill_mldsa_poly_unpack_eta(quill_mldsa_poly *s, const uint8_t *in,
                                       const quill_mldsa_params *p) {
    uint32_t bad = p->eta == 2 ? unpack_eta_body(s->c, in, 2, 3) : unpack_eta_body(s->c, in, 4, 4);
    return (quill_word)0 - (quill_word)(bad >> 31);
}

/* z: gamma1 - z in 18 bits (4 per 9 bytes) or 20 bits (4 per 10 bytes). */
void quill_mldsa_poly_pack_z_c(uint8_t *out, const quill_mldsa_poly *z, const quill_mldsa_params *p) {
    const int32_t *c = z->c;
    const int32_t g = p->gamma1;
    if (p->gamma1_bits == 17) {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++, c += 4, out += 9) {
            uint64_t v0 = (uint32_t)(g - c[0]), v1 = (uint32_t)(g - c[1]);
            uint64_t v2 = (uint32_t)(g - c[2]), v3 = (uint32_t)(g - c[3]);
            store_le(out, v0 | (v1 << 18) | (v2 << 36) | (v3 << 54), 8);
            out[8] = (uint8_t)(v3 >> 10);
        }
    } else {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++, c += 4, out += 10) {
            uint64_t v0 = (uint32_t)(g - c[0]), v1 = (uint32_t)(g - c[1]);
            uint64_t v2 = (uint32_t)(g - c[2]), v3 = (uint32_t)(g - c[3]);
            store_le(out, v0 | (v1 << 20) | (v2 << 40) | (v3 << 60), 8);
            store_le(out + 8, v3 >> 4, 2);
        }
    }
}

/* Also ExpandMask's BitUnpack (sample.c), so on the signing hot path.  The
 * fields first, then the offset in a second pass (which vectorises; measured
 * faster than one fused loop). */
void quill_mldsa_poly_unpack_z_c(quill_mldsa_poly *z, const uint8_t *in,
                                 const quill_mldsa_params *p) {
    /* Eight coefficients per group of 18 or 20 bytes, from two 64-bit words
     * and the group's last 2 or 4 bytes (never past the encoding): half the
     * instructions of a 5-byte load per pair, once per mask polynomial. */
    int32_t *c = z->c;
    const int32_t g = p->gamma1;
    if (p->gamma1_bits == 17) {
        const uint64_t m = 0x3ffff;
        for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, in += 18, c += 8) {
            uint64_t w0 = load_le(in, 8), w1 = load_le(in + 8, 8);
            uint64_t w2 = (uint64_t)in[16] | ((uint64_t)in[17] << 8);
            c[0] = g - (int32_t)(w0 & m);
            c[1] = g - (int32_t)((w0 >> 18) & m);
            c[2] = g - (int32_t)((w0 >> 36) & m);
            c[3] = g - (int32_t)(((w0 >> 54) | (w1 << 10)) & m);
            c[4] = g - (int32_t)((w1 >> 8) & m);
            c[5] = g - (int32_t)((w1 >> 26) & m);
            c[6] = g - (int32_t)((w1 >> 44) & m);
            c[7] = g - (int32_t)(((w1 >> 62) | (w2 << 2)) & m);
        }
    } else {
        const uint64_t m = 0xfffff;
        for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, in += 20, c += 8) {
            uint64_t w0 = load_le(in, 8), w1 = load_le(in + 8, 8), w2 = load_le(in + 16, 4);
            c[0] = g - (int32_t)(w0 & m);
            c[1] = g - (int32_t)((w0 >> 20) & m);
            c[2] = g - (int32_t)((w0 >> 40) & m);
            c[3] = g - (int32_t)(((w0 >> 60) | (w1 << 4)) & m);
            c[4] = g - (int32_t)((w1 >> 16) & m);
            c[5] = g - (int32_t)((w1 >> 36) & m);
            c[6] = g - (int32_t)(((w1 >> 56) | (w2 << 8)) & m);
            c[7] = g - (int32_t)((w2 >> 12) & m);
        }
    }
}

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

/* unpack_z_body also checks ||z|| < bound when bound > 0: |z| of each
 * vector compared with bound - 1, the comparisons ORed (three instructions
 * per eight coefficients, against a second pass over z); returns nonzero
 * if some |z| >= bound (always zero when bound is 0).
 * Eight coefficients per step, four per 128-bit half: each half loads 16
 * bytes, vpshufb puts the three bytes holding coefficient i into 32-bit
 * lane i, vpsrlvd drops the bits below it and the mask those above.  The
 * upper half loads from 4 (20 bits) or 2 (18 bits) bytes on and picks
 * bytes 6.. or 7.. of that, so no load reaches past the 32 (gamma1_bits +
 * 1) bytes of the encoding. */
__attribute__((target("avx2"))) static inline int unpack_z_body(quill_mldsa_poly *z,
                                                                const uint8_t *in,
                                                                const quill_mldsa_params *p,
                                                                int32_t bound) {
    const __m256i g = _mm256_set1_epi32(p->gamma1);
    const __m256i lim = _mm256_set1_epi32(bound - 1);
    __m256i pick, shift, mask, bad = _mm256_setzero_si256();
    unsigned step, hi;
    if (p->gamma1_bits == 17) { /* bits 18 i .. 18 i + 17: bytes 9 i / 4 .. + 2 */
        pick = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1, 7, 8, 9, -1, 9,
                                10, 11, -1, 11, 12, 13, -1, 13, 14, 15, -1);
        shift = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        mask = _mm256_set1_epi32(0x3ffff);
        step = 18;
        hi = 2;
    } else { /* bits 20 i .. 20 i + 19: bytes 5 i / 2 .. + 2 */
        pick = _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1, 6, 7, 8, -1, 8,
                                9, 10, -1, 11, 12, 13, -1, 13, 14, 15, -1);
        shift = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
        mask = _mm256_set1_epi32(0xfffff);
        step = 20;
        hi = 4;
    }
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, in += step) {
        __m256i v = _mm256_loadu2_m128i((const __m128i *)(in + hi), (const __m128i *)in);
        v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(v, pick), shift), mask);
        v = _mm256_sub_epi32(g, v);
        _mm256_store_si256((__m256i *)(z->c + 8 * i), v);
        if (bound > 0)
            bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(v), lim));
    }
    return !_mm256_testz_si256(bad, bad);
}

__attribute__((target("avx2"))) void quill_mldsa_poly_unpack_z_avx2(quill_mldsa_poly *z,
                                                                    const uint8_t *in,
                                                                    const quill_mldsa_params *p) {
    (void)unpack_z_body(z, in, p, 0);
}

__attribute__((target("avx2"))) int quill_mldsa_poly_unpack_z_norm_avx2(
    quill_mldsa_poly *z, const uint8_t *in, const quill_mldsa_params *p, int32_t bound) {
    return unpack_z_body(z, in, p, bound);
}
#endif

#if QUILL_MLDSA_HAVE_AVX2
/* Eight coefficients per step: v = gamma1 - z (bits-wide fields, bits =
 * gamma1_bits + 1), pairs joined in each 64-bit lane (v_2i + v_2i+1
 * 2^bits, 2 bits wide), then in each 128-bit lane the two 64-bit lanes
 * joined into 4 bits bytes by byte shuffles: for 20 bits the 40-bit values
 * are whole bytes (5 + 5); for 18 bits the upper one is first shifted up by
 * 4 so that its low nibble ORs into byte 4 of the lower.  Each 128-bit lane
 * is stored whole at its place (9 or 10 bytes used): the bytes past them
 * are rewritten by the next step, and the last step goes through a buffer,
 * so nothing past the 32 bits bytes of the encoding is written.  z is
 * public here (a signature's). */
__attribute__((target("avx2"))) void quill_mldsa_poly_pack_z_avx2(uint8_t *out,
                                                                 const quill_mldsa_poly *z,
                                                                 const quill_mldsa_params *p) {
    const __m256i g = _mm256_set1_epi32(p->gamma1);
    const __m256i lo32 = _mm256_set1_epi64x(0xffffffff);
    const unsigned bits = p->gamma1_bits + 1, step = bits / 2; /* bytes per 4 coefficients */
    __m256i up, lo_pick, hi_pick;
    if (bits == 18) {
        up = _mm256_setr_epi64x(0, 4, 0, 4);
        lo_pick = _mm256_setr_epi8(0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1,
                                   2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        hi_pick = _mm256_setr_epi8(-1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1, -1);
    } else {
        up = _mm256_setzero_si256();
        lo_pick = _mm256_setr_epi8(0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1,
                                   2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        hi_pick = _mm256_setr_epi8(-1, -1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    }
    const __m128i shift = _mm_cvtsi32_si128((int)bits);
    for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++, out += 2 * step) {
        __m256i v = _mm256_sub_epi32(g, _mm256_load_si256((const __m256i *)(const void *)(z->c + 8 * i)));
        __m256i x = _mm256_or_si256(_mm256_and_si256(v, lo32),
                                    _mm256_sll_epi64(_mm256_srli_epi64(v, 32), shift));
        x = _mm256_sllv_epi64(x, up);
        x = _mm256_or_si256(_mm256_shuffle_epi8(x, lo_pick), _mm256_shuffle_epi8(x, hi_pick));
        if (i + 1 < QUILL_MLDSA_N / 8) {
            _mm_storeu_si128((__m128i *)(void *)out, _mm256_castsi256_si128(x));
            _mm_storeu_si128((__m128i *)(void *)(out + step), _mm256_extracti128_si256(x, 1));
        } else {
            uint8_t last[32];
            _mm256_storeu_si256((__m256i *)(void *)last, x);
            memcpy(out, last, step);
            memcpy(out + step, last + 16, step);
        }
    }
}
#endif

void quill_mldsa_poly_pack_z(uint8_t *out, const quill_mldsa_poly *z, const quill_mldsa_params *p) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_poly_pack_z_avx2(out, z, p);
        return;
    }
#endif
    quill_mldsa_poly_pack_z_c(out, z, p);
}

void quill_mldsa_poly_unpack_z(quill_mldsa_poly *z, const uint8_t *in,
                               const quill_mldsa_params *p) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_poly_unpack_z_avx2(z, in, p);
        return;
    }
#elif QUILL_MLDSA_HAVE_NEON
    if (quill_mldsa_neon_capable()) {
        quill_mldsa_poly_unpack_z_neon(z->c, in, p->gamma1_bits, p->gamma1);
        return;
    }
#endif
    quill_mldsa_poly_unpack_z_c(z, in, p);
}

int quill_mldsa_poly_unpack_z_norm_public(quill_mldsa_poly *z, const uint8_t *in,
                                          const quill_mldsa_params *p, int32_t bound) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable())
        return quill_mldsa_poly_unpack_z_norm_avx2(z, in, p, bound);
#endif
    quill_mldsa_poly_unpack_z(z, in, p);
    return quill_mldsa_poly_norm_ge_public(z, bound);
}

/* w1: 6 bits (4 per 3 bytes) or 4 bits (2 per byte, a form the compiler
 * vectorises). */
QUILL_INLINE void pack_w1_poly(uint8_t *out, const int32_t *c, unsigned bits) {
    if (bits == 6) {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++)
            store_le(out + 3 * i,
                     (uint32_t)c[4 * i] | ((uint32_t)c[4 * i + 1] << 6) |
                         ((uint32_t)c[4 * i + 2] << 12) | ((uint32_t)c[4 * i + 3] << 18),
                     3);
    } else {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 2; i++)
            out[i] = (uint8_t)((uint32_t)c[2 * i] | ((uint32_t)c[2 * i + 1] << 4));
    }
}

#if QUILL_MLDSA_HAVE_AVX2
/* w1 with AVX2, where the compiler's builds of pack_w1_poly take about 100
 * (6-bit) and 52 (4-bit) TSC ticks per polynomial on Zen 4, against 25 and
 * 13 here.  Coefficients are in [0, 64).  w1_bytes_avx2 narrows 32 of them
 * to bytes (two packs, whose 128-bit lane order one dword permutation
 * undoes); the 6-bit form joins pairs into 12 bits (vpmaddubsw by 1, 64)
 * and pairs of those into 24 (vpmaddwd by 1, 4096), gathers the three low
 * bytes of each dword (vpshufb within the lanes, a dword permutation
 * across them) and stores 16 + 8 bytes; the 4-bit form joins pairs into a
 * byte's worth (vpmaddubsw by 1, 16) and narrows 64 of them at a time.
 * test_mldsa_arith checks both against its generic packer. */
__attribute__((target("avx2"))) static __m256i w1_bytes_avx2(const int32_t *c) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)c);
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 8));
    __m256i a2 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 16));
    __m256i a3 = _mm256_loadu_si256((const __m256i *)(const void *)(c + 24));
    __m256i b = _mm256_packus_epi16(_mm256_packus_epi32(a0, a1), _mm256_packus_epi32(a2, a3));
    return _mm256_permutevar8x32_epi32(b, order); /* byte j: coefficient j */
}

__attribute__((target("avx2"))) static void pack_w1_6_avx2(uint8_t *out, const int32_t *c) {
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    const __m256i m12 = _mm256_set1_epi16(64 * 256 + 1), m24 = _mm256_set1_epi32(4096 * 65536 + 1);
    const __m256i three = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 32, c += 32, out += 24) {
        __m256i b = _mm256_madd_epi16(_mm256_maddubs_epi16(w1_bytes_avx2(c), m12), m24);
        b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(b, three), join);
        _mm_storeu_si128((__m128i *)(void *)out, _mm256_castsi256_si128(b));
        _mm_storel_epi64((__m128i *)(void *)(out + 16), _mm256_extracti128_si256(b, 1));
    }
}

__attribute__((target("avx2"))) static void pack_w1_4_avx2(uint8_t *out, const int32_t *c) {
    const __m256i m8 = _mm256_set1_epi16(16 * 256 + 1);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i += 64, c += 64, out += 32) {
        __m256i x0 = _mm256_maddubs_epi16(w1_bytes_avx2(c), m8);
        __m256i x1 = _mm256_maddubs_epi16(w1_bytes_avx2(c + 32), m8);
        __m256i b = _mm256_permute4x64_epi64(_mm256_packus_epi16(x0, x1), 0xd8);
        _mm256_storeu_si256((__m256i *)(void *)out, b);
    }
}
#endif

/* Once per signing attempt: an AVX2 build as well (clone.h; the AVX2
 * kernels above take its place where the CPU has AVX2). */
QUILL_INLINE size_t pack_w1_body(uint8_t *out, const quill_mldsa_poly *w1,
                                 const quill_mldsa_params *p) {
    const size_t per = 32u * p->w1_bits;
    for (unsigned i = 0; i < p->k; i++)
        pack_w1_poly(out + i * per, w1[i].c, p->w1_bits);
    return per * p->k;
}
QUILL_MLDSA_CLONE(size_t, pack_w1,
                  (uint8_t *out, const quill_mldsa_poly *w1, const quill_mldsa_params *p),
                  (out, w1, p))

size_t quill_mldsa_pack_w1(uint8_t *out, const quill_mldsa_poly *w1, const quill_mldsa_params *p) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        const size_t per = 32u * p->w1_bits;
        for (unsigned i = 0; i < p->k; i++) {
            if (p->w1_bits == 6)
                pack_w1_6_avx2(out + i * per, w1[i].c);
            else
                pack_w1_4_avx2(out + i * per, w1[i].c);
        }
        return per * p->k;
    }
#endif
    return QUILL_MLDSA_PICK(pack_w1)(out, w1, p);
}

void quill_mldsa_pack_pk(uint8_t *pk, const uint8_t rho[32], const quill_mldsa_poly *t1,
                         const quill_mldsa_params *p) {
    memcpy(pk, rho, 32);
    for (unsigned i = 0; i < p->k; i++)
        quill_mldsa_poly_pack_t1(pk + 32 + i * QUILL_MLDSA_T1_BYTES, &t1[i]);
}

void quill_mldsa_unpack_pk(uint8_t rho[32], quill_mldsa_poly *t1, const uint8_t *pk,
                           const quill_mldsa_params *p) {
    memcpy(rho, pk, 32);
    for (unsigned i = 0; i < p->k; i++)
        quill_mldsa_poly_unpack_t1(&t1[i], pk + 32 + i * QUILL_MLDSA_T1_BYTES);
}

void quill_mldsa_pack_sk_s(uint8_t *sk, const quill_mldsa_poly *s1, const quill_mldsa_poly *s2,
                           const quill_mldsa_params *p) {
    const size_t eta_bytes = 32u * p->eta_bits;
    sk += 128;
    for (unsigned i = 0; i < p->l; i++, sk += eta_bytes)
        quill_mldsa_poly_pack_eta(sk, &s1[i], p);
    for (unsigned i = 0; i < p->k; i++, sk += eta_bytes)
        quill_mldsa_poly_pack_eta(sk, &s2[i], p);
}

void quill_mldsa_pack_sk_t0(uint8_t *sk, const quill_mldsa_poly *t0, const quill_mldsa_params *p) {
    sk += QUILL_MLDSA_SK_T0_OFFSET(p);
    for (unsigned i = 0; i < p->k; i++, sk += QUILL_MLDSA_T0_BYTES)
        quill_mldsa_poly_pack_t0(sk, &t0[i]);
}

void quill_mldsa_pack_sk(uint8_t *sk, const uint8_t rho[32], const uint8_t key[32],
                         const uint8_t tr[64], const quill_mldsa_poly *s1,
                         const quill_mldsa_poly *s2, const quill_mldsa_poly *t0,
                         const quill_mldsa_params *p) {
    memcpy(sk, rho, 32);
    memcpy(sk + 32, key, 32);
    memcpy(sk + 64, tr, 64);
    quill_mldsa_pack_sk_s(sk, s1, s2, p);
    quill_mldsa_pack_sk_t0(sk, t0, p);
}

quill_word quill_mldsa_unpack_sk_s(quill_mldsa_poly *s1, quill_mldsa_poly *s2, const uint8_t *sk,
                                   const quill_mldsa_params *p) {
    const size_t eta_bytes = 32u * p->eta_bits;
    quill_word bad = 0;
    sk += 128;
    for (unsigned i = 0; i < p->l; i++, sk += eta_bytes)
        bad |= quill_mldsa_poly_unpack_eta(&s1[i], sk, p);
    for (unsigned i = 0; i < p->k; i++, sk += eta_bytes)
        bad |= quill_mldsa_poly_unpack_eta(&s2[i], sk, p);
    return bad;
}

quill_word quill_mldsa_unpack_sk(uint8_t rho[32], uint8_t key[32], uint8_t tr[64],
                                 quill_mldsa_poly *s1, quill_mldsa_poly *s2, quill_mldsa_poly *t0,
                                 const uint8_t *sk, const quill_mldsa_params *p) {
    memcpy(rho, sk, 32);
    memcpy(key, sk + 32, 32);
    memcpy(tr, sk + 64, 64);
    quill_word bad = quill_mldsa_unpack_sk_s(s1, s2, sk, p);
    sk += QUILL_MLDSA_SK_T0_OFFSET(p);
    for (unsigned i = 0; i < p->k; i++, sk += QUILL_MLDSA_T0_BYTES)
        quill_mldsa_poly_unpack_t0(&t0[i], sk);
    return bad;
}

/* The hint bits of a polynomial as eight words (bit t of word w: c[32 w +
 * t] != 0), in loops the compiler vectorises (lane shifts and an OR
 * reduction); hints are public here. */
QUILL_INLINE void hint_words_body(uint32_t words[QUILL_MLDSA_N / 32], const int32_t *c) {
    for (unsigned w = 0; w < QUILL_MLDSA_N / 32; w++) {
        uint32_t bits = 0;
        for (unsigned t = 0; t < 32; t++)
            bits |= (uint32_t)(c[32 * w + t] != 0) << t;
        words[w] = bits;
    }
}
QUILL_MLDSA_CLONE(void, hint_words, (uint32_t words[QUILL_MLDSA_N / 32], const int32_t *c),
                  (words, c))

void quill_mldsa_pack_sig(uint8_t *sig, const uint8_t *ctilde, const quill_mldsa_poly *z,
                          const quill_mldsa_poly *h, const quill_mldsa_params *p) {
    const size_t z_bytes = 32u * (p->gamma1_bits + 1);
    memcpy(sig, ctilde, p->ctilde_bytes);
    sig += p->ctilde_bytes;
    for (unsigned i = 0; i < p->l; i++, sig += z_bytes)
        quill_mldsa_poly_pack_z(sig, &z[i], p);
    /* HintBitPack: the indices of the ones, then the running count per
     * polynomial.  The hints are public here (a signature's); at most omega
     * of the k * 256 are ones, so each word of 32 hint bits is walked by
     * its set bits (ML-DSA-65: about 50 ones in 48 words; the earlier
     * test of each group of eight coefficients took 2% of a signature in
     * its mispredicted branches). */
    memset(sig, 0, p->omega + p->k);
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        uint32_t words[QUILL_MLDSA_N / 32];
        QUILL_MLDSA_PICK(hint_words)(words, h[i].c);
        for (unsigned w = 0; w < QUILL_MLDSA_N / 32; w++)
            for (uint32_t bits = words[w]; bits != 0 && idx < p->omega; bits &= bits - 1)
                sig[idx++] = (uint8_t)(32 * w + (unsigned)__builtin_ctz(bits));
        sig[p->omega + i] = (uint8_t)idx;
    }
}
