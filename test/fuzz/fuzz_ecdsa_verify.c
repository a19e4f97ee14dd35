/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: ECDSA P-256 verification through EVP, quill against
 * OpenSSL's default provider on every input (both loaded in one library
 * context, each side fetched with "provider=quill" / "provider=default").
 *
 * Keys: a fixed P-256 key pair (private scalar below), held in each
 * provider's key manager; used as one key object reused across inputs, as
 * a fresh EVP_PKEY made from its public point for each input, as the
 * default provider's object handed to quill (OpenSSL exports it to quill's
 * key manager), or a public point carried in the input (the seed corpus
 * puts Wycheproof's there), which goes through quill's EC point decoder.
 *
 * Input (bytes past the end read as zero):
 *   b0  bits 0-1: key (reused, fresh, in the input, the default provider's
 *       object for both); bit 2: quill signs the genuine signature (else
 *       the default provider); bit 3: the signature is in the input (else
 *       the genuine one, re-encoded as b2/b3 say); bits 4-5: the operation
 *       (EVP_PKEY_verify on the digest, EVP_DigestVerify one-shot,
 *       EVP_DigestVerifyUpdate in fuzz-chosen chunks, EVP_PKEY_verify with
 *       no digest set on the message bytes themselves)
 *   b1  the digest (md_names[], mod 8)
 *   b2  the integers of the re-encoded signature: bit 0 s := n - s
 *       (high/low s); bit 1 r := r + n, bit 2 s := s + n (oversized);
 *       bit 3 / bit 4: r / s with its sign byte wrong (the 00 byte dropped,
 *       or ff put in front: negative); bit 5 an extra 00 before r; bit 6
 *       r := 0; bit 7 s := 0
 *   b3  the encoding: bit 0 / 1 / 2 long-form length of the SEQUENCE / r
 *       / s; bit 3 a trailing 00 byte; bit 4 an extra 00 before s; bit 5
 *       a two-byte length of the SEQUENCE; bit 6 indefinite length (BER);
 *       bit 7 r and s swapped
 *   b4  the seed of the streaming chunk sizes
 *   u16 message length (mod 1024), the message
 *   key in the input: u8 length, the point (SEC 1 encoding)
 *   signature in the input: u8 length, the signature
 *   the rest: mutations of the signature (fz_mutate).
 *
 * Oracle: quill accepts exactly when the default provider does (a set-up
 * refusal counts as not accepted); each side ran on the provider it was
 * fetched from; quill's "ecdsa-verify" counter moves by one exactly when
 * quill accepted; an unmodified genuine signature is accepted by both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "fuzz_sigcmp.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MSG 1024
#define MAX_SIG 160

static const char priv_hex[] = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
static const char n_hex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
static const char *const md_names[8] = {"SHA256", "SHA1",     "SHA224",     "SHA384",
                                        "SHA512", "SHA3-256", "SHA512-256", "SHA256"};

static uint8_t pub_point[65];
static size_t pub_len;
static BIGNUM *order;
/* [0] quill's key manager, [1] the default provider's; key pairs. */
static EVP_PKEY *reused[2];

static EVP_PKEY *make_key(const char *propq, const uint8_t *pub, size_t len, const BIGNUM *priv) {
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY *key = NULL;
    if (b != NULL && OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0) &&
        OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, len) &&
        (priv == NULL || OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, priv)) &&
        (params = OSSL_PARAM_BLD_to_param(b)) != NULL) {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(fz_libctx, "EC", propq);
        if (c == NULL || EVP_PKEY_fromdata_init(c) <= 0 ||
            EVP_PKEY_fromdata(c, &key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
            key = NULL;
        EVP_PKEY_CTX_free(c);
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(b);
    ERR_clear_error();
    return key;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_init("fuzz_ecdsa_verify");
    BIGNUM *d = NULL;
    EC_GROUP *g = EC_GROUP_new_by_curve_name_ex(fz_libctx, NULL, NID_X9_62_prime256v1);
    EC_POINT *q = g ? EC_POINT_new(g) : NULL;
    if (!BN_hex2bn(&d, priv_hex) || !BN_hex2bn(&order, n_hex) || q == NULL ||
        !EC_POINT_mul(g, q, d, NULL, NULL, NULL))
        abort();
    pub_len = EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED, pub_point,
                                 sizeof(pub_point), NULL);
    reused[0] = make_key(FZ_QUILL, pub_point, pub_len, d);
    reused[1] = make_key(FZ_DEFAULT, pub_point, pub_len, d);
    if (pub_len != 65 || reused[0] == NULL || reused[1] == NULL)
        abort();
    EC_POINT_free(q);
    EC_GROUP_free(g);
    BN_free(d);
    return 0;
}

/* ---- A DER writer with deliberate deviations ---- */

typedef struct der {
    uint8_t b[MAX_SIG];
    size_t n;
} der;

static void put(der *d, uint8_t v) {
    if (d->n < sizeof(d->b))
        d->b[d->n++] = v;
}

static void put_len(der *d, size_t len, int long_form, int two_bytes) {
    if (two_bytes) {
        put(d, 0x82);
        put(d, (uint8_t)(len >> 8));
        put(d, (uint8_t)len);
    } else if (long_form || len > 127) {
        put(d, 0x81);
        put(d, (uint8_t)len);
    } else {
        put(d, (uint8_t)len);
    }
}

/* An INTEGER for the non-negative |v|: minimal unless told otherwise
 * (bad_sign: the sign byte dropped, or ff in front; extra_zero: 00 in
 * front). */
static void put_int(der *d, const BIGNUM *v, int long_form, int bad_sign, int extra_zero) {
    uint8_t mag[64];
    int len = BN_bn2bin(v, mag);
    uint8_t body[70];
    size_t n = 0;
    if (extra_zero)
        body[n++] = 0;
    if (len == 0) {
        body[n++] = bad_sign ? 0xff : 0;
    } else if (mag[0] & 0x80) {
        if (!bad_sign)
            body[n++] = 0;
    } else if (bad_sign) {
        body[n++] = 0xff;
    }
    memcpy(body + n, mag, (size_t)len);
    n += (size_t)len;
    put(d, 0x02);
    put_len(d, n, long_form, 0);
    for (size_t i = 0; i < n; i++)
        put(d, body[i]);
}

/* Re-encodes the genuine signature |sig| as b2/b3 say; returns the new
 * length (0 if |sig| does not parse) and whether anything changed. */
static size_t reencode(uint8_t *sig, size_t len, uint8_t b2, uint8_t b3, int *changed) {
    const unsigned char *p = sig;
    ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)len);
    *changed = 0;
    if (es == NULL)
        return 0;
    BIGNUM *r = BN_dup(ECDSA_SIG_get0_r(es)), *s = BN_dup(ECDSA_SIG_get0_s(es));
    ECDSA_SIG_free(es);
    if (r == NULL || s == NULL)
        abort();
    if ((b2 & 1) && !BN_sub(s, order, s))
        abort();
    if ((b2 & 2) && !BN_add(r, r, order))
        abort();
    if ((b2 & 4) && !BN_add(s, s, order))
        abort();
    if (b2 & 0x40)
        BN_zero(r);
    if (b2 & 0x80)
        BN_zero(s);
    if (b3 & 0x80) {
        BIGNUM *t = r;
        r = s;
        s = t;
    }
    der body = {.n = 0}, out = {.n = 0};
    put_int(&body, r, b3 & 2, b2 & 8, b2 & 0x20);
    put_int(&body, s, b3 & 4, b2 & 0x10, b3 & 0x10);
    put(&out, 0x30);
    if (b3 & 0x40)
        put(&out, 0x80);
    else
        put_len(&out, body.n, b3 & 1, b3 & 0x20);
    for (size_t i = 0; i < body.n; i++)
        put(&out, body.b[i]);
    if (b3 & 0x40) {
        put(&out, 0);
        put(&out, 0);
    }
    if (b3 & 8)
        put(&out, 0);
    BN_free(r);
    BN_free(s);
    *changed = (b2 | b3) != 0;
    memcpy(sig, out.b, out.n);
    return out.n;
}

