/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of the one-lane radix-2^27 AVX2 squaring for public
 * 2048-, 3072- and 4096-bit operands (core/bn/mont_d27_avx2.c) against
 * OpenSSL's BN: N' by Newton's iteration against BN_mod_inverse, the
 * conversions, chains of squarings on the kernel's own (not fully carried)
 * outputs from edge operands, every result compared mod m and checked
 * against the kernel's bounds (value below 2^(64 n + 3), digits below
 * 2^28 + 2^10), then products of those outputs by an operand below m
 * (quill_mont_mul_d27_avx2_public: below 2.4 m); the same kernels on
 * inputs with every digit at its bound, for adversarial moduli (all ones,
 * 2^(64 n - 1) + 1, top-heavy, 2^(64 (n - 1)) + 1); then quill_mont_exp_public
 * for e = 2^k + 1 on a public context of 32, 48 and 64 limbs (the d27 path
 * at the AVX2 level, test_bn_d27_avx2) against BN_mod_exp, also from
 * four threads sharing a fresh context (the lazy build of the d27 form
 * raced).  Every kernel call comes after the stack below it was filled
 * with random words (dirty_stack), so that a result read from scratch the
 * kernel did not write fails.  With --memcheck (memcheck_bn_d27, under
 * valgrind) a few calls of each kernel per size, where memcheck also sees
 * unwritten scratch that meets only zero lanes (the kernels' loads and
 * branches do not depend on the data, so one clean run per size covers
 * every input).  The kernel part is skipped without AVX2 or without the
 * assembly. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "bn/exp_ifma.h"
#include "bn/mont_d27_avx2.h"
#include "bn_test_common.h"
#include "common/cpu.h"
#include "test_util.h"

#define NMAX 64
#define DMAX QUILL_D27_MAX_DIGITS

/* The form for n limbs, 32-byte aligned (freed by the caller). */
static quill_d27_mod *mod_alloc(size_t n) {
    size_t bytes = (quill_d27_mod_bytes(n) + 31) & ~(size_t)31;
    quill_d27_mod *md = aligned_alloc(32, bytes);
    if (md == NULL)
        abort();
    return md;
}

#if QUILL_BN_HAVE_D27
/* The exact value of a d27 number (digits may exceed 27 bits). */
static BIGNUM *d27_bn(const uint64_t *x, size_t D) {
    BIGNUM *r = BN_new(), *t = BN_new();
    if (r == NULL || t == NULL)
        abort();
    BN_zero(r);
    for (size_t k = D; k-- > 0;) {
        if (!BN_lshift(r, r, 27) || !BN_set_word(t, x[k]) || !BN_add(r, r, t))
            abort();
    }
    BN_free(t);
    return r;
}

/* 1 if x (d27, n-limb modulus) = want mod m, x < 2^bits and its digits
 * below 2^28 + 2^10; also checks quill_d27_to_limbs against the exact
 * value. */
static int check_d27_bits(const uint64_t *x, size_t n, const BIGNUM *want, const BIGNUM *bm,
                          size_t bits) {
    BN_CTX *ctx = bt_ctx();
    size_t D = quill_d27_digits(n);
    BIGNUM *v = d27_bn(x, D), *t = BN_new();
    int ok = 1;
    for (size_t k = 0; k < D; k++)
        ok &= x[k] < (1ull << 28) + (1ull << 10);
    if (BN_num_bits(v) > (int)bits)
        ok = 0;
    quill_limb l[NMAX + 1];
    quill_d27_to_limbs(l, x, D);
    ok &= bt_eq(l, n + 1, v);
    if (!BN_mod(t, v, bm, ctx))
        abort();
    ok &= BN_cmp(t, want) == 0;
    BN_free(v);
    BN_free(t);
    return ok;
}

/* check_d27_bits for the kernels' output bound, x < 2^(64 n + 3). */
static int check_d27(const uint64_t *x, size_t n, const BIGNUM *want, const BIGNUM *bm) {
    return check_d27_bits(x, n, want, bm, 64 * n + 3);
}

