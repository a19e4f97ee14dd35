/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSASSA-PKCS1-v1_5 (RFC 8017 8.2) with EMSA-PKCS1-v1_5 (9.2):
 *   EM = 0x00 || 0x01 || PS (0xff bytes, at least 8) || 0x00 || T,
 * T = DigestInfo prefix || H, or just the given bytes for QUILL_MD_NONE (and
 * the 36 bytes of QUILL_MD_MD5_SHA1, as TLS 1.0/1.1 sign them).
 * Verification re-encodes and compares the whole EM; it never parses. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* RFC 8017 9.2 step 3: emLen >= tLen + 11 (3 fixed bytes, 8 of PS). */
#define PKCS1_OVERHEAD 11

static quill_err emsa_pkcs1_encode(uint8_t *em, size_t k, quill_md md, const uint8_t *digest,
                                   size_t digest_len) {
    uint8_t prefix[QUILL_RSA_DIGEST_INFO_MAX];
    size_t plen = 0;
    if (!quill_rsa_md_known(md))
        return QUILL_ERR_UNSUPPORTED_DIGEST;
    if (md != QUILL_MD_NONE && digest_len != quill_md_size(md))
        return QUILL_ERR_DIGEST_LENGTH;
    if (!quill_rsa_md_raw(md) && (plen = quill_rsa_digest_info(md, prefix)) == 0)
        return QUILL_ERR_UNSUPPORTED_DIGEST;
    size_t t_len = plen + digest_len;
    if (t_len > k || k - t_len < PKCS1_OVERHEAD)
        return QUILL_ERR_DIGEST_TOO_BIG;
    size_t ps_len = k - t_len - 3;
    em[0] = 0x00;
    em[1] = 0x01;
    memset(em + 2, 0xff, ps_len);
    em[2 + ps_len] = 0x00;
    memcpy(em + 3 + ps_len, prefix, plen);
    if (digest_len > 0)
        memcpy(em + 3 + ps_len + plen, digest, digest_len);
    return QUILL_OK;
}

quill_err quill_rsa_pkcs1_sign(const quill_rsa_key *key, uint8_t *sig, quill_md md,
                               const uint8_t *digest, size_t digest_len, const quill_rng *rng) {
    if (key == NULL || sig == NULL || (digest == NULL && digest_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!key->has_private)
        return QUILL_ERR_KEY_MISSING_PRIVATE;
    uint8_t *em = quill_malloc(key->bytes);
    if (em == NULL)
        return QUILL_ERR_MEMORY;
    quill_err err = emsa_pkcs1_encode(em, key->bytes, md, digest, digest_len);
    if (err == QUILL_OK)
        err = quill_rsa_private(key, sig, em, key->bytes, rng);
    quill_zeroize(em, key->bytes);
    quill_free(em);
    return err;
}

quill_err quill_rsa_pkcs1_verify(const quill_rsa_key *key, const uint8_t *sig, size_t sig_len,
                                 quill_md md, const uint8_t *digest, size_t digest_len) {
    if (key == NULL || sig == NULL || (digest == NULL && digest_len != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    /* On the stack: public values, no allocation per verification. */
    uint8_t expected[QUILL_RSA_MAX_BITS / 8], em[QUILL_RSA_MAX_BITS / 8];
    if (key->bytes > sizeof(em))
        return QUILL_ERR_INTERNAL;
    quill_err err = emsa_pkcs1_encode(expected, key->bytes, md, digest, digest_len);
    if (err == QUILL_OK)
        err = quill_rsa_public_raw_vartime(key, em, sig, sig_len);
    if (err == QUILL_OK && memcmp(em, expected, key->bytes) != 0)
        err = QUILL_ERR_BAD_SIGNATURE;
    return err;
}

/* Parses 0x00 0x01 PS 0x00 payload for QUILL_MD_NONE: the payload offset, or
 * 0 if EM is not of that form.  Public data. */
static size_t raw_payload_offset_public(const uint8_t *em, size_t k) {
    if (k < PKCS1_OVERHEAD || em[0] != 0x00 || em[1] != 0x01)
        return 0;
    size_t i = 2;
    while (i < k && em[i] == 0xff)
        i++;
    if (i == k || em[i] != 0x00 || i - 2 < 8)
        return 0;
    return i + 1;
}

quill_err quill_rsa_pkcs1_recover(const quill_rsa_key *key, uint8_t *out, size_t cap,
                                  size_t *out_len, const uint8_t *sig, size_t sig_len,
                                  quill_md md) {
    if (key == NULL || out_len == NULL || sig == NULL || (out == NULL && cap != 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!quill_rsa_md_known(md))
        return QUILL_ERR_UNSUPPORTED_DIGEST;
    size_t k = key->bytes;
    uint8_t *buf = quill_malloc(2 * k);
    if (buf == NULL)
        return QUILL_ERR_MEMORY;
    uint8_t *em = buf, *expected = buf + k;
    const uint8_t *payload = NULL;
    size_t len = 0;
    quill_err err = quill_rsa_public_raw_vartime(key, em, sig, sig_len);
    if (err == QUILL_OK && md == QUILL_MD_NONE) {
        size_t off = raw_payload_offset_public(em, k);
        if (off == 0)
            err = QUILL_ERR_BAD_SIGNATURE;
        payload = em + off;
        len = k - off;
    } else if (err == QUILL_OK) {
        /* The digest is the last hLen bytes; the rest must be exactly the
         * encoding of that digest. */
        len = quill_md_size(md);
        payload = em + k - len;
        err = emsa_pkcs1_encode(expected, k, md, payload, len);
        if (err == QUILL_ERR_DIGEST_TOO_BIG || (err == QUILL_OK && memcmp(em, expected, k) != 0))
            err = QUILL_ERR_BAD_SIGNATURE;
    }
    if (err == QUILL_OK) {
        *out_len = len;
        if (cap < len)
            err = QUILL_ERR_BUFFER_TOO_SMALL;
        else if (len > 0)
            memcpy(out, payload, len);
    }
    quill_free(buf);
    return err;
}
