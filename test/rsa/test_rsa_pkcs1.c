/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSASSA-PKCS1-v1_5: quill's signatures equal OpenSSL's byte for byte for
 * every quill_md (and for raw type-1 signing with QUILL_MD_NONE), verify in
 * both directions, recover the digest, and reject tampering and bad
 * arguments with the documented statuses. */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/rsa.h>

#include "rsa_test_common.h"
#include "test_util.h"

/* OpenSSL's PKCS#1 v1.5 signature of |digest| (md NULL: raw type 1). */
static int ossl_sign(EVP_PKEY *pkey, const char *md, const uint8_t *digest, size_t dlen,
                     uint8_t *sig, size_t *sig_len) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    EVP_MD *m = md != NULL ? EVP_MD_fetch(qr_ctx(), md, "provider=default") : NULL;
    int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             (md == NULL || (m != NULL && EVP_PKEY_CTX_set_signature_md(pctx, m) > 0)) &&
             EVP_PKEY_sign(pctx, sig, sig_len, digest, dlen) > 0;
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_MD_free(m);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

static int ossl_verify(EVP_PKEY *pkey, const char *md, const uint8_t *digest, size_t dlen,
                       const uint8_t *sig, size_t sig_len) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    EVP_MD *m = md != NULL ? EVP_MD_fetch(qr_ctx(), md, "provider=default") : NULL;
    int ok = pctx != NULL && EVP_PKEY_verify_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             (md == NULL || (m != NULL && EVP_PKEY_CTX_set_signature_md(pctx, m) > 0)) &&
             EVP_PKEY_verify(pctx, sig, sig_len, digest, dlen) == 1;
    ERR_clear_error();
    EVP_MD_free(m);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

