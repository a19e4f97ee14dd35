/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * keygen_route: where key generation lands under quill's configurations,
 * on whatever core runs the test (on 3.0 and on 3.5+, whose default
 * provider has ML-DSA too):
 *   - openssl.cnf.example (default_properties ?quill.sig=yes): ML-DSA key
 *     generation by name on quill (counted as mldsa-keygen), RSA and EC key
 *     generation on the default provider; RSA-OAEP decryption and ECDH on
 *     the default provider; signatures with those keys on quill;
 *   - the opt-in ?quill.sig=yes,?quill.keygen=yes: RSA and EC (P-256) key
 *     generation on quill too (rsa-keygen, ec-keygen counted), while
 *     decryption and ECDH with those quill-held keys still run on the
 *     default provider (the key exported to it), with the same results.
 * Key generation comes first in each fresh library context, before any
 * signature (OpenSSL 3.0's method cache could otherwise route it to quill,
 * README). */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "qt_msgapi.h"
#include "test_util.h"

static OSSL_LIB_CTX *ctx;
static OSSL_PROVIDER *def, *quill;

static EVP_PKEY *keygen(const char *type, const OSSL_PARAM *params, const OSSL_PROVIDER **by) {
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx, type, NULL);
    EVP_PKEY *k = NULL;
    if (g == NULL || EVP_PKEY_keygen_init(g) != 1 ||
        (params != NULL && EVP_PKEY_CTX_set_params(g, params) != 1) ||
        EVP_PKEY_generate(g, &k) != 1) {
        ERR_print_errors_fp(stderr);
        k = NULL;
    }
    *by = g != NULL ? EVP_PKEY_CTX_get0_provider(g) : NULL;
    EVP_PKEY_CTX_free(g);
    return k;
}

/* RSA-OAEP: encrypt and decrypt 32 bytes; returns the decrypting provider. */
static const OSSL_PROVIDER *oaep_round_trip(EVP_PKEY *k) {
    uint8_t in[32], ct[512], out[512];
    size_t cl = sizeof(ct), ol = sizeof(out);
    qt_rng_bytes(in, sizeof(in));
    EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(ctx, k, NULL);
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(ctx, k, NULL);
    const OSSL_PROVIDER *by = NULL;
    int ok = e != NULL && d != NULL && EVP_PKEY_encrypt_init(e) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(e, RSA_PKCS1_OAEP_PADDING) == 1 &&
             EVP_PKEY_encrypt(e, ct, &cl, in, sizeof(in)) == 1 && EVP_PKEY_decrypt_init(d) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(d, RSA_PKCS1_OAEP_PADDING) == 1 &&
             EVP_PKEY_decrypt(d, out, &ol, ct, cl) == 1 && ol == sizeof(in) &&
             memcmp(in, out, ol) == 0;
    if (ok)
        by = EVP_PKEY_CTX_get0_provider(d);
    else
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(e);
    EVP_PKEY_CTX_free(d);
    return by;
}

/* ECDH both ways between |a| and a fresh default-provider P-256 key;
 * returns the provider of a's derivation if the secrets agree. */
static const OSSL_PROVIDER *ecdh(EVP_PKEY *a) {
    EVP_PKEY *b = EVP_PKEY_Q_keygen(ctx, "provider=default", "EC", "P-256");
    uint8_t z1[64], z2[64];
    size_t l1 = sizeof(z1), l2 = sizeof(z2);
    EVP_PKEY_CTX *x = EVP_PKEY_CTX_new_from_pkey(ctx, a, NULL);
    EVP_PKEY_CTX *y = b != NULL ? EVP_PKEY_CTX_new_from_pkey(ctx, b, NULL) : NULL;
    const OSSL_PROVIDER *by = NULL;
    int ok = x != NULL && y != NULL && EVP_PKEY_derive_init(x) == 1 &&
             EVP_PKEY_derive_set_peer(x, b) == 1 && EVP_PKEY_derive(x, z1, &l1) == 1 &&
             EVP_PKEY_derive_init(y) == 1 && EVP_PKEY_derive_set_peer(y, a) == 1 &&
             EVP_PKEY_derive(y, z2, &l2) == 1 && l1 == l2 && memcmp(z1, z2, l1) == 0;
    if (ok)
        by = EVP_PKEY_CTX_get0_provider(x);
    else
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(x);
    EVP_PKEY_CTX_free(y);
    EVP_PKEY_free(b);
    return by;
}

