/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Bad input to quill's EC key manager and ECDSA signature, through EVP:
 * public points off the curve, at infinity or with a coordinate >= p;
 * private keys 0 or >= n, or not matching the public key; signatures with
 * r or s zero or >= n, malformed, non-minimal or negative DER, trailing
 * bytes; curves other than P-256 and explicit parameters (refused at import,
 * and the operation falls back to the default provider); bad nonce-type,
 * unsupported digests, short output buffers and public-only keys for
 * signing.  Each must fail with a reason string, never be accepted. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>

#include "ec_evp.h"
#include "qt_evp.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;

static const uint8_t order_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
static const uint8_t prime_p[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* Imports a P-256 key into quill from the given parts (pub may be NULL,
 * priv may be NULL; priv is 32 big-endian bytes).  Extra parameters may be
 * appended by |extra| (NULL-name terminated). */
static EVP_PKEY *quill_import(const char *group, const uint8_t *pub, size_t pub_len,
                              const uint8_t *priv, const OSSL_PARAM *extra) {
    OSSL_PARAM params[12];
    size_t n = 0;
    unsigned char native[32];
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
    if (pub != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub,
                                                        pub_len);
    if (priv != NULL) {
        for (size_t i = 0; i < 32; i++)
            native[i] = priv[31 - i]; /* little-endian host (x86-64) */
        params[n++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, native, 32);
    }
    for (size_t i = 0; extra != NULL && extra[i].key != NULL && n < 11; i++)
        params[n++] = extra[i];
    params[n] = OSSL_PARAM_construct_end();
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, "EC", ECT_QUILL);
    int sel = priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0 ||
        EVP_PKEY_fromdata(pctx, &key, sel, params) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(pctx);
    return key;
}

