/* Copyright quill authors.  FIPS 204, section 7.2: encodings. */
#include "pack.h"

#include <string.h>

#include "common/zeroize.h"

/* Generic little-endian bit packing; the widths on hot paths (w1: 4 and 6
 * bits per coefficient) have straight-line forms.  The choice depends on
 * the public width only. */
static void pack_bits_generic(uint8_t *out, const uint32_t v[QUILL_MLDSA_N], unsigned bits) {
    uint64_t acc = 0;
    unsigned have = 0;
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        acc |= (uint64_t)v[i] << have;
        have += bits;
        while (have >= 8) { /* depends on bits only */
            *out++ = (uint8_t)acc;
            acc >>= 8;
            have -= 8;
        }
    }
}

void quill_mldsa_pack_bits(uint8_t *out, const uint32_t v[QUILL_MLDSA_N], unsigned bits) {
    if (bits == 4) {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 2; i++)
            out[i] = (uint8_t)(v[2 * i] | (v[2 * i + 1] << 4));
    } else if (bits == 6) {
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++) {
            uint32_t x = v[4 * i] | (v[4 * i + 1] << 6) | (v[4 * i + 2] << 12) | (v[4 * i + 3] << 18);
            out[3 * i] = (uint8_t)x;
            out[3 * i + 1] = (uint8_t)(x >> 8);
            out[3 * i + 2] = (uint8_t)(x >> 16);
        }
    } else if (bits == 10) { /* t1: 4 per 5 bytes */
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++) {
            uint64_t x = (uint64_t)v[4 * i] | ((uint64_t)v[4 * i + 1] << 10) |
                         ((uint64_t)v[4 * i + 2] << 20) | ((uint64_t)v[4 * i + 3] << 30);
            for (unsigned b = 0; b < 5; b++)
                out[5 * i + b] = (uint8_t)(x >> (8 * b));
        }
    } else if (bits == 13) { /* t0: 8 per 13 bytes */
        for (unsigned i = 0; i < QUILL_MLDSA_N / 8; i++) {
            uint64_t lo = 0, hi = 0; /* bits 0..63 and 64..103 */
            for (unsigned j = 0; j < 8; j++) {
                unsigned sh = 13 * j;
                uint64_t x = v[8 * i + j];
                if (sh < 64) /* public: the position, not the value */
                    lo |= x << sh;
                if (sh + 13 > 64)
                    hi |= sh >= 64 ? x << (sh - 64) : x >> (64 - sh);
            }
            for (unsigned b = 0; b < 8; b++)
                out[13 * i + b] = (uint8_t)(lo >> (8 * b));
            for (unsigned b = 0; b < 5; b++)
                out[13 * i + 8 + b] = (uint8_t)(hi >> (8 * b));
        }
    } else {
        pack_bits_generic(out, v, bits);
    }
}

static void unpack_bits_generic(uint32_t v[QUILL_MLDSA_N], const uint8_t *in, unsigned bits) {
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

static uint64_t load40(const uint8_t *p) {
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32);
}

/* Straight-line forms for z / ExpandMask (18 and 20 bits) and t1 (10). */
void quill_mldsa_unpack_bits(uint32_t v[QUILL_MLDSA_N], const uint8_t *in, unsigned bits) {
    if (bits == 20) { /* 2 per 5 bytes */
        for (unsigned i = 0; i < QUILL_MLDSA_N / 2; i++) {
            uint64_t x = load40(in + 5 * i);
            v[2 * i] = (uint32_t)(x & 0xfffff);
            v[2 * i + 1] = (uint32_t)(x >> 20);
        }
    } else if (bits == 18) { /* 4 per 9 bytes */
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++) {
            uint64_t x = load40(in + 9 * i), y = load40(in + 9 * i + 4) >> 4;
            v[4 * i] = (uint32_t)(x & 0x3ffff);
            v[4 * i + 1] = (uint32_t)((x >> 18) & 0x3ffff);
            v[4 * i + 2] = (uint32_t)(y & 0x3ffff);
            v[4 * i + 3] = (uint32_t)((y >> 18) & 0x3ffff);
        }
    } else if (bits == 10) { /* 4 per 5 bytes */
        for (unsigned i = 0; i < QUILL_MLDSA_N / 4; i++) {
            uint64_t x = load40(in + 5 * i);
            v[4 * i] = (uint32_t)(x & 0x3ff);
            v[4 * i + 1] = (uint32_t)((x >> 10) & 0x3ff);
            v[4 * i + 2] = (uint32_t)((x >> 20) & 0x3ff);
            v[4 * i + 3] = (uint32_t)(x >> 30);
        }
    } else {
        unpack_bits_generic(v, in, bits);
    }
}

