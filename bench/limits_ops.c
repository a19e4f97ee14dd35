/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: ticks per whole operation of quill's core (no EVP, no
 * provider), one line per operation:
 *   rsaB.sign     PKCS#1 v1.5 SHA-256 signature of a digest (blinding, the
 *                 two-way CRT exponentiation, recombination and the check of
 *                 the signature with the public exponent)
 *   rsaB.verify   its verification
 *   p256.keygen / p256.sign (hedged nonce) / p256.verify (one-shot) /
 *   p256.keygen_lazy (key generation as the provider runs it: the public
 *                 point left in Jacobian form, converted on first use,
 *                 core/ec/ecdsa_lazy_pub.h) /
 *   p256.verify_cached (the same key again: its per-key table, as the
 *                 provider and quill-speed's row use it); both verify one
 *                 fixed signature under one fixed key (fixed_fill)
 *   mldsaS.keygen (from a seed) / mldsaS.sign (hedged, on mu: the mean over
 *                 a fixed set of 64 messages, so the rejection loop counts
 *                 at its average) / mldsaS.verify (on mu), each the mean of
 *                 the per-item minima (limits_measure_set) /
 *   mldsaS.verify_fresh (the same over 4096 distinct signatures, each
 *                 verified once per round: too many for the branch
 *                 predictor to learn their data-dependent branches, as it
 *                 learns those of the 64 repeated ones; each signature is
 *                 prefetched during the previous verification, so cache
 *                 misses on it stay out as they do for mldsaS.verify)
 * RSA signatures are timed one per sample (their blinding pair is redrawn
 * every 32 uses, which the minimum leaves out: an inversion mod n, under
 * 1% of a signature by perf). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "common/md.h"
#include "ec/ecdsa.h"
#include "ec/ecdsa_lazy_pub.h"
#include "limits.h"
#include "mldsa/mldsa.h"
#include "rsa/rsa.h"

static int rng_fill(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    return RAND_bytes(out, (int)len) == 1;
}

static const quill_rng g_rng = {rng_fill, NULL};

static int g_fail;

/* The P-256 key and signature that the lines time: drawn from a fixed
 * byte pattern, so that every run, and both callgrind runs of
 * tools/limits.py's counts (`--count p256.verify_cached N`), verify the
 * same signature.  Verification is variable-time: its count of additions
 * depends on the scalars (with random ones the two count runs, 10 and 20
 * verifications of two different signatures, differenced to between 65.5
 * and 75.2 mixed additions per verification, and -0.6 cached ones). */
static int fixed_fill(void *arg, uint8_t *out, size_t len) {
    unsigned *ctr = arg;
    for (size_t i = 0; i < len; i++, (*ctr)++)
        out[i] = (uint8_t)(0x5b + 29 * *ctr + (*ctr >> 8));
    return 1;
}

/* The nonce hash as the provider wires it (provider/digest.c): one fetched
 * EVP_MD and one EVP_MD_CTX, re-initialised by every call. */
static EVP_MD_CTX *g_mctx;

static int sha256_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                         const size_t in_len[], size_t count) {
    if (g_mctx == NULL && (g_mctx = EVP_MD_CTX_new()) == NULL)
        return 0;
    int ok = EVP_DigestInit_ex2(g_mctx, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(g_mctx, in[i], in_len[i]);
    return ok && EVP_DigestFinal_ex(g_mctx, out, NULL);
}

/* ---- RSA ---- */

typedef struct {
    quill_rsa_key *key;
    uint8_t dg[32], sig[512];
    size_t len;
} rsa_ctx;

static void run_rsa_sign(void *c, unsigned iters) {
    rsa_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_rsa_pkcs1_sign(k->key, k->sig, QUILL_MD_SHA256, k->dg, 32, &g_rng) !=
                  QUILL_OK;
}

static void run_rsa_verify(void *c, unsigned iters) {
    rsa_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_rsa_pkcs1_verify(k->key, k->sig, k->len, QUILL_MD_SHA256, k->dg, 32) !=
                  QUILL_OK;
}

static int rsa_setup(rsa_ctx *k, size_t bits) {
    memset(k, 0, sizeof(*k));
    if (quill_rsa_keygen(&k->key, bits, NULL, &g_rng) != QUILL_OK) {
        fprintf(stderr, "quill-limits: RSA-%zu key generation failed\n", bits);
        return 0;
    }
    k->len = quill_rsa_key_size(k->key);
    memset(k->dg, 0x5a, sizeof(k->dg));
    if (quill_rsa_pkcs1_sign(k->key, k->sig, QUILL_MD_SHA256, k->dg, 32, &g_rng) != QUILL_OK) {
        fprintf(stderr, "quill-limits: RSA-%zu signing failed\n", bits);
        quill_rsa_key_free(k->key);
        return 0;
    }
    return 1;
}

static void ops_rsa(size_t bits) {
    char sign[32], verify[32];
    snprintf(sign, sizeof(sign), "rsa%zu.sign", bits);
    snprintf(verify, sizeof(verify), "rsa%zu.verify", bits);
    if (!limits_wanted(sign) && !limits_wanted(verify))
        return;
    static rsa_ctx k;
    if (!rsa_setup(&k, bits)) {
        g_fail = 1;
        return;
    }
    /* one signature per sample: short samples escape preemption */
    limits_measure(sign, "ticks/op", "PKCS#1 v1.5, SHA-256 digest", run_rsa_sign, &k, 1,
                   bits <= 2048 ? 300 : 150, 1);
    limits_measure(verify, "ticks/op", "e = 65537", run_rsa_verify, &k, 50, 100, 1);
    quill_rsa_key_free(k.key);
}

/* ---- ECDSA P-256 ---- */

typedef struct {
    quill_hash h;
    uint8_t priv[32], dg[32], sig[64];
    quill_p256_public pub;
    quill_p256_verify_cache cache;
} p256_ctx;

static void run_p256_keygen(void *c, unsigned iters) {
    (void)c;
    uint8_t priv[32];
    quill_p256_public pub;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_p256_keygen(priv, &pub, &g_rng) != QUILL_OK;
}

static void run_p256_keygen_lazy(void *c, unsigned iters) {
    (void)c;
    uint8_t priv[32];
    quill_p256_lazy_public pub = {0};
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_p256_keygen_lazy(priv, &pub, &g_rng) != QUILL_OK;
    quill_p256_lazy_public_clear(&pub);
}

static void run_p256_sign(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_ecdsa_p256_sign(k->sig, k->priv, k->dg, 32, &k->h,
                                        QUILL_ECDSA_NONCE_HEDGED, &g_rng) != QUILL_OK;
}

static void run_p256_verify(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_ecdsa_p256_verify(&k->pub, k->dg, 32, k->sig) != QUILL_OK;
}

static void run_p256_verify_cached(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_fail |= quill_ecdsa_p256_verify_cached(&k->pub, &k->cache, k->dg, 32, k->sig) !=
                  QUILL_OK;
}

static p256_ctx g_p256;

static int p256_setup(void) {
    p256_ctx *k = &g_p256;
    quill_p256_verify_cache_clear(&k->cache);
    static EVP_MD *md;
    if (md == NULL && (md = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL)
        return 0;
    /* is_sha256 as the provider sets it (provider/digest.c): the nonce
     * runs on the core SHA-256. */
    k->h = (quill_hash){32, sha256_digest, md, 64, 1};
    memset(k->dg, 0xa5, sizeof(k->dg));
    unsigned ctr = 0;
    const quill_rng fixed = {fixed_fill, &ctr};
    return quill_p256_keygen(k->priv, &k->pub, &fixed) == QUILL_OK &&
           quill_ecdsa_p256_sign(k->sig, k->priv, k->dg, 32, &k->h, QUILL_ECDSA_NONCE_HEDGED,
                                 &fixed) == QUILL_OK;
}

static void ops_p256(void) {
    if (!p256_setup()) {
        fprintf(stderr, "quill-limits: P-256 setup failed\n");
        g_fail = 1;
        return;
    }
    limits_measure("p256.keygen", "ticks/op", "", run_p256_keygen, &g_p256, 20, 200, 1);
    limits_measure("p256.keygen_lazy", "ticks/op", "public point left in Jacobian form",
                   run_p256_keygen_lazy, &g_p256, 20, 200, 1);
    limits_measure("p256.sign", "ticks/op", "hedged nonce, SHA-256 HMAC-DRBG", run_p256_sign,
                   &g_p256, 20, 200, 1);
    limits_measure("p256.verify", "ticks/op", "one-shot (no per-key table)", run_p256_verify,
                   &g_p256, 20, 200, 1);
    limits_measure("p256.verify_cached", "ticks/op", "same key (per-key table)",
                   run_p256_verify_cached, &g_p256, 20, 200, 1);
    quill_p256_verify_cache_clear(&g_p256.cache);
}

/* ---- ML-DSA ---- */

#define NSEEDS LIMITS_MLDSA_SEEDS
#define NMSGS 64

typedef struct {
    quill_mldsa_set set;
    quill_mldsa_key *key, *pub;
    size_t sig_len;
    uint8_t seeds[NSEEDS][32], mus[NMSGS][64], rnds[NMSGS][32];
    uint8_t sigs[NMSGS][QUILL_MLDSA_MAX_SIG_BYTES];
} mldsa_ctx;

/* Each call runs the whole fixed set (units = the set's size). */
static void run_mldsa_keygen(void *c, unsigned iters) {
    mldsa_ctx *k = c;
    for (unsigned it = 0; it < iters; it++)
        for (int i = 0; i < NSEEDS; i++) {
            quill_mldsa_key *key = NULL;
            g_fail |= quill_mldsa_key_from_seed(&key, k->set, k->seeds[i]) != QUILL_OK;
            quill_mldsa_key_free(key);
        }
}

static void run_mldsa_sign(void *c, unsigned iters) {
    mldsa_ctx *k = c;
    for (unsigned it = 0; it < iters; it++)
        for (int i = 0; i < NMSGS; i++)
            g_fail |= quill_mldsa_sign_mu(k->key, k->mus[i], k->rnds[i], k->sigs[i],
                                          k->sig_len) != QUILL_OK;
}

static void run_mldsa_verify(void *c, unsigned iters) {
    mldsa_ctx *k = c;
    for (unsigned it = 0; it < iters; it++)
        for (int i = 0; i < NMSGS; i++)
            g_fail |= quill_mldsa_verify_mu(k->pub, k->mus[i], k->sigs[i], k->sig_len) !=
                      QUILL_OK;
}

static void item_mldsa_keygen(void *c, unsigned i) {
    mldsa_ctx *k = c;
    quill_mldsa_key *key = NULL;
    g_fail |= quill_mldsa_key_from_seed(&key, k->set, k->seeds[i]) != QUILL_OK;
    quill_mldsa_key_free(key);
}

static void item_mldsa_sign(void *c, unsigned i) {
    mldsa_ctx *k = c;
    g_fail |= quill_mldsa_sign_mu(k->key, k->mus[i], k->rnds[i], k->sigs[i], k->sig_len) !=
              QUILL_OK;
}

static void item_mldsa_verify(void *c, unsigned i) {
    mldsa_ctx *k = c;
    g_fail |= quill_mldsa_verify_mu(k->pub, k->mus[i], k->sigs[i], k->sig_len) != QUILL_OK;
}

static mldsa_ctx g_mldsa;

/* mldsaS.verify_fresh: NFRESH signatures by g_mldsa's key. */
#define NFRESH 4096
typedef struct {
    uint8_t (*mus)[64];
    uint8_t *sigs;
} mldsa_fresh;

static void item_mldsa_verify_fresh(void *c, unsigned i) {
    const mldsa_fresh *f = c;
    const size_t sl = g_mldsa.sig_len;
    g_fail |= quill_mldsa_verify_mu(g_mldsa.pub, f->mus[i], f->sigs + i * sl, sl) != QUILL_OK;
    const unsigned n = (i + 1) % NFRESH;
    for (size_t b = 0; b < sl + 63; b += 64)
        __builtin_prefetch(f->sigs + n * sl + (b < sl ? b : sl - 1));
    __builtin_prefetch(f->mus[n]);
}

static void measure_mldsa_verify_fresh(const char *name) {
    if (!limits_wanted(name))
        return;
    mldsa_ctx *k = &g_mldsa;
    mldsa_fresh f = {malloc(NFRESH * sizeof(*f.mus)), malloc(NFRESH * k->sig_len)};
    uint8_t rnd[32] = {0};
    if (f.mus == NULL || f.sigs == NULL)
        abort();
    for (unsigned i = 0; i < NFRESH; i++) {
        for (int j = 0; j < 64; j++)
            f.mus[i][j] = (uint8_t)(29 * i + 3 * j + (i >> 8) * j + 1);
        g_fail |= quill_mldsa_sign_mu(k->key, f.mus[i], rnd, f.sigs + i * k->sig_len,
                                      k->sig_len) != QUILL_OK;
    }
    limits_measure_set(name, "ticks/op", "on mu, 4096 distinct signatures",
                       item_mldsa_verify_fresh, &f, NFRESH, 6);
    free(f.mus);
    free(f.sigs);
}

void limits_mldsa_seed(unsigned i, unsigned char seed[32]) {
    for (unsigned j = 0; j < 32; j++)
        seed[j] = (unsigned char)(31 * i + 7 * j + 1);
}

/* Fixed inputs (a counter pattern), so that every run and the counting
 * mode (limits_count) see the same rejection-loop lengths. */
static int mldsa_setup(quill_mldsa_set set) {
    mldsa_ctx *k = &g_mldsa;
    quill_mldsa_key_free(k->key);
    quill_mldsa_key_free(k->pub);
    k->key = k->pub = NULL;
    k->set = set;
    k->sig_len = quill_mldsa_sig_bytes(set);
    for (unsigned i = 0; i < NSEEDS; i++)
        limits_mldsa_seed(i, k->seeds[i]);
    for (int i = 0; i < NMSGS; i++) {
        for (int j = 0; j < 64; j++)
            k->mus[i][j] = (uint8_t)(13 * i + 5 * j + 3);
        for (int j = 0; j < 32; j++)
            k->rnds[i][j] = (uint8_t)(17 * i + 11 * j);
    }
    if (quill_mldsa_key_from_seed(&k->key, set, k->seeds[0]) != QUILL_OK ||
        quill_mldsa_key_from_pub(&k->pub, set, quill_mldsa_key_pub(k->key),
                                 quill_mldsa_pub_bytes(set)) != QUILL_OK)
        return 0;
    run_mldsa_sign(k, 1);
    return !g_fail;
}

static void ops_mldsa(void) {
    static const char *names[] = {"mldsa44", "mldsa65", "mldsa87"};
    for (int s = 0; s < 3; s++) {
        char kg[32], sg[32], vf[32], vff[40];
        snprintf(kg, sizeof(kg), "%s.keygen", names[s]);
        snprintf(sg, sizeof(sg), "%s.sign", names[s]);
        snprintf(vf, sizeof(vf), "%s.verify", names[s]);
        snprintf(vff, sizeof(vff), "%s.verify_fresh", names[s]);
        if (!limits_wanted(kg) && !limits_wanted(sg) && !limits_wanted(vf) && !limits_wanted(vff))
            continue;
        if (!mldsa_setup((quill_mldsa_set)s)) {
            fprintf(stderr, "quill-limits: %s setup failed\n", names[s]);
            g_fail = 1;
            continue;
        }
        limits_measure_set(kg, "ticks/op", "from a seed, 16 fixed seeds", item_mldsa_keygen,
                           &g_mldsa, NSEEDS, 100);
        limits_measure_set(sg, "ticks/op", "hedged, on mu, 64 fixed messages", item_mldsa_sign,
                           &g_mldsa, NMSGS, 60);
        limits_measure_set(vf, "ticks/op", "on mu, 64 fixed signatures", item_mldsa_verify,
                           &g_mldsa, NMSGS, 60);
        measure_mldsa_verify_fresh(vff);
    }
    quill_mldsa_key_free(g_mldsa.key);
    quill_mldsa_key_free(g_mldsa.pub);
    g_mldsa.key = g_mldsa.pub = NULL;
}

void limits_ops(void) {
    ops_rsa(2048);
    ops_rsa(3072);
    ops_rsa(4096);
    if (limits_wanted_group("p256.keygen") || limits_wanted_group("p256.sign") ||
        limits_wanted_group("p256.verify"))
        ops_p256();
    ops_mldsa();
    if (g_fail)
        printf("# FAILED: an operation returned an error\n");
}

/* ---- counting mode ---- */

int limits_count(const char *op, unsigned n) {
    static const char *names[] = {"mldsa44", "mldsa65", "mldsa87"};
    for (int s = 0; s < 3; s++) {
        size_t len = strlen(names[s]);
        if (strncmp(op, names[s], len) != 0 || op[len] != '.')
            continue;
        const char *what = op + len + 1;
        if (!mldsa_setup((quill_mldsa_set)s))
            return 1;
        /* the setup signed once: count only what follows */
        if (strcmp(what, "keygen") == 0) {
            for (unsigned i = 0; i < n; i++)
                run_mldsa_keygen(&g_mldsa, 1);
            printf("%s\t%u\n", op, n * NSEEDS);
        } else if (strcmp(what, "sign") == 0) {
            for (unsigned i = 0; i < n; i++)
                run_mldsa_sign(&g_mldsa, 1);
            printf("%s\t%u\n", op, n * NMSGS);
        } else if (strcmp(what, "verify") == 0) {
            for (unsigned i = 0; i < n; i++)
                run_mldsa_verify(&g_mldsa, 1);
            printf("%s\t%u\n", op, n * NMSGS);
        } else {
            break;
        }
        return g_fail;
    }
    size_t rsa_bits = 0;
    if (sscanf(op, "rsa%zu.sign", &rsa_bits) == 1 && strcmp(strchr(op, '.'), ".sign") == 0) {
        static rsa_ctx k;
        if (!rsa_setup(&k, rsa_bits))
            return 1;
        run_rsa_sign(&k, n);
        quill_rsa_key_free(k.key);
        printf("%s\t%u\n", op, n);
        return g_fail;
    }
    if (strcmp(op, "p256.keygen_lazy") == 0) {
        run_p256_keygen_lazy(NULL, n);
        printf("%s\t%u\n", op, n);
        return g_fail;
    }
    if (strcmp(op, "p256.sign") == 0 || strcmp(op, "p256.keygen") == 0 ||
        strcmp(op, "p256.verify") == 0 || strcmp(op, "p256.verify_cached") == 0) {
        if (!p256_setup())
            return 1;
        if (strcmp(op, "p256.verify_cached") == 0)
            run_p256_verify_cached(&g_p256, 2); /* build the table first */
        limits_fn f = op[5] == 'k'                   ? run_p256_keygen
                      : op[5] == 's'                 ? run_p256_sign
                      : strcmp(op, "p256.verify") == 0 ? run_p256_verify
                                                     : run_p256_verify_cached;
        f(&g_p256, n);
        printf("%s\t%u\n", op, n);
        return g_fail;
    }
    fprintf(stderr, "quill-limits: --count: unknown operation %s\n", op);
    return 2;
}
