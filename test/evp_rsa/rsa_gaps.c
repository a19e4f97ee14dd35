/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_gaps: what OpenSSL 3.0's default provider does with RSA signatures
 * and quill must therefore do too (under openssl.cnf.example OpenSSL does
 * not fall back once quill's signature context refuses a parameter).  Every
 * case runs twice: with the example configuration's default properties
 * ("?quill.sig=yes", no query) and with "provider=quill"; each checks that
 * quill served it and that the default provider ("provider=default") agrees.
 *
 *   digests     MD5, RIPEMD-160, MD5-SHA1 (raw 36 bytes, TLS 1.0/1.1),
 *               SHA-1, and MD4 when the legacy provider loads: PKCS#1 v1.5
 *               (byte-identical to the default provider's) and PSS, quill
 *               signs / default verifies and back, EVP_PKEY_sign of a
 *               digest and verify_recover; PSS with no digest set uses
 *               SHA-1; SM3 and SHAKE refused by both
 *   none        RSA_NO_PADDING: raw private operation on k bytes equal to
 *               the default provider's, verify, verify_recover; wrong
 *               lengths, input >= n, a digest with "none": refused by both
 *   x931        SHA-1/256/384/512: signatures byte-identical to the default
 *               provider's, cross verification, n - s accepted, recover;
 *               X9.31 with no digest, SHA-224, RIPEMD-160: refused by both
 *   short sigs  signatures with leading zero bytes stripped (1..3 bytes,
 *               and an extra leading zero) for PKCS#1 with and without a
 *               digest, PSS, X9.31 and none: quill's verdict and recovered
 *               value equal the default provider's in every case
 *   validate    a key imported into quill with an inconsistent dP passes
 *               EVP_PKEY_public_check and fails EVP_PKEY_check and
 *               EVP_PKEY_pairwise_check, as in the default provider */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "qt_evp.h"
#include "test_util.h"

#define MAX_K 512 /* bytes: keys up to 4096 bits */
#define DEFAULT_PQ "provider=default"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov_default, *prov_quill, *prov_legacy;

/* ---- EVP_PKEY_sign / verify / verify_recover with padding and digest ---- */

/* One operation's parameters: an RSA_*_PADDING and a digest name (NULL:
 * none), set in one EVP_PKEY_CTX_set_params call. */
typedef struct pk_params {
    int pad;
    const char *md;
    const char *mdprops; /* "properties" for the digest, or NULL */
} pk_params;

enum { PK_SIGN, PK_VERIFY, PK_RECOVER };

/* Opens a context for |op| with |propq| and applies |p|.  NULL if the
 * initialisation or the parameters are refused (errors cleared). */
static EVP_PKEY_CTX *pk_ctx(const char *propq, EVP_PKEY *key, int op, const pk_params *p) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
    int pad = p->pad, ok = pctx != NULL;
    if (ok)
        ok = (op == PK_SIGN     ? EVP_PKEY_sign_init(pctx)
              : op == PK_VERIFY ? EVP_PKEY_verify_init(pctx)
                                : EVP_PKEY_verify_recover_init(pctx)) > 0;
    OSSL_PARAM params[4];
    size_t n = 0;
    if (p->md != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                       (char *)p->md, 0);
    if (p->md != NULL && p->mdprops != NULL)
        params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES,
                                                       (char *)p->mdprops, 0);
    params[n++] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_PAD_MODE, &pad);
    params[n] = OSSL_PARAM_construct_end();
    ok = ok && EVP_PKEY_CTX_set_params(pctx, params) > 0;
    if (!ok) {
        EVP_PKEY_CTX_free(pctx);
            ERR_clear_error();
        return NULL;
    }
    return pctx;
}

/* Signs; 1 on success (sig of *sig_len bytes), 0 if refused anywhere.
 * *served: who ran it (NULL if the set-up failed). */
static int pk_sign(const char *propq, EVP_PKEY *key, const pk_params *p, const uint8_t *tbs,
                   size_t tbs_len, uint8_t *sig, size_t *sig_len, const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = pk_ctx(propq, key, PK_SIGN, p);
    *served = qt_pctx_provider(pctx);
    *sig_len = MAX_K;
    int ok = pctx != NULL && EVP_PKEY_sign(pctx, sig, sig_len, tbs, tbs_len) > 0;
    EVP_PKEY_CTX_free(pctx);
    ERR_clear_error();
    return ok;
}

/* 1: verified; 0: rejected by EVP_PKEY_verify; -1: set-up refused. */
static int pk_verify(const char *propq, EVP_PKEY *key, const pk_params *p, const uint8_t *tbs,
                     size_t tbs_len, const uint8_t *sig, size_t sig_len,
                     const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = pk_ctx(propq, key, PK_VERIFY, p);
    if (served != NULL)
        *served = qt_pctx_provider(pctx);
    int r = pctx == NULL ? -1 : EVP_PKEY_verify(pctx, sig, sig_len, tbs, tbs_len) == 1;
    EVP_PKEY_CTX_free(pctx);
    ERR_clear_error();
    return r;
}

