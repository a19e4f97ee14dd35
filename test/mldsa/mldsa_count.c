/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_count: a driver for counting the instructions of ML-DSA signing and
 * verification in the core under valgrind --tool=callgrind.  Not a test.
 * Each measured step is a function of its own, so callgrind's inclusive
 * cost of that function divided by N is the cost of one operation:
 *
 *   mldsa_count SET [N [R]]  SET 44, 65 or 87; after one warm-up signature
 *                         (which builds the key's sign_hat and t1_hat),
 *       mc_sign     N hedged signatures of N fixed mu (quill_mldsa_sign_mu)
 *       mc_verify   N verifications of them (quill_mldsa_verify_mu), R
 *                   times over (default 1: for sampling profilers)
 *       mc_mu       N mu = H(tr || 0 || 0 || M) of a 64-byte M
 *       mc_keygen   N key generations from fixed seeds (quill_mldsa_key_from_seed)
 *       mc_keyfree  N quill_mldsa_key_free of those keys
 *   mldsa_count evp SET [N]   the same through EVP on quill (default +
 *                         quill, OPENSSL_MODULES=build), as quill-speed:
 *       mc_evp_sign     N one-shot EVP_DigestSign of a 64-byte message
 *                       on one EVP_MD_CTX initialised once
 *       mc_evp_verify   N EVP_DigestVerify of those signatures
 *       mc_evp_keygen   N EVP_PKEY_generate + EVP_PKEY_free on one
 *                       EVP_PKEY_CTX initialised once (as quill-speed's
 *                       keygen rows; xi from the DRBG)
 *
 * e.g. QUILL_CPU_MASK=0x30 valgrind --tool=callgrind --callgrind-out-file=cg.out
 *      build/test/mldsa_count 65 64
 * (for evp, also OPENSSL_ia32cap=":~0xD0230000" OPENSSL_MODULES=build)
 *      callgrind_annotate --inclusive=yes cg.out | grep mc_
 * Seeds, mu and rnd come from a fixed seed: two runs (before and after a
 * change) make the same signatures, so the rejection loop runs the same
 * number of attempts (core mode); a hash of the signatures is printed, so
 * that two builds can be checked to agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "mldsa/mldsa.h"
#include "qt_evp.h"
#include "test_util.h"

#define MAX_N 1024
#define NOINLINE __attribute__((noinline))

static uint8_t mus[MAX_N][QUILL_MLDSA_MU_BYTES], rnds[MAX_N][QUILL_MLDSA_RND_BYTES];
static uint8_t sigs[MAX_N][QUILL_MLDSA_MAX_SIG_BYTES];
static uint8_t msg[64];

NOINLINE static int mc_sign(const quill_mldsa_key *key, int n, size_t sl) {
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= quill_mldsa_sign_mu(key, mus[i], rnds[i], sigs[i], sl) != QUILL_OK;
    return bad;
}

NOINLINE static int mc_verify(const quill_mldsa_key *key, int n, size_t sl) {
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= quill_mldsa_verify_mu(key, mus[i], sigs[i], sl) != QUILL_OK;
    return bad;
}

NOINLINE static int mc_mu(const quill_mldsa_key *key, int n) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        quill_mldsa_mu m;
        bad |= quill_mldsa_mu_init_pure(&m, key, NULL, 0) != QUILL_OK;
        quill_mldsa_mu_update(&m, msg, sizeof(msg));
        quill_mldsa_mu_final(&m, mus[i]);
    }
    return bad;
}

NOINLINE static int mc_evp_sign(EVP_MD_CTX *m, int n, size_t sl) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        size_t len = sl;
        bad |= EVP_DigestSign(m, sigs[i], &len, msg, sizeof(msg)) != 1 || len != sl;
    }
    return bad;
}

NOINLINE static int mc_evp_verify(EVP_MD_CTX *m, int n, size_t sl) {
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= EVP_DigestVerify(m, sigs[i], sl, msg, sizeof(msg)) != 1;
    return bad;
}

NOINLINE static int mc_evp_keygen(EVP_PKEY_CTX *g, int n) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        EVP_PKEY *k = NULL;
        bad |= EVP_PKEY_generate(g, &k) != 1;
        EVP_PKEY_free(k);
    }
    return bad;
}

NOINLINE static int mc_keygen(quill_mldsa_set set, int n, quill_mldsa_key **keys) {
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= quill_mldsa_key_from_seed(&keys[i], set, mus[i]) != QUILL_OK;
    return bad;
}

NOINLINE static void mc_keyfree(int n, quill_mldsa_key **keys) {
    for (int i = 0; i < n; i++)
        quill_mldsa_key_free(keys[i]);
}

