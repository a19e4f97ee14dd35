/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The sponge construction (FIPS 202, Section 4 and Algorithm 8) over
 * Keccak-f[1600]: SHA3-256 and SHA3-512 (Section 6.1), SHAKE128 and SHAKE256
 * (Section 6.2).
 *
 * Byte i of a block is byte i mod 8 (little-endian) of lane i / 8 (FIPS 202,
 * Appendix B.1), so whole lanes are loaded and stored with memcpy plus a byte
 * swap on big-endian hosts, and single bytes are shifted into place.
 *
 * Padding: the domain suffix (01 for SHA-3, 1111 for SHAKE) and the first
 * bit of pad10*1 form the byte dsbyte (0x06, 0x1f), written at the first free
 * position; the final 1 bit of pad10*1 is bit 7 of the last byte of the block.
 * When only one byte is free both land in it (0x86, 0x9f), as FIPS 202
 * requires.
 *
 * pos counts bytes used in the current block.  While absorbing, pos < rate
 * (a full block is permuted at once).  While squeezing, pos = rate means the
 * block is spent and the next output byte needs a permutation first. */
#include "sha3.h"

#include <assert.h>
#include <string.h>

#include "common/endian.h"
#include "common/zeroize.h"

static void keccak_init(quill_keccak *k, unsigned rate, uint8_t dsbyte) {
    memset(k->s, 0, sizeof(k->s));
    k->rate = rate;
    k->pos = 0;
    k->dsbyte = dsbyte;
    k->squeezing = 0;
}

void quill_shake128_init(quill_keccak *k) {
    keccak_init(k, QUILL_SHAKE128_RATE, 0x1f);
}

void quill_shake256_init(quill_keccak *k) {
    keccak_init(k, QUILL_SHAKE256_RATE, 0x1f);
}

void quill_sha3_256_init(quill_keccak *k) {
    keccak_init(k, QUILL_SHA3_256_RATE, 0x06);
}

void quill_sha3_512_init(quill_keccak *k) {
    keccak_init(k, QUILL_SHA3_512_RATE, 0x06);
}

/* xor_bytes adds |len| bytes at block offset |pos| (pos + len <= rate):
 * the bytes up to a lane boundary and the tail gathered into one word
 * each, whole lanes in between (one read-modify-write per lane, not per
 * byte).  Which lanes and bytes are touched depends on pos and len only. */
static void xor_bytes(uint64_t s[25], unsigned pos, const uint8_t *in, size_t len) {
    size_t i = 0;
    if ((pos & 7) != 0) {
        uint64_t w = 0;
        unsigned sh = 8 * (pos & 7);
        for (; i < len && sh < 64; i++, sh += 8)
            w |= (uint64_t)in[i] << sh;
        s[pos >> 3] ^= w;
        pos += (unsigned)i;
    }
    for (; i + 8 <= len; i += 8, pos += 8)
        s[pos >> 3] ^= quill_load_le64(in + i);
    if (i < len) {
        uint64_t w = 0;
        for (unsigned sh = 0; i < len; i++, sh += 8)
            w |= (uint64_t)in[i] << sh;
        s[pos >> 3] ^= w;
    }
}

void quill_keccak_absorb(quill_keccak *k, const uint8_t *in, size_t len) {
    const unsigned rate = k->rate;
    assert(!k->squeezing);

    if (k->pos != 0) {
        size_t n = rate - k->pos;
        if (len < n) {
            xor_bytes(k->s, k->pos, in, len);
            k->pos += (unsigned)len;
            return;
        }
        xor_bytes(k->s, k->pos, in, n);
        quill_keccak_f1600(k->s);
        k->pos = 0;
        in += n;
        len -= n;
    }
    while (len >= rate) {
        for (unsigned i = 0; i < rate / 8; i++)
            k->s[i] ^= quill_load_le64(in + 8 * i);
        quill_keccak_f1600(k->s);
        in += rate;
        len -= rate;
    }
    xor_bytes(k->s, 0, in, len);
    k->pos = (unsigned)len;
}

