/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_adx: the MULX/ADCX/ADOX P-256 kernels (asm/x86_64/p256_fe_adx.S)
 * against their portable twins (quill_p256_fe_mul_inline / _sqr_inline,
 * quill_p256_scalar_mul_c) and against BN (a b R^-1 mod m), on edge values
 * (0, 1, 2, m - 1, m - 2, R mod m, R^2 mod m, words of all ones or zeros,
 * values just below m and below 2^256 - 2^224) and on random inputs biased
 * towards carry-heavy shapes; aliasing of out with the inputs; the
 * dispatching quill_p256_fe_mul/_sqr and quill_p256_scalar_mul equal the
 * twins (the field kernels through ect_check_fe_kernels, ec_test_common.h,
 * shared with test_ec_arm64); the mixed point addition
 * (asm/x86_64/p256_point_adx.S) against
 * quill_p256_point_add_mixed_raw_c on coordinates drawn from the edge
 * values, built from carry-heavy words and at random, with out aliasing a,
 * and along a chain of real points; the repeated doubling
 * (asm/x86_64/p256_double_adx.S) against n calls of quill_p256_point_double
 * on the same kinds of coordinates (Z = 0 included), n = 1..8, with out
 * aliasing a, and along a chain of real points; the two variable-time
 * additions of verification (asm/x86_64/p256_add_vartime_adx.S) against
 * quill_p256_point_madd_vartime_c and quill_p256_point_add_cached_vartime_c
 * on the same kinds of coordinates, with H = 0 forced (a = b and a = -b:
 * return 0, out untouched), aliasing, and along chains of real points;
 * the mixed addition with the row scan of k G
 * (quill_p256_point_add_mixed_gather_adx, with AVX2) against the C
 * formula and quill_p256_booth_gather8_c, abs 0..129 (the row length
 * QUILL_P256_BASE8_ROW and one beyond), with aliasing, and
 * its case-handling wrapper against quill_p256_point_add_mixed_scratch;
 * the additions with a Z1 whose partially reduced square (the formulas'
 * Z1^2, p256_fe_macros.h) lands in [p, 2^256), found with a BN model of
 * that reduction; and every entry point preserves the
 * callee-saved registers (ec_abi_check.S).  Skips (77) without BMI2 and ADX
 * or with QUILL_NO_ASM. */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/err.h>

#include "ec/p256_adx.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_point.h"
#include "ec/p256_scalar.h"
#include "ec/p256_table.h"
#include "ec/p256_verify_point.h"
#include "ec_test_common.h"
#include "test_util.h"

#ifdef QUILL_P256_HAVE_ADX

unsigned ect_abi_call3(void *fn, uint64_t a0, uint64_t a1, uint64_t a2);
unsigned ect_abi_call6(void *fn, const uint64_t args[6]);

enum { N_RANDOM = 20000 };

static const ect_fe_kernels adx_kernels = {"adx", quill_p256_fe_mul_adx, quill_p256_fe_sqr_adx};

static void check_scalar_pair(const uint64_t a[4], const uint64_t b[4], BN_CTX *ctx,
                              int with_bn) {
    quill_p256_scalar sa, sb, c_out, sx;
    uint64_t asm_out[4];
    memcpy(sa.v, a, 32);
    memcpy(sb.v, b, 32);
    quill_p256_scalar_mul_c(&c_out, &sa, &sb);
    quill_p256_scalar_mul_adx(asm_out, a, b);
    QT_CHECK(memcmp(asm_out, c_out.v, 32) == 0);
    sx = sa;
    quill_p256_scalar_mul_adx(sx.v, sx.v, b);
    QT_CHECK(memcmp(sx.v, c_out.v, 32) == 0);
    sx = sb;
    quill_p256_scalar_mul_adx(sx.v, a, sx.v);
    QT_CHECK(memcmp(sx.v, c_out.v, 32) == 0);
    quill_p256_scalar_mul(&sx, &sa, &sb);
    QT_CHECK(memcmp(sx.v, c_out.v, 32) == 0);
    if (with_bn)
        QT_CHECK(ect_montmul_ok(asm_out, a, b, ect_p256_n(), ctx));
}

