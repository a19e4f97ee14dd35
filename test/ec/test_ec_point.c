/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * core/ec point multiplication against OpenSSL's EC_POINT_mul: the
 * constant-time fixed-base k * G on random and edge scalars (0, 1, 2, small,
 * n-1, n-2, high Hamming weight, single bits), and the vartime
 * u1 * G + u2 * Q including its doubling and infinity cases (Q = +-G). */
#include <string.h>

#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "ec/p256_point.h"
#include "ec/p256_verify_point.h"
#include "ec_test_common.h"
#include "test_util.h"

static BN_CTX *ctx;
static EC_GROUP *group;

/* Scalar for case |i|: edges first, then shapes, then random below n. */
static void pick_scalar(uint64_t v[4], int i) {
    const BIGNUM *n = ect_p256_n();
    BIGNUM *x = BN_new();
    static const long edges[] = {0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, -1, -2, -3, -16, -128};
    int ne = (int)QT_ARRAY_LEN(edges);
    if (i < ne) {
        if (edges[i] >= 0) {
            BN_set_word(x, (BN_ULONG)edges[i]);
        } else {
            BN_copy(x, n);
            BN_sub_word(x, (BN_ULONG)(-edges[i]));
        }
    } else if (i < ne + 256) { /* single bits 2^0 .. 2^255 */
        BN_zero(x);
        BN_set_bit(x, i - ne);
        BN_nnmod(x, x, n, ctx);
    } else if (i < ne + 300) { /* high Hamming weight: n-1 with a few bits cleared */
        BN_copy(x, n);
        BN_sub_word(x, 1);
        for (int k = 0; k < 3; k++)
            BN_clear_bit(x, (int)(qt_rng_u64() % 256));
    } else {
        ect_random_below(v, n, ctx);
        BN_free(x);
        return;
    }
    ect_bn_to_limbs(v, x);
    BN_free(x);
}

static void test_base(int count) {
    EC_POINT *o = EC_POINT_new(group);
    BIGNUM *k = BN_new();
    for (int i = 0; i < count; i++) {
        quill_p256_scalar_plain s;
        quill_p256_jacobian r;
        pick_scalar(s.v, i);
        quill_p256_point_mul_base(&r, &s);
        ect_limbs_to_bn(k, s.v);
        EC_POINT_mul(group, o, k, NULL, NULL, ctx);
        QT_CHECK(ect_same_point(&r, o, group, ctx));
    }
    EC_POINT_free(o);
    BN_free(k);
}

static void test_double(int count) {
    const BIGNUM *n = ect_p256_n();
    EC_POINT *o = EC_POINT_new(group), *oq = EC_POINT_new(group);
    BIGNUM *b1 = BN_new(), *b2 = BN_new(), *t = BN_new();
    for (int i = 0; i < count; i++) {
        quill_p256_scalar_plain u1, u2;
        quill_p256_affine q;
        quill_p256_jacobian r;
        uint64_t qv[4];
        int mode = i % 6;
        ect_random_below(qv, n, ctx);
        if (qv[0] == 0 && qv[1] == 0 && qv[2] == 0 && qv[3] == 0)
            qv[0] = 7;
        pick_scalar(u1.v, i / 2);
        pick_scalar(u2.v, i / 3 + 5);
        if (mode == 1 || mode == 2) { /* Q = G or Q = -G */
            BN_set_word(t, 1);
            if (mode == 2)
                BN_sub(t, n, t);
            ect_bn_to_limbs(qv, t);
        }
        ect_make_q(&q, oq, qv, group, ctx);
        if (mode == 3) { /* u2 = u1 with Q = G: the doubling case */
            BN_one(t);
            ect_bn_to_limbs(qv, t);
            ect_make_q(&q, oq, qv, group, ctx);
            u2 = u1;
        }
        if (mode == 4) { /* u1 + u2 q = 0: the result is infinity */
            ect_limbs_to_bn(b2, u2.v);
            ect_limbs_to_bn(t, qv);
            BN_mod_mul(b1, b2, t, n, ctx);
            BN_mod_sub(b1, n, b1, n, ctx);
            ect_bn_to_limbs(u1.v, b1);
        }
        if (mode == 5 && i % 4 == 1) /* values up to 2^256 - 1 (not reduced) */
            memset(u1.v, 0xff, 32);
        quill_p256_point_mul_double_vartime(&r, &u1, &u2, &q);
        ect_limbs_to_bn(b1, u1.v);
        ect_limbs_to_bn(b2, u2.v);
        EC_POINT_mul(group, o, b1, oq, b2, ctx);
        QT_CHECK(ect_same_point(&r, o, group, ctx));
        if (mode == 4)
            QT_CHECK(EC_POINT_is_at_infinity(group, o));
    }
    EC_POINT_free(o);
    EC_POINT_free(oq);
    BN_free(b1);
    BN_free(b2);
    BN_free(t);
}

