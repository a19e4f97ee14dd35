/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The 16-bit challenge products of ntt16.h: the zeta tables, the pair
 * loaders, the portable transforms (8 lanes of int16, GCC/clang generic
 * vectors: SSE2 on baseline x86-64, NEON on AArch64) and the dispatch to
 * the AVX2 build (ntt16_avx2.c) or, on aarch64, the NEON assembly
 * (asm/aarch64/mldsa_ntt16_neon.S) on the CPU bit at each call.  The
 * transforms themselves are in ntt16_body.h, shared by both builds, which
 * give bit-identical results (test_mldsa_ntt16 compares them).
 *
 * Cost (Zen 4, gcc 12): one quill_mldsa_mulc16, two products, about 1000
 * TSC ticks portable and 500 with AVX2, less than one product of ntt.h's
 * 32-bit transforms costs in the same build. */
#include "ntt16.h"

#include <stddef.h>
#include <string.h>

#include "common/compiler.h"
#include "common/cpu.h"
#include "common/zeroize.h"

/* The zetas as lists (generated from zeta = 62 and checked by the test);
 * the tables with p^-1 derived by the compiler. */
#define ZETAS16_TOP(X) \
    X(0) X(3777) X(-3182) X(3625) X(-3696) X(-1100) X(2456) X(2194) X(121) X(-2250) X(834) \
    X(-2495) X(-2319) X(2876) X(-1701) X(1414) X(2816) X(-2088) X(-2237) X(1986) X(-1599) \
    X(1993) X(3706) X(-2006) X(-1525) X(-2557) X(1296) X(1483) X(-2830) X(3364) X(617) X(1921)

#define ZETAS16_ROWS(X) \
    {X(-3689, -1738, 3266, -3600, 810, 1887, -638, -7) \
     X(-1054, -3456, 2426, 915, -3417, 2919, 3405, -2113) \
     X(1698, 1166, 3831, -2, -194, 2789, 2385, -2732) \
     X(-17, 1278, -179, 2161, -2071, 715, -2378, 1203) \
     X(3744, 929, -1242, 1649, 1121, 670, 2767, 1181) \
     X(2422, -1348, -2059, 2072, -436, -658, 3542, -151) \
     X(2001, -2230, -1070, 3177, 236, -1476, -226, -3794)}, \
    {X(-438, -679, -1305, -1760, 396, -3174, -3555, -1881) \
     X(2175, 3692, -1756, -2391, -1497, -3145, -2224, -1681) \
     X(373, -730, 3135, 660, 2572, 1350, -3588, 2883) \
     X(1712, -3547, 3568, 1509, 3434, 2998, -2247, 1295) \
     X(-222, 1779, -3693, 2918, -3550, -3314, -2589, -2815) \
     X(2786, -1151, 3581, 2339, 2340, 3461, 1144, -3770) \
     X(-451, -434, -1586, -1407, 2891, -2719, 1072, 3450)}, \
    {X(3772, -2535, -2440, -2555, 1535, -549, 3153, 2310) \
     X(-1390, 3750, 2835, -2233, -1533, -727, 1386, -921) \
     X(1598, 2762, 2764, 3816, 1464, 1521, -3428, -2743) \
     X(3781, -3208, 3214, 3723, -3408, -1338, -642, 370) \
     X(-2258, -589, 3334, 1931, 83, 2345, -1837, 293) \
     X(796, 2963, -3366, -429, -1526, -2303, -2965, 3312) \
     X(3163, -124, -3745, -402, 826, 2515, -791, 2083)}, \
    {X(-1399, 1321, 514, -2956, -103, 2804, -2043, -1431) \
     X(-2160, -859, 1532, -486, -1056, 1799, 3480, -3310) \
     X(2649, 2579, 1919, 404, 783, -2665, 2133, -1168) \
     X(-1689, -893, -2874, 1441, -3343, 2812, 3657, 692) \
     X(-777, 2386, -1404, 2532, 2937, 3763, 2460, 1669) \
     X(2070, -188, 1012, -3335, 509, 592, -3677, 2167) \
     X(2262, -1519, 2130, -1084, -1403, 2005, 3752, -3287)},

