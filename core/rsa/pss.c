/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSASSA-PSS (RFC 8017 8.1) with EMSA-PSS (9.1) and MGF1 (B.2.1), hashing
 * through the caller's quill_hash.  emBits = modBits - 1, so the encoded
 * message is emLen = ceil((modBits - 1) / 8) bytes, one less than k when
 * modBits = 1 mod 8.  The salt and everything on the verify side are public:
 * variable time is fine here. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* Largest hash output accepted (SHA-512, SHA3-512, SHAKE256 at 64 bytes). */
#define PSS_MAX_HASH 64

static int hash_ok(const quill_hash *h) {
    return h != NULL && h->digest != NULL && h->size > 0 && h->size <= PSS_MAX_HASH;
}

/* out[0..len) ^= MGF1(seed, len) (RFC 8017 B.2.1): the concatenation of
 * Hash(seed || C) for the 4-byte big-endian counters C = 0, 1, ... */
static int mgf1_xor(const quill_hash *mgf1, uint8_t *out, size_t len, const uint8_t *seed,
                    size_t seed_len) {
    uint8_t block[PSS_MAX_HASH], counter[4];
    for (uint32_t c = 0; len > 0; c++) {
        counter[0] = (uint8_t)(c >> 24);
        counter[1] = (uint8_t)(c >> 16);
        counter[2] = (uint8_t)(c >> 8);
        counter[3] = (uint8_t)c;
        const uint8_t *in[2] = {seed, counter};
        const size_t in_len[2] = {seed_len, sizeof(counter)};
        if (!mgf1->digest(mgf1, block, in, in_len, 2))
            return 0;
        size_t take = len < mgf1->size ? len : mgf1->size;
        for (size_t i = 0; i < take; i++)
            out[i] ^= block[i];
        out += take;
        len -= take;
    }
    return 1;
}

/* H = Hash(0x00 * 8 || mHash || salt) (RFC 8017 9.1.1 steps 5-6). */
static int pss_hash(const quill_hash *md, uint8_t *h, const uint8_t *mhash, const uint8_t *salt,
                    size_t salt_len) {
    static const uint8_t zeros[8] = {0};
    const uint8_t *in[3] = {zeros, mhash, salt};
    const size_t in_len[3] = {sizeof(zeros), md->size, salt_len};
    return md->digest(md, h, in, in_len, salt_len > 0 ? 3 : 2);
}

static size_t em_len(const quill_rsa_key *key) {
    return (key->bits - 1 + 7) / 8;
}

/* Bits of EM's first byte that must be zero: the leftmost 8 emLen - emBits. */
static uint8_t top_mask(const quill_rsa_key *key) {
    unsigned unused = (unsigned)(8 * em_len(key) - (key->bits - 1));
    return (uint8_t)(0xff >> unused);
}

long quill_rsa_pss_max_salt(const quill_rsa_key *key, const quill_hash *md) {
    if (key == NULL || md == NULL)
        return -1;
    return (long)em_len(key) - (long)md->size - 2;
}

quill_err quill_rsa_pss_sign(const quill_rsa_key *key, uint8_t *sig, const quill_hash *md,
                             const quill_hash *mgf1, const uint8_t *digest, size_t digest_len,
                             long salt_len, const quill_rng *rng) {
    if (key == NULL || sig == NULL || !hash_ok(md) || !hash_ok(mgf1) || digest == NULL ||
        rng == NULL || rng->fill == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!key->has_private)
        return QUILL_ERR_KEY_MISSING_PRIVATE;
    if (digest_len != md->size)
        return QUILL_ERR_DIGEST_LENGTH;
    size_t k = key->bytes, elen = em_len(key), hlen = md->size;
    if (elen < hlen + 2)
        return QUILL_ERR_DIGEST_TOO_BIG;
    if (salt_len < 0 || (size_t)salt_len > elen - hlen - 2)
        return QUILL_ERR_SALT_LENGTH;
    size_t slen = (size_t)salt_len, db_len = elen - hlen - 1;
    uint8_t *buf = quill_calloc(1, k + slen + 1);
    if (buf == NULL)
        return QUILL_ERR_MEMORY;
    uint8_t *full = buf, *salt = buf + k;
    uint8_t *em = full + (k - elen), *db = em, *h = em + db_len;
    quill_err err = QUILL_OK;
    if (slen > 0 && !rng->fill(rng->arg, salt, slen)) {
        err = QUILL_ERR_RNG;
        goto done;
    }
    if (!pss_hash(md, h, digest, salt, slen)) {
        err = QUILL_ERR_INTERNAL;
        goto done;
    }
    /* DB = PS (zeros) || 0x01 || salt, then masked; EM = maskedDB || H || 0xbc. */
    db[db_len - slen - 1] = 0x01;
    memcpy(db + db_len - slen, salt, slen);
    if (!mgf1_xor(mgf1, db, db_len, h, hlen)) {
        err = QUILL_ERR_INTERNAL;
        goto done;
    }
    db[0] &= top_mask(key);
    em[elen - 1] = 0xbc;
    err = quill_rsa_private(key, sig, full, k, rng);
done:
    quill_zeroize(buf, k + slen + 1);
    quill_free(buf);
    return err;
}

