/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Bad input to quill's ML-DSA key manager, signature and decoders, through
 * EVP, for each of ML-DSA-44/65/87:
 *   keys        public, expanded private and seed of the wrong lengths (also
 *               another set's), s1 out of [-eta, eta], tr and t0 that do not
 *               match, seed / expanded / public key that disagree;
 *   signatures  wrong lengths; malformed hints (indices not increasing, a
 *               repeated index, a count over omega, decreasing limits,
 *               nonzero padding); z out of range (encoded 0, all ones,
 *               exactly gamma1 - beta); a key of another set;
 *   parameters  contexts of 256 bytes, mu of 63 and 65 bytes, test-entropy
 *               of 31 bytes, an output buffer one byte short, signing with
 *               a public key;
 *   DER / PEM   PKCS#8 and SPKI truncated at every length, every bit of the
 *               OID flipped, the OID of another set for the key's length,
 *               trailing bytes inside the private-key octet string, a seed
 *               that does not match the expanded key, corrupt PEM.
 * Every case must fail with an error that has a reason string on the queue
 * and nothing may be accepted; run it under the sanitizer build too. */
#include <stdlib.h>
#include <string.h>

#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static long ncases; /* bad inputs tried */

/* FIPS 204, Table 1: lambda/4 (c~ bytes), k, l, eta, tau, gamma1 bits,
 * omega. */
static const struct {
    size_t ctil, k, l, zbits, omega;
    unsigned eta, tau;
} prm[MDT_NSETS] = {
    {32, 4, 4, 18, 80, 2, 39},
    {48, 6, 5, 20, 55, 4, 49},
    {64, 8, 7, 20, 75, 2, 60},
};

/* The DER body of id-ml-dsa-44/65/87 (2.16.840.1.101.3.4.3.17/18/19). */
static const uint8_t oid_body[9] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11};

/* Records one bad input whose refusal must carry a reason. */
static void refused(int failed_as_expected, const char *set, const char *what) {
    ncases++;
    if (!failed_as_expected)
        fprintf(stderr, "%s: %s was accepted\n", set, what);
    QT_CHECK(failed_as_expected);
    if (getenv("QT_VERBOSE") != NULL)
        fprintf(stderr, "%s: %s:\n", set, what);
    int reason = qt_error_has_reason();
    if (!reason)
        fprintf(stderr, "%s: %s: no error with a reason on the queue\n", set, what);
    QT_CHECK(reason);
}

/* ---- Keys ---- */

