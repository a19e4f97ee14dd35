/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * provider_der: the provider's DER writer (provider/der.c) against
 * OpenSSL's own encoders: length headers (short and long form) and
 * tlv_size, minimal INTEGERs, AlgorithmIdentifiers with absent and NULL
 * parameters, nested elements through open/close; and that a short buffer
 * makes every write fail cleanly (length 0) without a byte written past
 * the end. */
#include <limits.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "../../provider/der.h"
#include "test_util.h"

/* Lengths either side of every change of the length field's size. */
static const size_t lengths[] = {0,     1,      2,       127,      128,      129,     255,
                                 256,   257,    1000,    65535,    65536,    65537,   100000,
                                 0xffffff, 0x1000000};

static void test_headers(void) {
    for (size_t i = 0; i < QT_ARRAY_LEN(lengths); i++) {
        size_t len = lengths[i];
        uint8_t mine[16], theirs[16];
        quill_der w;
        quill_der_init(&w, mine, sizeof(mine));
        quill_der_header(&w, QUILL_DER_OCTET_STRING, len);
        size_t n = quill_der_finish(&w);
        unsigned char *p = theirs;
        ASN1_put_object(&p, 0, (int)len, V_ASN1_OCTET_STRING, V_ASN1_UNIVERSAL);
        size_t m = (size_t)(p - theirs);
        QT_CHECK(n == m && memcmp(mine, theirs, n) == 0);
        QT_CHECK(quill_der_tlv_size(len)
                 == (size_t)ASN1_object_size(0, (int)len, V_ASN1_OCTET_STRING));
    }
}

static void check_uint(unsigned long v) {
    uint8_t mine[16];
    quill_der w;
    quill_der_init(&w, mine, sizeof(mine));
    quill_der_uint(&w, v);
    size_t n = quill_der_finish(&w);
    ASN1_INTEGER *a = ASN1_INTEGER_new();
    unsigned char *theirs = NULL;
    int m = a != NULL && ASN1_INTEGER_set_uint64(a, v) == 1 ? i2d_ASN1_INTEGER(a, &theirs) : -1;
    QT_CHECK(m > 0 && n == (size_t)m && memcmp(mine, theirs, n) == 0);
    OPENSSL_free(theirs);
    ASN1_INTEGER_free(a);
}

static void test_uints(void) {
    for (unsigned long v = 0; v < 600; v++)
        check_uint(v);
    for (unsigned b = 8; b < sizeof(unsigned long) * CHAR_BIT; b++) {
        unsigned long p = 1UL << b;
        check_uint(p - 1);
        check_uint(p);
        check_uint(p + 1);
    }
    check_uint(ULONG_MAX);
}

/* An AlgorithmIdentifier of the OID |text| with |params|, against
 * X509_ALGOR. */
static void check_algid(const char *text, quill_der_params params) {
    ASN1_OBJECT *obj = OBJ_txt2obj(text, 1);
    X509_ALGOR *alg = X509_ALGOR_new();
    unsigned char *theirs = NULL;
    int m = -1;
    if (obj != NULL && alg != NULL) {
        const unsigned char *oid = OBJ_get0_data(obj);
        size_t oid_len = OBJ_length(obj);
        uint8_t mine[64];
        quill_der w;
        quill_der_init(&w, mine, sizeof(mine));
        quill_der_algid(&w, oid, oid_len, params);
        size_t n = quill_der_finish(&w);
        if (X509_ALGOR_set0(alg, OBJ_dup(obj),
                            params == QUILL_DER_PARAMS_NULL ? V_ASN1_NULL : V_ASN1_UNDEF,
                            NULL) == 1)
            m = i2d_X509_ALGOR(alg, &theirs);
        QT_CHECK(m > 0 && n == (size_t)m && memcmp(mine, theirs, n) == 0);
        QT_CHECK(quill_der_algid_size(oid_len, params) == n);
    } else {
        QT_CHECK(!"OID not understood by OpenSSL");
    }
    OPENSSL_free(theirs);
    X509_ALGOR_free(alg);
    ASN1_OBJECT_free(obj);
}

static void test_algids(void) {
    static const char *const oids[] = {
        "1.2.840.113549.1.1.11",   /* sha256WithRSAEncryption */
        "1.2.840.10045.4.3.2",     /* ecdsa-with-SHA256 */
        "1.2.840.10045.4.1",       /* ecdsa-with-SHA1 */
        "2.16.840.1.101.3.4.3.18", /* id-ml-dsa-65 */
        "1.3.14.3.2.26",           /* id-sha1 */
        "1.3.36.3.3.1.2",          /* ripemd160WithRSA */
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(oids); i++) {
        check_algid(oids[i], QUILL_DER_PARAMS_ABSENT);
        check_algid(oids[i], QUILL_DER_PARAMS_NULL);
    }
}

/* SEQUENCE { [0] { AlgorithmIdentifier { id-sha256, NULL } }, [2] {
 * INTEGER 32 } }, as RSASSA-PSS-params are written, through open/close. */
static const uint8_t sha256_oid[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01};
static const uint8_t nested_want[] = {0x30, 0x16, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09,
                                      0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                      0x01, 0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20};

static size_t write_nested(uint8_t *out, size_t cap) {
    quill_der w;
    quill_der_init(&w, out, cap);
    size_t seq = quill_der_open(&w, QUILL_DER_SEQUENCE);
    size_t t0 = quill_der_open(&w, QUILL_DER_CONTEXT(0));
    quill_der_algid(&w, sha256_oid, sizeof(sha256_oid), QUILL_DER_PARAMS_NULL);
    quill_der_close(&w, t0);
    size_t t2 = quill_der_open(&w, QUILL_DER_CONTEXT(2));
    quill_der_uint(&w, 32);
    quill_der_close(&w, t2);
    quill_der_close(&w, seq);
    return quill_der_finish(&w);
}

static void test_nested_and_overflow(void) {
    uint8_t buf[sizeof(nested_want) + 8];
    QT_CHECK(write_nested(buf, sizeof(buf)) == sizeof(nested_want) &&
             memcmp(buf, nested_want, sizeof(nested_want)) == 0);
    /* Every shorter buffer: length 0 and nothing past the end touched. */
    for (size_t cap = 0; cap < sizeof(nested_want); cap++) {
        memset(buf, 0xee, sizeof(buf));
        QT_CHECK(write_nested(buf, cap) == 0);
        int clean = 1;
        for (size_t i = cap; i < sizeof(buf); i++)
            clean &= buf[i] == 0xee;
        QT_CHECK(clean);
    }
    /* open/close takes contents of up to 127 bytes only. */
    uint8_t big[200], zeros[128] = {0};
    quill_der w;
    quill_der_init(&w, big, sizeof(big));
    size_t at = quill_der_open(&w, QUILL_DER_SEQUENCE);
    quill_der_bytes(&w, zeros, 127);
    quill_der_close(&w, at);
    QT_CHECK(quill_der_finish(&w) == 129 && big[1] == 127);
    quill_der_init(&w, big, sizeof(big));
    at = quill_der_open(&w, QUILL_DER_SEQUENCE);
    quill_der_bytes(&w, zeros, 128);
    quill_der_close(&w, at);
    QT_CHECK(quill_der_finish(&w) == 0);
    /* A long-form header that does not fit. */
    quill_der_init(&w, big, 3);
    quill_der_header(&w, QUILL_DER_OCTET_STRING, 256);
    QT_CHECK(quill_der_finish(&w) == 0);
}

int main(void) {
    test_headers();
    test_uints();
    test_algids();
    test_nested_and_overflow();
    return qt_finish("provider_der");
}
