/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * bn_speed: times quill's Montgomery multiplication, squaring, modular
 * exponentiation and inversion against OpenSSL's BN_mod_mul_montgomery,
 * BN_mod_exp_mont_consttime and BN_mod_inverse at 1024, 1536, 2048 (and
 * 3072, 4096) bits.  Not a test: prints ns per operation and the ratio
 * quill / OpenSSL (lower is better).
 *
 * Usage: bn_speed [seconds-per-measurement, default 0.3] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/rand.h>

#include "bn/bn.h"

#define MAXN QUILL_BN_MAX_LIMBS

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double budget = 0.3;
static volatile quill_limb sink;

/* Runs body (a statement using `iter`) in short rounds of about 2 ms of
 * this thread's CPU time, for about `budget` s in total, and yields the best
 * ns per iteration over the rounds.  The machine is shared: thread CPU time
 * leaves out the time other processes run, and the minimum is the least
 * disturbed round. */
#define TIME_IT(result, body)                                                   \
    do {                                                                        \
        size_t iters_ = 1;                                                      \
        double round_ = 0.002;                                             \
        for (;;) {                                                              \
            double t0_ = now();                                                 \
            for (size_t iter = 0; iter < iters_; iter++) {                      \
                body;                                                           \
            }                                                                   \
            double dt_ = now() - t0_;                                           \
            if (dt_ > round_ || iters_ > ((size_t)1 << 30))                 \
                break;                                                          \
            iters_ *= 2;                                                        \
        }                                                                       \
        double best_ = 1e30;                                                    \
        double end_ = now() + budget;\
        for (int rep_ = 0; rep_ < 3 || now() < end_; rep_++) {                                  \
            double t0_ = now();                                                 \
            for (size_t iter = 0; iter < iters_; iter++) {                      \
                body;                                                           \
            }                                                                   \
            double per_ = (now() - t0_) * 1e9 / (double)iters_;                 \
            if (per_ < best_)                                                   \
                best_ = per_;                                                   \
        }                                                                       \
        (result) = best_;                                                       \
    } while (0)

static void fill_random(quill_limb *a, size_t n) {
    if (RAND_bytes((unsigned char *)a, (int)(n * sizeof(quill_limb))) != 1)
        abort();
}

static BIGNUM *to_bn(const quill_limb *a, size_t n) {
    return BN_lebin2bn((const unsigned char *)a, (int)(n * sizeof(quill_limb)), NULL);
}