static void test_key_lengths(int set, EVP_PKEY *key) {
    const char *name = mdt_name(set);
    static uint8_t pub[MDT_MAX_PUB + 1], priv[MDT_MAX_PRIV + 1], seed[33];
    size_t publ = mdt_key_octets(key, "pub", pub, sizeof(pub));
    size_t privl = mdt_key_octets(key, "priv", priv, sizeof(priv));
    QT_CHECK(mdt_key_octets(key, "seed", seed, sizeof(seed)) == 32);
    QT_CHECK(publ == mdt_pub_len(set) && privl == mdt_priv_len(set));
    int other = (set + 1) % MDT_NSETS;
    const size_t pub_lens[] = {0, publ - 1, publ + 1, mdt_pub_len(other)};
    for (size_t i = 0; i < QT_ARRAY_LEN(pub_lens); i++) {
        EVP_PKEY *k = mdt_key_fromdata(libctx, name, NULL, 0, NULL, 0, pub, pub_lens[i]);
        refused(k == NULL, name, "a public key of the wrong length");
        EVP_PKEY_free(k);
    }
    const size_t priv_lens[] = {0, privl - 1, privl + 1, mdt_priv_len(other)};
    for (size_t i = 0; i < QT_ARRAY_LEN(priv_lens); i++) {
        EVP_PKEY *k = mdt_key_fromdata(libctx, name, NULL, 0, priv, priv_lens[i], NULL, 0);
        refused(k == NULL, name, "an expanded private key of the wrong length");
        EVP_PKEY_free(k);
    }
    const size_t seed_lens[] = {0, 31, 33};
    for (size_t i = 0; i < QT_ARRAY_LEN(seed_lens); i++) {
        EVP_PKEY *k = mdt_key_fromdata(libctx, name, seed, seed_lens[i], NULL, 0, NULL, 0);
        refused(k == NULL, name, "a seed of the wrong length");
        EVP_PKEY_free(k);
    }
    /* Controls: the right lengths import. */
    EVP_PKEY *k = mdt_key_fromdata(libctx, name, NULL, 0, priv, privl, pub, publ);
    QT_CHECK(k != NULL);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

static void test_key_contents(int set, EVP_PKEY *key, EVP_PKEY *other_key) {
    const char *name = mdt_name(set);
    static uint8_t pub[MDT_MAX_PUB], priv[MDT_MAX_PRIV], seed[32];
    static uint8_t pub2[MDT_MAX_PUB], priv2[MDT_MAX_PRIV], seed2[32], bad[MDT_MAX_PRIV];
    size_t publ = mdt_key_octets(key, "pub", pub, sizeof(pub));
    size_t privl = mdt_key_octets(key, "priv", priv, sizeof(priv));
    QT_CHECK(mdt_key_octets(key, "seed", seed, sizeof(seed)) == 32);
    QT_CHECK(mdt_key_octets(other_key, "pub", pub2, sizeof(pub2)) == publ);
    QT_CHECK(mdt_key_octets(other_key, "priv", priv2, sizeof(priv2)) == privl);
    QT_CHECK(mdt_key_octets(other_key, "seed", seed2, sizeof(seed2)) == 32);
    /* skEncode = rho (32) || K (32) || tr (64) || s1 || s2 || t0: the first
     * coefficient of s1 encoded as 2^bits - 1, i.e. eta - (2^bits - 1) < -eta. */
    struct {
        size_t off;
        uint8_t val; /* XOR mask, or the byte itself when set */
        int set_byte;
        const char *what;
    } edits[] = {
        {128, 0xff, 1, "s1 out of range"},
        {64, 0x01, 0, "tr not H(pk)"},
        {privl - 1, 0x80, 0, "t0 not matching"},
        {0, 0x01, 0, "rho changed (tr, t0 mismatch)"},
    };
    /* s2 out of range: its first coefficient likewise. */
    size_t bits = prm[set].eta == 2 ? 3 : 4;
    size_t s2_off = 128 + prm[set].l * 32 * bits;
    for (size_t i = 0; i < QT_ARRAY_LEN(edits) + 1; i++) {
        memcpy(bad, priv, privl);
        if (i == QT_ARRAY_LEN(edits))
            bad[s2_off] = 0xff;
        else if (edits[i].set_byte)
            bad[edits[i].off] = edits[i].val;
        else
            bad[edits[i].off] ^= edits[i].val;
        EVP_PKEY *k = mdt_key_fromdata(libctx, name, NULL, 0, bad, privl, NULL, 0);
        refused(k == NULL, name, i == QT_ARRAY_LEN(edits) ? "s2 out of range" : edits[i].what);
        EVP_PKEY_free(k);
    }
    /* Parts of two different keys. */
    EVP_PKEY *k = mdt_key_fromdata(libctx, name, seed, 32, priv2, privl, NULL, 0);
    refused(k == NULL, name, "a seed with another key's expanded key");
    EVP_PKEY_free(k);
    k = mdt_key_fromdata(libctx, name, seed, 32, NULL, 0, pub2, publ);
    refused(k == NULL, name, "a seed with another key's public key");
    EVP_PKEY_free(k);
    k = mdt_key_fromdata(libctx, name, NULL, 0, priv, privl, pub2, publ);
    refused(k == NULL, name, "an expanded key with another key's public key");
    EVP_PKEY_free(k);
    k = mdt_key_fromdata(libctx, name, seed, 32, priv, privl, pub2, publ);
    refused(k == NULL, name, "seed and expanded key with another key's public key");
    EVP_PKEY_free(k);
    /* Control: all three of one key. */
    k = mdt_key_fromdata(libctx, name, seed, 32, priv, privl, pub, publ);
    QT_CHECK(k != NULL);
    EVP_PKEY_free(k);
    ERR_clear_error();
}

/* ---- Signatures ---- */

/* Verification of |sig| must be rejected with a reason. */
static void expect_rejected(int set, EVP_PKEY *key, const uint8_t *msg, size_t msgl,
                            const uint8_t *sig, size_t sigl, const char *what) {
    const OSSL_PROVIDER *p = NULL;
    ERR_clear_error();
    int r = mdt_verify(libctx, key, MDT_PKEY, NULL, msg, msgl, sig, sigl, &p);
    QT_CHECK(mdt_is_quill(p));
    if (r != MDT_REJECTED)
        fprintf(stderr, "%s: %s: verify gave %d\n", mdt_name(set), what, r);
    refused(r == MDT_REJECTED, mdt_name(set), what);
}

/* Writes v into the first coefficient of z[0] (bits zbits, little-endian). */
static void put_z0(int set, uint8_t *sig, uint32_t v) {
    uint8_t *z = sig + prm[set].ctil;
    unsigned top = (unsigned)prm[set].zbits - 16; /* 2 or 4 bits in byte 2 */
    z[0] = (uint8_t)v;
    z[1] = (uint8_t)(v >> 8);
    z[2] = (uint8_t)((z[2] & ~((1u << top) - 1)) | ((v >> 16) & ((1u << top) - 1)));
}

static void test_signatures(int set, EVP_PKEY *key, EVP_PKEY *other_set_key) {
    uint8_t msg[100];
    static uint8_t sig[MDT_MAX_SIG + 1], bad[MDT_MAX_SIG + 1];
    qt_rng_bytes(msg, sizeof(msg));
    size_t sigl = MDT_MAX_SIG;
    mdt_opts det = {.deterministic = 1};
    QT_CHECK(mdt_sign(libctx, key, MDT_PKEY, &det, msg, sizeof(msg), sig, &sigl, NULL) == MDT_OK);
    QT_CHECK(sigl == mdt_sig_len(set));
    /* Control. */
    QT_CHECK(mdt_verify(libctx, key, MDT_PKEY, NULL, msg, sizeof(msg), sig, sigl, NULL) ==
             MDT_OK);
    sig[sigl] = 0;
    expect_rejected(set, key, msg, sizeof(msg), sig, sigl - 1, "a signature one byte short");
    expect_rejected(set, key, msg, sizeof(msg), sig, sigl + 1, "a signature one byte long");
    expect_rejected(set, key, msg, sizeof(msg), sig, 0, "an empty signature");
    expect_rejected(set, other_set_key, msg, sizeof(msg), sig, sigl, "a key of another set");

    /* The hint section: omega indices, then k cumulative counts. */
    size_t omega = prm[set].omega, k = prm[set].k, hoff = sigl - omega - k;
    const uint8_t *lim = sig + hoff + omega;
    QT_CHECK(lim[k - 1] <= omega);
    size_t multi = k, start = 0;
    for (size_t i = 0, prev = 0; i < k; prev = lim[i], i++)
        if (multi == k && lim[i] >= prev + 2) {
            multi = i;
            start = prev;
        }
    QT_CHECK(multi < k); /* a polynomial with two hints (almost certain) */
    if (multi < k) {
        memcpy(bad, sig, sigl);
        uint8_t t = bad[hoff + start];
        bad[hoff + start] = bad[hoff + start + 1];
        bad[hoff + start + 1] = t;
        expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "hint indices not increasing");
        memcpy(bad, sig, sigl);
        bad[hoff + start + 1] = bad[hoff + start];
        expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "a repeated hint index");
    }
    memcpy(bad, sig, sigl);
    bad[hoff + omega + k - 1] = (uint8_t)(omega + 1);
    expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "a hint count over omega");
    memcpy(bad, sig, sigl);
    bad[hoff + omega + k - 1] = 0xff;
    expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "a hint count of 255");
    size_t dec = k;
    for (size_t i = 1; i < k && dec == k; i++)
        if (lim[i - 1] >= 1)
            dec = i;
    QT_CHECK(dec < k);
    if (dec < k) {
        memcpy(bad, sig, sigl);
        bad[hoff + omega + dec] = (uint8_t)(lim[dec - 1] - 1);
        expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "decreasing hint limits");
    }
    QT_CHECK(lim[k - 1] < omega); /* room for padding (almost certain) */
    if (lim[k - 1] < omega) {
        memcpy(bad, sig, sigl);
        bad[hoff + omega - 1] ^= 0x01;
        expect_rejected(set, key, msg, sizeof(msg), bad, sigl, "nonzero hint padding");
    }
    /* z: coefficient = gamma1 - encoded; valid only if |z| < gamma1 - beta. */
    uint32_t beta = prm[set].tau * prm[set].eta;
    const uint32_t zvals[] = {0, (1u << prm[set].zbits) - 1, beta,
                              (1u << prm[set].zbits) - beta};
    const char *zwhat[] = {"z = gamma1", "z = -(gamma1 - 1)", "z = gamma1 - beta",
                           "z = -(gamma1 - beta)"};
    for (size_t i = 0; i < QT_ARRAY_LEN(zvals); i++) {
        memcpy(bad, sig, sigl);
        put_z0(set, bad, zvals[i]);
        expect_rejected(set, key, msg, sizeof(msg), bad, sigl, zwhat[i]);
    }
    ERR_clear_error();
}