void quill_mldsa_poly_pack_t1(uint8_t out[QUILL_MLDSA_T1_BYTES], const quill_mldsa_poly *t1) {
    quill_mldsa_pack_bits(out, (const uint32_t *)t1->c, 10);
}

void quill_mldsa_poly_unpack_t1(quill_mldsa_poly *t1, const uint8_t in[QUILL_MLDSA_T1_BYTES]) {
    quill_mldsa_unpack_bits((uint32_t *)t1->c, in, 10);
}

void quill_mldsa_poly_pack_t0(uint8_t out[QUILL_MLDSA_T0_BYTES], const quill_mldsa_poly *t0) {
    uint32_t v[QUILL_MLDSA_N];
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        v[i] = (uint32_t)((1 << (QUILL_MLDSA_D - 1)) - t0->c[i]);
    quill_mldsa_pack_bits(out, v, QUILL_MLDSA_D);
    quill_zeroize(v, sizeof(v));
}

void quill_mldsa_poly_unpack_t0(quill_mldsa_poly *t0, const uint8_t in[QUILL_MLDSA_T0_BYTES]) {
    quill_mldsa_unpack_bits((uint32_t *)t0->c, in, QUILL_MLDSA_D);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        t0->c[i] = (1 << (QUILL_MLDSA_D - 1)) - t0->c[i];
}

void quill_mldsa_poly_pack_eta(uint8_t *out, const quill_mldsa_poly *s,
                               const quill_mldsa_params *p) {
    uint32_t v[QUILL_MLDSA_N];
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        v[i] = (uint32_t)((int32_t)p->eta - s->c[i]);
    quill_mldsa_pack_bits(out, v, p->eta_bits);
    quill_zeroize(v, sizeof(v));
}

/* A decoded value v (eta - s) is out of range when v > 2 eta: 2 eta - v is
 * then negative, and its sign bits are ORed. */
quill_word quill_mldsa_poly_unpack_eta(quill_mldsa_poly *s, const uint8_t *in,
                                       const quill_mldsa_params *p) {
    const int32_t eta = (int32_t)p->eta;
    uint32_t bad = 0;
    quill_mldsa_unpack_bits((uint32_t *)s->c, in, p->eta_bits);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        bad |= (uint32_t)(2 * eta - s->c[i]);
        s->c[i] = eta - s->c[i];
    }
    return (quill_word)0 - (quill_word)(bad >> 31);
}

void quill_mldsa_poly_pack_z(uint8_t *out, const quill_mldsa_poly *z, const quill_mldsa_params *p) {
    uint32_t v[QUILL_MLDSA_N];
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        v[i] = (uint32_t)(p->gamma1 - z->c[i]);
    quill_mldsa_pack_bits(out, v, p->gamma1_bits + 1);
    quill_zeroize(v, sizeof(v));
}

void quill_mldsa_poly_unpack_z(quill_mldsa_poly *z, const uint8_t *in,
                               const quill_mldsa_params *p) {
    quill_mldsa_unpack_bits((uint32_t *)z->c, in, p->gamma1_bits + 1);
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        z->c[i] = p->gamma1 - z->c[i];
}

