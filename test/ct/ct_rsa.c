/* SPDX-License-Identifier: Apache-2.0 */
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
 *   ct_rsa sign          fresh 2048-bit CRT key from OpenSSL's keygen
 *   ct_rsa nocrt         fixed 2048-bit key without CRT values (n, e, d)
 *   ct_rsa check         quill_rsa_key_check on the fixed 2048-bit CRT key
 *   ct_rsa keygen        quill_rsa_keygen(2048), then signatures
 *   ct_rsa sign3072      fixed 3072-bit CRT key
 *   ct_rsa sign4096      fixed 4096-bit CRT key
 *   ct_rsa nocrt3072     fixed 3072-bit key without CRT values
 *   ct_rsa unbalanced    2080-bit key with primes of 16 and 17 limbs, both
 *                        ways round (p < q and p > q): import, key check,
 *                        signatures
 *   ct_rsa keygen_small  below QUILL_RSA_FIPS_MIN_BITS: keygen(1024, e = 3)
 *                        and keygen(1025) (p one limb longer than q), each
 *                        with key check, dup and signatures
 *   ct_rsa export        quill_rsa_key_get of every field (fixed 2048-bit and
 *                        unbalanced keys, a generated 1025-bit key): the
 *                        statuses and lengths it returns must be public
 *
 * "Signatures" on a key means: PKCS#1 v1.5 with SHA-256 and SHA-512
 * (compared byte for byte with OpenSSL's when OpenSSL has the private key,
 * verified by OpenSSL otherwise), PSS with salts of 0, 32 and the maximum
 * length with SHA-256 and of 32 bytes with SHA-512 (verified by quill and
 * by OpenSSL), and a raw private operation (checked by the public one).
 * Fixed keys come from ct_rsa_keys.h.
 *
 * Every result is checked for correctness, so the program is an ordinary
 * test when run without valgrind. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "common/ct.h"
#include "ct_rsa_keys.h"
#include "rsa/rsa.h"
#include "test_util.h"

#if !defined(QUILL_CT_VALIDATION)
#error "ct_rsa must be built with QUILL_CT_VALIDATION"
#endif

/* Largest modulus the harness uses, in bytes (4096 bits). */
#define MAX_K 512
#define NCOMP 8

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

/* A quill_hash on an OpenSSL digest; h->arg is the EVP_MD. */
static int evp_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                      const size_t in_len[], size_t count) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, (const EVP_MD *)h->arg, NULL) == 1;
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(c, in[i], in_len[i]) == 1;
    ok = ok && EVP_DigestFinal_ex(c, out, NULL) == 1;
    EVP_MD_CTX_free(c);
    return ok;
}

/* One digest in every form the harness needs. */
typedef struct ct_md {
    const char *name;
    quill_md md;
    const EVP_MD *evp;
    quill_hash hash;
    uint8_t digest[64]; /* of a fixed message */
} ct_md;

static ct_md mds[2];

static int mds_init(void) {
    static const char msg[] = "quill constant-time validation";
    const char *names[2] = {"SHA256", "SHA512"};
    const quill_md ids[2] = {QUILL_MD_SHA256, QUILL_MD_SHA512};
    for (int i = 0; i < 2; i++) {
        ct_md *m = &mds[i];
        m->name = names[i];
        m->md = ids[i];
        m->evp = EVP_get_digestbyname(names[i]);
        if (m->evp == NULL)
            return 0;
        m->hash.size = (size_t)EVP_MD_get_size(m->evp);
        m->hash.digest = evp_digest;
        m->hash.arg = (void *)(uintptr_t)m->evp;
        m->hash.block_size = (size_t)EVP_MD_get_block_size(m->evp);
        if (EVP_Digest(msg, sizeof(msg) - 1, m->digest, NULL, m->evp, NULL) != 1)
            return 0;
    }
    return 1;
}

/* ---- Keys ---- */

/* A key under test: the quill key, OpenSSL's copy (private when OpenSSL
 * knows the private key, else public only) and the modulus size. */
typedef struct ct_key {
    const char *name;
    quill_rsa_key *key;
    EVP_PKEY *pkey;
    int pkey_private;
    size_t k;
} ct_key;

