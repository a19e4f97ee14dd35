/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  See fuzz_mldsa_der.h. */
#include "fuzz_mldsa_der.h"

#include <string.h>

static size_t put_len(uint8_t *p, size_t n) {
    if (n < 128) {
        p[0] = (uint8_t)n;
        return 1;
    }
    if (n < 256) {
        p[0] = 0x81, p[1] = (uint8_t)n;
        return 2;
    }
    p[0] = 0x82, p[1] = (uint8_t)(n >> 8), p[2] = (uint8_t)n;
    return 3;
}

/* Tag, definite length (short form, or long form in one or two bytes) and
 * the n bytes at v (which may overlap p); returns the bytes written. */
static size_t put_tlv(uint8_t *p, uint8_t tag, const uint8_t *v, size_t n) {
    size_t o = 0;
    p[o++] = tag;
    o += put_len(p + o, n);
    memmove(p + o, v, n);
    return o + n;
}

/* The AlgorithmIdentifier of |set|: SEQUENCE { OID 2.16.840.1.101.3.4.3.(17+set) }. */
static size_t algid(uint8_t *p, quill_mldsa_set set) {
    uint8_t oid[] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11};
    oid[sizeof(oid) - 1] = (uint8_t)(0x11 + set);
    return put_tlv(p, 0x30, oid, sizeof(oid));
}

size_t quill_fuzz_mldsa_der(uint8_t *out, const quill_mldsa_key *k, quill_fuzz_mldsa_form form) {
    const quill_mldsa_set set = quill_mldsa_key_set(k);
    const size_t publen = quill_mldsa_pub_bytes(set);
    const size_t privlen = quill_mldsa_priv_bytes(set);
    uint8_t body[QUILL_FUZZ_MLDSA_DER_MAX], inner[QUILL_FUZZ_MLDSA_DER_MAX];
    size_t n, m;
    if (form == QUILL_FUZZ_MLDSA_SPKI) {
        n = algid(body, set);
        inner[0] = 0; /* the BIT STRING's unused bits */
        memcpy(inner + 1, quill_mldsa_key_pub(k), publen);
        n += put_tlv(body + n, 0x03, inner, publen + 1);
        return put_tlv(out, 0x30, body, n);
    }
    if (form == QUILL_FUZZ_MLDSA_PKI_SEED) {
        m = put_tlv(inner, 0x80, quill_mldsa_key_seed(k), 32);
    } else if (form == QUILL_FUZZ_MLDSA_PKI_EXPANDED) {
        m = put_tlv(inner, 0x04, quill_mldsa_key_priv(k), privlen);
    } else {
        uint8_t both[QUILL_FUZZ_MLDSA_DER_MAX];
        size_t b = put_tlv(both, 0x04, quill_mldsa_key_seed(k), 32);
        b += put_tlv(both + b, 0x04, quill_mldsa_key_priv(k), privlen);
        m = put_tlv(inner, 0x30, both, b);
    }
    static const uint8_t version[] = {0x02, 0x01, 0x00};
    memcpy(body, version, sizeof(version));
    n = sizeof(version);
    n += algid(body + n, set);
    n += put_tlv(body + n, 0x04, inner, m);
    return put_tlv(out, 0x30, body, n);
}
