/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * core/ec field and scalar arithmetic against OpenSSL's BN: every operation
 * on thousands of random and edge inputs (0, 1, m-1, m-2, values near 2^256
 * where the bounds allow).  Montgomery-domain values are checked through
 * their definition (x stands for x * R^-1 mod m).  The variable-time
 * divsteps batch (p256_inv.h) gives the constant-time one's matrix and
 * zeta on random and sparse low words. */
#include <string.h>

#include "common/backend_names.h"
#include "ec/p256_inv.h"
#include "ec/p256_inv_avx2.h"

#include "ec/p256_fe.h"
#include "ec/p256_scalar.h"
#include "ec_test_common.h"
#include "test_util.h"

#define ITER 4000

static BN_CTX *ctx;
static BIGNUM *rinv_p, *rinv_n, *r_p, *r_n;

static int eq_limbs(const uint64_t v[4], const BIGNUM *bn) {
    uint64_t w[4];
    return ect_bn_to_limbs(w, bn) && memcmp(v, w, sizeof(w)) == 0;
}

/* Operands: random most of the time, edges in the first rounds. */
static void pick(uint64_t v[4], const BIGNUM *m, int round, int which) {
    static const int64_t edges[] = {0, 1, 2, -1, -2, -3};
    int ne = (int)QT_ARRAY_LEN(edges);
    if (round < ne * ne) {
        int e = which == 0 ? round % ne : round / ne;
        BIGNUM *x = BN_new();
        if (edges[e] >= 0) {
            BN_set_word(x, (BN_ULONG)edges[e]);
        } else {
            BN_copy(x, m);
            BN_sub_word(x, (BN_ULONG)(-edges[e]));
        }
        ect_bn_to_limbs(v, x);
        BN_free(x);
        return;
    }
    ect_random_below(v, m, ctx);
}

