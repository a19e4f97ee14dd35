/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The raw RSA primitives against OpenSSL (RSA_NO_PADDING): quill_rsa_public
 * and quill_rsa_private on random inputs, for CRT and non-CRT keys, OpenSSL
 * keys of several sizes (odd sizes included) and hand-built keys with
 * unbalanced primes (q much larger than p, p larger than q, different limb
 * counts); with each CRT key, the private operation's two CRT steps alone
 * (quill_rsa_crt_split, quill_rsa_crt_join) exactly against BN.  Then the
 * per-key blinding pair (core/rsa/blinding.c): many private operations with
 * one key from several threads, each result checked against the public key and an unblinded x^d mod n; the refresh interval,
 * generator failures, independence of a dup'ed key and redraw after fork. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>

#include "rsa/internal.h" /* QUILL_RSA_BLINDING_REFRESH */
#include "rsa_test_common.h"
#include "test_util.h"

#define CASES 6

/* ---- The CRT steps (quill_rsa_crt_split, quill_rsa_crt_join) ---- */

#define CRT_CASES 240

static BIGNUM *limbs_bn(const quill_limb *a, size_t n) {
    uint8_t buf[QUILL_BN_MAX_LIMBS * sizeof(quill_limb)];
    for (size_t i = 0; i < n; i++)
        for (size_t b = 0; b < sizeof(quill_limb); b++)
            buf[i * sizeof(quill_limb) + b] = (uint8_t)(a[i] >> (8 * b));
    BIGNUM *x = BN_lebin2bn(buf, (int)(n * sizeof(quill_limb)), NULL);
    if (x == NULL)
        abort();
    return x;
}

static void bn_limbs(quill_limb *a, size_t n, const BIGNUM *x) {
    uint8_t buf[QUILL_BN_MAX_LIMBS * sizeof(quill_limb)];
    if (BN_bn2lebinpad(x, buf, (int)(n * sizeof(quill_limb))) < 0)
        abort();
    for (size_t i = 0; i < n; i++) {
        a[i] = 0;
        for (size_t b = 0; b < sizeof(quill_limb); b++)
            a[i] |= (quill_limb)buf[i * sizeof(quill_limb) + b] << (8 * b);
    }
}

/* 1 if a (n limbs) is exactly x (fully reduced: the same value). */
static int limbs_eq(const quill_limb *a, size_t n, const BIGNUM *x) {
    BIGNUM *y = limbs_bn(a, n);
    int ok = BN_cmp(x, y) == 0;
    BN_free(y);
    return ok;
}

/* The two CRT steps of the private operation alone, exactly (each output
 * fully reduced, not merely right modulo its prime, which the
 * exponentiations and the fault check would forgive), against BN: the
 * reductions of xb below n mod p and mod q on edges (0, 1, n - 1, p, q,
 * values whose low 64 pl or 64 ql bits are all ones, the shape that leaves
 * a reduction's low half above the prime) and random values; Garner's
 * recombination on edges of m1 < p and m2 < q (0, p - 1, q - 1, m2 between
 * p and q when q > p, with m1 small) and random ones. */
