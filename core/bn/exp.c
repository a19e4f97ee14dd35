/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Modular exponentiation in the Montgomery domain. */
#include "bn/internal.h"
#include "bn/exp_ifma.h"
#include "bn/mont_d27x2_avx2.h"
#include "bn/mont_d27_avx2.h"
#include "bn/mont_d28x2_avx2.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/cpu.h"
#include "common/zeroize.h"

/* Bound on the window widths used in this file. */
#define QUILL_EXP_MAX_WINDOW 6

/* The constant-time table is stored interleaved: limb j of entry i is at
 * table[j * entries + i], so that a lookup reads each limb's entries
 * contiguously (the compiler vectorises the masked OR).
 * table_gather: r = entry idx, reading every entry with a mask so that the
 * addresses do not depend on idx. */
static void table_gather(quill_limb *r, const quill_limb *table, size_t entries, size_t n,
                         quill_limb idx) {
    quill_limb mask[1 << QUILL_EXP_MAX_WINDOW];
    for (size_t i = 0; i < entries; i++)
        mask[i] = quill_value_barrier_w(quill_ct_eq_mask((quill_limb)i, idx));
    for (size_t j = 0; j < n; j++) {
        const quill_limb *col = table + j * entries;
        quill_limb v = 0;
        for (size_t i = 0; i < entries; i++)
            v |= col[i] & mask[i];
        r[j] = v;
    }
    quill_zeroize(mask, sizeof(mask));
}

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
typedef uint64_t exp_lanes4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef int64_t exp_slanes4 __attribute__((vector_size(32)));

/* table_gather_avx2: table_gather with 32-byte vectors, for entries a
 * multiple of 8 up to 2^QUILL_EXP_MAX_WINDOW.  The masks come from vector
 * comparisons (VPCMPEQQ) of the running entry numbers with idx, made once
 * per gather; each limb is then entries / 4 masked loads ORed together in
 * two chains and one horizontal OR.  No branch or address depends on idx. */
__attribute__((target("avx2"))) static void table_gather_avx2(quill_limb *r,
                                                              const quill_limb *table,
                                                              size_t entries, size_t n,
                                                              quill_limb idx) {
    exp_lanes4 mask[(1 << QUILL_EXP_MAX_WINDOW) / 4];
    const exp_slanes4 want = {(int64_t)idx, (int64_t)idx, (int64_t)idx, (int64_t)idx};
    exp_slanes4 k = {0, 1, 2, 3};
    for (size_t c = 0; c < entries / 4; c++) {
        mask[c] = (exp_lanes4)(k == want);
        k += 4;
    }
    for (size_t j = 0; j < n; j++) {
        const exp_lanes4 *col = (const exp_lanes4 *)(table + j * entries);
        exp_lanes4 v0 = col[0] & mask[0], v1 = col[1] & mask[1];
        for (size_t c = 2; c < entries / 4; c += 2) {
            v0 |= col[c] & mask[c];
            v1 |= col[c + 1] & mask[c + 1];
        }
        v0 |= v1;
        r[j] = v0[0] | v0[1] | v0[2] | v0[3];
    }
    quill_zeroize(mask, sizeof(mask));
}

/* The 32-entry table of the 1024- to 2048-bit exponents (window 5): the
 * eight masks stay in registers (the other sizes keep them on the stack and
 * wipe them) and each limb is four OR chains of two masked loads. */
__attribute__((target("avx2"))) static void table_gather_avx2_32(quill_limb *r,
                                                                 const quill_limb *table,
                                                                 size_t n, quill_limb idx) {
    const exp_slanes4 want = {(int64_t)idx, (int64_t)idx, (int64_t)idx, (int64_t)idx};
    const exp_slanes4 k0 = {0, 1, 2, 3}, four = {4, 4, 4, 4};
    const exp_lanes4 m0 = (exp_lanes4)(k0 == want), m1 = (exp_lanes4)(k0 + four == want);
    const exp_lanes4 m2 = (exp_lanes4)(k0 + 2 * four == want);
    const exp_lanes4 m3 = (exp_lanes4)(k0 + 3 * four == want);
    const exp_lanes4 m4 = (exp_lanes4)(k0 + 4 * four == want);
    const exp_lanes4 m5 = (exp_lanes4)(k0 + 5 * four == want);
    const exp_lanes4 m6 = (exp_lanes4)(k0 + 6 * four == want);
    const exp_lanes4 m7 = (exp_lanes4)(k0 + 7 * four == want);
    for (size_t j = 0; j < n; j++) {
        const exp_lanes4 *col = (const exp_lanes4 *)(table + j * 32);
        exp_lanes4 v0 = (col[0] & m0) | (col[1] & m1);
        exp_lanes4 v1 = (col[2] & m2) | (col[3] & m3);
        exp_lanes4 v2 = (col[4] & m4) | (col[5] & m5);
        exp_lanes4 v3 = (col[6] & m6) | (col[7] & m7);
        v0 = (v0 | v1) | (v2 | v3);
        r[j] = (v0[0] | v0[1]) | (v0[2] | v0[3]);
    }
}