/* ---- Parameters ---- */

static void expect_sign_fails(int set, EVP_PKEY *key, int mode, const mdt_opts *o,
                              const uint8_t *in, size_t inl, size_t cap, const char *what) {
    static uint8_t sig[MDT_MAX_SIG];
    size_t sigl = cap;
    ERR_clear_error();
    int r = mdt_sign(libctx, key, mode, o, in, inl, sig, &sigl, NULL);
    refused(r != MDT_OK, mdt_name(set), what);
}

static void test_params(int set, EVP_PKEY *key, EVP_PKEY *pub_only) {
    const char *name = mdt_name(set);
    static uint8_t buf[300], sig[MDT_MAX_SIG];
    qt_rng_bytes(buf, sizeof(buf));
    mdt_opts ctx256 = {.ctx = buf, .ctx_len = 256, .has_ctx = 1, .deterministic = 1};
    expect_sign_fails(set, key, MDT_PKEY, &ctx256, buf, 10, MDT_MAX_SIG, "a 256-byte context");
    expect_sign_fails(set, key, MDT_DIGEST, &ctx256, buf, 10, MDT_MAX_SIG,
                      "a 256-byte context (DigestSign)");
    /* Verification with a 256-byte context of a valid signature. */
    size_t sigl = sizeof(sig);
    mdt_opts det = {.deterministic = 1};
    QT_CHECK(mdt_sign(libctx, key, MDT_PKEY, &det, buf, 10, sig, &sigl, NULL) == MDT_OK);
    ERR_clear_error();
    int r = mdt_verify(libctx, key, MDT_PKEY, &ctx256, buf, 10, sig, sigl, NULL);
    refused(r == MDT_PARAM_FAIL || r == MDT_REJECTED, name, "verify with a 256-byte context");
    mdt_opts onmu = {.mu = 1, .deterministic = 1};
    expect_sign_fails(set, key, MDT_PKEY, &onmu, buf, 63, MDT_MAX_SIG, "a 63-byte mu");
    expect_sign_fails(set, key, MDT_PKEY, &onmu, buf, 65, MDT_MAX_SIG, "a 65-byte mu");
    ERR_clear_error();
    r = mdt_verify(libctx, key, MDT_PKEY, &onmu, buf, 63, sig, sigl, NULL);
    refused(r != MDT_OK, name, "verify on a 63-byte mu");
    mdt_opts ent = {.entropy = buf, .entropy_len = 31};
    expect_sign_fails(set, key, MDT_PKEY, &ent, buf, 10, MDT_MAX_SIG, "31 bytes of test-entropy");
    expect_sign_fails(set, key, MDT_PKEY, &det, buf, 10, mdt_sig_len(set) - 1,
                      "an output buffer one byte short");
    expect_sign_fails(set, pub_only, MDT_PKEY, &det, buf, 10, MDT_MAX_SIG,
                      "signing with a public key");
    expect_sign_fails(set, pub_only, MDT_DIGEST, &det, buf, 10, MDT_MAX_SIG,
                      "signing with a public key (DigestSign)");
    /* Control: the size query gives the signature length. */
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    size_t want = 0;
    QT_CHECK(pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
             EVP_PKEY_sign(pctx, NULL, &want, buf, 10) > 0 && want == mdt_sig_len(set));
    EVP_PKEY_CTX_free(pctx);
    ERR_clear_error();
}