/* ---- The operations ---- */

typedef struct params {
    int op;
    const char *md;
} params;

static int set_md(EVP_PKEY_CTX *pctx, const char *md) {
    OSSL_PARAM p[2] = {OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, (char *)md, md ? strlen(md) : 0),
                       OSSL_PARAM_END};
    return md == NULL || EVP_PKEY_CTX_set_params(pctx, p) > 0;
}

static size_t sign(int side, const params *p, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                   size_t cap) {
    const char *propq = side ? FZ_DEFAULT : FZ_QUILL;
    size_t len = cap;
    int ok;
    if (p->op == 1 || p->op == 2) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        ok = m != NULL &&
             EVP_DigestSignInit_ex(m, NULL, p->md, fz_libctx, propq, reused[side], NULL) > 0 &&
             EVP_DigestSign(m, sig, &len, msg, msg_len) > 0;
        EVP_MD_CTX_free(m);
    } else {
        uint8_t tbs[MAX_MSG + EVP_MAX_MD_SIZE];
        size_t tbs_len = fz_tbs(p->op == 3 ? NULL : p->md, msg, msg_len, tbs);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(fz_libctx, reused[side], propq);
        ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 &&
             (p->op == 3 || set_md(pctx, p->md)) &&
             EVP_PKEY_sign(pctx, sig, &len, tbs, tbs_len) > 0;
        EVP_PKEY_CTX_free(pctx);
    }
    ERR_clear_error();
    return ok ? len : 0;
}

