/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ec_decoder: quill's P-256 SubjectPublicKeyInfo decoder (provider/
 * ec_codec_dec.c) against the default provider's, each in its own library
 * context (default + quill with ?quill.sig=yes, and default alone).
 * - 24 random P-256 keys, uncompressed and compressed: the key decoded
 *   with quill loaded is held by quill, equals the default provider's
 *   (EVP_PKEY_eq), encodes back to the same DER, reports its group and
 *   size, and verifies the default provider's signatures (and rejects a
 *   tampered one) as a key used once;
 * - 3000 mutations of those encodings (bit flips, truncation, an appended
 *   byte, a changed length or point prefix) and fixed bad points (not on
 *   the curve, x = p, hybrid form, infinity): decoding succeeds with quill
 *   loaded exactly when it does without, to the same DER, and a key quill
 *   holds always came from an exact P-256 form;
 * - a P-384 key stays with the default provider; private keys still decode;
 * - a self-signed P-256 certificate parsed with quill loaded has its key in
 *   quill and its signature verifies. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "ec_evp.h"
#include "qt_evp.h"
#include "test_util.h"

#define N_KEYS 24
#define N_MUTATIONS 3000

static OSSL_LIB_CTX *lq, *ld;

/* DER of |k| as SubjectPublicKeyInfo (caller frees), or NULL. */
static unsigned char *spki_of(EVP_PKEY *k, int *len) {
    unsigned char *der = NULL;
    *len = i2d_PUBKEY(k, &der);
    return *len > 0 ? der : NULL;
}

static EVP_PKEY *decode(OSSL_LIB_CTX *ctx, const unsigned char *der, int len) {
    const unsigned char *p = der;
    EVP_PKEY *k = d2i_PUBKEY_ex(NULL, &p, len, ctx, NULL);
    if (k != NULL && p != der + len) { /* d2i must consume exactly the input */
        EVP_PKEY_free(k);
        k = NULL;
    }
    ERR_clear_error();
    return k;
}

/* Decodes |der| in both contexts and checks that they agree; returns 1 if
 * quill holds the key. */
static int compare_decode(const unsigned char *der, int len, int expect_quill) {
    EVP_PKEY *kq = decode(lq, der, len), *kd = decode(ld, der, len);
    int held = kq != NULL && ect_is_quill(EVP_PKEY_get0_provider(kq));
    if (getenv("QT_VERBOSE") != NULL)
        fprintf(stderr, "len %d prefix %02x: quill %s, default %s, held %d\n", len,
                len > 26 ? der[26] : 0, kq ? "ok" : "no", kd ? "ok" : "no", held);
    QT_CHECK((kq != NULL) == (kd != NULL));
    if (expect_quill >= 0)
        QT_CHECK(held == expect_quill);
    if (kq != NULL && kd != NULL) {
        int lq_len = 0, ld_len = 0;
        unsigned char *eq = spki_of(kq, &lq_len), *ed = spki_of(kd, &ld_len);
        /* (the default provider takes the point at infinity and then
         * cannot encode it: the same in both contexts) */
        QT_CHECK((eq == NULL) == (ed == NULL));
        QT_CHECK(eq == NULL || (lq_len == ld_len && memcmp(eq, ed, (size_t)lq_len) == 0));
        QT_CHECK(eq == NULL || EVP_PKEY_eq(kq, kd) == 1);
        QT_CHECK(!held || eq != NULL);
        OPENSSL_free(eq);
        OPENSSL_free(ed);
    }
    EVP_PKEY_free(kq);
    EVP_PKEY_free(kd);
    ERR_clear_error();
    return held;
}