static void ct_key_free(ct_key *ck) {
    quill_rsa_key_free(ck->key);
    EVP_PKEY_free(ck->pkey);
    memset(ck, 0, sizeof(*ck));
}

static const char *const param_names[NCOMP] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};

static void bns_free(BIGNUM *bn[NCOMP]) {
    for (int i = 0; i < NCOMP; i++) {
        BN_clear_free(bn[i]);
        bn[i] = NULL;
    }
}

/* OpenSSL's key from components: n and e always, the private ones too if
 * |count| is NCOMP. */
static EVP_PKEY *pkey_from_bns(BIGNUM *const bn[NCOMP], int count) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pkey = NULL;
    int ok = bld != NULL && ctx != NULL;
    for (int i = 0; ok && i < count; i++)
        ok = OSSL_PARAM_BLD_push_BN(bld, param_names[i], bn[i]) == 1;
    ok = ok && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL;
    ok = ok && EVP_PKEY_fromdata_init(ctx) == 1 &&
         EVP_PKEY_fromdata(ctx, &pkey, count == NCOMP ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                           params) == 1;
    if (!ok)
        ERR_print_errors_fp(stderr);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    EVP_PKEY_CTX_free(ctx);
    return ok ? pkey : NULL;
}

/* Every component from primes p and q (hex) and e = 65537:
 * d = e^-1 mod lcm(p - 1, q - 1), dP, dQ, qInv = q^-1 mod p. */
static int bns_from_primes(BIGNUM *bn[NCOMP], const char *p_hex, const char *q_hex) {
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *p1 = BN_new(), *q1 = BN_new(), *g = BN_new(), *lambda = BN_new();
    for (int i = 0; i < NCOMP; i++)
        bn[i] = BN_new();
    int ok = ctx != NULL && p1 != NULL && q1 != NULL && g != NULL && lambda != NULL;
    for (int i = 0; ok && i < NCOMP; i++)
        ok = bn[i] != NULL;
    BIGNUM *n = bn[0], *e = bn[1], *d = bn[2], *p = bn[3], *q = bn[4];
    ok = ok && BN_hex2bn(&p, p_hex) != 0 && BN_hex2bn(&q, q_hex) != 0 &&
         BN_set_word(e, 65537) && BN_mul(n, p, q, ctx) && BN_sub(p1, p, BN_value_one()) &&
         BN_sub(q1, q, BN_value_one()) && BN_gcd(g, p1, q1, ctx) &&
         BN_mul(lambda, p1, q1, ctx) && BN_div(lambda, NULL, lambda, g, ctx) &&
         BN_mod_inverse(d, e, lambda, ctx) != NULL && BN_mod(bn[5], d, p1, ctx) &&
         BN_mod(bn[6], d, q1, ctx) && BN_mod_inverse(bn[7], q, p, ctx) != NULL;
    BN_CTX_free(ctx);
    BN_clear_free(p1);
    BN_clear_free(q1);
    BN_clear_free(g);
    BN_clear_free(lambda);
    if (!ok)
        bns_free(bn);
    return ok;
}

static int bns_from_pkey(BIGNUM *bn[NCOMP], const EVP_PKEY *pkey) {
    memset(bn, 0, NCOMP * sizeof(bn[0]));
    for (int i = 0; i < NCOMP; i++) {
        if (EVP_PKEY_get_bn_param(pkey, param_names[i], &bn[i]) != 1) {
            bns_free(bn);
            return 0;
        }
    }
    return 1;
}

/* Imports the components into quill (only n, e, d unless |crt|), passing
 * the private ones in buffers marked secret. */
