/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "fuzz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/provider.h>

OSSL_LIB_CTX *quill_fuzz_both;
OSSL_LIB_CTX *quill_fuzz_dflt;

void quill_fuzz_fail(const char *why) {
    fprintf(stderr, "quill fuzz oracle: %s\n", why);
    ERR_print_errors_fp(stderr);
    abort();
}

void quill_fuzz_trace(const char *fmt, ...) {
    static int on = -1;
    if (on < 0)
        on = getenv("QUILL_FUZZ_TRACE") != NULL;
    if (!on)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void quill_fuzz_init(void) {
    quill_fuzz_both = OSSL_LIB_CTX_new();
    quill_fuzz_dflt = OSSL_LIB_CTX_new();
    if (quill_fuzz_both == NULL || quill_fuzz_dflt == NULL)
        quill_fuzz_fail("OSSL_LIB_CTX_new");
    const char *modules = getenv("OPENSSL_MODULES");
    if (modules != NULL && *modules != '\0')
        OSSL_PROVIDER_set_default_search_path(quill_fuzz_both, modules);
    if (OSSL_PROVIDER_load(quill_fuzz_both, "default") == NULL ||
        OSSL_PROVIDER_load(quill_fuzz_both, "quill") == NULL ||
        OSSL_PROVIDER_load(quill_fuzz_dflt, "default") == NULL)
        quill_fuzz_fail("cannot load the default provider and quill (set OPENSSL_MODULES)");
}

size_t quill_fuzz_mutate(uint8_t *buf, size_t *len, size_t cap, const uint8_t *ops,
                         size_t nops) {
    size_t i = 0;
    for (; i + 4 <= nops; i += 4) {
        size_t off = ((size_t)ops[i + 1] << 8) | ops[i + 2];
        uint8_t v = ops[i + 3];
        switch (ops[i] & 3) {
        case 0:
            if (*len > 0)
                buf[off % *len] ^= v;
            break;
        case 1:
            *len = off % (*len + 1);
            break;
        case 2:
            if (*len < cap) {
                off %= *len + 1;
                memmove(buf + off + 1, buf + off, *len - off);
                buf[off] = v;
                (*len)++;
            }
            break;
        default:
            if (*len > 0)
                buf[off % *len] = v;
            break;
        }
    }
    return i;
}

void quill_fuzz_seed_mode(void (*write)(const char *dir)) {
    const char *d = getenv("QUILL_FUZZ_SEED_CORPUS");
    if (d != NULL && *d != '\0') {
        write(d);
        exit(0);
    }
}

void quill_fuzz_seed_write(const char *dir, const char *name, unsigned idx, const uint8_t *data,
                           size_t len) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s-%03u", dir, name, idx);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

void quill_fuzz_shake256(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen,
                         const uint8_t *b, size_t blen, const uint8_t *c, size_t clen) {
    static EVP_MD *shake;
    if (shake == NULL && (shake = EVP_MD_fetch(quill_fuzz_dflt, "SHAKE256", NULL)) == NULL)
        quill_fuzz_fail("SHAKE256 fetch");
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m == NULL || !EVP_DigestInit_ex(m, shake, NULL) || (alen && !EVP_DigestUpdate(m, a, alen)) ||
        (blen && !EVP_DigestUpdate(m, b, blen)) || (clen && !EVP_DigestUpdate(m, c, clen)) ||
        !EVP_DigestFinalXOF(m, out, outlen))
        quill_fuzz_fail("SHAKE256");
    EVP_MD_CTX_free(m);
}

void quill_fuzz_mldsa_mu_ref(uint8_t mu[64], const uint8_t *pub, size_t publen, int pure,
                             const uint8_t *ctx, size_t ctxlen, const uint8_t *mprime,
                             size_t mlen) {
    uint8_t tr[64], pre[2 + 255];
    quill_fuzz_shake256(tr, sizeof(tr), pub, publen, NULL, 0, NULL, 0);
    size_t prelen = 0;
    if (pure) {
        pre[0] = 0;
        pre[1] = (uint8_t)ctxlen;
        if (ctxlen)
            memcpy(pre + 2, ctx, ctxlen);
        prelen = 2 + ctxlen;
    }
    quill_fuzz_shake256(mu, 64, tr, sizeof(tr), pre, prelen, mprime, mlen);
}

int quill_fuzz_get_octets(const EVP_PKEY *pk, const char *name, uint8_t *buf, size_t cap,
                          size_t *len) {
    *len = 0;
    if (!EVP_PKEY_get_octet_string_param(pk, name, buf, cap, len)) {
        *len = 0;
        ERR_clear_error();
        return 0;
    }
    return 1;
}

const char *quill_fuzz_provider_of(const EVP_PKEY *pk) {
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(pk);
    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "";
}