#endif

static void check_mod_init(const quill_limb *m, size_t n, const BIGNUM *bm) {
    size_t D = quill_d27_digits(n), RW = quill_d27_rw(D);
    quill_d27_mod *md = mod_alloc(n);
    BIGNUM *R = BN_new(), *inv = BN_new();
    BN_one(R);
    if (!BN_lshift(R, R, (int)(27 * D)) || !BN_mod_inverse(inv, bm, R, bt_ctx()) ||
        !BN_sub(inv, R, inv))
        abort();
    quill_limb l[NMAX + 1];
    uint64_t want[DMAX], dm[DMAX];
    bt_to_limbs(l, n + 1, inv);
    quill_d27_from_limbs(want, D, l, n + 1);
    quill_d27_mod_init(md, m, n);
    QT_CHECK(md->n == n && md->digits == D && md->rw == RW && md->shift == 27 * D - 64 * n);
    QT_CHECK(md->shift >= 4 && md->shift < 64);
    quill_d27_from_limbs(dm, D, m, n);
    const uint64_t *mrev = quill_d27_mrev(md), *nprev = quill_d27_nprev(md);
    int ok = 1;
    for (size_t j = 0; j < D; j++)
        for (size_t o = 0; o < 4; o++) {
            ok &= nprev[o * RW + 16 + D - 1 - j - o] == want[j];
            ok &= mrev[o * RW + 16 + D - 1 - j - o] == dm[j];
        }
    /* the zeros around the digits in every copy */
    for (size_t o = 0; o < 4; o++)
        for (size_t i = 0; i < RW; i++)
            if (i + o < 16 || i + o >= 16 + D)
                ok &= mrev[o * RW + i] == 0 && nprev[o * RW + i] == 0;
    QT_CHECK(ok);
    free(md);
    BN_free(R);
    BN_free(inv);
}

#if QUILL_BN_HAVE_D27
/* Fills the stack below the caller's frame with random words, where the
 * kernel called next puts its scratch: a kernel whose result depended on
 * scratch it did not write (the squaring writes only the vectors of its
 * operand's shifted copies that its blocks read) then fails the checks. */
static __attribute__((noinline)) void dirty_stack(void) {
    uint64_t junk[4096];
    for (size_t i = 0; i < 4096; i++)
        junk[i] = qt_rng_u64();
    __asm__ volatile("" : : "r"(junk) : "memory");
}

#define SQR_D27(r, a, md) (dirty_stack(), quill_mont_sqr_d27_avx2_public(r, a, md))
#define MUL_D27(r, x, b, md) (dirty_stack(), quill_mont_mul_d27_avx2_public(r, x, b, md))

/* A chain of squarings from a (na limbs, below 2^(64 n + 3)). */
static void check_chain(const quill_limb *m, size_t n, const quill_limb *a, size_t na,
                        int steps) {
    static uint64_t x[DMAX] __attribute__((aligned(32)));
    size_t D = quill_d27_digits(n);
    quill_d27_mod *md = mod_alloc(n);
    BN_CTX *ctx = bt_ctx();
    quill_d27_mod_init(md, m, n);
    BIGNUM *bm = bt_bn(m, n), *ri = BN_new(), *want = bt_bn(a, na);
    BN_one(ri);
    if (!BN_lshift(ri, ri, (int)(27 * D)) || !BN_mod_inverse(ri, ri, bm, ctx) ||
        !BN_mod(want, want, bm, ctx))
        abort();
    quill_d27_from_limbs(x, D, a, na);
    for (int i = 0; i < steps; i++) {
        SQR_D27(x, x, md);
        if (!BN_mod_mul(want, want, want, bm, ctx) || !BN_mod_mul(want, want, ri, bm, ctx))
            abort();
        QT_CHECK(check_d27(x, n, want, bm));
    }
    /* Three products by b = a mod m (exact digits, reversed) on the
     * chain's last output, each below 2.4 m (the kernel's bound for b < m). */
    quill_limb bl[NMAX];
    uint64_t bd[DMAX];
    uint64_t *brev = aligned_alloc(32, 4 * quill_d27_rw(D) * sizeof(uint64_t));
    BIGNUM *b = bt_bn(a, na), *lim = BN_new(), *v = NULL;
    if (brev == NULL || !BN_mod(b, b, bm, ctx) || !BN_copy(lim, bm) || !BN_mul_word(lim, 12))
        abort();
    bt_to_limbs(bl, n, b);
    quill_d27_from_limbs(bd, D, bl, n);
    quill_d27_rev(brev, bd, D);
    for (int i = 0; i < 3; i++) {
        MUL_D27(x, x, brev, md);
        if (!BN_mod_mul(want, want, b, bm, ctx) || !BN_mod_mul(want, want, ri, bm, ctx))
            abort();
        QT_CHECK(check_d27(x, n, want, bm));
        v = d27_bn(x, D); /* 5 x < 12 m */
        if (!BN_mul_word(v, 5))
            abort();
        QT_CHECK(BN_cmp(v, lim) < 0);
        BN_free(v);
    }
    free(brev);
    BN_free(b);
    BN_free(lim);
    free(md);
    BN_free(bm);
    BN_free(ri);
    BN_free(want);
}

