/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * provider_null_params: string parameters whose data pointer is NULL.
 * OpenSSL 3.0's OSSL_PARAM_get_utf8_string_ptr and
 * OSSL_PARAM_get_octet_string_ptr accept such a parameter and return the
 * NULL; quill once passed it on to strcmp or memcpy (a crash).  Every
 * string parameter quill reads is set here with NULL data, through the
 * public API that reaches it (signature contexts, key generation, key
 * import, key parameters) for RSA, RSA-PSS, ECDSA P-256 and ML-DSA; each must fail with an
 * error from quill on the queue.  Octet strings that are empty (NULL data,
 * size 0) stay valid: an empty ML-DSA context string signs and verifies. */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static const char *const QUILL = "provider=quill";

/* A string parameter of |type| named |name| with NULL data and |size|. */
static OSSL_PARAM null_param(const char *name, unsigned type, size_t size) {
    OSSL_PARAM p = {name, type, NULL, size, OSSL_PARAM_UNMODIFIED};
    return p;
}

/* The call failed and left an error raised by quill (library name
 * "quill"); the queue is emptied. */
static void refused(int failed, const char *what) {
    unsigned long e = ERR_peek_last_error();
    const char *lib = e != 0 ? ERR_lib_error_string(e) : NULL;
    int ok = failed && lib != NULL && strcmp(lib, "quill") == 0;
    if (!ok)
        fprintf(stderr, "%s: failed=%d, last error from %s\n", what, failed,
                lib != NULL ? lib : "(none)");
    QT_CHECK(ok);
    ERR_clear_error();
}

static EVP_PKEY *quill_keygen(const char *alg, const OSSL_PARAM *params) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, QUILL);
    EVP_PKEY *k = NULL;
    if (c == NULL || EVP_PKEY_keygen_init(c) != 1 ||
        (params != NULL && EVP_PKEY_CTX_set_params(c, params) != 1) ||
        EVP_PKEY_generate(c, &k) != 1)
        k = NULL;
    EVP_PKEY_CTX_free(c);
    QT_CHECK(k != NULL);
    return k;
}

/* Sets one NULL parameter on a quill signature context for |key|
 * (verify_init if |verify|, else sign_init; PSS padding first if |pss|). */
static void sig_param(EVP_PKEY *key, const char *name, unsigned type, size_t size, int verify,
                      int pss) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, QUILL);
    QT_CHECK(c != NULL && (verify ? EVP_PKEY_verify_init(c) : EVP_PKEY_sign_init(c)) == 1);
    if (pss)
        QT_CHECK(EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) == 1);
    OSSL_PARAM ps[2] = {null_param(name, type, size), OSSL_PARAM_END};
    char what[96];
    snprintf(what, sizeof(what), "signature %s %s", verify ? "verify" : "sign", name);
    refused(EVP_PKEY_CTX_set_params(c, ps) != 1, what);
    EVP_PKEY_CTX_free(c);
}

/* Key generation parameters on a quill keygen context. */
static void gen_param(const char *alg, const char *name, unsigned type, size_t size) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, QUILL);
    QT_CHECK(c != NULL && EVP_PKEY_keygen_init(c) == 1);
    OSSL_PARAM ps[2] = {null_param(name, type, size), OSSL_PARAM_END};
    char what[96];
    snprintf(what, sizeof(what), "%s keygen %s", alg, name);
    refused(EVP_PKEY_CTX_set_params(c, ps) != 1, what);
    EVP_PKEY_CTX_free(c);
}

/* EVP_PKEY_fromdata with quill's key manager: |good| (terminated) plus the
 * NULL parameter. */
static void import_param(const char *alg, const OSSL_PARAM *good, size_t ngood, const char *name,
                         unsigned type, size_t size) {
    OSSL_PARAM ps[8];
    QT_CHECK(ngood + 2 <= QT_ARRAY_LEN(ps));
    if (ngood > 0)
        memcpy(ps, good, ngood * sizeof(OSSL_PARAM));
    ps[ngood] = null_param(name, type, size);
    ps[ngood + 1] = (OSSL_PARAM)OSSL_PARAM_END;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, alg, QUILL);
    EVP_PKEY *k = NULL;
    QT_CHECK(c != NULL && EVP_PKEY_fromdata_init(c) == 1);
    char what[96];
    snprintf(what, sizeof(what), "%s import %s", alg, name);
    refused(EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEYPAIR | OSSL_KEYMGMT_SELECT_ALL_PARAMETERS, ps) != 1,
            what);
    EVP_PKEY_free(k);
    EVP_PKEY_CTX_free(c);
}