static EVP_MD_CTX *sig_init(OSSL_LIB_CTX *ctx, EVP_PKEY *pk, const char *prov, const char *md,
                            int sign) {
    char props[64];
    snprintf(props, sizeof(props), "provider=%s", prov);
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m == NULL)
        quill_fuzz_fail("EVP_MD_CTX_new");
    int ok = sign ? EVP_DigestSignInit_ex(m, NULL, md, ctx, props, pk, NULL)
                  : EVP_DigestVerifyInit_ex(m, NULL, md, ctx, props, pk, NULL);
    if (ok != 1) {
        EVP_MD_CTX_free(m);
        ERR_clear_error();
        return NULL;
    }
    return m;
}

size_t quill_fuzz_sign(OSSL_LIB_CTX *ctx, EVP_PKEY *pk, const char *prov, const char *md,
                       const uint8_t *msg, size_t mlen, uint8_t *sig, size_t cap) {
    EVP_MD_CTX *m = sig_init(ctx, pk, prov, md, 1);
    size_t len = cap;
    if (m == NULL || EVP_DigestSign(m, sig, &len, msg, mlen) != 1)
        len = 0;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return len;
}

int quill_fuzz_verify(OSSL_LIB_CTX *ctx, EVP_PKEY *pk, const char *prov, const char *md,
                      const uint8_t *msg, size_t mlen, const uint8_t *sig, size_t slen) {
    EVP_MD_CTX *m = sig_init(ctx, pk, prov, md, 0);
    int ok = m != NULL && EVP_DigestVerify(m, sig, slen, msg, mlen) == 1;
    EVP_MD_CTX_free(m);
    ERR_clear_error();
    return ok;
}

/* The first prime >= a fixed SHAKE256 output with its top two bits set. */
static BIGNUM *fixed_prime(const char *label, int bits, BN_CTX *bc) {
    uint8_t buf[512];
    quill_fuzz_shake256(buf, (size_t)bits / 8, (const uint8_t *)label, strlen(label), NULL, 0,
                        NULL, 0);
    buf[0] |= 0xc0;
    buf[bits / 8 - 1] |= 1;
    BIGNUM *p = BN_bin2bn(buf, bits / 8, NULL);
    while (p != NULL && BN_check_prime(p, bc, NULL) != 1)
        BN_add_word(p, 2);
    if (p == NULL)
        quill_fuzz_fail("fixed prime");
    return p;
}

void quill_fuzz_rsa_fixed(int bits, BIGNUM *out[8]) {
    BN_CTX *bc = BN_CTX_new();
    char label[32];
    snprintf(label, sizeof(label), "quill rsa p %d", bits);
    BIGNUM *p = fixed_prime(label, bits / 2, bc);
    snprintf(label, sizeof(label), "quill rsa q %d", bits);
    BIGNUM *q = fixed_prime(label, bits / 2, bc);
    BIGNUM *n = BN_new(), *e = BN_new(), *d = BN_new(), *p1 = BN_new(), *q1 = BN_new(),
           *lam = BN_new(), *g = BN_new(), *dp = BN_new(), *dq = BN_new(), *qi = BN_new();
    if (bc == NULL || qi == NULL || !BN_set_word(e, 65537) || !BN_mul(n, p, q, bc) ||
        !BN_sub(p1, p, BN_value_one()) || !BN_sub(q1, q, BN_value_one()) ||
        !BN_gcd(g, p1, q1, bc) || !BN_mul(lam, p1, q1, bc) || !BN_div(lam, NULL, lam, g, bc) ||
        BN_mod_inverse(d, e, lam, bc) == NULL || BN_mod_inverse(qi, q, p, bc) == NULL ||
        !BN_mod(dp, d, p1, bc) || !BN_mod(dq, d, q1, bc))
        quill_fuzz_fail("RSA start-up key");
    BIGNUM *all[8] = {n, e, d, p, q, dp, dq, qi};
    memcpy(out, all, sizeof(all));
    BN_free(p1), BN_free(q1), BN_free(lam), BN_free(g);
    BN_CTX_free(bc);
}

int quill_fuzz_p256_mul_base(const BIGNUM *priv, uint8_t out[65]) {
    static EC_GROUP *g;
    if (g == NULL &&
        (g = EC_GROUP_new_by_curve_name_ex(quill_fuzz_dflt, NULL, NID_X9_62_prime256v1)) == NULL)
        quill_fuzz_fail("P-256 group");
    const BIGNUM *order = EC_GROUP_get0_order(g);
    if (BN_is_zero(priv) || BN_is_negative(priv) || BN_cmp(priv, order) >= 0)
        return 0;
    EC_POINT *pt = EC_POINT_new(g);
    int ok = pt != NULL && EC_POINT_mul(g, pt, priv, NULL, NULL, NULL) &&
             EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, out, 65, NULL) == 65;
    EC_POINT_free(pt);
    return ok;
}

void quill_fuzz_ec_fixed(uint8_t priv[32], uint8_t pub[65]) {
    quill_fuzz_shake256(priv, 32, (const uint8_t *)"quill ec", 8, NULL, 0, NULL, 0);
    priv[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(priv, 32, NULL);
    if (bn == NULL || !quill_fuzz_p256_mul_base(bn, pub))
        quill_fuzz_fail("EC start-up key");
    BN_free(bn);
}
