/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_arm64: the aarch64 P-256 field kernels (asm/aarch64/p256_fe.S)
 * against their portable twins quill_p256_fe_mul_inline / _sqr_inline and
 * against BN (a b R^-1 mod p), on edge values (0, 1, 2, p - 1, p - 2,
 * p - 2^64, p - 2^128, R mod p, R^2 mod p, R^3 mod p, limbs of all ones or
 * all zeros below p, the all-ones value 2^256 - 2^224 - 1 < p) in every
 * pair, and on random inputs biased towards carry-heavy shapes; out
 * aliasing a or b; the dispatching quill_p256_fe_mul / _sqr equal the twins
 * and name the backend; and both entry points preserve the AAPCS64
 * callee-saved registers (quill_abi_a64_call).  Skips (77) off aarch64,
 * with QUILL_NO_ASM, or when QUILL_CPU_MASK clears QUILL_CPU_ARM64. */
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>

#include "abi_check_aarch64.h"
#include "common/backend_names.h"
#include "ec/p256_arm64.h"
#include "ec/p256_fe_inline.h"
#include "ec_test_common.h"
#include "test_util.h"

#if defined(QUILL_P256_HAVE_ARM64) && QUILL_HAVE_ABI_A64

enum { N_RANDOM = 20000, N_BN = 500, N_ABI = 64 };

static int edge_values(uint64_t out[][4], BN_CTX *ctx) {
    const BIGNUM *p = ect_p256_p();
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
        /* all ones below p: 2^256 - 2^224 - 1 */
        {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_C(0xffffffff00000000)},
        {UINT64_MAX, UINT64_C(0xffffffff), 0, UINT64_C(0xffffffff00000000)},
        {0, UINT64_C(0xffffffff00000000), UINT64_MAX, UINT64_C(0x00000000fffffffe)},
    };
    for (size_t i = 0; i < QT_ARRAY_LEN(shapes); i++)
        memcpy(out[k++], shapes[i], 32);
    static const int sub_bits[] = {0, 1, 64, 128, 192};
    for (size_t i = 0; i < QT_ARRAY_LEN(sub_bits); i++) {
        BN_copy(t, p);
        if (sub_bits[i] == 1) {
            BN_sub_word(t, 2);
        } else {
            BN_zero(r);
            BN_set_bit(r, sub_bits[i]);
            BN_sub(t, t, r);
        }
        ect_bn_to_limbs(out[k++], t);
    }
    BN_zero(r);
    BN_set_bit(r, 256);
    BN_mod(t, r, p, ctx);
    ect_bn_to_limbs(out[k++], t); /* R mod p */
    BN_mod_mul(r, t, t, p, ctx);
    ect_bn_to_limbs(out[k++], r); /* R^2 mod p */
    BN_mod_mul(r, r, t, p, ctx);
    ect_bn_to_limbs(out[k++], r); /* R^3 mod p */
    BN_free(t);
    BN_free(r);
    return k;
}

/* out == a b R^-1 mod p by BN. */
static int bn_montmul_ok(const uint64_t out[4], const uint64_t a[4], const uint64_t b[4],
                         BN_CTX *ctx) {
    const BIGNUM *p = ect_p256_p();
    BIGNUM *x = BN_new(), *y = BN_new(), *ri = BN_new(), *o = BN_new();
    ect_limbs_to_bn(x, a);
    ect_limbs_to_bn(y, b);
    ect_limbs_to_bn(o, out);
    BN_zero(ri);
    BN_set_bit(ri, 256);
    BN_mod_inverse(ri, ri, p, ctx);
    BN_mod_mul(x, x, y, p, ctx);
    BN_mod_mul(x, x, ri, p, ctx);
    int ok = BN_cmp(x, o) == 0;
    BN_free(x);
    BN_free(y);
    BN_free(ri);
    BN_free(o);
    return ok;
}

