/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The handshake rows' test PKI (speed_pki in speed.h): for one key type a
 * CA and a server certificate issued by it, made at start-up with the
 * default provider and kept as PEM in memory, so that each library context
 * under test decodes them itself, as an application loading its files
 * would.  The keys are throw-away benchmark keys. */
#include "speed.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* One extension from its openssl.cnf text, e.g. "critical,CA:TRUE". */
static int add_ext(X509 *x, X509V3_CTX *v3, int nid, const char *value) {
    X509_EXTENSION *e = X509V3_EXT_nconf_nid(NULL, v3, nid, value);
    int ok = e != NULL && X509_add_ext(x, e, -1) == 1;
    X509_EXTENSION_free(e);
    return ok;
}

/* Makes the certificate of |key| named |cn|, issued by |issuer| with
 * |issuer_key| (|issuer| NULL: self-signed, a CA), signed with SHA-256. */
static X509 *cert_make(OSSL_LIB_CTX *libctx, EVP_PKEY *key, const char *cn, X509 *issuer,
                       EVP_PKEY *issuer_key, long serial) {
    X509 *x = X509_new_ex(libctx, NULL);
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    int ok = x != NULL && mctx != NULL && X509_set_version(x, X509_VERSION_3) == 1 &&
             ASN1_INTEGER_set(X509_get_serialNumber(x), serial) == 1 &&
             X509_gmtime_adj(X509_getm_notBefore(x), -3600) != NULL &&
             X509_gmtime_adj(X509_getm_notAfter(x), 7L * 24 * 3600) != NULL &&
             X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
                                        (const unsigned char *)cn, -1, -1, 0) == 1 &&
             X509_set_issuer_name(x, X509_get_subject_name(issuer != NULL ? issuer : x)) == 1 &&
             X509_set_pubkey(x, key) == 1;
    if (ok) {
        X509V3_CTX v3;
        X509V3_set_ctx(&v3, issuer != NULL ? issuer : x, x, NULL, NULL, 0);
        if (issuer == NULL)
            ok = add_ext(x, &v3, NID_basic_constraints, "critical,CA:TRUE") &&
                 add_ext(x, &v3, NID_key_usage, "critical,keyCertSign,cRLSign") &&
                 add_ext(x, &v3, NID_subject_key_identifier, "hash");
        else
            ok = add_ext(x, &v3, NID_basic_constraints, "critical,CA:FALSE") &&
                 add_ext(x, &v3, NID_key_usage, "critical,digitalSignature") &&
                 add_ext(x, &v3, NID_ext_key_usage, "serverAuth") &&
                 add_ext(x, &v3, NID_subject_alt_name, "DNS:" SPEED_PKI_HOST) &&
                 add_ext(x, &v3, NID_subject_key_identifier, "hash") &&
                 add_ext(x, &v3, NID_authority_key_identifier, "keyid:always");
    }
    ok = ok && EVP_DigestSignInit_ex(mctx, NULL, "SHA256", libctx, NULL, issuer_key, NULL) == 1 &&
         X509_sign_ctx(x, mctx) > 0;
    EVP_MD_CTX_free(mctx);
    if (!ok) {
        X509_free(x);
        return NULL;
    }
    return x;
}

/* The contents of memory BIO |bio|, NUL-terminated (malloc'ed). */
static char *pem_of(BIO *bio) {
    char *data;
    long len = BIO_get_mem_data(bio, &data);
    char *out = len > 0 ? malloc((size_t)len + 1) : NULL;
    if (out != NULL) {
        memcpy(out, data, (size_t)len);
        out[len] = '\0';
    }
    return out;
}

static char *cert_pem(X509 *x) {
    BIO *bio = BIO_new(BIO_s_mem());
    char *out = bio != NULL && PEM_write_bio_X509(bio, x) == 1 ? pem_of(bio) : NULL;
    BIO_free(bio);
    return out;
}

static char *key_pem(EVP_PKEY *key) {
    BIO *bio = BIO_new(BIO_s_mem());
    char *out = bio != NULL && PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1
                    ? pem_of(bio)
                    : NULL;
    BIO_free(bio);
    return out;
}

int speed_pki_make(speed_pki *pki, OSSL_LIB_CTX *libctx, const speed_alg *alg) {
    memset(pki, 0, sizeof(*pki));
    const speed_prov def = {"default", "default", "default", libctx};
    char cn[96];
    EVP_PKEY *ca_key = speed_key_make(&def, alg), *leaf_key = speed_key_make(&def, alg);
    X509 *ca = NULL, *leaf = NULL;
    snprintf(cn, sizeof(cn), "quill-speed test CA (%s)", alg->label);
    if (ca_key != NULL && leaf_key != NULL &&
        (ca = cert_make(libctx, ca_key, cn, NULL, ca_key, 1)) != NULL)
        leaf = cert_make(libctx, leaf_key, SPEED_PKI_HOST, ca, ca_key, 2);
    if (leaf != NULL) {
        pki->ca_cert = cert_pem(ca);
        pki->leaf_cert = cert_pem(leaf);
        pki->leaf_key = key_pem(leaf_key);
    }
    X509_free(leaf);
    X509_free(ca);
    EVP_PKEY_free(leaf_key);
    EVP_PKEY_free(ca_key);
    if (pki->ca_cert == NULL || pki->leaf_cert == NULL || pki->leaf_key == NULL) {
        fprintf(stderr, "quill-speed: cannot make the %s test certificates\n", alg->label);
        ERR_print_errors_fp(stderr);
        speed_pki_free(pki);
        return 0;
    }
    return 1;
}

void speed_pki_free(speed_pki *pki) {
    free(pki->ca_cert);
    free(pki->leaf_cert);
    if (pki->leaf_key != NULL)
        OPENSSL_cleanse(pki->leaf_key, strlen(pki->leaf_key));
    free(pki->leaf_key);
    memset(pki, 0, sizeof(*pki));
}
