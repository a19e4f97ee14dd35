/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential test of the AVX-512 IFMA two-way exponentiation
 * (quill_mont_exp_consttime_x2_ifma, core/bn/exp_ifma.c) against the
 * portable two-way path (quill_mont_exp_consttime_x2 with the IFMA bits
 * cleared through QUILL_CPU_MASK, i.e. the MULX or C kernels), the one-way
 * quill_mont_exp_consttime and OpenSSL's BN_mod_exp, for every supported
 * modulus size (8, 16, 24, 32 limbs): random cases plus edges (bases 0, 1,
 * m - 1; exponents 0, 1, all ones, short; moduli with the top bit set, just
 * above 2^(64n - 1), all ones, 2^(64n) - small, short top limb, sparse),
 * outputs aliasing their bases.  The dedicated squaring is also checked
 * alone (quill_mont_sqr_x2_ifma_for_testing) on inputs below 2m that the
 * exponentiation cannot be fed directly: just below 2m, all-ones digits,
 * m, m - 1, random; against amm(x, x) bit for bit and against BN for the
 * value x^2 R'^-1 mod m and the bound 2m; and RSA-2048's product with the
 * next window's lookup spread over it (quill_mont_amm_gather_x2_ifma_for_testing)
 * against the product and the lookup apart.  R'^2 as the contexts keep it
 * (quill_mont_rr52_get): absent before the first IFMA exponentiation, then
 * each context's own value (2^(104 L) mod m, below 2m, in 52-bit digits)
 * whichever exponentiation (one-lane or two-way, either lane, a cached lane
 * beside a fresh one, one context in both lanes) stored it, and results
 * that use it right; and threads sharing fresh contexts.  Skipped (77) on CPUs without
 * AVX-512 IFMA or when QUILL_CPU_MASK already clears it.
 *
 * Valgrind cannot run AVX-512, so this path has no memcheck counterpart in
 * test_bn_ct: its constant-time argument is in exp_ifma.c. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "bn/exp_ifma.h"
#include "bn/internal.h" /* quill_mont_rr52_get */
#include "bn_ifma_common.h"

#define MAXN 32

typedef struct lane {
    quill_limb m[MAXN], a[MAXN], e[MAXN], r[MAXN], s[MAXN], t[MAXN];
    quill_mont *mont;
    BIGNUM *bm;
} lane;

static lane L[2];

static unsigned rnd(unsigned bound) {
    return (unsigned)(qt_rng_u64() % bound);
}


/* Exponent shapes: 0 zero, 1 one, 2 all ones, 3 top bit only, else random
 * (bt_value kinds 4..6). */
static void make_exponent(quill_limb *e, size_t el, unsigned k) {
    memset(e, 0, el * sizeof(quill_limb));
    if (k == 1)
        e[0] = 1;
    else if (k == 2)
        memset(e, 0xff, el * sizeof(quill_limb));
    else if (k == 3)
        e[el - 1] = (quill_limb)1 << 63;
    else
        bt_value(e, el, 4 + rnd(3));
}

static int bn_exp_eq(const lane *l, const quill_limb *r, size_t n, size_t el) {
    BIGNUM *ba = bt_bn(l->a, n), *be = bt_bn(l->e, el), *z = BN_new();
    if (z == NULL || !BN_mod_exp(z, ba, be, l->bm, bt_ctx()))
        abort();
    int ok = bt_eq(r, n, z);
    BN_free(ba);
    BN_free(be);
    BN_free(z);
    return ok;
}

static unsigned long cases;

/* One modulus pair of n limbs, |rounds| bases and exponents of el limbs;
 * every |bn_every|-th case is also checked against BN_mod_exp. */