static void check_pair(const uint64_t a[4], const uint64_t b[4], BN_CTX *ctx, int with_bn) {
    quill_p256_fe fa, fb, want_mul, want_sqr, fx;
    uint64_t got[4];
    memcpy(fa.v, a, 32);
    memcpy(fb.v, b, 32);
    quill_p256_fe_mul_inline(&want_mul, &fa, &fb);
    quill_p256_fe_sqr_inline(&want_sqr, &fa);
    quill_p256_fe_mul_arm64(got, a, b);
    QT_CHECK(memcmp(got, want_mul.v, 32) == 0);
    if (with_bn)
        QT_CHECK(bn_montmul_ok(got, a, b, ctx));
    quill_p256_fe_sqr_arm64(got, a);
    QT_CHECK(memcmp(got, want_sqr.v, 32) == 0);
    if (with_bn)
        QT_CHECK(bn_montmul_ok(got, a, a, ctx));
    fx = fa;
    quill_p256_fe_mul_arm64(fx.v, fx.v, b); /* out aliases a */
    QT_CHECK(memcmp(fx.v, want_mul.v, 32) == 0);
    fx = fb;
    quill_p256_fe_mul_arm64(fx.v, a, fx.v); /* out aliases b */
    QT_CHECK(memcmp(fx.v, want_mul.v, 32) == 0);
    fx = fa;
    quill_p256_fe_sqr_arm64(fx.v, fx.v);
    QT_CHECK(memcmp(fx.v, want_sqr.v, 32) == 0);
    quill_p256_fe_mul(&fx, &fa, &fb); /* the dispatchers */
    QT_CHECK(memcmp(fx.v, want_mul.v, 32) == 0);
    quill_p256_fe_sqr(&fx, &fa);
    QT_CHECK(memcmp(fx.v, want_sqr.v, 32) == 0);
}

static const void *fnptr(void (*f)(void)) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

/* Both kernels through the ABI checker: no callee-saved register changed,
 * and the result still right. */
static void check_abi(const uint64_t a[4], const uint64_t b[4]) {
    quill_p256_fe fa, fb, want;
    uint64_t got[4], ret = 0, args[8] = {0};
    uint32_t bad;
    memcpy(fa.v, a, 32);
    memcpy(fb.v, b, 32);
    args[0] = (uint64_t)(uintptr_t)got;
    args[1] = (uint64_t)(uintptr_t)a;
    args[2] = (uint64_t)(uintptr_t)b;
    memset(got, 0, sizeof(got));
    bad = quill_abi_a64_call(fnptr((void (*)(void))quill_p256_fe_mul_arm64), args, &ret);
    if (bad != 0)
        fprintf(stderr, "fe_mul_arm64 changed %s\n", quill_abi_a64_reg_name((unsigned)__builtin_ctz(bad)));
    QT_CHECK(bad == 0);
    quill_p256_fe_mul_inline(&want, &fa, &fb);
    QT_CHECK(memcmp(got, want.v, 32) == 0);
    memset(got, 0, sizeof(got));
    bad = quill_abi_a64_call(fnptr((void (*)(void))quill_p256_fe_sqr_arm64), args, &ret);
    if (bad != 0)
        fprintf(stderr, "fe_sqr_arm64 changed %s\n", quill_abi_a64_reg_name((unsigned)__builtin_ctz(bad)));
    QT_CHECK(bad == 0);
    quill_p256_fe_sqr_inline(&want, &fa);
    QT_CHECK(memcmp(got, want.v, 32) == 0);
}

int main(void) {
    if (!quill_p256_arm64_capable()) {
        puts("test_ec_arm64: QUILL_CPU_ARM64 masked: skipped");
        return 77;
    }
    QT_CHECK(strcmp(quill_p256_backend_name(), "arm64") == 0);
    BN_CTX *ctx = BN_CTX_new();
    uint64_t edge[32][4], a[4], b[4];
    int ne = edge_values(edge, ctx);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++) {
            check_pair(edge[i], edge[j], ctx, 1);
            check_abi(edge[i], edge[j]);
        }
    qt_rng_seed(0x70256a64);
    for (int i = 0; i < N_RANDOM; i++) {
        ect_random_below(a, ect_p256_p(), ctx);
        ect_random_below(b, ect_p256_p(), ctx);
        check_pair(a, b, ctx, i < N_BN);
        if (i < N_ABI)
            check_abi(a, b);
    }
    /* A dependent chain (each output the next input), as the formulas use
     * the kernels. */
    quill_p256_fe x = {{3, 5, 7, 11}}, y = x;
    for (int i = 0; i < 1000; i++) {
        quill_p256_fe_mul_inline(&x, &x, &y);
        quill_p256_fe_sqr_inline(&y, &x);
    }
    quill_p256_fe u = {{3, 5, 7, 11}}, v = u;
    for (int i = 0; i < 1000; i++) {
        quill_p256_fe_mul_arm64(u.v, u.v, v.v);
        quill_p256_fe_sqr_arm64(v.v, u.v);
    }
    QT_CHECK(memcmp(&x, &u, 32) == 0 && memcmp(&y, &v, 32) == 0);
    BN_CTX_free(ctx);
    return qt_finish("ec_arm64");
}

#else
int main(void) {
    puts("test_ec_arm64: no aarch64 P-256 assembly in this build: skipped");
    return 77;
}
#endif