/* The kernels at their input bounds rather than on their own outputs:
 * every digit of x at its largest, 2^28 + 2^10 - 1 (a column sum of the
 * carry pass below 2^64 gives at most 2 (2^27 - 1) + 2^10 - 1), except
 * the top ones, set to the largest digits that keep x < 2^(64 n + 3)
 * (|hi| = 0), or random digits in [2^28 - 2^20, 2^28 + 2^10) likewise
 * (|hi| = 1).  Each column of a^2 then holds nearly its bound of D
 * products of two digits, and a wrapped 64-bit column sum (the kernels'
 * argument, mont_d27_avx2.c) would change the result mod m: at 152
 * digits such inputs reach column sums of about 2^63.46 against the
 * argument's 2^63.84.  The products of x by b = m - 1 (result below
 * 2.51 m) and by b = 2^(27 D) - 1 (every digit 2^27 - 1, the
 * multiplicand's largest; result below 2^(64 n + 4) <= 2^(27 D)), then
 * four squarings from x, each result checked mod m, its digits and its
 * value bound. */
static void max_digits(uint64_t *x, size_t n, int hi) {
    size_t D = quill_d27_digits(n), B = 64 * n + 3, K = (B - 2) / 27;
    for (size_t k = 0; k < D; k++) {
        uint64_t top = (1ull << 28) + (1ull << 10) - 1;
        if (hi)
            top -= qt_rng_u64() % ((1ull << 20) + (1ull << 10));
        x[k] = k < K ? top : 0;
    }
    /* (2^(B - 27 K) - 3) 2^(27 K) + (below 2.00001 2^(27 K)) < 2^B */
    x[K] = (1ull << (B - 27 * K)) - 3;
}