#define ZETAS16_INV_TOP(X) \
    X(0) X(-3777) X(-3625) X(3182) X(-2194) X(-2456) X(1100) X(3696) X(-1414) X(1701) X(-2876) \
    X(2319) X(2495) X(-834) X(2250) X(-121) X(-1921) X(-617) X(-3364) X(2830) X(-1483) X(-1296) \
    X(2557) X(1525) X(2006) X(-3706) X(-1993) X(1599) X(-1986) X(2237) X(2088) X(-2816)

#define ZETAS16_INV_ROWS(X) \
    {X(1431, 2043, -2804, 103, 2956, -514, -1321, 1399) \
     X(1168, -2133, 2665, -783, -404, -1919, -2579, -2649) \
     X(3310, -3480, -1799, 1056, 486, -1532, 859, 2160) \
     X(3287, -3752, -2005, 1403, 1084, -2130, 1519, -2262) \
     X(-2167, 3677, -592, -509, 3335, -1012, 188, -2070) \
     X(-1669, -2460, -3763, -2937, -2532, 1404, -2386, 777) \
     X(-692, -3657, -2812, 3343, -1441, 2874, 893, 1689)}, \
    {X(-2310, -3153, 549, -1535, 2555, 2440, 2535, -3772) \
     X(2743, 3428, -1521, -1464, -3816, -2764, -2762, -1598) \
     X(921, -1386, 727, 1533, 2233, -2835, -3750, 1390) \
     X(-2083, 791, -2515, -826, 402, 3745, 124, -3163) \
     X(-3312, 2965, 2303, 1526, 429, 3366, -2963, -796) \
     X(-293, 1837, -2345, -83, -1931, -3334, 589, 2258) \
     X(-370, 642, 1338, 3408, -3723, -3214, 3208, -3781)}, \
    {X(1881, 3555, 3174, -396, 1760, 1305, 679, 438) \
     X(-2883, 3588, -1350, -2572, -660, -3135, 730, -373) \
     X(1681, 2224, 3145, 1497, 2391, 1756, -3692, -2175) \
     X(-3450, -1072, 2719, -2891, 1407, 1586, 434, 451) \
     X(3770, -1144, -3461, -2340, -2339, -3581, 1151, -2786) \
     X(2815, 2589, 3314, 3550, -2918, 3693, -1779, 222) \
     X(-1295, 2247, -2998, -3434, -1509, -3568, 3547, -1712)}, \
    {X(7, 638, -1887, -810, 3600, -3266, 1738, 3689) \
     X(2732, -2385, -2789, 194, 2, -3831, -1166, -1698) \
     X(2113, -3405, -2919, 3417, -915, -2426, 3456, 1054) \
     X(3794, 226, 1476, -236, -3177, 1070, 2230, -2001) \
     X(151, -3542, 658, 436, -2072, 2059, 1348, -2422) \
     X(-1181, -2767, -670, -1121, -1649, 1242, -929, -3744) \
     X(-1203, 2378, -715, 2071, -2161, 179, -1278, 17)},

/* z p^-1 mod 2^16 as int16 (57857 = p^-1 mod 2^16). */
#define ZQ(z) ((int16_t)(uint16_t)((uint32_t)(uint16_t)(int16_t)(z) * 57857u))
#define Z_PLAIN(z) (z),
#define Z_Q(z) ZQ(z),
#define Z8_PLAIN(z) {(z), (z), (z), (z), (z), (z), (z), (z)},
#define Z8_Q(z) {ZQ(z), ZQ(z), ZQ(z), ZQ(z), ZQ(z), ZQ(z), ZQ(z), ZQ(z)},
#define ROW_PLAIN(a, b, c, d, e, f, g, h) {a, b, c, d, e, f, g, h},
#define ROW_Q(a, b, c, d, e, f, g, h) {ZQ(a), ZQ(b), ZQ(c), ZQ(d), ZQ(e), ZQ(f), ZQ(g), ZQ(h)},

