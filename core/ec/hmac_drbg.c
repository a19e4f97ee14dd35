/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * HMAC and HMAC_DRBG over quill_hash (see hmac_drbg.h). */
#include "ec/hmac_drbg.h"

#include <string.h>

#include "common/zeroize.h"

static int hash_ok(const quill_hash *h) {
    return h != NULL && h->digest != NULL && h->size > 0 && h->size <= QUILL_HMAC_MAX_SIZE &&
           h->block_size >= h->size && h->block_size <= QUILL_HMAC_MAX_BLOCK;
}

quill_err quill_hmac(const quill_hash *h, uint8_t *out, const uint8_t *key, size_t key_len,
                     const uint8_t *const in[], const size_t in_len[], size_t count) {
    uint8_t k0[QUILL_HMAC_MAX_BLOCK], pad[QUILL_HMAC_MAX_BLOCK], inner[QUILL_HMAC_MAX_SIZE];
    const uint8_t *pieces[QUILL_HMAC_MAX_PIECES + 1];
    size_t lens[QUILL_HMAC_MAX_PIECES + 1];
    quill_err err = QUILL_ERR_INTERNAL;
    if (!hash_ok(h) || count > QUILL_HMAC_MAX_PIECES)
        return QUILL_ERR_INVALID_ARGUMENT;
    const size_t b = h->block_size;
    memset(k0, 0, b);
    if (key_len > b) { /* RFC 2104: keys longer than a block are hashed */
        const uint8_t *kp[1] = {key};
        size_t kl[1] = {key_len};
        if (!h->digest(h, k0, kp, kl, 1))
            goto done;
    } else if (key_len > 0) {
        memcpy(k0, key, key_len);
    }
    for (size_t i = 0; i < b; i++)
        pad[i] = k0[i] ^ 0x36;
    pieces[0] = pad;
    lens[0] = b;
    for (size_t i = 0; i < count; i++) {
        pieces[i + 1] = in[i];
        lens[i + 1] = in_len[i];
    }
    if (!h->digest(h, inner, pieces, lens, count + 1))
        goto done;
    for (size_t i = 0; i < b; i++)
        pad[i] = k0[i] ^ 0x5c;
    pieces[1] = inner;
    lens[1] = h->size;
    if (!h->digest(h, out, pieces, lens, 2))
        goto done;
    err = QUILL_OK;
done:
    if (err != QUILL_OK)
        quill_zeroize(out, h->size);
    quill_zeroize(k0, sizeof(k0));
    quill_zeroize(pad, sizeof(pad));
    quill_zeroize(inner, sizeof(inner));
    return err;
}

/* The core SHA-256 path (hmac_drbg.h): kin and kout = the SHA-256 states
 * after the key's ipad and opad blocks (RFC 2104; the 32-byte key is
 * padded with zeros to the 64-byte block). */
static void hmac256_setkey(quill_hmac_drbg *d) {
    uint8_t pad[QUILL_SHA256_BLOCK];
    for (size_t i = 0; i < sizeof(pad); i++)
        pad[i] = (uint8_t)((i < QUILL_SHA256_SIZE ? d->k[i] : 0) ^ 0x36);
    quill_sha256_init(&d->kin);
    quill_sha256_update(&d->kin, pad, sizeof(pad));
    for (size_t i = 0; i < sizeof(pad); i++)
        pad[i] ^= 0x36 ^ 0x5c;
    quill_sha256_init(&d->kout);
    quill_sha256_update(&d->kout, pad, sizeof(pad));
    quill_zeroize(pad, sizeof(pad));
}

/* out = HMAC_K(in[0] || ... || in[count - 1]) from K's pad states. */
static void hmac256(const quill_hmac_drbg *d, uint8_t out[QUILL_SHA256_SIZE],
                    const uint8_t *const in[], const size_t in_len[], size_t count) {
    quill_sha256_ctx c = d->kin;
    uint8_t inner[QUILL_SHA256_SIZE];
    for (size_t i = 0; i < count; i++)
        quill_sha256_update(&c, in[i], in_len[i]);
    quill_sha256_final(&c, inner);
    c = d->kout;
    quill_sha256_update(&c, inner, sizeof(inner));
    quill_sha256_final(&c, out);
    quill_zeroize(inner, sizeof(inner));
}

