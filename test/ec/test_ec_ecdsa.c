/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * core/ec ECDSA: RFC 6979 appendix A.2.5 (P-256 with SHA-1/224/256/384/512,
 * messages "sample" and "test"); HMAC against OpenSSL's HMAC; signatures
 * both ways with OpenSSL's default provider (EVP_PKEY_sign/verify over
 * digests of many lengths); key generation, private-key range, SEC 1
 * public-key decoding and encoding, signature range checks, strict DER. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/hmac.h>
#include <openssl/provider.h>

#include "ec/ecdsa.h"
#include "ec/ecdsa_der.h"
#include "ec/hmac_drbg.h"
#include "ec_hash.h"
#include "ec_test_common.h"
#include "qt_rfc6979_p256.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;

static void hex32(uint8_t out[32], const char *hex) {
    uint8_t *b;
    size_t len;
    if (!qt_hex_decode(hex, &b, &len) || len != 32) {
        fprintf(stderr, "bad hex constant %s\n", hex);
        memset(out, 0, 32);
        qt_failed++;
        return;
    }
    memcpy(out, b, 32);
    OPENSSL_free(b);
}

/* ---- seeded and failing rngs ---- */
static int rng_fill(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    qt_rng_bytes(out, len);
    return 1;
}
static int rng_fail(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    (void)out;
    (void)len;
    return 0;
}
/* Hands out the bytes of a script, then seeded random bytes. */
struct script {
    const uint8_t *data;
    size_t len, pos;
};
static int rng_script(void *arg, uint8_t *out, size_t len) {
    struct script *s = arg;
    for (size_t i = 0; i < len; i++)
        out[i] = s->pos < s->len ? s->data[s->pos++] : (uint8_t)qt_rng_u64();
    return 1;
}

static const quill_rng seeded_rng = {rng_fill, NULL};

/* ---- RFC 6979 A.2.5 (qt_rfc6979_p256.h) ---- */

static void test_rfc6979(void) {
    uint8_t x[32], ux[32], uy[32], enc[65];
    size_t enc_len;
    quill_p256_public pub;
    hex32(x, QT_RFC6979_P256_X);
    hex32(ux, QT_RFC6979_P256_UX);
    hex32(uy, QT_RFC6979_P256_UY);
    QT_CHECK(quill_p256_public_from_private(&pub, x) == QUILL_OK);
    QT_CHECK(quill_p256_public_encode(enc, sizeof(enc), &enc_len, &pub, 0) == QUILL_OK);
    QT_CHECK(enc_len == 65 && enc[0] == 0x04 && memcmp(enc + 1, ux, 32) == 0 &&
             memcmp(enc + 33, uy, 32) == 0);
    for (size_t i = 0; i < QT_ARRAY_LEN(qt_rfc6979_p256); i++) {
        quill_hash h;
        uint8_t digest[64], sig[64], want[64];
        if (!ect_hash_init(&h, qt_rfc6979_p256[i].md)) {
            fprintf(stderr, "digest %s unavailable\n", qt_rfc6979_p256[i].md);
            qt_failed++;
            continue;
        }
        const uint8_t *in[1] = {(const uint8_t *)qt_rfc6979_p256[i].msg};
        size_t in_len[1] = {strlen(qt_rfc6979_p256[i].msg)};
        QT_CHECK(h.digest(&h, digest, in, in_len, 1) == 1);
        hex32(want, qt_rfc6979_p256[i].r);
        hex32(want + 32, qt_rfc6979_p256[i].s);
        QT_CHECK(quill_ecdsa_p256_sign(sig, x, digest, h.size, &h,
                                       QUILL_ECDSA_NONCE_DETERMINISTIC, NULL) == QUILL_OK);
        QT_CHECK(memcmp(sig, want, 64) == 0);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, digest, h.size, want) == QUILL_OK);
        digest[0] ^= 1;
        QT_CHECK(quill_ecdsa_p256_verify(&pub, digest, h.size, want) == QUILL_ERR_BAD_SIGNATURE);
        ect_hash_free(&h);
    }
}