size_t quill_mldsa_pack_w1(uint8_t *out, const quill_mldsa_poly *w1, const quill_mldsa_params *p) {
    const size_t per = 32u * p->w1_bits;
    for (unsigned i = 0; i < p->k; i++)
        quill_mldsa_pack_bits(out + i * per, (const uint32_t *)w1[i].c, p->w1_bits);
    return per * p->k;
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

void quill_mldsa_pack_sk(uint8_t *sk, const uint8_t rho[32], const uint8_t key[32],
                         const uint8_t tr[64], const quill_mldsa_poly *s1,
                         const quill_mldsa_poly *s2, const quill_mldsa_poly *t0,
                         const quill_mldsa_params *p) {
    const size_t eta_bytes = 32u * p->eta_bits;
    memcpy(sk, rho, 32);
    memcpy(sk + 32, key, 32);
    memcpy(sk + 64, tr, 64);
    sk += 128;
    for (unsigned i = 0; i < p->l; i++, sk += eta_bytes)
        quill_mldsa_poly_pack_eta(sk, &s1[i], p);
    for (unsigned i = 0; i < p->k; i++, sk += eta_bytes)
        quill_mldsa_poly_pack_eta(sk, &s2[i], p);
    for (unsigned i = 0; i < p->k; i++, sk += QUILL_MLDSA_T0_BYTES)
        quill_mldsa_poly_pack_t0(sk, &t0[i]);
}

quill_word quill_mldsa_unpack_sk(uint8_t rho[32], uint8_t key[32], uint8_t tr[64],
                                 quill_mldsa_poly *s1, quill_mldsa_poly *s2, quill_mldsa_poly *t0,
                                 const uint8_t *sk, const quill_mldsa_params *p) {
    const size_t eta_bytes = 32u * p->eta_bits;
    quill_word bad = 0;
    memcpy(rho, sk, 32);
    memcpy(key, sk + 32, 32);
    memcpy(tr, sk + 64, 64);
    sk += 128;
    for (unsigned i = 0; i < p->l; i++, sk += eta_bytes)
        bad |= quill_mldsa_poly_unpack_eta(&s1[i], sk, p);
    for (unsigned i = 0; i < p->k; i++, sk += eta_bytes)
        bad |= quill_mldsa_poly_unpack_eta(&s2[i], sk, p);
    for (unsigned i = 0; i < p->k; i++, sk += QUILL_MLDSA_T0_BYTES)
        quill_mldsa_poly_unpack_t0(&t0[i], sk);
    return bad;
}

void quill_mldsa_pack_sig(uint8_t *sig, const uint8_t *ctilde, const quill_mldsa_poly *z,
                          const quill_mldsa_poly *h, const quill_mldsa_params *p) {
    const size_t z_bytes = 32u * (p->gamma1_bits + 1);
    memcpy(sig, ctilde, p->ctilde_bytes);
    sig += p->ctilde_bytes;
    for (unsigned i = 0; i < p->l; i++, sig += z_bytes)
        quill_mldsa_poly_pack_z(sig, &z[i], p);
    /* HintBitPack: the indices of the ones, then the running count per
     * polynomial. */
    memset(sig, 0, p->omega + p->k);
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        for (unsigned j = 0; j < QUILL_MLDSA_N; j++)
            if (h[i].c[j] != 0 && idx < p->omega)
                sig[idx++] = (uint8_t)j;
        sig[p->omega + i] = (uint8_t)idx;
    }
}

int quill_mldsa_unpack_sig_public(uint8_t *ctilde, quill_mldsa_poly *z, quill_mldsa_poly *h,
                                  const uint8_t *sig, const quill_mldsa_params *p) {
    const size_t z_bytes = 32u * (p->gamma1_bits + 1);
    memcpy(ctilde, sig, p->ctilde_bytes);
    sig += p->ctilde_bytes;
    for (unsigned i = 0; i < p->l; i++, sig += z_bytes)
        quill_mldsa_poly_unpack_z(&z[i], sig, p);
    /* HintBitUnpack (FIPS 204, Algorithm 21). */
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        unsigned end = sig[p->omega + i];
        memset(h[i].c, 0, sizeof(h[i].c));
        if (end < idx || end > p->omega)
            return 0;
        for (unsigned first = idx; idx < end; idx++) {
            if (idx > first && sig[idx - 1] >= sig[idx])
                return 0;
            h[i].c[sig[idx]] = 1;
        }
    }
    for (; idx < p->omega; idx++)
        if (sig[idx] != 0)
            return 0;
    return 1;
}