static void check_crt_steps(const quill_rsa_key *key, const char *what) {
    size_t nl = key->nl, pl = key->pl, ql = key->ql;
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *p = limbs_bn(key->p, pl), *q = limbs_bn(key->q, ql), *n = limbs_bn(key->n, nl);
    BIGNUM *x = BN_new(), *want = BN_new(), *hi = BN_new(), *rr = BN_new();
    quill_limb *t = calloc(QUILL_RSA_CRT_JOIN_SCRATCH(nl), sizeof(quill_limb));
    quill_limb xb[QUILL_BN_MAX_LIMBS], cp[QUILL_BN_MAX_LIMBS], cq[QUILL_BN_MAX_LIMBS];
    quill_limb sb[QUILL_BN_MAX_LIMBS];
    if (bctx == NULL || x == NULL || want == NULL || hi == NULL || rr == NULL || t == NULL)
        abort();
    unsigned long before = qt_failed;
    for (int i = 0; i < CRT_CASES; i++) {
        /* xb: the edges, then values with all-ones low halves, then random */
        size_t ml = i % 2 == 0 ? pl : ql;
        if (i == 0 || i == 1) {
            BN_set_word(x, (BN_ULONG)i);
        } else if (i == 2) {
            BN_sub(x, n, BN_value_one());
        } else if (i == 3 || i == 4) {
            BN_copy(x, i == 3 ? p : q);
        } else if (i < CRT_CASES / 2) {
            /* x = hi 2^(64 ml) + 2^(64 ml) - 1 for hi < n / 2^(64 ml) - 1 (or
             * hi = 0), below n */
            BN_zero(rr);
            BN_set_bit(rr, (int)(64 * ml));
            BN_div(hi, NULL, n, rr, bctx);
            if (BN_cmp(hi, BN_value_one()) > 0) {
                BN_sub_word(hi, 1);
                BN_copy(want, hi); /* BN_rand_range's output is not its range */
                BN_rand_range(hi, want);
            } else {
                BN_zero(hi);
            }
            BN_mul(x, hi, rr, bctx);
            BN_add(x, x, rr);
            BN_sub(x, x, BN_value_one());
            if (BN_cmp(x, n) >= 0)
                BN_rand_range(x, n);
        } else {
            BN_rand_range(x, n);
        }
        bn_limbs(xb, nl, x);
        memset(cp, 0xa5, sizeof(cp));
        memset(cq, 0x5a, sizeof(cq));
        quill_rsa_crt_split(key, cp, cq, xb);
        BN_mod(want, x, p, bctx);
        QT_CHECK(limbs_eq(cp, pl, want));
        BN_mod(want, x, q, bctx);
        QT_CHECK(limbs_eq(cq, ql, want));

        /* m1, m2: the edges crossed, then random (m2 in [p, q) with m1
         * small when q > p: the case a partial reduction of m2 gets wrong) */
        BIGNUM *m1 = BN_new(), *m2 = BN_new();
        if (m1 == NULL || m2 == NULL)
            abort();
        int e1 = i % 3, e2 = (i / 3) % 4;
        if (e1 == 0)
            BN_zero(m1);
        else if (e1 == 1)
            BN_sub(m1, p, BN_value_one());
        else
            BN_rand_range(m1, p);
        if (e2 == 0) {
            BN_zero(m2);
        } else if (e2 == 1) {
            BN_sub(m2, q, BN_value_one());
        } else if (e2 == 2 && BN_cmp(q, p) > 0) {
            BN_sub(hi, q, p);
            BN_rand_range(m2, hi);
            BN_add(m2, m2, p);
            BN_rshift(m1, m1, BN_num_bits(m1) / 2);
        } else {
            BN_rand_range(m2, q);
        }
        quill_limb m1l[QUILL_BN_MAX_LIMBS], m2l[QUILL_BN_MAX_LIMBS];
        bn_limbs(m1l, pl, m1);
        bn_limbs(m2l, ql, m2);
        memset(sb, 0xc3, sizeof(sb));
        quill_rsa_crt_join(key, sb, m1l, m2l, t);
        BIGNUM *s = limbs_bn(sb, nl);
        QT_CHECK(BN_cmp(s, n) < 0);
        BN_mod(want, s, p, bctx);
        QT_CHECK(BN_cmp(want, m1) == 0);
        BN_mod(want, s, q, bctx);
        QT_CHECK(BN_cmp(want, m2) == 0);
        BN_free(s), BN_free(m1), BN_free(m2);
    }
    if (qt_failed != before)
        fprintf(stderr, "  (CRT step checks failed for %s)\n", what);
    free(t);
    BN_free(p), BN_free(q), BN_free(n), BN_free(x), BN_free(want), BN_free(hi), BN_free(rr);
    BN_CTX_free(bctx);
}