/* ---- HMAC against OpenSSL ---- */
static void test_hmac(void) {
    /* SHA3-224 and SHA3-256 have the largest blocks (144 and 136 bytes, see
     * QUILL_HMAC_MAX_BLOCK); the first key lengths hit block - 1, block and
     * block + 1 (a longer key is hashed first). */
    static const char *mds[] = {"SHA1", "SHA256", "SHA512", "SHA3-224", "SHA3-256"};
    for (size_t m = 0; m < QT_ARRAY_LEN(mds); m++) {
        quill_hash h;
        if (!ect_hash_init(&h, mds[m])) {
            qt_failed++;
            continue;
        }
        if (strncmp(mds[m], "SHA3-", 5) == 0)
            QT_CHECK(h.block_size == (mds[m][5] == '2' && mds[m][7] == '4' ? 144u : 136u));
        for (int it = 0; it < 100; it++) {
            uint8_t key[300], a[200], b[50], got[64], want[64];
            size_t klen = (size_t)(qt_rng_u64() % sizeof(key)), alen = qt_rng_u64() % 200,
                   blen = qt_rng_u64() % 50;
            if (it < 3)
                klen = h.block_size - 1 + (size_t)it;
            unsigned wlen = 0;
            qt_rng_bytes(key, klen);
            qt_rng_bytes(a, alen);
            qt_rng_bytes(b, blen);
            uint8_t cat[250];
            memcpy(cat, a, alen);
            memcpy(cat + alen, b, blen);
            const uint8_t *in[2] = {a, b};
            size_t in_len[2] = {alen, blen};
            QT_CHECK(quill_hmac(&h, got, key, klen, in, in_len, 2) == QUILL_OK);
            HMAC((const EVP_MD *)h.arg, key, (int)klen, cat, alen + blen, want, &wlen);
            QT_CHECK(wlen == h.size && memcmp(got, want, h.size) == 0);
        }
        ect_hash_free(&h);
    }
}

/* ---- interoperability with OpenSSL ---- */
static EVP_PKEY *ossl_keygen(void) {
    return EVP_PKEY_Q_keygen(libctx, NULL, "EC", "P-256");
}

static int ossl_sign(EVP_PKEY *pk, uint8_t *der, size_t *der_len, const uint8_t *dg, size_t dlen) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, pk, NULL);
    int ok = c != NULL && EVP_PKEY_sign_init(c) == 1 && EVP_PKEY_sign(c, der, der_len, dg, dlen) == 1;
    EVP_PKEY_CTX_free(c);
    return ok;
}

static int ossl_verify(EVP_PKEY *pk, const uint8_t *der, size_t der_len, const uint8_t *dg,
                       size_t dlen) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, pk, NULL);
    int ok = c != NULL && EVP_PKEY_verify_init(c) == 1 &&
             EVP_PKEY_verify(c, der, der_len, dg, dlen) == 1;
    EVP_PKEY_CTX_free(c);
    return ok;
}

/* RFC 6979 nonces with SHA3-224/SHA3-256 (HMAC blocks of 144 and 136 bytes):
 * signing succeeds, is deterministic, and both quill and OpenSSL verify. */
static void test_sha3_nonce(void) {
    static const char *mds[] = {"SHA3-224", "SHA3-256"};
    EVP_PKEY *pk = ossl_keygen();
    BIGNUM *priv = NULL;
    uint8_t x[32], pubenc[65], dg[32], s1[64], s2[64], der[80];
    size_t publen = 0, derlen;
    quill_p256_public pub;
    if (pk == NULL || !EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &priv) ||
        !EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pubenc, sizeof(pubenc),
                                         &publen)) {
        qt_failed++;
        EVP_PKEY_free(pk);
        BN_free(priv);
        return;
    }
    BN_bn2binpad(priv, x, 32);
    QT_CHECK(quill_p256_public_decode(&pub, pubenc, publen) == QUILL_OK);
    for (size_t m = 0; m < QT_ARRAY_LEN(mds); m++) {
        quill_hash h;
        if (!ect_hash_init(&h, mds[m])) {
            qt_failed++;
            continue;
        }
        for (int it = 0; it < 10; it++) {
            qt_rng_bytes(dg, h.size);
            QT_CHECK(quill_ecdsa_p256_sign(s1, x, dg, h.size, &h, QUILL_ECDSA_NONCE_DETERMINISTIC,
                                           NULL) == QUILL_OK);
            QT_CHECK(quill_ecdsa_p256_sign(s2, x, dg, h.size, &h, QUILL_ECDSA_NONCE_DETERMINISTIC,
                                           NULL) == QUILL_OK);
            QT_CHECK(memcmp(s1, s2, 64) == 0);
            QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, h.size, s1) == QUILL_OK);
            QT_CHECK(quill_ecdsa_p256_sig_to_der(der, sizeof(der), &derlen, s1) == QUILL_OK);
            QT_CHECK(ossl_verify(pk, der, derlen, dg, h.size));
            QT_CHECK(quill_ecdsa_p256_sign(s2, x, dg, h.size, &h, QUILL_ECDSA_NONCE_HEDGED,
                                           &seeded_rng) == QUILL_OK);
            QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, h.size, s2) == QUILL_OK);
        }
        ect_hash_free(&h);
    }
    EVP_PKEY_free(pk);
    BN_free(priv);
}