/* Constant-time variable-base k * Q against EC_POINT_mul, and the complete
 * constant-time addition against the vartime one on its special cases. */
static void test_mul_ct(int count) {
    const BIGNUM *n = ect_p256_n();
    EC_POINT *o = EC_POINT_new(group), *oq = EC_POINT_new(group);
    BIGNUM *k = BN_new();
    for (int i = 0; i < count; i++) {
        quill_p256_scalar_plain s;
        quill_p256_affine q;
        quill_p256_jacobian r;
        uint64_t qv[4];
        ect_random_below(qv, n, ctx);
        if ((qv[0] | qv[1] | qv[2] | qv[3]) == 0 || i % 10 == 0) {
            memset(qv, 0, sizeof(qv));
            qv[0] = 1 + (uint64_t)(i % 3); /* Q = G, 2G, 3G */
        }
        ect_make_q(&q, oq, qv, group, ctx);
        pick_scalar(s.v, i);
        if (i % 50 == 7) /* values above n are accepted too */
            memset(s.v, 0xff, sizeof(s.v));
        quill_p256_point_mul_consttime(&r, &s, &q);
        ect_limbs_to_bn(k, s.v);
        EC_POINT_mul(group, o, NULL, oq, k, ctx);
        QT_CHECK(ect_same_point(&r, o, group, ctx));
    }
    /* Special cases of the complete addition. */
    quill_p256_affine g;
    quill_p256_jacobian gj, g2, ng, inf, r1, r2;
    quill_p256_generator(&g);
    quill_p256_point_from_affine(&gj, &g);
    quill_p256_point_double(&g2, &gj);
    /* a non-normalised copy of G: (X Z^2, Y Z^3, Z) with Z = 2G.x */
    quill_p256_jacobian gz;
    quill_p256_fe zz, zzz;
    quill_p256_fe_sqr(&zz, &g2.x);
    quill_p256_fe_mul(&zzz, &zz, &g2.x);
    quill_p256_fe_mul(&gz.x, &g.x, &zz);
    quill_p256_fe_mul(&gz.y, &g.y, &zzz);
    gz.z = g2.x;
    ng = gj;
    quill_p256_fe_opp(&ng.y, &ng.y);
    quill_p256_fe_one(&inf.x);
    quill_p256_fe_one(&inf.y);
    memset(&inf.z, 0, sizeof(inf.z));
    const quill_p256_jacobian *pairs[][2] = {{&gj, &gz}, {&gz, &gj}, {&gj, &ng}, {&inf, &gj},
                                             {&gj, &inf}, {&inf, &inf}, {&g2, &gj}, {&gz, &g2}};
    for (size_t p = 0; p < QT_ARRAY_LEN(pairs); p++) {
        quill_p256_point_add_consttime(&r1, pairs[p][0], pairs[p][1]);
        quill_p256_point_add_vartime(&r2, pairs[p][0], pairs[p][1]);
        quill_p256_affine a1, a2;
        quill_word i1 = quill_p256_point_to_affine(&a1, &r1);
        quill_word i2 = quill_p256_point_to_affine(&a2, &r2);
        QT_CHECK(i1 == i2 && memcmp(&a1, &a2, sizeof(a1)) == 0);
    }
    EC_POINT_free(o);
    EC_POINT_free(oq);
    BN_free(k);
}