/* load_points sets a = (c[0], c[1], c[2]) (Jacobian) and b = (c[3], c[4])
 * (affine): the operands of the addition checks below. */
static void load_points(const uint64_t (*c)[4], quill_p256_jacobian *a, quill_p256_affine *b) {
    memcpy(a->x.v, c[0], 32);
    memcpy(a->y.v, c[1], 32);
    memcpy(a->z.v, c[2], 32);
    memcpy(b->x.v, c[3], 32);
    memcpy(b->y.v, c[4], 32);
}

/* The assembly mixed addition equals the C formula on the five
 * coordinates c[0..4] = X1, Y1, Z1, X2, Y2 (any values below p: every
 * field operation is defined there), also with out aliasing a. */
static void check_point_add(const uint64_t c[5][4]) {
    quill_p256_jacobian a, want, got;
    quill_p256_affine b;
    quill_p256_madd_scratch w;
    load_points(c, &a, &b);
    quill_p256_point_add_mixed_raw_c(&want, &a, &b, &w);
    quill_p256_point_add_mixed_adx(&got, &a, &b);
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
    quill_p256_point_add_mixed_adx(&a, &a, &b);
    QT_CHECK(memcmp(&a, &want, sizeof(a)) == 0);
}

/* The mixed addition with the row scan (quill_p256_point_add_mixed_gather_adx)
 * equals the C formula on c[0..4] and quill_p256_booth_gather8_c on the row
 * for abs: with separate outputs, with out aliasing a and gxy aliasing b,
 * and through the dispatching quill_p256_point_add_mixed_gather_scratch
 * against quill_p256_point_add_mixed_scratch (case handling included:
 * b_is_inf from abs = 0, a at infinity when c[2] is zero). */
static void check_point_add_gather(const uint64_t c[5][4],
                                   const quill_p256_affine row[QUILL_P256_BASE8_ROW],
                                   uint64_t abs) {
    quill_p256_jacobian a, want, got;
    quill_p256_affine b;
    quill_p256_madd_scratch w;
    uint64_t gwant[8], gxy[8];
    load_points(c, &a, &b);
    quill_p256_point_add_mixed_raw_c(&want, &a, &b, &w);
    quill_p256_booth_gather8_c(gwant, gwant + 4, row, abs);
    memset(gxy, 0xa5, sizeof(gxy));
    quill_p256_point_add_mixed_gather_adx(&got, &a, &b, gxy, row, abs);
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
    QT_CHECK(memcmp(gxy, gwant, sizeof(gxy)) == 0);
    quill_p256_jacobian a2 = a;
    quill_p256_affine b2 = b;
    quill_p256_point_add_mixed_gather_adx(&a2, &a2, &b2, (uint64_t *)(void *)&b2, row, abs);
    QT_CHECK(memcmp(&a2, &want, sizeof(a2)) == 0);
    QT_CHECK(memcmp(&b2, gwant, sizeof(gxy)) == 0);
    const quill_word b_inf = abs == 0 ? ~(quill_word)0 : 0;
    quill_p256_point_add_mixed_scratch(&want, &a, &b, b_inf, &w);
    memset(gxy, 0x5a, sizeof(gxy));
    quill_p256_point_add_mixed_gather_scratch(&got, &a, &b, b_inf, &w, gxy, row, abs);
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
    QT_CHECK(memcmp(gxy, gwant, sizeof(gxy)) == 0);
}

/* check_point_add_gather on random rows and every abs in 0..129 (129:
 * no entry), coordinates from the edge values or random, every fourth a at
 * infinity. */