/* The checks on one valid encoding of |priv|'s public key. */
static void check_valid(EVP_PKEY *priv, const unsigned char *der, int len, unsigned seed) {
    QT_CHECK(compare_decode(der, len, 1) == 1);
    EVP_PKEY *kq = decode(lq, der, len);
    QT_CHECK(kq != NULL);
    if (kq == NULL)
        return;
    char group[32] = "";
    QT_CHECK(EVP_PKEY_get_utf8_string_param(kq, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
                                            NULL) == 1 &&
             strcmp(group, "prime256v1") == 0);
    QT_CHECK(EVP_PKEY_get_bits(kq) == 256);
    int elen = 0;
    unsigned char *enc = spki_of(kq, &elen);
    QT_CHECK(enc != NULL && elen == len && memcmp(enc, der, (size_t)len) == 0);
    OPENSSL_free(enc);
    uint8_t msg[48], sig[80];
    size_t sig_len = sizeof(sig);
    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (uint8_t)(seed * 131 + i);
    QT_CHECK(ect_sign(ld, ECT_DEFAULT, priv, "SHA256", msg, sizeof(msg), ECT_ONESHOT, -1, sig,
                      &sig_len, NULL) == 1);
    const OSSL_PROVIDER *served = NULL;
    QT_CHECK(ect_verify(lq, ECT_QUILL, kq, "SHA256", msg, sizeof(msg), ECT_ONESHOT, sig, sig_len,
                        &served) == 1);
    QT_CHECK(ect_is_quill(served));
    EVP_PKEY_free(kq);
    /* A second fresh key, a tampered signature. */
    kq = decode(lq, der, len);
    sig[sig_len - 1] ^= 0x01;
    QT_CHECK(kq != NULL && ect_verify(lq, ECT_QUILL, kq, "SHA256", msg, sizeof(msg), ECT_ONESHOT,
                                      sig, sig_len, NULL) == 0);
    EVP_PKEY_free(kq);
    ERR_clear_error();
}

/* A random change of |der| into |out|; returns the new length. */
static int mutate(const unsigned char *der, int len, unsigned char *out, unsigned r) {
    memcpy(out, der, (size_t)len);
    switch (r % 6) {
    case 0: /* a bit anywhere */
        out[(r >> 3) % (unsigned)len] ^= (unsigned char)(1u << ((r >> 16) % 8));
        return len;
    case 1: /* truncated */
        return (int)((r >> 3) % (unsigned)len);
    case 2: /* one byte appended */
        out[len] = (unsigned char)(r >> 8);
        return len + 1;
    case 3: /* the outer, algorithm or BIT STRING length */
        out[(r >> 3) % 2 ? 1 : 24] ^= (unsigned char)(1u << ((r >> 16) % 8));
        return len;
    case 4: /* the point's prefix byte: 0..7 */
        out[26] = (unsigned char)((r >> 3) % 8);
        return len;
    default: /* a byte of the OIDs */
        out[6 + (r >> 3) % 17] ^= (unsigned char)(1u + (r >> 16) % 255);
        return len;
    }
}

