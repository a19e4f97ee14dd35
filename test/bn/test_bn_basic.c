/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Differential tests of the limb-level bignum routines (bytes.c, add.c,
 * mul.c, cmp.c) against OpenSSL's BN, over every size quill supports plus
 * small odd sizes, with edge-case and random operands. */
#include <stdlib.h>
#include <string.h>

#include "bn/internal.h"
#include "bn_test_common.h"
#include "test_util.h"

#define MAXN QUILL_BN_MAX_LIMBS

static quill_limb A[MAXN], B[MAXN], R[2 * MAXN], S[2 * MAXN];
static uint8_t BUF[8 * MAXN + 16], BUF2[8 * MAXN + 16];

static void test_bytes(size_t n, unsigned kind) {
    bt_value(A, n, kind);
    BIGNUM *x = bt_bn(A, n);
    size_t nbytes = (size_t)BN_num_bytes(x);
    /* exact width, padded width, minimal width, one byte too short */
    size_t lens[4] = {8 * n, 8 * n + 5, nbytes, nbytes > 0 ? nbytes - 1 : 0};
    for (int k = 0; k < 4; k++) {
        size_t len = lens[k];
        memset(BUF, 0xa5, sizeof(BUF));
        int ok = quill_bn_to_bytes_be(BUF, len, A, n);
        int fits = len >= nbytes;
        QT_CHECK(ok == fits);
        if (fits) {
            QT_CHECK(BN_bn2binpad(x, BUF2, (int)len) == (int)len);
            QT_CHECK(memcmp(BUF, BUF2, len) == 0);
            /* back again, into n limbs and into a wider array */
            QT_CHECK(quill_bn_from_bytes_be(R, n, BUF, len) == 1);
            QT_CHECK(memcmp(R, A, n * sizeof(quill_limb)) == 0);
            QT_CHECK(quill_bn_from_bytes_be(R, n + 1, BUF, len) == 1);
            QT_CHECK(memcmp(R, A, n * sizeof(quill_limb)) == 0 && R[n] == 0);
        } else {
            uint8_t zero = 0;
            for (size_t i = 0; i < len; i++)
                zero |= BUF[i];
            QT_CHECK(zero == 0);
        }
        QT_CHECK(BUF[len] == 0xa5);
    }
    /* from_bytes of a value one limb too wide fails and zeroes r */
    if (n >= 1 && A[n - 1] != 0) {
        QT_CHECK(BN_bn2binpad(x, BUF2, (int)(8 * n)) == (int)(8 * n));
        memset(R, 0x5a, sizeof(quill_limb) * n);
        int ok = quill_bn_from_bytes_be(R, n - 1, BUF2, 8 * n);
        QT_CHECK(ok == 0);
        QT_CHECK(n == 1 || quill_bn_is_zero_mask(R, n - 1) == ~(quill_word)0);
    }
    BN_free(x);
}

static void test_add_sub(size_t n, unsigned ka, unsigned kb) {
    bt_value(A, n, ka);
    bt_value(B, n, kb);
    BIGNUM *x = bt_bn(A, n), *y = bt_bn(B, n), *z = BN_new(), *w = BN_new();
    BIGNUM *R_big = BN_new();
    BN_set_bit(R_big, (int)(64 * n));
    /* add */
    quill_limb c = quill_bn_add(R, A, B, n);
    BN_add(z, x, y);
    QT_CHECK(c == (quill_limb)BN_is_bit_set(z, (int)(64 * n)));
    BN_mask_bits(z, (int)(64 * n));
    QT_CHECK(bt_eq(R, n, z));
    /* sub: a - b mod 2^(64n) and the borrow */
    quill_limb bo = quill_bn_sub(R, A, B, n);
    BN_sub(z, x, y);
    QT_CHECK(bo == (quill_limb)(BN_is_negative(z) ? 1 : 0));
    if (BN_is_negative(z))
        BN_add(z, z, R_big);
    QT_CHECK(bt_eq(R, n, z));
    /* aliasing: r = a */
    memcpy(S, A, n * sizeof(quill_limb));
    quill_limb c2 = quill_bn_add(S, S, B, n);
    quill_bn_add(R, A, B, n);
    QT_CHECK(c2 == c && memcmp(S, R, n * sizeof(quill_limb)) == 0);
    memcpy(S, B, n * sizeof(quill_limb));
    quill_limb b2 = quill_bn_sub(S, A, S, n);
    quill_bn_sub(R, A, B, n);
    QT_CHECK(b2 == bo && memcmp(S, R, n * sizeof(quill_limb)) == 0);
    /* comparisons */
    int cmp = BN_cmp(x, y);
    QT_CHECK(quill_bn_lt_mask(A, B, n) == (cmp < 0 ? ~(quill_word)0 : 0));
    QT_CHECK(quill_bn_eq_mask(A, B, n) == (cmp == 0 ? ~(quill_word)0 : 0));
    QT_CHECK(quill_bn_eq_mask(A, A, n) == ~(quill_word)0);
    QT_CHECK(quill_bn_lt_mask(A, A, n) == 0);
    QT_CHECK(quill_bn_lt_public(A, B, n) == (cmp < 0));
    QT_CHECK(quill_bn_lt_public(B, A, n) == (cmp > 0));
    QT_CHECK(quill_bn_lt_public(A, A, n) == 0);
    QT_CHECK(quill_bn_is_zero_mask(A, n) == (BN_is_zero(x) ? ~(quill_word)0 : 0));
    QT_CHECK(quill_bn_num_bits_public(A, n) == (size_t)BN_num_bits(x));
    /* select */
    quill_bn_select(R, ~(quill_word)0, A, B, n);
    QT_CHECK(memcmp(R, A, n * sizeof(quill_limb)) == 0);
    quill_bn_select(R, 0, A, B, n);
    QT_CHECK(memcmp(R, B, n * sizeof(quill_limb)) == 0);
    BN_free(x);
    BN_free(y);
    BN_free(z);
    BN_free(w);
    BN_free(R_big);
}

