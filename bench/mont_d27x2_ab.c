/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_d27x2_ab: the measurement of issue 24 for RSA-3072's CRT halves:
 * two-way 1536-bit Montgomery products and squarings in radix 2^27 with
 * AVX2 VPMULUDQ in three forms, B straight-line (generated at build time
 * by tools/gen_mont_d28x2_avx2.py big), C loops over blocks of four
 * columns (mont_d27x2_loop.c) and D the library's (core/bn/
 * mont_d27x2_avx2.c, blocks of six), each first checked against OpenSSL's
 * BN lane by lane (r 2^1539 = x y mod m and r < 2m, on chains of the
 * kernels' own outputs), then timed against the 24-limb MULX/ADX kernels
 * called once per lane (A), in alternating rounds of 200 calls: a
 * squaring chain, a product chain and EXPO (five squarings, one product).
 * Prints medians in TSC ticks per two-way operation and the ratios to A.
 * Compiled with QUILL_D27_BENCH_32 (quill-d27x2-32-ab): the same for the
 * library's 2048-bit kernels against the 32-limb MULX/ADX ones.
 * docs/limits.md has the figures.  Not a test; needs AVX2, BMI2 and ADX.
 *
 *   mont_d27x2_ab [ROUNDS]     (default 31, at most 201)
 *   mont_d27x2_ab run V [LOOPS]  (LOOPS x 200 EXPO calls of one kernel only,
 *                                 default 500, for perf or callgrind: -1 MULX/ADX,
 *                                 0 straight-line, 1 loop4, 2 library) */
#include <openssl/bn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ab_timing.h"
#include "bn/mont_adx.h"
#include "bn/mont_d27x2_avx2.h"

#if QUILL_D27_BENCH_32 /* quill-d27x2-32-ab: 2048-bit halves, the library's kernels only */
#define P 39
#define ND 77 /* R = 2^2079 */
#define N 32
#define MOD quill_d27x2_32_mod
#define NV 1
#define ADX_SQR quill_mont_sqr_adx_32
#define ADX_MUL quill_mont_mul_adx_32
#else
#define P 29  /* vectors per number pair */
#define ND 57 /* digits of 27 bits: R = 2^1539 */
#define N 24  /* limbs of a half */
#define MOD quill_d27x2_mod
#define NV 3
#define ADX_SQR quill_mont_sqr_adx_24
#define ADX_MUL quill_mont_mul_adx_24
#endif
#define W 27
#define RBITS (W * ND)

typedef void mul_fn(uint64_t *, const uint64_t *, const uint64_t *, const MOD *);
typedef void sqr_fn(uint64_t *, const uint64_t *, const MOD *);
#if QUILL_D27_BENCH_32
static mul_fn *const muls[NV] = {quill_mont_mul_d27x2_32_avx2};
static sqr_fn *const sqrs[NV] = {quill_mont_sqr_d27x2_32_avx2};
static const char *const kname[NV] = {"library"};
#else
void d27_bench_mul_straight(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const quill_d27x2_mod *md);
void d27_bench_sqr_straight(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);
void d27_bench_mul_loop4(uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const quill_d27x2_mod *md);
void d27_bench_sqr_loop4(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);
static mul_fn *const muls[3] = {d27_bench_mul_straight, d27_bench_mul_loop4,
                                quill_mont_mul_d27x2_avx2};
static sqr_fn *const sqrs[3] = {d27_bench_sqr_straight, d27_bench_sqr_loop4,
                                quill_mont_sqr_d27x2_avx2};
static const char *const kname[3] = {"straight-line", "loop4", "library (loop6)"};
#endif

/* digit i of a BIGNUM (27 bits) */
static uint64_t bdigit(const BIGNUM *a, int i) {
    uint64_t v = 0;
    for (int k = 0; k < W; k++)
        v |= (uint64_t)BN_is_bit_set(a, W * i + k) << k;
    return v;
}

static void to_form(uint64_t x[4 * P], const BIGNUM *a0, const BIGNUM *a1) {
    const BIGNUM *as[2] = {a0, a1};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 2 * P; i++)
            x[4 * (i / 2) + 2 * l + (i & 1)] = i < ND ? bdigit(as[l], i) : 0;
}