static void test_pair(size_t n, size_t el, int rounds, unsigned mk0, unsigned mk1,
                      int bn_every) {
    unsigned mk[2] = {mk0, mk1};
    for (int k = 0; k < 2; k++) {
        bt_ifma_modulus(L[k].m, n, mk[k]);
        L[k].mont = quill_mont_new(L[k].m, n);
        QT_CHECK(L[k].mont != NULL);
        L[k].bm = bt_bn(L[k].m, n);
    }
    if (L[0].mont == NULL || L[1].mont == NULL)
        goto done;
    for (int i = 0; i < rounds; i++) {
        for (int k = 0; k < 2; k++) {
            /* the first cases: bases 0, 1, m - 1 against exponents 0, 1,
             * all ones, top bit only */
            unsigned bk = i < 12 ? (unsigned[]){0, 1, 7}[i % 3] : rnd(BT_OPERAND_KINDS);
            bt_operand(L[k].a, L[k].m, n, bk);
            make_exponent(L[k].e, el, i < 12 ? (unsigned)(i / 3) : 4 + rnd(4));
        }
        memset(L[0].r, 0xaa, sizeof(L[0].r));
        memset(L[1].r, 0x55, sizeof(L[1].r));
        QT_CHECK(quill_mont_exp_consttime_x2_ifma(L[0].r, L[0].a, L[0].e, L[0].mont, L[1].r,
                                                  L[1].a, L[1].e, L[1].mont, el) == 1);
        /* the portable two-way path (IFMA masked off) */
        QT_CHECK(quill_mont_exp_consttime_x2(L[0].s, L[0].a, L[0].e, L[0].mont, L[1].s,
                                             L[1].a, L[1].e, L[1].mont, el) == 1);
        for (int k = 0; k < 2; k++) {
            QT_CHECK(memcmp(L[k].r, L[k].s, n * sizeof(quill_limb)) == 0);
            if (bn_every > 0 && i % bn_every == 0)
                QT_CHECK(bn_exp_eq(&L[k], L[k].r, n, el));
        }
        if (i % 4 == 0) {
            /* the one-way path, and each output aliasing its own base */
            QT_CHECK(quill_mont_exp_consttime(L[0].t, L[0].a, L[0].e, el, L[0].mont) == 1);
            QT_CHECK(memcmp(L[0].t, L[0].r, n * sizeof(quill_limb)) == 0);
            memcpy(L[0].t, L[0].a, n * sizeof(quill_limb));
            memcpy(L[1].t, L[1].a, n * sizeof(quill_limb));
            QT_CHECK(quill_mont_exp_consttime_x2_ifma(L[0].t, L[0].t, L[0].e, L[0].mont,
                                                      L[1].t, L[1].t, L[1].e, L[1].mont,
                                                      el) == 1);
            QT_CHECK(memcmp(L[0].t, L[0].r, n * sizeof(quill_limb)) == 0);
            QT_CHECK(memcmp(L[1].t, L[1].r, n * sizeof(quill_limb)) == 0);
        }
        cases++;
    }
done:
    for (int k = 0; k < 2; k++) {
        quill_mont_free(L[k].mont);
        BN_free(L[k].bm);
    }
}

/* x (n + 1 limbs) = an input of the squaring below 2m, by kind: 0 2m - 1,
 * 1 2m - 2, 2 all ones below the top bit of 2m - 1 (all-ones digits),
 * 3 m, 4 m - 1, 5 zero, 6 one, 7 m + m/2, else random below 2m. */
static void sqr_input(quill_limb *x, const quill_limb *m, size_t n, unsigned kind) {
    BIGNUM *bm = bt_bn(m, n), *t = BN_new(), *two_m = BN_new();
    if (t == NULL || two_m == NULL || !BN_lshift1(two_m, bm))
        abort();
    int ok = 1;
    switch (kind) {
    case 0:
        ok = BN_sub(t, two_m, BN_value_one());
        break;
    case 1:
        ok = BN_sub(t, two_m, BN_value_one()) && BN_sub(t, t, BN_value_one());
        break;
    case 2:
        ok = BN_set_word(t, 1) && BN_lshift(t, t, BN_num_bits(two_m) - 1) &&
             BN_sub(t, t, BN_value_one());
        break;
    case 3:
        ok = BN_copy(t, bm) != NULL;
        break;
    case 4:
        ok = BN_sub(t, bm, BN_value_one());
        break;
    case 5:
        BN_zero(t);
        break;
    case 6:
        ok = BN_one(t);
        break;
    case 7:
        ok = BN_rshift1(t, bm) && BN_add(t, t, bm);
        break;
    default:
        ok = BN_rand_range(t, two_m);
        break;
    }
    if (!ok)
        abort();
    bt_to_limbs(x, n + 1, t);
    BN_free(bm);
    BN_free(t);
    BN_free(two_m);
}