/* 1: recovered *out_len bytes; 0: refused by verify_recover; -1: set-up. */
static int pk_recover(const char *propq, EVP_PKEY *key, const pk_params *p, const uint8_t *sig,
                      size_t sig_len, uint8_t *out, size_t *out_len,
                      const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = pk_ctx(propq, key, PK_RECOVER, p);
    if (served != NULL)
        *served = qt_pctx_provider(pctx);
    *out_len = MAX_K;
    int r = pctx == NULL ? -1 : EVP_PKEY_verify_recover(pctx, out, out_len, sig, sig_len) > 0;
    EVP_PKEY_CTX_free(pctx);
    ERR_clear_error();
    return r;
}

/* The two ways the suite names quill: the example configuration's default
 * properties (no query) and an explicit one. */
static const char *quill_queries[2];

static const char *query_name(const char *q) {
    return q != NULL ? q : "config defaults";
}

/* H(msg) with the default provider's |md|; 0 if unavailable. */
static size_t digest_of(const char *md, const uint8_t *msg, size_t len, uint8_t *out) {
    EVP_MD *m = EVP_MD_fetch(libctx, md, NULL);
    unsigned int n = 0;
    int ok = m != NULL && EVP_Digest(msg, len, out, &n, m, NULL) > 0;
    EVP_MD_free(m);
    ERR_clear_error();
    return ok ? n : 0;
}

/* ---- Digests ---- */

/* Message signing (EVP_DigestSign*) with |md| and |pad| both ways. */
/* MD4 is in the legacy provider: the default provider's signature fetches
 * digests with its own query ("provider=default"), so its message-signing
 * cross-checks need no query, and EVP_PKEY_sign names the digest's
 * provider explicitly ("properties"). */
static const char *md_props(const char *md) {
    return strcmp(md, "MD4") == 0 ? "provider=legacy" : NULL;
}

static void digest_case(EVP_PKEY *key, const char *q, const char *md, int pad) {
    uint8_t msg[123], qsig[MAX_K], dsig[MAX_K];
    size_t qlen = sizeof(qsig), dlen = sizeof(dsig);
    qt_rng_bytes(msg, sizeof(msg));
    qt_sigparams sp = {pad, md, NULL, NULL, 0};
    const OSSL_PROVIDER *served = NULL, *vserved = NULL;
    int ok = qt_digest_sign(libctx, q, key, &sp, msg, sizeof(msg), QT_STREAMED, qsig, &qlen,
                            &served);
    QT_CHECK(ok);
    QT_CHECK(served == prov_quill);
    if (md_props(md) != NULL) {
        /* quill against itself here; pkey_digest_case cross-checks. */
        QT_CHECK(ok && qt_digest_verify(libctx, q, key, &sp, msg, sizeof(msg), QT_ONESHOT, qsig,
                                        qlen, &vserved) == 1 && vserved == prov_quill);
        printf("digest %-10s %-5s [%s]: quill signs and verifies %s\n", md,
               pad == RSA_PKCS1_PSS_PADDING ? "pss" : "pkcs1", query_name(q),
               ok && vserved == prov_quill ? "ok" : "FAILED");
        return;
    }
    QT_CHECK(ok && qt_digest_verify(libctx, DEFAULT_PQ, key, &sp, msg, sizeof(msg), QT_ONESHOT,
                                    qsig, qlen, NULL) == 1);
    int dok = qt_digest_sign(libctx, DEFAULT_PQ, key, &sp, msg, sizeof(msg), QT_ONESHOT, dsig,
                             &dlen, NULL);
    QT_CHECK(dok);
    int r = dok ? qt_digest_verify(libctx, q, key, &sp, msg, sizeof(msg), QT_STREAMED, dsig,
                                   dlen, &vserved)
                : -1;
    QT_CHECK(r == 1);
    QT_CHECK(vserved == prov_quill);
    if (pad != RSA_PKCS1_PSS_PADDING)
        QT_CHECK(ok && dok && qlen == dlen && memcmp(qsig, dsig, qlen) == 0);
    /* A flipped bit is rejected by quill. */
    dsig[dlen / 3] ^= 0x08;
    QT_CHECK(qt_digest_verify(libctx, q, key, &sp, msg, sizeof(msg), QT_ONESHOT, dsig, dlen,
                              NULL) == 0);
    printf("digest %-10s %-5s [%s]: quill signs %s, quill verifies %s\n", md,
           pad == RSA_PKCS1_PSS_PADDING ? "pss" : pad == RSA_X931_PADDING ? "x931" : "pkcs1",
           query_name(q),
           ok && served == prov_quill ? "ok" : "FAILED", r == 1 ? "ok" : "FAILED");
}