/* keccak_pad ends the absorbing phase: pad10*1 with the domain suffix, then
 * the permutation that makes the first output block. */
void quill_keccak_pad_only(quill_keccak *k) {
    const unsigned last = k->rate - 1;
    k->s[k->pos >> 3] ^= (uint64_t)k->dsbyte << (8 * (k->pos & 7));
    k->s[last >> 3] ^= (uint64_t)0x80 << (8 * (last & 7));
    k->pos = k->rate;
    k->squeezing = 1;
}

static void keccak_pad(quill_keccak *k) {
    quill_keccak_pad_only(k);
    quill_keccak_f1600(k->s);
    k->pos = 0;
}

void quill_keccak_squeeze(quill_keccak *k, uint8_t *out, size_t len) {
    if (!k->squeezing)
        keccak_pad(k);
    while (len > 0) {
        if (k->pos == k->rate) {
            quill_keccak_f1600(k->s);
            k->pos = 0;
        }
        unsigned pos = k->pos;
        size_t n = k->rate - pos;
        if (n > len)
            n = len;
        size_t i = 0;
        /* Bytes up to a lane boundary, whole lanes, then the tail. */
        for (; i < n && ((pos + i) & 7) != 0; i++)
            out[i] = (uint8_t)(k->s[(pos + i) >> 3] >> (8 * ((pos + i) & 7)));
        for (; i + 8 <= n; i += 8)
            quill_store_le64(out + i, k->s[(pos + i) >> 3]);
        for (; i < n; i++)
            out[i] = (uint8_t)(k->s[(pos + i) >> 3] >> (8 * ((pos + i) & 7)));
        k->pos = pos + (unsigned)n;
        out += n;
        len -= n;
    }
}

void quill_keccak_squeeze_blocks(quill_keccak *k, uint8_t *out, size_t nblocks) {
    if (!k->squeezing)
        keccak_pad(k);
    const unsigned rate = k->rate;
    if (k->pos != 0 && k->pos != rate) {
        /* Not block-aligned: a misuse, but the byte-wise path still gives
         * the right stream. */
        assert(!"quill_keccak_squeeze_blocks: stream not block-aligned");
        quill_keccak_squeeze(k, out, nblocks * rate);
        return;
    }
    for (size_t b = 0; b < nblocks; b++) {
        if (k->pos == rate)
            quill_keccak_f1600(k->s);
        for (unsigned i = 0; i < rate / 8; i++)
            quill_store_le64(out + 8 * i, k->s[i]);
        k->pos = rate;
        out += rate;
    }
}

void quill_sha3_256_final(quill_keccak *k, uint8_t out[32]) {
    quill_keccak_squeeze(k, out, 32);
}

void quill_sha3_512_final(quill_keccak *k, uint8_t out[64]) {
    quill_keccak_squeeze(k, out, 64);
}

void quill_sha3_256(uint8_t out[32], const uint8_t *in, size_t len) {
    quill_keccak k;
    quill_sha3_256_init(&k);
    quill_keccak_absorb(&k, in, len);
    quill_sha3_256_final(&k, out);
    quill_keccak_zeroize(&k);
}

void quill_sha3_512(uint8_t out[64], const uint8_t *in, size_t len) {
    quill_keccak k;
    quill_sha3_512_init(&k);
    quill_keccak_absorb(&k, in, len);
    quill_sha3_512_final(&k, out);
    quill_keccak_zeroize(&k);
}

void quill_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t len) {
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, in, len);
    quill_keccak_squeeze(&k, out, out_len);
    quill_keccak_zeroize(&k);
}

void quill_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t len) {
    quill_keccak k;
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, in, len);
    quill_keccak_squeeze(&k, out, out_len);
    quill_keccak_zeroize(&k);
}

void quill_keccak_zeroize(quill_keccak *k) {
    quill_zeroize(k, sizeof(*k));
}