/* 1 if s (n + 1 limbs) < 2m and s R' = x^2 mod m, R' = 2^(52 ceil(64n/52)) */
static int sqr_ok(const quill_limb *s, const quill_limb *x, const quill_limb *m, size_t n) {
    size_t digits = (64 * n + 51) / 52;
    BIGNUM *bs = bt_bn(s, n + 1), *bx = bt_bn(x, n + 1), *bm = bt_bn(m, n);
    BIGNUM *u = BN_new(), *v = BN_new();
    if (u == NULL || v == NULL || !BN_lshift(u, bs, (int)(52 * digits)) ||
        !BN_mod(u, u, bm, bt_ctx()) || !BN_mod_sqr(v, bx, bm, bt_ctx()) ||
        !BN_lshift1(bm, bm))
        abort();
    int ok = BN_cmp(u, v) == 0 && BN_cmp(bs, bm) < 0;
    BN_free(bs);
    BN_free(bx);
    BN_free(bm);
    BN_free(u);
    BN_free(v);
    return ok;
}

#define SQR_INPUT_KINDS 9

/* The squaring alone, every input kind in each lane, on n-limb moduli of
 * every shape. */
static void test_sqr(size_t n, int rounds) {
    quill_limb x[2][MAXN + 1], sq[2][MAXN + 1], am[2][MAXN + 1];
    for (unsigned mk = 0; mk < BT_IFMA_MODULUS_KINDS; mk++) {
        for (int k = 0; k < 2; k++) {
            bt_ifma_modulus(L[k].m, n, k == 0 ? mk : rnd(BT_IFMA_MODULUS_KINDS));
            L[k].mont = quill_mont_new(L[k].m, n);
            QT_CHECK(L[k].mont != NULL);
        }
        for (int i = 0; L[0].mont != NULL && L[1].mont != NULL && i < rounds; i++) {
            for (int k = 0; k < 2; k++)
                sqr_input(x[k], L[k].m, n,
                          i < SQR_INPUT_KINDS ? (unsigned)(k == 0 ? i : SQR_INPUT_KINDS - 1 - i)
                                              : rnd(SQR_INPUT_KINDS + 4));
            memset(sq, 0xaa, sizeof(sq));
            memset(am, 0x55, sizeof(am));
            QT_CHECK(quill_mont_sqr_x2_ifma_for_testing(sq[0], am[0], x[0], L[0].mont, sq[1],
                                                        am[1], x[1], L[1].mont) == 1);
            for (int k = 0; k < 2; k++) {
                QT_CHECK(memcmp(sq[k], am[k], (n + 1) * sizeof(quill_limb)) == 0);
                QT_CHECK(sqr_ok(sq[k], x[k], L[k].m, n));
            }
            cases++;
        }
        for (int k = 0; k < 2; k++)
            quill_mont_free(L[k].mont);
    }
}

/* RSA-2048's product with the next window's lookup spread over it
 * (amm_gather_x2_20) against the product and the lookup apart, bit for
 * bit: every index in each lane (i, 31 - i and i, i), then random pairs,
 * on 16-limb moduli of every shape. */
static void test_amm_gather(void) {
    const size_t n = 16;
    quill_limb x[2][MAXN];
    for (unsigned mk = 0; mk < BT_IFMA_MODULUS_KINDS; mk++) {
        for (int k = 0; k < 2; k++) {
            bt_ifma_modulus(L[k].m, n, k == 0 ? mk : rnd(BT_IFMA_MODULUS_KINDS));
            L[k].mont = quill_mont_new(L[k].m, n);
            QT_CHECK(L[k].mont != NULL);
        }
        for (unsigned i = 0; L[0].mont != NULL && L[1].mont != NULL && i < 96; i++) {
            for (int k = 0; k < 2; k++)
                bt_operand(x[k], L[k].m, n, rnd(BT_OPERAND_KINDS));
            uint64_t i0 = i < 64 ? i % 32 : rnd(32);
            uint64_t i1 = i < 32 ? 31 - i : i < 64 ? i0 : rnd(32);
            QT_CHECK(quill_mont_amm_gather_x2_ifma_for_testing(x[0], L[0].mont, i0, x[1],
                                                               L[1].mont, i1) == 1);
            cases++;
        }
        for (int k = 0; k < 2; k++)
            quill_mont_free(L[k].mont);
    }
}