static void check_gather_adds(const uint64_t ep[][4], int kp, BN_CTX *ctx, int rounds) {
    static quill_p256_affine row[QUILL_P256_BASE8_ROW];
    uint64_t c[5][4];
    for (int r = 0; r < rounds; r++) {
        for (int e = 0; e < QUILL_P256_BASE8_ROW; e++) {
            ect_random_below(row[e].x.v, ect_p256_p(), ctx);
            ect_random_below(row[e].y.v, ect_p256_p(), ctx);
        }
        for (uint64_t abs = 0; abs <= QUILL_P256_BASE8_ROW + 1; abs++) {
            for (int j = 0; j < 5; j++) {
                if (r % 2 == 0)
                    memcpy(c[j], ep[qt_rng_u64() % (uint64_t)kp], 32);
                else
                    ect_random_below(c[j], ect_p256_p(), ctx);
            }
            if (abs % 4 == 3)
                memset(c[2], 0, 32);
            check_point_add_gather((const uint64_t(*)[4])c, row, abs);
        }
    }
}

/* The assembly doubling, n rounds, equals n calls of the C doubling on the
 * coordinates c[0..2] = X, Y, Z (any values below p), also with out
 * aliasing a. */
static void check_point_double(const uint64_t c[3][4], size_t n) {
    quill_p256_jacobian a, want, got;
    memcpy(a.x.v, c[0], 32);
    memcpy(a.y.v, c[1], 32);
    memcpy(a.z.v, c[2], 32);
    want = a;
    for (size_t i = 0; i < n; i++)
        quill_p256_point_double(&want, &want);
    quill_p256_point_double_n_adx(&got, &a, n);
    QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
    quill_p256_point_double_n_adx(&a, &a, n);
    QT_CHECK(memcmp(&a, &want, sizeof(a)) == 0);
}

/* The variable-time additions: c[0..2] = X1, Y1, Z1 (Z1 != 0), c[3..7] =
 * x, y, z, zz, zzz of b (only x, y for the mixed addition).  Equal to the
 * C twins when H != 0; when H = 0 they return 0 and leave out alone. */
static void check_vartime_add(const uint64_t c[8][4]) {
    quill_p256_jacobian a, want, got, t;
    quill_p256_affine b;
    quill_p256_chudnovsky bc;
    load_points(c, &a, &b);
    bc.x = b.x;
    bc.y = b.y;
    memcpy(bc.z.v, c[5], 32);
    memcpy(bc.zz.v, c[6], 32);
    memcpy(bc.zzz.v, c[7], 32);
    quill_p256_fe u2, h;
    quill_p256_fe_sqr(&u2, &a.z);
    quill_p256_fe_mul(&u2, &u2, &b.x);
    quill_p256_fe_sub(&h, &u2, &a.x);
    const int mixed_h_zero = !quill_p256_fe_nonzero(&h);
    memset(&got, 0xa5, sizeof(got));
    t = got;
    quill_p256_point_madd_vartime_c(&want, &a, &b);
    QT_CHECK(quill_p256_point_madd_vartime_adx(&got, &a, &b) == !mixed_h_zero);
    if (mixed_h_zero) {
        QT_CHECK(memcmp(&got, &t, sizeof(got)) == 0);
    } else {
        QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
        t = a;
        QT_CHECK(quill_p256_point_madd_vartime_adx(&t, &t, &b) == 1);
        QT_CHECK(memcmp(&t, &want, sizeof(t)) == 0);
    }
    quill_p256_fe u1;
    quill_p256_fe_mul(&u1, &a.x, &bc.zz);
    quill_p256_fe_sqr(&u2, &a.z);
    quill_p256_fe_mul(&u2, &u2, &bc.x);
    quill_p256_fe_sub(&h, &u2, &u1);
    const int cached_h_zero = !quill_p256_fe_nonzero(&h);
    memset(&got, 0x5a, sizeof(got));
    t = got;
    quill_p256_point_add_cached_vartime_c(&want, &a, &bc);
    QT_CHECK(quill_p256_point_add_cached_vartime_adx(&got, &a, &bc) == !cached_h_zero);
    if (cached_h_zero) {
        QT_CHECK(memcmp(&got, &t, sizeof(got)) == 0);
    } else {
        QT_CHECK(memcmp(&got, &want, sizeof(got)) == 0);
        t = a;
        QT_CHECK(quill_p256_point_add_cached_vartime_adx(&t, &t, &bc) == 1);
        QT_CHECK(memcmp(&t, &want, sizeof(t)) == 0);
    }
}