static void test_interop(int count) {
    static const size_t dlens[] = {32, 20, 28, 48, 64, 1, 31, 33, 100, 0};
    quill_hash h256;
    if (!ect_hash_init(&h256, "SHA256")) {
        qt_failed++;
        return;
    }
    for (int it = 0; it < count; it++) {
        EVP_PKEY *pk = ossl_keygen();
        BIGNUM *priv = NULL;
        uint8_t x[32], pubenc[65], myenc[65], dg[100], sig[64], der[80];
        size_t publen = 0, mylen, derlen;
        quill_p256_public pub;
        if (pk == NULL || !EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &priv) ||
            !EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pubenc, sizeof(pubenc),
                                             &publen)) {
            fprintf(stderr, "OpenSSL key generation failed\n");
            qt_failed++;
            EVP_PKEY_free(pk);
            BN_free(priv);
            break;
        }
        BN_bn2binpad(priv, x, 32);
        QT_CHECK(publen == 65);
        QT_CHECK(quill_p256_private_check(x) == QUILL_OK);
        QT_CHECK(quill_p256_public_decode(&pub, pubenc, publen) == QUILL_OK);
        quill_p256_public mine;
        QT_CHECK(quill_p256_public_from_private(&mine, x) == QUILL_OK);
        QT_CHECK(quill_p256_public_encode(myenc, sizeof(myenc), &mylen, &mine, 0) == QUILL_OK);
        QT_CHECK(mylen == 65 && memcmp(myenc, pubenc, 65) == 0);

        size_t dlen = dlens[it % QT_ARRAY_LEN(dlens)];
        qt_rng_bytes(dg, dlen);
        if (it % 7 == 3) /* digest above n once truncated */
            memset(dg, 0xff, dlen);
        quill_ecdsa_nonce_type nt = it % 2 ? QUILL_ECDSA_NONCE_DETERMINISTIC
                                           : QUILL_ECDSA_NONCE_HEDGED;
        /* quill signs, OpenSSL verifies. */
        QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, dlen, &h256, nt, &seeded_rng) == QUILL_OK);
        QT_CHECK(quill_ecdsa_p256_sig_to_der(der, sizeof(der), &derlen, sig) == QUILL_OK);
        QT_CHECK(ossl_verify(pk, der, derlen, dg, dlen));
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, dlen, sig) == QUILL_OK);
        if (dlen > 0) {
            dg[dlen - 1] ^= 0x80; /* changes the value unless beyond 32 bytes */
            quill_err want = dlen > 32 ? QUILL_OK : QUILL_ERR_BAD_SIGNATURE;
            QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, dlen, sig) == want);
            dg[dlen - 1] ^= 0x80;
        }
        /* OpenSSL signs, quill verifies (after strict DER parsing). */
        derlen = sizeof(der);
        QT_CHECK(ossl_sign(pk, der, &derlen, dg, dlen));
        uint8_t osig[64];
        QT_CHECK(quill_ecdsa_p256_sig_from_der(osig, der, derlen) == QUILL_OK);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, dlen, osig) == QUILL_OK);
        uint8_t der2[80];
        size_t der2len;
        QT_CHECK(quill_ecdsa_p256_sig_to_der(der2, sizeof(der2), &der2len, osig) == QUILL_OK);
        QT_CHECK(der2len == derlen && memcmp(der2, der, derlen) == 0);
        osig[63] ^= 1;
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, dlen, osig) == QUILL_ERR_BAD_SIGNATURE);
        osig[63] ^= 1;
        osig[5] ^= 4;
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, dlen, osig) == QUILL_ERR_BAD_SIGNATURE);

        /* Determinism: RFC 6979 repeats, hedged does not. */
        uint8_t s1[64], s2[64];
        QT_CHECK(quill_ecdsa_p256_sign(s1, x, dg, dlen, &h256, nt, &seeded_rng) == QUILL_OK);
        QT_CHECK(quill_ecdsa_p256_sign(s2, x, dg, dlen, &h256, nt, &seeded_rng) == QUILL_OK);
        QT_CHECK((memcmp(s1, s2, 64) == 0) == (nt == QUILL_ECDSA_NONCE_DETERMINISTIC));
        EVP_PKEY_free(pk);
        BN_free(priv);
    }
    ect_hash_free(&h256);
}

