/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_interop, part 2: the operations beside EVP_DigestSign/Verify --
 * EVP_PKEY_sign/verify/verify_recover on digests and raw input,
 * EVP_MD_CTX_copy mid-stream, context parameters and AlgorithmIdentifier
 * DER against the default provider, EVP_PKEY_CTX_dup, restricted RSA-PSS
 * keys, and a quill key exported to the default provider. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "qt_evp.h"
#include "rsa_interop.h"
#include "test_util.h"

/* RSA-PSS keys (id-RSASSA-PSS) with parameter restrictions, made by the
 * default provider: quill serves them if it has an RSA-PSS key manager, and
 * both providers enforce the restrictions. */
void restricted_pss_key(void) {
    int quill_pss = qt_quill_has_keymgmt(libctx, "RSA-PSS");
    EVP_PKEY *key = NULL;
    EVP_MD *sha256 = EVP_MD_fetch(libctx, "SHA256", DEFAULT_PQ);
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(libctx, "RSA-PSS", DEFAULT_PQ);
    int ok = g != NULL && sha256 != NULL && EVP_PKEY_keygen_init(g) > 0 &&
             EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) > 0 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_md(g, sha256) > 0 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_mgf1_md(g, sha256) > 0 &&
             EVP_PKEY_CTX_set_rsa_pss_keygen_saltlen(g, 32) > 0 && EVP_PKEY_generate(g, &key) > 0;
    QT_CHECK(ok);
    EVP_PKEY_CTX_free(g);
    EVP_MD_free(sha256);
    if (!ok) {
        ERR_print_errors_fp(stderr);
        return;
    }
    const OSSL_PROVIDER *want = quill_pss ? prov_quill : prov_default;
    uint8_t msg[64], sig[512];
    size_t sig_len = sizeof(sig);
    qt_rng_bytes(msg, sizeof(msg));
    /* The key's own parameters, nothing set explicitly. */
    qt_sigparams sp = {RSA_PKCS1_PSS_PADDING, NULL, NULL, NULL, 0};
    const OSSL_PROVIDER *served = NULL;
    ok = qt_digest_sign(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, sig, &sig_len,
                        &served);
    QT_CHECK(ok);
    QT_CHECK(served == want);
    qt_sigparams exact = {RSA_PKCS1_PSS_PADDING, "SHA256", "SHA256", "32", 0};
    QT_CHECK(qt_digest_verify(libctx, DEFAULT_PQ, key, &exact, msg, sizeof(msg), QT_ONESHOT, sig,
                              sig_len, NULL) == 1);
    sig_len = sizeof(sig);
    QT_CHECK(qt_digest_sign(libctx, DEFAULT_PQ, key, &exact, msg, sizeof(msg), QT_STREAMED, sig,
                            &sig_len, NULL));
    QT_CHECK(qt_digest_verify(libctx, NULL, key, &sp, msg, sizeof(msg), QT_STREAMED, sig, sig_len,
                              &served) == 1);
    QT_CHECK(served == want);
    /* Restrictions: another digest, another MGF1 digest, a shorter salt. */
    static const qt_sigparams violations[] = {
        {RSA_PKCS1_PSS_PADDING, "SHA512", NULL, NULL, 0},
        {RSA_PKCS1_PSS_PADDING, "SHA256", "SHA1", NULL, 0},
        {RSA_PKCS1_PSS_PADDING, "SHA256", NULL, "20", 0},
        {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(violations); i++) {
        sig_len = sizeof(sig);
        ERR_clear_error();
        ok = qt_digest_sign(libctx, NULL, key, &violations[i], msg, sizeof(msg), QT_ONESHOT, sig,
                            &sig_len, NULL);
        QT_CHECK(!ok);
        QT_CHECK(qt_error_has_reason());
        if (ok)
            fprintf(stderr, "restricted RSA-PSS key: violation %zu was signed\n", i);
    }
    printf("restricted RSA-PSS key: served by %s\n", qt_prov_name(want));
    EVP_PKEY_free(key);
}

/* EVP_PKEY_sign / verify / verify_recover on a precomputed digest or, with
 * md == NULL, on raw bytes (the `openssl speed rsa` path). */
