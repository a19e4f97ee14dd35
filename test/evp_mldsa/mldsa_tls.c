/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_tls: TLS 1.3 with ML-DSA certificates on an OpenSSL 3.5+ core, in
 * a library context configured as openssl.cnf.example (?quill.sig=yes):
 * for each set, a self-signed certificate (key generated on quill, signed
 * by quill), then full handshakes in memory (a BIO pair) with the client
 * verifying the chain and the name; the server's CertificateVerify is
 * signed by quill and checked by quill (counters mldsa-sign and
 * mldsa-verify), with the set's TLS signature scheme.  libssl takes a
 * provider's TLS signature algorithm only if the key manager it fetches for
 * the key type is that provider's, which under this configuration is
 * quill's: quill announces them (provider/tls_sigalg.h).  Skipped (77) on a
 * core before 3.5: OpenSSL 3.0 has no ML-DSA in TLS. */
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "qt_evp.h"
#include "qt_msgapi.h"
#include "test_util.h"

static OSSL_LIB_CTX *ctx;

/* A self-signed certificate for "localhost" with |key|. */
static X509 *self_signed(EVP_PKEY *key) {
    X509 *x = X509_new_ex(ctx, NULL);
    X509_NAME *n = X509_NAME_new();
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = x != NULL && n != NULL && m != NULL && X509_set_version(x, X509_VERSION_3) &&
             ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
             X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)"localhost",
                                        -1, -1, 0) &&
             X509_set_subject_name(x, n) && X509_set_issuer_name(x, n) &&
             X509_gmtime_adj(X509_getm_notBefore(x), -60) &&
             X509_gmtime_adj(X509_getm_notAfter(x), 3600) && X509_set_pubkey(x, key) &&
             EVP_DigestSignInit_ex(m, NULL, NULL, ctx, NULL, key, NULL) == 1 &&
             X509_sign_ctx(x, m) > 0;
    X509_NAME_free(n);
    EVP_MD_CTX_free(m);
    if (!ok) {
        ERR_print_errors_fp(stderr);
        X509_free(x);
        return NULL;
    }
    return x;
}

/* One handshake over a BIO pair; returns the negotiated signature scheme's
 * name (SSL_get0_peer_signature... is not there in every version, so the
 * peer's signature type NID), or NID_undef on failure. */
static int handshake(SSL_CTX *sctx, SSL_CTX *cctx) {
    SSL *s = SSL_new(sctx), *c = SSL_new(cctx);
    BIO *sb = NULL, *cb = NULL;
    int nid = NID_undef;
    if (s == NULL || c == NULL || !BIO_new_bio_pair(&sb, 0, &cb, 0))
        goto done;
    SSL_set_bio(s, sb, sb);
    SSL_set_bio(c, cb, cb);
    SSL_set_accept_state(s);
    SSL_set_connect_state(c);
    SSL_set_tlsext_host_name(c, "localhost");
    SSL_set1_host(c, "localhost");
    int sdone = 0, cdone = 0;
    for (int i = 0; i < 100 && !(sdone && cdone); i++) {
        if (!cdone) {
            int r = SSL_do_handshake(c);
            if (r == 1)
                cdone = 1;
            else if (SSL_get_error(c, r) != SSL_ERROR_WANT_READ)
                goto done;
        }
        if (!sdone) {
            int r = SSL_do_handshake(s);
            if (r == 1)
                sdone = 1;
            else if (SSL_get_error(s, r) != SSL_ERROR_WANT_READ)
                goto done;
        }
    }
    if (sdone && cdone && SSL_get_verify_result(c) == X509_V_OK &&
        SSL_get_peer_signature_type_nid(c, &nid) != 1)
        nid = NID_undef;
done:
    ERR_print_errors_fp(stderr);
    SSL_free(s);
    SSL_free(c);
    return nid;
}

int main(void) {
    if (!qt_core_at_least(3, 5)) {
        printf("libcrypto %s is older than OpenSSL 3.5: no ML-DSA in TLS: skipped\n",
               OpenSSL_version(OPENSSL_VERSION));
        return QT_SKIP;
    }
    printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    ctx = qt_evp_libctx_new(&def, &quill);
    if (ctx == NULL)
        return 1;
    static const char *const sets[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
    for (size_t i = 0; i < QT_ARRAY_LEN(sets); i++) {
        unsigned long before = qt_failed;
        EVP_PKEY *key = EVP_PKEY_Q_keygen(ctx, NULL, sets[i]);
        QT_CHECK(key != NULL && EVP_PKEY_get0_provider(key) == quill);
        X509 *cert = key != NULL ? self_signed(key) : NULL;
        QT_CHECK(cert != NULL);
        SSL_CTX *sctx = SSL_CTX_new_ex(ctx, NULL, TLS_server_method());
        SSL_CTX *cctx = SSL_CTX_new_ex(ctx, NULL, TLS_client_method());
        X509_STORE *store = cctx != NULL ? SSL_CTX_get_cert_store(cctx) : NULL;
        int ok = cert != NULL && sctx != NULL && cctx != NULL &&
                 SSL_CTX_set_min_proto_version(sctx, TLS1_3_VERSION) &&
                 SSL_CTX_use_certificate(sctx, cert) == 1 &&
                 SSL_CTX_use_PrivateKey(sctx, key) == 1 && X509_STORE_add_cert(store, cert) == 1;
        QT_CHECK(ok);
        if (!ok)
            ERR_print_errors_fp(stderr);
        SSL_CTX_set_verify(cctx, SSL_VERIFY_PEER, NULL);
        long s0 = qt_counter(quill, "mldsa-sign"), v0 = qt_counter(quill, "mldsa-verify");
        int nid = ok ? handshake(sctx, cctx) : NID_undef;
        long s1 = qt_counter(quill, "mldsa-sign"), v1 = qt_counter(quill, "mldsa-verify");
        QT_CHECK(nid != NID_undef && EVP_PKEY_is_a(key, OBJ_nid2sn(nid)));
        /* The CertificateVerify signed by quill; verified by quill with the
         * chain's signature (the self-signed certificate) as well. */
        QT_CHECK(s1 - s0 == 1 && v1 - v0 >= 1);
        printf("%s: handshake %s, signature type %s, mldsa-sign +%ld, mldsa-verify +%ld\n",
               sets[i], nid != NID_undef ? "ok" : "FAILED",
               nid != NID_undef ? OBJ_nid2sn(nid) : "-", s1 - s0, v1 - v0);
        if (qt_failed != before)
            printf("%s: FAILED\n", sets[i]);
        SSL_CTX_free(sctx);
        SSL_CTX_free(cctx);
        X509_free(cert);
        EVP_PKEY_free(key);
    }
    qt_libctx_free(ctx, def, quill);
    return qt_finish("mldsa_tls");
}