/* table_gather_fast: table_gather through the AVX2 body where the CPU has
 * AVX2 (QUILL_CPU_MASK may clear it) and entries is a multiple of 8. */
static void table_gather_fast(quill_limb *r, const quill_limb *table, size_t entries, size_t n,
                              quill_limb idx) {
    if (!quill_cpu_has(QUILL_CPU_X86_AVX2) || entries % 8 != 0)
        table_gather(r, table, entries, n, idx);
    else if (entries == 32)
        table_gather_avx2_32(r, table, n, idx);
    else
        table_gather_avx2(r, table, entries, n, idx);
}
#else
#define table_gather_fast table_gather
#endif

/* table_scatter: entry i = a (public i). */
static void table_scatter(quill_limb *table, size_t entries, size_t n, size_t i,
                          const quill_limb *a) {
    for (size_t j = 0; j < n; j++)
        table[j * entries + i] = a[j];
}

int quill_mont_exp_consttime(quill_limb *r, const quill_limb *a, const quill_limb *e,
                             size_t e_limbs, const quill_mont *mont) {
    size_t n = mont->n;
    size_t bits = 64 * e_limbs;
    unsigned w = quill_exp_consttime_window(bits);
    size_t entries = (size_t)1 << w;
    /* table: entries * n limbs (interleaved), then acc, tmp and am. */
    size_t total = (entries + 3) * n;
    quill_limb *table = quill_malloc(total * sizeof(quill_limb));
    if (table == NULL)
        return 0;
    quill_limb *acc = table + entries * n;
    quill_limb *tmp = acc + n;
    quill_limb *am = tmp + n;

    /* entry i = a^i R mod m */
    table_scatter(table, entries, n, 0, mont->one);
    quill_mont_to(am, a, mont);
    table_scatter(table, entries, n, 1, am);
    memcpy(acc, am, n * sizeof(quill_limb));
    for (size_t i = 2; i < entries; i++) {
        mont->mul(acc, acc, am, mont->m, mont->n0, n);
        table_scatter(table, entries, n, i, acc);
    }

    /* Left to right over windows of w bits; the top window may be short. */
    size_t windows = (bits + w - 1) / w;
    if (windows == 0) {
        memcpy(acc, mont->one, n * sizeof(quill_limb));
    } else {
        size_t pos = (windows - 1) * w;
        table_gather_fast(acc, table, entries, n, quill_bn_bits(e, e_limbs, pos, w));
        while (pos > 0) {
            pos -= w;
            for (unsigned k = 0; k < w; k++)
                mont->sqr(acc, acc, mont->m, mont->n0, n);
            table_gather_fast(tmp, table, entries, n, quill_bn_bits(e, e_limbs, pos, w));
            mont->mul(acc, acc, tmp, mont->m, mont->n0, n);
        }
    }
    quill_mont_from(r, acc, mont);
    quill_zeroize(table, total * sizeof(quill_limb));
    quill_free(table);
    return 1;
}