/* EVP_PKEY_sign of a precomputed digest, verify, and (PKCS#1) recover. */
static void pkey_digest_case(EVP_PKEY *key, const char *q, const char *md, int pad) {
    uint8_t msg[40], dg[64], sig[MAX_K], out[MAX_K];
    size_t hlen, slen, olen;
    qt_rng_bytes(msg, sizeof(msg));
    hlen = digest_of(md, msg, sizeof(msg), dg);
    QT_CHECK(hlen > 0);
    pk_params p = {pad, md, md_props(md)};
    const OSSL_PROVIDER *served = NULL, *rserved = NULL;
    int ok = pk_sign(q, key, &p, dg, hlen, sig, &slen, &served);
    QT_CHECK(ok && served == prov_quill);
    QT_CHECK(ok && pk_verify(DEFAULT_PQ, key, &p, dg, hlen, sig, slen, NULL) == 1);
    QT_CHECK(ok && pk_verify(q, key, &p, dg, hlen, sig, slen, NULL) == 1);
    if (pad != RSA_PKCS1_PSS_PADDING) {
        /* Deterministic: the default provider's signature is the same. */
        uint8_t dsig[MAX_K];
        size_t dlen;
        const OSSL_PROVIDER *dserved = NULL;
        QT_CHECK(pk_sign(DEFAULT_PQ, key, &p, dg, hlen, dsig, &dlen, &dserved) == 1 &&
                 dserved == prov_default && ok && dlen == slen && memcmp(dsig, sig, slen) == 0);
        int r = pk_recover(q, key, &p, sig, slen, out, &olen, &rserved);
        QT_CHECK(r == 1 && rserved == prov_quill && olen == hlen && memcmp(out, dg, hlen) == 0);
    }
}

/* PSS chosen with no digest set signs a SHA-1-sized input (SHA-1 is the
 * RSASSA-PSS default), both ways. */
static void pss_default_digest(EVP_PKEY *key, const char *q) {
    uint8_t dg[20], sig[MAX_K];
    size_t slen;
    qt_rng_bytes(dg, sizeof(dg));
    pk_params p = {RSA_PKCS1_PSS_PADDING, NULL, NULL};
    const OSSL_PROVIDER *served = NULL, *vserved = NULL;
    int ok = pk_sign(q, key, &p, dg, sizeof(dg), sig, &slen, &served);
    QT_CHECK(ok && served == prov_quill);
    QT_CHECK(ok && pk_verify(DEFAULT_PQ, key, &p, dg, sizeof(dg), sig, slen, NULL) == 1);
    QT_CHECK(pk_sign(DEFAULT_PQ, key, &p, dg, sizeof(dg), sig, &slen, &served) == 1);
    QT_CHECK(pk_verify(q, key, &p, dg, sizeof(dg), sig, slen, &vserved) == 1 &&
             vserved == prov_quill);
    /* 32 bytes are not a SHA-1 digest: both refuse. */
    uint8_t big[32] = {0};
    QT_CHECK(pk_sign(q, key, &p, big, sizeof(big), sig, &slen, &served) == 0);
    QT_CHECK(pk_sign(DEFAULT_PQ, key, &p, big, sizeof(big), sig, &slen, &served) == 0);
    printf("pss with no digest (SHA-1) [%s]: %s\n", query_name(q), ok ? "ok" : "FAILED");
}

/* The "algorithm-id" of a signing context (X.509 and CMS ask for it):
 * quill's answer equals the default provider's, or both have none. */
static void algid_case(EVP_PKEY *key, const char *q, int pad, const char *md) {
    pk_params p = {pad, md, md != NULL ? md_props(md) : NULL};
    uint8_t ids[2][128];
    size_t lens[2] = {0, 0};
    int got[2];
    const char *queries[2] = {q, DEFAULT_PQ};
    for (int i = 0; i < 2; i++) {
        EVP_PKEY_CTX *pctx = pk_ctx(queries[i], key, PK_SIGN, &p);
        OSSL_PARAM params[2] = {
            OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, ids[i],
                                              sizeof(ids[i])),
            OSSL_PARAM_construct_end()};
        got[i] = pctx != NULL && EVP_PKEY_CTX_get_params(pctx, params) > 0 &&
                 OSSL_PARAM_modified(params) && params[0].return_size > 0;
        lens[i] = got[i] ? params[0].return_size : 0;
        EVP_PKEY_CTX_free(pctx);
        ERR_clear_error();
    }
    QT_CHECK(got[0] == got[1]);
    QT_CHECK(lens[0] == lens[1] && memcmp(ids[0], ids[1], lens[0]) == 0);
    if (got[0] != got[1] || lens[0] != lens[1])
        fprintf(stderr, "  algorithm-id pad %d %s: quill %d (%zu bytes), default %d (%zu)\n", pad,
                md != NULL ? md : "none", got[0], lens[0], got[1], lens[1]);
}