/* b = +-a (as affine and in Chudnovsky form with Z^2, Z^3 computed, or
 * with Z = 1): both additions must report H = 0 and write nothing. */
static void check_vartime_add_equal(const uint64_t z[4], const uint64_t x[4], const uint64_t y[4],
                                    int negate) {
    quill_p256_jacobian a, got, untouched;
    quill_p256_affine b;
    quill_p256_chudnovsky bc;
    quill_p256_fe zz, zzz;
    memcpy(b.x.v, x, 32);
    memcpy(b.y.v, y, 32);
    memcpy(a.z.v, z, 32);
    if (!quill_p256_fe_nonzero(&a.z))
        quill_p256_fe_one(&a.z);
    quill_p256_fe_sqr(&zz, &a.z);
    quill_p256_fe_mul(&zzz, &zz, &a.z);
    quill_p256_fe_mul(&a.x, &b.x, &zz);
    quill_p256_fe_mul(&a.y, &b.y, &zzz);
    if (negate)
        quill_p256_fe_opp(&b.y, &b.y);
    memset(&got, 0x3c, sizeof(got));
    untouched = got;
    QT_CHECK(quill_p256_point_madd_vartime_adx(&got, &a, &b) == 0);
    QT_CHECK(memcmp(&got, &untouched, sizeof(got)) == 0);
    bc.x = a.x;
    bc.y = a.y;
    bc.z = a.z;
    bc.zz = zz;
    bc.zzz = zzz;
    if (negate)
        quill_p256_fe_opp(&bc.y, &bc.y);
    QT_CHECK(quill_p256_point_add_cached_vartime_adx(&got, &a, &bc) == 0);
    QT_CHECK(memcmp(&got, &untouched, sizeof(got)) == 0);
    /* and through the dispatching wrappers: the C twin's complete result */
    quill_p256_jacobian want_m, want_c, r;
    quill_p256_point_madd_vartime_c(&want_m, &a, &b);
    vt_madd_x(&r, &a, &b, 1);
    QT_CHECK(memcmp(&r, &want_m, sizeof(r)) == 0);
    quill_p256_point_add_cached_vartime_c(&want_c, &a, &bc);
    vt_add_cached_x(&r, &a, &bc, 1);
    QT_CHECK(memcmp(&r, &want_c, sizeof(r)) == 0);
}

/* Running sums G, G + 2G', ... on the curve by both formulas (the sums of
 * real points, as the fixed-base multiplication adds them). */
static void check_point_chain(unsigned steps) {
    quill_p256_affine g;
    quill_p256_jacobian acc_c, acc_asm, twice;
    quill_p256_madd_scratch w;
    quill_p256_generator(&g);
    acc_c.x = g.x;
    acc_c.y = g.y;
    quill_p256_fe_one(&acc_c.z);
    quill_p256_point_double(&twice, &acc_c); /* 2G, so that no sum equals G */
    acc_c = twice;
    acc_asm = twice;
    for (unsigned i = 0; i < steps; i++) {
        quill_p256_point_add_mixed_raw_c(&acc_c, &acc_c, &g, &w);
        quill_p256_point_add_mixed_adx(&acc_asm, &acc_asm, &g);
        QT_CHECK(memcmp(&acc_c, &acc_asm, sizeof(acc_c)) == 0);
    }
}

/* 2^k G for k = 1..steps by both, one and three doublings per call. */
static void check_double_chain(unsigned steps) {
    quill_p256_affine g;
    quill_p256_jacobian acc_c, acc_asm;
    quill_p256_generator(&g);
    quill_p256_point_from_affine(&acc_c, &g);
    acc_asm = acc_c;
    for (unsigned i = 0; i < steps; i++) {
        size_t n = 1 + 2 * (i % 2);
        for (size_t k = 0; k < n; k++)
            quill_p256_point_double(&acc_c, &acc_c);
        quill_p256_point_double_n_adx(&acc_asm, &acc_asm, n);
        QT_CHECK(memcmp(&acc_c, &acc_asm, sizeof(acc_c)) == 0);
    }
}