static void check_fixed_bad(const unsigned char *der, int len) {
    unsigned char bad[128];
    /* y + 1 (uncompressed) or x + 1 (compressed, may be a point): the
     * verdicts must agree */
    memcpy(bad, der, (size_t)len);
    bad[len - 1] ^= 0x01;
    QT_CHECK(compare_decode(bad, len, len == 91 ? 0 : -1) == 0 || len == 59);
    /* x = p: out of range in either form */
    static const unsigned char p[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    memcpy(bad, der, (size_t)len);
    memcpy(bad + 27, p, 32);
    QT_CHECK(compare_decode(bad, len, 0) == 0);
    /* hybrid form (0x06/0x07 with the parity of y): never quill's */
    memcpy(bad, der, (size_t)len);
    bad[26] = (unsigned char)(0x06 | (der[len - 1] & 1));
    (void)compare_decode(bad, len, 0);
    /* the point at infinity as a single 0x00 byte */
    static const unsigned char inf[] = {0x30, 0x19, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48,
                                        0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
                                        0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x02, 0x00, 0x00};
    QT_CHECK(compare_decode(inf, (int)sizeof(inf), 0) == 0);
}

static void check_certificate(EVP_PKEY *priv) {
    X509 *x = X509_new_ex(ld, NULL);
    QT_CHECK(x != NULL);
    if (x == NULL)
        return;
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, priv);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
                               (const unsigned char *)"quill", -1, -1, 0);
    X509_set_issuer_name(x, X509_get_subject_name(x));
    QT_CHECK(X509_sign(x, priv, EVP_sha256()) > 0);
    unsigned char *der = NULL;
    int len = i2d_X509(x, &der);
    QT_CHECK(len > 0);
    X509_free(x);
    X509 *y = X509_new_ex(lq, NULL);
    const unsigned char *p = der;
    QT_CHECK(y != NULL && d2i_X509(&y, &p, len) != NULL);
    EVP_PKEY *pub = y != NULL ? X509_get0_pubkey(y) : NULL;
    QT_CHECK(pub != NULL && ect_is_quill(EVP_PKEY_get0_provider(pub)));
    QT_CHECK(pub != NULL && X509_verify(y, pub) == 1);
    QT_CHECK(pub != NULL && X509_check_private_key(y, priv) == 1);
    X509_free(y);
    OPENSSL_free(der);
    ERR_clear_error();
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL, *def2 = NULL;
    lq = qt_evp_libctx_new(&def, &quill);
    ld = OSSL_LIB_CTX_new();
    if (lq == NULL || ld == NULL || (def2 = OSSL_PROVIDER_load(ld, "default")) == NULL)
        return 1;
    unsigned r = 0x9e3779b9u;
    long mutated = 0, held = 0;
    for (int i = 0; i < N_KEYS; i++) {
        EVP_PKEY *priv = ect_keygen(ld, ECT_DEFAULT, "P-256");
        QT_CHECK(priv != NULL);
        if (priv == NULL)
            break;
        for (int compressed = 0; compressed < 2; compressed++) {
            QT_CHECK(EVP_PKEY_set_utf8_string_param(
                         priv, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                         compressed ? "compressed" : "uncompressed") == 1);
            int len = 0;
            unsigned char *der = spki_of(priv, &len);
            QT_CHECK(der != NULL && len == (compressed ? 59 : 91));
            if (der == NULL)
                continue;
            check_valid(priv, der, len, (unsigned)i);
            if (i < 2)
                check_fixed_bad(der, len);
            for (int m = 0; m < N_MUTATIONS / (2 * N_KEYS); m++) {
                unsigned char out[128];
                r = r * 1103515245u + 12345u;
                unsigned rr = r ^ (r >> 15);
                int olen = mutate(der, len, out, rr);
                int exact = (olen == len && memcmp(out, der, (size_t)len) == 0);
                int h = compare_decode(out, olen, exact ? 1 : -1);
                /* quill holds only exact P-256 forms: 91 or 59 bytes */
                QT_CHECK(!h || olen == 91 || olen == 59);
                mutated++;
                held += h;
            }
            OPENSSL_free(der);
        }
        if (i == 0)
            check_certificate(priv);
        EVP_PKEY_free(priv);
    }
    /* P-384 stays with the default provider; a private key still decodes. */
    EVP_PKEY *p384 = ect_keygen(ld, ECT_DEFAULT, "P-384");
    QT_CHECK(p384 != NULL);
    if (p384 != NULL) {
        int len = 0;
        unsigned char *der = spki_of(p384, &len);
        QT_CHECK(der != NULL && compare_decode(der, len, 0) == 0);
        OPENSSL_free(der);
        EVP_PKEY_free(p384);
    }
    EVP_PKEY *priv = ect_keygen(ld, ECT_DEFAULT, "P-256");
    unsigned char *pder = NULL;
    int plen = priv != NULL ? i2d_PrivateKey(priv, &pder) : 0;
    const unsigned char *pp = pder;
    EVP_PKEY *back = plen > 0 ? d2i_PrivateKey_ex(EVP_PKEY_EC, NULL, &pp, plen, lq, NULL) : NULL;
    QT_CHECK(back != NULL && EVP_PKEY_eq(back, priv) == 1);
    EVP_PKEY_free(back);
    EVP_PKEY_free(priv);
    OPENSSL_free(pder);
    printf("%ld mutated encodings (%ld still valid P-256 keys held by quill)\n", mutated, held);
    OSSL_PROVIDER_unload(def2);
    OSSL_LIB_CTX_free(ld);
    qt_libctx_free(lq, def, quill);
    return qt_finish("ec_decoder");
}