static void test_mul(size_t na, size_t nb, unsigned ka, unsigned kb) {
    bt_value(A, na, ka);
    bt_value(B, nb, kb);
    BIGNUM *x = bt_bn(A, na), *y = bt_bn(B, nb), *z = BN_new();
    quill_bn_mul(R, A, na, B, nb);
    BN_mul(z, x, y, bt_ctx());
    QT_CHECK(bt_eq(R, na + nb, z));
    BN_free(x);
    BN_free(y);
    BN_free(z);
}

static void test_mod_u16(size_t n, unsigned kind) {
    bt_value(A, n, kind);
    BIGNUM *x = bt_bn(A, n);
    uint16_t ds[4] = {(uint16_t)(2 + qt_rng_u64() % 65534), (uint16_t)(2 + qt_rng_u64() % 254),
                      65535, (uint16_t)(1u << (1 + qt_rng_u64() % 15))};
    for (int k = 0; k < 4; k++) {
        uint16_t got = quill_bn_mod_u16(A, n, ds[k]);
        BN_ULONG want = BN_mod_word(x, ds[k]);
        QT_CHECK(got == want);
    }
    BN_free(x);
}

/* The x86-64 add/sub twins against the portable bodies at every length up
 * to 70 limbs (every remainder of the four-limb loop), with r separate
 * from, equal to a and equal to b; results and carries identical. */
static void test_add_sub_twins(void) {
#if QUILL_BN_HAVE_X86_64
    if (!quill_bn_addsub_x86_64_capable()) {
        fprintf(stderr, "bn_basic: x86-64 add/sub masked, twins not compared\n");
        return;
    }
    static quill_limb a[72], b[72], r1[72], r2[72];
    for (size_t n = 0; n <= 70; n++)
        for (unsigned k = 0; k < 3 * BT_VALUE_KINDS; k++) {
            bt_value(a, n > 0 ? n : 1, k % BT_VALUE_KINDS);
            bt_value(b, n > 0 ? n : 1, (k / 3 + k) % BT_VALUE_KINDS);
            for (int op = 0; op < 2; op++)
                for (int alias = 0; alias < 3; alias++) {
                    /* r1 from the twin, r2 from the C body, on the same
                     * inputs placed as the aliasing case wants */
                    memcpy(r1, alias == 1 ? a : b, sizeof(r1));
                    memcpy(r2, r1, sizeof(r2));
                    const quill_limb *x1 = alias == 1 ? r1 : a, *y1 = alias == 2 ? r1 : b;
                    const quill_limb *x2 = alias == 1 ? r2 : a, *y2 = alias == 2 ? r2 : b;
                    quill_limb c1 = op ? quill_bn_sub_x86_64(r1, x1, y1, n)
                                       : quill_bn_add_x86_64(r1, x1, y1, n);
                    quill_limb c2 = op ? quill_bn_sub_c(r2, x2, y2, n)
                                       : quill_bn_add_c(r2, x2, y2, n);
                    QT_CHECK(c1 == c2);
                    QT_CHECK(memcmp(r1, r2, sizeof(r1)) == 0);
                }
        }
#endif
}

int main(void) {
    bt_seed("bn_basic");
    test_add_sub_twins();
    size_t sizes[64];
    size_t ns = 0;
    for (size_t i = 0; i < bt_num_sizes; i++)
        sizes[ns++] = bt_sizes[i] / 64;
    const size_t small[] = {1, 2, 3, 5, 7, 9, 17, 33};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(small); i++)
        sizes[ns++] = small[i];

    for (size_t s = 0; s < ns; s++) {
        size_t n = sizes[s];
        /* fewer random rounds for the huge sizes */
        int rounds = n >= 128 ? 60 : 400;
        for (int i = 0; i < rounds; i++) {
            unsigned ka = (unsigned)(i % BT_VALUE_KINDS);
            unsigned kb = (unsigned)((i / BT_VALUE_KINDS) % BT_VALUE_KINDS);
            if (i >= BT_VALUE_KINDS * BT_VALUE_KINDS) {
                ka = (unsigned)(qt_rng_u64() % BT_VALUE_KINDS);
                kb = (unsigned)(qt_rng_u64() % BT_VALUE_KINDS);
            }
            test_bytes(n, ka);
            test_add_sub(n, ka, kb);
            test_mul(n, n, ka, kb);
            size_t nb = 1 + qt_rng_u64() % n;
            test_mul(n, nb, ka, kb);
            test_mul(nb, n, kb, ka);
            test_mod_u16(n, ka);
        }
    }
    return qt_finish("bn_basic");
}