const quill_mldsa_ntt16_tables quill_mldsa_ntt16_tab = {
    .top = {ZETAS16_TOP(Z_PLAIN)},
    .top_q = {ZETAS16_TOP(Z_Q)},
    .rows = {ZETAS16_ROWS(ROW_PLAIN)},
    .rows_q = {ZETAS16_ROWS(ROW_Q)},
    .inv_top = {ZETAS16_INV_TOP(Z_PLAIN)},
    .inv_top_q = {ZETAS16_INV_TOP(Z_Q)},
    .inv_rows = {ZETAS16_INV_ROWS(ROW_PLAIN)},
    .inv_rows_q = {ZETAS16_INV_ROWS(ROW_Q)},
    .top8 = {ZETAS16_TOP(Z8_PLAIN)},
    .top8_q = {ZETAS16_TOP(Z8_Q)},
    .inv_top8 = {ZETAS16_INV_TOP(Z8_PLAIN)},
    .inv_top8_q = {ZETAS16_INV_TOP(Z8_Q)},
};

/* ---- The portable build: 8 lanes (ntt16_v8.h) ---- */
#include "ntt16_v8.h"

/* Eight int32 coefficients (small) as int16 lanes: the low halves. */
QUILL_INLINE v8 narrow8(const int32_t *a) {
    v4i lo, hi;
    memcpy(&lo, a, sizeof(lo));
    memcpy(&hi, a + 4, sizeof(hi));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return QUILL_MLDSA_SHUFFLE((v8)lo, (v8)hi, v8, 1, 3, 5, 7, 9, 11, 13, 15);
#else
    return QUILL_MLDSA_SHUFFLE((v8)lo, (v8)hi, v8, 0, 2, 4, 6, 8, 10, 12, 14);
#endif
}

void quill_mldsa_pair16_set(quill_mldsa_pair16 *pair, const int32_t a[QUILL_MLDSA_N],
                            const int32_t b[QUILL_MLDSA_N]) {
    for (unsigned j = 0; j < QUILL_MLDSA_N / 8; j++) {
        store8(pair->c + 16 * j, narrow8(a + 8 * j));
        store8(pair->c + 16 * j + 8, b != NULL ? narrow8(b + 8 * j) : V_DUP(0));
    }
}

void quill_mldsa_pair16_split(quill_mldsa_pair16 *pair, const int32_t a[QUILL_MLDSA_N],
                              unsigned shift) {
    const int32_t half = 1 << (shift - 1), mask = (1 << shift) - 1;
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        unsigned pos = 16 * (i / 8) + i % 8;
        int32_t lo = ((a[i] + half) & mask) - half;
        pair->c[pos] = (int16_t)lo;
        pair->c[pos + 8] = (int16_t)((a[i] - lo) >> shift);
    }
}

void quill_mldsa_ntt16_c(quill_mldsa_pair16 *pair) {
    ntt16_body(pair->c);
    ntt16_body(pair->c + 8);
}

void quill_mldsa_mulc16_prepare_c(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]) {
    quill_mldsa_pair16 c_hat;
    quill_mldsa_pair16_set(&c_hat, c, NULL);
    ntt16_body(c_hat.c);
    /* both halves the same multiplier */
    for (unsigned j = 0; j < 32; j++)
        memcpy(c_hat.c + 16 * j + 8, c_hat.c + 16 * j, 8 * sizeof(int16_t));
    prepare16_body(m->m, m->mq, c_hat.c, 32);
    prepare16_body(m->m + 8, m->mq + 8, c_hat.c + 8, 32);
    quill_zeroize(&c_hat, sizeof(c_hat));
}

/* The sign extension of lanes 0-3 (4-7) of x: each lane paired with
 * itself is x 2^16 + (x mod 2^16) as int32, shifted down. */
QUILL_INLINE v4i widen_lo(v8 x) {
    return (v4i)QUILL_MLDSA_SHUFFLE(x, x, v8, 0, 0, 1, 1, 2, 2, 3, 3) >> 16;
}

QUILL_INLINE v4i widen_hi(v8 x) {
    return (v4i)QUILL_MLDSA_SHUFFLE(x, x, v8, 4, 4, 5, 5, 6, 6, 7, 7) >> 16;
}

