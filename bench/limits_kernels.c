/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: ticks per kernel call (see limits.h), each through the
 * entry point the operations use, so that QUILL_CPU_MASK picks the same
 * backend for both:
 *   keccak.x4.avx2 / keccak.x4.avx512vl / keccak.x4.avx512vl_asm /
 *   keccak.x4   one four-way Keccak-f[1600] (four states) per call, by
 *       backend and dispatched
 *   keccak.x1.avx512vl_asm   the single-state variant of the assembly
 *       (dispatched where it is built)
 *   keccak.x1          one Keccak-f[1600] (dispatched)
 *   mldsa.ntt / mldsa.invntt   one 256-coefficient NTT / inverse NTT
 *   mldsa.dot_mont.l           one row of the matrix-vector product A y
 *       (l pointwise products summed, one reduction)
 *   p256.fe_mul / p256.fe_sqr  one field multiplication / squaring, as a
 *       dependent chain (each result is the next input: latency-bound)
 *   p256.madd / p256.dbl       one mixed addition / doubling (chain)
 *   p256.madd_vt / p256.dbl_vt the variable-time ones of verification
 *   p256.fe_inv / p256.scalar_inv   one constant-time inversion mod p / n
 *   p256.inv_pair              Z^-1 mod p and k^-1 mod n together (signing)
 *   p256.mul_base              one k G (the fixed-base multiplication)
 *   bn.mont_mul.B / bn.mont_sqr.B   one B-bit Montgomery product (dispatched:
 *       MULX/ADX when present)
 *   bn.exp_x2.B        the two-way constant-time exponentiation of two B-bit
 *       halves with B-bit exponents (the CRT core of RSA-2B signing)
 *   bn.exp_x2_window.B the marginal ticks of one more exponent window of
 *       5 bits in it (5 two-way squarings, one product and one table gather),
 *       from exponents of 2B and B bits
 *   bn.exp_f4.B        x^65537 mod a B-bit modulus (RSA verification's core)
 *   bn.exp_f4_sqr.B    the marginal ticks of one modular squaring there,
 *       from x^(2^48+1) against x^65537 (32 more squarings) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_fill.h"
#include "bn/bn.h"
#include "bn/exp_ifma.h"
#include "common/cpu.h"
#include "ec/p256_fe.h"
#include "ec/p256_point.h"
#include "ec/p256_scalar.h"
#include "ec/p256_verify_point.h"
#include "limits.h"
#include "mldsa/ntt.h"
#include "sha3/keccak.h"
#include "sha3/sha3_x4.h"

static volatile uint64_t g_sink;

/* ---- Keccak ---- */

typedef struct {
    void (*f)(uint64_t *);
    _Alignas(64) uint64_t s[100];
} keccak_ctx;

static void run_keccak(void *c, unsigned iters) {
    keccak_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        k->f(k->s);
}

static void kernels_keccak(void) {
    static keccak_ctx k;
    memset(k.s, 0, sizeof(k.s));
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx2_capable()) {
        k.f = quill_keccak_f1600_x4_avx2;
        limits_measure("keccak.x4.avx2", "ticks/call", "4 states per call", run_keccak, &k, 200,
                       400, 1);
    }
    if (quill_keccak_f1600_x4_avx512vl_capable()) {
        k.f = quill_keccak_f1600_x4_avx512vl;
        limits_measure("keccak.x4.avx512vl", "ticks/call", "4 states per call", run_keccak, &k,
                       200, 400, 1);
#if QUILL_KECCAK_HAVE_AVX512_ASM
        k.f = quill_keccak_f1600_x4_avx512vl_asm;
        limits_measure("keccak.x4.avx512vl_asm", "ticks/call", "4 states per call", run_keccak,
                       &k, 200, 400, 1);
        k.f = quill_keccak_f1600_avx512vl_asm;
        limits_measure("keccak.x1.avx512vl_asm", "ticks/call", "1 state (xmm), dispatched",
                       run_keccak, &k, 200, 400, 1);
#endif
    }
#endif
    k.f = quill_keccak_f1600_x4;
    limits_measure("keccak.x4", "ticks/call", "dispatched, 4 states per call", run_keccak, &k,
                   200, 400, 1);
    k.f = quill_keccak_f1600;
    limits_measure("keccak.x1", "ticks/call", "dispatched, 1 state", run_keccak, &k, 200, 400, 1);
    g_sink += k.s[0];
}