static quill_rsa_key *quill_from_bns(BIGNUM *const bn[NCOMP], int crt) {
    uint8_t *buf[NCOMP] = {NULL};
    size_t len[NCOMP] = {0};
    quill_rsa_components c;
    memset(&c, 0, sizeof(c));
    quill_bytes *f[NCOMP] = {&c.n, &c.e, &c.d, &c.p, &c.q, &c.dp, &c.dq, &c.qinv};
    int count = crt ? NCOMP : 3, ok = 1;
    for (int i = 0; ok && i < count; i++) {
        len[i] = (size_t)BN_num_bytes(bn[i]);
        buf[i] = malloc(len[i] ? len[i] : 1);
        ok = buf[i] != NULL && BN_bn2bin(bn[i], buf[i]) == (int)len[i];
        if (ok && i >= 2)
            QUILL_CT_SECRET(buf[i], len[i]);
        f[i]->data = buf[i];
        f[i]->len = len[i];
    }
    quill_rsa_key *key = NULL;
    if (ok && !ok_status(quill_rsa_key_new(&key, &c), "quill_rsa_key_new"))
        key = NULL;
    for (int i = 0; i < count; i++) {
        if (buf[i] != NULL) {
            /* Defined again before the wipe, so the wipe is not reported. */
            QUILL_CT_DECLASSIFY(buf[i], len[i]);
            OPENSSL_cleanse(buf[i], len[i]);
        }
        free(buf[i]);
    }
    return key;
}

/* Both sides of a key from its components; OpenSSL gets the private key
 * (so PKCS#1 signatures can be compared byte for byte). */
static int ct_key_from_bns(ct_key *ck, const char *name, BIGNUM *const bn[NCOMP], int crt) {
    memset(ck, 0, sizeof(*ck));
    ck->name = name;
    ck->key = quill_from_bns(bn, crt);
    ck->pkey = pkey_from_bns(bn, NCOMP);
    ck->pkey_private = 1;
    QT_CHECK(ck->key != NULL);
    QT_CHECK(ck->pkey != NULL);
    if (ck->key == NULL || ck->pkey == NULL) {
        ct_key_free(ck);
        return 0;
    }
    ck->k = quill_rsa_key_size(ck->key);
    QT_CHECK(ck->k == (size_t)EVP_PKEY_get_size(ck->pkey));
    QT_CHECK(quill_rsa_key_has_crt(ck->key) == crt);
    return ck->k <= MAX_K;
}

/* The fixed key from ct_rsa_keys.h (primes swapped if |swap|). */
static int ct_key_fixed(ct_key *ck, const char *name, const char *p_hex, const char *q_hex,
                        int swap, int crt) {
    BIGNUM *bn[NCOMP];
    int ok = bns_from_primes(bn, swap ? q_hex : p_hex, swap ? p_hex : q_hex);
    QT_CHECK(ok);
    if (!ok)
        return 0;
    ok = ct_key_from_bns(ck, name, bn, crt);
    bns_free(bn);
    return ok;
}

/* Exports the first |count| fields of |key| (in param_names order) into
 * BIGNUMs with quill_rsa_key_get, itself under test: its status and length
 * are public, the private values stay secret until this harness
 * declassifies its copy for OpenSSL. */
static int bns_export(BIGNUM *bn[NCOMP], const quill_rsa_key *key, int count) {
    static const quill_rsa_field fields[NCOMP] = {
        QUILL_RSA_N, QUILL_RSA_E,  QUILL_RSA_D,  QUILL_RSA_P,
        QUILL_RSA_Q, QUILL_RSA_DP, QUILL_RSA_DQ, QUILL_RSA_QINV,
    };
    uint8_t buf[MAX_K];
    int ok = 1;
    memset(bn, 0, NCOMP * sizeof(bn[0]));
    for (int i = 0; ok && i < count; i++) {
        size_t len = 0;
        ok = ok_status(quill_rsa_key_get(key, fields[i], buf, sizeof(buf), &len),
                       param_names[i]);
        if (ok) {
            expect_public(&len, sizeof(len), "quill_rsa_key_get length");
            QUILL_CT_DECLASSIFY(buf, len);
            ok = (bn[i] = BN_bin2bn(buf, (int)len, NULL)) != NULL;
        }
    }
    OPENSSL_cleanse(buf, sizeof(buf));
    QT_CHECK(ok);
    if (!ok)
        bns_free(bn);
    return ok;
}

/* A key quill generated, with OpenSSL's public copy (n and e exported). */
static int ct_key_generated(ct_key *ck, const char *name, quill_rsa_key *key) {
    BIGNUM *bn[NCOMP];
    memset(ck, 0, sizeof(*ck));
    ck->name = name;
    ck->key = key;
    ck->k = quill_rsa_key_size(key);
    if (!bns_export(bn, key, 2))
        return 0;
    ck->pkey = pkey_from_bns(bn, 2);
    QT_CHECK(ck->pkey != NULL);
    bns_free(bn);
    return ck->pkey != NULL && ck->k <= MAX_K;
}