/* ---- R'^2 kept in the context (quill_mont_rr52_get / _put) ---- */

/* 1 if mont holds R'^2 mod m for R' = 2^(52 L): L digits below 2^52 whose
 * value is below 2m and congruent to 2^(104 L) mod m. */
static int rr52_ok(const quill_mont *mont, const quill_limb *m, size_t n) {
    const uint64_t *d = quill_mont_rr52_get(mont);
    if (d == NULL)
        return 0;
    size_t digits = (64 * n + 51) / 52;
    BIGNUM *v = BN_new(), *w = BN_new(), *bm = bt_bn(m, n), *m2 = BN_new();
    if (v == NULL || w == NULL || m2 == NULL)
        abort();
    BN_zero(v);
    BN_zero(w);
    int ok = 1;
    for (size_t j = digits; j-- > 0;) {
        ok &= (d[j] >> 52) == 0;
        if (!BN_lshift(v, v, 52) || !BN_add_word(v, d[j]))
            abort();
    }
    if (!BN_lshift1(m2, bm))
        abort();
    ok &= BN_cmp(v, m2) < 0;
    if (!BN_set_bit(w, (int)(104 * digits)) || !BN_mod(w, w, bm, bt_ctx()) ||
        !BN_mod(v, v, bm, bt_ctx()))
        abort();
    ok &= BN_cmp(v, w) == 0;
    BN_free(v), BN_free(w), BN_free(bm), BN_free(m2);
    return ok;
}

/* The two-way exponentiation on (c0, c1) against the portable one (which
 * neither reads nor fills the cache): 1 if both lanes agree. */
static int x2_agrees(quill_mont *c0, quill_mont *c1, size_t n) {
    for (int k = 0; k < 2; k++) {
        const quill_limb *m = quill_mont_modulus(k == 0 ? c0 : c1);
        bt_operand(L[k].a, m, n, rnd(BT_OPERAND_KINDS));
        make_exponent(L[k].e, n, 4 + rnd(4));
    }
    memset(L[0].r, 0xaa, sizeof(L[0].r));
    memset(L[1].r, 0x55, sizeof(L[1].r));
    int ok = quill_mont_exp_consttime_x2_ifma(L[0].r, L[0].a, L[0].e, c0, L[1].r, L[1].a,
                                              L[1].e, c1, n) == 1;
    ok &= quill_mont_exp_consttime_x2(L[0].s, L[0].a, L[0].e, c0, L[1].s, L[1].a, L[1].e, c1,
                                      n) == 1;
    for (int k = 0; k < 2; k++)
        ok &= memcmp(L[k].r, L[k].s, n * sizeof(quill_limb)) == 0;
    cases++;
    return ok;
}

/* The one-lane exponentiation (public exponents) on c against the portable
 * one; 1 where the size has no one-lane code. */
static int x1_agrees(quill_mont *c, size_t n) {
    if (!quill_mont_exp_x1_ifma_supported_size(n))
        return 1;
    bt_operand(L[0].a, quill_mont_modulus(c), n, rnd(BT_OPERAND_KINDS));
    make_exponent(L[0].e, 2, 4);
    L[0].e[0] |= 1;
    memset(L[0].r, 0xaa, sizeof(L[0].r));
    int ok = quill_mont_exp_vartime_x1_ifma(L[0].r, L[0].a, L[0].e, 2, c) == 1;
    ok &= quill_mont_exp_vartime(L[0].s, L[0].a, L[0].e, 2, c) == 1;
    ok &= memcmp(L[0].r, L[0].s, n * sizeof(quill_limb)) == 0;
    cases++;
    return ok;
}