/* ---- keys ---- */
static void test_keys(void) {
    static const uint8_t zero[32] = {0};
    uint8_t ff[32], n[32], nm1[32], one[32] = {0}, priv[32];
    quill_p256_public pub, pub2;
    memset(ff, 0xff, 32);
    BN_bn2binpad(ect_p256_n(), n, 32);
    memcpy(nm1, n, 32);
    nm1[31] -= 1;
    one[31] = 1;
    QT_CHECK(quill_p256_private_check(zero) == QUILL_ERR_KEY_CHECK);
    QT_CHECK(quill_p256_private_check(n) == QUILL_ERR_KEY_CHECK);
    QT_CHECK(quill_p256_private_check(ff) == QUILL_ERR_KEY_CHECK);
    QT_CHECK(quill_p256_private_check(nm1) == QUILL_OK);
    QT_CHECK(quill_p256_private_check(one) == QUILL_OK);
    QT_CHECK(quill_p256_public_from_private(&pub, n) == QUILL_ERR_KEY_CHECK);

    /* Keygen rejects out-of-range candidates: the script offers n, then 0,
     * then 2^256 - 1, then nm1, which must be the key. */
    uint8_t script[128];
    memcpy(script, n, 32);
    memcpy(script + 32, zero, 32);
    memcpy(script + 64, ff, 32);
    memcpy(script + 96, nm1, 32);
    struct script sc = {script, sizeof(script), 0};
    quill_rng srng = {rng_script, &sc};
    QT_CHECK(quill_p256_keygen(priv, &pub, &srng) == QUILL_OK);
    QT_CHECK(memcmp(priv, nm1, 32) == 0);
    QT_CHECK(quill_p256_public_from_private(&pub2, nm1) == QUILL_OK);
    QT_CHECK(memcmp(&pub, &pub2, sizeof(pub)) == 0);
    quill_rng frng = {rng_fail, NULL};
    QT_CHECK(quill_p256_keygen(priv, &pub, &frng) == QUILL_ERR_RNG);
    /* An rng that only ever yields n: gives up. */
    uint8_t allff[32 * 64];
    memset(allff, 0xff, sizeof(allff));
    struct script sc2 = {allff, sizeof(allff), 0};
    quill_rng frng2 = {rng_script, &sc2};
    QT_CHECK(quill_p256_keygen(priv, &pub, &frng2) == QUILL_ERR_KEYGEN);

    /* Random keys: encodings round-trip, compressed equals uncompressed. */
    for (int it = 0; it < 200; it++) {
        uint8_t u[65], c[33], tmp[65];
        size_t ul, cl;
        QT_CHECK(quill_p256_keygen(priv, &pub, &seeded_rng) == QUILL_OK);
        QT_CHECK(quill_p256_private_check(priv) == QUILL_OK);
        QT_CHECK(quill_p256_public_encode(u, sizeof(u), &ul, &pub, 0) == QUILL_OK && ul == 65);
        QT_CHECK(quill_p256_public_encode(c, sizeof(c), &cl, &pub, 1) == QUILL_OK && cl == 33);
        QT_CHECK(quill_p256_public_encode(tmp, 32, &cl, &pub, 1) == QUILL_ERR_BUFFER_TOO_SMALL);
        QT_CHECK(quill_p256_public_decode(&pub2, u, 65) == QUILL_OK);
        QT_CHECK(memcmp(&pub, &pub2, sizeof(pub)) == 0);
        QT_CHECK(quill_p256_public_decode(&pub2, c, 33) == QUILL_OK);
        QT_CHECK(memcmp(&pub, &pub2, sizeof(pub)) == 0);
        /* Bad encodings. */
        QT_CHECK(quill_p256_public_decode(&pub2, u, 64) == QUILL_ERR_INVALID_ARGUMENT);
        QT_CHECK(quill_p256_public_decode(&pub2, c, 32) == QUILL_ERR_INVALID_ARGUMENT);
        memcpy(tmp, u, 65);
        tmp[0] = 0x06; /* hybrid form: refused */
        QT_CHECK(quill_p256_public_decode(&pub2, tmp, 65) == QUILL_ERR_INVALID_ARGUMENT);
        memcpy(tmp, u, 65);
        tmp[64] ^= 1; /* off the curve */
        QT_CHECK(quill_p256_public_decode(&pub2, tmp, 65) == QUILL_ERR_KEY_CHECK);
        memcpy(tmp, c, 33);
        tmp[0] = 0x04;
        QT_CHECK(quill_p256_public_decode(&pub2, tmp, 33) == QUILL_ERR_INVALID_ARGUMENT);
    }
    /* Coordinates >= p are refused: x = p (which is 0 mod p), x = 2^256-1. */
    {
        uint8_t u[65] = {0x04};
        quill_p256_public q;
        BN_bn2binpad(ect_p256_p(), u + 1, 32);
        QT_CHECK(quill_p256_public_decode(&q, u, 65) == QUILL_ERR_KEY_CHECK);
        u[0] = 0x02;
        QT_CHECK(quill_p256_public_decode(&q, u, 33) == QUILL_ERR_KEY_CHECK);
        memset(u + 1, 0xff, 32);
        QT_CHECK(quill_p256_public_decode(&q, u, 33) == QUILL_ERR_KEY_CHECK);
    }
    /* Compressed points for small x: quill accepts exactly what OpenSSL does. */
    {
        EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
        EC_POINT *pt = EC_POINT_new(g);
        int accepted = 0;
        for (int xi = 0; xi < 64; xi++) {
            uint8_t c[33] = {0};
            quill_p256_public q;
            c[0] = (uint8_t)(0x02 | (xi & 1));
            c[32] = (uint8_t)xi;
            int ossl_ok = EC_POINT_oct2point(g, pt, c, 33, NULL) == 1;
            quill_err e = quill_p256_public_decode(&q, c, 33);
            QT_CHECK((e == QUILL_OK) == ossl_ok);
            QT_CHECK(e == QUILL_OK || e == QUILL_ERR_KEY_CHECK);
            if (e == QUILL_OK) {
                uint8_t back[33];
                size_t bl;
                accepted++;
                QT_CHECK(quill_p256_public_encode(back, sizeof(back), &bl, &q, 1) == QUILL_OK);
                QT_CHECK(memcmp(back, c, 33) == 0);
            }
        }
        QT_CHECK(accepted > 10 && accepted < 54); /* about half the x have points */
        EC_POINT_free(pt);
        EC_GROUP_free(g);
    }
}