static void test_digests(EVP_PKEY *key) {
    /* SM3 last: from OpenSSL 3.4 on the default provider signs RSA with
     * it, and so does quill on such a core; before, both refuse it. */
    static const char *const mds[] = {"MD5", "RIPEMD160", "MD5-SHA1", "SHA1", "MD4", "SM3"};
    const size_t n_mds = QT_ARRAY_LEN(mds) - (qt_core_at_least(3, 4) ? 0 : 1);
    for (size_t qi = 0; qi < 2; qi++) {
        const char *q = quill_queries[qi];
        for (size_t i = 0; i < n_mds; i++) {
            uint8_t probe[64];
            if (digest_of(mds[i], probe, 0, probe) == 0) {
                printf("digest %-10s: not in this library (no legacy provider): skipped\n",
                       mds[i]);
                continue;
            }
            algid_case(key, q, RSA_PKCS1_PADDING, mds[i]);
            algid_case(key, q, RSA_PKCS1_PSS_PADDING, mds[i]);
            algid_case(key, q, RSA_X931_PADDING, mds[i]);
            digest_case(key, q, mds[i], RSA_PKCS1_PADDING);
            digest_case(key, q, mds[i], RSA_PKCS1_PSS_PADDING);
            pkey_digest_case(key, q, mds[i], RSA_PKCS1_PADDING);
            pkey_digest_case(key, q, mds[i], RSA_PKCS1_PSS_PADDING);
        }
        pss_default_digest(key, q);
        /* Refused by the default provider, so by quill too (an error, not
         * a signature nobody verifies). */
        static const char *const refused[] = {"SM3", "SHAKE128", "SHAKE256"};
        for (size_t i = qt_core_at_least(3, 4) ? 1 : 0; i < QT_ARRAY_LEN(refused); i++) {
            uint8_t msg[8] = {0}, sig[MAX_K];
            size_t len = sizeof(sig);
            qt_sigparams sp = {RSA_PKCS1_PADDING, refused[i], NULL, NULL, 0};
            int d = qt_digest_sign(libctx, DEFAULT_PQ, key, &sp, msg, sizeof(msg), QT_ONESHOT,
                                   sig, &len, NULL);
            ERR_clear_error();
            len = sizeof(sig);
            int qq = qt_digest_sign(libctx, q, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig, &len,
                                    NULL);
            QT_CHECK(!d && !qq);
            QT_CHECK(qt_error_has_reason());
        }
    }
}

/* ---- No padding ---- */

/* A k-byte value below n: a zero top byte, random below. */
static void raw_value(uint8_t *x, size_t k) {
    qt_rng_bytes(x, k);
    x[0] = 0;
}

static void test_none(EVP_PKEY *key) {
    size_t k = (size_t)EVP_PKEY_get_size(key);
    pk_params none = {RSA_NO_PADDING, NULL, NULL};
    uint8_t x[MAX_K], qsig[MAX_K], dsig[MAX_K], out[MAX_K];
    size_t qlen, dlen, olen;
    for (size_t qi = 0; qi < 2; qi++) {
        const char *q = quill_queries[qi];
        const OSSL_PROVIDER *served = NULL, *vserved = NULL, *rserved = NULL;
        raw_value(x, k);
        int ok = pk_sign(q, key, &none, x, k, qsig, &qlen, &served);
        QT_CHECK(ok && served == prov_quill && qlen == k);
        QT_CHECK(pk_sign(DEFAULT_PQ, key, &none, x, k, dsig, &dlen, &served) == 1);
        QT_CHECK(ok && dlen == qlen && memcmp(qsig, dsig, k) == 0);
        QT_CHECK(pk_verify(q, key, &none, x, k, dsig, dlen, &vserved) == 1);
        QT_CHECK(vserved == prov_quill);
        QT_CHECK(pk_verify(DEFAULT_PQ, key, &none, x, k, qsig, qlen, NULL) == 1);
        int r = pk_recover(q, key, &none, dsig, dlen, out, &olen, &rserved);
        QT_CHECK(r == 1 && rserved == prov_quill && olen == k && memcmp(out, x, k) == 0);
        /* A wrong input: verification fails in both. */
        x[k - 1] ^= 1;
        QT_CHECK(pk_verify(q, key, &none, x, k, dsig, dlen, NULL) == 0);
        QT_CHECK(pk_verify(DEFAULT_PQ, key, &none, x, k, dsig, dlen, NULL) == 0);
        /* Refused by both: k - 1 and k + 1 bytes, an all-ones input (>= n),
         * no padding with a digest. */
        static const size_t deltas[] = {1, 2};
        for (size_t i = 0; i < QT_ARRAY_LEN(deltas); i++) {
            size_t len = deltas[i] == 1 ? k - 1 : k + 1;
            int qs = pk_sign(q, key, &none, x, len, qsig, &qlen, &served);
            int ds = pk_sign(DEFAULT_PQ, key, &none, x, len, dsig, &dlen, &served);
            QT_CHECK(qs == 0 && ds == 0);
        }
        uint8_t ones[MAX_K];
        memset(ones, 0xff, k);
        QT_CHECK(pk_sign(q, key, &none, ones, k, qsig, &qlen, &served) == 0);
        QT_CHECK(pk_sign(DEFAULT_PQ, key, &none, ones, k, dsig, &dlen, &served) == 0);
        pk_params none_md = {RSA_NO_PADDING, "SHA256", NULL};
        QT_CHECK(pk_ctx(q, key, PK_SIGN, &none_md) == NULL);
        QT_CHECK(pk_ctx(DEFAULT_PQ, key, PK_SIGN, &none_md) == NULL);
        printf("none [%s]: sign, verify, recover %s\n", query_name(q),
               ok && r == 1 ? "ok" : "FAILED");
    }
}

