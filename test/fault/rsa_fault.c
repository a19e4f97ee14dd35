/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_fault: faults in a loaded RSA key's private values, against the
 * Bellcore/Lenstra attack (a CRT signature wrong modulo one prime only
 * gives that prime as gcd(s^e - m, n)).  The test links the core directly
 * and reaches the key's limbs through its structure (rsa/internal.h): no
 * hook in the core or in quill.so.
 *
 * For RSA-2048 and RSA-3072 keys from OpenSSL, imported with CRT values and
 * (a second copy) without, one bit at a time is flipped in
 *   dp, dq        the CRT exponents,
 *   qinv_mont     qinv * R mod p, the form of qinv Garner's step uses,
 *   qinv          the stored qinv (export only: not used to sign),
 *   d (CRT key)   not used by the CRT path,
 *   d (no CRT)    the exponent of the non-CRT path,
 * at sampled positions (bits 0, 1, 2, 63, 64, the middle three, the top
 * three of the value's limbs, and 12 random ones), the key signs SHA-256
 * digests with PKCS#1 v1.5 and with PSS (salt 32), and the bit is restored.
 * Every sign must return QUILL_OK or QUILL_ERR_FAULT_DETECTED (with the
 * output zeroed); every released signature must verify under the
 * unmodified public key with OpenSSL's default provider; and for each,
 * g = gcd(s^e - m mod n, n) with m the encoded message computed by the test
 * (for PKCS#1 from OpenSSL's own signature, for PSS by an EMSA-PSS encoder
 * here, from the salt the core drew) must not be a proper factor of n:
 * for a correct signature s^e = m mod n, so g = n; g = p or q would be the
 * leak.  A negative control computes a CRT signature with a faulty dp by
 * hand (BN) and checks that the same gcd finds q. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "rsa/internal.h"
#include "rsa_test_common.h"
#include "test_util.h"

#define SALT_LEN 32
#define MAX_K 512

/* The core's randomness: qt's deterministic stream; the first fill after
 * rec_arm (PSS draws its salt first) is kept in rec_buf. */
static uint8_t rec_buf[64];
static size_t rec_len;
static int rec_armed;

static int fill_rec(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    qt_rng_bytes(out, len);
    if (rec_armed) {
        rec_armed = 0;
        rec_len = len < sizeof(rec_buf) ? len : sizeof(rec_buf);
        memcpy(rec_buf, out, rec_len);
    }
    return 1;
}
static const quill_rng rng = {fill_rec, NULL};

static unsigned long injected, refused, verified, bad; /* every signature */
static unsigned long f_inj, f_ref, f_ver;                /* faulted ones only */

/* ---- Independent encodings (OpenSSL's digests) ---- */

static int sha256(uint8_t out[32], const uint8_t *a, size_t al, const uint8_t *b, size_t bl,
                  const uint8_t *c, size_t cl) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    unsigned int len = 0;
    int ok = m != NULL && EVP_DigestInit_ex(m, EVP_sha256(), NULL) == 1 &&
             EVP_DigestUpdate(m, a, al) == 1 && (bl == 0 || EVP_DigestUpdate(m, b, bl) == 1) &&
             (cl == 0 || EVP_DigestUpdate(m, c, cl) == 1) && EVP_DigestFinal_ex(m, out, &len) == 1;
    EVP_MD_CTX_free(m);
    return ok && len == 32;
}

/* EMSA-PSS-ENCODE (RFC 8017 9.1.1) with SHA-256 and MGF1-SHA-256 of a
 * digest with |salt|, for a modulus of |bits| bits, into k bytes (a
 * leading zero byte when emLen < k). */