/* ---- signing errors and verification range checks ---- */
static void test_edges(void) {
    quill_hash h;
    uint8_t x[32], n[32], sig[64], dg[32], bad[64];
    quill_p256_public pub;
    if (!ect_hash_init(&h, "SHA256")) {
        qt_failed++;
        return;
    }
    hex32(x, QT_RFC6979_P256_X);
    BN_bn2binpad(ect_p256_n(), n, 32);
    qt_rng_bytes(dg, 32);
    QT_CHECK(quill_p256_public_from_private(&pub, x) == QUILL_OK);
    memset(sig, 0xaa, 64);
    QT_CHECK(quill_ecdsa_p256_sign(sig, n, dg, 32, &h, QUILL_ECDSA_NONCE_HEDGED, &seeded_rng) ==
             QUILL_ERR_KEY_CHECK);
    QT_CHECK(memcmp(sig, (uint8_t[64]){0}, 64) == 0);
    quill_rng frng = {rng_fail, NULL};
    QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, 32, &h, QUILL_ECDSA_NONCE_HEDGED, &frng) ==
             QUILL_ERR_RNG);
    QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, 32, &h, QUILL_ECDSA_NONCE_HEDGED, NULL) ==
             QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, 32, NULL, QUILL_ECDSA_NONCE_DETERMINISTIC, NULL) ==
             QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, 32, &h, (quill_ecdsa_nonce_type)7, NULL) ==
             QUILL_ERR_INVALID_ARGUMENT);
    QT_CHECK(quill_ecdsa_p256_sign(sig, x, dg, 32, &h, QUILL_ECDSA_NONCE_DETERMINISTIC, &frng) ==
             QUILL_OK); /* deterministic signing does not use the rng */
    QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, 32, sig) == QUILL_OK);
    /* r or s of 0 or n, or s replaced by n - s + n... */
    static const int which[] = {0, 32};
    for (int w = 0; w < 2; w++) {
        memcpy(bad, sig, 64);
        memset(bad + which[w], 0, 32);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, 32, bad) == QUILL_ERR_BAD_SIGNATURE);
        memcpy(bad + which[w], n, 32);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, 32, bad) == QUILL_ERR_BAD_SIGNATURE);
        memset(bad + which[w], 0xff, 32);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, 32, bad) == QUILL_ERR_BAD_SIGNATURE);
    }
    /* (r, n - s) is also valid (ECDSA malleability), accepted as OpenSSL does. */
    {
        BIGNUM *s = BN_bin2bn(sig + 32, 32, NULL);
        BN_sub(s, ect_p256_n(), s);
        memcpy(bad, sig, 32);
        BN_bn2binpad(s, bad + 32, 32);
        QT_CHECK(quill_ecdsa_p256_verify(&pub, dg, 32, bad) == QUILL_OK);
        BN_free(s);
    }
    ect_hash_free(&h);
}