/* ---- DER and PEM ---- */

/* PKCS#8 seed form (RFC 9881): SEQUENCE { INTEGER 0, SEQUENCE { OID },
 * OCTET STRING { [0] IMPLICIT OCTET STRING (32) } }; 54 bytes. */
static size_t pkcs8_seed(int set, const uint8_t seed[32], uint8_t *out) {
    static const uint8_t head[] = {0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09};
    memcpy(out, head, sizeof(head));
    memcpy(out + 9, oid_body, 9);
    out[17] = (uint8_t)(0x11 + set);
    out[18] = 0x04;
    out[19] = 0x22;
    out[20] = 0x80;
    out[21] = 0x20;
    memcpy(out + 22, seed, 32);
    return 54;
}

/* Writes a DER length; returns its size. */
static size_t der_len(uint8_t *p, size_t len) {
    if (len < 0x80) {
        p[0] = (uint8_t)len;
        return 1;
    }
    p[0] = 0x82;
    p[1] = (uint8_t)(len >> 8);
    p[2] = (uint8_t)len;
    return 3;
}

/* PKCS#8 with privateKey OCTET STRING { body } for an arbitrary body. */
static size_t pkcs8_wrap(int oid_set, const uint8_t *body, size_t bodyl, uint8_t *out) {
    uint8_t inner[MDT_MAX_PRIV + 128];
    size_t n = 0;
    static const uint8_t ver_alg[] = {0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09};
    memcpy(inner, ver_alg, sizeof(ver_alg));
    n = sizeof(ver_alg);
    memcpy(inner + n, oid_body, 9);
    inner[n + 8] = (uint8_t)(0x11 + oid_set);
    n += 9;
    inner[n++] = 0x04;
    n += der_len(inner + n, bodyl);
    memcpy(inner + n, body, bodyl);
    n += bodyl;
    size_t m = 0;
    out[m++] = 0x30;
    m += der_len(out + m, n);
    memcpy(out + m, inner, n);
    return m + n;
}