static int run_evp(int which, int n) {
    char name[16];
    snprintf(name, sizeof(name), "ML-DSA-%d", which);
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&def, &quill);
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *g = ctx != NULL ? EVP_PKEY_CTX_new_from_name(ctx, name, NULL) : NULL;
    int gbad = g == NULL || EVP_PKEY_keygen_init(g) != 1 || mc_evp_keygen(g, 1) != 0 ||
               mc_evp_keygen(g, n) != 0;
    if (gbad || EVP_PKEY_generate(g, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(g);
    EVP_MD_CTX *ms = EVP_MD_CTX_new(), *mv = EVP_MD_CTX_new();
    size_t sl = key != NULL ? (size_t)EVP_PKEY_get_size(key) : 0;
    int bad = key == NULL || ms == NULL || mv == NULL ||
              EVP_DigestSignInit_ex(ms, NULL, NULL, ctx, NULL, key, NULL) != 1 ||
              EVP_DigestVerifyInit_ex(mv, NULL, NULL, ctx, NULL, key, NULL) != 1 ||
              sl > QUILL_MLDSA_MAX_SIG_BYTES;
    if (!bad) {
        bad |= mc_evp_sign(ms, 1, sl) | mc_evp_verify(mv, 1, sl); /* warm the caches */
        bad |= mc_evp_sign(ms, n, sl);
        bad |= mc_evp_verify(mv, n, sl);
    }
    printf("evp %s n=%d%s\n", name, n, bad ? " FAILED" : "");
    if (bad)
        ERR_print_errors_fp(stderr);
    EVP_MD_CTX_free(ms);
    EVP_MD_CTX_free(mv);
    EVP_PKEY_free(key);
    qt_libctx_free(ctx, def, quill);
    return bad;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "evp") == 0) {
        int n = argc > 3 ? atoi(argv[3]) : 32;
        return run_evp(argc > 2 ? atoi(argv[2]) : 65, n < 1 || n > MAX_N ? 32 : n);
    }
    int which = argc > 1 ? atoi(argv[1]) : 65;
    int n = argc > 2 ? atoi(argv[2]) : 32;
    quill_mldsa_set set = which == 44   ? QUILL_MLDSA_44
                          : which == 87 ? QUILL_MLDSA_87
                                        : QUILL_MLDSA_65;
    if (n < 1 || n > MAX_N)
        n = 32;
    uint8_t seed[32];
    qt_rng_seed(7);
    qt_rng_bytes(seed, sizeof(seed));
    qt_rng_bytes(mus, sizeof(mus));
    qt_rng_bytes(rnds, sizeof(rnds));
    qt_rng_bytes(msg, sizeof(msg));
    quill_mldsa_key *key = NULL;
    const size_t sl = quill_mldsa_sig_bytes(set);
    if (quill_mldsa_key_from_seed(&key, set, seed) != QUILL_OK)
        return 1;
    uint8_t warm[QUILL_MLDSA_MAX_SIG_BYTES];
    int bad = quill_mldsa_sign_mu(key, mus[0], rnds[0], warm, sl) != QUILL_OK;
    bad |= quill_mldsa_verify_mu(key, mus[0], warm, sl) != QUILL_OK;
    bad |= mc_sign(key, n, sl);
    int reps = argc > 3 ? atoi(argv[3]) : 1;
    for (int r = 0; r < reps; r++)
        bad |= mc_verify(key, n, sl);
    bad |= mc_mu(key, n);
    unsigned long sum = 0;
    for (int i = 0; i < n; i++)
        for (size_t j = 0; j < sl; j++)
            sum = sum * 31 + sigs[i][j];
    static quill_mldsa_key *keys[MAX_N];
    unsigned long ksum = 0;
    bad |= mc_keygen(set, n, keys);
    for (int i = 0; i < n && !bad; i++) {
        const uint8_t *priv = quill_mldsa_key_priv(keys[i]), *pub = quill_mldsa_key_pub(keys[i]);
        for (size_t j = 0; j < quill_mldsa_priv_bytes(set); j++)
            ksum = ksum * 31 + priv[j];
        for (size_t j = 0; j < quill_mldsa_pub_bytes(set); j++)
            ksum = ksum * 31 + pub[j];
    }
    mc_keyfree(n, keys);
    printf("ML-DSA-%d n=%d sigsum=%016lx keysum=%016lx%s\n", which, n, sum, ksum,
           bad ? " FAILED" : "");
    quill_mldsa_key_free(key);
    return bad;
}