/* u G for u = 3, 5, 7, ... by both mixed additions (acc + 2G, affine) and
 * both cached additions (acc + 2G in Chudnovsky form), as verification
 * adds real points; then acc - acc (H = 0) through the wrappers. */
static void check_vartime_chain(unsigned steps) {
    quill_p256_affine g, g2a;
    quill_p256_jacobian gj, g2, acc_c, acc_asm, cacc_c, cacc_asm;
    quill_p256_chudnovsky g2c;
    quill_p256_generator(&g);
    quill_p256_point_from_affine(&gj, &g);
    quill_p256_point_double(&g2, &gj);
    (void)quill_p256_point_to_affine(&g2a, &g2);
    g2c.x = g2.x;
    g2c.y = g2.y;
    g2c.z = g2.z;
    quill_p256_fe_sqr(&g2c.zz, &g2.z);
    quill_p256_fe_mul(&g2c.zzz, &g2c.zz, &g2.z);
    acc_c = acc_asm = cacc_c = cacc_asm = gj;
    for (unsigned i = 0; i < steps; i++) {
        quill_p256_point_madd_vartime_c(&acc_c, &acc_c, &g2a);
        QT_CHECK(quill_p256_point_madd_vartime_adx(&acc_asm, &acc_asm, &g2a) == 1);
        QT_CHECK(memcmp(&acc_c, &acc_asm, sizeof(acc_c)) == 0);
        quill_p256_point_add_cached_vartime_c(&cacc_c, &cacc_c, &g2c);
        QT_CHECK(quill_p256_point_add_cached_vartime_adx(&cacc_asm, &cacc_asm, &g2c) == 1);
        QT_CHECK(memcmp(&cacc_c, &cacc_asm, sizeof(cacc_c)) == 0);
    }
    /* a + a doubles, a at infinity gives b: through vt_madd_x (C fallback) */
    quill_p256_jacobian r, want, inf;
    vt_set_infinity(&inf);
    vt_madd_x(&r, &inf, &g2a, 1);
    quill_p256_point_madd_vartime_c(&want, &inf, &g2a);
    QT_CHECK(memcmp(&r, &want, sizeof(r)) == 0);
    vt_add_cached_x(&r, &inf, &g2c, 1);
    quill_p256_point_add_cached_vartime_c(&want, &inf, &g2c);
    QT_CHECK(memcmp(&r, &want, sizeof(r)) == 0);
}

/* partial_square sets r to the partially reduced Montgomery square of z
 * that the x86-64 formulas use for Z1^2 (p256_fe_macros.h, FE_SQR with
 * partial = 1): u = (t_low + M p) / 2^256 with t = z^2 and M = -t_low
 * p^-1 mod 2^256, s = u + t_high, less p if s >= 2^256.  Congruent to
 * z^2 R^-1 mod p and below 2^256, but not always below p. */
static void partial_square(BIGNUM *r, const BIGNUM *z, BN_CTX *ctx) {
    BN_CTX_start(ctx);
    BIGNUM *t = BN_CTX_get(ctx), *lo = BN_CTX_get(ctx), *m = BN_CTX_get(ctx);
    BIGNUM *r256 = BN_CTX_get(ctx), *ninv = BN_CTX_get(ctx);
    QT_CHECK(ninv != NULL);
    BN_zero(r256);
    QT_CHECK(BN_set_bit(r256, 256));
    /* ninv = -p^-1 mod 2^256 */
    QT_CHECK(BN_mod_inverse(ninv, ect_p256_p(), r256, ctx) != NULL);
    QT_CHECK(BN_sub(ninv, r256, ninv));
    QT_CHECK(BN_sqr(t, z, ctx));
    QT_CHECK(BN_copy(lo, t) != NULL);
    (void)BN_mask_bits(lo, 256); /* 0 (no change) when already shorter */
    QT_CHECK(BN_mul(m, lo, ninv, ctx));
    (void)BN_mask_bits(m, 256);
    QT_CHECK(BN_mul(m, m, ect_p256_p(), ctx));
    QT_CHECK(BN_add(m, m, lo));
    QT_CHECK(BN_rshift(m, m, 256)); /* u */
    QT_CHECK(BN_rshift(t, t, 256)); /* t_high */
    QT_CHECK(BN_add(r, m, t));
    if (BN_cmp(r, r256) >= 0)
        QT_CHECK(BN_sub(r, r, ect_p256_p()));
    BN_CTX_end(ctx);
}

