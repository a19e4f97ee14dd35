/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time validation of the ML-DSA core (FIPS 204), run under
 * valgrind's memcheck by test/ct/memcheck.sh (see test/ct.cmake).
 *
 * Linked against copies of core/mldsa, core/sha3 and core/common built with
 * QUILL_CT_VALIDATION, where the core marks the seed, an imported expanded
 * private key and rnd as undefined memory.  The only declassifications the
 * core may make (mldsa.h, FIPS 204's rejection loop) are: the public key
 * (rho and t1) and tr, the per-iteration accept bit of signing, the
 * accepted signature, and the verdict of the private-key checks.  memcheck
 * reports any other branch or address that depends on a secret.
 *
 *   ct_mldsa SET     SET is 44, 65 or 87.  For that parameter set:
 *     1. quill_mldsa_key_from_seed on a random secret seed;
 *     2. quill_mldsa_key_from_priv on the expanded private key (secret)
 *        of that key, which must give the same public key;
 *     3. with each key (and a dup of the first): deterministic signatures
 *        (rnd = 0) of several messages, which must agree between the keys,
 *        and hedged signatures with a random secret rnd; every signature
 *        verified;
 *     4. a malformed expanded private key (s1 out of range) refused.
 * Outputs the core returns as public (statuses, public key, tr,
 * signatures) must be fully defined; the private parts of the keys (seed,
 * K, s1, s2, t0 in the encoding) must still be secret at the end, i.e. not
 * declassified by mistake.
 *
 * Every result is also checked for correctness, so the program is an
 * ordinary test when run without valgrind. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "common/ct.h"
#include "mldsa/mldsa.h"
#include "test_util.h"

#if !defined(QUILL_CT_VALIDATION)
#error "ct_mldsa must be built with QUILL_CT_VALIDATION"
#endif

/* Messages signed per key and mode: enough for several runs of the
 * rejection loop (about 4 to 5 iterations per signature on average). */
#define MESSAGES 4

/* ---- Helpers ---- */

/* Fails the run if |p| is not fully defined (memcheck also reports it). */
static void expect_public(const void *p, size_t len, const char *what) {
    if (RUNNING_ON_VALGRIND && VALGRIND_CHECK_MEM_IS_DEFINED(p, len) != 0) {
        fprintf(stderr, "%s: %zu bytes returned as public are still marked secret\n", what,
                len);
        QT_CHECK(!"output not declassified");
    }
}

/* Fails the run if no byte of |p| is marked secret any more: the core has
 * declassified (or overwritten with public data) something that must stay
 * secret.  Reads the validity bits without making memcheck report. */
static void expect_secret(const void *p, size_t len, const char *what) {
    if (!RUNNING_ON_VALGRIND)
        return;
    uint8_t *vbits = malloc(len);
    QT_CHECK(vbits != NULL);
    if (vbits == NULL)
        return;
    unsigned undefined = 0;
    if (VALGRIND_GET_VBITS(p, vbits, len) == 1) {
        for (size_t i = 0; i < len; i++)
            undefined += vbits[i] != 0;
    }
    if (undefined == 0)
        fprintf(stderr, "%s: %zu secret bytes are all marked public\n", what, len);
    QT_CHECK(undefined != 0);
    free(vbits);
}

static int ok_status(quill_err e, const char *what) {
    expect_public(&e, sizeof(e), what);
    if (e != QUILL_OK)
        fprintf(stderr, "%s: quill_err %d\n", what, (int)e);
    return e == QUILL_OK;
}

/* mu for pure ML-DSA of message |i| with a short context (public). */
static void message_mu(const quill_mldsa_key *key, unsigned i, uint8_t mu[QUILL_MLDSA_MU_BYTES]) {
    static const uint8_t ctx[] = "quill ct";
    uint8_t msg[48];
    memset(msg, 0x5a, sizeof(msg));
    msg[0] = (uint8_t)i;
    quill_mldsa_mu m;
    QT_CHECK(ok_status(quill_mldsa_mu_init_pure(&m, key, ctx, sizeof(ctx) - 1),
                       "quill_mldsa_mu_init_pure"));
    quill_mldsa_mu_update(&m, msg, (size_t)i * 7 % sizeof(msg) + 1);
    quill_mldsa_mu_final(&m, mu);
    expect_public(mu, QUILL_MLDSA_MU_BYTES, "mu");
}

/* Signs message |i| with |key| (rnd all zeros if |hedged| is 0, else fresh
 * and secret), checks the signature public and valid.  Returns 1 and the
 * signature in |sig| on success. */
static int sign_one(const quill_mldsa_key *key, const quill_mldsa_key *verifier, unsigned i,
                    int hedged, uint8_t *sig, const char *what) {
    quill_mldsa_set set = quill_mldsa_key_set(key);
    size_t sig_len = quill_mldsa_sig_bytes(set);
    uint8_t mu[QUILL_MLDSA_MU_BYTES], rnd[QUILL_MLDSA_RND_BYTES];
    message_mu(key, i, mu);
    memset(rnd, 0, sizeof(rnd));
    if (hedged)
        QT_CHECK(RAND_bytes(rnd, sizeof(rnd)) == 1);
    QUILL_CT_SECRET(rnd, sizeof(rnd));
    int ok = ok_status(quill_mldsa_sign_mu(key, mu, rnd, sig, QUILL_MLDSA_MAX_SIG_BYTES), what);
    QUILL_CT_DECLASSIFY(rnd, sizeof(rnd));
    OPENSSL_cleanse(rnd, sizeof(rnd));
    QT_CHECK(ok);
    if (!ok)
        return 0;
    expect_public(sig, sig_len, what);
    QT_CHECK(ok_status(quill_mldsa_verify_mu(verifier, mu, sig, sig_len), "quill_mldsa_verify_mu"));
    /* A flipped bit must not verify (the signature is really checked). */
    sig[i % sig_len] ^= 1;
    QT_CHECK(quill_mldsa_verify_mu(verifier, mu, sig, sig_len) == QUILL_ERR_BAD_SIGNATURE);
    sig[i % sig_len] ^= 1;
    return 1;
}

/* The private parts of |key| must still be secret. */
static void expect_key_secret(const quill_mldsa_key *key, const char *what) {
    quill_mldsa_set set = quill_mldsa_key_set(key);
    const uint8_t *priv = quill_mldsa_key_priv(key), *seed = quill_mldsa_key_seed(key);
    char buf[96];
    QT_CHECK(priv != NULL);
    if (priv == NULL)
        return;
    /* skEncode: rho (public) || K || tr (public) || s1 || s2 || t0. */
    snprintf(buf, sizeof(buf), "%s: K", what);
    expect_secret(priv + 32, 32, buf);
    snprintf(buf, sizeof(buf), "%s: s1 || s2 || t0", what);
    expect_secret(priv + 128, quill_mldsa_priv_bytes(set) - 128, buf);
    if (seed != NULL) {
        snprintf(buf, sizeof(buf), "%s: seed", what);
        expect_secret(seed, QUILL_MLDSA_SEED_BYTES, buf);
    }
}

/* ---- The run for one parameter set ---- */

static void run_set(quill_mldsa_set set, const char *name) {
    size_t pub_len = quill_mldsa_pub_bytes(set), priv_len = quill_mldsa_priv_bytes(set);
    size_t sig_len = quill_mldsa_sig_bytes(set);
    uint8_t seed[QUILL_MLDSA_SEED_BYTES];
    uint8_t *priv = malloc(priv_len);
    uint8_t *sigs = malloc(MESSAGES * (size_t)QUILL_MLDSA_MAX_SIG_BYTES);
    uint8_t *sig = malloc(QUILL_MLDSA_MAX_SIG_BYTES);
    quill_mldsa_key *k_seed = NULL, *k_priv = NULL, *k_dup = NULL, *bad = NULL;
    QT_CHECK(priv != NULL && sigs != NULL && sig != NULL);
    if (priv == NULL || sigs == NULL || sig == NULL)
        goto done;

    /* 1. Key generation from a secret seed. */
    QT_CHECK(RAND_bytes(seed, sizeof(seed)) == 1);
    QUILL_CT_SECRET(seed, sizeof(seed));
    int ok = ok_status(quill_mldsa_key_from_seed(&k_seed, set, seed), "quill_mldsa_key_from_seed");
    QUILL_CT_DECLASSIFY(seed, sizeof(seed));
    OPENSSL_cleanse(seed, sizeof(seed));
    QT_CHECK(ok);
    if (!ok)
        goto done;
    expect_public(quill_mldsa_key_pub(k_seed), pub_len, "public key (from seed)");
    expect_public(quill_mldsa_key_tr(k_seed), QUILL_MLDSA_TR_BYTES, "tr (from seed)");

    /* 2. The expanded private key, imported as a secret. */
    memcpy(priv, quill_mldsa_key_priv(k_seed), priv_len);
    QUILL_CT_SECRET(priv, priv_len);
    ok = ok_status(quill_mldsa_key_from_priv(&k_priv, set, priv, priv_len),
                   "quill_mldsa_key_from_priv");
    QT_CHECK(ok);
    if (!ok)
        goto done;
    expect_public(quill_mldsa_key_pub(k_priv), pub_len, "public key (from priv)");
    QT_CHECK(quill_mldsa_key_public_equal(k_seed, k_priv));
    QT_CHECK(!quill_mldsa_key_has_seed(k_priv));
    QT_CHECK(ok_status(quill_mldsa_key_dup(&k_dup, k_seed, 1), "quill_mldsa_key_dup"));
    if (k_dup == NULL)
        goto done;

    /* 3. Deterministic signatures agree across the three keys; hedged
     * ones verify. */
    for (unsigned i = 0; i < MESSAGES; i++) {
        uint8_t *ref = sigs + (size_t)i * QUILL_MLDSA_MAX_SIG_BYTES;
        if (!sign_one(k_seed, k_priv, i, 0, ref, "deterministic (seed key)"))
            continue;
        if (sign_one(k_priv, k_seed, i, 0, sig, "deterministic (priv key)"))
            QT_CHECK(memcmp(sig, ref, sig_len) == 0);
        if (sign_one(k_dup, k_seed, i, 0, sig, "deterministic (dup key)"))
            QT_CHECK(memcmp(sig, ref, sig_len) == 0);
        if (sign_one(k_seed, k_priv, i, 1, sig, "hedged (seed key)"))
            QT_CHECK(memcmp(sig, ref, sig_len) != 0);
        (void)sign_one(k_priv, k_seed, i, 1, sig, "hedged (priv key)");
    }
    expect_key_secret(k_seed, "seed key after signing");
    expect_key_secret(k_priv, "priv key after signing");

    /* 4. s1's first coefficient out of range: the eta-bit field holds
     * eta - s, and all-ones (7 or 15) is above 2 eta for eta = 2 and 4. */
    unsigned eta_bits = set == QUILL_MLDSA_65 ? 4 : 3;
    QUILL_CT_DECLASSIFY(priv + 128, 1);
    priv[128] |= (uint8_t)((1u << eta_bits) - 1);
    QUILL_CT_SECRET(priv + 128, 1);
    quill_err e = quill_mldsa_key_from_priv(&bad, set, priv, priv_len);
    expect_public(&e, sizeof(e), "quill_mldsa_key_from_priv (bad s1)");
    QT_CHECK(e == QUILL_ERR_KEY_CHECK);
    QT_CHECK(bad == NULL);

done:
    printf("ML-DSA-%s: done\n", name);
    quill_mldsa_key_free(bad);
    quill_mldsa_key_free(k_dup);
    quill_mldsa_key_free(k_priv);
    quill_mldsa_key_free(k_seed);
    if (priv != NULL) {
        QUILL_CT_DECLASSIFY(priv, priv_len);
        OPENSSL_cleanse(priv, priv_len);
    }
    free(priv);
    free(sigs);
    free(sig);
}

int main(int argc, char **argv) {
    const char *arg = argc == 2 ? argv[1] : "";
    quill_mldsa_set set;
    if (strcmp(arg, "44") == 0)
        set = QUILL_MLDSA_44;
    else if (strcmp(arg, "65") == 0)
        set = QUILL_MLDSA_65;
    else if (strcmp(arg, "87") == 0)
        set = QUILL_MLDSA_87;
    else {
        fprintf(stderr, "usage: ct_mldsa 44|65|87\n");
        return 2;
    }
    run_set(set, arg);
    printf("ct_mldsa %s: %s valgrind\n", arg, RUNNING_ON_VALGRIND ? "under" : "NOT under");
    char suite[32];
    snprintf(suite, sizeof(suite), "ct_mldsa %s", arg);
    return qt_finish(suite);
}