/* ---- The operations under test ---- */

/* OpenSSL's PKCS#1 v1.5 signature (deterministic) or verification. */
static int openssl_pkcs1(EVP_PKEY *pkey, const ct_md *m, uint8_t *sig, size_t k, int sign) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
    size_t len = k;
    int ok = ctx != NULL && (sign ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(ctx, m->evp) == 1;
    if (sign)
        ok = ok && EVP_PKEY_sign(ctx, sig, &len, m->digest, m->hash.size) == 1 && len == k;
    else
        ok = ok && EVP_PKEY_verify(ctx, sig, k, m->digest, m->hash.size) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int openssl_pss_verify(EVP_PKEY *pkey, const ct_md *m, const uint8_t *sig, size_t k,
                              int salt_len) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, NULL);
    int ok = ctx != NULL && EVP_PKEY_verify_init(ctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(ctx, m->evp) == 1 &&
             EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, m->evp) == 1 &&
             EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, salt_len) == 1 &&
             EVP_PKEY_verify(ctx, sig, k, m->digest, m->hash.size) == 1;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static void pkcs1_sign(const ct_key *ck, const ct_md *m) {
    uint8_t sig[MAX_K], ref[MAX_K];
    char what[96];
    snprintf(what, sizeof(what), "%s: quill_rsa_pkcs1_sign %s", ck->name, m->name);
    if (!ok_status(quill_rsa_pkcs1_sign(ck->key, sig, m->md, m->digest, m->hash.size, &rng),
                   what)) {
        QT_CHECK(!"pkcs1 sign failed");
        return;
    }
    expect_public(sig, ck->k, what);
    QT_CHECK(ok_status(quill_rsa_pkcs1_verify(ck->key, sig, ck->k, m->md, m->digest,
                                              m->hash.size),
                       "quill_rsa_pkcs1_verify"));
    QT_CHECK(openssl_pkcs1(ck->pkey, m, sig, ck->k, 0));
    if (ck->pkey_private) {
        QT_CHECK(openssl_pkcs1(ck->pkey, m, ref, ck->k, 1));
        QT_CHECK(memcmp(sig, ref, ck->k) == 0);
    }
}

static void pss_sign(const ct_key *ck, const ct_md *m, long salt_len) {
    uint8_t sig[MAX_K];
    char what[96];
    snprintf(what, sizeof(what), "%s: quill_rsa_pss_sign %s salt %ld", ck->name, m->name,
             salt_len);
    if (!ok_status(quill_rsa_pss_sign(ck->key, sig, &m->hash, &m->hash, m->digest, m->hash.size,
                                      salt_len, &rng),
                   what)) {
        QT_CHECK(!"pss sign failed");
        return;
    }
    expect_public(sig, ck->k, what);
    QT_CHECK(ok_status(quill_rsa_pss_verify(ck->key, sig, ck->k, &m->hash, &m->hash, m->digest,
                                            m->hash.size, salt_len),
                       "quill_rsa_pss_verify"));
    QT_CHECK(openssl_pss_verify(ck->pkey, m, sig, ck->k, (int)salt_len));
}

/* x^d mod n for a random x < n (top byte cleared), checked by x == y^e. */
static void raw_private(const ct_key *ck) {
    uint8_t x[MAX_K], y[MAX_K], back[MAX_K];
    size_t k = ck->k;
    QT_CHECK(RAND_bytes(x, (int)k) == 1);
    x[0] = 0;
    if (!ok_status(quill_rsa_private(ck->key, y, x, k, &rng), "quill_rsa_private")) {
        QT_CHECK(!"raw private operation failed");
        return;
    }
    expect_public(y, k, "quill_rsa_private output");
    QT_CHECK(ok_status(quill_rsa_public(ck->key, back, y, k), "quill_rsa_public"));
    QT_CHECK(memcmp(back, x, k) == 0);
}