static void check_max(const quill_limb *m, size_t n, int hi) {
    static uint64_t x[DMAX] __attribute__((aligned(32))), y[DMAX] __attribute__((aligned(32)));
    size_t D = quill_d27_digits(n);
    quill_d27_mod *md = mod_alloc(n);
    BN_CTX *ctx = bt_ctx();
    quill_d27_mod_init(md, m, n);
    BIGNUM *bm = bt_bn(m, n), *ri = BN_new(), *want = BN_new(), *w2 = BN_new(), *b = BN_new();
    BIGNUM *lim = BN_new();
    BN_one(ri);
    if (!BN_lshift(ri, ri, (int)(27 * D)) || !BN_mod_inverse(ri, ri, bm, ctx))
        abort();
    max_digits(x, n, hi);
    BIGNUM *v = d27_bn(x, D);
    QT_CHECK(BN_num_bits(v) <= (int)(64 * n + 3)); /* the input bound itself */
    if (!BN_mod(want, v, bm, ctx))
        abort();
    BN_free(v);
    /* products by m - 1 (below m: result below 2.51 m) and by 2^(27 D) - 1 */
    quill_limb bl[NMAX];
    uint64_t bd[DMAX];
    uint64_t *brev = aligned_alloc(32, 4 * quill_d27_rw(D) * sizeof(uint64_t));
    if (brev == NULL)
        abort();
    for (int which = 0; which < 2; which++) {
        if (which == 0) {
            if (!BN_copy(b, bm) || !BN_sub_word(b, 1))
                abort();
            bt_to_limbs(bl, n, b);
            quill_d27_from_limbs(bd, D, bl, n);
        } else {
            BN_one(b);
            if (!BN_lshift(b, b, (int)(27 * D)) || !BN_sub_word(b, 1))
                abort();
            for (size_t k = 0; k < D; k++)
                bd[k] = (1ull << 27) - 1;
        }
        quill_d27_rev(brev, bd, D);
        MUL_D27(y, x, brev, md);
        if (!BN_mod_mul(w2, want, b, bm, ctx) || !BN_mod_mul(w2, w2, ri, bm, ctx))
            abort();
        /* b above m: x b / R' + 2.0001 m < 2^(64 n + 4) <= 2^(27 D) */
        QT_CHECK(check_d27_bits(y, n, w2, bm, which == 0 ? 64 * n + 3 : 64 * n + 4));
        if (which == 0) { /* 100 y < 251 m */
            v = d27_bn(y, D);
            if (!BN_copy(lim, bm) || !BN_mul_word(lim, 251) || !BN_mul_word(v, 100))
                abort();
            QT_CHECK(BN_cmp(v, lim) < 0);
            BN_free(v);
        }
    }
    /* the squaring, then a chain on its outputs */
    for (int i = 0; i < 4; i++) {
        SQR_D27(x, x, md);
        if (!BN_mod_mul(want, want, want, bm, ctx) || !BN_mod_mul(want, want, ri, bm, ctx))
            abort();
        QT_CHECK(check_d27(x, n, want, bm));
    }
    free(brev);
    free(md);
    BN_free(bm);
    BN_free(ri);
    BN_free(want);
    BN_free(w2);
    BN_free(b);
    BN_free(lim);
}

/* Moduli of n limbs chosen against the bounds: all ones (every digit of m
 * at 2^27 - 1), 2^(64 n - 1) + 1, top-heavy (top half all ones, low half
 * random), and the smallest n-limb one, 2^(64 (n - 1)) + 1. */
static void adversarial_modulus(quill_limb *m, size_t n, unsigned kind) {
    for (size_t i = 0; i < n; i++)
        m[i] = kind == 0 ? ~(quill_limb)0 : kind == 2 && i < n / 2 ? qt_rng_u64() : 0;
    if (kind == 1)
        m[n - 1] = (quill_limb)1 << 63;
    if (kind == 2)
        for (size_t i = n / 2; i < n; i++)
            m[i] = ~(quill_limb)0;
    if (kind == 3)
        m[n - 1] = 1;
    m[0] |= 1;
}
#define ADVERSARIAL_KINDS 4
#endif