static void test_key(EVP_PKEY *pkey) {
    quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1), *pub = qr_key_from_pkey(pkey, 0, 0);
    QT_CHECK(key != NULL && pub != NULL);
    if (key == NULL || pub == NULL)
        goto done;
    size_t k = quill_rsa_key_size(key);
    uint8_t *sig = malloc(k), *want = malloc(k), *bad = malloc(k), digest[64], out[1024];
    for (int m = QUILL_MD_NONE; m <= QUILL_MD_SHA3_512; m++) {
        quill_md md = (quill_md)m;
        const char *name = qr_md_name(md);
        size_t dlen = md == QUILL_MD_NONE ? 36 : quill_md_size(md), want_len = k, len = 0;
        qt_rng_bytes(digest, dlen);
        QT_CHECK(quill_rsa_pkcs1_sign(key, sig, md, digest, dlen, &qr_rng) == QUILL_OK);
        QT_CHECK(ossl_sign(pkey, name, digest, dlen, want, &want_len));
        QT_CHECK(want_len == k && memcmp(sig, want, k) == 0);
        QT_CHECK(ossl_verify(pkey, name, digest, dlen, sig, k));
        QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k, md, digest, dlen) == QUILL_OK);
        /* Recover. */
        QT_CHECK(quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k, md) == QUILL_OK);
        QT_CHECK(len == dlen && memcmp(out, digest, dlen) == 0);
        QT_CHECK(quill_rsa_pkcs1_recover(pub, out, dlen - 1, &len, sig, k, md) ==
                 QUILL_ERR_BUFFER_TOO_SMALL);
        /* Tampering: signature bit, digest bit, other digest type. */
        memcpy(bad, sig, k);
        bad[k / 2] ^= 0x10;
        QT_CHECK(quill_rsa_pkcs1_verify(pub, bad, k, md, digest, dlen) == QUILL_ERR_BAD_SIGNATURE);
        digest[dlen - 1] ^= 1;
        QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k, md, digest, dlen) == QUILL_ERR_BAD_SIGNATURE);
        digest[dlen - 1] ^= 1;
        if (md == QUILL_MD_SHA256 || md == QUILL_MD_SHA3_256) {
            quill_md other = md == QUILL_MD_SHA256 ? QUILL_MD_SHA3_256 : QUILL_MD_SHA512_256;
            QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k, other, digest, dlen) ==
                     QUILL_ERR_BAD_SIGNATURE);
            QT_CHECK(quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k, other) ==
                     QUILL_ERR_BAD_SIGNATURE);
        }
        /* Lengths. */
        QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k - 1, md, digest, dlen) ==
                 QUILL_ERR_SIG_LENGTH);
        if (md != QUILL_MD_NONE) {
            QT_CHECK(quill_rsa_pkcs1_sign(key, sig, md, digest, dlen - 1, &qr_rng) ==
                     QUILL_ERR_DIGEST_LENGTH);
            QT_CHECK(quill_rsa_pkcs1_verify(pub, want, k, md, digest, dlen + 1) ==
                     QUILL_ERR_DIGEST_LENGTH);
        }
    }
    /* A signature >= n. */
    size_t nlen;
    QT_CHECK(quill_rsa_key_get(pub, QUILL_RSA_N, bad, k, &nlen) == QUILL_OK && nlen == k);
    QT_CHECK(quill_rsa_pkcs1_verify(pub, bad, k, QUILL_MD_SHA256, digest, 32) ==
             QUILL_ERR_INPUT_RANGE);
    /* Raw signing: the longest payload is k - 11 bytes, one more is refused;
     * an empty payload is fine. */
    uint8_t *big = malloc(k);
    qt_rng_bytes(big, k);
    size_t want_len = k, len = 0;
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_NONE, big, k - 11, &qr_rng) == QUILL_OK);
    QT_CHECK(ossl_sign(pkey, NULL, big, k - 11, want, &want_len));
    QT_CHECK(memcmp(sig, want, k) == 0);
    QT_CHECK(quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k, QUILL_MD_NONE) ==
             QUILL_OK);
    QT_CHECK(len == k - 11 && memcmp(out, big, k - 11) == 0);
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_NONE, big, k - 10, &qr_rng) ==
             QUILL_ERR_DIGEST_TOO_BIG);
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_NONE, NULL, 0, &qr_rng) == QUILL_OK);
    QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k, QUILL_MD_NONE, NULL, 0) == QUILL_OK);
    QT_CHECK(quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k, QUILL_MD_NONE) ==
             QUILL_OK && len == 0);
    /* Unknown digest, public key signing. */
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, (quill_md)77, digest, 32, &qr_rng) ==
             QUILL_ERR_UNSUPPORTED_DIGEST);
    QT_CHECK(quill_rsa_pkcs1_sign(pub, sig, QUILL_MD_SHA256, digest, 32, &qr_rng) ==
             QUILL_ERR_KEY_MISSING_PRIVATE);
    /* A valid type-1 block that is not a DigestInfo for md: recovery with
     * QUILL_MD_NONE returns it, recovery as SHA-256 must fail. */
    QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_NONE, digest, 32, &qr_rng) == QUILL_OK);
    QT_CHECK(quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k, QUILL_MD_SHA256) ==
             QUILL_ERR_BAD_SIGNATURE);
    QT_CHECK(quill_rsa_pkcs1_verify(pub, sig, k, QUILL_MD_SHA256, digest, 32) ==
             QUILL_ERR_BAD_SIGNATURE);
    /* Hand-built type-1 blocks signed with the raw private operation:
     * 8 bytes of 0xff are the minimum padding, 7 are refused; a block type
     * other than 1 and a missing separator are refused. */
    for (int variant = 0; variant < 4; variant++) {
        size_t ps = variant == 1 ? 7 : 8;
        memset(big, 0, k);
        big[1] = variant == 2 ? 0x02 : 0x01;
        /* Variant 3: 0xff up to the end, no 0x00 separator at all. */
        memset(big + 2, 0xff, variant == 3 ? k - 2 : k - 2 - 1 - 4);
        if (variant == 1 || variant == 0) {
            memset(big + 2, 0xff, ps);
            big[2 + ps] = 0x00;
            memset(big + 3 + ps, 0x42, k - 3 - ps);
        }
        QT_CHECK(quill_rsa_private(key, sig, big, k, &qr_rng) == QUILL_OK);
        quill_err err = quill_rsa_pkcs1_recover(pub, out, sizeof(out), &len, sig, k,
                                                QUILL_MD_NONE);
        QT_CHECK(err == (variant == 0 ? QUILL_OK : QUILL_ERR_BAD_SIGNATURE));
        if (variant == 0)
            QT_CHECK(len == k - 11 && out[0] == 0x42 && out[len - 1] == 0x42);
    }
    free(big);
    free(sig), free(want), free(bad);
done:
    quill_rsa_key_free(key);
    quill_rsa_key_free(pub);
}

/* RFC 8017 9.2: SHA-512 needs an 83-byte T, emLen >= 94: a 1024-bit key
 * (k = 128) is enough. */
static void test_sha512_1024(void) {
    EVP_PKEY *pkey = qr_gen_pkey(1024);
    quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
    QT_CHECK(key != NULL);
    if (key != NULL) {
        uint8_t sig[128], digest[64] = {0};
        QT_CHECK(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA512, digest, 64, &qr_rng) ==
                 QUILL_OK);
    }
    quill_rsa_key_free(key);
    EVP_PKEY_free(pkey);
}

int main(void) {
    qt_rng_seed(0x504b435331ull);
    const unsigned sizes[] = {1024, 1031, 2048, 3072};
    for (size_t i = 0; i < QT_ARRAY_LEN(sizes); i++) {
        EVP_PKEY *pkey = qr_gen_pkey(sizes[i]);
        QT_CHECK(pkey != NULL);
        if (pkey != NULL)
            test_key(pkey);
        EVP_PKEY_free(pkey);
    }
    test_sha512_1024();
    qr_cleanup();
    return qt_finish("rsa_pkcs1");
}