/* K = HMAC_K(V || sep || data), V = HMAC_K(V). */
static quill_err drbg_round(quill_hmac_drbg *d, uint8_t sep, const uint8_t *const data[],
                            const size_t data_len[], size_t count) {
    const uint8_t *pieces[QUILL_HMAC_MAX_PIECES];
    size_t lens[QUILL_HMAC_MAX_PIECES];
    uint8_t newk[QUILL_HMAC_MAX_SIZE];
    const size_t hl = d->h->size;
    quill_err err;
    pieces[0] = d->v;
    lens[0] = hl;
    pieces[1] = &sep;
    lens[1] = 1;
    for (size_t i = 0; i < count; i++) {
        pieces[i + 2] = data[i];
        lens[i + 2] = data_len[i];
    }
    if (d->core_sha256) {
        hmac256(d, newk, pieces, lens, count + 2);
        memcpy(d->k, newk, hl);
        hmac256_setkey(d);
        hmac256(d, newk, pieces, lens, 1); /* pieces[0] = V */
        memcpy(d->v, newk, hl);
        quill_zeroize(newk, sizeof(newk));
        return QUILL_OK;
    }
    err = quill_hmac(d->h, newk, d->k, hl, pieces, lens, count + 2);
    if (err == QUILL_OK) {
        memcpy(d->k, newk, hl);
        const uint8_t *vp[1] = {d->v};
        size_t vl[1] = {hl};
        err = quill_hmac(d->h, newk, d->k, hl, vp, vl, 1);
        if (err == QUILL_OK)
            memcpy(d->v, newk, hl);
    }
    quill_zeroize(newk, sizeof(newk));
    return err;
}

quill_err quill_hmac_drbg_update(quill_hmac_drbg *d, const uint8_t *const data[],
                                 const size_t data_len[], size_t count) {
    if (count > QUILL_HMAC_MAX_PIECES - 2)
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_err err = drbg_round(d, 0x00, data, data_len, count);
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += data_len[i];
    if (err == QUILL_OK && total > 0)
        err = drbg_round(d, 0x01, data, data_len, count);
    return err;
}

quill_err quill_hmac_drbg_init(quill_hmac_drbg *d, const quill_hash *h, const uint8_t *const seed[],
                               const size_t seed_len[], size_t count) {
    if (!hash_ok(h))
        return QUILL_ERR_INVALID_ARGUMENT;
    d->h = h;
    memset(d->k, 0x00, sizeof(d->k));
    memset(d->v, 0x01, sizeof(d->v));
    /* Only with the SHA extensions: the portable compression is slower
     * than the caller's (OpenSSL's assembly), more than the EVP calls saved
     * (hmac_drbg.h). */
    d->core_sha256 = h->is_sha256 && h->size == QUILL_SHA256_SIZE &&
                     h->block_size == QUILL_SHA256_BLOCK && quill_sha256_shani_capable();
    if (d->core_sha256)
        hmac256_setkey(d);
    quill_err err = quill_hmac_drbg_update(d, seed, seed_len, count);
    if (err != QUILL_OK)
        quill_hmac_drbg_clear(d);
    return err;
}

quill_err quill_hmac_drbg_generate(quill_hmac_drbg *d, uint8_t *out, size_t len) {
    const size_t hl = d->h->size;
    const uint8_t *vp[1] = {d->v};
    size_t vl[1] = {hl};
    uint8_t newv[QUILL_HMAC_MAX_SIZE];
    while (len > 0) {
        quill_err err = QUILL_OK;
        if (d->core_sha256)
            hmac256(d, newv, vp, vl, 1);
        else
            err = quill_hmac(d->h, newv, d->k, hl, vp, vl, 1);
        if (err != QUILL_OK) {
            quill_zeroize(newv, sizeof(newv));
            return err;
        }
        memcpy(d->v, newv, hl);
        size_t take = len < hl ? len : hl;
        memcpy(out, d->v, take);
        out += take;
        len -= take;
    }
    quill_zeroize(newv, sizeof(newv));
    return QUILL_OK;
}

void quill_hmac_drbg_clear(quill_hmac_drbg *d) {
    quill_zeroize(d->k, sizeof(d->k));
    quill_zeroize(d->v, sizeof(d->v));
    quill_zeroize(&d->kin, sizeof(d->kin));
    quill_zeroize(&d->kout, sizeof(d->kout));
}