static void test_rr52_cache(size_t n) {
    quill_limb m[2][MAXN];
    int x1 = quill_mont_exp_x1_ifma_supported_size(n);
    for (int round = 0; round < 4; round++) {
        /* two different moduli: the top bit set, then not */
        do {
            bt_ifma_modulus(m[0], n, round % 2 == 0 ? 0 : BT_IFMA_MODULUS_KINDS - 1);
            bt_ifma_modulus(m[1], n, 1 + rnd(2));
        } while (memcmp(m[0], m[1], n * sizeof(quill_limb)) == 0);
        quill_mont *c[5];
        for (int k = 0; k < 5; k++) {
            c[k] = quill_mont_new(m[k == 0 || k == 3 ? 0 : 1], n);
            QT_CHECK(c[k] != NULL);
        }
        if (c[0] == NULL || c[1] == NULL || c[2] == NULL || c[3] == NULL || c[4] == NULL)
            goto done;
        for (int k = 0; k < 5; k++)
            QT_CHECK(quill_mont_rr52_get(c[k]) == NULL);
        /* the one-lane exponentiation first (where it exists), then c0
         * (cached) beside c1 (fresh) in the two-way one, then both cached */
        QT_CHECK(x1_agrees(c[0], n));
        QT_CHECK(x1 ? rr52_ok(c[0], m[0], n) : quill_mont_rr52_get(c[0]) == NULL);
        QT_CHECK(quill_mont_rr52_get(c[1]) == NULL);
        QT_CHECK(x2_agrees(c[0], c[1], n));
        QT_CHECK(rr52_ok(c[0], m[0], n) && rr52_ok(c[1], m[1], n));
        QT_CHECK(x2_agrees(c[1], c[0], n));
        QT_CHECK(x2_agrees(c[0], c[1], n));
        QT_CHECK(x1_agrees(c[0], n) && x1_agrees(c[1], n));
        /* one fresh context in both lanes, then the one-lane exponentiation
         * reading what the two-way one stored */
        QT_CHECK(x2_agrees(c[2], c[2], n));
        QT_CHECK(rr52_ok(c[2], m[1], n));
        QT_CHECK(x1_agrees(c[2], n));
        /* two fresh contexts: each lane stores its own modulus's value */
        QT_CHECK(x2_agrees(c[4], c[3], n));
        QT_CHECK(rr52_ok(c[3], m[0], n) && rr52_ok(c[4], m[1], n));
        QT_CHECK(x2_agrees(c[3], c[4], n));
    done:
        for (int k = 0; k < 5; k++)
            quill_mont_free(c[k]);
    }
}

/* Threads sharing two fresh contexts: each computes the two-way (and, where
 * it exists, the one-lane) exponentiation on its own inputs at once, so the
 * first stores race with the first reads; every result against the
 * portable one computed beforehand. */
#define RR52_THREADS 4
#define RR52_OPS 6

typedef struct rr52_job {
    const quill_mont *c[2];
    size_t n;
    quill_limb a[RR52_OPS][2][MAXN], e[RR52_OPS][2][MAXN], want[RR52_OPS][2][MAXN];
    quill_limb want1[RR52_OPS][MAXN];
    int bad;
} rr52_job;

static void *rr52_worker(void *arg) {
    rr52_job *j = arg;
    size_t n = j->n;
    for (int i = 0; i < RR52_OPS; i++) {
        quill_limb r[2][MAXN];
        if (quill_mont_exp_consttime_x2_ifma(r[0], j->a[i][0], j->e[i][0], j->c[0], r[1],
                                             j->a[i][1], j->e[i][1], j->c[1], n) != 1 ||
            memcmp(r[0], j->want[i][0], n * sizeof(quill_limb)) != 0 ||
            memcmp(r[1], j->want[i][1], n * sizeof(quill_limb)) != 0)
            j->bad++;
        if (quill_mont_exp_x1_ifma_supported_size(n) &&
            (quill_mont_exp_vartime_x1_ifma(r[0], j->a[i][1], j->e[i][1], 1, j->c[1]) != 1 ||
             memcmp(r[0], j->want1[i], n * sizeof(quill_limb)) != 0))
            j->bad++;
    }
    return NULL;
}