void quill_mldsa_mulc16_c(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                          const quill_mldsa_pair16 *s_hat, unsigned shift) {
    int16_t *w = (int16_t *)(void *)out; /* the pair workspace (memcpy access only) */
    inv16_groups(w, s_hat->c, m->m, m->mq);
    inv16_groups(w + 8, s_hat->c + 8, m->m + 8, m->mq + 8);
    /* chunk i of both halves (bytes 32 i .. 32 i + 31) becomes
     * coefficients 8 i .. 8 i + 7 of out, in the same bytes, after both
     * halves of its column are read */
    for (unsigned j = 0; j < 8; j++) {
        v8 a[4], b[4];
        inv16_column(a, w, j);
        inv16_column(b, w + 8, j);
        for (unsigned g = 0; g < 4; g++) {
            v4i lo = (v4i)((v4u)widen_lo(a[g]) + ((v4u)widen_lo(b[g]) << shift));
            v4i hi = (v4i)((v4u)widen_hi(a[g]) + ((v4u)widen_hi(b[g]) << shift));
            memcpy(out + 8 * (j + 8 * g), &lo, sizeof(lo));
            memcpy(out + 8 * (j + 8 * g) + 4, &hi, sizeof(hi));
        }
    }
}

void quill_mldsa_mulc16_prepare_i8(quill_mldsa_chal16 *m, const int8_t c[QUILL_MLDSA_N]) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_mulc16_prepare_i8_avx2(m, c);
        return;
    }
#endif
    int32_t c32[QUILL_MLDSA_N];
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        c32[i] = c[i];
    quill_mldsa_mulc16_prepare(m, c32);
    quill_zeroize(c32, sizeof(c32));
}

#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_ntt16(quill_mldsa_pair16 *pair) {
    if (quill_mldsa_avx2_capable())
        quill_mldsa_ntt16_avx2(pair);
    else
        quill_mldsa_ntt16_c(pair);
}

void quill_mldsa_mulc16_prepare(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]) {
    if (quill_mldsa_avx2_capable())
        quill_mldsa_mulc16_prepare_avx2(m, c);
    else
        quill_mldsa_mulc16_prepare_c(m, c);
}

void quill_mldsa_mulc16(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                        const quill_mldsa_pair16 *s_hat, unsigned shift) {
    if (quill_mldsa_avx2_capable())
        quill_mldsa_mulc16_avx2(out, m, s_hat, shift);
    else
        quill_mldsa_mulc16_c(out, m, s_hat, shift);
}
#elif QUILL_MLDSA_HAVE_NEON
/* The byte offsets asm/aarch64/mldsa_ntt16_neon.S reads (TAB_*). */
_Static_assert(offsetof(quill_mldsa_ntt16_tables, top_q) == 64, "top_q");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, rows) == 128, "rows");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, rows_q) == 576, "rows_q");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, inv_top) == 1024, "inv_top");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, inv_top_q) == 1088, "inv_top_q");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, inv_rows) == 1152, "inv_rows");
_Static_assert(offsetof(quill_mldsa_ntt16_tables, inv_rows_q) == 1600, "inv_rows_q");

void quill_mldsa_ntt16(quill_mldsa_pair16 *pair) {
    if (quill_mldsa_neon_capable())
        quill_mldsa_ntt16_neon(pair);
    else
        quill_mldsa_ntt16_c(pair);
}

void quill_mldsa_mulc16_prepare(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]) {
    if (quill_mldsa_neon_capable())
        quill_mldsa_mulc16_prepare_neon(m, c);
    else
        quill_mldsa_mulc16_prepare_c(m, c);
}

void quill_mldsa_mulc16(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                        const quill_mldsa_pair16 *s_hat, unsigned shift) {
    if (quill_mldsa_neon_capable())
        quill_mldsa_mulc16_neon(out, m, s_hat, shift);
    else
        quill_mldsa_mulc16_c(out, m, s_hat, shift);
}
#else
void quill_mldsa_ntt16(quill_mldsa_pair16 *pair) {
    quill_mldsa_ntt16_c(pair);
}

void quill_mldsa_mulc16_prepare(quill_mldsa_chal16 *m, const int32_t c[QUILL_MLDSA_N]) {
    quill_mldsa_mulc16_prepare_c(m, c);
}

void quill_mldsa_mulc16(int32_t out[QUILL_MLDSA_N], const quill_mldsa_chal16 *m,
                        const quill_mldsa_pair16 *s_hat, unsigned shift) {
    quill_mldsa_mulc16_c(out, m, s_hat, shift);
}
#endif