/* A SHA-256 signature with |k|, no query: returns the provider. */
static const OSSL_PROVIDER *sign_with(EVP_PKEY *k, const char *md) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    uint8_t sig[5000];
    size_t sl = sizeof(sig);
    const OSSL_PROVIDER *by = NULL;
    if (m != NULL && EVP_DigestSignInit_ex(m, &pc, md, ctx, NULL, k, NULL) == 1 &&
        EVP_DigestSign(m, sig, &sl, (const uint8_t *)"route", 5) == 1)
        by = EVP_PKEY_CTX_get0_provider(pc);
    else
        ERR_print_errors_fp(stderr);
    EVP_MD_CTX_free(m);
    return by;
}

static const char *who(const OSSL_PROVIDER *p) {
    return p == NULL ? "(failed)" : OSSL_PROVIDER_get0_name(p);
}

static void run(const char *props, int keygen_opt_in) {
    ctx = qt_libctx_new(&def, &quill);
    QT_CHECK(ctx != NULL && EVP_set_default_properties(ctx, props) == 1);
    if (ctx == NULL)
        return;
    const OSSL_PROVIDER *want_rsa_ec = keygen_opt_in ? quill : def;
    const OSSL_PROVIDER *by = NULL;
    long mk = qt_counter(quill, "mldsa-keygen"), rk = qt_counter(quill, "rsa-keygen"),
         ek = qt_counter(quill, "ec-keygen");
    EVP_PKEY *ml = keygen("ML-DSA-65", NULL, &by);
    QT_CHECK(ml != NULL && by == quill && qt_counter(quill, "mldsa-keygen") == mk + 1);
    printf("[%s] ML-DSA-65 keygen: %s\n", props, who(by));
    size_t bits = 2048;
    OSSL_PARAM rp[] = {OSSL_PARAM_construct_size_t(OSSL_PKEY_PARAM_RSA_BITS, &bits),
                       OSSL_PARAM_construct_end()};
    EVP_PKEY *rsa = keygen("RSA", rp, &by);
    QT_CHECK(rsa != NULL && by == want_rsa_ec);
    QT_CHECK(qt_counter(quill, "rsa-keygen") == rk + (keygen_opt_in ? 1 : 0));
    printf("[%s] RSA-2048 keygen: %s\n", props, who(by));
    OSSL_PARAM ep[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                        (char *)"P-256", 0),
                       OSSL_PARAM_construct_end()};
    EVP_PKEY *ec = keygen("EC", ep, &by);
    QT_CHECK(ec != NULL && by == want_rsa_ec);
    QT_CHECK(qt_counter(quill, "ec-keygen") == ek + (keygen_opt_in ? 1 : 0));
    printf("[%s] EC P-256 keygen: %s\n", props, who(by));
    /* Decryption and ECDH stay on the default provider. */
    if (rsa != NULL) {
        by = oaep_round_trip(rsa);
        QT_CHECK(by == def);
        printf("[%s] RSA-OAEP decryption: %s\n", props, who(by));
        QT_CHECK(sign_with(rsa, "SHA256") == quill);
    }
    if (ec != NULL) {
        by = ecdh(ec);
        QT_CHECK(by == def);
        printf("[%s] ECDH P-256: %s\n", props, who(by));
        QT_CHECK(sign_with(ec, "SHA256") == quill);
    }
    if (ml != NULL)
        QT_CHECK(sign_with(ml, NULL) == quill);
    EVP_PKEY_free(ml);
    EVP_PKEY_free(rsa);
    EVP_PKEY_free(ec);
    qt_libctx_free(ctx, def, quill);
    ctx = NULL;
}

int main(void) {
    printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
    qt_rng_seed(0x6b657967656eULL);
    run("?quill.sig=yes", 0);
    run("?quill.sig=yes,?quill.keygen=yes", 1);
    return qt_finish("keygen_route");
}
