/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_d27_ab: an experiment of issue 24 (docs/limits.md, "A one-lane
 * radix-2^27 AVX2 squaring for verification").  A one-lane 2048-bit
 * Montgomery squaring for public operands in radix 2^27 with AVX2 VPMULUDQ
 * (76 digits, R = 2^2052, four digits of one number per vector, columns
 * summed in 64-bit lanes, the multiplicand stored reversed so that one
 * multiplier vector times a loaded window adds four products of the same
 * column), checked against OpenSSL's BN and timed against
 * quill_mont_sqr_adx_public_32 in the same process.  Not a test; needs
 * AVX2, BMI2 and ADX.
 *
 *   mont_d27_ab [ROUNDS]     (default 31, at most 201)
 *   mont_d27_ab count        (1,000 calls of each, for callgrind's counts)
 *
 * Layout.  x[0..75] digits of 27 bits (x_k may reach 2^28 + 2^10 after one
 * carry pass), 19 vectors.  Column k of a b: the multiplier vector s
 * (a_4s .. a_4s+3) times the window (b_k-4s, .., b_k-4s-3), read at
 * brev + Z + 75 - k + 4s from brev[Z + 75 - j] = b_j with zeros around it.
 * Eight columns per block in registers, the multiplier vector loaded once
 * per block step; four lanes per column added at the end (8 instructions
 * per four columns).  The squaring forms each cross product once (the
 * doubled copy 2a reversed; the vector on the diagonal by masks).
 * Reduction as the two-way kernels: U = (T mod R) N' mod R (a low half
 * product), then the columns of U m from 72 up; T + U m = 0 mod R and its
 * carry into column 76 is ceil((w_75 2^27 + w_74) / 2^54).  Carries by one
 * parallel pass: each 64-bit column split in three 27-bit parts for the
 * digit and its next two (unaligned loads line them up).  Bounds: digits
 * < 2^28 + 2^10, products < 2^56.0001, a column of T (squaring: the doubled
 * half) < 2^62.3, of U m < 2^61.3: w_k < 2^63.  Inputs below 2^2051 give
 * outputs below (2^2051 / 2 + 2.01 m) < 0.76 2^2051 (almost Montgomery).
 * Variable time in nothing but the modulus-independent loop bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include <openssl/bn.h>

#include "ab_timing.h"
#include "bn/mont_adx.h"
#include "bn/mont_d27_avx2.h"
#include "common/cpu.h"

#define D QUILL_D27_DIGITS
#define M27 ((1ull << 27) - 1)
typedef quill_d27_mod d27_mod;
#define mont_sqr_d27_public quill_mont_sqr_d27_avx2_public

/* ---- conversions and the reference ---- */

/* Exact value of d (digits may exceed 27 bits) as a BIGNUM. */
static void d27_to_bn(BIGNUM *x, const uint64_t d[D]) {
    BIGNUM *t = BN_new();
    BN_zero(x);
    for (int k = D - 1; k >= 0; k--) {
        BN_lshift(x, x, 27);
        BN_set_word(t, d[k]);
        BN_add(x, x, t);
    }
    BN_free(t);
}

static void bn_to_limbs(quill_limb *r, size_t n, const BIGNUM *x) {
    unsigned char buf[8 * 64];
    BN_bn2lebinpad(x, buf, (int)(8 * n));
    memcpy(r, buf, 8 * n);
}

/* Sorts the n timings of ta and tb (median() in place) and prints, for
 * the names a and b, their medians, minima and ratios. */
static void print_ab(const char *a, double *ta, const char *b, double *tb, int n) {
    double ma = median(ta, n), mb = median(tb, n);
    printf("%s %.0f (min %.0f)  %s %.0f (min %.0f)  ratio %.3f (min %.3f)", a, ma, ta[0], b, mb,
           tb[0], mb / ma, tb[0] / ta[0]);
}

static d27_mod md;
static quill_limb m[32], n0, xa[32];
static uint64_t xd[D] __attribute__((aligned(32)));

#define CALLS 16

static uint64_t run_adx(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        quill_mont_sqr_adx_public_32(xa, xa, m, n0, 32);
    return __rdtsc() - t0;
}
static uint64_t run_d27(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        mont_sqr_d27_public(xd, xd, &md);
    return __rdtsc() - t0;
}

int main(int argc, char **argv) {
    int count = argc > 1 && strcmp(argv[1], "count") == 0;
    int rounds = ab_rounds(argc > 1 && !count ? argv[1] : NULL);
    if (!count && !quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX)) {
        printf("needs AVX2, BMI2 and ADX\n");
        return 77;
    }
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = BN_new(), *R = BN_new(), *Ri = BN_new(), *np = BN_new(), *x = BN_new(),
           *y = BN_new(), *t = BN_new();
    long checks = 0, fails = 0;
    for (int key = 0; key < 20; key++) {
        for (int i = 0; i < 32; i++)
            m[i] = bench_next64();
        m[0] |= 1;
        m[31] |= 1ull << 63;
        if (key == 1)
            for (int i = 0; i < 32; i++) /* all-ones modulus */
                m[i] = ~0ull;
        BN_lebin2bn((const unsigned char *)m, 256, bm);
        BN_one(R);
        BN_lshift(R, R, 27 * D);
        BN_mod_inverse(Ri, bm, R, ctx); /* m^-1 mod R */
        BN_sub(np, R, Ri);
        BN_mod_inverse(Ri, R, bm, ctx); /* R^-1 mod m */
        quill_limb l[33];
        quill_d27_mod_init(&md, m); /* N' by Newton's iteration, checked below */
        {
            uint64_t dd[D];
            memset(l, 0, sizeof l);
            bn_to_limbs(l, 33, np);
            quill_d27_from_limbs(dd, l, 33);
            for (int j = 0; j < D; j++) /* N' against BN's, copy 0 and copy 3 */
                fails += md.nprev[16 + 75 - j] != dd[j] ||
                         md.nprev[3 * QUILL_D27_RW + 16 + 75 - j - 3] != dd[j];
        }
        /* a < m, a = m - 1, chains of 40 squarings */
        for (int start = 0; start < 3; start++) {
            if (start == 0) {
                BN_rand_range(x, bm);
            } else if (start == 1) {
                BN_sub(x, bm, BN_value_one());
            } else {
                BN_zero(x);
                BN_set_bit(x, 2050); /* above m, below 2^2051 */
                BN_sub_word(x, 1);
            }
            memset(l, 0, sizeof l);
            bn_to_limbs(l, 33, x);
            quill_d27_from_limbs(xd, l, 33);
            for (int it = 0; it < 40; it++) {
                mont_sqr_d27_public(xd, xd, &md);
                BN_mod_mul(x, x, x, bm, ctx);
                BN_mod_mul(x, x, Ri, bm, ctx);
                d27_to_bn(y, xd);
                BN_mod(t, y, bm, ctx);
                checks++;
                int bad = BN_cmp(t, x) != 0;
                BN_one(t);
                BN_lshift(t, t, 2051);
                bad |= BN_cmp(y, t) >= 0;
                for (int k = 0; k < D; k++)
                    bad |= xd[k] >= (1ull << 28) + (1ull << 10);
                if (bad && fails++ < 5)
                    printf("FAIL key %d start %d step %d\n", key, start, it);
            }
        }
    }
    printf("checks %ld, failures %ld\n", checks, fails);

    /* timing: the last modulus, chains of CALLS squarings, alternating */
    for (int i = 0; i < 32; i++)
        xa[i] = bench_next64();
    xa[31] >>= 1;
    n0 = ab_n0(m[0]);
    quill_d27_from_limbs(xd, xa, 32);
    if (count) { /* valgrind --tool=callgrind: Ir per call = inclusive / 1,000 */
        for (int i = 0; i < 1000; i++) {
            quill_mont_sqr_adx_public_32(xa, xa, m, n0, 32);
            mont_sqr_d27_public(xd, xd, &md);
        }
        printf("count: 1,000 calls of each\n");
        return fails != 0;
    }
    double *ta = malloc(sizeof(double) * (size_t)rounds * 50), *tb = ta + rounds * 25;
    int nr = rounds * 25;
    for (int i = 0; i < 200; i++) {
        run_adx();
        run_d27();
    }
    for (int i = 0; i < nr; i++) {
        ta[i] = (double)run_adx() / CALLS;
        tb[i] = (double)run_d27() / CALLS;
    }
    printf("chain of %d squarings, %d rounds: ", CALLS, nr);
    print_ab("MULX public", ta, "d27", tb, nr);
    printf("\n");
    /* quill_mont_exp_public, e = 65537: a private-type context (no d27
     * form: the MULX squarings) against a public one (the d27 path) */
    {
        quill_mont *mx = quill_mont_new(m, 32), *md27 = quill_mont_new_public(m, 32);
        quill_limb e = 65537, base[32], out1[32], out2[32];
        memcpy(base, xa, sizeof base);
        base[31] &= m[31] >> 1; /* below m */
        int ok = mx != NULL && md27 != NULL;
        for (int i = 0; ok && i < nr; i++) {
            uint64_t t0 = __rdtsc();
            ok &= quill_mont_exp_public(out1, base, &e, 1, mx);
            uint64_t t1 = __rdtsc();
            ok &= quill_mont_exp_public(out2, base, &e, 1, md27);
            uint64_t t2 = __rdtsc();
            ta[i] = (double)(t1 - t0);
            tb[i] = (double)(t2 - t1);
            ok &= memcmp(out1, out2, sizeof out1) == 0;
            base[0] ^= out1[0] & 0xff; /* the next base, below m */
        }
        printf("quill_mont_exp_public e = 65537, %d rounds: ", nr);
        print_ab("MULX", ta, "d27", tb, nr);
        printf("%s\n", ok ? "" : "  MISMATCH");
        fails += !ok;
        quill_mont_free(mx);
        quill_mont_free(md27);
        /* the context of a public modulus, with the d27 form at the AVX2
         * level (QUILL_CPU_MASK=0x30) and without it (0x34: AVX2 off) */
        for (int i = 0; i < nr; i++) {
            uint64_t t0 = __rdtsc();
            quill_mont *c = quill_mont_new_public(m, 32);
            uint64_t t1 = __rdtsc();
            quill_mont_free(c);
            ta[i] = (double)(t1 - t0);
        }
        double mn = median(ta, nr);
        printf("quill_mont_new_public (32 limbs): %.0f ticks (min %.0f)\n", mn, ta[0]);
    }
    free(ta);
    BN_free(bm), BN_free(R), BN_free(Ri), BN_free(np), BN_free(x), BN_free(y), BN_free(t);
    BN_CTX_free(ctx);
    return fails != 0;
}
