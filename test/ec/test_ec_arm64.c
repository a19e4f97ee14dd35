/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_arm64: the aarch64 P-256 field kernels (asm/aarch64/p256_fe.S)
 * against their portable twins quill_p256_fe_mul_inline / _sqr_inline and
 * against BN (a b R^-1 mod p), through ect_check_fe_kernels
 * (ec_test_common.h, shared with test_ec_adx): edge values (0, 1, 2,
 * p - 1, p - 2, p - 2^64, p - 2^128, p - 2^192, R mod p, R^2 mod p,
 * R^3 mod p, limbs of all ones or all zeros below p, the all-ones value
 * 2^256 - 2^224 - 1 < p) in every pair, random inputs biased towards
 * carry-heavy shapes, out aliasing a or b, the dispatching
 * quill_p256_fe_mul / _sqr against the twins, and a dependent chain; the
 * backend name; and both entry points preserve the AAPCS64 callee-saved
 * registers (quill_abi_a64_check) on every pair of edge values and on
 * random pairs; the Fermat inversion quill_p256_fe_inv_arm64 against the
 * divsteps twin quill_p256_fe_inv_divsteps (edge and random values, zero,
 * aliasing, a a^-1 = 1).  Skips (77) off aarch64,
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

enum { N_RANDOM = 20000, N_BN_EVERY = 40, N_ABI = 64, N_INV = 300 };

static const ect_fe_kernels arm64_kernels = {"arm64", quill_p256_fe_mul_arm64,
                                             quill_p256_fe_sqr_arm64};

/* Both kernels through the ABI checker: no callee-saved register changed,
 * and the result still right. */
static void check_abi(const uint64_t a[4], const uint64_t b[4]) {
    quill_p256_fe fa, fb, want;
    uint64_t got[4], ret = 0, args[8] = {0};
    memcpy(fa.v, a, 32);
    memcpy(fb.v, b, 32);
    args[0] = (uint64_t)(uintptr_t)got;
    args[1] = (uint64_t)(uintptr_t)a;
    args[2] = (uint64_t)(uintptr_t)b;
    memset(got, 0, sizeof(got));
    QT_CHECK(quill_abi_a64_check("quill_p256_fe_mul_arm64",
                                 (void (*)(void))quill_p256_fe_mul_arm64, args, &ret));
    quill_p256_fe_mul_inline(&want, &fa, &fb);
    QT_CHECK(memcmp(got, want.v, 32) == 0);
    memset(got, 0, sizeof(got));
    QT_CHECK(quill_abi_a64_check("quill_p256_fe_sqr_arm64",
                                 (void (*)(void))quill_p256_fe_sqr_arm64, args, &ret));
    quill_p256_fe_sqr_inline(&want, &fa);
    QT_CHECK(memcmp(got, want.v, 32) == 0);
}

/* The Fermat inversion on the kernels equals the divsteps twin, and
 * a a^-1 = 1 (Montgomery one) for a != 0; 0 gives 0. */
static void check_inv(const uint64_t a[4]) {
    quill_p256_fe fa, want, got, one, prod;
    memcpy(fa.v, a, 32);
    quill_p256_fe_inv_divsteps(&want, &fa);
    quill_p256_fe_inv_arm64(&got, &fa);
    QT_CHECK(memcmp(got.v, want.v, 32) == 0);
    quill_p256_fe_inv(&got, &fa); /* the dispatch */
    QT_CHECK(memcmp(got.v, want.v, 32) == 0);
    quill_p256_fe_one(&one);
    quill_p256_fe_mul(&prod, &fa, &got);
    if ((a[0] | a[1] | a[2] | a[3]) != 0)
        QT_CHECK(memcmp(prod.v, one.v, 32) == 0);
    else
        QT_CHECK((got.v[0] | got.v[1] | got.v[2] | got.v[3]) == 0);
    quill_p256_fe_inv_arm64(&fa, &fa); /* out aliasing a */
    QT_CHECK(memcmp(fa.v, want.v, 32) == 0);
}

int main(void) {
    if (!quill_p256_arm64_capable()) {
        puts("test_ec_arm64: QUILL_CPU_ARM64 masked: skipped");
        return 77;
    }
    QT_CHECK(strcmp(quill_p256_backend_name(), quill_p256_neon_capable() ? "arm64_neon" : "arm64") ==
             0);
    BN_CTX *ctx = BN_CTX_new();
    qt_rng_seed(0x70256a64);
    ect_check_fe_kernels(&arm64_kernels, ctx, N_RANDOM, N_BN_EVERY);
    /* Both kernels through the ABI checker: every pair of edge values,
     * then random pairs. */
    uint64_t edge[ECT_EDGE_MAX][4], a[4], b[4];
    int ne = ect_edge_values(edge, ect_p256_p(), ctx);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++)
            check_abi(edge[i], edge[j]);
    for (int i = 0; i < N_ABI; i++) {
        ect_random_below(a, ect_p256_p(), ctx);
        ect_random_below(b, ect_p256_p(), ctx);
        check_abi(a, b);
    }
    /* The inversion: every edge value (0, 1, p - 1, all-ones limbs, ...),
     * then random values. */
    for (int i = 0; i < ne; i++)
        check_inv(edge[i]);
    for (int i = 0; i < N_INV; i++) {
        ect_random_below(a, ect_p256_p(), ctx);
        check_inv(a);
    }
    BN_CTX_free(ctx);
    return qt_finish("ec_arm64");
}

#else
int main(void) {
    puts("test_ec_arm64: no aarch64 P-256 assembly in this build: skipped");
    return 77;
}
#endif