/* lane l of x as a BIGNUM (digits may exceed 27 bits) */
static BIGNUM *from_form(const uint64_t x[4 * P], int l) {
    BIGNUM *r = BN_new(), *t = BN_new();
    BN_zero(r);
    for (int i = 2 * P - 1; i >= 0; i--) {
        BN_lshift(r, r, W);
        BN_set_word(t, x[4 * (i / 2) + 2 * l + (i & 1)]);
        BN_add(r, r, t);
    }
    BN_free(t);
    return r;
}

static void mod_init(MOD *md, BIGNUM *const m[2], BN_CTX *ctx) {
    memset(md, 0, sizeof(*md));
    BIGNUM *R = BN_new(), *np = BN_new();
    BN_one(R);
    BN_lshift(R, R, RBITS);
    for (int l = 0; l < 2; l++) {
        BN_mod_inverse(np, m[l], R, ctx);
        BN_sub(np, R, np); /* -m^-1 mod R */
        for (int j = 0; j < 2 * P; j++) {
            md->m[4 * j + 2 * l + 1] = j < ND ? bdigit(m[l], j) : 0;
            md->m[4 * j + 2 * l] = j ? bdigit(m[l], j - 1) : 0;
        }
        for (int j = 0; j < ND; j++) {
            md->np[4 * j + 2 * l + 1] = bdigit(np, j);
            md->np[4 * j + 2 * l] = j ? bdigit(np, j - 1) : 0;
        }
    }
    BN_free(R);
    BN_free(np);
}

/* 1 if lane l of r is < 2m and r 2^1539 = x y mod m */
static int check(const uint64_t *r, const uint64_t *x, const uint64_t *y, BIGNUM *const m[2],
                 int l, BN_CTX *ctx) {
    BIGNUM *br = from_form(r, l), *bx = from_form(x, l), *by = from_form(y, l);
    BIGNUM *m2 = BN_new(), *u = BN_new(), *v = BN_new();
    int ok = BN_lshift1(m2, m[l]) && BN_cmp(br, m2) < 0 && BN_lshift(u, br, RBITS) &&
             BN_nnmod(u, u, m[l], ctx) && BN_mod_mul(v, bx, by, m[l], ctx) && BN_cmp(u, v) == 0;
    BN_free(br), BN_free(bx), BN_free(by), BN_free(m2), BN_free(u), BN_free(v);
    return ok;
}

static void rnd_bn(BIGNUM *b, int top) {
    unsigned char buf[8 * N];
    for (int i = 0; i < 8 * N; i++)
        buf[i] = (unsigned char)bench_next64();
    if (top)
        buf[0] |= 0x80, buf[8 * N - 1] |= 1;
    BN_bin2bn(buf, sizeof(buf), b);
}

/* Returns the number of failed checks. */
static long verify(BN_CTX *ctx, int v) {
    long fail = 0, checks = 0;
    for (int it = 0; it < 40; it++) {
        BIGNUM *m[2] = {BN_new(), BN_new()}, *a[2] = {BN_new(), BN_new()},
               *b[2] = {BN_new(), BN_new()};
        for (int l = 0; l < 2; l++) {
            rnd_bn(m[l], 1);
            if (it % 4 == 1) /* all ones */
                BN_set_bit(m[l], 0), BN_one(m[l]), BN_lshift(m[l], m[l], 64 * N),
                    BN_sub_word(m[l], 1);
            rnd_bn(a[l], 0);
            rnd_bn(b[l], 0);
            if (it % 4 == 2) /* a = b = m - 1 */
                BN_sub(a[l], m[l], BN_value_one()), BN_copy(b[l], a[l]);
            BN_nnmod(a[l], a[l], m[l], ctx);
            BN_nnmod(b[l], b[l], m[l], ctx);
        }
        static MOD md;
        uint64_t x[4 * P], y[4 * P], z[4 * P], p[4 * P];
        mod_init(&md, m, ctx);
        to_form(x, a[0], a[1]);
        to_form(y, b[0], b[1]);
        for (int i = 0; i < 64; i++) {
            memcpy(p, x, sizeof(p));
            if (i & 1)
                muls[v](z, x, y, &md);
            else
                sqrs[v](z, x, &md);
            for (int l = 0; l < 2; l++, checks++)
                fail += !check(z, p, (i & 1) ? y : p, m, l, ctx);
            memcpy(x, z, sizeof(x));
            if (i % 16 == 15) { /* r aliasing a, b the kernel's own output */
                memcpy(p, y, sizeof(p));
                muls[v](y, y, x, &md);
                for (int l = 0; l < 2; l++, checks++)
                    fail += !check(y, p, x, m, l, ctx);
            }
        }
        for (int l = 0; l < 2; l++)
            BN_free(m[l]), BN_free(a[l]), BN_free(b[l]);
    }
    printf("verify %s: %ld checks against BN, %ld failed\n", kname[v], checks, fail);
    return fail;
}