static void test_rsa(void) {
    EVP_PKEY *rsa = quill_keygen("RSA", NULL);
    const unsigned U = OSSL_PARAM_UTF8_STRING;
    for (int verify = 0; verify <= 1; verify++) {
        sig_param(rsa, OSSL_SIGNATURE_PARAM_PAD_MODE, U, 0, verify, 0);
        sig_param(rsa, OSSL_SIGNATURE_PARAM_DIGEST, U, 0, verify, 0);
        sig_param(rsa, OSSL_SIGNATURE_PARAM_PSS_SALTLEN, U, 0, verify, 1);
        sig_param(rsa, OSSL_SIGNATURE_PARAM_MGF1_DIGEST, U, 0, verify, 1);
    }
    /* RSA-PSS restrictions on import (n and e from the key above). */
    BIGNUM *n = NULL, *e = NULL;
    QT_CHECK(EVP_PKEY_get_bn_param(rsa, OSSL_PKEY_PARAM_RSA_N, &n) == 1);
    QT_CHECK(EVP_PKEY_get_bn_param(rsa, OSSL_PKEY_PARAM_RSA_E, &e) == 1);
    unsigned char nb[512], eb[8];
    int nl = BN_bn2nativepad(n, nb, BN_num_bytes(n)), el = BN_bn2nativepad(e, eb, BN_num_bytes(e));
    QT_CHECK(nl > 0 && el > 0);
    const OSSL_PARAM good[] = {
        OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_RSA_N, nb, (size_t)nl),
        OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_RSA_E, eb, (size_t)el),
    };
    import_param("RSA-PSS", good, 2, OSSL_PKEY_PARAM_RSA_MASKGENFUNC, U, 0);
    import_param("RSA-PSS", good, 2, OSSL_PKEY_PARAM_RSA_DIGEST, U, 0);
    import_param("RSA-PSS", good, 2, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST, U, 0);
    BN_free(n);
    BN_free(e);
    EVP_PKEY_free(rsa);
}

static void test_ec(void) {
    const unsigned U = OSSL_PARAM_UTF8_STRING, O = OSSL_PARAM_OCTET_STRING;
    OSSL_PARAM gp[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                        (char *)"P-256", 0),
                       OSSL_PARAM_END};
    EVP_PKEY *ec = quill_keygen("EC", gp);
    sig_param(ec, OSSL_SIGNATURE_PARAM_DIGEST, U, 0, 0, 0);
    sig_param(ec, OSSL_SIGNATURE_PARAM_DIGEST, U, 0, 1, 0);
    gen_param("EC", OSSL_PKEY_PARAM_GROUP_NAME, U, 0);
    gen_param("EC", OSSL_PKEY_PARAM_EC_ENCODING, U, 0);
    gen_param("EC", OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, U, 0);
    import_param("EC", NULL, 0, OSSL_PKEY_PARAM_GROUP_NAME, U, 0);
    import_param("EC", gp, 1, OSSL_PKEY_PARAM_EC_ENCODING, U, 0);
    import_param("EC", gp, 1, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, U, 0);
    import_param("EC", gp, 1, OSSL_PKEY_PARAM_PUB_KEY, O, 65);
    OSSL_PARAM enc[] = {null_param(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, O, 65), OSSL_PARAM_END};
    refused(EVP_PKEY_set_params(ec, enc) != 1, "EC key encoded-pub-key");
    EVP_PKEY_free(ec);
}

static void test_mldsa(void) {
    const unsigned O = OSSL_PARAM_OCTET_STRING;
    EVP_PKEY *ml = quill_keygen("ML-DSA-65", NULL);
    for (int verify = 0; verify <= 1; verify++)
        sig_param(ml, "context-string", O, 10, verify, 0);
    sig_param(ml, "test-entropy", O, 32, 0, 0);
    gen_param("ML-DSA-65", "seed", O, 32);
    import_param("ML-DSA-65", NULL, 0, OSSL_PKEY_PARAM_PUB_KEY, O, 1952);
    import_param("ML-DSA-65", NULL, 0, OSSL_PKEY_PARAM_PRIV_KEY, O, 4032);
    import_param("ML-DSA-65", NULL, 0, "seed", O, 32);

    /* An empty context string given as NULL data of size 0 is the empty
     * string: it signs, and the signature verifies with "" as context. */
    static const unsigned char msg[] = "null params";
    unsigned char sig[3309];
    size_t sigl = sizeof(sig);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, ml, QUILL);
    OSSL_PARAM empty[] = {null_param("context-string", O, 0), OSSL_PARAM_END};
    QT_CHECK(c != NULL && EVP_PKEY_sign_init(c) == 1 && EVP_PKEY_CTX_set_params(c, empty) == 1);
    QT_CHECK(EVP_PKEY_sign(c, sig, &sigl, msg, sizeof(msg)) == 1 && sigl == sizeof(sig));
    EVP_PKEY_CTX_free(c);
    c = EVP_PKEY_CTX_new_from_pkey(libctx, ml, QUILL);
    OSSL_PARAM blank[] = {OSSL_PARAM_construct_octet_string("context-string", (void *)"", 0),
                          OSSL_PARAM_END};
    QT_CHECK(c != NULL && EVP_PKEY_verify_init(c) == 1 && EVP_PKEY_CTX_set_params(c, blank) == 1);
    QT_CHECK(EVP_PKEY_verify(c, sig, sigl, msg, sizeof(msg)) == 1);
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    EVP_PKEY_free(ml);
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    test_rsa();
    test_ec();
    test_mldsa();
    qt_libctx_free(libctx, def, quill);
    return qt_finish("provider_null_params");
}
