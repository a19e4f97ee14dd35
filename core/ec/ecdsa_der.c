/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Strict DER encoding and parsing of ECDSA P-256 signatures (see
 * ecdsa_der.h; X.690 section 8.3 for INTEGER, 10.1 for minimal lengths). */
#include "ec/ecdsa_der.h"

#include <string.h>

/* Parses one INTEGER at der[*pos..len) into out (32 bytes, big-endian). */
static int parse_integer(uint8_t out[32], const uint8_t *der, size_t len, size_t *pos) {
    size_t p = *pos;
    if (len - p < 2 || der[p] != 0x02)
        return 0;
    size_t ilen = der[p + 1];
    p += 2;
    if (ilen == 0 || ilen > 0x7f || ilen > len - p) /* long form never minimal here */
        return 0;
    const uint8_t *v = der + p;
    if (v[0] & 0x80) /* negative */
        return 0;
    if (v[0] == 0x00 && ilen > 1 && !(v[1] & 0x80)) /* superfluous leading zero */
        return 0;
    if (v[0] == 0x00 && ilen > 1) {
        v++;
        ilen--;
    }
    if (ilen > 32)
        return 0;
    memset(out, 0, 32);
    memcpy(out + 32 - ilen, v, ilen);
    *pos = p + (size_t)(v - (der + p)) + ilen;
    return 1;
}

quill_err quill_ecdsa_p256_sig_from_der(uint8_t sig[64], const uint8_t *der, size_t len) {
    size_t pos = 2;
    if (sig == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (der == NULL || len < 2 || der[0] != 0x30 || der[1] > 0x7f || (size_t)der[1] != len - 2 ||
        !parse_integer(sig, der, len, &pos) || !parse_integer(sig + 32, der, len, &pos) ||
        pos != len) {
        memset(sig, 0, 64);
        return QUILL_ERR_BAD_SIGNATURE;
    }
    return QUILL_OK;
}

/* Writes the INTEGER for a 32-byte magnitude; returns its length. */
static size_t put_integer(uint8_t *out, const uint8_t v[32]) {
    size_t skip = 0;
    while (skip < 31 && v[skip] == 0)
        skip++;
    size_t mlen = 32 - skip;
    size_t pad = (v[skip] & 0x80) ? 1 : 0;
    if (out != NULL) {
        out[0] = 0x02;
        out[1] = (uint8_t)(mlen + pad);
        out[2] = 0x00;
        memcpy(out + 2 + pad, v + skip, mlen);
    }
    return 2 + pad + mlen;
}

quill_err quill_ecdsa_p256_sig_to_der(uint8_t *out, size_t cap, size_t *out_len,
                                      const uint8_t sig[64]) {
    if (out_len == NULL || sig == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    size_t lr = put_integer(NULL, sig), ls = put_integer(NULL, sig + 32);
    size_t total = 2 + lr + ls;
    *out_len = total;
    if (out == NULL)
        return QUILL_OK;
    if (cap < total)
        return QUILL_ERR_BUFFER_TOO_SMALL;
    out[0] = 0x30;
    out[1] = (uint8_t)(lr + ls);
    (void)put_integer(out + 2, sig);
    (void)put_integer(out + 2 + lr, sig + 32);
    return QUILL_OK;
}
