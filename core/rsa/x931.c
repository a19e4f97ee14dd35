/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ANSI X9.31 rDSA signatures, in the form OpenSSL's RSA_X931_PADDING gives
 * them (so that quill and OpenSSL's default provider verify each other):
 *
 *   EM = 0x6b || 0xbb * (j - 1) || 0xba || payload || 0xcc   (j >= 1)
 *   EM = 0x6a || payload || 0xcc                             (j == 0)
 *
 * with j = k - |payload| - 2, payload = H || hash id (or the caller's bytes
 * when no digest is named), the signature s = EM^d mod n replaced by
 * min(s, n - s) (X9.31 section 5.5), and verification taking m = sig^e mod n,
 * or n - m when m is not 12 mod 16 (EM always ends in 0xcc, so EM = 12 mod
 * 16, and e is odd so (n - s)^e = n - EM).  The parser accepts exactly what
 * OpenSSL's does (at least one 0xbb after 0x6b).  Everything on the verify
 * side and the finished signature are public: variable time. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

#define X931_TRAILER 0xcc

uint8_t quill_rsa_x931_hash_id(quill_md md) {
    /* The hash identifiers OpenSSL's RSA_X931_hash_id knows (X9.31 also
     * lists RIPEMD-160 0x31, which OpenSSL refuses, so quill does too). */
    switch (md) {
    case QUILL_MD_SHA1:
        return 0x33;
    case QUILL_MD_SHA256:
        return 0x34;
    case QUILL_MD_SHA384:
        return 0x36;
    case QUILL_MD_SHA512:
        return 0x35;
    default:
        return 0;
    }
}

/* x = n - x for a public x (k bytes, x < n): the other square root of the
 * same EM class under the sign flip. */
static quill_err negate_public(const quill_rsa_key *key, uint8_t *x) {
    size_t nl = key->nl;
    quill_limb *buf = quill_calloc(nl, sizeof(quill_limb));
    if (buf == NULL)
        return QUILL_ERR_MEMORY;
    quill_err err = QUILL_OK;
    if (!quill_bn_from_bytes_be(buf, nl, x, key->bytes))
        err = QUILL_ERR_INTERNAL;
    else {
        (void)quill_bn_sub(buf, key->n, buf, nl);
        if (!quill_bn_to_bytes_be(x, key->bytes, buf, nl))
            err = QUILL_ERR_INTERNAL;
    }
    quill_free(buf);
    return err;
}

/* The payload: digest || hash id, or the caller's bytes for QUILL_MD_NONE. */
static quill_err payload_check(quill_md md, size_t digest_len) {
    if (md == QUILL_MD_NONE)
        return QUILL_OK;
    if (quill_rsa_x931_hash_id(md) == 0)
        return QUILL_ERR_UNSUPPORTED_DIGEST;
    return digest_len == quill_md_size(md) ? QUILL_OK : QUILL_ERR_DIGEST_LENGTH;
}

quill_err quill_rsa_x931_sign(const quill_rsa_key *key, uint8_t *sig, quill_md md,
                              const uint8_t *digest, size_t digest_len, const quill_rng *rng) {
    if (key == NULL || sig == NULL || (digest == NULL && digest_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!key->has_private)
        return QUILL_ERR_KEY_MISSING_PRIVATE;
    quill_err err = payload_check(md, digest_len);
    if (err != QUILL_OK)
        return err;
    size_t k = key->bytes, plen = digest_len + (md != QUILL_MD_NONE ? 1 : 0);
    if (plen + 2 > k)
        return QUILL_ERR_DIGEST_TOO_BIG;
    uint8_t *em = quill_malloc(k);
    if (em == NULL)
        return QUILL_ERR_MEMORY;
    size_t j = k - plen - 2, pos = 0;
    if (j == 0) {
        em[pos++] = 0x6a;
    } else {
        em[pos++] = 0x6b;
        memset(em + pos, 0xbb, j - 1);
        pos += j - 1;
        em[pos++] = 0xba;
    }
    if (digest_len > 0)
        memcpy(em + pos, digest, digest_len);
    pos += digest_len;
    if (md != QUILL_MD_NONE)
        em[pos++] = quill_rsa_x931_hash_id(md);
    em[pos] = X931_TRAILER;
    /* The input to the private operation is public (it is determined by
     * the digest); its result is released only after the fault check. */
    err = quill_rsa_private(key, sig, em, k, rng);
    if (err == QUILL_OK) {
        /* sig = min(s, n - s): the signature is public now. */
        memcpy(em, sig, k);
        err = negate_public(key, em);
        if (err == QUILL_OK && memcmp(em, sig, k) < 0)
            memcpy(sig, em, k);
        if (err != QUILL_OK)
            quill_zeroize(sig, k);
    }
    quill_zeroize(em, k);
    quill_free(em);
    return err;
}

/* Recovers the payload from |sig| into em (k bytes); *off and *len locate
 * it.  QUILL_ERR_BAD_SIGNATURE if EM is not of the X9.31 form. */
static quill_err x931_open_public(const quill_rsa_key *key, uint8_t *em, const uint8_t *sig,
                                  size_t sig_len, size_t *off, size_t *len) {
    size_t k = key->bytes;
    quill_err err = quill_rsa_public_raw_vartime(key, em, sig, sig_len);
    if (err != QUILL_OK)
        return err;
    if ((em[k - 1] & 0x0f) != (X931_TRAILER & 0x0f) && (err = negate_public(key, em)) != QUILL_OK)
        return err;
    if (k < 3 || (em[0] != 0x6a && em[0] != 0x6b))
        return QUILL_ERR_BAD_SIGNATURE;
    size_t pos = 1, plen = k - 2;
    if (em[0] == 0x6b) {
        size_t limit = k - 3, bb = 0;
        while (bb < limit && em[pos] != 0xba) {
            if (em[pos] != 0xbb)
                return QUILL_ERR_BAD_SIGNATURE;
            pos++;
            bb++;
        }
        if (bb == 0)
            return QUILL_ERR_BAD_SIGNATURE;
        if (bb < limit)
            pos++; /* the 0xba */
        plen = limit - bb;
    }
    if (em[pos + plen] != X931_TRAILER)
        return QUILL_ERR_BAD_SIGNATURE;
    *off = pos;
    *len = plen;
    return QUILL_OK;
}

quill_err quill_rsa_x931_recover(const quill_rsa_key *key, uint8_t *out, size_t cap,
                                 size_t *out_len, const uint8_t *sig, size_t sig_len,
                                 quill_md md) {
    if (key == NULL || out_len == NULL || sig == NULL || (out == NULL && cap != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (md != QUILL_MD_NONE && quill_rsa_x931_hash_id(md) == 0)
        return QUILL_ERR_UNSUPPORTED_DIGEST;
    uint8_t *em = quill_malloc(key->bytes);
    if (em == NULL)
        return QUILL_ERR_MEMORY;
    size_t off = 0, len = 0;
    quill_err err = x931_open_public(key, em, sig, sig_len, &off, &len);
    if (err == QUILL_OK && md != QUILL_MD_NONE) {
        /* The payload is H || hash id, with the id of |md|. */
        if (len != quill_md_size(md) + 1 || em[off + len - 1] != quill_rsa_x931_hash_id(md))
            err = QUILL_ERR_BAD_SIGNATURE;
        len--;
    }
    if (err == QUILL_OK) {
        *out_len = len;
        if (cap < len)
            err = QUILL_ERR_BUFFER_TOO_SMALL;
        else if (len > 0)
            memcpy(out, em + off, len);
    }
    quill_free(em);
    return err;
}

quill_err quill_rsa_x931_verify(const quill_rsa_key *key, const uint8_t *sig, size_t sig_len,
                                quill_md md, const uint8_t *digest, size_t digest_len) {
    if (key == NULL || sig == NULL || (digest == NULL && digest_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_err err = payload_check(md, digest_len);
    if (err != QUILL_OK)
        return err;
    uint8_t *got = quill_malloc(key->bytes);
    if (got == NULL)
        return QUILL_ERR_MEMORY;
    size_t len = 0;
    err = quill_rsa_x931_recover(key, got, key->bytes, &len, sig, sig_len, md);
    if (err == QUILL_ERR_BUFFER_TOO_SMALL)
        err = QUILL_ERR_INTERNAL; /* cannot happen: the payload is < k bytes */
    if (err == QUILL_OK && (len != digest_len || (len > 0 && memcmp(got, digest, len) != 0)))
        err = QUILL_ERR_BAD_SIGNATURE;
    quill_free(got);
    return err;
}