static int pss_encode(uint8_t *out, size_t k, size_t bits, const uint8_t mhash[32],
                      const uint8_t *salt, size_t slen) {
    static const uint8_t zeros[8] = {0};
    size_t em_bits = bits - 1, elen = (em_bits + 7) / 8, db_len = elen - 32 - 1;
    uint8_t *em = out + (k - elen), h[32], mprime[8 + 32];
    memset(out, 0, k);
    memcpy(mprime, zeros, 8);
    memcpy(mprime + 8, mhash, 32);
    if (!sha256(h, mprime, sizeof(mprime), salt, slen, NULL, 0))
        return 0;
    em[db_len - slen - 1] = 0x01;
    memcpy(em + db_len - slen, salt, slen);
    for (uint32_t c = 0, off = 0; off < db_len; c++) {
        uint8_t ctr[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
        uint8_t mask[32];
        if (!sha256(mask, h, 32, ctr, 4, NULL, 0))
            return 0;
        for (size_t i = 0; i < 32 && off < db_len; i++, off++)
            em[off] ^= mask[i];
    }
    em[0] &= (uint8_t)(0xff >> (8 * elen - em_bits));
    memcpy(em + db_len, h, 32);
    em[elen - 1] = 0xbc;
    return 1;
}

/* ---- Checks with OpenSSL ---- */

typedef struct rsa_ref {
    EVP_PKEY *pkey; /* the unmodified key (default provider) */
    BIGNUM *n, *e, *p, *q, *dp, *dq, *qinv;
    size_t bits, k;
} rsa_ref;

/* The verdict of OpenSSL's default provider on |sig| over |digest|. */
static int ossl_verify(const rsa_ref *r, int pss, const uint8_t *sig, const uint8_t digest[32]) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), r->pkey, "provider=default");
    int ok = c != NULL && EVP_PKEY_verify_init(c) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(c, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) ==
                 1 &&
             EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) == 1 &&
             (!pss || EVP_PKEY_CTX_set_rsa_pss_saltlen(c, SALT_LEN) == 1) &&
             EVP_PKEY_verify(c, sig, r->k, digest, 32) == 1;
    EVP_PKEY_CTX_free(c);
    ERR_clear_error();
    return ok;
}

/* g = gcd((s^e - m) mod n, n), with gcd(0, n) = n. */
static BIGNUM *fault_gcd(const rsa_ref *r, const BIGNUM *s, const BIGNUM *m, BN_CTX *bc) {
    BIGNUM *t = BN_new(), *g = BN_new();
    int ok = t != NULL && g != NULL && BN_mod_exp(t, s, r->e, r->n, bc) == 1 &&
             BN_mod_sub(t, t, m, r->n, bc) == 1 && BN_gcd(g, t, r->n, bc) == 1;
    if (ok && BN_is_zero(t))
        ok = BN_copy(g, r->n) != NULL;
    BN_free(t);
    if (!ok) {
        BN_free(g);
        return NULL;
    }
    return g;
}

/* 1 if g is a proper factor of n (the leak). */
static int leaks(const rsa_ref *r, const BIGNUM *g) {
    return !BN_is_one(g) && BN_cmp(g, r->n) != 0;
}

/* ---- One signature with a faulted key ---- */

static uint8_t digest[32];
static uint8_t pkcs1_em[MAX_K]; /* EMSA-PKCS1-v1_5 of digest (from OpenSSL) */

static void sign_once(const rsa_ref *r, quill_rsa_key *key, qr_hash *h, int pss, BN_CTX *bc,
                      const char *what, size_t bit) {
    uint8_t sig[MAX_K], em[MAX_K];
    quill_err err;
    injected++;
    if (pss) {
        rec_armed = 1;
        err = quill_rsa_pss_sign(key, sig, &h->h, &h->h, digest, 32, SALT_LEN, &rng);
        rec_armed = 0;
    } else {
        err = quill_rsa_pkcs1_sign(key, sig, QUILL_MD_SHA256, digest, 32, &rng);
    }
    if (err == QUILL_ERR_FAULT_DETECTED) {
        refused++;
        uint8_t zero[MAX_K] = {0};
        QT_CHECK(memcmp(sig, zero, r->k) == 0); /* nothing released */
        return;
    }
    QT_CHECK(err == QUILL_OK);
    if (err != QUILL_OK) {
        fprintf(stderr, "%s bit %zu: status %d\n", what, bit, (int)err);
        bad++;
        return;
    }
    int ok = ossl_verify(r, pss, sig, digest);
    if (pss) {
        QT_CHECK(rec_len == SALT_LEN);
        QT_CHECK(pss_encode(em, r->k, r->bits, digest, rec_buf, rec_len));
    } else {
        memcpy(em, pkcs1_em, r->k);
    }
    BIGNUM *s = BN_bin2bn(sig, (int)r->k, NULL), *m = BN_bin2bn(em, (int)r->k, NULL);
    BIGNUM *g = s != NULL && m != NULL ? fault_gcd(r, s, m, bc) : NULL;
    QT_CHECK(g != NULL);
    int leak = g == NULL || leaks(r, g);
    if (!ok || leak) {
        bad++;
        fprintf(stderr, "%zu-bit %s %s bit %zu: released a signature that %s%s\n", r->bits,
                pss ? "PSS" : "PKCS#1", what, bit, ok ? "verifies" : "does not verify",
                leak ? " and reveals a factor of n" : "");
    } else {
        verified++;
        QT_CHECK(BN_cmp(g, r->n) == 0); /* a correct signature: s^e = m */
    }
    QT_CHECK(ok);
    QT_CHECK(!leak);
    BN_free(s);
    BN_free(m);
    BN_free(g);
}