static int pkey_sign(EVP_PKEY *key, const char *pq, const EVP_MD *md, const uint8_t *tbs,
                     size_t tbs_len, uint8_t *sig, size_t *sig_len, const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, pq);
    int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             (md == NULL || EVP_PKEY_CTX_set_signature_md(pctx, md) > 0) &&
             EVP_PKEY_sign(pctx, sig, sig_len, tbs, tbs_len) > 0;
    *served = qt_pctx_provider(pctx);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

static int pkey_verify(EVP_PKEY *key, const char *pq, const EVP_MD *md, const uint8_t *tbs,
                       size_t tbs_len, const uint8_t *sig, size_t sig_len,
                       const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, pq);
    int ok = pctx != NULL && EVP_PKEY_verify_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             (md == NULL || EVP_PKEY_CTX_set_signature_md(pctx, md) > 0) &&
             EVP_PKEY_verify(pctx, sig, sig_len, tbs, tbs_len) == 1;
    *served = qt_pctx_provider(pctx);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

static int pkey_recover(EVP_PKEY *key, const char *pq, const EVP_MD *md, const uint8_t *sig,
                        size_t sig_len, uint8_t *out, size_t *out_len,
                        const OSSL_PROVIDER **served) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, pq);
    int ok = pctx != NULL && EVP_PKEY_verify_recover_init(pctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0 &&
             (md == NULL || EVP_PKEY_CTX_set_signature_md(pctx, md) > 0) &&
             EVP_PKEY_verify_recover(pctx, out, out_len, sig, sig_len) > 0;
    *served = qt_pctx_provider(pctx);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

void pkey_ops(EVP_PKEY *key, const char *label) {
    static const char *const mds[] = {"SHA256", "SHA384", "SHA512", "SHA3-256", NULL};
    for (size_t m = 0; m < QT_ARRAY_LEN(mds); m++) {
        EVP_MD *md = NULL;
        uint8_t tbs[64], qsig[1024], dsig[1024], rec[1024];
        size_t tbs_len = 36, qlen = sizeof(qsig), dlen = sizeof(dsig), rlen = sizeof(rec);
        const OSSL_PROVIDER *served = NULL;
        if (mds[m] != NULL) {
            md = EVP_MD_fetch(libctx, mds[m], DEFAULT_PQ);
            QT_CHECK(md != NULL);
            if (md == NULL)
                continue;
            tbs_len = (size_t)EVP_MD_get_size(md);
        }
        qt_rng_bytes(tbs, tbs_len);
        int ok = pkey_sign(key, NULL, md, tbs, tbs_len, qsig, &qlen, &served);
        QT_CHECK(ok);
        QT_CHECK(served == prov_quill);
        ok = ok && pkey_sign(key, DEFAULT_PQ, md, tbs, tbs_len, dsig, &dlen, &served);
        QT_CHECK(ok);
        QT_CHECK(served == prov_default);
        /* PKCS#1 v1.5 is deterministic: both providers give the same bytes. */
        QT_CHECK(ok && qlen == dlen && memcmp(qsig, dsig, qlen) == 0);
        QT_CHECK(pkey_verify(key, DEFAULT_PQ, md, tbs, tbs_len, qsig, qlen, &served));
        QT_CHECK(pkey_verify(key, NULL, md, tbs, tbs_len, dsig, dlen, &served));
        QT_CHECK(served == prov_quill);
        /* verify_recover by quill returns the digest (or the raw bytes). */
        ok = pkey_recover(key, NULL, md, dsig, dlen, rec, &rlen, &served);
        QT_CHECK(ok);
        QT_CHECK(served == prov_quill);
        QT_CHECK(ok && rlen == tbs_len && memcmp(rec, tbs, tbs_len) == 0);
        /* A wrong digest does not verify. */
        tbs[0] ^= 1;
        QT_CHECK(!pkey_verify(key, NULL, md, tbs, tbs_len, dsig, dlen, &served));
        ERR_clear_error();
        if (!ok)
            fprintf(stderr, "%s: EVP_PKEY_sign/recover with %s failed\n", label,
                    mds[m] != NULL ? mds[m] : "no digest");
        ERR_print_errors_fp(stderr);
        EVP_MD_free(md);
    }
}

/* EVP_MD_CTX_copy in the middle of a stream duplicates the signature
 * context: both copies finish to valid signatures. */
void dup_midstream(EVP_PKEY *key, int pad, const char *label) {
    uint8_t msg[200], s1[1024], s2[1024], s3[1024];
    size_t l1 = sizeof(s1), l2 = sizeof(s2), l3 = sizeof(s3);
    qt_rng_bytes(msg, sizeof(msg));
    qt_sigparams sp = {pad, "SHA384", NULL, pad == RSA_PKCS1_PSS_PADDING ? "digest" : NULL, 0};
    EVP_MD_CTX *a = EVP_MD_CTX_new(), *b = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int ok = a != NULL && b != NULL &&
             EVP_DigestSignInit_ex(a, &pctx, sp.md, libctx, NULL, key, NULL) > 0 &&
             qt_set_sigparams(pctx, &sp) && EVP_DigestSignUpdate(a, msg, 77) > 0 &&
             EVP_MD_CTX_copy_ex(b, a) > 0 && EVP_DigestSignUpdate(a, msg + 77, 123) > 0 &&
             EVP_DigestSignUpdate(b, msg + 77, 123) > 0 && EVP_DigestSignFinal(b, s2, &l2) > 0 &&
             EVP_DigestSignFinal(a, s1, &l1) > 0;
    QT_CHECK(ok);
    QT_CHECK(qt_pctx_provider(pctx) == prov_quill);
    QT_CHECK(b != NULL && qt_pctx_provider(EVP_MD_CTX_get_pkey_ctx(b)) == prov_quill);
    if (!ok) {
        fprintf(stderr, "%s: EVP_MD_CTX_copy mid-stream failed\n", label);
        ERR_print_errors_fp(stderr);
    }
    qt_sigparams vp = sp;
    QT_CHECK(qt_digest_verify(libctx, DEFAULT_PQ, key, &vp, msg, sizeof(msg), QT_ONESHOT, s1, l1,
                              NULL) == 1);
    QT_CHECK(qt_digest_verify(libctx, DEFAULT_PQ, key, &vp, msg, sizeof(msg), QT_ONESHOT, s2, l2,
                              NULL) == 1);
    if (pad == RSA_PKCS1_PADDING) {
        QT_CHECK(qt_digest_sign(libctx, NULL, key, &sp, msg, sizeof(msg), QT_ONESHOT, s3, &l3,
                                NULL));
        QT_CHECK(l1 == l3 && memcmp(s1, s3, l1) == 0 && l2 == l3 && memcmp(s2, s3, l2) == 0);
    } else {
        QT_CHECK(l1 != l2 || memcmp(s1, s2, l1) != 0); /* fresh salts */
    }
    EVP_MD_CTX_free(a);
    EVP_MD_CTX_free(b);
}

/* Context parameters: quill reports the same padding, digest, salt length
 * and AlgorithmIdentifier DER (for certificates) as the default provider
 * for the same settings; EVP_PKEY_CTX_dup gives an independent working
 * context; a NULL output buffer asks for the signature size. */
static int get_ctx_params(EVP_PKEY *key, const char *pq, const qt_sigparams *sp, uint8_t *aid,
                          size_t *aid_len, char *md_name, size_t md_cap, int *pad, int *salt) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, aid, *aid_len);
    params[1] = OSSL_PARAM_construct_end();
    int ok = md != NULL && EVP_DigestSignInit_ex(md, &pctx, sp->md, libctx, pq, key, NULL) > 0 &&
             qt_set_sigparams(pctx, sp) && EVP_PKEY_CTX_get_params(pctx, params) > 0 &&
             EVP_PKEY_CTX_get_rsa_padding(pctx, pad) > 0 &&
             OSSL_PARAM_modified(&params[0]);
    *aid_len = ok ? params[0].return_size : 0;
    if (ok) {
        OSSL_PARAM q[2];
        q[0] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, md_name, md_cap);
        q[1] = OSSL_PARAM_construct_end();
        ok = EVP_PKEY_CTX_get_params(pctx, q) > 0;
    }
    *salt = -100;
    if (ok && sp->pad == RSA_PKCS1_PSS_PADDING)
        ok = EVP_PKEY_CTX_get_rsa_pss_saltlen(pctx, salt) > 0;
    EVP_MD_CTX_free(md);
    return ok;
}

