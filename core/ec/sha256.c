/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * SHA-256, FIPS 180-4 (see sha256.h). */
#include "ec/sha256.h"

#include <string.h>

#include "common/cpu.h"
#include "common/zeroize.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t K[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static inline uint32_t ror(uint32_t x, unsigned n) {
    return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* FIPS 180-4 6.2.2, one block at a time. */
void quill_sha256_blocks_c(uint32_t h[8], const uint8_t *in, size_t n) {
    uint32_t w[64];
    for (; n > 0; n--, in += QUILL_SHA256_BLOCK) {
        for (int t = 0; t < 16; t++)
            w[t] = load_be32(in + 4 * t);
        for (int t = 16; t < 64; t++) {
            const uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; t++) {
            const uint32_t t1 =
                hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            const uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
    quill_zeroize(w, sizeof(w));
}

#ifdef QUILL_SHA256_HAVE_SHANI
#include <immintrin.h>

/* The SHA extensions keep the working variables as two vectors, ABEF and
 * CDGH (high to low lanes: A B E F and C D G H).  SHA256RNDS2(cdgh, abef,
 * wk) runs two rounds with the two low lanes of wk = W + K and returns the
 * new ABEF; the old ABEF is then the new CDGH, so the two vectors swap
 * roles every two rounds and are back in place after four.
 * SHA256MSG1(W[t-16..t-13], W[t-12..t-9]) adds sigma0 of the following
 * words; with W[t-7..t-4] added, SHA256MSG2(., W[t-4..t-1]) adds sigma1
 * and completes W[t..t+3] (FIPS 180-4 6.2.2 step 1). */
__attribute__((target("sha,sse4.1,ssse3"))) void
quill_sha256_blocks_shani(uint32_t h[8], const uint8_t *in, size_t n) {
    /* PSHUFB mask: the big-endian words of the block to lanes. */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)(const void *)&h[0]); /* h3 h2 h1 h0 */
    __m128i hgfe = _mm_loadu_si128((const __m128i *)(const void *)&h[4]); /* h7 h6 h5 h4 */
    __m128i t = _mm_shuffle_epi32(dcba, 0xb1);                           /* h2 h3 h0 h1 */
    hgfe = _mm_shuffle_epi32(hgfe, 0x1b);                                /* h4 h5 h6 h7 */
    __m128i abef = _mm_alignr_epi8(t, hgfe, 8);                          /* h0 h1 h4 h5 */
    __m128i cdgh = _mm_blend_epi16(hgfe, t, 0xf0);                       /* h2 h3 h6 h7 */
    for (; n > 0; n--, in += QUILL_SHA256_BLOCK) {
        const __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w[4]; /* w[j & 3] = W[4j .. 4j + 3] of the latest groups */
        for (int i = 0; i < 16; i++) {
            __m128i wi;
            if (i < 4) {
                wi = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(in + 16 * i)),
                                      bswap);
            } else {
                /* W[4i - 16..], W[4i - 12..], W[4i - 8..], W[4i - 4..] are
                 * in w[i & 3], w[(i + 1) & 3], w[(i + 2) & 3], w[(i + 3) & 3]. */
                __m128i s = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
                s = _mm_add_epi32(s, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                wi = _mm_sha256msg2_epu32(s, w[(i + 3) & 3]);
            }
            w[i & 3] = wi;
            __m128i wk = _mm_add_epi32(wi, _mm_load_si128((const __m128i *)(const void *)&K[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); /* rounds 4i, 4i + 1: new ABEF */
            wk = _mm_shuffle_epi32(wk, 0x0e);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk); /* rounds 4i + 2, 4i + 3 */
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    t = _mm_shuffle_epi32(abef, 0x1b);     /* h5 h4 h1 h0 */
    cdgh = _mm_shuffle_epi32(cdgh, 0xb1);  /* h7 h6 h3 h2 */
    dcba = _mm_blend_epi16(t, cdgh, 0xf0); /* h3 h2 h1 h0 */
    hgfe = _mm_alignr_epi8(cdgh, t, 8);    /* h7 h6 h5 h4 */
    _mm_storeu_si128((__m128i *)(void *)&h[0], dcba);
    _mm_storeu_si128((__m128i *)(void *)&h[4], hgfe);
}
#endif

int quill_sha256_shani_capable(void) {
#ifdef QUILL_SHA256_HAVE_SHANI
    return quill_cpu_has(QUILL_CPU_X86_SHA);
#else
    return 0;
#endif
}

static void blocks(uint32_t h[8], const uint8_t *in, size_t n) {
#ifdef QUILL_SHA256_HAVE_SHANI
    if (quill_sha256_shani_capable()) {
        quill_sha256_blocks_shani(h, in, n);
        return;
    }
#endif
    quill_sha256_blocks_c(h, in, n);
}

void quill_sha256_init(quill_sha256_ctx *c) {
    /* FIPS 180-4 5.3.3: the fractional parts of the square roots of the
     * first eight primes. */
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof(iv));
    c->n = 0;
    c->total = 0;
}

void quill_sha256_update(quill_sha256_ctx *c, const uint8_t *in, size_t len) {
    c->total += len;
    if (c->n > 0) {
        size_t take = QUILL_SHA256_BLOCK - c->n;
        if (take > len)
            take = len;
        memcpy(c->buf + c->n, in, take);
        c->n += take;
        in += take;
        len -= take;
        if (c->n < QUILL_SHA256_BLOCK)
            return;
        blocks(c->h, c->buf, 1);
        c->n = 0;
    }
    if (len >= QUILL_SHA256_BLOCK) {
        blocks(c->h, in, len / QUILL_SHA256_BLOCK);
        in += len - len % QUILL_SHA256_BLOCK;
        len %= QUILL_SHA256_BLOCK;
    }
    memcpy(c->buf, in, len);
    c->n = len;
}

void quill_sha256_final(quill_sha256_ctx *c, uint8_t out[QUILL_SHA256_SIZE]) {
    /* FIPS 180-4 5.1.1: 0x80, zeros, the length in bits (64-bit BE). */
    const uint64_t bits = c->total * 8;
    c->buf[c->n++] = 0x80;
    if (c->n > QUILL_SHA256_BLOCK - 8) {
        memset(c->buf + c->n, 0, QUILL_SHA256_BLOCK - c->n);
        blocks(c->h, c->buf, 1);
        c->n = 0;
    }
    memset(c->buf + c->n, 0, QUILL_SHA256_BLOCK - 8 - c->n);
    for (int i = 0; i < 8; i++)
        c->buf[QUILL_SHA256_BLOCK - 1 - i] = (uint8_t)(bits >> (8 * i));
    blocks(c->h, c->buf, 1);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
    quill_zeroize(c, sizeof(*c));
}