int quill_mont_exp_consttime_x2(quill_limb *r0, const quill_limb *a0, const quill_limb *e0,
                                const quill_mont *mont0, quill_limb *r1, const quill_limb *a1,
                                const quill_limb *e1, const quill_mont *mont1, size_t e_limbs) {
    if (mont0->n != mont1->n)
        return quill_mont_exp_consttime(r0, a0, e0, e_limbs, mont0) &&
               quill_mont_exp_consttime(r1, a1, e1, e_limbs, mont1);
    /* AVX-512 IFMA (radix 2^52) for the RSA CRT sizes, when the CPU has it. */
    if (quill_mont_exp_x2_ifma_capable(mont0->n))
        return quill_mont_exp_consttime_x2_ifma(r0, a0, e0, mont0, r1, a1, e1, mont1, e_limbs);
#if QUILL_BN_HAVE_D28X2
    /* AVX2 (radix 2^28, two-way) for 1024-bit halves. */
    if (quill_mont_exp_x2_d28_capable(mont0->n))
        return quill_mont_exp_consttime_x2_d28(r0, a0, e0, mont0, r1, a1, e1, mont1, e_limbs);
    /* AVX2 (radix 2^27, two-way) for 1536-bit halves, */
    if (quill_mont_exp_x2_d27_capable(mont0->n))
        return quill_mont_exp_consttime_x2_d27(r0, a0, e0, mont0, r1, a1, e1, mont1, e_limbs);
    /* and for 2048-bit halves. */
    if (quill_mont_exp_x2_d27_32_capable(mont0->n))
        return quill_mont_exp_consttime_x2_d27_32(r0, a0, e0, mont0, r1, a1, e1, mont1, e_limbs);
#endif
    size_t n = mont0->n;
    size_t bits = 64 * e_limbs;
    unsigned w = quill_exp_consttime_window(bits);
    size_t entries = (size_t)1 << w;
    /* per lane: a table of entries * n limbs (interleaved), acc, tmp, am */
    size_t lane = (entries + 3) * n, total = 2 * lane;
    quill_limb *mem = quill_malloc(total * sizeof(quill_limb));
    if (mem == NULL)
        return 0;
    const quill_mont *mont[2] = {mont0, mont1};
    const quill_limb *a[2] = {a0, a1}, *e[2] = {e0, e1};
    const quill_limb *const m[2] = {mont0->m, mont1->m};
    const quill_limb n0[2] = {mont0->n0, mont1->n0};
    quill_limb *table[2], *acc[2], *tmp[2], *am[2];
    for (int l = 0; l < 2; l++) {
        table[l] = mem + (size_t)l * lane;
        acc[l] = table[l] + entries * n;
        tmp[l] = acc[l] + n;
        am[l] = tmp[l] + n;
    }
    const quill_limb *const rr[2] = {mont0->rr, mont1->rr};
    const quill_limb *const cam[2] = {am[0], am[1]}, *const cacc[2] = {acc[0], acc[1]};
    const quill_limb *const ctmp[2] = {tmp[0], tmp[1]};

    /* entry i = a^i R mod m, both lanes */
    mont0->mul_x2(am, a, rr, m, n0, n);
    for (int l = 0; l < 2; l++) {
        table_scatter(table[l], entries, n, 0, mont[l]->one);
        table_scatter(table[l], entries, n, 1, am[l]);
        memcpy(acc[l], am[l], n * sizeof(quill_limb));
    }
    for (size_t i = 2; i < entries; i++) {
        mont0->mul_x2(acc, cacc, cam, m, n0, n);
        for (int l = 0; l < 2; l++)
            table_scatter(table[l], entries, n, i, acc[l]);
    }

    /* Left to right over windows of w bits; the top window may be short. */
    size_t windows = (bits + w - 1) / w;
    if (windows == 0) {
        for (int l = 0; l < 2; l++)
            memcpy(acc[l], mont[l]->one, n * sizeof(quill_limb));
    } else {
        size_t pos = (windows - 1) * w;
        for (int l = 0; l < 2; l++)
            table_gather_fast(acc[l], table[l], entries, n, quill_bn_bits(e[l], e_limbs, pos, w));
        while (pos > 0) {
            pos -= w;
            for (unsigned k = 0; k < w; k++)
                mont0->sqr_x2(acc, cacc, m, n0, n);
            for (int l = 0; l < 2; l++)
                table_gather_fast(tmp[l], table[l], entries, n, quill_bn_bits(e[l], e_limbs, pos, w));
            mont0->mul_x2(acc, cacc, ctmp, m, n0, n);
        }
    }
    quill_mont_from(r0, acc[0], mont0);
    quill_mont_from(r1, acc[1], mont1);
    quill_zeroize(mem, total * sizeof(quill_limb));
    quill_free(mem);
    return 1;
}

/* Limbs of the vartime exponentiation's table kept on the stack: the three
 * values of a window of one bit up to 64-limb (4096-bit) moduli. */
#define QUILL_EXP_VARTIME_STACK_LIMBS (3 * 64)

/* Window width for a public exponent of |bits| bits (sliding window over
 * odd powers). */
static unsigned vartime_window(size_t bits) {
    if (bits > 512)
        return 5;
    if (bits > 128)
        return 4;
    if (bits > 32)
        return 3;
    return 1;
}