/* ---- strict DER ---- */
static void test_der(void) {
    uint8_t sig[64], out[64], der[80];
    size_t len;
    /* r = 1, s = 2^255 (needs a leading zero). */
    memset(sig, 0, 64);
    sig[31] = 1;
    sig[32] = 0x80;
    QT_CHECK(quill_ecdsa_p256_sig_to_der(der, sizeof(der), &len, sig) == QUILL_OK);
    static const uint8_t want_head[] = {0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00, 0x80};
    QT_CHECK(len == 40 && memcmp(der, want_head, sizeof(want_head)) == 0);
    QT_CHECK(quill_ecdsa_p256_sig_from_der(out, der, len) == QUILL_OK);
    QT_CHECK(memcmp(out, sig, 64) == 0);
    QT_CHECK(quill_ecdsa_p256_sig_to_der(der, 39, &len, sig) == QUILL_ERR_BUFFER_TOO_SMALL);
    struct {
        const char *hex;
        int ok;
    } cases[] = {
        {"3006020101020102", 1},
        {"300602010102010200", 0},     /* trailing byte */
        {"3007020101020102", 0},       /* length too long */
        {"30070201010202000200", 0},   /* wrong sequence length */
        {"30070201010202007f", 0},     /* non-minimal 0x00 0x7f */
        {"3006020101020182", 0},       /* negative s */
        {"3006020100020102", 1},       /* r = 0 parses; verification rejects it */
        {"30050201010200", 0},         /* empty INTEGER */
        {"308106020101020102", 0},     /* long-form length */
        {"3106020101020102", 0},       /* SET, not SEQUENCE */
        {"3006030101020102", 0},       /* BIT STRING, not INTEGER */
        {"30030201010000", 0},         /* one INTEGER only */
        {"", 0},
        {"30", 0},
        {"3000", 0},
        /* r with 33 magnitude bytes */
        {"30280223010000000000000000000000000000000000000000000000000000000000000001020101", 0},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(cases); i++) {
        uint8_t *b;
        size_t bl;
        QT_CHECK(qt_hex_decode(cases[i].hex, &b, &bl));
        quill_err e = quill_ecdsa_p256_sig_from_der(out, b, bl);
        if ((e == QUILL_OK) != cases[i].ok)
            fprintf(stderr, "DER case %zu (%s)\n", i, cases[i].hex);
        QT_CHECK((e == QUILL_OK) == cases[i].ok);
        if (!cases[i].ok)
            QT_CHECK(e == QUILL_ERR_BAD_SIGNATURE);
        OPENSSL_free(b);
    }
    /* Random signatures round-trip. */
    for (int it = 0; it < 500; it++) {
        qt_rng_bytes(sig, 64);
        if (it % 5 == 0)
            memset(sig, 0, (size_t)(qt_rng_u64() % 64));
        QT_CHECK(quill_ecdsa_p256_sig_to_der(der, sizeof(der), &len, sig) == QUILL_OK);
        QT_CHECK(len <= QUILL_ECDSA_P256_DER_MAX);
        QT_CHECK(quill_ecdsa_p256_sig_from_der(out, der, len) == QUILL_OK);
        QT_CHECK(memcmp(out, sig, 64) == 0);
    }
}

int main(void) {
    OSSL_PROVIDER *def;
    qt_rng_seed(0xec25600001ULL);
    libctx = OSSL_LIB_CTX_new();
    def = libctx ? OSSL_PROVIDER_load(libctx, "default") : NULL;
    if (def == NULL) {
        fprintf(stderr, "cannot load the default provider\n");
        return 1;
    }
    test_rfc6979();
    test_hmac();
    test_sha3_nonce();
    test_keys();
    test_edges();
    test_der();
    test_interop(600);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(libctx);
    return qt_finish("ec_ecdsa");
}