/* quill_mont_exp_public against BN_mod_exp, e = 2^k + 1, n-limb m. */
static void check_exp(const quill_limb *m, size_t n, const quill_limb *a, unsigned k) {
    quill_mont *mont = quill_mont_new_public(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    quill_limb e[2] = {((quill_limb)1 << k) + 1, 0}, r[NMAX], s[NMAX];
    BIGNUM *bm = bt_bn(m, n), *x = bt_bn(a, n), *be = bt_bn(e, 2), *z = BN_new();
    if (!BN_mod_exp(z, x, be, bm, bt_ctx()))
        abort();
    /* The first use runs the MULX squarings, the second builds the d27
     * form (where the context has one) and uses it, the third uses it. */
    for (int use = 0; use < 3; use++) {
        QT_CHECK(quill_mont_exp_public(r, a, e, 2, mont) == 1);
        QT_CHECK(bt_eq(r, n, z));
#if QUILL_BN_HAVE_D27
        /* built on the second use, not the first */
        if (use == 0)
            QT_CHECK(__atomic_load_n(&mont->d27_state, __ATOMIC_ACQUIRE) != QUILL_D27_READY);
#endif
    }
    memcpy(s, a, n * sizeof(quill_limb));
    QT_CHECK(quill_mont_exp_public(s, s, e, 1, mont) == 1); /* aliasing, one limb */
    QT_CHECK(bt_eq(s, n, z));
#if QUILL_BN_HAVE_D27
    /* Built exactly where expected: at the AVX2 level without the IFMA
     * exponentiation, after two uses. */
    int expect = quill_cpu_has(QUILL_CPU_X86_AVX2) && !quill_mont_exp_x1_ifma_capable(n);
    QT_CHECK((__atomic_load_n(&mont->d27_state, __ATOMIC_ACQUIRE) == QUILL_D27_READY) == expect);
#endif
    quill_mont_free(mont);
    BN_free(bm);
    BN_free(x);
    BN_free(be);
    BN_free(z);
}

/* Threads sharing one fresh public context: THREADS threads run
 * quill_mont_exp_public (e = 65537) from the context's first use on, the
 * first alone until it builds the d27 form (mont.c, quill_mont_d27_use),
 * the others from then on, so that their calls race with the build (they
 * take the MULX path meanwhile, then all use the form); every result is
 * compared with BN_mod_exp's, computed beforehand (the BN_CTX and the
 * test's counters are not shared with the threads).  A form published
 * before it is complete fails here. */
#define THREADS 4
#define THREAD_OPS 12

typedef struct {
    const quill_mont *mont;
    size_t n;
    const quill_limb *a, *want; /* THREAD_OPS operands and results, n limbs each */
    int wait; /* wait until the form is being built (threads but the first) */
    int bad;
} exp_job;

static void *exp_worker(void *arg) {
    exp_job *j = arg;
    const quill_limb e[1] = {65537};
    quill_limb r[NMAX];
    while (j->wait &&
           __atomic_load_n(&j->mont->d27_state, __ATOMIC_ACQUIRE) < QUILL_D27_BUILDING)
        ;
    for (int i = 0; i < THREAD_OPS; i++)
        if (quill_mont_exp_public(r, j->a + i * j->n, e, 1, j->mont) != 1 ||
            memcmp(r, j->want + i * j->n, j->n * sizeof(quill_limb)) != 0)
            j->bad++;
    return NULL;
}

static void check_threads(const quill_limb *m, size_t n) {
    static quill_limb a[THREADS][THREAD_OPS * NMAX], want[THREADS][THREAD_OPS * NMAX];
    quill_mont *mont = quill_mont_new_public(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    BIGNUM *bm = bt_bn(m, n), *be = BN_new(), *x = NULL, *z = BN_new();
    if (!BN_set_word(be, 65537))
        abort();
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < THREAD_OPS; i++) {
            bt_operand(a[t] + i * n, m, n, (unsigned)(t * THREAD_OPS + i) % BT_OPERAND_KINDS);
            x = bt_bn(a[t] + i * n, n);
            if (!BN_mod_exp(z, x, be, bm, bt_ctx()))
                abort();
            bt_to_limbs(want[t] + i * n, n, z);
            BN_free(x);
        }
    exp_job jobs[THREADS];
    pthread_t tid[THREADS];
    /* Where the context gets the form, the threads but the first start
     * once it is being built (the first builds it on its second call), so
     * that their calls overlap the build. */
    int builds = 0;
#if QUILL_BN_HAVE_D27
    builds = quill_cpu_has(QUILL_CPU_X86_AVX2) && !quill_mont_exp_x1_ifma_capable(n);
#endif
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (exp_job){mont, n, a[t], want[t], builds && t > 0, 0};
        if (pthread_create(&tid[t], NULL, exp_worker, &jobs[t]) != 0)
            abort(); /* the others could wait for ever */
    }
    for (int t = 0; t < THREADS; t++) {
        QT_CHECK(pthread_join(tid[t], NULL) == 0);
        QT_CHECK(jobs[t].bad == 0);
    }
    QT_CHECK((__atomic_load_n(&mont->d27_state, __ATOMIC_ACQUIRE) == QUILL_D27_READY) == builds);
    quill_mont_free(mont);
    BN_free(bm);
    BN_free(be);
    BN_free(z);
}