static void bench_size(size_t bits) {
    size_t n = bits / 64;
    static quill_limb m[MAXN], a[MAXN], b[MAXN], r[MAXN], e[MAXN];
    static quill_limb m2[MAXN], a2[MAXN], r2[MAXN], e2[MAXN];
    fill_random(m, n);
    m[0] |= 1;
    m[n - 1] |= (quill_limb)1 << 63;
    fill_random(a, n);
    fill_random(b, n);
    fill_random(e, n);
    a[n - 1] >>= 1;
    b[n - 1] >>= 1;
    fill_random(m2, n);
    m2[0] |= 1;
    m2[n - 1] |= (quill_limb)1 << 63;
    fill_random(a2, n);
    fill_random(e2, n);
    a2[n - 1] >>= 1;
    quill_mont *mont = quill_mont_new(m, n), *mont2 = quill_mont_new(m2, n);
    if (mont == NULL || mont2 == NULL)
        abort();
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = to_bn(m, n), *ba = to_bn(a, n), *bb = to_bn(b, n), *be = to_bn(e, n);
    BIGNUM *br = BN_new();
    BN_MONT_CTX *om = BN_MONT_CTX_new();
    BN_MONT_CTX_set(om, bm, ctx);
    BN_set_flags(be, BN_FLG_CONSTTIME);

    double q_mul, o_mul, q_sqr, o_sqr, q_exp, o_exp, q_inv, o_inv, q_vexp, o_vexp, q_new;
    TIME_IT(q_mul, quill_mont_mul(r, a, b, mont));
    TIME_IT(o_mul, BN_mod_mul_montgomery(br, ba, bb, om, ctx));
    TIME_IT(q_sqr, quill_mont_sqr(r, a, mont));
    TIME_IT(o_sqr, BN_mod_mul_montgomery(br, ba, ba, om, ctx));
    TIME_IT(q_exp, sink += (quill_limb)quill_mont_exp_consttime(r, a, e, n, mont));
    TIME_IT(o_exp, BN_mod_exp_mont_consttime(br, ba, be, bm, ctx, om));
    quill_limb e65537 = 65537;
    BIGNUM *bf4 = BN_new();
    BN_set_word(bf4, 65537);
    TIME_IT(q_vexp, sink += (quill_limb)quill_mont_exp_vartime(r, a, &e65537, 1, mont));
    TIME_IT(o_vexp, BN_mod_exp_mont(br, ba, bf4, bm, ctx, om));
    TIME_IT(q_inv, sink += quill_bn_inv_mod_odd_consttime(r, a, m, n));
    TIME_IT(o_inv, BN_mod_inverse(br, ba, bm, ctx));
    double q_mul2, q_sqr2, q_exp2;
    TIME_IT(q_mul2, quill_mont_mul_x2(r, a, b, mont, r2, a2, b, mont2));
    TIME_IT(q_sqr2, quill_mont_sqr_x2(r, a, mont, r2, a2, mont2));
    TIME_IT(q_exp2, sink += (quill_limb)quill_mont_exp_consttime_x2(r, a, e, mont, r2, a2, e2,
                                                                     mont2, n));
    TIME_IT(q_new, quill_mont_free(quill_mont_new(m, n)));

    printf("%5zu bits  mont_mul %8.1f ns (openssl %8.1f) ratio %.2f\n", bits, q_mul, o_mul,
           q_mul / o_mul);
    printf("%5zu bits  mont_sqr %8.1f ns (openssl %8.1f) ratio %.2f\n", bits, q_sqr, o_sqr,
           q_sqr / o_sqr);
    printf("%5zu bits  exp_ct   %8.1f us (openssl %8.1f) ratio %.2f\n", bits, q_exp / 1e3,
           o_exp / 1e3, q_exp / o_exp);
    printf("%5zu bits  x2 mul %8.1f sqr %8.1f ns, exp_ct %8.1f us (per op vs one: %.2f %.2f "
           "%.2f)\n",
           bits, q_mul2, q_sqr2, q_exp2 / 1e3, q_mul2 / (2 * q_mul), q_sqr2 / (2 * q_sqr),
           q_exp2 / (2 * q_exp));
    printf("%5zu bits  exp_f4   %8.1f us (openssl %8.1f) ratio %.2f\n", bits, q_vexp / 1e3,
           o_vexp / 1e3, q_vexp / o_vexp);
    printf("%5zu bits  inv_ct   %8.1f us (openssl vartime %8.1f) ratio %.2f\n", bits,
           q_inv / 1e3, o_inv / 1e3, q_inv / o_inv);
    printf("%5zu bits  mont_new %8.1f us\n", bits, q_new / 1e3);
    fflush(stdout);

    BN_free(bf4);
    BN_free(bm);
    BN_free(ba);
    BN_free(bb);
    BN_free(be);
    BN_free(br);
    BN_MONT_CTX_free(om);
    BN_CTX_free(ctx);
    quill_mont_free(mont);
    quill_mont_free(mont2);
}

int main(int argc, char **argv) {
    if (argc > 1)
        budget = atof(argv[1]);
    size_t sizes[] = {1024, 1536, 2048, 3072, 4096};
    size_t count = sizeof(sizes) / sizeof(sizes[0]);
    if (argc > 2)
        count = (size_t)atoi(argv[2]);
    for (size_t i = 0; i < count; i++)
        bench_size(sizes[i]);
    return 0;
}