/* 1 accepted, 0 rejected, -1 refused at set-up. */
static int verify(int side, EVP_PKEY *key, const params *p, const uint8_t *msg, size_t msg_len,
                  const uint8_t *sig, size_t sig_len, unsigned chunk_seed) {
    const char *propq = side ? FZ_DEFAULT : FZ_QUILL;
    const OSSL_PROVIDER *want = side ? fz_prov_default : fz_prov_quill;
    int r = -1;
    if (p->op == 1 || p->op == 2) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        if (m != NULL && EVP_DigestVerifyInit_ex(m, &pctx, p->md, fz_libctx, propq, key, NULL) > 0) {
            fz_check_served(pctx, want, "EVP_DigestVerifyInit_ex");
            r = fz_digest_verify(m, p->op == 2, chunk_seed, sig, sig_len, msg, msg_len);
        }
        EVP_MD_CTX_free(m);
    } else {
        uint8_t tbs[MAX_MSG + EVP_MAX_MD_SIZE];
        size_t tbs_len = fz_tbs(p->op == 3 ? NULL : p->md, msg, msg_len, tbs);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(fz_libctx, key, propq);
        if (pctx != NULL && EVP_PKEY_verify_init(pctx) > 0 && (p->op == 3 || set_md(pctx, p->md))) {
            fz_check_served(pctx, want, "EVP_PKEY_verify_init");
            r = EVP_PKEY_verify(pctx, sig, sig_len, tbs, tbs_len) == 1;
        }
        EVP_PKEY_CTX_free(pctx);
    }
    ERR_clear_error();
    return r;
}

