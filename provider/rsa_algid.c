/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "rsa_algid.h"

#include <string.h>

/* Object identifiers, DER contents octets. */
typedef struct oid {
    uint8_t len;
    uint8_t bytes[11];
} oid;

/* pkcs-1 = 1.2.840.113549.1.1 */
#define PKCS1_OID(last) {9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, (last)}}
/* nistAlgorithms = 2.16.840.1.101.3.4: hashAlgs .2, sigAlgs .3 */
#define NIST_OID(arc, last) {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, (arc), (last)}}

static const oid oid_rsassa_pss = PKCS1_OID(10);
static const oid oid_mgf1 = PKCS1_OID(8);

static const struct {
    quill_md md;
    oid hash;      /* the digest's own identifier */
    oid with_rsa;  /* RSASSA-PKCS1-v1_5 with this digest */
    int pss;       /* usable in RSASSA-PSS-params (OpenSSL writes these only) */
} md_oids[] = {
    /* id-sha1 = 1.3.14.3.2.26 */
    {QUILL_MD_SHA1, {5, {0x2b, 0x0e, 0x03, 0x02, 0x1a}}, PKCS1_OID(5), 1},
    {QUILL_MD_SHA224, NIST_OID(2, 4), PKCS1_OID(14), 1},
    {QUILL_MD_SHA256, NIST_OID(2, 1), PKCS1_OID(11), 1},
    {QUILL_MD_SHA384, NIST_OID(2, 2), PKCS1_OID(12), 1},
    {QUILL_MD_SHA512, NIST_OID(2, 3), PKCS1_OID(13), 1},
    {QUILL_MD_SHA512_224, NIST_OID(2, 5), PKCS1_OID(15), 1},
    {QUILL_MD_SHA512_256, NIST_OID(2, 6), PKCS1_OID(16), 1},
    {QUILL_MD_SHA3_224, NIST_OID(2, 7), NIST_OID(3, 13), 1},
    {QUILL_MD_SHA3_256, NIST_OID(2, 8), NIST_OID(3, 14), 1},
    {QUILL_MD_SHA3_384, NIST_OID(2, 9), NIST_OID(3, 15), 1},
    {QUILL_MD_SHA3_512, NIST_OID(2, 10), NIST_OID(3, 16), 1},
    /* The legacy digests RSA signs with (as OpenSSL's default provider):
     * md5WithRSAEncryption pkcs-1.4 and md4WithRSAEncryption pkcs-1.3
     * (RFC 8017 A.2.4, RFC 2313), ripemd160WithRSA 1.3.36.3.3.1.2
     * (TeleTrusT); the hash OIDs id-md5 1.2.840.113549.2.5, id-md4 .2.4,
     * ripemd160 1.3.36.3.2.1.  Not in PSS parameters: OpenSSL refuses to
     * write those too. */
    {QUILL_MD_MD5, {8, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05}}, PKCS1_OID(4), 0},
    {QUILL_MD_MD4, {8, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x04}}, PKCS1_OID(3), 0},
    {QUILL_MD_RIPEMD160, {5, {0x2b, 0x24, 0x03, 0x02, 0x01}},
     {6, {0x2b, 0x24, 0x03, 0x03, 0x01, 0x02}}, 0},
};

static int md_index(quill_md md) {
    for (size_t i = 0; i < sizeof(md_oids) / sizeof(md_oids[0]); i++)
        if (md_oids[i].md == md)
            return (int)i;
    return -1;
}

/* A tiny DER writer for short structures: every length here is < 128, so
 * every length is one octet.  Writes go through w_put, which records
 * overflow instead of writing past cap. */
typedef struct der {
    uint8_t *out;
    size_t cap, len;
    int overflow;
} der;

static void w_put(der *w, const uint8_t *p, size_t n) {
    if (w->overflow || n > w->cap - w->len) {
        w->overflow = 1;
        return;
    }
    memcpy(w->out + w->len, p, n);
    w->len += n;
}

static void w_byte(der *w, uint8_t b) {
    w_put(w, &b, 1);
}

/* Opens a constructed element; returns the offset of its length octet. */
static size_t w_open(der *w, uint8_t tag) {
    w_byte(w, tag);
    size_t at = w->len;
    w_byte(w, 0);
    return at;
}

static void w_close(der *w, size_t at) {
    if (w->overflow)
        return;
    size_t content = w->len - at - 1;
    if (content > 127) {
        w->overflow = 1;
        return;
    }
    w->out[at] = (uint8_t)content;
}

static void w_oid(der *w, const oid *o) {
    w_byte(w, 0x06);
    w_byte(w, o->len);
    w_put(w, o->bytes, o->len);
}

/* AlgorithmIdentifier { o, NULL } */
static void w_algid_null(der *w, const oid *o) {
    size_t s = w_open(w, 0x30);
    w_oid(w, o);
    w_byte(w, 0x05);
    w_byte(w, 0x00);
    w_close(w, s);
}

/* A non-negative INTEGER in minimal DER. */
static void w_uint(der *w, unsigned long v) {
    uint8_t tmp[sizeof(v) + 1];
    size_t n = 0;
    do {
        tmp[sizeof(tmp) - 1 - n++] = (uint8_t)v;
        v >>= 8;
    } while (v != 0);
    if (tmp[sizeof(tmp) - n] & 0x80)
        tmp[sizeof(tmp) - 1 - n++] = 0;
    w_byte(w, 0x02);
    w_byte(w, (uint8_t)n);
    w_put(w, tmp + sizeof(tmp) - n, n);
}

size_t quill_rsa_algid_pkcs1(uint8_t *out, size_t cap, quill_md md) {
    int i = md_index(md);
    if (i < 0)
        return 0;
    der w = {out, cap, 0, 0};
    w_algid_null(&w, &md_oids[i].with_rsa);
    return w.overflow ? 0 : w.len;
}

size_t quill_rsa_algid_pss(uint8_t *out, size_t cap, quill_md md, quill_md mgf1, long salt_len) {
    int i = md_index(md), j = md_index(mgf1);
    if (i < 0 || j < 0 || !md_oids[i].pss || !md_oids[j].pss || salt_len < 0)
        return 0;
    der w = {out, cap, 0, 0};
    size_t algid = w_open(&w, 0x30);
    w_oid(&w, &oid_rsassa_pss);
    size_t params = w_open(&w, 0x30);
    if (md != QUILL_MD_SHA1) {
        size_t t = w_open(&w, 0xa0); /* [0] hashAlgorithm */
        w_algid_null(&w, &md_oids[i].hash);
        w_close(&w, t);
    }
    if (mgf1 != QUILL_MD_SHA1) {
        size_t t = w_open(&w, 0xa1); /* [1] maskGenAlgorithm */
        size_t mgf = w_open(&w, 0x30);
        w_oid(&w, &oid_mgf1);
        w_algid_null(&w, &md_oids[j].hash);
        w_close(&w, mgf);
        w_close(&w, t);
    }
    if (salt_len != 20) {
        size_t t = w_open(&w, 0xa2); /* [2] saltLength */
        w_uint(&w, (unsigned long)salt_len);
        w_close(&w, t);
    }
    w_close(&w, params);
    w_close(&w, algid);
    return w.overflow ? 0 : w.len;
}