/* SPKI: SEQUENCE { SEQUENCE { OID }, BIT STRING { 00 pk } }. */
static size_t spki(int oid_set, const uint8_t *pk, size_t pkl, uint8_t *out) {
    uint8_t inner[MDT_MAX_PUB + 32];
    size_t n = 0;
    inner[n++] = 0x30;
    inner[n++] = 0x0b;
    inner[n++] = 0x06;
    inner[n++] = 0x09;
    memcpy(inner + n, oid_body, 9);
    inner[n + 8] = (uint8_t)(0x11 + oid_set);
    n += 9;
    inner[n++] = 0x03;
    n += der_len(inner + n, pkl + 1);
    inner[n++] = 0x00;
    memcpy(inner + n, pk, pkl);
    n += pkl;
    size_t m = 0;
    out[m++] = 0x30;
    m += der_len(out + m, n);
    memcpy(out + m, inner, n);
    return m + n;
}

/* Decodes DER (or PEM when pem is set) as any key type; NULL if refused. */
static EVP_PKEY *decode_any(const char *structure, const uint8_t *in, size_t len, int pem) {
    EVP_PKEY *key = NULL;
    int selection = strcmp(structure, "SubjectPublicKeyInfo") == 0 ? EVP_PKEY_PUBLIC_KEY
                                                                   : EVP_PKEY_KEYPAIR;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&key, pem ? "PEM" : "DER", structure,
                                                        NULL, selection, libctx, NULL);
    const unsigned char *p = in;
    size_t left = len;
    if (d == NULL || OSSL_DECODER_from_data(d, &p, &left) <= 0) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    return key;
}