/* ---- ML-DSA NTT ---- */

typedef struct {
    void (*f)(int32_t *);
    _Alignas(64) int32_t a[QUILL_MLDSA_N];
} ntt_ctx;

static void run_ntt(void *c, unsigned iters) {
    ntt_ctx *k = c;
    for (unsigned i = 0; i < iters; i++) {
        k->f(k->a);
        /* keep the coefficients in range for the next call */
        for (unsigned j = 0; j < QUILL_MLDSA_N; j += 64)
            k->a[j] %= 8380417;
    }
}

typedef struct {
    unsigned n;
    _Alignas(64) int32_t r[QUILL_MLDSA_N], a[8 * QUILL_MLDSA_N], b[8 * QUILL_MLDSA_N];
} dot_ctx;

static void run_dot(void *c, unsigned iters) {
    dot_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_mldsa_dot_mont(k->r, k->a, k->b, k->n);
}

/* quill_mldsa_ntt_lazy_from of a fixed s1-like input (|s1_i| <= 4, its
 * contract: ntt.h) into a; key generation calls it in place, at the same
 * cost. */
static int32_t g_s1[QUILL_MLDSA_N];
static void ntt_lazy_in_place(int32_t a[QUILL_MLDSA_N]) {
    quill_mldsa_ntt_lazy_from(a, g_s1);
}

static void kernels_ntt(void) {
    static ntt_ctx k;
    for (unsigned j = 0; j < QUILL_MLDSA_N; j++)
        k.a[j] = (int32_t)(bench_next64() % 8380417);
    k.f = quill_mldsa_ntt;
    limits_measure("mldsa.ntt", "ticks/call", "dispatched", run_ntt, &k, 200, 400, 1);
    for (unsigned j = 0; j < QUILL_MLDSA_N; j++)
        g_s1[j] = (int32_t)(bench_next64() % 9) - 4;
    k.f = ntt_lazy_in_place;
    limits_measure("mldsa.ntt_lazy", "ticks/call", "dispatched, Shoup products (key generation)",
                   run_ntt, &k, 200, 400, 1);
    k.f = quill_mldsa_invntt_tomont;
    limits_measure("mldsa.invntt", "ticks/call", "dispatched", run_ntt, &k, 200, 400, 1);
    g_sink += (uint64_t)k.a[0];
    static dot_ctx d;
    for (unsigned j = 0; j < 8 * QUILL_MLDSA_N; j++) {
        d.a[j] = (int32_t)(bench_next64() % 8380417);
        d.b[j] = (int32_t)(bench_next64() % 8380417);
    }
    static const unsigned ls[] = {4, 5, 7};
    for (int i = 0; i < 3; i++) {
        char name[32];
        d.n = ls[i];
        snprintf(name, sizeof(name), "mldsa.dot_mont.%u", ls[i]);
        limits_measure(name, "ticks/call", "one row of A times a vector of l polynomials",
                       run_dot, &d, 100, 300, 1);
    }
    g_sink += (uint64_t)d.r[0];
}

/* ---- P-256 ---- */

typedef struct {
    quill_p256_fe a, b;
    quill_p256_jacobian p;
    quill_p256_affine g;
    quill_p256_scalar_plain k;
    quill_p256_scalar s;
} p256_ctx;

static void run_fe_mul(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_fe_mul(&k->a, &k->a, &k->b);
}

static void run_fe_sqr(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_fe_sqr(&k->a, &k->a);
}

static void run_madd(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_point_add_mixed(&k->p, &k->p, &k->g, 0);
}

static void run_dbl(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_point_double(&k->p, &k->p);
}

static void run_madd_vt(void *c, unsigned iters) {
    p256_ctx *k = c;
    const int adx = quill_p256_adx_capable();
    for (unsigned i = 0; i < iters; i++)
        vt_madd_x(&k->p, &k->p, &k->g, adx);
}

static void run_dbl_vt(void *c, unsigned iters) {
    p256_ctx *k = c;
    vt_double_n(&k->p, &k->p, (int)iters, quill_p256_adx_capable());
}

static void run_fe_inv(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_fe_inv(&k->a, &k->a);
}