static void test_formulas(void) {
    /* Generator on the curve; a perturbed point off it. */
    quill_p256_affine g, bad;
    quill_p256_generator(&g);
    QT_CHECK(quill_p256_affine_on_curve(&g) != 0);
    bad = g;
    quill_p256_fe one;
    quill_p256_fe_one(&one);
    quill_p256_fe_add(&bad.y, &bad.y, &one);
    QT_CHECK(quill_p256_affine_on_curve(&bad) == 0);
    /* Constant-time mixed addition: infinity on either side. */
    quill_p256_jacobian inf, r, gj, g2;
    quill_p256_fe_one(&inf.x);
    quill_p256_fe_one(&inf.y);
    memset(&inf.z, 0, sizeof(inf.z));
    quill_p256_point_from_affine(&gj, &g);
    quill_p256_point_add_mixed(&r, &inf, &g, 0);
    quill_p256_affine ra;
    QT_CHECK(quill_p256_point_to_affine(&ra, &r) == 0);
    QT_CHECK(memcmp(&ra, &g, sizeof(ra)) == 0);
    quill_p256_point_double(&g2, &gj);
    quill_p256_point_add_mixed(&r, &g2, &g, ~(quill_word)0);
    QT_CHECK(memcmp(&r, &g2, sizeof(r)) == 0);
    quill_p256_point_add_mixed(&r, &inf, &g, ~(quill_word)0);
    QT_CHECK(!quill_p256_fe_nonzero(&r.z));
    /* 2G + G (mixed, constant time) == G + 2G (vartime, Jacobian). */
    quill_p256_jacobian s1, s2;
    quill_p256_affine a1, a2;
    quill_p256_point_add_mixed(&s1, &g2, &g, 0);
    quill_p256_point_add_vartime(&s2, &gj, &g2);
    (void)quill_p256_point_to_affine(&a1, &s1);
    (void)quill_p256_point_to_affine(&a2, &s2);
    QT_CHECK(memcmp(&a1, &a2, sizeof(a1)) == 0);
    QT_CHECK(quill_p256_affine_on_curve(&a1) != 0);
    /* Vartime additions: G + G doubles, G + (-G) is infinity. */
    quill_p256_point_add_vartime(&s1, &gj, &gj);
    (void)quill_p256_point_to_affine(&a1, &s1);
    (void)quill_p256_point_to_affine(&a2, &g2);
    QT_CHECK(memcmp(&a1, &a2, sizeof(a1)) == 0);
    quill_p256_affine ng = g;
    quill_p256_fe_opp(&ng.y, &ng.y);
    vt_madd(&s1, &gj, &ng); /* verification's mixed addition */
    QT_CHECK(!quill_p256_fe_nonzero(&s1.z));
    vt_madd(&s1, &gj, &g);
    (void)quill_p256_point_to_affine(&a1, &s1);
    QT_CHECK(memcmp(&a1, &a2, sizeof(a1)) == 0);
    /* Infinity to affine is (0, 0) and reported. */
    QT_CHECK(quill_p256_point_to_affine(&a1, &inf) != 0);
    QT_CHECK(!quill_p256_fe_nonzero(&a1.x) && !quill_p256_fe_nonzero(&a1.y));
}

int main(void) {
    qt_rng_seed(0x9e1e7ab1e5ULL);
    ctx = BN_CTX_new();
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (ctx == NULL || group == NULL)
        return 1;
    test_formulas();
    test_base(1500);
    test_double(1500);
    test_mul_ct(300);
    EC_GROUP_free(group);
    BN_CTX_free(ctx);
    return qt_finish("ec_point");
}
