/* Copyright quill authors.
 *
 * Constant-time validation of the RSA core, run under valgrind's memcheck by
 * test/ct/memcheck.sh (see test/ct.cmake).
 *
 * Linked against quill_core_ct, a copy of the core built with
 * QUILL_CT_VALIDATION: the core marks its secrets (private key components at
 * import, blinding values, prime candidates) as undefined memory, and
 * declassifies what the algorithm makes public (a checked signature, a
 * primality verdict).  memcheck then reports every branch and every memory
 * address that depends on a secret.  This harness also marks the private
 * components it passes in, so the run does not depend on the core
 * remembering to, and checks that every output the core hands back as
 * public (signatures, statuses) is fully defined.
 *
 *   ct_rsa sign     2048-bit CRT key from OpenSSL: PKCS#1 v1.5 and PSS
 *                   signatures, a raw private operation
 *   ct_rsa nocrt    the same key without CRT values (n, e, d only)
 *   ct_rsa keygen   quill_rsa_keygen(2048), then a signature with the key
 *   ct_rsa check    quill_rsa_key_check on the CRT key (primality tests)
 *
 * Every result is also checked for correctness against OpenSSL or the
 * public operation, so the program is an ordinary test when run without
 * valgrind. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "common/ct.h"
#include "rsa/rsa.h"
#include "test_util.h"

#if !defined(QUILL_CT_VALIDATION)
#error "ct_rsa must be built with QUILL_CT_VALIDATION"
#endif

#define BITS 2048
#define K (BITS / 8)

/* ---- Helpers ---- */

/* Fails the run if |p| is not fully defined: an output the core returns as
 * public but did not declassify (memcheck also reports it as an error). */
static void expect_public(const void *p, size_t len, const char *what) {
    if (RUNNING_ON_VALGRIND && VALGRIND_CHECK_MEM_IS_DEFINED(p, len) != 0) {
        fprintf(stderr, "%s: %zu bytes returned as public are still marked secret\n", what,
                len);
        QT_CHECK(!"output not declassified");
    }
}

/* The status is public; checking it defined first gives a clear message
 * rather than a bare "conditional jump" at the comparison. */
static int ok_status(quill_err e, const char *what) {
    expect_public(&e, sizeof(e), what);
    if (e != QUILL_OK)
        fprintf(stderr, "%s: quill_err %d\n", what, (int)e);
    return e == QUILL_OK;
}

static int rng_fill(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    return RAND_bytes(out, (int)len) == 1;
}

static const quill_rng rng = {rng_fill, NULL};

/* A quill_hash on OpenSSL's SHA-256. */
static int sha256_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                         const size_t in_len[], size_t count) {
    (void)h;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(c, in[i], in_len[i]) == 1;
    ok = ok && EVP_DigestFinal_ex(c, out, NULL) == 1;
    EVP_MD_CTX_free(c);
    return ok;
}

static const quill_hash sha256 = {32, sha256_digest, NULL, 64};

/* The key components as bytes; the private ones are marked secret. */
typedef struct key_bytes {
    uint8_t *buf[8];
    size_t len[8];
} key_bytes;

static const char *const param_names[8] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

static int key_bytes_get(key_bytes *kb, const EVP_PKEY *pkey) {
    memset(kb, 0, sizeof(*kb));
    for (int i = 0; i < 8; i++) {
        BIGNUM *bn = NULL;
        if (EVP_PKEY_get_bn_param(pkey, param_names[i], &bn) != 1)
            return 0;
        kb->len[i] = (size_t)BN_num_bytes(bn);
        kb->buf[i] = malloc(kb->len[i] ? kb->len[i] : 1);
        if (kb->buf[i] == NULL || BN_bn2bin(bn, kb->buf[i]) != (int)kb->len[i]) {
            BN_clear_free(bn);
            return 0;
        }
        BN_clear_free(bn);
        if (i >= 2)
            QUILL_CT_SECRET(kb->buf[i], kb->len[i]);
    }
    return 1;
}

static void key_bytes_free(key_bytes *kb) {
    for (int i = 0; i < 8; i++) {
        if (kb->buf[i] != NULL) {
            /* Marked undefined: make it defined again before cleansing so the
             * wipe itself is not what memcheck reports. */
            QUILL_CT_DECLASSIFY(kb->buf[i], kb->len[i]);
            OPENSSL_cleanse(kb->buf[i], kb->len[i]);
        }
        free(kb->buf[i]);
    }
}

static quill_rsa_key *import(const key_bytes *kb, int crt) {
    quill_rsa_components c;
    memset(&c, 0, sizeof(c));
    quill_bytes *f[8] = {&c.n, &c.e, &c.d, &c.p, &c.q, &c.dp, &c.dq, &c.qinv};
    for (int i = 0; i < (crt ? 8 : 3); i++) {
        f[i]->data = kb->buf[i];
        f[i]->len = kb->len[i];
    }
    quill_rsa_key *key = NULL;
    if (!ok_status(quill_rsa_key_new(&key, &c), "quill_rsa_key_new"))
        return NULL;
    return key;
}

static EVP_PKEY *openssl_key(void) {
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)BITS);
    if (pkey == NULL)
        ERR_print_errors_fp(stderr);
    return pkey;
}

static void fixed_digest(uint8_t d[32]) {
    static const char msg[] = "quill constant-time validation";
    QT_CHECK(EVP_Digest(msg, sizeof(msg) - 1, d, NULL, EVP_sha256(), NULL) == 1);
}