/* The sliding-window exponentiation of quill_mont_exp_vartime and
 * quill_mont_exp_public, its squarings by |sqr|: mont->sqr (constant time
 * in a) or mont->sqr_public (whose outputs are below R, not always below m:
 * every product below then has one operand below R and the other below R
 * or m, so the kernels' one conditional subtraction keeps each result
 * below R, and the last product, by a < m, below m).  |public_base|: a is
 * public, the table is not wiped. */
static int exp_window_vartime(quill_limb *r, const quill_limb *a, const quill_limb *e,
                              size_t e_limbs, const quill_mont *mont, quill_mont_sqr_fn sqr,
                              int public_base) {
    size_t n = mont->n;
    size_t bits = quill_bn_num_bits_public(e, e_limbs);
    if (bits == 0) {
        quill_mont_from(r, mont->one, mont);
        return 1;
    }
    /* AVX-512 IFMA, where the CPU has it, for the RSA sizes (exp_ifma.h) */
    if (quill_mont_exp_x1_ifma_capable(n) && quill_mont_exp_vartime_x1_ifma(r, a, e, e_limbs, mont))
        return 1;
    unsigned w = vartime_window(bits);
    size_t odd = (size_t)1 << (w - 1);
    /* table of odd powers a, a^3, ..., a^(2^w - 1), then acc and a^2.  A
     * short public exponent (w = 1: e = 3, 65537, RSA verification) needs
     * three values, kept on the stack; larger tables are allocated. */
    size_t total = (odd + 2) * n;
    quill_limb small[QUILL_EXP_VARTIME_STACK_LIMBS];
    quill_limb *table = small;
    if (total > QUILL_EXP_VARTIME_STACK_LIMBS) {
        table = quill_malloc(total * sizeof(quill_limb));
        if (table == NULL)
            return 0;
    }
    quill_limb *acc = table + odd * n;
    quill_limb *sq = acc + n;
    quill_mont_to(table, a, mont);
    if (odd > 1) {
        sqr(sq, table, mont->m, mont->n0, n);
        for (size_t i = 1; i < odd; i++)
            mont->mul(table + i * n, table + (i - 1) * n, sq, mont->m, mont->n0, n);
    }

    /* The top bit is set: start from the window that contains it. */
    size_t i = bits; /* bits still to process are [0, i) */
    int started = 0, done = 0;
    while (i > 0) {
        size_t bit = i - 1;
        if (((e[bit / 64] >> (bit % 64)) & 1) == 0) {
            if (started)
                sqr(acc, acc, mont->m, mont->n0, n);
            i--;
            continue;
        }
        /* A window [low, i) of at most w bits whose lowest bit is set. */
        size_t low = i >= w ? i - w : 0;
        while (((e[low / 64] >> (low % 64)) & 1) == 0)
            low++;
        size_t len = i - low;
        quill_limb val = quill_bn_bits(e, e_limbs, low, (unsigned)len);
        if (started) {
            for (size_t k = 0; k < len; k++)
                sqr(acc, acc, mont->m, mont->n0, n);
            if (low == 0 && val == 1) {
                /* The last step multiplies by a itself (always so for an
                 * odd exponent such as 65537 with w = 1): use a in the
                 * normal domain, acc a R R^-1 = a^e, which saves the
                 * conversion out of the Montgomery domain. */
                mont->mul(r, acc, a, mont->m, mont->n0, n);
                done = 1;
            } else {
                mont->mul(acc, acc, table + (val >> 1) * n, mont->m, mont->n0, n);
            }
        } else {
            memcpy(acc, table + (val >> 1) * n, n * sizeof(quill_limb));
            started = 1;
        }
        i = low;
    }
    if (!done)
        quill_mont_from(r, acc, mont);
    if (!public_base)
        quill_zeroize(table, total * sizeof(quill_limb));
    if (table != small)
        quill_free(table);
    return 1;
}

int quill_mont_exp_vartime(quill_limb *r, const quill_limb *a, const quill_limb *e,
                           size_t e_limbs, const quill_mont *mont) {
    return exp_window_vartime(r, a, e, e_limbs, mont, mont->sqr, 0);
}

#if QUILL_BN_HAVE_D27
/* k = log2(e - 1) when e = 2^k + 1 with 8 <= k < 64 (65537 = 2^16 + 1), else 0. */
static unsigned exp_f4_shape(const quill_limb *e, size_t e_limbs) {
    for (size_t i = 1; i < e_limbs; i++)
        if (e[i] != 0)
            return 0;
    quill_limb x = e[0] - 1;
    if ((e[0] & 1) == 0 || x < 256 || (x & (x - 1)) != 0)
        return 0;
    return (unsigned)__builtin_ctzll(x);
}