/* Every signing path on one key. */
static void sign_all(const ct_key *ck) {
    for (size_t i = 0; i < QT_ARRAY_LEN(mds); i++)
        pkcs1_sign(ck, &mds[i]);
    const ct_md *m = &mds[0];
    long max_salt = quill_rsa_pss_max_salt(ck->key, &m->hash);
    QT_CHECK(max_salt >= 32);
    pss_sign(ck, m, 0);
    pss_sign(ck, m, 32);
    pss_sign(ck, m, max_salt);
    pss_sign(ck, &mds[1], 32);
    raw_private(ck);
}

static void key_check(const ct_key *ck) {
    char what[96];
    snprintf(what, sizeof(what), "%s: quill_rsa_key_check", ck->name);
    QT_CHECK(ok_status(quill_rsa_key_check(ck->key, &rng), what));
}

/* ---- Modes ---- */

/* "sign": a fresh key from OpenSSL's generator (slow under valgrind, so
 * only here), the other fixed-key modes from ct_rsa_keys.h. */
static void mode_sign_random(void) {
    EVP_PKEY *gen = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
    BIGNUM *bn[NCOMP];
    ct_key ck;
    QT_CHECK(gen != NULL);
    if (gen == NULL || !bns_from_pkey(bn, gen)) {
        ERR_print_errors_fp(stderr);
        QT_CHECK(!"key components");
        EVP_PKEY_free(gen);
        return;
    }
    EVP_PKEY_free(gen);
    if (ct_key_from_bns(&ck, "2048 random", bn, 1)) {
        sign_all(&ck);
        ct_key_free(&ck);
    }
    bns_free(bn);
}

static void mode_fixed(const char *name, const char *p_hex, const char *q_hex, int crt,
                       int check) {
    ct_key ck;
    if (!ct_key_fixed(&ck, name, p_hex, q_hex, 0, crt))
        return;
    if (check)
        key_check(&ck);
    else
        sign_all(&ck);
    ct_key_free(&ck);
}

/* p of 16 limbs and q of 17, then the other way round. */
static void mode_unbalanced(void) {
    for (int swap = 0; swap < 2; swap++) {
        ct_key ck;
        if (!ct_key_fixed(&ck, swap ? "2080 p 1056 q 1024" : "2080 p 1024 q 1056",
                          ct_rsa_unbal_p, ct_rsa_unbal_q, swap, 1))
            continue;
        QT_CHECK(quill_rsa_key_bits(ck.key) == 2080);
        key_check(&ck);
        sign_all(&ck);
        ct_key_free(&ck);
    }
}

/* quill_rsa_keygen(bits, e), then what can be done with the key: check,
 * export (into OpenSSL), dup, signatures with both. */
static void keygen_and_use(size_t bits, unsigned long e_word, int check) {
    uint8_t e_be[4] = {(uint8_t)(e_word >> 24), (uint8_t)(e_word >> 16), (uint8_t)(e_word >> 8),
                       (uint8_t)e_word};
    quill_bytes e = {e_be, sizeof(e_be)};
    quill_rsa_key *key = NULL, *dup = NULL;
    char name[64];
    snprintf(name, sizeof(name), "keygen %zu e %lu", bits, e_word);
    if (!ok_status(quill_rsa_keygen(&key, bits, &e, &rng), name)) {
        QT_CHECK(!"keygen failed");
        return;
    }
    QT_CHECK(quill_rsa_key_bits(key) == bits);
    QT_CHECK(quill_rsa_key_has_crt(key));
    ct_key ck;
    if (!ct_key_generated(&ck, name, key)) {
        ct_key_free(&ck);
        return;
    }
    if (check)
        key_check(&ck);
    sign_all(&ck);
    if (ok_status(quill_rsa_key_dup(&dup, key, 1), "quill_rsa_key_dup")) {
        ct_key cd = ck;
        cd.key = dup;
        cd.name = "dup";
        pkcs1_sign(&cd, &mds[0]);
        raw_private(&cd);
        quill_rsa_key_free(dup);
    } else {
        QT_CHECK(!"dup failed");
    }
    ct_key_free(&ck);
}

/* quill_rsa_key_get on every field: of imported fixed keys (compared with
 * the values they were made from), including primes whose byte length is
 * not a whole number of limbs, and of a generated 1025-bit key (handed to
 * OpenSSL whole, whose PKCS#1 signature must then equal quill's). */