/* OpenSSL's PKCS#1 v1.5 signature of |digest| (deterministic). */
static int openssl_pkcs1_sign(EVP_PKEY *pkey, const uint8_t *digest, uint8_t *sig) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
    size_t len = K;
    int ok = ctx != NULL && EVP_PKEY_sign_init(ctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1 &&
             EVP_PKEY_sign(ctx, sig, &len, digest, 32) == 1 && len == K;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int openssl_pss_verify(EVP_PKEY *pkey, const uint8_t *digest, const uint8_t *sig,
                              int salt_len) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
    int ok = ctx != NULL && EVP_PKEY_verify_init(ctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, salt_len) == 1 &&
             EVP_PKEY_verify(ctx, sig, K, digest, 32) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

/* ---- The operations under test ---- */

static void pkcs1_sign(const quill_rsa_key *key, EVP_PKEY *pkey, const char *what) {
    uint8_t digest[32], sig[K], ref[K];
    fixed_digest(digest);
    if (!ok_status(quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA256, digest, 32, &rng), what)) {
        QT_CHECK(!"pkcs1 sign failed");
        return;
    }
    expect_public(sig, K, what);
    QT_CHECK(ok_status(quill_rsa_pkcs1_verify(key, sig, K, QUILL_MD_SHA256, digest, 32),
                       "quill_rsa_pkcs1_verify"));
    if (pkey != NULL) {
        QT_CHECK(openssl_pkcs1_sign(pkey, digest, ref));
        QT_CHECK(memcmp(sig, ref, K) == 0);
    }
}

static void pss_sign(const quill_rsa_key *key, EVP_PKEY *pkey) {
    uint8_t digest[32], sig[K];
    fixed_digest(digest);
    if (!ok_status(quill_rsa_pss_sign(key, sig, &sha256, &sha256, digest, 32, 32, &rng),
                   "quill_rsa_pss_sign")) {
        QT_CHECK(!"pss sign failed");
        return;
    }
    expect_public(sig, K, "quill_rsa_pss_sign");
    QT_CHECK(ok_status(quill_rsa_pss_verify(key, sig, K, &sha256, &sha256, digest, 32, 32),
                       "quill_rsa_pss_verify"));
    QT_CHECK(openssl_pss_verify(pkey, digest, sig, 32));
}

/* x^d mod n for a random x < n (top byte cleared), checked by x == y^e. */
static void raw_private(const quill_rsa_key *key) {
    uint8_t x[K], y[K], back[K];
    QT_CHECK(RAND_bytes(x, K) == 1);
    x[0] = 0;
    if (!ok_status(quill_rsa_private(key, y, x, K, &rng), "quill_rsa_private")) {
        QT_CHECK(!"raw private operation failed");
        return;
    }
    expect_public(y, K, "quill_rsa_private output");
    QT_CHECK(ok_status(quill_rsa_public(key, back, y, K), "quill_rsa_public"));
    QT_CHECK(memcmp(back, x, K) == 0);
}

static int run_with_openssl_key(const char *mode) {
    EVP_PKEY *pkey = openssl_key();
    key_bytes kb;
    QT_CHECK(pkey != NULL);
    if (pkey == NULL)
        return 0;
    int got = key_bytes_get(&kb, pkey);
    QT_CHECK(got);
    if (got) {
        int crt = strcmp(mode, "nocrt") != 0;
        quill_rsa_key *key = import(&kb, crt);
        QT_CHECK(key != NULL);
        if (key != NULL) {
            QT_CHECK(quill_rsa_key_has_crt(key) == crt);
            if (strcmp(mode, "check") == 0) {
                QT_CHECK(ok_status(quill_rsa_key_check(key, &rng), "quill_rsa_key_check"));
            } else {
                pkcs1_sign(key, pkey, crt ? "quill_rsa_pkcs1_sign (CRT)"
                                          : "quill_rsa_pkcs1_sign (non-CRT)");
                if (crt)
                    pss_sign(key, pkey);
                raw_private(key);
            }
            quill_rsa_key_free(key);
        }
    }
    key_bytes_free(&kb);
    EVP_PKEY_free(pkey);
    return 1;
}

static void run_keygen(void) {
    quill_rsa_key *key = NULL;
    if (!ok_status(quill_rsa_keygen(&key, BITS, NULL, &rng), "quill_rsa_keygen")) {
        QT_CHECK(!"keygen failed");
        return;
    }
    QT_CHECK(quill_rsa_key_bits(key) == BITS);
    QT_CHECK(quill_rsa_key_has_crt(key));
    pkcs1_sign(key, NULL, "quill_rsa_pkcs1_sign (generated key)");
    raw_private(key);
    quill_rsa_key_free(key);
}

int main(int argc, char **argv) {
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "sign") == 0 || strcmp(mode, "nocrt") == 0 || strcmp(mode, "check") == 0) {
        run_with_openssl_key(mode);
    } else if (strcmp(mode, "keygen") == 0) {
        run_keygen();
    } else {
        fprintf(stderr, "usage: ct_rsa sign|nocrt|keygen|check\n");
        return 2;
    }
    printf("ct_rsa %s: %s valgrind\n", mode, RUNNING_ON_VALGRIND ? "under" : "NOT under");
    char suite[32];
    snprintf(suite, sizeof(suite), "ct_rsa %s", mode);
    return qt_finish(suite);
}