/* 1 if key is set |set| and its public key equals pk. */
static int key_is(const EVP_PKEY *key, int set, const uint8_t *pk, size_t pkl) {
    static uint8_t got[MDT_MAX_PUB];
    return key != NULL && EVP_PKEY_is_a(key, mdt_name(set)) &&
           mdt_key_octets(key, "pub", got, sizeof(got)) == pkl && memcmp(got, pk, pkl) == 0;
}

/* A valid encoding, then every truncation and every flip of an OID bit. */
static void test_der_mutations(int set, const char *structure, const uint8_t *der, size_t len,
                               size_t oid_off, const uint8_t *pk, size_t pkl) {
    const char *name = mdt_name(set);
    static uint8_t buf[MDT_MAX_PRIV + 64];
    int is_seed_pkcs8 = strcmp(structure, "PrivateKeyInfo") == 0;
    EVP_PKEY *k = decode_any(structure, der, len, 0);
    QT_CHECK(key_is(k, set, pk, pkl)); /* control */
    QT_CHECK(k != NULL && mdt_is_quill(qt_pkey_provider(k)));
    EVP_PKEY_free(k);
    ERR_clear_error();
    long truncs = 0, flips = 0, siblings = 0;
    for (size_t cut = 0; cut < len; cut++) {
        k = decode_any(structure, der, cut, 0);
        ERR_clear_error();
        truncs += k == NULL;
        if (k != NULL)
            fprintf(stderr, "%s %s truncated to %zu bytes decoded\n", name, structure, cut);
        EVP_PKEY_free(k);
    }
    QT_CHECK(truncs == (long)len);
    ncases += (long)len;
    for (size_t byte = 0; byte < 9; byte++)
        for (int bit = 0; bit < 8; bit++) {
            memcpy(buf, der, len);
            buf[oid_off + byte] ^= (uint8_t)(1u << bit);
            int sibling = byte == 8 && buf[oid_off + 8] >= 0x11 && buf[oid_off + 8] <= 0x13;
            ERR_clear_error();
            k = decode_any(structure, buf, len, 0);
            if (sibling && is_seed_pkcs8) {
                /* A seed is a valid key of every set: the sibling set's key. */
                QT_CHECK(k != NULL && EVP_PKEY_is_a(k, mdt_name(buf[oid_off + 8] - 0x11)));
                siblings++;
            } else {
                if (k != NULL)
                    fprintf(stderr, "%s %s with OID byte %zu bit %d flipped decoded as %s\n",
                            name, structure, byte, bit, EVP_PKEY_get0_type_name(k));
                QT_CHECK(k == NULL);
                QT_CHECK(ERR_peek_error() != 0);
                flips += k == NULL;
            }
            EVP_PKEY_free(k);
            ERR_clear_error();
        }
    ncases += flips;
    QT_CHECK(flips + siblings == 72);
}

/* PEM armour around DER (64-column base64). */
static size_t to_pem(const char *label, const uint8_t *der, size_t len, char *out, size_t cap) {
    size_t n = (size_t)snprintf(out, cap, "-----BEGIN %s-----\n", label);
    unsigned char b64[8192];
    int bl = EVP_EncodeBlock(b64, der, (int)len);
    for (int i = 0; i < bl; i += 64) {
        int w = bl - i < 64 ? bl - i : 64;
        n += (size_t)snprintf(out + n, cap - n, "%.*s\n", w, (const char *)b64 + i);
    }
    n += (size_t)snprintf(out + n, cap - n, "-----END %s-----\n", label);
    return n;
}

