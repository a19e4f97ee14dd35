/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_d27_ab: an experiment of issue 24 (docs/limits.md, "A one-lane
 * radix-2^27 AVX2 squaring for verification" and "... at 3072 and 4096
 * bits").  A one-lane 2048-, 3072- or 4096-bit Montgomery squaring for
 * public operands in radix 2^27 with AVX2 VPMULUDQ (76, 116 or 152 digits,
 * R = 2^(27 D), four digits of one number per vector, columns
 * summed in 64-bit lanes, the multiplicand stored reversed so that one
 * multiplier vector times a loaded window adds four products of the same
 * column), checked against OpenSSL's BN and timed against
 * quill_mont_sqr_adx_public_N in the same process.  Not a test; needs
 * AVX2, BMI2 and ADX.
 *
 *   mont_d27_ab [ROUNDS [BITS]]   (default 31, at most 201; BITS 2048
 *                                  (default), 3072 or 4096)
 *   mont_d27_ab count [BITS]      (1,000 calls of each, for callgrind)
 *
 * Layout.  x[0..D-1] digits of 27 bits (x_k may reach 2^28 + 2^10 after one
 * carry pass), D / 4 vectors.  Column k of a b: the multiplier vector s
 * (a_4s .. a_4s+3) times the window (b_k-4s, .., b_k-4s-3), read at
 * brev + Z + D - 1 - k + 4s from brev[Z + D - 1 - j] = b_j with zeros
 * around it.
 * Eight columns per block in registers, the multiplier vector loaded once
 * per block step; four lanes per column added at the end (8 instructions
 * per four columns).  The squaring forms each cross product once (the
 * doubled copy 2a reversed; the vector on the diagonal by masks).
 * Reduction as the two-way kernels: U = (T mod R) N' mod R (a low half
 * product), then the columns of U m from D - 4 up; T + U m = 0 mod R and
 * its carry into column D is ceil((w_{D-1} 2^27 + w_{D-2}) / 2^54).  Carries by one
 * parallel pass: each 64-bit column split in three 27-bit parts for the
 * digit and its next two (unaligned loads line them up).  Bounds: digits
 * < 2^28 + 2^10, products < 2^56.0001, a column of T (squaring: the doubled
 * half) < D 2^56.0001, of U m < D 2^55.0001: w_k < 1.5 D 2^56.0001 < 2^64
 * (2^63.84 at D = 152).  Inputs below 2^(64 n + 3) give outputs below
 * 6.01 2^(64 n) (almost Montgomery; core/bn/mont_d27_avx2.c).
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

#define DMAX QUILL_D27_MAX_DIGITS
#define M27 ((1ull << 27) - 1)
#define mont_sqr_d27_public quill_mont_sqr_d27_avx2_public

static size_t N = 32, D = 76; /* limbs, digits */

/* ---- conversions and the reference ---- */

