/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: the cost of the EVP and provider layer, the same operations
 * through EVP on quill.so (lines evp.*), so that the core figures of
 * limits_ops.c can be set against quill-speed's rates:
 *   evp.mldsaS.keygen    EVP_PKEY_generate (ML-DSA-44/65/87)
 *   evp.mldsaS.keygen_seeded   the same from the 16 fixed seeds of
 *                        mldsaS.keygen (the "seed" generation parameter, one
 *                        keygen context per seed, set once) and timed as
 *                        that line is (limits_measure_set), so that the
 *                        difference of the two is the EVP and provider layer
 *                        less the DRBG draw, free of the spread between
 *                        random keys that evp.mldsaS.keygen's batches carry
 *   evp.mldsaS.verify    EVP_DigestVerifyInit_ex + EVP_DigestVerify of a
 *                        64-byte message (as quill-speed does)
 *   evp.p256.keygen / evp.p256.sign / evp.p256.verify_cached   EVP_PKEY_generate,
 *                        EVP_PKEY_sign and EVP_PKEY_verify of a SHA-256
 *                        digest (the same key each time: its per-key table)
 *   evp.rsa2048.sign     EVP_PKEY_sign, PKCS#1 v1.5 with SHA-256
 * Signing ML-DSA through EVP draws a fresh rnd each time, so its rejection
 * loop varies from call to call and a minimum would pick the one-attempt
 * signatures: it is left out.  quill.so is loaded from $OPENSSL_MODULES, or
 * from the build directory compiled in; without it the section prints a
 * note and nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "limits.h"

#define PROPQ "provider=quill"

static OSSL_LIB_CTX *g_ctx;
static int g_evp_fail;

typedef struct {
    EVP_PKEY_CTX *gen; /* keygen context */
    EVP_PKEY *key;
    EVP_PKEY_CTX *op;  /* sign or verify context */
    EVP_MD_CTX *mctx;
    unsigned char tbs[64], sig[5000];
    size_t tbs_len, sig_len;
} evp_ctx;

static void run_keygen(void *c, unsigned iters) {
    evp_ctx *k = c;
    for (unsigned i = 0; i < iters; i++) {
        EVP_PKEY *key = NULL;
        g_evp_fail |= EVP_PKEY_generate(k->gen, &key) != 1;
        EVP_PKEY_free(key);
    }
}

static void run_msg_verify(void *c, unsigned iters) {
    evp_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_evp_fail |= EVP_DigestVerifyInit_ex(k->mctx, NULL, NULL, g_ctx, PROPQ, k->key, NULL) !=
                          1 ||
                      EVP_DigestVerify(k->mctx, k->sig, k->sig_len, k->tbs, k->tbs_len) != 1;
}

static void run_pkey_sign(void *c, unsigned iters) {
    evp_ctx *k = c;
    for (unsigned i = 0; i < iters; i++) {
        size_t len = sizeof(k->sig);
        g_evp_fail |= EVP_PKEY_sign(k->op, k->sig, &len, k->tbs, k->tbs_len) != 1;
        k->sig_len = len;
    }
}

static void run_pkey_verify(void *c, unsigned iters) {
    evp_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_evp_fail |= EVP_PKEY_verify(k->op, k->sig, k->sig_len, k->tbs, k->tbs_len) != 1;
}

static void evp_free(evp_ctx *k) {
    EVP_PKEY_CTX_free(k->gen);
    EVP_PKEY_CTX_free(k->op);
    EVP_MD_CTX_free(k->mctx);
    EVP_PKEY_free(k->key);
    memset(k, 0, sizeof(*k));
}

/* A keygen context for `alg` on quill, and one key from it. */
static int evp_keygen_setup(evp_ctx *k, const char *alg, const char *group, unsigned bits) {
    memset(k, 0, sizeof(*k));
    k->gen = EVP_PKEY_CTX_new_from_name(g_ctx, alg, PROPQ);
    if (k->gen == NULL || EVP_PKEY_keygen_init(k->gen) != 1)
        return 0;
    if (group != NULL && EVP_PKEY_CTX_set_group_name(k->gen, group) != 1)
        return 0;
    if (bits != 0 && EVP_PKEY_CTX_set_rsa_keygen_bits(k->gen, (int)bits) != 1)
        return 0;
    return EVP_PKEY_generate(k->gen, &k->key) == 1;
}

/* The keygen contexts of evp.mldsaS.keygen_seeded, seed i in gen[i]. */
typedef struct {
    EVP_PKEY_CTX *gen[LIMITS_MLDSA_SEEDS];
} evp_seeded;

static void item_seeded_keygen(void *c, unsigned i) {
    evp_seeded *k = c;
    EVP_PKEY *key = NULL;
    g_evp_fail |= EVP_PKEY_generate(k->gen[i], &key) != 1;
    EVP_PKEY_free(key);
}

static void evp_mldsa_seeded(const char *alg, const char *name) {
    static evp_seeded k;
    int ok = 1;
    for (unsigned i = 0; i < LIMITS_MLDSA_SEEDS; i++) {
        unsigned char seed[32];
        limits_mldsa_seed(i, seed);
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string("seed", seed, sizeof(seed)),
                           OSSL_PARAM_construct_end()};
        k.gen[i] = EVP_PKEY_CTX_new_from_name(g_ctx, alg, PROPQ);
        ok = ok && k.gen[i] != NULL && EVP_PKEY_keygen_init(k.gen[i]) == 1 &&
             EVP_PKEY_CTX_set_params(k.gen[i], p) == 1;
    }
    if (ok)
        limits_measure_set(name, "ticks/op", "EVP_PKEY_generate on quill, 16 fixed seeds",
                           item_seeded_keygen, &k, LIMITS_MLDSA_SEEDS, 100);
    else
        g_evp_fail = 1;
    for (unsigned i = 0; i < LIMITS_MLDSA_SEEDS; i++) {
        EVP_PKEY_CTX_free(k.gen[i]);
        k.gen[i] = NULL;
    }
}