/* ---- X9.31 ---- */

/* n - s for a k-byte s (public values). */
static int complement(EVP_PKEY *key, const uint8_t *s, size_t k, uint8_t *out) {
    BIGNUM *n = NULL, *v = BN_bin2bn(s, (int)k, NULL);
    int ok = v != NULL && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) &&
             BN_sub(v, n, v) && BN_bn2binpad(v, out, (int)k) == (int)k;
    BN_free(n);
    BN_free(v);
    return ok;
}

static void test_x931(EVP_PKEY *key) {
    size_t k = (size_t)EVP_PKEY_get_size(key);
    static const char *const mds[] = {"SHA1", "SHA256", "SHA384", "SHA512"};
    /* A modulus of 8 (k - 1) + 1 bits is below 0x6b00..: X9.31's encoded
     * message does not fit, and both providers refuse. */
    int fits = EVP_PKEY_get_bits(key) % 8 == 0;
    for (size_t qi = 0; qi < 2; qi++) {
        const char *q = quill_queries[qi];
        for (size_t i = 0; !fits && i < QT_ARRAY_LEN(mds); i++) {
            uint8_t dg[64] = {0}, sig[MAX_K];
            size_t slen;
            pk_params p = {RSA_X931_PADDING, mds[i], NULL};
            const OSSL_PROVIDER *served = NULL;
            size_t hlen = digest_of(mds[i], dg, 1, dg);
            QT_CHECK(pk_sign(q, key, &p, dg, hlen, sig, &slen, &served) == 0);
            QT_CHECK(served == prov_quill);
            QT_CHECK(pk_sign(DEFAULT_PQ, key, &p, dg, hlen, sig, &slen, &served) == 0);
        }
        for (size_t i = 0; fits && i < QT_ARRAY_LEN(mds); i++) {
            digest_case(key, q, mds[i], RSA_X931_PADDING);
            pkey_digest_case(key, q, mds[i], RSA_X931_PADDING);
            /* n - s verifies too, in both providers. */
            uint8_t msg[50], dg[64], sig[MAX_K], neg[MAX_K];
            size_t slen;
            qt_rng_bytes(msg, sizeof(msg));
            size_t hlen = digest_of(mds[i], msg, sizeof(msg), dg);
            pk_params p = {RSA_X931_PADDING, mds[i], NULL};
            const OSSL_PROVIDER *served = NULL;
            QT_CHECK(pk_sign(q, key, &p, dg, hlen, sig, &slen, &served) == 1 && slen == k);
            QT_CHECK(complement(key, sig, k, neg));
            QT_CHECK(pk_verify(q, key, &p, dg, hlen, neg, k, NULL) == 1);
            QT_CHECK(pk_verify(DEFAULT_PQ, key, &p, dg, hlen, neg, k, NULL) == 1);
            /* The signature is the smaller of s and n - s. */
            QT_CHECK(memcmp(sig, neg, k) < 0);
            /* Another digest with the same length's id is refused. */
            if (i == 1) {
                pk_params other = {RSA_X931_PADDING, "SHA3-256", NULL};
                QT_CHECK(pk_ctx(q, key, PK_VERIFY, &other) == NULL);
                QT_CHECK(pk_ctx(DEFAULT_PQ, key, PK_VERIFY, &other) == NULL);
            }
        }
        /* Refused by both: no digest, SHA-224, RIPEMD-160, MD5. */
        static const char *const bad[] = {NULL, "SHA224", "RIPEMD160", "MD5"};
        for (size_t i = 0; i < QT_ARRAY_LEN(bad); i++) {
            pk_params p = {RSA_X931_PADDING, bad[i], NULL};
            EVP_PKEY_CTX *qc = pk_ctx(q, key, PK_SIGN, &p), *dc = pk_ctx(DEFAULT_PQ, key, PK_SIGN, &p);
            QT_CHECK(qc == NULL && dc == NULL);
            EVP_PKEY_CTX_free(qc);
            EVP_PKEY_CTX_free(dc);
        }
    }
}

