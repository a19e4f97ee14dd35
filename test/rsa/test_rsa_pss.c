/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSASSA-PSS: quill's signatures verify in OpenSSL and OpenSSL's in quill,
 * for several digests, MGF1 digests, key sizes (modBits = 1 mod 8 included,
 * where emLen = k - 1) and salt lengths 0, hLen and the maximum; automatic
 * salt recovery; and each check of RFC 8017 9.1.2 exercised with an encoded
 * message built by the test and signed with the raw private operation. */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/rsa.h>

#include "rsa_test_common.h"
#include "test_util.h"

static int ossl_pss(EVP_PKEY *pkey, int sign, const char *md, const char *mgf1, int saltlen,
                    const uint8_t *digest, size_t dlen, uint8_t *sig, size_t *sig_len) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), pkey, "provider=default");
    EVP_MD *m = EVP_MD_fetch(qr_ctx(), md, "provider=default");
    EVP_MD *g = EVP_MD_fetch(qr_ctx(), mgf1, "provider=default");
    int ok = pctx != NULL && m != NULL && g != NULL &&
             (sign ? EVP_PKEY_sign_init(pctx) : EVP_PKEY_verify_init(pctx)) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(pctx, m) > 0 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, g) > 0 &&
             EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, saltlen) > 0;
    if (ok && sign)
        ok = EVP_PKEY_sign(pctx, sig, sig_len, digest, dlen) > 0;
    else if (ok)
        ok = EVP_PKEY_verify(pctx, sig, *sig_len, digest, dlen) == 1;
    ERR_clear_error();
    EVP_MD_free(m);
    EVP_MD_free(g);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

static void test_interop(EVP_PKEY *pkey, const char *mdname, const char *mgfname) {
    quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1), *pub = qr_key_from_pkey(pkey, 0, 0);
    qr_hash md, mgf1;
    QT_CHECK(key != NULL && pub != NULL);
    QT_CHECK(qr_hash_init(&md, mdname) && qr_hash_init(&mgf1, mgfname));
    if (key == NULL || pub == NULL || md.md == NULL || mgf1.md == NULL)
        goto done;
    size_t k = quill_rsa_key_size(key), h = md.h.size;
    size_t em_len = (quill_rsa_key_bits(key) - 1 + 7) / 8;
    long max = quill_rsa_pss_max_salt(key, &md.h);
    QT_CHECK(max == (long)em_len - (long)h - 2);
    uint8_t *sig = malloc(k), *sig2 = malloc(k), digest[64];
    const long salts[] = {0, (long)h, max};
    for (size_t i = 0; i < QT_ARRAY_LEN(salts); i++) {
        long s = salts[i];
        size_t len = k;
        if (s > max) {
            /* hLen salt with a large hash on a small key: refused by both. */
            QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h, s, &qr_rng) ==
                     QUILL_ERR_SALT_LENGTH);
            QT_CHECK(!ossl_pss(pkey, 1, mdname, mgfname, (int)s, digest, h, sig, &len));
            continue;
        }
        qt_rng_bytes(digest, h);
        /* quill signs, both verify (exact salt length and automatic). */
        QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h, s, &qr_rng) == QUILL_OK);
        QT_CHECK(ossl_pss(pkey, 0, mdname, mgfname, (int)s, digest, h, sig, &len));
        QT_CHECK(ossl_pss(pkey, 0, mdname, mgfname, RSA_PSS_SALTLEN_AUTO, digest, h, sig, &len));
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, s) == QUILL_OK);
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h,
                                      QUILL_PSS_SALT_AUTO) == QUILL_OK);
        /* Wrong expected salt length, tampered signature, other digest. */
        if (s > 0)
            QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, s - 1) ==
                     QUILL_ERR_BAD_SIGNATURE);
        if (s < max)
            QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, s + 1) ==
                     QUILL_ERR_BAD_SIGNATURE);
        sig[k - 1] ^= 4;
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h,
                                      QUILL_PSS_SALT_AUTO) == QUILL_ERR_BAD_SIGNATURE);
        sig[k - 1] ^= 4;
        digest[0] ^= 0x80;
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, s) ==
                 QUILL_ERR_BAD_SIGNATURE);
        digest[0] ^= 0x80;
        /* A fresh salt gives a fresh signature. */
        if (s > 0) {
            QT_CHECK(quill_rsa_pss_sign(key, sig2, &md.h, &mgf1.h, digest, h, s, &qr_rng) ==
                     QUILL_OK);
            QT_CHECK(memcmp(sig, sig2, k) != 0);
        }
        /* OpenSSL signs, quill verifies. */
        len = k;
        QT_CHECK(ossl_pss(pkey, 1, mdname, mgfname, (int)s, digest, h, sig, &len) && len == k);
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, s) == QUILL_OK);
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h,
                                      QUILL_PSS_SALT_AUTO) == QUILL_OK);
        QT_CHECK(quill_rsa_pss_verify(pub, sig, k - 1, &md.h, &mgf1.h, digest, h, s) ==
                 QUILL_ERR_SIG_LENGTH);
    }
    /* Argument errors. */
    QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h, max + 1, &qr_rng) ==
             QUILL_ERR_SALT_LENGTH);
    QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h, -1, &qr_rng) ==
             QUILL_ERR_SALT_LENGTH);
    QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h - 1, 0, &qr_rng) ==
             QUILL_ERR_DIGEST_LENGTH);
    QT_CHECK(quill_rsa_pss_sign(pub, sig, &md.h, &mgf1.h, digest, h, 0, &qr_rng) ==
             QUILL_ERR_KEY_MISSING_PRIVATE);
    QT_CHECK(quill_rsa_pss_sign(key, sig, &md.h, &mgf1.h, digest, h, 8, &qr_rng_failing) ==
             QUILL_ERR_RNG);
    QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h, -2) ==
             QUILL_ERR_SALT_LENGTH);
    QT_CHECK(quill_rsa_pss_verify(pub, sig, k, &md.h, &mgf1.h, digest, h + 1, 0) ==
             QUILL_ERR_DIGEST_LENGTH);
    free(sig);
    free(sig2);