static const char *verdict(int r) {
    return r == 1 ? "accepts" : r == 0 ? "rejects" : "refuses at set-up";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in = {data, size};
    const uint8_t b0 = fz_u8(&in), b1 = fz_u8(&in), b2 = fz_u8(&in), b3 = fz_u8(&in),
                  b4 = fz_u8(&in);
    params p = {(b0 >> 4) & 3, md_names[b1 & 7]};
    size_t msg_len;
    const uint8_t *msg = fz_take(&in, fz_u16(&in) % (MAX_MSG + 1), &msg_len);

    const int mode = b0 & 3;
    EVP_PKEY *key[2] = {reused[0], reused[1]}, *own[2] = {NULL, NULL};
    if (mode == 1) {
        own[0] = make_key(FZ_QUILL, pub_point, pub_len, NULL);
        own[1] = make_key(FZ_DEFAULT, pub_point, pub_len, NULL);
        if (own[0] == NULL || own[1] == NULL)
            fz_fail("the fixed public key was not imported: quill %p, default %p",
                    (void *)own[0], (void *)own[1]);
        key[0] = own[0];
        key[1] = own[1];
    } else if (mode == 2) {
        size_t len;
        const uint8_t *pt = fz_take(&in, fz_u8(&in) % 100, &len);
        own[0] = make_key(FZ_QUILL, pt, len, NULL);
        own[1] = make_key(FZ_DEFAULT, pt, len, NULL);
        /* quill may refuse a point the default provider imports (the
         * point at infinity, 00): OpenSSL then falls back to the default
         * provider, and only the default side runs.  The reverse is a
         * disagreement. */
        if (own[0] != NULL && own[1] == NULL)
            fz_fail("a %zu-byte P-256 point: quill imports it, the default provider refuses it",
                    len);
        if (own[1] == NULL)
            return 0;
        if (own[0] == NULL)
            fz_stats.quill_declined_keys++;
        key[0] = own[0];
        key[1] = own[1];
    } else if (mode == 3) {
        key[0] = reused[1];
    }

    uint8_t sig[MAX_SIG + 128];
    size_t sig_len = 0;
    int genuine = 0, changed = 0;
    if (b0 & 8) {
        const uint8_t *s = fz_take(&in, fz_u8(&in), &sig_len);
        memcpy(sig, s, sig_len);
    } else {
        const int signer = (b0 & 4) ? 0 : 1;
        sig_len = sign(signer, &p, msg, msg_len, sig, sizeof(sig));
        if (sig_len > 0) {
            genuine = mode != 2;
            sig_len = reencode(sig, sig_len, b2, b3, &changed);
            if (sig_len == 0)
                fz_fail("%s signed what d2i_ECDSA_SIG does not parse", signer ? "default" : "quill");
        } else {
            /* no signature for this input (e.g. an empty message to sign
             * raw): a well-formed one that does not verify */
            static const uint8_t dummy[8] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
            memcpy(sig, dummy, sizeof(dummy));
            sig_len = sizeof(dummy);
        }
    }
    unsigned changes = fz_mutate(sig, &sig_len, sizeof(sig), &in) + (unsigned)changed;

    int res[2];
    const uint64_t before = fz_counter("ecdsa-verify");
    res[0] = key[0] == NULL ? -2 : verify(0, key[0], &p, msg, msg_len, sig, sig_len, b4);
    const uint64_t after = fz_counter("ecdsa-verify");
    res[1] = verify(1, key[1], &p, msg, msg_len, sig, sig_len, b4);

    fz_record(res, "ecdsa-verify", before, after);
    if (res[0] != -2 && (res[0] == 1) != (res[1] == 1))
        fz_fail("ECDSA P-256, key mode %d, op %d, md %s, DER flags %02x/%02x, %zu-byte "
                "signature, %u changes: quill %s (%d), default %s (%d)",
                mode, p.op, p.md, b2, b3, sig_len, changes, verdict(res[0]), res[0],
                verdict(res[1]), res[1]);
    fz_stats.both_accept += res[0] == 1 && res[1] == 1;
    if (genuine && changes == 0 && res[0] != -2) {
        fz_stats.genuine++;
        if (res[0] != 1 || res[1] != 1)
            fz_fail("a genuine signature was rejected: quill %d, default %d", res[0], res[1]);
    }
    EVP_PKEY_free(own[0]);
    EVP_PKEY_free(own[1]);
    return 0;
}