/* ---- Short signatures ---- */

/* One mode of the short-signature comparison. */
typedef struct short_mode {
    const char *name;
    pk_params p;
    int recover; /* verify_recover is defined for it */
} short_mode;

/* The value signed for |m|: a digest, raw PKCS#1 bytes, or for "none" a
 * k-byte value below n. */
static size_t tbs_for(const short_mode *m, size_t k, uint8_t *tbs) {
    if (m->p.pad == RSA_NO_PADDING) {
        raw_value(tbs, k);
        return k;
    }
    if (m->p.md == NULL) {
        qt_rng_bytes(tbs, 30);
        return 30;
    }
    qt_rng_bytes(tbs, 32);
    return 32;
}

/* Compares quill's and the default provider's verdicts on |sig|, and
 * their recovered values; returns the default provider's verdict. */
static int compare_verdicts(EVP_PKEY *key, const char *q, const short_mode *m,
                            const uint8_t *tbs, size_t tbs_len, const uint8_t *sig,
                            size_t sig_len, const char *what) {
    const OSSL_PROVIDER *served = NULL;
    int d = pk_verify(DEFAULT_PQ, key, &m->p, tbs, tbs_len, sig, sig_len, NULL);
    int r = pk_verify(q, key, &m->p, tbs, tbs_len, sig, sig_len, &served);
    QT_CHECK(served == prov_quill);
    QT_CHECK(d == r);
    if (d != r)
        fprintf(stderr, "  %s %s (%zu bytes): default %d, quill %d\n", m->name, what, sig_len,
                d, r);
    if (m->recover) {
        uint8_t dout[MAX_K], qout[MAX_K];
        size_t dlen = 0, qlen = 0;
        int dr = pk_recover(DEFAULT_PQ, key, &m->p, sig, sig_len, dout, &dlen, NULL);
        int qr = pk_recover(q, key, &m->p, sig, sig_len, qout, &qlen, NULL);
        QT_CHECK(dr == qr);
        QT_CHECK(dr != 1 || (dlen == qlen && memcmp(dout, qout, dlen) == 0));
        if (dr != qr)
            fprintf(stderr, "  %s %s recover (%zu bytes): default %d, quill %d\n", m->name,
                    what, sig_len, dr, qr);
    }
    return d;
}

/* Signs (with the default provider) until the signature starts with
 * |zeros| zero bytes; for "none" the signature is chosen first and the
 * input derived from it (sig^e mod n), so any number of zeros is cheap. */
static int leading_zero_sig(EVP_PKEY *key, const short_mode *m, size_t zeros, uint8_t *tbs,
                            size_t *tbs_len, uint8_t *sig, size_t *sig_len) {
    size_t k = (size_t)EVP_PKEY_get_size(key);
    const OSSL_PROVIDER *served;
    if (m->p.pad == RSA_NO_PADDING) {
        raw_value(sig, k);
        memset(sig, 0, zeros);
        sig[zeros] |= 1; /* exactly |zeros| zeros: cutting one more byte changes the value */
        *sig_len = k;
        return pk_recover(DEFAULT_PQ, key, &m->p, sig, k, tbs, tbs_len, NULL) == 1;
    }
    for (int tries = 0; tries < 4000 * (int)zeros; tries++) {
        *tbs_len = tbs_for(m, k, tbs);
        if (!pk_sign(DEFAULT_PQ, key, &m->p, tbs, *tbs_len, sig, sig_len, &served))
            return 0;
        size_t z = 0;
        while (z < *sig_len && sig[z] == 0)
            z++;
        if (z == zeros)
            return 1;
    }
    return 0;
}

