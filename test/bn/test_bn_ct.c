/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time validation of the bignum core (ct_bn: built with
 * QUILL_CT_VALIDATION over quill_core_ct and run under valgrind memcheck,
 * test/ct.cmake): every secret input is marked undefined with
 * QUILL_CT_SECRET, so memcheck reports any branch or memory index that
 * depends on it.  Outputs are declassified before they are compared.
 * Built without QUILL_CT_VALIDATION (test_bn_ct) this is an ordinary
 * (small) functional test. */
#include <string.h>

#include "bn_test_common.h"
#include "test_util.h"

#define MAXN 64

static void declassify(const void *p, size_t len) {
    QUILL_CT_DECLASSIFY(p, len);
}

static void run_size(size_t n) {
    quill_limb m[MAXN], a[MAXN], b[MAXN], e[MAXN], r[MAXN], s[MAXN], w[2 * MAXN];
    uint8_t bytes[8 * MAXN];
    bt_modulus(m, n, 0);
    bt_operand(a, m, n, 4);
    bt_operand(b, m, n, 4);
    bt_value(e, n, 4);
    bt_value(w, 2 * n, 4);
    w[2 * n - 1] = 0; /* w < m R since the top limb of m is non-zero */
    BIGNUM *bm = bt_bn(m, n), *ba = bt_bn(a, n), *be = bt_bn(e, n), *bz = BN_new();
    BIGNUM *bw = bt_bn(w, 2 * n);

    QUILL_CT_SECRET(m, sizeof(m));
    QUILL_CT_SECRET(a, sizeof(a));
    QUILL_CT_SECRET(b, sizeof(b));
    QUILL_CT_SECRET(e, sizeof(e));
    QUILL_CT_SECRET(w, sizeof(w));

    quill_mont *mont = quill_mont_new(m, n);
    QT_CHECK(mont != NULL);
    if (mont == NULL)
        return;
    quill_mont_mul(r, a, b, mont);
    quill_mont_sqr(s, r, mont);
    quill_mont_to(r, s, mont);
    quill_mont_from(s, r, mont);
    quill_mont_reduce_wide(r, w, 2 * n, mont);
    declassify(r, n * sizeof(quill_limb));
    BN_mod(bz, bw, bm, bt_ctx());
    QT_CHECK(bt_eq(r, n, bz));

    int ok = quill_mont_exp_consttime(r, a, e, n, mont);
    QT_CHECK(ok == 1);
    declassify(r, n * sizeof(quill_limb));
    BN_mod_exp(bz, ba, be, bm, bt_ctx());
    QT_CHECK(bt_eq(r, n, bz));

    quill_word inv_ok = quill_bn_inv_mod_odd_consttime(r, a, m, n);
    declassify(&inv_ok, sizeof(inv_ok));
    declassify(r, n * sizeof(quill_limb));
    if (BN_mod_inverse(bz, ba, bm, bt_ctx()) != NULL)
        QT_CHECK(inv_ok == ~(quill_word)0 && bt_eq(r, n, bz));
    else
        QT_CHECK(inv_ok == 0);
    ERR_clear_error();

    quill_word mask = quill_bn_lt_mask(a, b, n) ^ quill_bn_eq_mask(a, b, n) ^
                      quill_bn_is_zero_mask(a, n);
    quill_bn_select(r, mask, a, b, n);
    quill_limb carry = quill_bn_add(s, a, b, n);
    quill_limb borrow = quill_bn_sub(s, s, b, n);
    quill_word same = quill_bn_eq_mask(s, a, n);
    quill_bn_mul(w, a, n, b, n);
    uint16_t md = quill_bn_mod_u16(a, n, 65521);
    int tb = quill_bn_to_bytes_be(bytes, 8 * n, a, n);
    int fb = quill_bn_from_bytes_be(s, n, bytes, 8 * n);
    declassify(&mask, sizeof(mask));
    declassify(&carry, sizeof(carry));
    declassify(&borrow, sizeof(borrow));
    declassify(&same, sizeof(same));
    declassify(&md, sizeof(md));
    declassify(&tb, sizeof(tb));
    declassify(&fb, sizeof(fb));
    declassify(s, n * sizeof(quill_limb));
    declassify(a, n * sizeof(quill_limb));
    QT_CHECK(md == BN_mod_word(ba, 65521));
    QT_CHECK(tb == 1 && fb == 1 && memcmp(s, a, n * sizeof(quill_limb)) == 0);
    /* a + b - b: the carry and the borrow agree and a comes back */
    QT_CHECK(carry == borrow && same == ~(quill_word)0);

    quill_mont_free(mont);
    BN_free(bm);
    BN_free(ba);
    BN_free(be);
    BN_free(bz);
    BN_free(bw);
}

int main(void) {
    bt_seed("bn_ct");
    const size_t sizes[] = {1, 3, 8, 16, 32, 33};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(sizes); i++)
        run_size(sizes[i]);
    return qt_finish("bn_ct");
}