#if QUILL_BN_HAVE_D27
/* --memcheck (memcheck_bn_d27: this program under valgrind's memcheck):
 * per size, three squarings and three products on a random operand and
 * the same kernels at their digit bounds for the all-ones modulus, every
 * result checked.  memcheck reports a result that depends on scratch the
 * kernel did not write even where only zero lanes meet it (the squaring's
 * shifted copies read the zero vectors around 2a in lanes the diagonal's
 * mask clears): values that dirty_stack cannot change. */
static int memcheck_run(void) {
    static const size_t sizes[] = {32, 48, 64};
    quill_limb m[NMAX], a[NMAX + 1];
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        printf("test_bn_d27 --memcheck: no AVX2, skipped\n");
        return 77;
    }
    for (size_t si = 0; si < 3; si++) {
        size_t n = sizes[si];
        bt_modulus(m, n, 0);
        bt_operand(a, m, n, 0);
        check_chain(m, n, a, n, 3);
        adversarial_modulus(m, n, 0);
        check_max(m, n, 0);
    }
    return qt_finish("test_bn_d27 --memcheck");
}
#endif

int main(int argc, char **argv) {
    bt_seed("test_bn_d27");
#if QUILL_BN_HAVE_D27
    if (argc > 1 && strcmp(argv[1], "--memcheck") == 0)
        return memcheck_run();
#else
    (void)argv;
    if (argc > 1)
        return 77;
#endif
    static const size_t sizes[] = {32, 48, 64};
    quill_limb m[NMAX], a[NMAX + 1];
    static const unsigned ks[] = {16, 8, 9, 31, 63};
    for (size_t si = 0; si < 3; si++) {
        size_t n = sizes[si];
        for (unsigned it = 0; it < 60; it++) {
            bt_modulus(m, n, it % BT_MODULUS_KINDS);
            bt_operand(a, m, n, it % BT_OPERAND_KINDS);
            BIGNUM *bm = bt_bn(m, n);
            check_mod_init(m, n, bm);
            BN_free(bm);
            check_exp(m, n, a, ks[it % 5]);
        }
    }
    for (size_t si = 0; si < 3; si++)
        for (unsigned kind = 0; kind < 2 * BT_MODULUS_KINDS; kind++) {
            bt_modulus(m, sizes[si], kind % BT_MODULUS_KINDS);
            check_threads(m, sizes[si]);
        }
#if QUILL_BN_HAVE_D27
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2)) {
        printf("test_bn_d27: no AVX2, kernel skipped\n");
        return qt_finish("test_bn_d27");
    }
    for (size_t si = 0; si < 3; si++) {
        size_t n = sizes[si];
        for (unsigned it = 0; it < 60; it++) {
            bt_modulus(m, n, it % BT_MODULUS_KINDS);
            size_t na = n;
            if (it % 4 == 3) { /* 2^(64 n + 3) - 1, above m, the kernel's input bound */
                memset(a, 0xff, (n + 1) * sizeof(quill_limb));
                a[n] = ((quill_limb)1 << 3) - 1;
                na = n + 1;
            } else {
                bt_operand(a, m, n, it % BT_OPERAND_KINDS);
            }
            check_chain(m, n, a, na, 20);
        }
        for (unsigned kind = 0; kind < ADVERSARIAL_KINDS + BT_MODULUS_KINDS; kind++) {
            if (kind < ADVERSARIAL_KINDS)
                adversarial_modulus(m, n, kind);
            else
                bt_modulus(m, n, kind - ADVERSARIAL_KINDS);
            for (int hi = 0; hi < 2; hi++)
                check_max(m, n, hi);
        }
    }
#endif
    return qt_finish("test_bn_d27");
}