static void test_short(EVP_PKEY *key) {
    size_t k = (size_t)EVP_PKEY_get_size(key);
    static const short_mode modes[] = {
        {"pkcs1-sha256", {RSA_PKCS1_PADDING, "SHA256", NULL}, 1},
        {"pkcs1-raw", {RSA_PKCS1_PADDING, NULL, NULL}, 1},
        {"pss-sha256", {RSA_PKCS1_PSS_PADDING, "SHA256", NULL}, 0},
        {"x931-sha256", {RSA_X931_PADDING, "SHA256", NULL}, 1},
        {"none", {RSA_NO_PADDING, NULL, NULL}, 1},
    };
    for (size_t mi = 0; mi < QT_ARRAY_LEN(modes); mi++) {
        const short_mode *m = &modes[mi];
        if (m->p.pad == RSA_X931_PADDING && EVP_PKEY_get_bits(key) % 8 != 0)
            continue; /* no X9.31 signatures with this key (test_x931) */
        uint8_t tbs[MAX_K], sig[MAX_K], wide[MAX_K + 1];
        size_t tbs_len = 0, sig_len = 0;
        /* One leading zero for every mode; three for "none". */
        size_t zeros = m->p.pad == RSA_NO_PADDING ? 3 : 1;
        int found = leading_zero_sig(key, m, zeros, tbs, &tbs_len, sig, &sig_len);
        QT_CHECK(found && sig_len == k);
        if (!found)
            continue;
        for (size_t qi = 0; qi < 2; qi++) {
            const char *q = quill_queries[qi];
            int accepted[4] = {0};
            QT_CHECK(compare_verdicts(key, q, m, tbs, tbs_len, sig, k, "full length") == 1);
            /* Leading zeros stripped: 1..zeros bytes shorter, same value. */
            for (size_t cut = 1; cut <= zeros; cut++)
                accepted[cut] = compare_verdicts(key, q, m, tbs, tbs_len, sig + cut, k - cut,
                                                 "zeros stripped");
            /* One byte more than the zeros: a different value. */
            QT_CHECK(compare_verdicts(key, q, m, tbs, tbs_len, sig + zeros + 1,
                                      k - zeros - 1, "significant byte cut") == 0);
            /* An extra leading zero: k + 1 bytes. */
            wide[0] = 0;
            memcpy(wide + 1, sig, k);
            QT_CHECK(compare_verdicts(key, q, m, tbs, tbs_len, wide, k + 1, "k + 1 bytes") ==
                     0);
            /* The default provider takes short signatures except for
             * PKCS#1 v1.5 with a digest (RSA_verify insists on k bytes). */
            int lenient = !(m->p.pad == RSA_PKCS1_PADDING && m->p.md != NULL);
            QT_CHECK(accepted[1] == lenient);
            printf("short %-12s [%s]: %zu leading zero(s), stripped: %s\n", m->name,
                   query_name(q), zeros, accepted[1] ? "accepted" : "rejected");
        }
        /* A short signature that is not a stripped valid one. */
        for (size_t qi = 0; qi < 2; qi++) {
            uint8_t junk[MAX_K];
            qt_rng_bytes(junk, k);
            for (size_t cut = 1; cut <= 3; cut++)
                (void)compare_verdicts(key, quill_queries[qi], m, tbs, tbs_len, junk + cut,
                                       k - cut, "random, short");
            (void)compare_verdicts(key, quill_queries[qi], m, tbs, tbs_len, junk, 0, "empty");
        }
    }
}

/* ---- Validation by selection ---- */

/* |key|'s components, imported into quill's key manager with dP - 2 in
 * place of dP: in range, consistent with n, p, q, qInv (what import
 * checks), inconsistent with d. */