static void run_scalar_inv(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_scalar_inv_consttime(&k->s, &k->s);
}

static void run_inv_pair(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_p256_inv_pair_consttime(&k->a, &k->a, &k->s, &k->s);
}

static void run_mul_base(void *c, unsigned iters) {
    p256_ctx *k = c;
    for (unsigned i = 0; i < iters; i++) {
        quill_p256_point_mul_base(&k->p, &k->k);
        k->k.v[0] ^= k->p.x.v[0] & 0xff; /* next scalar (stays below n) */
    }
}

static void kernels_p256(void) {
    static p256_ctx k;
    quill_p256_generator(&k.g);
    /* p = 2G, so that adding G never meets the doubling case */
    quill_p256_point_from_affine(&k.p, &k.g);
    quill_p256_point_double(&k.p, &k.p);
    k.a = k.g.x;
    k.b = k.g.y;
    for (int i = 0; i < 4; i++)
        k.k.v[i] = bench_next64();
    k.k.v[3] >>= 1; /* below n */
    quill_p256_scalar_to_mont(&k.s, &k.k);
    limits_measure("p256.fe_mul", "ticks/call", "dependent chain", run_fe_mul, &k, 1000, 400, 1);
    limits_measure("p256.fe_sqr", "ticks/call", "dependent chain", run_fe_sqr, &k, 1000, 400, 1);
    limits_measure("p256.madd", "ticks/call", "mixed addition, constant time, chain", run_madd,
                   &k, 200, 400, 1);
    limits_measure("p256.dbl", "ticks/call", "doubling, chain", run_dbl, &k, 200, 400, 1);
    limits_measure("p256.madd_vt", "ticks/call", "mixed addition, variable time (verification)",
                   run_madd_vt, &k, 200, 400, 1);
    limits_measure("p256.dbl_vt", "ticks/call", "doubling, variable time, runs of 64",
                   run_dbl_vt, &k, 64, 400, 1);
    limits_measure("p256.fe_inv", "ticks/call", "constant-time divsteps", run_fe_inv, &k, 20,
                   300, 1);
    limits_measure("p256.scalar_inv", "ticks/call", "mod n, constant time", run_scalar_inv, &k,
                   20, 300, 1);
    limits_measure("p256.inv_pair", "ticks/call", "Z^-1 mod p and k^-1 mod n, paired (signing)",
                   run_inv_pair, &k, 20, 300, 1);
    limits_measure("p256.mul_base", "ticks/call", "k G, constant time", run_mul_base, &k, 10,
                   300, 1);
    g_sink += k.a.v[0] + k.p.x.v[0];
}

/* ---- Montgomery arithmetic and exponentiation ---- */

#define MAXN QUILL_BN_MAX_LIMBS

typedef struct {
    size_t n, e_limbs;
    quill_mont *m0, *m1;
    quill_limb a[MAXN], b[MAXN], r[MAXN], a1[MAXN], r1[MAXN];
    quill_limb e0[2 * MAXN], e1[2 * MAXN];
} bn_ctx;

static void run_mont_mul(void *c, unsigned iters) {
    bn_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_mont_mul(k->a, k->a, k->b, k->m0);
}

static void run_mont_sqr(void *c, unsigned iters) {
    bn_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_mont_sqr(k->a, k->a, k->m0);
}

static void run_exp_x2(void *c, unsigned iters) {
    bn_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_sink += (uint64_t)quill_mont_exp_consttime_x2(k->r, k->a, k->e0, k->m0, k->r1, k->a1,
                                                         k->e1, k->m1, k->e_limbs);
}

static void run_exp_vt(void *c, unsigned iters) {
    bn_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_sink += (uint64_t)quill_mont_exp_vartime(k->r, k->a, k->e0, 1, k->m0);
}

static quill_mont *random_mont(size_t n) {
    quill_limb m[MAXN];
    for (size_t i = 0; i < n; i++)
        m[i] = bench_next64();
    m[0] |= 1;
    m[n - 1] |= (quill_limb)1 << 63;
    return quill_mont_new_public(m, n);
}

/* bits: the size of one modulus (a CRT half for exp_x2, the whole modulus
 * for the products and exp_f4). */
