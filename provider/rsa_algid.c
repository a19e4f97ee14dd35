/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "rsa_algid.h"

#include "der.h"

/* pkcs-1 = 1.2.840.113549.1.1 */
#define PKCS1_OID(last) {9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, (last)}}
/* nistAlgorithms = 2.16.840.1.101.3.4: hashAlgs .2, sigAlgs .3 */
#define NIST_OID(arc, last) {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, (arc), (last)}}

static const quill_der_oid oid_rsassa_pss = PKCS1_OID(10);
static const quill_der_oid oid_mgf1 = PKCS1_OID(8);

static const struct {
    quill_md md;
    quill_der_oid hash;     /* the digest's own identifier */
    quill_der_oid with_rsa; /* RSASSA-PKCS1-v1_5 with this digest */
    int pss;                /* usable in RSASSA-PSS-params (OpenSSL writes these only) */
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

/* AlgorithmIdentifier { o, NULL } */
static void algid_null(quill_der *w, const quill_der_oid *o) {
    quill_der_algid(w, o->bytes, o->len, QUILL_DER_PARAMS_NULL);
}

size_t quill_rsa_algid_pkcs1(uint8_t *out, size_t cap, quill_md md) {
    int i = md_index(md);
    if (i < 0)
        return 0;
    quill_der w;
    quill_der_init(&w, out, cap);
    algid_null(&w, &md_oids[i].with_rsa);
    return quill_der_finish(&w);
}

size_t quill_rsa_algid_pss(uint8_t *out, size_t cap, quill_md md, quill_md mgf1, long salt_len) {
    int i = md_index(md), j = md_index(mgf1);
    if (i < 0 || j < 0 || !md_oids[i].pss || !md_oids[j].pss || salt_len < 0)
        return 0;
    quill_der w;
    quill_der_init(&w, out, cap);
    size_t algid = quill_der_open(&w, QUILL_DER_SEQUENCE);
    quill_der_oid_put(&w, oid_rsassa_pss.bytes, oid_rsassa_pss.len);
    size_t params = quill_der_open(&w, QUILL_DER_SEQUENCE);
    if (md != QUILL_MD_SHA1) {
        size_t t = quill_der_open(&w, QUILL_DER_CONTEXT(0)); /* hashAlgorithm */
        algid_null(&w, &md_oids[i].hash);
        quill_der_close(&w, t);
    }
    if (mgf1 != QUILL_MD_SHA1) {
        size_t t = quill_der_open(&w, QUILL_DER_CONTEXT(1)); /* maskGenAlgorithm */
        size_t mgf = quill_der_open(&w, QUILL_DER_SEQUENCE);
        quill_der_oid_put(&w, oid_mgf1.bytes, oid_mgf1.len);
        algid_null(&w, &md_oids[j].hash);
        quill_der_close(&w, mgf);
        quill_der_close(&w, t);
    }
    if (salt_len != 20) {
        size_t t = quill_der_open(&w, QUILL_DER_CONTEXT(2)); /* saltLength */
        quill_der_uint(&w, (unsigned long)salt_len);
        quill_der_close(&w, t);
    }
    quill_der_close(&w, params);
    quill_der_close(&w, algid);
    return quill_der_finish(&w);
}