static EVP_PKEY *bad_dp_key(EVP_PKEY *key) {
    static const char *const names[] = {
        OSSL_PKEY_PARAM_RSA_N,          OSSL_PKEY_PARAM_RSA_E,
        OSSL_PKEY_PARAM_RSA_D,          OSSL_PKEY_PARAM_RSA_FACTOR1,
        OSSL_PKEY_PARAM_RSA_FACTOR2,    OSSL_PKEY_PARAM_RSA_EXPONENT1,
        OSSL_PKEY_PARAM_RSA_EXPONENT2,  OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
    };
    BIGNUM *v[QT_ARRAY_LEN(names)] = {0};
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *fctx = NULL;
    int ok = bld != NULL;
    for (size_t i = 0; ok && i < QT_ARRAY_LEN(names); i++)
        ok = EVP_PKEY_get_bn_param(key, names[i], &v[i]);
    ok = ok && BN_sub_word(v[5], 2); /* dP */
    for (size_t i = 0; ok && i < QT_ARRAY_LEN(names); i++)
        ok = OSSL_PARAM_BLD_push_BN(bld, names[i], v[i]);
    ok = ok && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
         (fctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", qt_quill_propq())) != NULL &&
         EVP_PKEY_fromdata_init(fctx) > 0 &&
         EVP_PKEY_fromdata(fctx, &out, EVP_PKEY_KEYPAIR, params) > 0;
    if (!ok)
        ERR_print_errors_fp(stderr);
    for (size_t i = 0; i < QT_ARRAY_LEN(names); i++)
        BN_clear_free(v[i]);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    EVP_PKEY_CTX_free(fctx);
    return out;
}

/* Runs EVP_PKEY_{public_check,check,pairwise_check,private_check} on |key|
 * with |propq|. */
static void run_checks(EVP_PKEY *key, const char *propq, const int want[4], const char *who) {
    int got[4];
    for (int i = 0; i < 4; i++) {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
        got[i] = c == NULL ? -1
                 : i == 0  ? EVP_PKEY_public_check(c)
                 : i == 1  ? EVP_PKEY_check(c)
                 : i == 2  ? EVP_PKEY_pairwise_check(c)
                           : EVP_PKEY_private_check(c);
        EVP_PKEY_CTX_free(c);
        ERR_clear_error();
        QT_CHECK(got[i] == want[i]);
    }
    printf("validate %-8s public_check %d, check %d, pairwise_check %d, private_check %d\n", who,
           got[0], got[1], got[2], got[3]);
}

static void test_validate(EVP_PKEY *key) {
    EVP_PKEY *bad = bad_dp_key(key);
    QT_CHECK(bad != NULL);
    if (bad == NULL)
        return;
    QT_CHECK(qt_pkey_provider(bad) == prov_quill);
    static const int want_bad[4] = {1, 0, 0, 1}, want_good[4] = {1, 1, 1, 1};
    run_checks(bad, NULL, want_bad, "bad dP");
    /* The default provider's verdicts on the same components. */
    EVP_PKEY *dcopy = NULL;
    {
        OSSL_PARAM *params = NULL;
        EVP_PKEY_CTX *fctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", DEFAULT_PQ);
        int ok = EVP_PKEY_todata(bad, EVP_PKEY_KEYPAIR, &params) > 0 && fctx != NULL &&
                 EVP_PKEY_fromdata_init(fctx) > 0 &&
                 EVP_PKEY_fromdata(fctx, &dcopy, EVP_PKEY_KEYPAIR, params) > 0;
        QT_CHECK(ok && qt_pkey_provider(dcopy) == prov_default);
        OSSL_PARAM_free(params);
        EVP_PKEY_CTX_free(fctx);
    }
    if (dcopy != NULL)
        run_checks(dcopy, DEFAULT_PQ, want_bad, "default");
    /* The control: the consistent key, in quill. */
    EVP_PKEY *good = NULL;
    {
        OSSL_PARAM *params = NULL;
        EVP_PKEY_CTX *fctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", qt_quill_propq());
        int ok = EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &params) > 0 && fctx != NULL &&
                 EVP_PKEY_fromdata_init(fctx) > 0 &&
                 EVP_PKEY_fromdata(fctx, &good, EVP_PKEY_KEYPAIR, params) > 0;
        QT_CHECK(ok && qt_pkey_provider(good) == prov_quill);
        OSSL_PARAM_free(params);
        EVP_PKEY_CTX_free(fctx);
    }
    if (good != NULL)
        run_checks(good, NULL, want_good, "good");
    EVP_PKEY_free(good);
    EVP_PKEY_free(dcopy);
    EVP_PKEY_free(bad);
}

int main(void) {
    if (getenv("QT_STANDIN_PROVIDER") != NULL) {
        printf("rsa_gaps checks quill-specific serving: stand-in not supported, skipped\n");
        return QT_SKIP;
    }
    libctx = qt_evp_libctx_new(&prov_default, &prov_quill);
    if (libctx == NULL)
        return 1;
    /* MD4 lives in the legacy provider; without it the MD4 cases skip. */
    ERR_set_mark();
    const char *dir = OpenSSL_version(OPENSSL_MODULES_DIR);
    char path[1024];
    if (strncmp(dir, "MODULESDIR: \"", 13) == 0 &&
        (size_t)snprintf(path, sizeof(path), "%s", dir + 13) < sizeof(path)) {
        path[strcspn(path, "\"")] = '\0';
        if (OSSL_PROVIDER_set_default_search_path(libctx, path))
            prov_legacy = OSSL_PROVIDER_load(libctx, "legacy");
    }
    ERR_pop_to_mark();
    printf("legacy provider (MD4): %s\n", prov_legacy != NULL ? "loaded" : "absent");
    quill_queries[0] = NULL;
    quill_queries[1] = qt_quill_propq();
    qt_rng_seed(0x9a95);

    /* 2048 bits; 1025 bits (PSS's emLen = k - 1, X9.31 impossible); 3072. */
    EVP_PKEY *keys[3] = {qt_rsa_keygen(libctx, DEFAULT_PQ, 2048),
                         qt_rsa_keygen(libctx, DEFAULT_PQ, 1025),
                         qt_rsa_keygen(libctx, DEFAULT_PQ, 3072)};
    QT_CHECK(keys[0] != NULL && keys[1] != NULL && keys[2] != NULL);
    if (keys[0] == NULL || keys[1] == NULL || keys[2] == NULL)
        return qt_finish("rsa_gaps");
    for (size_t i = 0; i < QT_ARRAY_LEN(keys); i++) {
        printf("---- %d-bit key\n", EVP_PKEY_get_bits(keys[i]));
        test_digests(keys[i]);
        test_none(keys[i]);
        test_x931(keys[i]);
        test_short(keys[i]);
    }
    test_validate(keys[0]);
    for (size_t i = 0; i < QT_ARRAY_LEN(keys); i++)
        EVP_PKEY_free(keys[i]);
    if (prov_legacy != NULL)
        OSSL_PROVIDER_unload(prov_legacy);
    qt_libctx_free(libctx, prov_default, prov_quill);
    return qt_finish("rsa_gaps");
}