static void evp_mldsa(void) {
    static const char *algs[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
    static const char *names[] = {"mldsa44", "mldsa65", "mldsa87"};
    for (int s = 0; s < 3; s++) {
        char kg[48], vf[48], ks[48];
        snprintf(kg, sizeof(kg), "evp.%s.keygen", names[s]);
        snprintf(vf, sizeof(vf), "evp.%s.verify", names[s]);
        snprintf(ks, sizeof(ks), "evp.%s.keygen_seeded", names[s]);
        if (limits_wanted(ks))
            evp_mldsa_seeded(algs[s], ks);
        if (!limits_wanted(kg) && !limits_wanted(vf))
            continue;
        static evp_ctx k;
        if (!evp_keygen_setup(&k, algs[s], NULL, 0) || (k.mctx = EVP_MD_CTX_new()) == NULL) {
            printf("# evp: %s through quill unavailable\n", algs[s]);
            evp_free(&k);
            continue;
        }
        limits_measure(kg, "ticks/op", "EVP_PKEY_generate on quill", run_keygen, &k, 4, 100, 1);
        memset(k.tbs, 0x3c, sizeof(k.tbs));
        k.tbs_len = sizeof(k.tbs);
        k.sig_len = sizeof(k.sig);
        if (EVP_DigestSignInit_ex(k.mctx, NULL, NULL, g_ctx, PROPQ, k.key, NULL) != 1 ||
            EVP_DigestSign(k.mctx, k.sig, &k.sig_len, k.tbs, k.tbs_len) != 1) {
            g_evp_fail = 1;
        } else {
            limits_measure(vf, "ticks/op", "EVP_DigestVerifyInit_ex + EVP_DigestVerify, 64 bytes",
                           run_msg_verify, &k, 20, 100, 1);
        }
        evp_free(&k);
    }
}

static int pkey_op_setup(evp_ctx *k, int sign, EVP_MD *md, int pad) {
    EVP_PKEY_CTX_free(k->op);
    k->op = EVP_PKEY_CTX_new_from_pkey(g_ctx, k->key, PROPQ);
    if (k->op == NULL || (sign ? EVP_PKEY_sign_init(k->op) : EVP_PKEY_verify_init(k->op)) != 1)
        return 0;
    if (pad && EVP_PKEY_CTX_set_rsa_padding(k->op, RSA_PKCS1_PADDING) != 1)
        return 0;
    return md == NULL || EVP_PKEY_CTX_set_signature_md(k->op, md) == 1;
}

static void evp_p256_rsa(void) {
    static evp_ctx k;
    EVP_MD *md = EVP_MD_fetch(g_ctx, "SHA256", NULL);
    if (md == NULL) {
        g_evp_fail = 1;
        return;
    }
    if (limits_wanted_group("evp.p256")) {
        if (!evp_keygen_setup(&k, "EC", "P-256", 0)) {
            printf("# evp: P-256 through quill unavailable\n");
        } else {
            limits_measure("evp.p256.keygen", "ticks/op", "EVP_PKEY_generate on quill",
                           run_keygen, &k, 20, 200, 1);
            memset(k.tbs, 0x5a, 32);
            k.tbs_len = 32;
            if (!pkey_op_setup(&k, 1, md, 0)) {
                g_evp_fail = 1;
            } else {
                limits_measure("evp.p256.sign", "ticks/op", "EVP_PKEY_sign, SHA-256 digest",
                               run_pkey_sign, &k, 20, 200, 1);
                if (!pkey_op_setup(&k, 0, md, 0))
                    g_evp_fail = 1;
                else
                    limits_measure("evp.p256.verify_cached", "ticks/op",
                                   "EVP_PKEY_verify, same key (per-key table)", run_pkey_verify,
                                   &k, 20, 200, 1);
            }
        }
        evp_free(&k);
    }
    if (limits_wanted_group("evp.rsa2048")) {
        if (!evp_keygen_setup(&k, "RSA", NULL, 2048)) {
            printf("# evp: RSA through quill unavailable\n");
        } else {
            memset(k.tbs, 0x5a, 32);
            k.tbs_len = 32;
            if (!pkey_op_setup(&k, 1, md, 1))
                g_evp_fail = 1;
            else
                limits_measure("evp.rsa2048.sign", "ticks/op", "EVP_PKEY_sign, PKCS#1 v1.5",
                               run_pkey_sign, &k, 1, 300, 1);
        }
        evp_free(&k);
    }
    EVP_MD_free(md);
}

void limits_evp(void) {
    if (!limits_wanted_group("evp."))
        return;
    g_ctx = OSSL_LIB_CTX_new();
    const char *dir = getenv("OPENSSL_MODULES");
#ifdef QUILL_LIMITS_MODULES_DIR
    if (dir == NULL)
        dir = QUILL_LIMITS_MODULES_DIR;
#endif
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    if (g_ctx == NULL || (dir != NULL && OSSL_PROVIDER_set_default_search_path(g_ctx, dir) != 1) ||
        (def = OSSL_PROVIDER_load(g_ctx, "default")) == NULL ||
        (quill = OSSL_PROVIDER_load(g_ctx, "quill")) == NULL) {
        printf("# evp: quill.so not loaded (OPENSSL_MODULES): no evp.* lines\n");
    } else {
        evp_mldsa();
        evp_p256_rsa();
        if (g_evp_fail)
            printf("# FAILED: an EVP operation returned an error\n");
    }
    OSSL_PROVIDER_unload(quill);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(g_ctx);
    g_ctx = NULL;
}