/* r = a^(2^k + 1) mod m for a public a < m and an n-limb m with the d27
 * form: a R' (R' = 2^(27 D) = 2^s R) by one MULX product with R' R mod m, k
 * squarings in radix 2^27 (quill_mont_sqr_d27_avx2_public), then the
 * product by a itself, a^(2^k) R' a R'^-1, which also leaves the domain.
 * At 3072 and 4096 bits that product runs in radix 2^27 too
 * (quill_mont_mul_d27_avx2_public; its result, below 2.38 m, is reduced by
 * at most two subtractions): 0.5% / 1.6% faster verifications than the
 * MULX product, but 1.1% slower at 2048 bits (docs/limits.md), which
 * takes y = a^(2^k) R' + j m back in limbs, divides it by 2^s mod m as an
 * s-bit Montgomery reduction, (y + t m) / 2^s with t = y (-m^-1) mod 2^s,
 * for a^(2^k) R mod m up to a multiple of m, and multiplies by a with
 * MULX.  Variable time: public values only. */
static void exp_f4_d27(quill_limb *r, const quill_limb *a, unsigned k, const quill_mont *mont,
                       const quill_d27_mod *md) {
    const quill_limb *m = mont->m;
    size_t n = mont->n, D = md->digits;
    quill_limb y[64 + 1];
    uint64_t x[QUILL_D27_MAX_DIGITS] __attribute__((aligned(32)));
    mont->mul(y, a, quill_d27_rr(md), m, mont->n0, n); /* a R' mod m */
    quill_d27_from_limbs(x, D, y, n);
    for (unsigned i = 0; i < k; i++)
        quill_mont_sqr_d27_avx2_public(x, x, md);
    if (n >= 48) {
        uint64_t arev[4 * (QUILL_D27_MAX_DIGITS + 36)] __attribute__((aligned(32)));
        uint64_t ad[QUILL_D27_MAX_DIGITS];
        quill_d27_from_limbs(ad, D, a, n);
        quill_d27_rev(arev, ad, D);
        quill_mont_mul_d27_avx2_public(x, x, arev, md);
        quill_d27_to_limbs(y, x, D); /* n + 1 limbs, below 2.38 m */
        while (y[n] != 0 || !quill_bn_lt_public(y, m, n)) /* y >= m */
            y[n] -= quill_bn_sub(y, y, m, n);
        memcpy(r, y, n * sizeof(quill_limb));
        return;
    }
    unsigned s = md->shift;
    quill_d27_to_limbs(y, x, D); /* n + 1 limbs, below 6.01 R */
    quill_limb t = (y[0] * mont->n0) & (((quill_limb)1 << s) - 1), c = 0;
    for (size_t j = 0; j < n; j++) {
        quill_dlimb v = (quill_dlimb)m[j] * t + y[j] + c;
        y[j] = (quill_limb)v;
        c = (quill_limb)(v >> 64);
    }
    y[n] += c; /* y + t m < 6.01 R + 2^s R: no carry out for s <= 62 */
    for (size_t j = 0; j < n; j++)
        y[j] = (y[j] >> s) | (y[j + 1] << (64 - s));
    y[n] >>= s;
    /* y < 6.01 R / 2^s + m < 0.76 R + m: below R after at most one
     * subtraction (the product below needs one operand < R) */
    if (y[n] != 0)
        (void)quill_bn_sub(y, y, m, n);
    mont->mul(r, y, a, m, mont->n0, n);
}
#endif

int quill_mont_exp_public(quill_limb *r, const quill_limb *a, const quill_limb *e,
                          size_t e_limbs, const quill_mont *mont) {
#if QUILL_BN_HAVE_D27
    unsigned k;
    const quill_d27_mod *md;
    /* The context has the d27 space only where the CPU has AVX2 and not
     * the IFMA exponentiation (mont.c decides that once). */
    if ((k = exp_f4_shape(e, e_limbs)) != 0 && (md = quill_mont_d27_use(mont)) != NULL) {
        exp_f4_d27(r, a, k, mont, md);
        return 1;
    }
#endif
    return exp_window_vartime(r, a, e, e_limbs, mont, mont->sqr_public, 1);
}