static void mode_export(void) {
    static const struct {
        const char *name, *p, *q;
        int swap;
    } fixed[] = {
        {"2048", ct_rsa_2048_p, ct_rsa_2048_q, 0},
        {"2080 p 1024 q 1056", ct_rsa_unbal_p, ct_rsa_unbal_q, 0},
        {"2080 p 1056 q 1024", ct_rsa_unbal_p, ct_rsa_unbal_q, 1},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(fixed); i++) {
        BIGNUM *ref[NCOMP], *got[NCOMP];
        int ok = bns_from_primes(ref, fixed[i].swap ? fixed[i].q : fixed[i].p,
                                 fixed[i].swap ? fixed[i].p : fixed[i].q);
        QT_CHECK(ok);
        if (!ok)
            continue;
        quill_rsa_key *key = quill_from_bns(ref, 1);
        QT_CHECK(key != NULL);
        if (key != NULL && bns_export(got, key, NCOMP)) {
            for (int f = 0; f < NCOMP; f++) {
                if (BN_cmp(got[f], ref[f]) != 0)
                    fprintf(stderr, "%s: exported %s differs\n", fixed[i].name, param_names[f]);
                QT_CHECK(BN_cmp(got[f], ref[f]) == 0);
            }
            bns_free(got);
        }
        quill_rsa_key_free(key);
        bns_free(ref);
    }

    uint8_t e_be[3] = {1, 0, 1};
    quill_bytes e = {e_be, sizeof(e_be)};
    quill_rsa_key *key = NULL;
    BIGNUM *bn[NCOMP];
    if (!ok_status(quill_rsa_keygen(&key, 1025, &e, &rng), "keygen 1025")) {
        QT_CHECK(!"keygen failed");
        return;
    }
    ct_key ck = {"keygen 1025 exported", key, NULL, 1, quill_rsa_key_size(key)};
    if (bns_export(bn, key, NCOMP)) {
        ck.pkey = pkey_from_bns(bn, NCOMP);
        QT_CHECK(ck.pkey != NULL);
        if (ck.pkey != NULL)
            pkcs1_sign(&ck, &mds[0]);
        bns_free(bn);
    }
    ct_key_free(&ck);
}

int main(int argc, char **argv) {
    const char *mode = argc == 2 ? argv[1] : "";
    if (!mds_init()) {
        fprintf(stderr, "ct_rsa: SHA-256 / SHA-512 unavailable\n");
        return 1;
    }
    if (strcmp(mode, "sign") == 0)
        mode_sign_random();
    else if (strcmp(mode, "nocrt") == 0)
        mode_fixed("2048 non-CRT", ct_rsa_2048_p, ct_rsa_2048_q, 0, 0);
    else if (strcmp(mode, "check") == 0)
        mode_fixed("2048", ct_rsa_2048_p, ct_rsa_2048_q, 1, 1);
    else if (strcmp(mode, "keygen") == 0)
        keygen_and_use(2048, 65537, 0);
    else if (strcmp(mode, "sign3072") == 0)
        mode_fixed("3072", ct_rsa_3072_p, ct_rsa_3072_q, 1, 0);
    else if (strcmp(mode, "sign4096") == 0)
        mode_fixed("4096", ct_rsa_4096_p, ct_rsa_4096_q, 1, 0);
    else if (strcmp(mode, "nocrt3072") == 0)
        mode_fixed("3072 non-CRT", ct_rsa_3072_p, ct_rsa_3072_q, 0, 0);
    else if (strcmp(mode, "export") == 0)
        mode_export();
    else if (strcmp(mode, "unbalanced") == 0)
        mode_unbalanced();
    else if (strcmp(mode, "keygen_small") == 0) {
        keygen_and_use(1024, 3, 1);
        keygen_and_use(1025, 65537, 1);
    } else {
        fprintf(stderr, "usage: ct_rsa sign|nocrt|check|keygen|sign3072|sign4096|nocrt3072|"
                        "unbalanced|keygen_small|export\n");
        return 2;
    }
    printf("ct_rsa %s: %s valgrind\n", mode, RUNNING_ON_VALGRIND ? "under" : "NOT under");
    char suite[32];
    snprintf(suite, sizeof(suite), "ct_rsa %s", mode);
    return qt_finish(suite);
}