/* Flips |bit| of the |limbs|-limb value at |v|, signs with both paddings,
 * and flips it back. */
static void fault_value(const rsa_ref *r, quill_rsa_key *key, qr_hash *h, BN_CTX *bc,
                        quill_limb *v, size_t limbs, const char *what) {
    size_t nbits = limbs * QUILL_LIMB_BITS;
    size_t pos[32], np = 0;
    const size_t fixed[] = {0, 1, 2, 63, 64, nbits / 2 - 1, nbits / 2, nbits / 2 + 1,
                            nbits - 3, nbits - 2, nbits - 1};
    for (size_t i = 0; i < QT_ARRAY_LEN(fixed); i++)
        pos[np++] = fixed[i];
    for (int i = 0; i < 12; i++)
        pos[np++] = (size_t)(qt_rng_u64() % nbits);
    for (size_t i = 0; i < np; i++) {
        quill_limb mask = (quill_limb)1 << (pos[i] % QUILL_LIMB_BITS);
        v[pos[i] / QUILL_LIMB_BITS] ^= mask;
        sign_once(r, key, h, 0, bc, what, pos[i]);
        sign_once(r, key, h, 1, bc, what, pos[i]);
        v[pos[i] / QUILL_LIMB_BITS] ^= mask;
    }
}

/* The negative control: a CRT signature with one bit of dp flipped,
 * computed with BN, gives q as gcd(s^e - m, n). */
static void control(const rsa_ref *r, BN_CTX *bc) {
    BIGNUM *m = BN_bin2bn(pkcs1_em, (int)r->k, NULL), *dp = BN_dup(r->dp);
    BIGNUM *sp = BN_new(), *sq = BN_new(), *t = BN_new(), *s = BN_new();
    int ok = m != NULL && dp != NULL && sp != NULL && sq != NULL && t != NULL && s != NULL &&
             (BN_is_bit_set(dp, 5) ? BN_clear_bit(dp, 5) : BN_set_bit(dp, 5)) == 1 &&
             BN_cmp(dp, r->dp) != 0 &&
             BN_mod_exp(sp, m, dp, r->p, bc) == 1 && BN_mod_exp(sq, m, r->dq, r->q, bc) == 1 &&
             BN_mod_sub(t, sp, sq, r->p, bc) == 1 && BN_mod_mul(t, t, r->qinv, r->p, bc) == 1 &&
             BN_mul(t, t, r->q, bc) == 1 && BN_add(s, sq, t) == 1;
    QT_CHECK(ok);
    BIGNUM *g = ok ? fault_gcd(r, s, m, bc) : NULL;
    QT_CHECK(g != NULL && BN_cmp(g, r->q) == 0);
    BN_free(g);
    BN_free(m);
    BN_free(dp);
    BN_free(sp);
    BN_free(sq);
    BN_free(t);
    BN_free(s);
}

static int load_ref(rsa_ref *r, unsigned bits) {
    memset(r, 0, sizeof(*r));
    r->pkey = qr_gen_pkey(bits);
    if (r->pkey == NULL)
        return 0;
    r->bits = bits;
    r->k = (bits + 7) / 8;
    return EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_N, &r->n) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_E, &r->e) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_FACTOR1, &r->p) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_FACTOR2, &r->q) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_EXPONENT1, &r->dp) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_EXPONENT2, &r->dq) == 1 &&
           EVP_PKEY_get_bn_param(r->pkey, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, &r->qinv) == 1;
}

static void free_ref(rsa_ref *r) {
    EVP_PKEY_free(r->pkey);
    BN_free(r->n);
    BN_free(r->e);
    BN_clear_free(r->p);
    BN_clear_free(r->q);
    BN_clear_free(r->dp);
    BN_clear_free(r->dq);
    BN_clear_free(r->qinv);
}