static void print_hex(const char *label, const uint8_t *p, size_t n) {
    fprintf(stderr, "    %s:", label);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, "\n");
}

/* Checks an RSASSA-PSS AlgorithmIdentifier (RFC 4055 / RFC 8017 A.2.3):
 * OID id-RSASSA-PSS, hash and MGF1 hash |md_nid|, and the salt length the
 * context reports (-1 "digest", -2 "auto" = max when signing, -4
 * "auto-digestmax" = min(hLen, max), or a number), with 20 when the field
 * is absent (its DEFAULT). */
static int pss_aid_ok(EVP_PKEY *key, const uint8_t *der, size_t len, int md_nid, int salt) {
    const unsigned char *p = der;
    X509_ALGOR *alg = d2i_X509_ALGOR(NULL, &p, (long)len);
    const ASN1_OBJECT *oid = NULL;
    const void *pval = NULL;
    int ptype = 0, ok = 0;
    RSA_PSS_PARAMS *pss = NULL;
    X509_ALGOR *mgf_md = NULL;
    if (alg == NULL || p != der + len)
        goto done;
    X509_ALGOR_get0(&oid, &ptype, &pval, alg);
    if (OBJ_obj2nid(oid) != NID_rsassaPss || ptype != V_ASN1_SEQUENCE)
        goto done;
    pss = ASN1_TYPE_unpack_sequence(ASN1_ITEM_rptr(RSA_PSS_PARAMS), alg->parameter);
    if (pss == NULL || pss->hashAlgorithm == NULL || pss->maskGenAlgorithm == NULL)
        goto done;
    mgf_md = ASN1_TYPE_unpack_sequence(ASN1_ITEM_rptr(X509_ALGOR),
                                       pss->maskGenAlgorithm->parameter);
    long hlen = EVP_MD_get_size(EVP_get_digestbynid(md_nid));
    long max = EVP_PKEY_get_size(key) - hlen - 2;
    long want = salt == -1 ? hlen : salt == -2 ? max : salt == -4 ? (hlen < max ? hlen : max) : salt;
    long got = pss->saltLength == NULL ? 20 : ASN1_INTEGER_get(pss->saltLength);
    ok = OBJ_obj2nid(pss->hashAlgorithm->algorithm) == md_nid &&
         OBJ_obj2nid(pss->maskGenAlgorithm->algorithm) == NID_mgf1 && mgf_md != NULL &&
         OBJ_obj2nid(mgf_md->algorithm) == md_nid && got == want && pss->trailerField == NULL;
done:
    if (!ok)
        fprintf(stderr, "RSASSA-PSS AlgorithmIdentifier from quill is wrong (salt %d)\n", salt);
    X509_ALGOR_free(mgf_md);
    RSA_PSS_PARAMS_free(pss);
    X509_ALGOR_free(alg);
    return ok;
}