/* Exact value of d (digits may exceed 27 bits) as a BIGNUM. */
static void d27_to_bn(BIGNUM *x, const uint64_t *d) {
    BIGNUM *t = BN_new();
    BN_zero(x);
    for (int k = (int)D - 1; k >= 0; k--) {
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

static quill_d27_mod *md;
static quill_limb m[64], n0, xa[64];
static uint64_t xd[DMAX] __attribute__((aligned(32)));

static void sqr_adx(quill_limb *r, const quill_limb *a) {
    if (N == 32)
        quill_mont_sqr_adx_public_32(r, a, m, n0, 32);
    else if (N == 48)
        quill_mont_sqr_adx_public_48(r, a, m, n0, 48);
    else
        quill_mont_sqr_adx_public_64(r, a, m, n0, 64);
}

#define CALLS 16

static uint64_t run_adx(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        sqr_adx(xa, xa);
    return __rdtsc() - t0;
}
static uint64_t run_d27(void) {
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < CALLS; i++)
        mont_sqr_d27_public(xd, xd, md);
    return __rdtsc() - t0;
}

int main(int argc, char **argv) {
    int count = argc > 1 && strcmp(argv[1], "count") == 0;
    int rounds = ab_rounds(argc > 1 && !count ? argv[1] : NULL);
    int bits = argc > 2 ? atoi(argv[2]) : 2048;
    if (bits != 2048 && bits != 3072 && bits != 4096) {
        printf("BITS: 2048, 3072 or 4096\n");
        return 2;
    }
    N = (size_t)bits / 64;
    D = quill_d27_digits(N);
    md = aligned_alloc(32, (quill_d27_mod_bytes(N) + 31) & ~(size_t)31);
    size_t RW = quill_d27_rw(D);
    if (!count && !quill_cpu_has(QUILL_CPU_X86_AVX2 | QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX)) {
        printf("needs AVX2, BMI2 and ADX\n");
        return 77;
    }
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *bm = BN_new(), *R = BN_new(), *Ri = BN_new(), *np = BN_new(), *x = BN_new(),
           *y = BN_new(), *t = BN_new();
    long checks = 0, fails = 0;
    for (int key = 0; key < 20; key++) {
        for (size_t i = 0; i < N; i++)
            m[i] = bench_next64();
        m[0] |= 1;
        m[N - 1] |= 1ull << 63;
        if (key == 1)
            for (size_t i = 0; i < N; i++) /* all-ones modulus */
                m[i] = ~0ull;
        BN_lebin2bn((const unsigned char *)m, (int)(8 * N), bm);
        BN_one(R);
        BN_lshift(R, R, (int)(27 * D));
        BN_mod_inverse(Ri, bm, R, ctx); /* m^-1 mod R */
        BN_sub(np, R, Ri);
        BN_mod_inverse(Ri, R, bm, ctx); /* R^-1 mod m */
        quill_limb l[65];
        quill_d27_mod_init(md, m, N); /* N' by Newton's iteration, checked below */
        {
            uint64_t dd[DMAX];
            const uint64_t *nprev = quill_d27_nprev(md);
            memset(l, 0, sizeof l);
            bn_to_limbs(l, N + 1, np);
            quill_d27_from_limbs(dd, D, l, N + 1);
            for (size_t j = 0; j < D; j++) /* N' against BN's, copy 0 and copy 3 */
                fails += nprev[16 + D - 1 - j] != dd[j] ||
                         nprev[3 * RW + 16 + D - 1 - j - 3] != dd[j];
        }
        /* a < m, a = m - 1, chains of 40 squarings */
        for (int start = 0; start < 3; start++) {
            if (start == 0) {
                BN_rand_range(x, bm);
            } else if (start == 1) {
                BN_sub(x, bm, BN_value_one());
            } else {
                BN_zero(x);
                BN_set_bit(x, (int)(64 * N + 3)); /* above m, the input bound */
                BN_sub_word(x, 1);
            }
            memset(l, 0, sizeof l);
            bn_to_limbs(l, N + 1, x);
            quill_d27_from_limbs(xd, D, l, N + 1);
            for (int it = 0; it < 40; it++) {
                mont_sqr_d27_public(xd, xd, md);
                BN_mod_mul(x, x, x, bm, ctx);
                BN_mod_mul(x, x, Ri, bm, ctx);
                d27_to_bn(y, xd);
                BN_mod(t, y, bm, ctx);
                checks++;
                int bad = BN_cmp(t, x) != 0;
                BN_one(t);
                BN_lshift(t, t, (int)(64 * N + 3));
                bad |= BN_cmp(y, t) >= 0;
                for (size_t k = 0; k < D; k++)
                    bad |= xd[k] >= (1ull << 28) + (1ull << 10);
                if (bad && fails++ < 5)
                    printf("FAIL key %d start %d step %d\n", key, start, it);
            }
        }
    }
    printf("checks %ld, failures %ld\n", checks, fails);

    /* timing: the last modulus, chains of CALLS squarings, alternating */
    for (size_t i = 0; i < N; i++)
        xa[i] = bench_next64();
    xa[N - 1] >>= 1;
    n0 = ab_n0(m[0]);
    quill_d27_from_limbs(xd, D, xa, N);
    if (count) { /* valgrind --tool=callgrind: Ir per call = inclusive / 1,000 */
        for (int i = 0; i < 1000; i++) {
            sqr_adx(xa, xa);
            mont_sqr_d27_public(xd, xd, md);
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
    printf("%d bits, chain of %d squarings, %d rounds: ", bits, CALLS, nr);
    print_ab("MULX public", ta, "d27", tb, nr);
    printf("\n");
    /* quill_mont_exp_public, e = 65537: a private-type context (no d27
     * form: the MULX squarings) against a public one (the d27 path) */
    {
        quill_mont *mx = quill_mont_new(m, N), *md27 = quill_mont_new_public(m, N);
        quill_limb e = 65537, base[64], out1[64], out2[64];
        memcpy(base, xa, sizeof base);
        base[N - 1] &= m[N - 1] >> 1; /* below m */
        int ok = mx != NULL && md27 != NULL;
        for (int i = 0; ok && i < nr; i++) {
            uint64_t t0 = __rdtsc();
            ok &= quill_mont_exp_public(out1, base, &e, 1, mx);
            uint64_t t1 = __rdtsc();
            ok &= quill_mont_exp_public(out2, base, &e, 1, md27);
            uint64_t t2 = __rdtsc();
            ta[i] = (double)(t1 - t0);
            tb[i] = (double)(t2 - t1);
            ok &= memcmp(out1, out2, N * sizeof(quill_limb)) == 0;
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
            quill_mont *c = quill_mont_new_public(m, N);
            uint64_t t1 = __rdtsc();
            quill_mont_free(c);
            ta[i] = (double)(t1 - t0);
        }
        double mn = median(ta, nr);
        printf("quill_mont_new_public (%zu limbs): %.0f ticks (min %.0f)\n", N, mn, ta[0]);
    }
    free(ta);
    free(md);
    BN_free(bm), BN_free(R), BN_free(Ri), BN_free(np), BN_free(x), BN_free(y), BN_free(t);
    BN_CTX_free(ctx);
    return fails != 0;
}