static void test_rr52_threads(size_t n) {
    quill_limb m[2][MAXN];
    quill_mont *c[2];
    rr52_job *jobs = calloc(RR52_THREADS, sizeof(*jobs));
    QT_CHECK(jobs != NULL);
    if (jobs == NULL)
        return;
    for (int k = 0; k < 2; k++) {
        bt_ifma_modulus(m[k], n, (unsigned)k);
        c[k] = quill_mont_new(m[k], n);
        QT_CHECK(c[k] != NULL);
    }
    if (c[0] == NULL || c[1] == NULL)
        goto done;
    for (int t = 0; t < RR52_THREADS; t++) {
        rr52_job *j = &jobs[t];
        j->c[0] = c[0];
        j->c[1] = c[1];
        j->n = n;
        for (int i = 0; i < RR52_OPS; i++) {
            for (int k = 0; k < 2; k++) {
                bt_operand(j->a[i][k], m[k], n, rnd(BT_OPERAND_KINDS));
                make_exponent(j->e[i][k], n, 4 + rnd(4));
            }
            j->e[i][1][0] |= 1;
            QT_CHECK(quill_mont_exp_consttime_x2(j->want[i][0], j->a[i][0], j->e[i][0], c[0],
                                                 j->want[i][1], j->a[i][1], j->e[i][1], c[1],
                                                 n) == 1);
            QT_CHECK(quill_mont_exp_vartime(j->want1[i], j->a[i][1], j->e[i][1], 1, c[1]) == 1);
        }
    }
    QT_CHECK(quill_mont_rr52_get(c[0]) == NULL && quill_mont_rr52_get(c[1]) == NULL);
    pthread_t tid[RR52_THREADS];
    int started[RR52_THREADS];
    for (int t = 0; t < RR52_THREADS; t++)
        started[t] = pthread_create(&tid[t], NULL, rr52_worker, &jobs[t]) == 0;
    for (int t = 0; t < RR52_THREADS; t++) {
        QT_CHECK(started[t]);
        if (started[t])
            QT_CHECK(pthread_join(tid[t], NULL) == 0);
        QT_CHECK(jobs[t].bad == 0);
        cases += RR52_OPS;
    }
    QT_CHECK(rr52_ok(c[0], m[0], n) && rr52_ok(c[1], m[1], n));
done:
    for (int k = 0; k < 2; k++)
        quill_mont_free(c[k]);
    free(jobs);
}

int main(void) {
    int skip = bt_ifma_oracle("bn_ifma");
    if (skip != 0)
        return skip;
    QT_CHECK(!quill_mont_exp_x2_ifma_capable(16));
    QT_CHECK(quill_mont_exp_x2_ifma_supported_size(16));
    QT_CHECK(!quill_mont_exp_x2_ifma_supported_size(17));

    bt_seed("bn_ifma");
    double t0 = qt_now();
    const size_t sizes[] = {8, 16, 24, 32};
    const int rounds[] = {40, 40, 16, 10};
    const int pairs[] = {40, 40, 21, 14};
    for (size_t s = 0; s < QUILL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        for (int p = 0; p < pairs[s]; p++) {
            /* every modulus shape in each lane, then random pairs */
            unsigned mk0 = (unsigned)p % BT_IFMA_MODULUS_KINDS;
            unsigned mk1 = p < BT_IFMA_MODULUS_KINDS
                               ? (unsigned)(BT_IFMA_MODULUS_KINDS - 1 - p)
                               : rnd(BT_IFMA_MODULUS_KINDS);
            test_pair(n, n, rounds[s], mk0, mk1, 8);
        }
        /* short exponents (other window widths) */
        test_pair(n, 1, 16, 0, rnd(BT_IFMA_MODULUS_KINDS), 2);
        test_pair(n, 3, 16, rnd(BT_IFMA_MODULUS_KINDS), 0, 2);
        test_pair(n, n / 2, 16, 0, 0, 2);
        test_sqr(n, 40);
        test_rr52_cache(n);
        test_rr52_threads(n);
    }
    test_amm_gather();
    printf("bn_ifma: %lu two-lane cases in %.1f s\n", cases, qt_now() - t0);
    return qt_finish("bn_ifma");
}
