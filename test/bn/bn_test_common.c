/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "bn_test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

const size_t bt_sizes[] = {512, 1024, 1536, 2048, 3072, 4096, 8192, 16384};
const size_t bt_num_sizes = sizeof(bt_sizes) / sizeof(bt_sizes[0]);

void bt_seed(const char *suite) {
    uint64_t seed = 0x71a11b0d5eedULL;
    const char *env = getenv("QUILL_TEST_SEED");
    if (env != NULL && *env != '\0')
        seed = strtoull(env, NULL, 0);
    printf("%s: seed %#llx (set QUILL_TEST_SEED to reproduce)\n", suite,
           (unsigned long long)seed);
    qt_rng_seed(seed);
}

BIGNUM *bt_bn(const quill_limb *a, size_t n) {
    BIGNUM *x = BN_lebin2bn((const unsigned char *)a, (int)(n * sizeof(quill_limb)), NULL);
    if (x == NULL)
        abort();
    return x;
}

void bt_to_limbs(quill_limb *r, size_t n, const BIGNUM *x) {
    if (BN_is_negative(x) ||
        BN_bn2lebinpad(x, (unsigned char *)r, (int)(n * sizeof(quill_limb))) < 0) {
        fprintf(stderr, "bt_to_limbs: value does not fit\n");
        abort();
    }
}

int bt_eq(const quill_limb *a, size_t n, const BIGNUM *x) {
    BIGNUM *y = bt_bn(a, n);
    int eq = BN_cmp(x, y) == 0;
    BN_free(y);
    return eq;
}

static quill_limb sparse_limb(void) {
    switch (qt_rng_u64() % 5) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
        return ~(quill_limb)0;
    case 3:
        return (quill_limb)1 << 63;
    default:
        return qt_rng_u64();
    }
}

void bt_modulus(quill_limb *m, size_t n, unsigned kind) {
    for (size_t i = 0; i < n; i++)
        m[i] = qt_rng_u64();
    switch (kind) {
    case 0:
        m[n - 1] |= (quill_limb)1 << 63;
        break;
    case 1:
        m[n - 1] >>= qt_rng_u64() % 64;
        break;
    case 2:
        m[n - 1] = 1;
        break;
    case 3:
        for (size_t i = 0; i < n; i++)
            m[i] = ~(quill_limb)0;
        break;
    case 4:
        for (size_t i = 0; i < n; i++)
            m[i] = ~(quill_limb)0;
        m[0] -= 2 * (qt_rng_u64() % 1000);
        break;
    default:
        for (size_t i = 0; i < n; i++)
            m[i] = sparse_limb();
        break;
    }
    m[0] |= 1;
    if (m[n - 1] == 0)
        m[n - 1] = 1;
    if (n == 1 && m[0] == 1)
        m[0] = 3;
}

void bt_value(quill_limb *a, size_t n, unsigned kind) {
    memset(a, 0, n * sizeof(quill_limb));
    switch (kind) {
    case 0:
        break;
    case 1:
        a[0] = 1;
        break;
    case 2:
        for (size_t i = 0; i < n; i++)
            a[i] = ~(quill_limb)0;
        break;
    case 3:
        a[n - 1] = (quill_limb)1 << 63;
        break;
    case 4:
        for (size_t i = 0; i < n; i++)
            a[i] = qt_rng_u64();
        break;
    case 5:
        for (size_t i = 0; i < n; i++)
            a[i] = sparse_limb();
        break;
    default: {
        size_t len = 1 + qt_rng_u64() % n;
        for (size_t i = 0; i < len; i++)
            a[i] = qt_rng_u64();
        break;
    }
    }
}

void bt_operand(quill_limb *a, const quill_limb *m, size_t n, unsigned kind) {
    BIGNUM *bm = bt_bn(m, n);
    BIGNUM *x;
    if (kind < BT_VALUE_KINDS) {
        bt_value(a, n, kind);
        x = bt_bn(a, n);
        if (!BN_nnmod(x, x, bm, bt_ctx()))
            abort();
    } else {
        x = BN_dup(bm);
        if (x == NULL)
            abort();
        if (kind == 7)
            BN_sub_word(x, 1);
        else if (kind == 8)
            BN_sub_word(x, 2);
        else
            BN_rshift1(x, x);
    }
    bt_to_limbs(a, n, x);
    BN_free(x);
    BN_free(bm);
}

BN_CTX *bt_ctx(void) {
    static BN_CTX *ctx;
    if (ctx == NULL) {
        ctx = BN_CTX_new();
        if (ctx == NULL)
            abort();
    }
    return ctx;
}