void ctx_params(EVP_PKEY *key, const char *label) {
    static const char *const mds[] = {"SHA256", "SHA384", "SHA512", "SHA3-256", "SHA1", "SHA224"};
    static const char *const salts[] = {NULL, "digest", "20", "0"};
    for (size_t m = 0; m < QT_ARRAY_LEN(mds); m++) {
        for (size_t s = 0; s <= QT_ARRAY_LEN(salts); s++) {
            qt_sigparams sp = {RSA_PKCS1_PADDING, mds[m], NULL, NULL, 0};
            if (s > 0) {
                sp.pad = RSA_PKCS1_PSS_PADDING;
                sp.saltlen = salts[s - 1];
            }
            uint8_t qa[256], da[256];
            size_t ql = sizeof(qa), dl = sizeof(da);
            char qmd[64] = "", dmd[64] = "";
            int qpad = 0, dpad = 0, qsalt = 0, dsalt = 0;
            int qok = get_ctx_params(key, NULL, &sp, qa, &ql, qmd, sizeof(qmd), &qpad, &qsalt);
            if (!qok)
                ERR_print_errors_fp(stderr);
            int dok =
                get_ctx_params(key, DEFAULT_PQ, &sp, da, &dl, dmd, sizeof(dmd), &dpad, &dsalt);
            QT_CHECK(qok);
            if (!dok && s > 0 && strcmp(mds[m], "SHA3-256") == 0) {
                /* OpenSSL 3.0's default provider cannot encode RSASSA-PSS
                 * parameters with SHA-3; check quill's DER on its own. */
                ERR_clear_error();
                /* With no salt length set, a 3.1+ core's default is
                 * "auto-digestmax", which EVP_PKEY_CTX_get_rsa_pss_saltlen
                 * reports as 0 (EVP's translation has no number for it). */
                int want_salt = s == 1 && qt_core_at_least(3, 1) ? -4 : qsalt;
                QT_CHECK(qok && pss_aid_ok(key, qa, ql, NID_sha3_256, want_salt));
                continue;
            }
            QT_CHECK(dok);
            if (!dok)
                ERR_print_errors_fp(stderr);
            int same = qok && dok && ql == dl && memcmp(qa, da, ql) == 0;
            QT_CHECK(same);
            QT_CHECK(qpad == dpad);
            QT_CHECK(qsalt == dsalt);
            /* Digest names may differ in spelling but must be the same digest. */
            EVP_MD *a = EVP_MD_fetch(libctx, qmd, DEFAULT_PQ);
            EVP_MD *b = EVP_MD_fetch(libctx, dmd, DEFAULT_PQ);
            QT_CHECK(a != NULL && b != NULL && EVP_MD_is_a(a, EVP_MD_get0_name(b)));
            EVP_MD_free(a);
            EVP_MD_free(b);
            if (!same || qpad != dpad || qsalt != dsalt) {
                fprintf(stderr,
                        "%s %s %s salt %s: quill and default disagree "
                        "(pad %d/%d, salt %d/%d, md %s/%s)\n",
                        label, mds[m], s ? "pss" : "pkcs1", s && salts[s - 1] ? salts[s - 1] : "-",
                        qpad, dpad, qsalt, dsalt, qmd, dmd);
                print_hex("quill   algorithm-id", qa, ql);
                print_hex("default algorithm-id", da, dl);
            }
        }
    }

    /* EVP_PKEY_CTX_dup after sign_init: both contexts sign independently. */
    uint8_t dgst[32], s1[1024], s2[1024];
    size_t l1 = sizeof(s1), l2 = sizeof(s2), need = 0;
    qt_rng_bytes(dgst, sizeof(dgst));
    EVP_MD *sha256 = EVP_MD_fetch(libctx, "SHA256", DEFAULT_PQ);
    EVP_PKEY_CTX *p1 = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL), *p2 = NULL;
    int ok = p1 != NULL && sha256 != NULL && EVP_PKEY_sign_init(p1) > 0 &&
             EVP_PKEY_CTX_set_signature_md(p1, sha256) > 0 && (p2 = EVP_PKEY_CTX_dup(p1)) != NULL &&
             EVP_PKEY_sign(p1, NULL, &need, dgst, sizeof(dgst)) > 0 &&
             EVP_PKEY_sign(p1, s1, &l1, dgst, sizeof(dgst)) > 0;
    EVP_PKEY_CTX_free(p1);
    ok = ok && EVP_PKEY_sign(p2, s2, &l2, dgst, sizeof(dgst)) > 0;
    QT_CHECK(ok);
    QT_CHECK(need == (size_t)EVP_PKEY_get_size(key));
    QT_CHECK(p2 != NULL && qt_pctx_provider(p2) == prov_quill);
    QT_CHECK(ok && l1 == l2 && memcmp(s1, s2, l1) == 0);
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(p2);
    EVP_MD_free(sha256);

    /* EVP_DigestSign with a NULL buffer reports the size. */
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t sz = 0;
    ok = md != NULL && EVP_DigestSignInit_ex(md, NULL, "SHA256", libctx, NULL, key, NULL) > 0 &&
         EVP_DigestSign(md, NULL, &sz, dgst, sizeof(dgst)) > 0;
    QT_CHECK(ok && sz == (size_t)EVP_PKEY_get_size(key));
    EVP_MD_CTX_free(md);
}