done:
    qr_hash_free(&md);
    qr_hash_free(&mgf1);
    quill_rsa_key_free(key);
    quill_rsa_key_free(pub);
}

/* ---- Hand-built encoded messages (RFC 8017 9.1.1, with knobs) ---- */

enum { GOOD, BAD_TRAILER, TOP_BIT, BAD_SEPARATOR, NONZERO_PS, BAD_HASH, TOO_BIG, NUM_VARIANTS };

/* Builds EM (emLen bytes) for mHash with the given salt, then damages it
 * according to |variant| (after masking, so that only the named check
 * fails), and writes it k bytes wide. */
static void build_em(uint8_t *full, size_t k, size_t bits, const qr_hash *md,
                     const uint8_t *mhash, const uint8_t *salt, size_t slen, int variant) {
    size_t em_len = (bits - 1 + 7) / 8, h = md->h.size, db_len = em_len - h - 1;
    unsigned unused = (unsigned)(8 * em_len - (bits - 1));
    uint8_t *em = full + (k - em_len), *db = em, *hh = em + db_len;
    memset(full, 0, k);
    static const uint8_t zeros[8];
    const uint8_t *in[3] = {zeros, mhash, salt};
    size_t in_len[3] = {8, h, slen};
    md->h.digest(&md->h, hh, in, in_len, 3);
    if (variant == BAD_HASH)
        hh[0] ^= 1;
    db[db_len - slen - 1] = variant == BAD_SEPARATOR ? 0x02 : 0x01;
    memcpy(db + db_len - slen, salt, slen);
    if (variant == NONZERO_PS)
        db[db_len - slen - 2] = 0x01; /* DB = ... 01 01 salt: sLen mismatch */
    /* MGF1 with the same digest, counter big-endian. */
    uint8_t block[64], counter[4] = {0};
    for (size_t off = 0; off < db_len; off += h) {
        const uint8_t *gin[2] = {hh, counter};
        size_t glen[2] = {h, 4};
        md->h.digest(&md->h, block, gin, glen, 2);
        for (size_t i = 0; i < h && off + i < db_len; i++)
            db[off + i] ^= block[i];
        counter[3]++;
    }
    db[0] &= (uint8_t)(0xff >> unused);
    if (variant == TOP_BIT && unused > 0)
        db[0] |= (uint8_t)(0x100 >> unused); /* the lowest bit that must be zero */
    em[em_len - 1] = variant == BAD_TRAILER ? 0xbd : 0xbc;
    if (variant == TOO_BIG && k > em_len)
        full[0] = 1;
}