/* The EMSA-PKCS1-v1_5 encoding, from OpenSSL's signature: m = s^e. */
static int pkcs1_reference(const rsa_ref *r) {
    uint8_t sig[MAX_K];
    size_t len = sizeof(sig);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(qr_ctx(), r->pkey, "provider=default");
    int ok = c != NULL && EVP_PKEY_sign_init(c) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) == 1 &&
             EVP_PKEY_sign(c, sig, &len, digest, 32) == 1 && len == r->k &&
             qr_ossl_public(r->pkey, pkcs1_em, sig, r->k);
    EVP_PKEY_CTX_free(c);
    return ok;
}

static void run_size(unsigned bits) {
    rsa_ref r;
    BN_CTX *bc = BN_CTX_new();
    qr_hash h;
    QT_CHECK(bc != NULL && qr_hash_init(&h, "SHA256"));
    if (!load_ref(&r, bits) || !pkcs1_reference(&r)) {
        QT_CHECK(0);
        free_ref(&r);
        BN_CTX_free(bc);
        return;
    }
    control(&r, bc);
    quill_rsa_key *crt = qr_key_from_pkey(r.pkey, 1, 1), *plain = qr_key_from_pkey(r.pkey, 1, 0);
    QT_CHECK(crt != NULL && plain != NULL && crt->has_crt && !plain->has_crt);
    if (crt != NULL && plain != NULL) {
        unsigned long inj = injected, ref = refused, ver = verified;
        /* Sanity: the unmodified keys sign correctly with both paddings. */
        sign_once(&r, crt, &h, 0, bc, "none", 0);
        sign_once(&r, crt, &h, 1, bc, "none", 0);
        QT_CHECK(refused == ref);
        struct {
            const char *name;
            quill_limb *v;
            size_t limbs;
            quill_rsa_key *key;
        } targets[] = {
            {"dp", crt->dp, crt->pl, crt},
            {"dq", crt->dq, crt->ql, crt},
            {"qinv_mont", crt->qinv_mont, crt->pl, crt},
            {"qinv", crt->qinv, crt->pl, crt},
            {"d(crt key)", crt->d, crt->nl, crt},
            {"d(no crt)", plain->d, plain->nl, plain},
        };
        for (size_t t = 0; t < QT_ARRAY_LEN(targets); t++) {
            unsigned long i0 = injected, r0 = refused, v0 = verified;
            fault_value(&r, targets[t].key, &h, bc, targets[t].v, targets[t].limbs,
                        targets[t].name);
            printf("RSA-%u %-10s %3lu signatures: %3lu refused, %3lu verified\n", bits,
                   targets[t].name, injected - i0, refused - r0, verified - v0);
            f_inj += injected - i0;
            f_ref += refused - r0;
            f_ver += verified - v0;
            /* Values the signing path uses: every fault is caught. */
            if (strcmp(targets[t].name, "qinv") != 0 && strcmp(targets[t].name, "d(crt key)") != 0)
                QT_CHECK(refused - r0 == injected - i0);
        }
        /* The restored keys sign again. */
        unsigned long r1 = refused;
        sign_once(&r, crt, &h, 1, bc, "restored", 0);
        sign_once(&r, plain, &h, 0, bc, "restored", 0);
        QT_CHECK(refused == r1);
        printf("RSA-%u: %lu signatures, %lu refused, %lu verified\n", bits, injected - inj,
               refused - ref, verified - ver);
    }
    quill_rsa_key_free(crt);
    quill_rsa_key_free(plain);
    qr_hash_free(&h);
    free_ref(&r);
    BN_CTX_free(bc);
}

int main(void) {
    qt_rng_seed(0x23fa0175);
    qt_rng_bytes(digest, sizeof(digest));
    double t0 = qt_now();
    run_size(2048);
    run_size(3072);
    printf("rsa_fault: %lu faulted signatures: %lu refused, %lu verified (and %lu with "
           "unfaulted keys); %lu bad; %.1f s\n",
           f_inj, f_ref, f_ver, injected - f_inj, bad, qt_now() - t0);
    QT_CHECK(f_inj == f_ref + f_ver);
    QT_CHECK(bad == 0);
    qr_cleanup();
    return qt_finish("rsa_fault");
}