static void test_codecs(int set, EVP_PKEY *key, EVP_PKEY *other_key) {
    const char *name = mdt_name(set);
    static uint8_t pub[MDT_MAX_PUB], priv[MDT_MAX_PRIV], seed[32], priv2[MDT_MAX_PRIV];
    static uint8_t der[MDT_MAX_PRIV + 128], body[MDT_MAX_PRIV + 64];
    static char pem[16384];
    size_t publ = mdt_key_octets(key, "pub", pub, sizeof(pub));
    size_t privl = mdt_key_octets(key, "priv", priv, sizeof(priv));
    QT_CHECK(mdt_key_octets(key, "seed", seed, sizeof(seed)) == 32);
    QT_CHECK(mdt_key_octets(other_key, "priv", priv2, sizeof(priv2)) == privl);

    size_t len = pkcs8_seed(set, seed, der);
    test_der_mutations(set, "PrivateKeyInfo", der, len, 9, pub, publ);
    len = spki(set, pub, publ, der);
    /* 30 82 LL LL 30 0b 06 09 <OID>: every SPKI of ML-DSA is over 255 bytes. */
    test_der_mutations(set, "SubjectPublicKeyInfo", der, len, 8, pub, publ);

    /* expandedKey: OCTET STRING { skEncode } inside privateKey. */
    static uint8_t expanded[MDT_MAX_PRIV + 4];
    size_t el = 0;
    expanded[el++] = 0x04;
    el += der_len(expanded + el, privl);
    memcpy(expanded + el, priv, privl);
    el += privl;
    /* The OID of another set for this set's lengths. */
    for (int o = 0; o < MDT_NSETS; o++) {
        if (o == set)
            continue;
        len = spki(o, pub, publ, der);
        EVP_PKEY *k = decode_any("SubjectPublicKeyInfo", der, len, 0);
        refused(k == NULL, name, "an SPKI with another set's OID");
        EVP_PKEY_free(k);
        len = pkcs8_wrap(o, expanded, el, der);
        k = decode_any("PrivateKeyInfo", der, len, 0);
        refused(k == NULL, name, "an expanded PKCS#8 key with another set's OID");
        EVP_PKEY_free(k);
    }
    /* Controls: the expanded and both forms of this key decode. */
    len = pkcs8_wrap(set, expanded, el, der);
    EVP_PKEY *k = decode_any("PrivateKeyInfo", der, len, 0);
    QT_CHECK(key_is(k, set, pub, publ));
    EVP_PKEY_free(k);
    /* both: SEQUENCE { OCTET STRING seed, OCTET STRING expanded } */
    size_t bl = 0, inner = 2 + 32 + 1 + 3 + privl;
    body[bl++] = 0x30;
    bl += der_len(body + bl, inner);
    body[bl++] = 0x04;
    body[bl++] = 0x20;
    memcpy(body + bl, seed, 32);
    bl += 32;
    body[bl++] = 0x04;
    bl += der_len(body + bl, privl);
    size_t priv_at = bl;
    memcpy(body + bl, priv, privl);
    bl += privl;
    len = pkcs8_wrap(set, body, bl, der);
    k = decode_any("PrivateKeyInfo", der, len, 0);
    QT_CHECK(key_is(k, set, pub, publ));
    EVP_PKEY_free(k);
    ERR_clear_error();
    /* both, with another key's expanded key. */
    memcpy(body + priv_at, priv2, privl);
    len = pkcs8_wrap(set, body, bl, der);
    k = decode_any("PrivateKeyInfo", der, len, 0);
    refused(k == NULL, name, "a PKCS#8 seed with another key's expanded key");
    EVP_PKEY_free(k);
    /* seed form with a trailing byte inside the octet string; seed of 31. */
    uint8_t sbody[40] = {0x80, 0x20};
    memcpy(sbody + 2, seed, 32);
    len = pkcs8_wrap(set, sbody, 35, der);
    k = decode_any("PrivateKeyInfo", der, len, 0);
    refused(k == NULL, name, "a PKCS#8 seed followed by a stray byte");
    EVP_PKEY_free(k);
    sbody[1] = 0x1f;
    len = pkcs8_wrap(set, sbody, 33, der);
    k = decode_any("PrivateKeyInfo", der, len, 0);
    refused(k == NULL, name, "a PKCS#8 seed of 31 bytes");
    EVP_PKEY_free(k);
    /* SPKI whose BIT STRING has unused bits. */
    len = spki(set, pub, publ, der);
    der[len - publ - 1] = 0x01;
    k = decode_any("SubjectPublicKeyInfo", der, len, 0);
    refused(k == NULL, name, "an SPKI BIT STRING with unused bits");
    EVP_PKEY_free(k);

    /* PEM: the control, then corrupt armour and base64. */
    len = pkcs8_seed(set, seed, der);
    size_t pl = to_pem("PRIVATE KEY", der, len, pem, sizeof(pem));
    k = decode_any("PrivateKeyInfo", (const uint8_t *)pem, pl, 1);
    QT_CHECK(key_is(k, set, pub, publ));
    EVP_PKEY_free(k);
    ERR_clear_error();
    k = decode_any("PrivateKeyInfo", (const uint8_t *)pem, pl / 2, 1);
    refused(k == NULL, name, "a truncated PEM key");
    EVP_PKEY_free(k);
    char *b = strchr(pem, '\n');
    QT_CHECK(b != NULL);
    if (b != NULL) {
        b[10] = '*';
        k = decode_any("PrivateKeyInfo", (const uint8_t *)pem, pl, 1);
        refused(k == NULL, name, "a PEM key with a bad base64 character");
        EVP_PKEY_free(k);
    }
    der[17] ^= 0x40; /* an OID bit */
    pl = to_pem("PRIVATE KEY", der, len, pem, sizeof(pem));
    k = decode_any("PrivateKeyInfo", (const uint8_t *)pem, pl, 1);
    refused(k == NULL, name, "a PEM key with an OID bit flipped");
    EVP_PKEY_free(k);
    ERR_clear_error();
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = mdt_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    qt_rng_seed(0xbad1);
    for (int set = 0; set < MDT_NSETS; set++) {
        const char *name = mdt_name(set);
        long before = ncases;
        uint8_t s1[32], s2[32];
        qt_rng_bytes(s1, sizeof(s1));
        qt_rng_bytes(s2, sizeof(s2));
        EVP_PKEY *key = mdt_key_generate(libctx, name, s1);
        EVP_PKEY *other = mdt_key_generate(libctx, name, s2);
        EVP_PKEY *other_set = mdt_key_generate(libctx, mdt_name((set + 1) % MDT_NSETS), s2);
        static uint8_t pub[MDT_MAX_PUB];
        size_t publ = key != NULL ? mdt_key_octets(key, "pub", pub, sizeof(pub)) : 0;
        EVP_PKEY *pub_only = mdt_key_fromdata(libctx, name, NULL, 0, NULL, 0, pub, publ);
        QT_CHECK(key != NULL && other != NULL && other_set != NULL && pub_only != NULL);
        if (key != NULL && other != NULL && other_set != NULL && pub_only != NULL) {
            test_key_lengths(set, key);
            test_key_contents(set, key, other);
            test_signatures(set, key, other_set);
            test_params(set, key, pub_only);
            test_codecs(set, key, other);
        } else {
            ERR_print_errors_fp(stderr);
        }
        printf("%s: %ld bad inputs refused\n", name, ncases - before);
        EVP_PKEY_free(key);
        EVP_PKEY_free(other);
        EVP_PKEY_free(other_set);
        EVP_PKEY_free(pub_only);
    }
    qt_libctx_free(libctx, def, quill);
    printf("%ld bad inputs in all\n", ncases);
    return qt_finish("mldsa_badinput");
}