/* A key held by quill works with default-provider operations quill does
 * not offer: RSA decryption (PKCS#1 v1.5 and OAEP) and PEM encoding. */
void export_to_default(EVP_PKEY *key, const char *label) {
    static const int pads[] = {RSA_PKCS1_PADDING, RSA_PKCS1_OAEP_PADDING};
    for (size_t i = 0; i < QT_ARRAY_LEN(pads); i++) {
        uint8_t pt[32], ct[1024], out[1024];
        size_t ct_len = sizeof(ct), out_len = sizeof(out);
        qt_rng_bytes(pt, sizeof(pt));
        EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(libctx, key, DEFAULT_PQ);
        EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
        int ok = e != NULL && d != NULL && EVP_PKEY_encrypt_init(e) > 0 &&
                 EVP_PKEY_CTX_set_rsa_padding(e, pads[i]) > 0 &&
                 EVP_PKEY_encrypt(e, ct, &ct_len, pt, sizeof(pt)) > 0 &&
                 EVP_PKEY_decrypt_init(d) > 0 && EVP_PKEY_CTX_set_rsa_padding(d, pads[i]) > 0 &&
                 EVP_PKEY_decrypt(d, out, &out_len, ct, ct_len) > 0;
        QT_CHECK(ok);
        QT_CHECK(ok && out_len == sizeof(pt) && memcmp(out, pt, sizeof(pt)) == 0);
        QT_CHECK(qt_pctx_provider(d) == prov_default);
        if (!ok) {
            fprintf(stderr, "%s: decryption with the exported key failed\n", label);
            ERR_print_errors_fp(stderr);
        }
        EVP_PKEY_CTX_free(e);
        EVP_PKEY_CTX_free(d);
    }
    /* PEM round trip through the default provider's encoder and decoder. */
    BIO *bio = BIO_new(BIO_s_mem());
    EVP_PKEY *back = NULL;
    int ok = bio != NULL && PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) > 0 &&
             (back = PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, NULL)) != NULL;
    QT_CHECK(ok);
    QT_CHECK(ok && EVP_PKEY_eq(key, back) == 1);
    /* Every private component survives. */
    static const char *const names[] = {
        OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
        OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
        OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    for (size_t i = 0; ok && i < QT_ARRAY_LEN(names); i++) {
        BIGNUM *x = NULL, *y = NULL;
        int same = EVP_PKEY_get_bn_param(key, names[i], &x) &&
                   EVP_PKEY_get_bn_param(back, names[i], &y) && BN_cmp(x, y) == 0;
        QT_CHECK(same);
        if (!same)
            fprintf(stderr, "%s: component %s lost in export\n", label, names[i]);
        BN_clear_free(x);
        BN_clear_free(y);
    }
    /* The default provider's full key check accepts quill's key. */
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, back, DEFAULT_PQ);
    QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1);
    EVP_PKEY_CTX_free(c);
    ERR_print_errors_fp(stderr);
    EVP_PKEY_free(back);
    BIO_free(bio);
}