static int crafted_runs; /* encoded messages actually signed and checked */

static void test_crafted(EVP_PKEY *pkey) {
    quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
    qr_hash md;
    QT_CHECK(key != NULL && qr_hash_init(&md, "SHA2-256"));
    if (key == NULL || md.md == NULL)
        goto done;
    size_t k = quill_rsa_key_size(key), bits = quill_rsa_key_bits(key);
    size_t em_len = (bits - 1 + 7) / 8;
    unsigned unused = (unsigned)(8 * em_len - (bits - 1));
    uint8_t *em = malloc(k), *sig = malloc(k), mhash[32], salt[20];
    qt_rng_bytes(mhash, sizeof(mhash));
    qt_rng_bytes(salt, sizeof(salt));
    for (int v = GOOD; v < NUM_VARIANTS; v++) {
        if (v == TOP_BIT && unused == 0)
            continue; /* no spare bit: nothing to set */
        if (v == TOO_BIG && k == em_len)
            continue;
        build_em(em, k, bits, &md, mhash, salt, sizeof(salt), v);
        quill_err err = quill_rsa_private(key, sig, em, k, &qr_rng);
        if ((v == TOO_BIG || v == TOP_BIT) && err == QUILL_ERR_INPUT_RANGE)
            continue; /* the damaged EM may exceed n: nothing to sign */
        QT_CHECK(err == QUILL_OK);
        crafted_runs++;
        quill_err want = v == GOOD ? QUILL_OK : QUILL_ERR_BAD_SIGNATURE;
        QT_CHECK(quill_rsa_pss_verify(key, sig, k, &md.h, &md.h, mhash, 32, 20) == want);
        QT_CHECK(quill_rsa_pss_verify(key, sig, k, &md.h, &md.h, mhash, 32,
                                      QUILL_PSS_SALT_AUTO) ==
                 want);
        size_t len = k;
        QT_CHECK(ossl_pss(pkey, 0, "SHA2-256", "SHA2-256", 20, mhash, 32, sig, &len) ==
                 (v == GOOD));
    }
    free(em);
    free(sig);
done:
    qr_hash_free(&md);
    quill_rsa_key_free(key);
}

int main(void) {
    qt_rng_seed(0x505353ull);
    const unsigned sizes[] = {1024, 1025, 1031, 2048, 2049};
    const char *pairs[][2] = {{"SHA2-256", "SHA2-256"}, {"SHA1", "SHA1"},
                              {"SHA2-384", "SHA2-384"}, {"SHA2-512", "SHA2-512"},
                              {"SHA2-256", "SHA1"},     {"SHA3-256", "SHA3-256"},
                              {"SHA2-512", "SHA2-224"}};
    for (size_t i = 0; i < QT_ARRAY_LEN(sizes); i++) {
        EVP_PKEY *pkey = qr_gen_pkey(sizes[i]);
        QT_CHECK(pkey != NULL);
        if (pkey == NULL)
            continue;
        for (size_t j = 0; j < QT_ARRAY_LEN(pairs); j++)
            test_interop(pkey, pairs[j][0], pairs[j][1]);
        test_crafted(pkey);
        EVP_PKEY_free(pkey);
    }
    /* Every variant but the two that may exceed n ran on every key. */
    QT_CHECK(crafted_runs >= (int)QT_ARRAY_LEN(sizes) * (NUM_VARIANTS - 2));
    qr_cleanup();
    return qt_finish("rsa_pss");
}