static void kernels_bn_size(size_t bits, int x2, int products) {
    static bn_ctx k;
    char name[64], note[96];
    size_t n = bits / 64;
    k.n = n;
    k.m0 = random_mont(n);
    k.m1 = random_mont(n);
    if (k.m0 == NULL || k.m1 == NULL) {
        fprintf(stderr, "quill-limits: quill_mont_new_public failed\n");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        k.a[i] = bench_next64();
        k.b[i] = bench_next64();
        k.a1[i] = bench_next64();
    }
    k.a[n - 1] >>= 2;
    k.b[n - 1] >>= 2;
    k.a1[n - 1] >>= 2;
    for (size_t i = 0; i < 2 * n; i++) {
        k.e0[i] = bench_next64();
        k.e1[i] = bench_next64();
    }
    const char *adx = quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX) ? "MULX/ADX" : "C";
    if (products) {
        snprintf(name, sizeof(name), "bn.mont_mul.%zu", bits);
        snprintf(note, sizeof(note), "%s, dependent chain", adx);
        limits_measure(name, "ticks/call", note, run_mont_mul, &k, 100, 300, 1);
        snprintf(name, sizeof(name), "bn.mont_sqr.%zu", bits);
        limits_measure(name, "ticks/call", note, run_mont_sqr, &k, 100, 300, 1);
    }
    if (x2) {
        const char *b = quill_mont_exp_x2_ifma_capable(n) ? "IFMA two-way" : adx;
        snprintf(name, sizeof(name), "bn.exp_x2.%zu", bits);
        snprintf(note, sizeof(note), "%s, two %zu-bit halves", b, bits);
        k.e_limbs = n;
        double t1 = limits_measure(name, "ticks/call", note, run_exp_x2, &k, 1, 200, 1);
        k.e_limbs = 2 * n;
        snprintf(name, sizeof(name), "bn.exp_x2_window.%zu", bits);
        if (limits_wanted(name) && t1 > 0) {
            char n2[64];
            snprintf(n2, sizeof(n2), "bn.exp_x2_2e.%zu", bits);
            double t2 = limits_measure(n2, "ticks/call", "exponents of 2B bits", run_exp_x2, &k,
                                       1, 200, 1);
            /* windows of 5 bits: ceil(64 e / 5) */
            double w1 = (double)((64 * n + 4) / 5), w2 = (double)((128 * n + 4) / 5);
            double per = (t2 - t1) / (w2 - w1);
            printf("%s\t%.1f\t%.1f\tticks/window\t%s: (exp_x2_2e - exp_x2) / %.0f windows\n",
                   name, per, per, b, w2 - w1);
        }
    } else {
        const char *b = quill_mont_exp_x1_ifma_capable(n) ? "IFMA one-lane" : adx;
        snprintf(name, sizeof(name), "bn.exp_f4.%zu", bits);
        snprintf(note, sizeof(note), "%s, e = 65537", b);
        memset(k.e0, 0, sizeof(k.e0));
        k.e0[0] = 65537;
        double t1 = limits_measure(name, "ticks/call", note, run_exp_vt, &k, 20, 200, 1);
        snprintf(name, sizeof(name), "bn.exp_f4_sqr.%zu", bits);
        if (limits_wanted(name) && t1 > 0) {
            char n2[64];
            snprintf(n2, sizeof(n2), "bn.exp_e49.%zu", bits);
            k.e0[0] = ((quill_limb)1 << 48) + 1;
            double t2 = limits_measure(n2, "ticks/call", "e = 2^48 + 1", run_exp_vt, &k, 20,
                                       200, 1);
            double per = (t2 - t1) / 32;
            printf("%s\t%.1f\t%.1f\tticks/squaring\t%s: (exp_e49 - exp_f4) / 32\n", name, per,
                   per, b);
        }
    }
    quill_mont_free(k.m0);
    quill_mont_free(k.m1);
}

void limits_kernels(void) {
    kernels_keccak();
    kernels_ntt();
    kernels_p256();
    /* CRT halves of RSA-2048/3072/4096, then the whole moduli */
    kernels_bn_size(1024, 1, 1);
    kernels_bn_size(1536, 1, 1);
    kernels_bn_size(2048, 1, 1);
    kernels_bn_size(2048, 0, 0);
    kernels_bn_size(3072, 0, 1);
    kernels_bn_size(4096, 0, 1);
}