/* quill's key manager beyond import/export: default digest, dup, match and
 * the validate entry point (EVP_PKEY_check and friends). */
void keymgmt_checks(EVP_PKEY *key, const char *label) {
    char name[64] = "";
    int ok = EVP_PKEY_get_default_digest_name(key, name, sizeof(name)) > 0;
    QT_CHECK(ok);
    EVP_MD *md = ok ? EVP_MD_fetch(libctx, name, DEFAULT_PQ) : NULL;
    QT_CHECK(md != NULL && EVP_MD_is_a(md, "SHA256"));
    EVP_MD_free(md);

    EVP_PKEY *copy = EVP_PKEY_dup(key);
    QT_CHECK(copy != NULL);
    QT_CHECK(copy != NULL && EVP_PKEY_eq(copy, key) == 1);
    QT_CHECK(copy != NULL && qt_pkey_provider(copy) == qt_pkey_provider(key));
    if (copy != NULL) {
        qt_sigparams sp = {RSA_PKCS1_PADDING, "SHA256", NULL, NULL, 0};
        cross(copy, &sp, &sp, NULL, DEFAULT_PQ, QT_ONESHOT, "EVP_PKEY_dup copy");
    }
    EVP_PKEY_free(copy);

    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    QT_CHECK(c != NULL && EVP_PKEY_check(c) == 1);
    QT_CHECK(c != NULL && EVP_PKEY_public_check(c) == 1);
    QT_CHECK(c != NULL && EVP_PKEY_private_check(c) == 1);
    QT_CHECK(c != NULL && EVP_PKEY_pairwise_check(c) == 1);
    if (ERR_peek_error() != 0) {
        fprintf(stderr, "%s: key checks\n", label);
        ERR_print_errors_fp(stderr);
    }
    EVP_PKEY_CTX_free(c);
}