static void test_field(void) {
    const BIGNUM *p = ect_p256_p();
    BIGNUM *a = BN_new(), *b = BN_new(), *e = BN_new();
    for (int it = 0; it < ITER; it++) {
        quill_p256_fe x, y, z;
        quill_p256_fe_plain pl;
        pick(x.v, p, it, 0);
        pick(y.v, p, it, 1);
        ect_limbs_to_bn(a, x.v);
        ect_limbs_to_bn(b, y.v);

        quill_p256_fe_mul(&z, &x, &y);
        BN_mod_mul(e, a, b, p, ctx);
        BN_mod_mul(e, e, rinv_p, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_sqr(&z, &x);
        BN_mod_mul(e, a, a, p, ctx);
        BN_mod_mul(e, e, rinv_p, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_add(&z, &x, &y);
        BN_mod_add(e, a, b, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_sub(&z, &x, &y);
        BN_mod_sub(e, a, b, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_opp(&z, &x);
        BN_mod_sub(e, p, a, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_half(&z, &x); /* x / 2 = x * (p + 1) / 2 mod p */
        BN_add(e, p, BN_value_one());
        BN_rshift1(e, e);
        BN_mod_mul(e, e, a, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        QT_CHECK(quill_p256_fe_nonzero(&x) == (BN_is_zero(a) ? 0 : ~(quill_word)0));
        QT_CHECK(quill_p256_fe_equal(&x, &y) == (BN_cmp(a, b) == 0 ? ~(quill_word)0 : 0));
        quill_p256_fe_selectznz(&z, 0, &x, &y);
        QT_CHECK(memcmp(&z, &x, sizeof(z)) == 0);
        quill_p256_fe_selectznz(&z, ~(quill_word)0, &x, &y);
        QT_CHECK(memcmp(&z, &y, sizeof(z)) == 0);

        /* to_mont accepts any value below 2^256. */
        uint64_t raw[4];
        if (it % 3 == 0) {
            ect_random_below(raw, NULL, ctx);
        } else {
            memcpy(raw, x.v, sizeof(raw));
        }
        memcpy(pl.v, raw, sizeof(raw));
        quill_p256_fe_to_mont(&z, &pl);
        ect_limbs_to_bn(e, raw);
        BN_mod_mul(e, e, r_p, p, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_fe_from_mont(&pl, &x);
        BN_mod_mul(e, a, rinv_p, p, ctx);
        QT_CHECK(eq_limbs(pl.v, e));

        /* bytes: round trip and the canonical mask. */
        uint8_t bytes[32], back[32];
        ect_limbs_to_bn(e, raw);
        BN_bn2binpad(e, bytes, 32);
        quill_word lt = quill_p256_fe_plain_from_bytes(&pl, bytes);
        QT_CHECK(memcmp(pl.v, raw, sizeof(raw)) == 0);
        QT_CHECK(lt == (BN_cmp(e, p) < 0 ? ~(quill_word)0 : 0));
        quill_p256_fe_plain_to_bytes(back, &pl);
        QT_CHECK(memcmp(bytes, back, 32) == 0);

        if (it % 8 == 0) {
            /* inv(x) = (x R^-1)^-1 R = x^-1 R^2 */
            quill_p256_fe_inv(&z, &x);
            if (BN_is_zero(a)) {
                QT_CHECK(!quill_p256_fe_nonzero(&z));
            } else {
                BN_mod_inverse(e, a, p, ctx);
                BN_mod_mul(e, e, r_p, p, ctx);
                BN_mod_mul(e, e, r_p, p, ctx);
                QT_CHECK(eq_limbs(z.v, e));
            }
            /* sqrt: of a square it succeeds and squares back; of a
             * non-square (-x^2 since p = 3 mod 4) it fails unless x = 0. */
            quill_p256_fe sq, r, r2, nsq;
            quill_p256_fe_sqr(&sq, &x);
            QT_CHECK(quill_p256_fe_sqrt_vartime(&r, &sq) == 1);
            quill_p256_fe_sqr(&r2, &r);
            QT_CHECK(quill_p256_fe_equal(&r2, &sq));
            quill_p256_fe_opp(&nsq, &sq);
            QT_CHECK(quill_p256_fe_sqrt_vartime(&r, &nsq) == (BN_is_zero(a) ? 1 : 0));
        }
    }
    BN_free(a);
    BN_free(b);
    BN_free(e);
}

/* The vartime inverse (Kaliski's almost inverse plus a power-of-two fix-up)
 * on inputs that stress its loop: 1, 2, every power of two, n - 1, n - 2^i,
 * small values, values with long runs of zero bits, and random values with
 * many trailing zeros. */
static void test_scalar_inv_edges(void) {
    const BIGNUM *n = ect_p256_n();
    BIGNUM *a = BN_new(), *e = BN_new();
    quill_p256_scalar_plain x, y;
    for (int i = 0; i < 4 * 256 + 200; i++) {
        int kind = i / 256, bit = i % 256;
        if (kind == 0) { /* 2^bit */
            BN_zero(a);
            BN_set_bit(a, bit);
        } else if (kind == 1) { /* n - 2^bit */
            BN_zero(e);
            BN_set_bit(e, bit);
            BN_sub(a, n, e);
        } else if (kind == 2) { /* 2^bit + 1, 2^bit - 1 alternately */
            BN_zero(a);
            BN_set_bit(a, bit);
            if (bit % 2)
                BN_add_word(a, 1);
            else
                BN_sub_word(a, 1);
        } else if (kind == 3) { /* random with bit trailing zeros */
            uint64_t r[4] = {qt_rng_u64(), qt_rng_u64(), qt_rng_u64(), qt_rng_u64() >> 1};
            ect_limbs_to_bn(a, r);
            BN_rshift(a, a, bit);
            BN_lshift(a, a, bit);
            BN_nnmod(a, a, n, ctx);
        } else { /* small values 1..200 */
            BN_set_word(a, (BN_ULONG)(i - 4 * 256 + 1));
        }
        if (BN_is_zero(a) || BN_cmp(a, n) >= 0)
            continue;
        QT_CHECK(ect_bn_to_limbs(x.v, a));
        QT_CHECK(quill_p256_scalar_inv_vartime(&y, &x) == 1);
        BN_mod_inverse(e, a, n, ctx);
        QT_CHECK(eq_limbs(y.v, e));
    }
    BN_free(a);
    BN_free(e);
}

static void test_scalar(void) {
    const BIGNUM *n = ect_p256_n();
    BIGNUM *a = BN_new(), *b = BN_new(), *e = BN_new();
    for (int it = 0; it < ITER; it++) {
        quill_p256_scalar x, y, z;
        quill_p256_scalar_plain pl, pl2;
        pick(x.v, n, it, 0);
        pick(y.v, n, it, 1);
        ect_limbs_to_bn(a, x.v);
        ect_limbs_to_bn(b, y.v);

        quill_p256_scalar_mul(&z, &x, &y);
        BN_mod_mul(e, a, b, n, ctx);
        BN_mod_mul(e, e, rinv_n, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_scalar_sqr(&z, &x);
        BN_mod_mul(e, a, a, n, ctx);
        BN_mod_mul(e, e, rinv_n, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_scalar_add(&z, &x, &y);
        BN_mod_add(e, a, b, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_scalar_sub(&z, &x, &y);
        BN_mod_sub(e, a, b, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_scalar_opp(&z, &x);
        BN_mod_sub(e, n, a, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        QT_CHECK(quill_p256_scalar_nonzero(&x) == (BN_is_zero(a) ? 0 : ~(quill_word)0));
        quill_p256_scalar_selectznz(&z, ~(quill_word)0, &x, &y);
        QT_CHECK(memcmp(&z, &y, sizeof(z)) == 0);
        quill_p256_scalar_selectznz(&z, 0, &x, &y);
        QT_CHECK(memcmp(&z, &x, sizeof(z)) == 0);

        uint64_t raw[4];
        ect_random_below(raw, NULL, ctx);
        if (it % 2)
            memcpy(raw, x.v, sizeof(raw));
        memcpy(pl.v, raw, sizeof(raw));
        quill_p256_scalar_to_mont(&z, &pl);
        ect_limbs_to_bn(e, raw);
        BN_mod_mul(e, e, r_n, n, ctx);
        QT_CHECK(eq_limbs(z.v, e));

        quill_p256_scalar_plain_reduce(&pl2, &pl);
        ect_limbs_to_bn(e, raw);
        BN_nnmod(e, e, n, ctx);
        QT_CHECK(eq_limbs(pl2.v, e));

        uint8_t bytes[32], back[32];
        ect_limbs_to_bn(e, raw);
        BN_bn2binpad(e, bytes, 32);
        quill_word lt = quill_p256_scalar_plain_from_bytes(&pl2, bytes);
        QT_CHECK(memcmp(pl2.v, raw, sizeof(raw)) == 0);
        QT_CHECK(lt == (BN_cmp(e, n) < 0 ? ~(quill_word)0 : 0));
        QT_CHECK(quill_p256_scalar_plain_nonzero(&pl2) == (BN_is_zero(e) ? 0 : ~(quill_word)0));
        quill_p256_scalar_plain_to_bytes(back, &pl2);
        QT_CHECK(memcmp(bytes, back, 32) == 0);

        quill_p256_scalar_from_mont(&pl, &x);
        BN_mod_mul(e, a, rinv_n, n, ctx);
        QT_CHECK(eq_limbs(pl.v, e));

        /* Vartime inverse on plain values. */
        memcpy(pl.v, x.v, sizeof(pl.v));
        if (BN_is_zero(a)) {
            QT_CHECK(quill_p256_scalar_inv_vartime(&pl2, &pl) == 0);
        } else {
            QT_CHECK(quill_p256_scalar_inv_vartime(&pl2, &pl) == 1);
            BN_mod_inverse(e, a, n, ctx);
            QT_CHECK(eq_limbs(pl2.v, e));
        }
        if (it % 4 == 1) {
            /* The paired inversion: k^-1 mod n and Z^-1 mod p (a field
             * element drawn here), each against BN, edges included (y
             * takes the edge values below p as well: pick by round). */
            quill_p256_fe fz, fzi;
            quill_p256_scalar ki;
            BIGNUM *fb = BN_new();
            pick(fz.v, ect_p256_p(), it, 1);
            ect_limbs_to_bn(fb, fz.v);
            quill_p256_inv_pair_consttime(&fzi, &fz, &ki, &x);
            if (BN_is_zero(a)) {
                QT_CHECK(!quill_p256_scalar_nonzero(&ki));
            } else {
                BN_mod_inverse(e, a, n, ctx);
                BN_mod_mul(e, e, r_n, n, ctx);
                BN_mod_mul(e, e, r_n, n, ctx);
                QT_CHECK(eq_limbs(ki.v, e));
            }
            if (BN_is_zero(fb)) {
                QT_CHECK(!quill_p256_fe_nonzero(&fzi));
            } else {
                BN_mod_inverse(e, fb, ect_p256_p(), ctx);
                BN_mod_mul(e, e, r_p, ect_p256_p(), ctx);
                BN_mod_mul(e, e, r_p, ect_p256_p(), ctx);
                QT_CHECK(eq_limbs(fzi.v, e));
            }
            BN_free(fb);
        }
        if (it % 8 == 0) {
            quill_p256_scalar_inv_consttime(&z, &x);
            if (BN_is_zero(a)) {
                QT_CHECK(!quill_p256_scalar_nonzero(&z));
            } else {
                BN_mod_inverse(e, a, n, ctx);
                BN_mod_mul(e, e, r_n, n, ctx);
                BN_mod_mul(e, e, r_n, n, ctx);
                QT_CHECK(eq_limbs(z.v, e));
            }
        }
    }
    BN_free(a);
    BN_free(b);
    BN_free(e);
}

/* quill_inv_divsteps_62_vartime computes the same 62 divsteps as
 * quill_inv_divsteps_62: same zeta and transition matrix, for odd f, any
 * g (sparse, zero, with long runs of zero bits) and zeta in a wide range. */
static void test_divsteps_vartime(int count) {
    for (int i = 0; i < count; i++) {
        uint64_t f = qt_rng_u64() | 1, g = qt_rng_u64();
        switch (i % 6) {
        case 1:
            g &= qt_rng_u64() & qt_rng_u64(); /* sparse */
            break;
        case 2:
            g <<= qt_rng_u64() % 64; /* a long run of zeros at the bottom */
            break;
        case 3:
            g = i % 12 == 3 ? 0 : UINT64_C(1) << (qt_rng_u64() % 64);
            break;
        default:
            break;
        }
        int64_t zeta = (int64_t)(qt_rng_u64() % 1200) - 600, t1[4], t2[4];
        const int64_t z1 = quill_inv_divsteps_62(zeta, f, g, t1);
        const int64_t z2 = quill_inv_divsteps_62_vartime(zeta, f, g, t2);
        QT_CHECK(z1 == z2 && memcmp(t1, t2, sizeof(t1)) == 0);
    }
}

/* The two-state divsteps kernels (the portable quill_inv_divsteps_x2 and,
 * when the CPU has it, the AVX2 one) compute what two calls of
 * quill_inv_divsteps_62 do: same zetas and matrices, on the inputs of
 * test_divsteps_vartime for each state. */
static uint64_t divsteps_g(int i) {
    uint64_t g = qt_rng_u64();
    switch (i % 6) {
    case 1:
        return g & qt_rng_u64() & qt_rng_u64();
    case 2:
        return g << (qt_rng_u64() % 64);
    case 3:
        return i % 12 == 3 ? 0 : UINT64_C(1) << (qt_rng_u64() % 64);
    case 4:
        return ~(uint64_t)0 >> (qt_rng_u64() % 64);
    default:
        return g;
    }
}

/* One call of a kernel (62 steps) from the state of a batch's start. */
static void run_x2(quill_inv_divsteps_x2_fn *kern, int64_t z[2], const uint64_t f[2],
                   const uint64_t g[2], int64_t ta[4], int64_t tb[4]) {
    quill_inv_x2 st;
    for (int k = 0; k < 2; k++) {
        st.f[k] = f[k];
        st.g[k] = g[k];
        st.zeta[k] = z[k];
        st.t[k][0] = st.t[k][3] = 1;
        st.t[k][1] = st.t[k][2] = 0;
    }
    kern(&st);
    memcpy(ta, st.t[0], sizeof(st.t[0]));
    memcpy(tb, st.t[1], sizeof(st.t[1]));
    z[0] = st.zeta[0];
    z[1] = st.zeta[1];
}

static void portable_x2(quill_inv_x2 *st) {
    quill_inv_divsteps_x2(st);
}

static void test_divsteps_x2(int count) {
    int avx2 = quill_p256_inv_avx2_capable();
    for (int i = 0; i < count; i++) {
        const uint64_t f[2] = {qt_rng_u64() | 1, qt_rng_u64() | 1};
        const uint64_t g[2] = {divsteps_g(i), divsteps_g(i / 6)};
        const int64_t za = (int64_t)(qt_rng_u64() % 1300) - 650;
        const int64_t zb = (int64_t)(qt_rng_u64() % 1300) - 650;
        int64_t ta[4], tb[4], xa[4], xb[4], z[2] = {za, zb};
        const int64_t z1 = quill_inv_divsteps_62(za, f[0], g[0], ta);
        const int64_t z2 = quill_inv_divsteps_62(zb, f[1], g[1], tb);
        run_x2(portable_x2, z, f, g, xa, xb);
        QT_CHECK(z[0] == z1 && z[1] == z2);
        QT_CHECK(memcmp(ta, xa, sizeof(ta)) == 0 && memcmp(tb, xb, sizeof(tb)) == 0);
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
        if (avx2) {
            z[0] = za;
            z[1] = zb;
            run_x2(quill_p256_inv_divsteps_x2_avx2, z, f, g, xa, xb);
            QT_CHECK(z[0] == z1 && z[1] == z2);
            QT_CHECK(memcmp(ta, xa, sizeof(ta)) == 0 && memcmp(tb, xb, sizeof(tb)) == 0);
        }
#endif
    }
    printf("# divsteps_x2: %d pairs, AVX2 kernel %s\n", count, avx2 ? "checked" : "absent");
    /* the backend name (quill-info, the provider's quill-backends) shows
     * the AVX2 kernel exactly where the paired inversion runs it */
    const char *name = quill_p256_backend_name();
    QT_CHECK((strstr(name, "avx2") != NULL) == (avx2 != 0));
}

/* A value below m with many leading or trailing zero bits, or few bits set:
 * kind 0 random >> s, 1 random << s (reduced below m by clearing the top),
 * 2 a power of two, 3 sparse, 4 m - 2^s. */
static void pick_shaped(uint64_t v[4], const BIGNUM *m, int kind) {
    BIGNUM *x = BN_new();
    const int s = (int)(qt_rng_u64() % 256);
    ect_random_below(v, m, ctx);
    ect_limbs_to_bn(x, v);
    switch (kind) {
    case 0:
        BN_rshift(x, x, s);
        break;
    case 1:
        BN_lshift(x, x, s);
        BN_mask_bits(x, 255);
        break;
    case 2:
        BN_zero(x);
        BN_set_bit(x, s % 255);
        break;
    case 3:
        for (int i = 0; i < 4; i++)
            v[i] &= qt_rng_u64() & qt_rng_u64() & qt_rng_u64();
        ect_limbs_to_bn(x, v);
        break;
    default: {
        BIGNUM *t = BN_new();
        BN_zero(t);
        BN_set_bit(t, s);
        BN_sub(x, m, t);
        BN_free(t);
        break;
    }
    }
    ect_bn_to_limbs(v, x);
    BN_free(x);
}

/* quill_p256_inv_pair_consttime against BN_mod_inverse on shaped inputs
 * (leading and trailing zero runs, powers of two, sparse, m - 2^s) and
 * 0, 1, m - 1 in both positions. */
static void test_inv_pair_shaped(int count) {
    const BIGNUM *p = ect_p256_p(), *n = ect_p256_n();
    BIGNUM *e = BN_new(), *a = BN_new();
    for (int i = 0; i < count; i++) {
        quill_p256_fe fz, fzi;
        quill_p256_scalar k, ki;
        if (i < 9) {
            const int ez = i % 3, ek = i / 3; /* 0, 1, m - 1 */
            memset(fz.v, 0, sizeof(fz.v));
            memset(k.v, 0, sizeof(k.v));
            if (ez == 1)
                fz.v[0] = 1;
            if (ek == 1)
                k.v[0] = 1;
            if (ez == 2) {
                BN_sub(a, p, BN_value_one());
                ect_bn_to_limbs(fz.v, a);
            }
            if (ek == 2) {
                BN_sub(a, n, BN_value_one());
                ect_bn_to_limbs(k.v, a);
            }
        } else {
            pick_shaped(fz.v, p, i % 5);
            pick_shaped(k.v, n, (i / 5) % 5);
        }
        quill_p256_inv_pair_consttime(&fzi, &fz, &ki, &k);
        /* Inputs and outputs are Montgomery forms: x R -> x^-1 R, so
         * out = (in)^-1 R^2 with in taken as a plain value. */
        ect_limbs_to_bn(a, fz.v);
        if (BN_is_zero(a)) {
            QT_CHECK(!quill_p256_fe_nonzero(&fzi));
        } else {
            QT_CHECK(BN_mod_inverse(e, a, p, ctx) != NULL);
            BN_mod_mul(e, e, r_p, p, ctx);
            BN_mod_mul(e, e, r_p, p, ctx);
            QT_CHECK(eq_limbs(fzi.v, e));
        }
        ect_limbs_to_bn(a, k.v);
        if (BN_is_zero(a)) {
            QT_CHECK(!quill_p256_scalar_nonzero(&ki));
        } else {
            QT_CHECK(BN_mod_inverse(e, a, n, ctx) != NULL);
            BN_mod_mul(e, e, r_n, n, ctx);
            BN_mod_mul(e, e, r_n, n, ctx);
            QT_CHECK(eq_limbs(ki.v, e));
        }
    }
    printf("# inv_pair shaped inputs: %d pairs\n", count);
    BN_free(a);
    BN_free(e);
}

int main(void) {
    qt_rng_seed(0x70256f1e1dULL);
    ctx = BN_CTX_new();
    rinv_p = BN_new();
    rinv_n = BN_new();
    r_p = BN_new();
    r_n = BN_new();
    BIGNUM *r = BN_new();
    BN_set_bit(r, 256);
    BN_nnmod(r_p, r, ect_p256_p(), ctx);
    BN_nnmod(r_n, r, ect_p256_n(), ctx);
    BN_mod_inverse(rinv_p, r, ect_p256_p(), ctx);
    BN_mod_inverse(rinv_n, r, ect_p256_n(), ctx);
    BN_free(r);
    test_field();
    test_scalar();
    test_scalar_inv_edges();
    test_divsteps_vartime(200000);
    test_divsteps_x2(200000);
    test_inv_pair_shaped(20000);
    BN_free(rinv_p);
    BN_free(rinv_n);
    BN_free(r_p);
    BN_free(r_n);
    BN_CTX_free(ctx);
    return qt_finish("ec_field");
}