/* The additions with a Z1 whose partially reduced square lands in
 * [p, 2^256) (a 2^-32 chance for a random Z1, so the loops above never
 * reach it): Z1 = sqrt(v R) mod p for small v, kept when the partial
 * square is v + p rather than v.  Then Z1^2 enters X2 Z1^2 (a fully
 * reducing product beside an operand below p) and Z1 Z1^2 (partial)
 * unreduced.  Eight such Z1, each with random other coordinates, through
 * the constant-time addition (both entries) and the variable-time ones. */
static void check_partial_square_high(BN_CTX *ctx) {
    static quill_p256_affine row[QUILL_P256_BASE8_ROW];
    BN_CTX_start(ctx);
    BIGNUM *v = BN_CTX_get(ctx), *z = BN_CTX_get(ctx), *sq = BN_CTX_get(ctx);
    BIGNUM *vp = BN_CTX_get(ctx);
    QT_CHECK(vp != NULL);
    for (int e = 0; e < QUILL_P256_BASE8_ROW; e++) {
        ect_random_below(row[e].x.v, ect_p256_p(), ctx);
        ect_random_below(row[e].y.v, ect_p256_p(), ctx);
    }
    int found = 0;
    for (unsigned long k = 1; k < 4096 && found < 8; k++) {
        QT_CHECK(BN_set_word(v, k));
        QT_CHECK(BN_lshift(vp, v, 256));
        QT_CHECK(BN_mod(vp, vp, ect_p256_p(), ctx)); /* v R mod p */
        ERR_set_mark();
        const int root = BN_mod_sqrt(z, vp, ect_p256_p(), ctx) != NULL;
        ERR_pop_to_mark();
        if (!root)
            continue;
        partial_square(sq, z, ctx);
        QT_CHECK(BN_add(vp, v, ect_p256_p()));
        if (BN_cmp(sq, vp) != 0) {
            QT_CHECK(BN_cmp(sq, v) == 0); /* the other possible value */
            continue;
        }
        found++;
        for (int i = 0; i < 8; i++) {
            uint64_t c[8][4];
            for (int j = 0; j < 8; j++)
                ect_random_below(c[j], ect_p256_p(), ctx);
            QT_CHECK(ect_bn_to_limbs(c[2], z));
            check_point_add((const uint64_t(*)[4])c);
            if (quill_p256_adx_gather_capable())
                check_point_add_gather((const uint64_t(*)[4])c, row, 1 + (uint64_t)i);
            check_vartime_add((const uint64_t(*)[4])c);
        }
    }
    QT_CHECK(found == 8);
    BN_CTX_end(ctx);
}