static quill_limb m[2][N], n0[2], xa[2][N], xb[2][N];
static MOD md;
static uint64_t dx[4 * P], dy[4 * P];

static uint64_t run_adx(int pat) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < AB_CALLS; i++) {
        if (ab_is_sqr(pat, i)) {
            ADX_SQR(xa[0], xa[0], m[0], n0[0], N);
            ADX_SQR(xa[1], xa[1], m[1], n0[1], N);
        } else {
            ADX_MUL(xa[0], xa[0], xb[0], m[0], n0[0], N);
            ADX_MUL(xa[1], xa[1], xb[1], m[1], n0[1], N);
        }
    }
    return __rdtsc() - t0;
}

static uint64_t run_d27(int pat, int v) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < AB_CALLS; i++) {
        if (ab_is_sqr(pat, i))
            sqrs[v](dx, dx, &md);
        else
            muls[v](dx, dx, dy, &md);
    }
    return __rdtsc() - t0;
}

/* variant 0: the MULX/ADX kernels, 1 .. NV: the radix-2^27 ones (kname) */
static uint64_t run(int pat, int v) {
    return v == 0 ? run_adx(pat) : run_d27(pat, v - 1);
}

int main(int argc, char **argv) {
    int rounds = ab_rounds(argc > 1 && strcmp(argv[1], "run") ? argv[1] : NULL);
    BN_CTX *ctx = BN_CTX_new();
    for (int v = 0; v < NV; v++)
        if (verify(ctx, v))
            return 1;
    BIGNUM *bm[2] = {BN_new(), BN_new()}, *ba = BN_new(), *bb = BN_new();
    for (int l = 0; l < 2; l++) {
        n0[l] = ab_lane(m[l], xa[l], xb[l], N);
        BN_lebin2bn((const unsigned char *)m[l], 8 * N, bm[l]);
    }
    mod_init(&md, bm, ctx);
    BN_lebin2bn((const unsigned char *)xa[0], 8 * N, ba);
    BN_lebin2bn((const unsigned char *)xa[1], 8 * N, bb);
    to_form(dx, ba, bb);
    BN_lebin2bn((const unsigned char *)xb[0], 8 * N, ba);
    BN_lebin2bn((const unsigned char *)xb[1], 8 * N, bb);
    to_form(dy, ba, bb);
    if (argc > 2) { /* run V [LOOPS]: LOOPS x 200 EXPO calls of variant V only */
        int v = atoi(argv[2]), loops = argc > 3 ? atoi(argv[3]) : 500;
        for (int i = 0; i < loops; i++)
            run(AB_EXPO, v < 0 ? 0 : v + 1);
        return 0;
    }
    static double t[NV + 1][AB_NPAT][AB_MAX_ROUNDS];
    ab_alternate(t, NV + 1, run, rounds);
    printf("TSC ticks per two-way operation, medians of %d (minima); ratios to adx%d x2\n", rounds,
           N);
    printf("%-12s %18s", "pattern", "adx x2");
    for (int v = 0; v < NV; v++)
        printf(" %25s", kname[v]);
    printf("\n");
    for (int p = 0; p < AB_NPAT; p++) {
        double a = t[0][p][rounds / 2];
        printf("%-12s %8.1f (%7.1f)", ab_pattern_name[p], a, t[0][p][0]);
        for (int v = 0; v < NV; v++)
            printf("  %8.1f (%7.1f) %5.3f", t[v + 1][p][rounds / 2], t[v + 1][p][0],
                   t[v + 1][p][rounds / 2] / a);
        printf("\n");
    }
    return 0;
}
