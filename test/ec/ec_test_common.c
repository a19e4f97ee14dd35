/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Helpers shared by the core/ec suites. */
#include "ec_test_common.h"

#include <string.h>

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

/* ---- quill_hash over EVP ---- */
#include "ec_hash.h"

static int evp_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                      const size_t in_len[], size_t count) {
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = c != NULL && EVP_DigestInit_ex(c, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(c, in[i], in_len[i]);
    ok = ok && EVP_DigestFinal_ex(c, out, NULL);
    EVP_MD_CTX_free(c);
    return ok;
}

int ect_hash_init(quill_hash *h, const char *name) {
    EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
    if (md == NULL)
        return 0;
    h->size = (size_t)EVP_MD_get_size(md);
    h->block_size = (size_t)EVP_MD_get_block_size(md);
    h->digest = evp_digest;
    h->arg = md;
    return 1;
}

void ect_hash_free(quill_hash *h) {
    EVP_MD_free((EVP_MD *)h->arg);
    h->arg = NULL;
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