static void check_abi(void) {
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, o[4];
    QT_CHECK(ect_abi_call3((void *)quill_p256_fe_mul_adx, (uint64_t)(uintptr_t)o,
                           (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b) == 0);
    QT_CHECK(ect_abi_call3((void *)quill_p256_fe_sqr_adx, (uint64_t)(uintptr_t)o,
                           (uint64_t)(uintptr_t)a, 0) == 0);
    QT_CHECK(ect_abi_call3((void *)quill_p256_scalar_mul_adx, (uint64_t)(uintptr_t)o,
                           (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b) == 0);
    uint64_t pa[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, pb[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    uint64_t po[12];
    QT_CHECK(ect_abi_call3((void *)quill_p256_point_add_mixed_adx, (uint64_t)(uintptr_t)po,
                           (uint64_t)(uintptr_t)pa, (uint64_t)(uintptr_t)pb) == 0);
    QT_CHECK(ect_abi_call3((void *)quill_p256_point_double_n_adx, (uint64_t)(uintptr_t)po,
                           (uint64_t)(uintptr_t)pa, 3) == 0);
    uint64_t pc[20] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0};
    QT_CHECK(ect_abi_call3((void *)quill_p256_point_madd_vartime_adx, (uint64_t)(uintptr_t)po,
                           (uint64_t)(uintptr_t)pa, (uint64_t)(uintptr_t)pb) == 0);
    QT_CHECK(ect_abi_call3((void *)quill_p256_point_add_cached_vartime_adx,
                           (uint64_t)(uintptr_t)po, (uint64_t)(uintptr_t)pa,
                           (uint64_t)(uintptr_t)pc) == 0);
    /* the H = 0 early return restores the registers too */
    uint64_t pe[12] = {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
    pe[8] = 1; /* Z1 = R mod p, one in the Montgomery domain, so H = x2 - X1 = 0 */
    pe[9] = UINT64_C(0xffffffff00000000);
    pe[10] = UINT64_MAX;
    pe[11] = UINT64_C(0xfffffffe);
    QT_CHECK(ect_abi_call3((void *)quill_p256_point_madd_vartime_adx, (uint64_t)(uintptr_t)po,
                           (uint64_t)(uintptr_t)pe, (uint64_t)(uintptr_t)pb) == 0);
    quill_p256_jacobian je, jo;
    quill_p256_affine jb;
    memcpy(&je, pe, sizeof(je));
    memcpy(&jb, pb, sizeof(jb));
    QT_CHECK(quill_p256_point_madd_vartime_adx(&jo, &je, &jb) == 0);
    if (quill_p256_adx_gather_capable()) {
        static quill_p256_affine row[QUILL_P256_BASE8_ROW];
        uint64_t gxy[8];
        const uint64_t args[6] = {(uint64_t)(uintptr_t)po, (uint64_t)(uintptr_t)pa,
                                  (uint64_t)(uintptr_t)pb, (uint64_t)(uintptr_t)gxy,
                                  (uint64_t)(uintptr_t)row, 5};
        QT_CHECK(ect_abi_call6((void *)quill_p256_point_add_mixed_gather_adx, args) == 0);
    }
}

int main(void) {
    if (!quill_p256_adx_capable()) {
        printf("test_ec_adx: no BMI2+ADX (or masked): skipped\n");
        return QT_SKIP;
    }
    BN_CTX *ctx = BN_CTX_new();
    uint64_t ep[ECT_EDGE_MAX][4], en[ECT_EDGE_MAX][4];
    int kp = ect_edge_values(ep, ect_p256_p(), ctx);
    int kn = ect_edge_values(en, ect_p256_n(), ctx);
    qt_rng_seed(0x5ad1);
    ect_check_fe_kernels(&adx_kernels, ctx, N_RANDOM, 16);
    for (int i = 0; i < kn; i++)
        for (int j = 0; j < kn; j++)
            check_scalar_pair(en[i], en[j], ctx, 1);
    for (int i = 0; i < N_RANDOM; i++) {
        uint64_t a[4], b[4];
        ect_random_below(a, ect_p256_n(), ctx);
        ect_random_below(b, ect_p256_n(), ctx);
        check_scalar_pair(a, b, ctx, i % 16 == 0);
    }
    /* Mixed point addition: coordinates from the edge values, then random. */
    uint64_t c[5][4];
    for (int i = 0; i < 4 * N_RANDOM; i++) {
        for (int j = 0; j < 5; j++)
            memcpy(c[j], ep[qt_rng_u64() % (uint64_t)kp], 32);
        check_point_add(c);
    }
    for (int i = 0; i < N_RANDOM; i++) {
        for (int j = 0; j < 5; j++)
            ect_random_below(c[j], ect_p256_p(), ctx);
        check_point_add(c);
    }
    /* Coordinates whose words are carry-heavy (0, 1, 2^32 +- 1, 2^63,
     * 2^64 - 1, the words of p), kept below p. */
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
    for (int i = 0; i < 4 * N_RANDOM; i++) {
        for (int j = 0; j < 5; j++) {
            for (int w = 0; w < 4; w++)
                c[j][w] = words[qt_rng_u64() % QT_ARRAY_LEN(words)];
            if (ect_ge_p(c[j]))
                c[j][3] = 0;
        }
        check_point_add(c);
    }
    check_point_chain(2000);
    /* The addition with the row scan (needs AVX2 besides ADX). */
    if (quill_p256_adx_gather_capable())
        check_gather_adds((const uint64_t(*)[4])ep, kp, ctx, 200);
    else
        printf("test_ec_adx: no AVX2 (or masked): the addition with the row scan not run\n");
    /* Doubling, n = 1..8 rounds: edge values, random, carry-heavy words;
     * every eighth point with Z = 0 (infinity, which must stay there). */
    for (int i = 0; i < 2 * N_RANDOM; i++) {
        for (int j = 0; j < 3; j++) {
            switch (i % 3) {
            case 0:
                memcpy(c[j], ep[qt_rng_u64() % (uint64_t)kp], 32);
                break;
            case 1:
                ect_random_below(c[j], ect_p256_p(), ctx);
                break;
            default:
                for (int w = 0; w < 4; w++)
                    c[j][w] = words[qt_rng_u64() % QT_ARRAY_LEN(words)];
                if (ect_ge_p(c[j]))
                    c[j][3] = 0;
            }
        }
        if (i % 8 == 7)
            memset(c[2], 0, 32);
        check_point_double((const uint64_t(*)[4])c, 1 + (size_t)(i % 8));
    }
    check_double_chain(500);
    /* The variable-time additions: Z1 from the edge values but nonzero,
     * the rest from edge values, random, carry-heavy words; then b = +-a. */
    uint64_t v[8][4];
    for (int i = 0; i < 2 * N_RANDOM; i++) {
        for (int j = 0; j < 8; j++) {
            switch (i % 3) {
            case 0:
                memcpy(v[j], ep[qt_rng_u64() % (uint64_t)kp], 32);
                break;
            case 1:
                ect_random_below(v[j], ect_p256_p(), ctx);
                break;
            default:
                for (int w = 0; w < 4; w++)
                    v[j][w] = words[qt_rng_u64() % QT_ARRAY_LEN(words)];
                if (ect_ge_p(v[j]))
                    v[j][3] = 0;
            }
        }
        if ((v[2][0] | v[2][1] | v[2][2] | v[2][3]) == 0)
            v[2][0] = 1;
        check_vartime_add((const uint64_t(*)[4])v);
    }
    for (int i = 0; i < 2000; i++) {
        uint64_t z[4], x[4], y[4];
        if (i < kp * 2) {
            memcpy(z, ep[i % kp], 32);
            memcpy(x, ep[(i * 7) % kp], 32);
            memcpy(y, ep[(i * 5 + 1) % kp], 32);
        } else {
            ect_random_below(z, ect_p256_p(), ctx);
            ect_random_below(x, ect_p256_p(), ctx);
            ect_random_below(y, ect_p256_p(), ctx);
        }
        check_vartime_add_equal(z, x, y, i % 2);
    }
    check_vartime_chain(1000);
    check_partial_square_high(ctx);
    /* Inversion through the ADX kernel against BN. */
    for (int i = 0; i < 200; i++) {
        quill_p256_scalar_plain a, ai;
        quill_p256_scalar am, aim;
        ect_random_below(a.v, ect_p256_n(), ctx);
        quill_p256_scalar_to_mont(&am, &a);
        quill_p256_scalar_inv_consttime(&aim, &am);
        quill_p256_scalar_from_mont(&ai, &aim);
        BIGNUM *x = BN_new(), *y = BN_new();
        ect_limbs_to_bn(x, a.v);
        if (BN_is_zero(x))
            QT_CHECK((ai.v[0] | ai.v[1] | ai.v[2] | ai.v[3]) == 0);
        else {
            QT_CHECK(BN_mod_inverse(y, x, ect_p256_n(), ctx) != NULL);
            ect_limbs_to_bn(x, ai.v);
            QT_CHECK(BN_cmp(x, y) == 0);
        }
        BN_free(x);
        BN_free(y);
    }
    check_abi();
    BN_CTX_free(ctx);
    return qt_finish("test_ec_adx");
}

#else

int main(void) {
    printf("test_ec_adx: built without the x86-64 assembly: skipped\n");
    return QT_SKIP;
}

#endif
