/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "der.h"

#include <string.h>

void quill_der_init(quill_der *w, uint8_t *out, size_t cap) {
    w->out = out;
    w->cap = cap;
    w->len = 0;
    w->overflow = 0;
}

size_t quill_der_finish(const quill_der *w) {
    return w->overflow ? 0 : w->len;
}

void quill_der_bytes(quill_der *w, const uint8_t *p, size_t n) {
    if (w->overflow || n > w->cap - w->len) {
        w->overflow = 1;
        return;
    }
    if (n > 0)
        memcpy(w->out + w->len, p, n);
    w->len += n;
}

void quill_der_byte(quill_der *w, uint8_t b) {
    quill_der_bytes(w, &b, 1);
}

/* The number of octets of a definite length field for |len|. */
static size_t len_size(size_t len) {
    if (len < 0x80)
        return 1;
    size_t n = 0;
    for (size_t v = len; v != 0; v >>= 8)
        n++;
    return 1 + n;
}

size_t quill_der_tlv_size(size_t content_len) {
    return 1 + len_size(content_len) + content_len;
}

void quill_der_header(quill_der *w, uint8_t tag, size_t len) {
    quill_der_byte(w, tag);
    size_t n = len_size(len);
    if (n == 1) {
        quill_der_byte(w, (uint8_t)len);
        return;
    }
    quill_der_byte(w, (uint8_t)(0x80 | (n - 1)));
    for (size_t i = n - 1; i-- > 0;)
        quill_der_byte(w, (uint8_t)(len >> (8 * i)));
}

size_t quill_der_open(quill_der *w, uint8_t tag) {
    quill_der_byte(w, tag);
    size_t at = w->len;
    quill_der_byte(w, 0);
    return at;
}

void quill_der_close(quill_der *w, size_t at) {
    if (w->overflow)
        return;
    size_t content = w->len - at - 1;
    if (content > 127) {
        w->overflow = 1;
        return;
    }
    w->out[at] = (uint8_t)content;
}

void quill_der_oid_put(quill_der *w, const uint8_t *oid, size_t len) {
    quill_der_header(w, QUILL_DER_OID, len);
    quill_der_bytes(w, oid, len);
}

size_t quill_der_algid_size(size_t len, quill_der_params params) {
    size_t inner = quill_der_tlv_size(len) + (params == QUILL_DER_PARAMS_NULL ? 2 : 0);
    return quill_der_tlv_size(inner);
}

void quill_der_algid(quill_der *w, const uint8_t *oid, size_t len, quill_der_params params) {
    size_t inner = quill_der_tlv_size(len) + (params == QUILL_DER_PARAMS_NULL ? 2 : 0);
    quill_der_header(w, QUILL_DER_SEQUENCE, inner);
    quill_der_oid_put(w, oid, len);
    if (params == QUILL_DER_PARAMS_NULL) {
        quill_der_byte(w, QUILL_DER_NULL);
        quill_der_byte(w, 0x00);
    }
}

void quill_der_uint(quill_der *w, unsigned long v) {
    uint8_t tmp[sizeof(v) + 1];
    size_t n = 0;
    do {
        tmp[sizeof(tmp) - 1 - n++] = (uint8_t)v;
        v >>= 8;
    } while (v != 0);
    if (tmp[sizeof(tmp) - n] & 0x80)
        tmp[sizeof(tmp) - 1 - n++] = 0;
    quill_der_header(w, QUILL_DER_INTEGER, n);
    quill_der_bytes(w, tmp + sizeof(tmp) - n, n);
}