static void test_points(EVP_PKEY *good) {
    uint8_t *enc = NULL;
    size_t len = EVP_PKEY_get1_encoded_public_key(good, &enc);
    QT_CHECK(len == 65);
    EVP_PKEY *k = quill_import("P-256", enc, len, NULL, NULL);
    QT_CHECK(k != NULL); /* the control */
    EVP_PKEY_free(k);
    uint8_t bad[65];
    /* y + 1: off the curve. */
    memcpy(bad, enc, 65);
    bad[64] ^= 1;
    QT_CHECK(quill_import("P-256", bad, 65, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    /* x = p (coordinate out of range). */
    memcpy(bad, enc, 65);
    memcpy(bad + 1, prime_p, 32);
    QT_CHECK(quill_import("P-256", bad, 65, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    /* Infinity: the single byte 00, and (0, 0). */
    uint8_t inf = 0;
    QT_CHECK(quill_import("P-256", &inf, 1, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    memset(bad, 0, 65);
    bad[0] = 4;
    QT_CHECK(quill_import("P-256", bad, 65, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    /* Truncated, wrong prefix. */
    QT_CHECK(quill_import("P-256", enc, 64, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    memcpy(bad, enc, 65);
    bad[0] = 5;
    QT_CHECK(quill_import("P-256", bad, 65, NULL, NULL) == NULL);
    QT_CHECK(qt_error_has_reason());
    /* set_params of a bad encoded point is refused too. */
    k = quill_import("P-256", enc, len, NULL, NULL);
    memcpy(bad, enc, 65);
    bad[64] ^= 1;
    QT_CHECK(k != NULL && EVP_PKEY_set1_encoded_public_key(k, bad, 65) == 0);
    QT_CHECK(qt_error_has_reason());
    EVP_PKEY_free(k);
    OPENSSL_free(enc);
}

static void test_private(EVP_PKEY *good) {
    uint8_t *enc = NULL, priv[32] = {0};
    size_t len = EVP_PKEY_get1_encoded_public_key(good, &enc);
    QT_CHECK(quill_import("P-256", enc, len, priv, NULL) == NULL); /* 0 */
    QT_CHECK(qt_error_has_reason());
    QT_CHECK(quill_import("P-256", enc, len, order_n, NULL) == NULL); /* n */
    QT_CHECK(qt_error_has_reason());
    /* In range but not the key of this public point: imported, then the
     * pairwise check fails and so does signing-then-verifying. */
    priv[31] = 7;
    EVP_PKEY *k = quill_import("P-256", enc, len, priv, NULL);
    QT_CHECK(k != NULL);
    EVP_PKEY_CTX *c = k != NULL ? EVP_PKEY_CTX_new_from_pkey(libctx, k, NULL) : NULL;
    QT_CHECK(c != NULL && EVP_PKEY_pairwise_check(c) != 1);
    QT_CHECK(qt_error_has_reason());
    QT_CHECK(c != NULL && EVP_PKEY_private_check(c) == 1);
    EVP_PKEY_CTX_free(c);
    uint8_t sig[80];
    size_t sl = sizeof(sig);
    QT_CHECK(k != NULL && ect_sign(libctx, ECT_QUILL, k, "SHA256", priv, 32, ECT_ONESHOT, -1, sig,
                                   &sl, NULL));
    QT_CHECK(k != NULL && ect_verify(libctx, ECT_QUILL, k, "SHA256", priv, 32, ECT_ONESHOT, sig,
                                     sl, NULL) == 0);
    ERR_clear_error();
    EVP_PKEY_free(k);
    /* Signing with a public-only key. */
    k = quill_import("P-256", enc, len, NULL, NULL);
    sl = sizeof(sig);
    QT_CHECK(k != NULL && !ect_sign(libctx, ECT_QUILL, k, "SHA256", priv, 32, ECT_ONESHOT, -1, sig,
                                    &sl, NULL));
    QT_CHECK(qt_error_has_reason());
    EVP_PKEY_free(k);
    OPENSSL_free(enc);
}

static void test_curves(void) {
    /* Other curves and explicit parameters: quill refuses them on a core
     * before 3.4; a 3.4+ core gets them held for quill by the default
     * provider (provider/ec_key.c, import_foreign: its ECDSA-SHA2-256, ...
     * algorithms have no fallback), which refuses what it refuses... */
    const int held = qt_core_at_least(3, 4);
    EVP_PKEY *k384 = ect_keygen(libctx, ECT_DEFAULT, "P-384");
    QT_CHECK(k384 != NULL);
    EVP_PKEY *c384 = k384 != NULL ? ect_key_copy(libctx, ECT_QUILL, k384, EVP_PKEY_KEYPAIR) : NULL;
    if (held) {
        QT_CHECK(c384 != NULL && ect_is_quill(qt_pkey_provider(c384)) &&
                 EVP_PKEY_eq(c384, k384) == 1);
        ERR_clear_error();
    } else {
        QT_CHECK(c384 == NULL);
        QT_CHECK(qt_error_has_reason());
    }
    EVP_PKEY_free(c384);
    EVP_PKEY *kgood = ect_keygen(libctx, ECT_DEFAULT, "P-256");
    uint8_t *enc = NULL;
    size_t len = kgood != NULL ? EVP_PKEY_get1_encoded_public_key(kgood, &enc) : 0;
    static const char *const others[] = {"secp384r1", "secp521r1", "brainpoolP256r1",
                                         "secp256k1", "SM2", ""};
    for (size_t i = 0; i < QT_ARRAY_LEN(others); i++) {
        QT_CHECK(quill_import(others[i], enc, len, NULL, NULL) == NULL);
        QT_CHECK(qt_error_has_reason());
    }
    OSSL_PARAM explicit_enc[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING, (char *)"explicit", 0),
        OSSL_PARAM_construct_end()};
    OSSL_PARAM field[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_FIELD_TYPE,
                                                           (char *)"prime-field", 0),
                          OSSL_PARAM_construct_end()};
    const OSSL_PARAM *explicit_forms[] = {explicit_enc, field};
    for (size_t i = 0; i < QT_ARRAY_LEN(explicit_forms); i++) {
        EVP_PKEY *x = quill_import("P-256", enc, len, NULL, explicit_forms[i]);
        if (held) {
            /* The default provider takes these: held for quill. */
            QT_CHECK(x != NULL && ect_is_quill(qt_pkey_provider(x)));
            ERR_clear_error();
        } else {
            QT_CHECK(x == NULL);
            QT_CHECK(qt_error_has_reason());
        }
        EVP_PKEY_free(x);
    }
    OSSL_PARAM hybrid[] = {OSSL_PARAM_construct_utf8_string(
                               OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, (char *)"hybrid", 0),
                           OSSL_PARAM_construct_end()};
    QT_CHECK(quill_import("P-256", enc, len, NULL, hybrid) == NULL);
    QT_CHECK(qt_error_has_reason());
    /* ...while quill's key generation makes them, by the default provider
     * inside quill (provider/ec_foreign.h: OpenSSL 3.0's method cache can
     * route a generic EC key generation to quill), and refuses a curve
     * nobody has. */
    EVP_PKEY *q384 = ect_keygen(libctx, ECT_QUILL, "P-384");
    QT_CHECK(q384 != NULL && ect_is_quill(qt_pkey_provider(q384)) && EVP_PKEY_get_bits(q384) == 384);
    EVP_PKEY_free(q384);
    QT_CHECK(ect_keygen(libctx, ECT_QUILL, "no-such-curve") == NULL);
    QT_CHECK(qt_error_has_reason());
    /* ...while signing with such a key without a provider query falls back
     * to the default provider (on a 3.4+ core: quill, which has the default
     * provider sign, as for the keys its key generation makes). */
    uint8_t sig[160], msg[10] = {1, 2, 3};
    size_t sl = sizeof(sig);
    const OSSL_PROVIDER *ps = NULL;
    QT_CHECK(k384 != NULL && ect_sign(libctx, NULL, k384, "SHA384", msg, sizeof(msg), ECT_ONESHOT,
                                      -1, sig, &sl, &ps));
    QT_CHECK(ps != NULL && ect_is_quill(ps) == held);
    QT_CHECK(k384 != NULL && ect_verify(libctx, NULL, k384, "SHA384", msg, sizeof(msg),
                                        ECT_ONESHOT, sig, sl, NULL) == 1);
    ERR_clear_error();
    OPENSSL_free(enc);
    EVP_PKEY_free(kgood);
    EVP_PKEY_free(k384);
}

/* DER INTEGER of a 32-byte big-endian magnitude, minimal unless |pad|
 * leading zero bytes are forced; |raw| writes the bytes as they are (a
 * high bit then reads as negative). */
static size_t der_int(uint8_t *out, const uint8_t v[32], int pad, int raw) {
    size_t skip = 0;
    while (!raw && skip < 31 && v[skip] == 0)
        skip++;
    size_t mag = 32 - skip;
    size_t zeros = (size_t)pad + ((!raw && (v[skip] & 0x80) != 0) ? 1 : 0);
    out[0] = 0x02;
    out[1] = (uint8_t)(zeros + mag);
    memset(out + 2, 0, zeros);
    memcpy(out + 2 + zeros, v + skip, mag);
    return 2 + zeros + mag;
}

static size_t der_sig(uint8_t *out, const uint8_t r[32], const uint8_t s[32], int rpad, int rraw) {
    uint8_t body[80];
    size_t n = der_int(body, r, rpad, rraw);
    n += der_int(body + n, s, 0, 0);
    out[0] = 0x30;
    out[1] = (uint8_t)n;
    memcpy(out + 2, body, n);
    return n + 2;
}

static void expect_rejected(EVP_PKEY *key, const uint8_t *msg, size_t msg_len, const uint8_t *sig,
                            size_t sig_len, const char *what) {
    const OSSL_PROVIDER *pv = NULL;
    int r = ect_verify(libctx, ECT_QUILL, key, "SHA256", msg, msg_len, ECT_ONESHOT, sig, sig_len,
                       &pv);
    if (r != 0)
        fprintf(stderr, "%s: verify gave %d\n", what, r);
    QT_CHECK(r == 0);
    QT_CHECK(ect_is_quill(pv));
    QT_CHECK(qt_error_has_reason());
}

static void test_signatures(EVP_PKEY *key) {
    uint8_t msg[50], sig[80], rs[64];
    size_t sl = sizeof(sig);
    qt_rng_bytes(msg, sizeof(msg));
    QT_CHECK(ect_sign(libctx, ECT_QUILL, key, "SHA256", msg, sizeof(msg), ECT_ONESHOT, -1, sig, &sl,
                      NULL));
    QT_CHECK(ect_der_to_p1363(sig, sl, rs));
    uint8_t buf[100];
    size_t n;
    /* The control: our own re-encoding verifies. */
    n = der_sig(buf, rs, rs + 32, 0, 0);
    QT_CHECK(n == sl && memcmp(buf, sig, n) == 0);
    QT_CHECK(ect_verify(libctx, ECT_QUILL, key, "SHA256", msg, sizeof(msg), ECT_ONESHOT, buf, n,
                        NULL) == 1);
    uint8_t zero[32] = {0}, big[32];
    n = der_sig(buf, zero, rs + 32, 0, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "r = 0");
    n = der_sig(buf, rs, zero, 0, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "s = 0");
    n = der_sig(buf, order_n, rs + 32, 0, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "r = n");
    n = der_sig(buf, rs, order_n, 0, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "s = n");
    memset(big, 0xff, 32);
    n = der_sig(buf, big, rs + 32, 0, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "r = 2^256 - 1");
    /* r + n: the same residue, out of range. */
    {
        BIGNUM *r = BN_bin2bn(rs, 32, NULL), *nn = BN_bin2bn(order_n, 32, NULL);
        BN_add(r, r, nn);
        if (BN_num_bytes(r) <= 32) {
            BN_bn2binpad(r, big, 32);
            n = der_sig(buf, big, rs + 32, 0, 0);
            expect_rejected(key, msg, sizeof(msg), buf, n, "r + n");
        }
        BN_free(r);
        BN_free(nn);
    }
    n = der_sig(buf, rs, rs + 32, 1, 0);
    expect_rejected(key, msg, sizeof(msg), buf, n, "non-minimal r (extra 00)");
    if ((rs[0] & 0x80) != 0) {
        n = der_sig(buf, rs, rs + 32, 0, 1);
        expect_rejected(key, msg, sizeof(msg), buf, n, "negative r");
    }
    memcpy(buf, sig, sl);
    buf[sl] = 0;
    expect_rejected(key, msg, sizeof(msg), buf, sl + 1, "trailing byte");
    expect_rejected(key, msg, sizeof(msg), sig, sl - 1, "truncated");
    expect_rejected(key, msg, sizeof(msg), sig, 0, "empty");
    /* Long-form SEQUENCE length (not minimal). */
    buf[0] = 0x30;
    buf[1] = 0x81;
    buf[2] = sig[1];
    memcpy(buf + 3, sig + 2, sl - 2);
    expect_rejected(key, msg, sizeof(msg), buf, sl + 1, "long-form length");
    /* Wrong tag, and raw r || s instead of DER. */
    memcpy(buf, sig, sl);
    buf[0] = 0x31;
    expect_rejected(key, msg, sizeof(msg), buf, sl, "SET tag");
    expect_rejected(key, msg, sizeof(msg), rs, 64, "P1363 form");
    /* Every single-bit flip of a good signature is rejected. */
    size_t flips_ok = 0;
    for (size_t i = 0; i < sl * 8; i++) {
        memcpy(buf, sig, sl);
        buf[i / 8] ^= (uint8_t)(1u << (i % 8));
        flips_ok += ect_verify(libctx, ECT_QUILL, key, "SHA256", msg, sizeof(msg), ECT_ONESHOT,
                               buf, sl, NULL) == 0;
        ERR_clear_error();
    }
    QT_CHECK(flips_ok == sl * 8);
}

static void test_params(EVP_PKEY *key) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    QT_CHECK(EVP_DigestSignInit_ex(m, &pctx, "SHA256", libctx, ECT_QUILL, key, NULL) > 0);
    unsigned int two = 2;
    OSSL_PARAM p1[2] = {OSSL_PARAM_construct_uint("nonce-type", &two), OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pctx, p1) <= 0);
    QT_CHECK(qt_error_has_reason());
    OSSL_PARAM p2[2] = {OSSL_PARAM_construct_utf8_string("nonce-type", (char *)"1", 0),
                        OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pctx, p2) <= 0);
    QT_CHECK(qt_error_has_reason());
    /* The digest cannot change once hashing started. */
    OSSL_PARAM p3[2] = {OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                         (char *)"SHA384", 0),
                        OSSL_PARAM_construct_end()};
    QT_CHECK(EVP_PKEY_CTX_set_params(pctx, p3) <= 0);
    ERR_clear_error();
    EVP_MD_CTX_free(m);
    /* Digests ECDSA does not take. */
    static const char *const bad_md[] = {"MD5", "SHAKE128", "RIPEMD160", "NO-SUCH-DIGEST"};
    for (size_t i = 0; i < QT_ARRAY_LEN(bad_md); i++) {
        uint8_t sig[80];
        size_t sl = sizeof(sig);
        const OSSL_PROVIDER *ps = NULL;
        int ok =
            ect_sign(libctx, ECT_QUILL, key, bad_md[i], sig, 10, ECT_ONESHOT, -1, sig, &sl, &ps);
        QT_CHECK(!ok);
        ERR_clear_error();
    }
    /* Output buffer one byte short of the maximum. */
    uint8_t d[32] = {0}, sig[80];
    size_t sl = 71;
    QT_CHECK(!ect_sign_digest(libctx, ECT_QUILL, key, NULL, d, 32, sig, &sl, NULL));
    QT_CHECK(qt_error_has_reason());
    /* Deterministic signing with SHA3-256 (HMAC over a 136-byte block) is
     * repeatable and verifies with the default provider; hedged works too. */
    uint8_t sig2[80];
    size_t sl2 = sizeof(sig2);
    sl = sizeof(sig);
    QT_CHECK(ect_sign(libctx, ECT_QUILL, key, "SHA3-256", d, 32, ECT_ONESHOT, 1, sig, &sl, NULL));
    QT_CHECK(ect_sign(libctx, ECT_QUILL, key, "SHA3-256", d, 32, ECT_ONESHOT, 1, sig2, &sl2,
                      NULL));
    QT_CHECK(sl == sl2 && memcmp(sig, sig2, sl) == 0);
    QT_CHECK(ect_verify(libctx, ECT_DEFAULT, key, "SHA3-256", d, 32, ECT_ONESHOT, sig, sl, NULL) ==
             1);
    sl = sizeof(sig);
    QT_CHECK(ect_sign(libctx, ECT_QUILL, key, "SHA3-256", d, 32, ECT_ONESHOT, 0, sig, &sl, NULL));
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    qt_rng_seed(0x626164696e707574ULL);
    EVP_PKEY *qkey = ect_keygen(libctx, ECT_QUILL, "P-256");
    EVP_PKEY *dkey = ect_keygen(libctx, ECT_DEFAULT, "P-256");
    QT_CHECK(qkey != NULL && dkey != NULL);
    if (qkey != NULL && dkey != NULL) {
        test_points(dkey);
        test_private(dkey);
        test_curves();
        test_signatures(qkey);
        test_signatures(dkey);
        test_params(qkey);
    }
    EVP_PKEY_free(qkey);
    EVP_PKEY_free(dkey);
    qt_libctx_free(libctx, def, quill);
    return qt_finish("ec_badinput");
}
