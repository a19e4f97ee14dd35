/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_point_arm64: the aarch64 point kernels of the fixed-base
 * multiplication against their portable twins.
 *   - quill_p256_point_add_mixed_arm64 (asm/aarch64/p256_point_arm64.S)
 *     against quill_p256_point_add_mixed_raw_c, bit for bit, with out apart
 *     and out aliasing a, on coordinates (X1, Y1, Z1, X2, Y2) drawn from
 *     the edge values (0, 1, p - 1, R mod p, all-ones limbs, ...), random
 *     values below p, carry-heavy words (0, 1, 2^32 +- 1, 2^63, 2^64 - 1,
 *     the words of p), all zeros, all at p - 1, a at infinity (Z1 = 0),
 *     equal inputs (a = b, a = -b: the formula's excluded cases still give
 *     the twin's bits), and a running sum of curve points (2G + kG).
 *   - quill_p256_booth_gather_neon (p256_gather_neon.S) against
 *     quill_p256_booth_gather_c for every abs in 0..64 and out-of-range
 *     ones (65, 2^32, 2^63, 2^64 - 1: zeros), on random rows, all-zero and
 *     all-ones rows, and every row of the real table.
 *   - Both through the AAPCS64 checker (quill_abi_a64_check: x19-x29,
 *     d8-d15, sp preserved), results still right.
 *   - The whole fixed-base multiplication with the dispatch on against
 *     k G computed by double-and-add in C, and the backend name.
 * Skips (77) without the assembly or when QUILL_CPU_MASK clears
 * QUILL_CPU_ARM64; the gather part needs QUILL_CPU_ARM_NEON as well. */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>

#include "abi_check_aarch64.h"
#include "common/backend_names.h"
#include "ec/p256_arm64.h"
#include "ec/p256_point.h"
#include "ec/p256_table.h"
#include "ec_test_common.h"
#include "test_util.h"

#if defined(QUILL_P256_HAVE_ARM64) && QUILL_HAVE_ABI_A64

enum { N_RANDOM = 4000, N_ROWS = 300 };

static void set_coords(quill_p256_jacobian *a, quill_p256_affine *b, const uint64_t c[5][4]) {
    memcpy(a->x.v, c[0], 32);
    memcpy(a->y.v, c[1], 32);
    memcpy(a->z.v, c[2], 32);
    memcpy(b->x.v, c[3], 32);
    memcpy(b->y.v, c[4], 32);
}

/* The assembly mixed addition equals the C formula on c[0..4] = X1, Y1,
 * Z1, X2, Y2 (any values below p), also with out aliasing a. */
static void check_add(const uint64_t c[5][4]) {
    quill_p256_jacobian a, want, got;
    quill_p256_affine b;
    quill_p256_madd_scratch w;
    set_coords(&a, &b, c);
    quill_p256_point_add_mixed_raw_c(&want, &a, &b, &w);
    memset(&got, 0x5a, sizeof(got));
    quill_p256_point_add_mixed_arm64(&got, &a, &b);
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
    quill_p256_point_add_mixed_arm64(&a, &a, &b);
    QT_CHECK(memcmp(&a, &want, sizeof(a)) == 0);
}

/* The same through the ABI checker. */
static void check_add_abi(const uint64_t c[5][4]) {
    quill_p256_jacobian a, want, got;
    quill_p256_affine b;
    quill_p256_madd_scratch w;
    uint64_t ret = 0, args[8] = {0};
    set_coords(&a, &b, c);
    quill_p256_point_add_mixed_raw_c(&want, &a, &b, &w);
    args[0] = (uint64_t)(uintptr_t)&got;
    args[1] = (uint64_t)(uintptr_t)&a;
    args[2] = (uint64_t)(uintptr_t)&b;
    QT_CHECK(quill_abi_a64_check("quill_p256_point_add_mixed_arm64",
                                 (void (*)(void))quill_p256_point_add_mixed_arm64, args, &ret));
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
}

static void check_add_cases(BN_CTX *ctx) {
    uint64_t ep[ECT_EDGE_MAX][4], c[5][4];
    int kp = ect_edge_values(ep, ect_p256_p(), ctx);
    static const uint64_t words[] = {0,
                                     1,
                                     UINT64_C(0xffffffff),
                                     UINT64_C(0x100000000),
                                     UINT64_C(0x100000001),
                                     UINT64_C(0x8000000000000000),
                                     UINT64_C(0xfffffffffffffffe),
                                     UINT64_MAX,
                                     UINT64_C(0xffffffff00000000),
                                     UINT64_C(0xffffffff00000001)};
    /* All zeros; all p - 1 (the largest value, all-ones but for p's
     * pattern); every coordinate from the edge values. */
    memset(c, 0, sizeof(c));
    check_add(c);
    check_add_abi(c);
    for (int j = 0; j < 5; j++) {
        memcpy(c[j], (const uint64_t[4]){UINT64_MAX - 1, UINT64_C(0xffffffff), 0,
                                         UINT64_C(0xffffffff00000001)},
               32);
    }
    check_add(c);
    check_add_abi(c);
    for (int i = 0; i < 4 * N_RANDOM; i++) {
        for (int j = 0; j < 5; j++)
            memcpy(c[j], ep[qt_rng_u64() % (uint64_t)kp], 32);
        check_add(c);
        if (i % 64 == 0)
            check_add_abi(c);
    }
    for (int i = 0; i < N_RANDOM; i++) {
        for (int j = 0; j < 5; j++)
            ect_random_below(c[j], ect_p256_p(), ctx);
        if (i % 8 == 1)
            memset(c[2], 0, 32); /* a at infinity */
        if (i % 8 == 2) {        /* a = b (Z1 = R mod p, the Montgomery 1) */
            quill_p256_fe one;
            quill_p256_fe_one(&one);
            memcpy(c[2], one.v, 32);
            memcpy(c[0], c[3], 32);
            memcpy(c[1], c[4], 32);
        }
        if (i % 8 == 3) { /* a = -b */
            quill_p256_fe one, y;
            quill_p256_fe_one(&one);
            memcpy(c[2], one.v, 32);
            memcpy(c[0], c[3], 32);
            memcpy(y.v, c[4], 32);
            quill_p256_fe_opp(&y, &y);
            memcpy(c[1], y.v, 32);
        }
        check_add(c);
        if (i % 64 == 0)
            check_add_abi(c);
    }
    for (int i = 0; i < 4 * N_RANDOM; i++) {
        for (int j = 0; j < 5; j++) {
            for (int w = 0; w < 4; w++)
                c[j][w] = words[qt_rng_u64() % QT_ARRAY_LEN(words)];
            if (ect_ge_p(c[j]))
                c[j][3] = 0;
        }
        check_add(c);
    }
    /* Running sums of curve points: 2G + G + G ... by both. */
    quill_p256_affine g;
    quill_p256_jacobian acc_c, acc_asm;
    quill_p256_madd_scratch w;
    quill_p256_generator(&g);
    quill_p256_point_from_affine(&acc_c, &g);
    quill_p256_point_double(&acc_c, &acc_c);
    acc_asm = acc_c;
    for (int i = 0; i < 1000; i++) {
        quill_p256_point_add_mixed_raw_c(&acc_c, &acc_c, &g, &w);
        quill_p256_point_add_mixed_arm64(&acc_asm, &acc_asm, &g);
        QT_CHECK(memcmp(&acc_c, &acc_asm, sizeof(acc_c)) == 0);
    }
}

/* The NEON gather equals the C one on row for abs, directly and through
 * the ABI checker. */
static void check_gather(const quill_p256_affine row[QUILL_P256_BASE_ROW], uint64_t abs,
                         int abi) {
    uint64_t wx[4], wy[4], gx[4], gy[4];
    quill_p256_booth_gather_c(wx, wy, row, abs);
    memset(gx, 0xa5, sizeof(gx));
    memset(gy, 0xa5, sizeof(gy));
    if (abi) {
        uint64_t ret = 0, args[8] = {0};
        args[0] = (uint64_t)(uintptr_t)gx;
        args[1] = (uint64_t)(uintptr_t)gy;
        args[2] = (uint64_t)(uintptr_t)row;
        args[3] = abs;
        QT_CHECK(quill_abi_a64_check("quill_p256_booth_gather_neon",
                                     (void (*)(void))quill_p256_booth_gather_neon, args, &ret));
    } else {
        quill_p256_booth_gather_neon(gx, gy, row, abs);
    }
    QT_CHECK(memcmp(gx, wx, 32) == 0 && memcmp(gy, wy, 32) == 0);
    if (abs >= 1 && abs <= QUILL_P256_BASE_ROW)
        QT_CHECK(memcmp(gx, row[abs - 1].x.v, 32) == 0 && memcmp(gy, row[abs - 1].y.v, 32) == 0);
    else
        QT_CHECK(memcmp(gx, (const uint64_t[4]){0, 0, 0, 0}, 32) == 0 &&
                 memcmp(gy, (const uint64_t[4]){0, 0, 0, 0}, 32) == 0);
}

static void check_gather_row(const quill_p256_affine row[QUILL_P256_BASE_ROW], int abi) {
    static const uint64_t out_of_range[] = {QUILL_P256_BASE_ROW + 1, UINT64_C(1) << 32,
                                            UINT64_C(1) << 63, UINT64_MAX};
    for (uint64_t abs = 0; abs <= QUILL_P256_BASE_ROW; abs++)
        check_gather(row, abs, abi && abs % 16 == 1);
    for (size_t i = 0; i < QT_ARRAY_LEN(out_of_range); i++)
        check_gather(row, out_of_range[i], abi);
}

static void check_gather_cases(void) {
    static quill_p256_affine row[QUILL_P256_BASE_ROW];
    memset(row, 0, sizeof(row));
    check_gather_row(row, 1);
    memset(row, 0xff, sizeof(row));
    check_gather_row(row, 1);
    for (int r = 0; r < N_ROWS; r++) {
        for (int e = 0; e < QUILL_P256_BASE_ROW; e++)
            for (int w = 0; w < 4; w++) {
                row[e].x.v[w] = qt_rng_u64();
                row[e].y.v[w] = qt_rng_u64();
            }
        check_gather_row(row, r % 50 == 0);
    }
    for (int i = 0; i < QUILL_P256_BASE_WINDOWS; i++)
        check_gather_row(quill_p256_base_booth[i], i == 0);
}

/* k G through quill_p256_point_mul_base (the dispatched kernels) against
 * double-and-add with the C formulas, compared in affine form. */
static void check_mul_base(BN_CTX *ctx) {
    quill_p256_affine g, want_a, got_a;
    quill_p256_generator(&g);
    for (int i = 0; i < 40; i++) {
        quill_p256_scalar_plain k;
        quill_p256_jacobian got, acc, gj;
        ect_random_below(k.v, ect_p256_n(), ctx);
        if (i == 0)
            memset(k.v, 0, 32);
        if (i == 1)
            memcpy(k.v, (const uint64_t[4]){1, 0, 0, 0}, 32);
        quill_p256_point_mul_base(&got, &k);
        quill_p256_fe_one(&acc.x);
        quill_p256_fe_one(&acc.y);
        acc.z = (quill_p256_fe){{0, 0, 0, 0}};
        quill_p256_point_from_affine(&gj, &g);
        for (int bit = 255; bit >= 0; bit--) {
            quill_p256_point_double(&acc, &acc);
            if ((k.v[bit / 64] >> (bit % 64)) & 1)
                quill_p256_point_add_vartime(&acc, &acc, &gj);
        }
        quill_word inf_w = quill_p256_point_to_affine(&want_a, &acc);
        quill_word inf_g = quill_p256_point_to_affine(&got_a, &got);
        QT_CHECK(inf_w == inf_g);
        QT_CHECK(memcmp(&want_a, &got_a, sizeof(got_a)) == 0);
    }
}

int main(void) {
    if (!quill_p256_arm64_capable()) {
        puts("test_ec_point_arm64: QUILL_CPU_ARM64 masked: skipped");
        return 77;
    }
    QT_CHECK(strcmp(quill_p256_backend_name(), quill_p256_neon_capable() ? "arm64_neon" : "arm64") ==
             0);
    BN_CTX *ctx = BN_CTX_new();
    qt_rng_seed(0x70256add);
    check_add_cases(ctx);
    if (quill_p256_neon_capable())
        check_gather_cases();
    else
        puts("test_ec_point_arm64: no NEON: the gather part skipped");
    check_mul_base(ctx);
    BN_CTX_free(ctx);
    return qt_finish("ec_point_arm64");
}

#else
int main(void) {
    puts("test_ec_point_arm64: no aarch64 P-256 assembly in this build: skipped");
    return 77;
}
#endif