quill_err quill_rsa_pss_verify(const quill_rsa_key *key, const uint8_t *sig, size_t sig_len,
                               const quill_hash *md, const quill_hash *mgf1,
                               const uint8_t *digest, size_t digest_len, long salt_len) {
    if (key == NULL || sig == NULL || !hash_ok(md) || !hash_ok(mgf1) || digest == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (salt_len < QUILL_PSS_SALT_AUTO)
        return QUILL_ERR_SALT_LENGTH;
    if (digest_len != md->size)
        return QUILL_ERR_DIGEST_LENGTH;
    size_t k = key->bytes, elen = em_len(key), hlen = md->size;
    uint8_t *full = quill_malloc(k);
    if (full == NULL)
        return QUILL_ERR_MEMORY;
    uint8_t h2[PSS_MAX_HASH];
    quill_err err = quill_rsa_public_raw_vartime(key, full, sig, sig_len);
    if (err != QUILL_OK)
        goto done;
    err = QUILL_ERR_BAD_SIGNATURE;
    /* RFC 8017 8.1.2 step 2c: m must fit in emLen bytes. */
    if (k > elen && full[0] != 0)
        goto done;
    uint8_t *em = full + (k - elen);
    /* 9.1.2 step 3, with sLen >= 0 when it is known. */
    if (elen < hlen + 2 || (salt_len >= 0 && elen - hlen - 2 < (size_t)salt_len))
        goto done;
    /* Step 4: the rightmost octet is 0xbc. */
    if (em[elen - 1] != 0xbc)
        goto done;
    size_t db_len = elen - hlen - 1;
    uint8_t *db = em, *h = em + db_len;
    /* Step 6: the leftmost 8 emLen - emBits bits of maskedDB are zero. */
    if ((db[0] & ~top_mask(key)) != 0)
        goto done;
    /* Steps 7-9: DB = maskedDB xor MGF(H), leftmost bits cleared. */
    if (!mgf1_xor(mgf1, db, db_len, h, hlen)) {
        err = QUILL_ERR_INTERNAL;
        goto done;
    }
    db[0] &= top_mask(key);
    /* Step 10: zeros, then 0x01, then sLen bytes of salt. */
    size_t one_at;
    if (salt_len >= 0) {
        one_at = db_len - (size_t)salt_len - 1;
    } else {
        for (one_at = 0; one_at < db_len && db[one_at] == 0; one_at++)
            ;
        if (one_at == db_len)
            goto done;
    }
    for (size_t i = 0; i < one_at; i++)
        if (db[i] != 0)
            goto done;
    if (db[one_at] != 0x01)
        goto done;
    /* Steps 11-14: H' = Hash(0x00 * 8 || mHash || salt) == H. */
    size_t slen = db_len - one_at - 1;
    if (!pss_hash(md, h2, digest, db + one_at + 1, slen)) {
        err = QUILL_ERR_INTERNAL;
        goto done;
    }
    if (memcmp(h2, h, hlen) == 0)
        err = QUILL_OK;
done:
    quill_free(full);
    return err;
}
