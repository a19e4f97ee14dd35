/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Helpers shared by the core/ec suites. */
#include "ec_test_common.h"

#include <stdio.h>
#include <string.h>

#include "ec/p256_fe.h"
#include "ec/p256_fe_inline.h"
#include "test_util.h"

void ect_limbs_to_bn(BIGNUM *bn, const uint64_t v[4]) {
    uint8_t b[32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            b[8 * (3 - i) + j] = (uint8_t)(v[i] >> (56 - 8 * j));
    BN_bin2bn(b, 32, bn);
}

int ect_bn_to_limbs(uint64_t v[4], const BIGNUM *bn) {
    uint8_t b[32];
    if (BN_bn2binpad(bn, b, 32) != 32)
        return 0;
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++)
            w = (w << 8) | b[8 * (3 - i) + j];
        v[i] = w;
    }
    return 1;
}

static BIGNUM *hex_bn(const char *hex) {
    BIGNUM *bn = NULL;
    BN_hex2bn(&bn, hex);
    return bn;
}

const BIGNUM *ect_p256_p(void) {
    static BIGNUM *p;
    if (p == NULL)
        p = hex_bn("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
    return p;
}

const BIGNUM *ect_p256_n(void) {
    static BIGNUM *n;
    if (n == NULL)
        n = hex_bn("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    return n;
}

int ect_ge_p(const uint64_t v[4]) {
    static const uint64_t p[4] = {UINT64_MAX, UINT64_C(0xffffffff), 0,
                                  UINT64_C(0xffffffff00000001)};
    for (int w = 3; w >= 0; w--)
        if (v[w] != p[w])
            return v[w] > p[w];
    return 1;
}

void ect_random_below(uint64_t v[4], const BIGNUM *m, BN_CTX *ctx) {
    uint64_t r = qt_rng_u64() % 8;
    for (int i = 0; i < 4; i++) {
        uint64_t w = qt_rng_u64();
        if (r == 1)
            w = (qt_rng_u64() & 1) ? ~(uint64_t)0 : 0;
        v[i] = w;
    }
    if (r == 2) { /* tiny */
        v[1] = v[2] = v[3] = 0;
        v[0] &= 0xff;
    }
    if (m == NULL)
        return;
    BN_CTX_start(ctx);
    BIGNUM *x = BN_CTX_get(ctx);
    if (r == 3) { /* m - small */
        BN_copy(x, m);
        BN_sub_word(x, 1 + (qt_rng_u64() & 0xff));
    } else {
        ect_limbs_to_bn(x, v);
        BN_nnmod(x, x, m, ctx);
    }
    ect_bn_to_limbs(v, x);
    BN_CTX_end(ctx);
}

/* ---- native field kernels against the portable twins ---- */
/* Whether the four limbs v are below m. */
static int below(const uint64_t v[4], const BIGNUM *m) {
    BIGNUM *x = BN_new();
    ect_limbs_to_bn(x, v);
    int ok = BN_cmp(x, m) < 0;
    BN_free(x);
    return ok;
}

int ect_edge_values(uint64_t out[][4], const BIGNUM *m, BN_CTX *ctx) {
    int k = 0;
    BIGNUM *t = BN_new(), *r = BN_new();
    static const uint64_t shapes[][4] = {
        {0, 0, 0, 0},
        {1, 0, 0, 0},
        {2, 0, 0, 0},
        {UINT64_MAX, 0, 0, 0},
        {UINT64_MAX, UINT64_MAX, 0, 0},
        {UINT64_MAX, UINT64_MAX, UINT64_MAX, 0},
        {0, 0, 0, UINT64_C(0x8000000000000000)},
        {0, 0, UINT64_MAX, UINT64_C(0xfffffffe00000000)},
        {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_C(0xfffffffe00000000)},
        /* all ones below 2^256 - 2^224: below p, not below n */
        {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_C(0xffffffff00000000)},
        {UINT64_MAX, UINT64_C(0xffffffff), 0, UINT64_C(0xffffffff00000000)},
        {0, UINT64_C(0xffffffff00000000), UINT64_MAX, UINT64_C(0x00000000fffffffe)},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(shapes); i++)
        if (below(shapes[i], m))
            memcpy(out[k++], shapes[i], 32);
    /* m - 1, m - 2, m - 2^64, m - 2^128, m - 2^192 */
    static const int sub_bits[] = {0, 1, 64, 128, 192};
    for (size_t i = 0; i < QT_ARRAY_LEN(sub_bits); i++) {
        BN_copy(t, m);
        if (sub_bits[i] == 1) {
            BN_sub_word(t, 2);
        } else {
            BN_zero(r);
            BN_set_bit(r, sub_bits[i]);
            BN_sub(t, t, r);
        }
        ect_bn_to_limbs(out[k++], t);
    }
    /* R mod m, R^2 mod m, R^3 mod m */
    BN_zero(r);
    BN_set_bit(r, 256);
    BN_mod(t, r, m, ctx);
    ect_bn_to_limbs(out[k++], t);
    BN_mod_mul(r, t, t, m, ctx);
    ect_bn_to_limbs(out[k++], r);
    BN_mod_mul(r, r, t, m, ctx);
    ect_bn_to_limbs(out[k++], r);
    BN_free(t);
    BN_free(r);
    return k;
}

int ect_montmul_ok(const uint64_t out[4], const uint64_t a[4], const uint64_t b[4],
                   const BIGNUM *m, BN_CTX *ctx) {
    BIGNUM *x = BN_new(), *y = BN_new(), *ri = BN_new(), *o = BN_new();
    ect_limbs_to_bn(x, a);
    ect_limbs_to_bn(y, b);
    ect_limbs_to_bn(o, out);
    BN_zero(ri);
    BN_set_bit(ri, 256);
    BN_mod_inverse(ri, ri, m, ctx);
    BN_mod_mul(x, x, y, m, ctx);
    BN_mod_mul(x, x, ri, m, ctx);
    int ok = BN_cmp(x, o) == 0;
    BN_free(x);
    BN_free(y);
    BN_free(ri);
    BN_free(o);
    return ok;
}

/* One comparison of ect_check_fe_pair: on a mismatch, also the kernel and
 * the inputs (QT_CHECK gives only this file's line). */
static void fe_same(const ect_fe_kernels *k, const char *what, int ok, const uint64_t a[4],
                    const uint64_t b[4]) {
    QT_CHECK(ok);
    if (!ok)
        fprintf(stderr,
                "  %s %s: a = %016llx%016llx%016llx%016llx, b = %016llx%016llx%016llx%016llx\n",
                k->name, what, (unsigned long long)a[3], (unsigned long long)a[2],
                (unsigned long long)a[1], (unsigned long long)a[0], (unsigned long long)b[3],
                (unsigned long long)b[2], (unsigned long long)b[1], (unsigned long long)b[0]);
}

void ect_check_fe_pair(const ect_fe_kernels *k, const uint64_t a[4], const uint64_t b[4],
                       BN_CTX *ctx, int with_bn) {
    quill_p256_fe fa, fb, want_mul, want_sqr, fx;
    uint64_t got[4];
    memcpy(fa.v, a, 32);
    memcpy(fb.v, b, 32);
    quill_p256_fe_mul_inline(&want_mul, &fa, &fb);
    quill_p256_fe_sqr_inline(&want_sqr, &fa);
    k->mul(got, a, b);
    fe_same(k, "mul", memcmp(got, want_mul.v, 32) == 0, a, b);
    if (with_bn)
        fe_same(k, "mul against BN", ect_montmul_ok(got, a, b, ect_p256_p(), ctx), a, b);
    k->sqr(got, a);
    fe_same(k, "sqr", memcmp(got, want_sqr.v, 32) == 0, a, a);
    if (with_bn)
        fe_same(k, "sqr against BN", ect_montmul_ok(got, a, a, ect_p256_p(), ctx), a, a);
    fx = fa;
    k->mul(fx.v, fx.v, b);
    fe_same(k, "mul, out aliasing a", memcmp(fx.v, want_mul.v, 32) == 0, a, b);
    fx = fb;
    k->mul(fx.v, a, fx.v);
    fe_same(k, "mul, out aliasing b", memcmp(fx.v, want_mul.v, 32) == 0, a, b);
    fx = fa;
    k->sqr(fx.v, fx.v);
    fe_same(k, "sqr, out aliasing a", memcmp(fx.v, want_sqr.v, 32) == 0, a, a);
    quill_p256_fe_mul(&fx, &fa, &fb);
    fe_same(k, "quill_p256_fe_mul", memcmp(fx.v, want_mul.v, 32) == 0, a, b);
    quill_p256_fe_sqr(&fx, &fa);
    fe_same(k, "quill_p256_fe_sqr", memcmp(fx.v, want_sqr.v, 32) == 0, a, a);
}

void ect_check_fe_kernels(const ect_fe_kernels *k, BN_CTX *ctx, int n_random, int bn_every) {
    uint64_t edge[ECT_EDGE_MAX][4], a[4], b[4];
    int ne = ect_edge_values(edge, ect_p256_p(), ctx);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++)
            ect_check_fe_pair(k, edge[i], edge[j], ctx, 1);
    for (int i = 0; i < n_random; i++) {
        ect_random_below(a, ect_p256_p(), ctx);
        ect_random_below(b, ect_p256_p(), ctx);
        ect_check_fe_pair(k, a, b, ctx, i % bn_every == 0);
    }
    quill_p256_fe x = {{3, 5, 7, 11}}, y = x, u = x, v = x;
    for (int i = 0; i < 1000; i++) {
        quill_p256_fe_mul_inline(&x, &x, &y);
        quill_p256_fe_sqr_inline(&y, &x);
        k->mul(u.v, u.v, v.v);
        k->sqr(v.v, u.v);
    }
    fe_same(k, "dependent chain", memcmp(&x, &u, 32) == 0 && memcmp(&y, &v, 32) == 0, x.v, y.v);
}

/* ---- quill_hash over EVP ---- */
#include "ec_hash.h"

int ect_hash_init(quill_hash *h, const char *name) {
    EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
    if (md == NULL)
        return 0;
    h->size = (size_t)EVP_MD_get_size(md);
    h->block_size = (size_t)EVP_MD_get_block_size(md);
    h->digest = ect_evp_digest;
    h->arg = md;
    /* The core may use its own SHA-256 (the ECDSA nonce's HMAC-DRBG), as
     * with the provider's digests. */
    h->is_sha256 = EVP_MD_is_a(md, "SHA256");
    return 1;
}

void ect_hash_free(quill_hash *h) {
    EVP_MD_free((EVP_MD *)h->arg);
    h->arg = NULL;
}

int ect_same_point(const quill_p256_jacobian *j, const EC_POINT *o, const EC_GROUP *group,
                   BN_CTX *ctx) {
    quill_p256_affine a;
    quill_word inf = quill_p256_point_to_affine(&a, j);
    if (EC_POINT_is_at_infinity(group, o))
        return inf != 0;
    if (inf)
        return 0;
    BIGNUM *x = BN_new(), *y = BN_new();
    quill_p256_fe_plain px, py;
    uint64_t vx[4], vy[4];
    int ok = EC_POINT_get_affine_coordinates(group, o, x, y, ctx);
    quill_p256_fe_from_mont(&px, &a.x);
    quill_p256_fe_from_mont(&py, &a.y);
    ok = ok && ect_bn_to_limbs(vx, x) && ect_bn_to_limbs(vy, y);
    ok = ok && memcmp(vx, px.v, 32) == 0 && memcmp(vy, py.v, 32) == 0;
    BN_free(x);
    BN_free(y);
    return ok;
}

void ect_make_q(quill_p256_affine *q, EC_POINT *oq, const uint64_t qv[4], const EC_GROUP *group,
                BN_CTX *ctx) {
    quill_p256_scalar_plain s;
    quill_p256_jacobian j;
    BIGNUM *k = BN_new();
    memcpy(s.v, qv, 32);
    quill_p256_point_mul_base(&j, &s);
    (void)quill_p256_point_to_affine(q, &j);
    ect_limbs_to_bn(k, qv);
    EC_POINT_mul(group, oq, k, NULL, NULL, ctx);
    BN_free(k);
}