static void check_raw(EVP_PKEY *pkey, const char *what) {
    quill_rsa_key *crt = qr_key_from_pkey(pkey, 1, 1), *nocrt = qr_key_from_pkey(pkey, 1, 0);
    quill_rsa_key *pub = qr_key_from_pkey(pkey, 0, 0);
    QT_CHECK(crt != NULL && nocrt != NULL && pub != NULL);
    if (crt == NULL || nocrt == NULL || pub == NULL)
        goto done;
    check_crt_steps(crt, what);
    size_t k = quill_rsa_key_size(crt);
    QT_CHECK(k == (size_t)EVP_PKEY_get_size(pkey));
    QT_CHECK(quill_rsa_key_bits(crt) == (size_t)EVP_PKEY_get_bits(pkey));
    uint8_t *in = malloc(k), *want = malloc(k), *got = malloc(k), *back = malloc(k);
    unsigned long before = qt_failed;
    for (int i = 0; i < CASES; i++) {
        qr_random_below_n(in, k);
        if (i == 0)
            memset(in, 0, k); /* 0 maps to 0 */
        if (i == 1) {
            memset(in, 0, k); /* 1 maps to 1 */
            in[k - 1] = 1;
        }
        QT_CHECK(qr_ossl_private(pkey, want, in, k));
        QT_CHECK(quill_rsa_private(crt, got, in, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(quill_rsa_private(nocrt, got, in, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(qr_ossl_public(pkey, want, in, k));
        QT_CHECK(quill_rsa_public(pub, got, in, k) == QUILL_OK);
        QT_CHECK(memcmp(got, want, k) == 0);
        QT_CHECK(quill_rsa_public(crt, back, got, k) == QUILL_OK);
        /* Round trip: (x^e)^d == x. */
        QT_CHECK(quill_rsa_private(crt, back, got, k, &qr_rng) == QUILL_OK);
        QT_CHECK(memcmp(back, in, k) == 0);
    }
    /* n - 1 is the largest valid input. */
    QT_CHECK(quill_rsa_key_get(pub, QUILL_RSA_N, in, k, &(size_t){0}) == QUILL_OK);
    in[k - 1] -= 1;
    QT_CHECK(qr_ossl_private(pkey, want, in, k));
    QT_CHECK(quill_rsa_private(crt, got, in, k, &qr_rng) == QUILL_OK);
    QT_CHECK(memcmp(got, want, k) == 0);
    in[k - 1] += 1; /* n itself */
    QT_CHECK(quill_rsa_public(pub, got, in, k) == QUILL_ERR_INPUT_RANGE);
    QT_CHECK(quill_rsa_private(crt, got, in, k, &qr_rng) == QUILL_ERR_INPUT_RANGE);
    QT_CHECK(quill_rsa_private(nocrt, got, in, k, &qr_rng) == QUILL_ERR_INPUT_RANGE);
    QT_CHECK(quill_rsa_public(pub, got, in, k - 1) == QUILL_ERR_INVALID_ARGUMENT);
    if (qt_failed != before)
        fprintf(stderr, "  (raw checks failed for %s)\n", what);
    free(in), free(want), free(got), free(back);
done:
    quill_rsa_key_free(crt);
    quill_rsa_key_free(nocrt);
    quill_rsa_key_free(pub);
}

/* A key from primes of pbits and qbits bits, d = e^-1 mod lcm, via BN;
 * order < 0 makes p < q, order > 0 p > q (swapping the two if needed), 0
 * keeps them as drawn. */
static EVP_PKEY *unbalanced_key(int pbits, int qbits, int order) {
    BN_CTX *bctx = BN_CTX_new();
    BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new(), *e = BN_new(), *d = BN_new();
    BIGNUM *dp = BN_new(), *dq = BN_new(), *qinv = BN_new(), *pm1 = BN_new(), *qm1 = BN_new();
    BIGNUM *g = BN_new(), *lambda = BN_new();
    EVP_PKEY *pkey = NULL;
    BN_set_word(e, 65537);
    for (int tries = 0; tries < 20 && pkey == NULL; tries++) {
        if (!BN_generate_prime_ex2(p, pbits, 0, NULL, NULL, NULL, bctx) ||
            !BN_generate_prime_ex2(q, qbits, 0, NULL, NULL, NULL, bctx))
            break;
        if ((order < 0 && BN_cmp(p, q) > 0) || (order > 0 && BN_cmp(p, q) < 0))
            BN_swap(p, q);
        BN_mul(n, p, q, bctx);
        BN_sub(pm1, p, BN_value_one());
        BN_sub(qm1, q, BN_value_one());
        BN_gcd(g, pm1, qm1, bctx);
        BN_mul(lambda, pm1, qm1, bctx);
        BN_div(lambda, NULL, lambda, g, bctx);
        if (BN_mod_inverse(d, e, lambda, bctx) == NULL)
            continue;
        BN_mod(dp, d, pm1, bctx);
        BN_mod(dq, d, qm1, bctx);
        BN_mod_inverse(qinv, q, p, bctx);
        pkey = qr_pkey_from_bn(n, e, d, p, q, dp, dq, qinv);
    }
    BN_free(p), BN_free(q), BN_free(n), BN_free(e), BN_free(d), BN_free(dp), BN_free(dq);
    BN_free(qinv), BN_free(pm1), BN_free(qm1), BN_free(g), BN_free(lambda);
    BN_CTX_free(bctx);
    return pkey;
}

/* ---- The blinding pair ---- */

/* A generator private to one thread (splitmix64 on its own state) that
 * counts its calls; with fail set it fails every call. */
typedef struct thread_rng {
    uint64_t state;
    unsigned long calls;
    int fail;
} thread_rng;

static int thread_fill(void *arg, uint8_t *out, size_t len) {
    thread_rng *t = arg;
    t->calls++;
    if (t->fail)
        return 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t z = (t->state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        out[i] = (uint8_t)(z ^ (z >> 31));
    }
    return 1;
}

#define BLIND_THREADS 4
#define BLIND_OPS 40 /* per thread: 160 operations on one key */

typedef struct blind_job {
    const quill_rsa_key *key;
    size_t k;
    uint8_t *in, *out; /* BLIND_OPS * k bytes each */
    quill_err err[BLIND_OPS];
    thread_rng rng;
} blind_job;

static void *blind_worker(void *arg) {
    blind_job *j = arg;
    quill_rng rng = {thread_fill, &j->rng};
    for (int i = 0; i < BLIND_OPS; i++) {
        uint8_t *in = j->in + (size_t)i * j->k;
        (void)thread_fill(&j->rng, in, j->k);
        j->rng.calls--; /* the inputs are not the key's draws */
        in[0] = 0;      /* below n */
        j->err[i] = quill_rsa_private(j->key, j->out + (size_t)i * j->k, in, j->k, &rng);
    }
    return NULL;
}

/* Signs BLIND_THREADS * BLIND_OPS inputs with |key| from BLIND_THREADS
 * threads at once; every result must be x^d mod n (BN_mod_exp without
 * blinding, from n and d) and verify with the public key. */
static void blind_threads(const quill_rsa_key *key, const BIGNUM *n, const BIGNUM *d,
                          const char *what) {
    size_t k = quill_rsa_key_size(key);
    blind_job jobs[BLIND_THREADS];
    pthread_t tid[BLIND_THREADS];
    int started[BLIND_THREADS];
    unsigned long before = qt_failed, calls = 0;
    for (int t = 0; t < BLIND_THREADS; t++) {
        jobs[t] = (blind_job){.key = key, .k = k, .in = malloc(BLIND_OPS * k),
                              .out = malloc(BLIND_OPS * k),
                              .rng = {.state = 0x426c696e64ull + (uint64_t)t * 0x1000193ull}};
        QT_CHECK(jobs[t].in != NULL && jobs[t].out != NULL);
    }
    for (int t = 0; t < BLIND_THREADS; t++)
        started[t] = pthread_create(&tid[t], NULL, blind_worker, &jobs[t]) == 0;
    for (int t = 0; t < BLIND_THREADS; t++) {
        QT_CHECK(started[t]);
        if (started[t])
            QT_CHECK(pthread_join(tid[t], NULL) == 0);
    }
    BN_CTX *bn = BN_CTX_new();
    BIGNUM *x = BN_new(), *y = BN_new();
    uint8_t *want = malloc(k), *back = malloc(k);
    QT_CHECK(bn != NULL && x != NULL && y != NULL && want != NULL && back != NULL);
    size_t checked = 0;
    for (int t = 0; t < BLIND_THREADS; t++) {
        calls += jobs[t].rng.calls;
        for (int i = 0; started[t] && i < BLIND_OPS; i++) {
            const uint8_t *in = jobs[t].in + (size_t)i * k, *got = jobs[t].out + (size_t)i * k;
            QT_CHECK(jobs[t].err[i] == QUILL_OK);
            QT_CHECK(BN_bin2bn(in, (int)k, x) != NULL && BN_mod_exp(y, x, d, n, bn) == 1 &&
                     BN_bn2binpad(y, want, (int)k) == (int)k);
            QT_CHECK(memcmp(got, want, k) == 0);
            QT_CHECK(quill_rsa_public(key, back, got, k) == QUILL_OK);
            QT_CHECK(memcmp(back, in, k) == 0);
            checked++;
        }
    }
    QT_CHECK(checked == BLIND_THREADS * BLIND_OPS);
    /* The pair spares most draws: at most one draw per operation (each
     * taking a few calls when r >= n) if every operation had fallen back. */
    QT_CHECK(calls > 0);
    printf("  %s: %zu threaded private ops checked, %lu generator calls\n", what, checked, calls);
    if (qt_failed != before)
        fprintf(stderr, "  (threaded blinding checks failed for %s)\n", what);
    for (int t = 0; t < BLIND_THREADS; t++) {
        free(jobs[t].in);
        free(jobs[t].out);
    }
    free(want);
    free(back);
    BN_free(x);
    BN_free(y);
    BN_CTX_free(bn);
}

/* One private operation on a fixed input with |rng|, the result checked
 * with the public key when it succeeds.  Returns the status. */
static quill_err sign_once(const quill_rsa_key *key, thread_rng *tr) {
    size_t k = quill_rsa_key_size(key);
    uint8_t in[512], out[512], back[512];
    quill_rng rng = {thread_fill, tr};
    memset(in, 0x5a, k);
    in[0] = 0;
    quill_err err = quill_rsa_private(key, out, in, k, &rng);
    if (err == QUILL_OK) {
        QT_CHECK(quill_rsa_public(key, back, out, k) == QUILL_OK);
        QT_CHECK(memcmp(back, in, k) == 0);
    } else {
        uint8_t zero[512] = {0};
        QT_CHECK(memcmp(out, zero, k) == 0);
    }
    return err;
}

/* The single-threaded life of a pair: drawn on first use, then
 * QUILL_RSA_BLINDING_REFRESH - 1 uses that need no randomness (so even a
 * failing generator is not consulted), then a redraw that does (and fails
 * with QUILL_ERR_RNG if the generator fails).  A dup starts without a pair;
 * a forked child redraws. */
static void blind_lifecycle(quill_rsa_key *key) {
    thread_rng good = {.state = 7}, bad = {.fail = 1};
    /* A key that has never signed has no pair: the generator is needed. */
    QT_CHECK(sign_once(key, &bad) == QUILL_ERR_RNG);
    QT_CHECK(sign_once(key, &good) == QUILL_OK);
    QT_CHECK(good.calls >= 1);
    for (int i = 1; i < QUILL_RSA_BLINDING_REFRESH; i++)
        QT_CHECK(sign_once(key, &bad) == QUILL_OK);
    unsigned long bad_calls = bad.calls;
    QT_CHECK(sign_once(key, &bad) == QUILL_ERR_RNG); /* the 33rd use: redraw */
    QT_CHECK(bad.calls == bad_calls + 1);
    /* The failed redraw kept no pair: the next use draws again. */
    QT_CHECK(sign_once(key, &bad) == QUILL_ERR_RNG);
    unsigned long good_calls = good.calls;
    QT_CHECK(sign_once(key, &good) == QUILL_OK);
    QT_CHECK(good.calls > good_calls);
    /* 64 operations with a working generator: two draws of the pair
     * (each a few calls at most: r < n is accepted with probability > 1/2). */
    good_calls = good.calls;
    for (int i = 0; i < 2 * QUILL_RSA_BLINDING_REFRESH; i++)
        QT_CHECK(sign_once(key, &good) == QUILL_OK);
    QT_CHECK(good.calls - good_calls >= 2 && good.calls - good_calls <= 16);

    /* The dup has no pair although the original has a fresh one. */
    quill_rsa_key *dup = NULL;
    QT_CHECK(sign_once(key, &good) == QUILL_OK); /* the original has a pair */
    QT_CHECK(quill_rsa_key_dup(&dup, key, 1) == QUILL_OK && dup != NULL);
    if (dup != NULL) {
        QT_CHECK(sign_once(dup, &bad) == QUILL_ERR_RNG);
        QT_CHECK(sign_once(key, &bad) == QUILL_OK);
        QT_CHECK(sign_once(dup, &good) == QUILL_OK);
        QT_CHECK(sign_once(dup, &bad) == QUILL_OK); /* the dup's own pair */
    }

    /* After fork the child must not reuse the parent's pair: with a failing
     * generator its first operation fails although the parent's pair is
     * fresh; with a working one the child signs. */
    QT_CHECK(sign_once(key, &good) == QUILL_OK);
    fflush(NULL);
    unsigned long failed_before_fork = qt_failed;
    pid_t pid = fork();
    QT_CHECK(pid >= 0);
    if (pid == 0) {
        int code = 0;
        if (sign_once(key, &bad) != QUILL_ERR_RNG)
            code |= 1;
        if (sign_once(key, &good) != QUILL_OK || sign_once(key, &bad) != QUILL_OK)
            code |= 2;
        _exit(code | (qt_failed != failed_before_fork ? 4 : 0));
    }
    if (pid > 0) {
        int status = 0;
        QT_CHECK(waitpid(pid, &status, 0) == pid);
        QT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "  forked child: status %d\n", status);
    }
    QT_CHECK(sign_once(key, &bad) == QUILL_OK); /* the parent's pair is intact */

    /* The dup outlives the original. */
    quill_rsa_key_free(key);
    if (dup != NULL)
        QT_CHECK(sign_once(dup, &good) == QUILL_OK);
    quill_rsa_key_free(dup);
}

static void check_blinding(unsigned bits) {
    EVP_PKEY *pkey = qr_gen_pkey(bits);
    BIGNUM *n = NULL, *d = NULL;
    QT_CHECK(pkey != NULL);
    if (pkey == NULL)
        return;
    QT_CHECK(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n) == 1);
    QT_CHECK(EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_D, &d) == 1);
    quill_rsa_key *crt = qr_key_from_pkey(pkey, 1, 1), *nocrt = qr_key_from_pkey(pkey, 1, 0);
    QT_CHECK(crt != NULL && nocrt != NULL);
    if (crt != NULL && nocrt != NULL && n != NULL && d != NULL) {
        char what[48];
        snprintf(what, sizeof(what), "%u bits, CRT", bits);
        blind_threads(crt, n, d, what);
        snprintf(what, sizeof(what), "%u bits, no CRT", bits);
        blind_threads(nocrt, n, d, what);
        /* A key that has never signed, for the life of its pair. */
        quill_rsa_key *fresh = qr_key_from_pkey(pkey, 1, 1);
        QT_CHECK(fresh != NULL);
        if (fresh != NULL)
            blind_lifecycle(fresh); /* frees it */
    }
    quill_rsa_key_free(crt);
    quill_rsa_key_free(nocrt);
    BN_free(n);
    BN_clear_free(d);
    EVP_PKEY_free(pkey);
}

int main(void) {
    qt_rng_seed(0x524157ull);
    const unsigned sizes[] = {1024, 1025, 1031, 1536, 2047, 2048, 3072, 4096};
    for (size_t i = 0; i < QT_ARRAY_LEN(sizes); i++) {
        EVP_PKEY *pkey = qr_gen_pkey(sizes[i]);
        QT_CHECK(pkey != NULL);
        if (pkey != NULL) {
            char what[32];
            snprintf(what, sizeof(what), "%u bits", sizes[i]);
            check_raw(pkey, what);
        }
        EVP_PKEY_free(pkey);
    }
    /* p and q of very different sizes, either one larger; the same limb count
     * with either one a few bits longer; the CRT steps' cases (private.c)
     * at the IFMA sizes: a 16-limb prime with its top bit clear beside one
     * with it set, either way round, both clear, p < q and p > q in the
     * same bit length (with the top bit set and not). */
    const int split[][3] = {{512, 1536, 0},  {1536, 512, 0},  {960, 1088, 0},  {1100, 948, 0},
                            {600, 1430, 0},  {1000, 1020, 0}, {1020, 1000, 0}, {1023, 1024, 0},
                            {1024, 1023, 0}, {1023, 1023, 0}, {1024, 1024, -1}, {1024, 1024, 1},
                            {1535, 1535, -1}, {1536, 1536, -1}, {2048, 2048, -1}};
    for (size_t i = 0; i < QT_ARRAY_LEN(split); i++) {
        EVP_PKEY *pkey = unbalanced_key(split[i][0], split[i][1], split[i][2]);
        QT_CHECK(pkey != NULL);
        if (pkey != NULL) {
            char what[64];
            snprintf(what, sizeof(what), "p %d bits, q %d bits%s", split[i][0], split[i][1],
                     split[i][2] < 0 ? ", p < q" : split[i][2] > 0 ? ", p > q" : "");
            check_raw(pkey, what);
            quill_rsa_key *key = qr_key_from_pkey(pkey, 1, 1);
            QT_CHECK(key != NULL && quill_rsa_key_check(key, &qr_rng) == QUILL_OK);
            quill_rsa_key_free(key);
        }
        EVP_PKEY_free(pkey);
    }
    check_blinding(2048);
    check_blinding(1031);
    qr_cleanup();
    return qt_finish("rsa_raw");
}
