/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: key decoding through OSSL_DECODER with quill and the
 * default provider loaded, for what fuzz_mldsa_decoder (ML-DSA DER) does
 * not cover: PEM PrivateKeyInfo and SubjectPublicKeyInfo of ML-DSA (RFC
 * 9881's three private forms), RSA and EC P-256 PrivateKeyInfo and
 * SubjectPublicKeyInfo in DER and PEM (quill decodes P-256 SPKI itself; the
 * others reach quill by export when it signs), EncryptedPrivateKeyInfo
 * (PBES2, PBKDF2-SHA256, AES-256-CBC, fixed password, DER and PEM) of the
 * three algorithms, and the EC point decoder through
 * EVP_PKEY_set1_encoded_public_key.
 *
 * Starting encodings are made at start-up from fixed keys (fuzz_util.h),
 * the RSA and EC ones by the default provider's encoders, the ML-DSA ones
 * by the harness's own DER writer, encryption with a fixed salt and IV.
 *
 * Input: byte 0 the kind (mod 8, below); byte 1 the variant (bit 0 PEM
 * instead of DER; bits 1-2 the ML-DSA form: seed, expanded, both; bits 3-4
 * the ML-DSA set; for EPKI bits 3-4 also pick the key: 0 RSA, 1 EC, 2-3
 * ML-DSA-65; for the point kind bit 0 compressed); then 4-byte mutations
 * (fuzz_util.h) of the encoding.  Kinds: 0 ML-DSA PrivateKeyInfo,
 * 1 ML-DSA SPKI, 2 RSA PrivateKeyInfo, 3 RSA SPKI, 4 EC PrivateKeyInfo,
 * 5 EC SPKI, 6 EncryptedPrivateKeyInfo, 7 EC point.
 *
 * Oracles for a key decoded in the context with quill:
 *   - it is the key of the encoding read independently: the first PEM
 *     block (PEM_read_bio) or the DER consumed; for EPKI decrypted with
 *     PKCS8_decrypt_ex; then decoded as plain DER and compared (EVP_PKEY_eq,
 *     and the private parameters byte for byte);
 *   - RSA and EC: the default provider alone, in a context of its own,
 *     decodes exactly the same inputs (quill's P-256 SPKI decoder must pass
 *     over what it does not take, never refuse what the default takes) to
 *     an equal key;
 *   - ML-DSA: seed -> priv -> pub consistent through the core;
 *   - every key is used once: a private key signs with quill (RSA and EC
 *     keys exported into quill, ML-DSA deterministic), and the signature
 *     must verify (RSA: under the default provider, when quill releases
 *     one; EC: under the default provider exactly when the default
 *     provider's pairwise check passes, since an ECPrivateKey may carry any
 *     point; ML-DSA: under the core with mu recomputed with the default
 *     provider's SHAKE256); a public key verifies a genuine signature with
 *     quill and the verdict must equal the default provider's (ML-DSA: the
 *     core's).
 * For the EC point kind: point octets set on a P-256 key of quill and of
 * the default provider; a point quill accepts must be accepted by the
 * default provider too, pass its public check and be the same affine
 * point; a point the default provider accepts in SEC 1 compressed or
 * uncompressed form must be accepted by quill (the hybrid form 0x06/0x07,
 * which OpenSSL 3.0 takes, quill refuses: a legitimate difference).
 * EncryptedPrivateKeyInfo inputs whose KDF is not PBKDF2 with at most 4096
 * iterations are skipped (a fuzzed iteration count would only make the
 * run slow). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "fuzz_mldsa_der.h"
#include "fuzz_util.h"
#include "mldsa/mldsa.h"

#define ENC_CAP 16384
#define KINDS 8

static const char pass[] = "quill-fuzz";
static const uint8_t message[] = "quill fuzz_decoder message";
static const char *const mldsa_names[3] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};

typedef struct enc {
    uint8_t b[ENC_CAP];
    size_t len;
} enc;

/* Starting encodings: [kind][variant] (variant as in the header, masked). */
static enc start_mldsa_pki[3][3][2]; /* set, form, pem */
static enc start_mldsa_spki[3][2];
static enc start_rsa[2][2];  /* pki/spki, pem */
static enc start_ec[2][2];   /* pki/spki, pem */
static enc start_epki[3][2]; /* RSA, EC, ML-DSA-65; pem */
static uint8_t ec_point[2][65];
static size_t ec_point_len[2];

static quill_mldsa_key *ml_key[3];
static uint8_t ml_sig[3][QUILL_MLDSA_MAX_SIG_BYTES];
static EVP_PKEY *rsa_pub, *ec_pub; /* default provider, for the genuine signatures */
static uint8_t rsa_sig[512], ec_sig[80];
static size_t rsa_siglen, ec_siglen;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- Start-up encodings ---- */

static void pem_of(enc *out, const char *label, const uint8_t *der, size_t len) {
    BIO *b = BIO_new(BIO_s_mem());
    char *p = NULL;
    if (b == NULL || !PEM_write_bio(b, label, "", der, (long)len))
        quill_fuzz_fail("PEM_write_bio");
    long n = BIO_get_mem_data(b, &p);
    if (n <= 0 || (size_t)n > ENC_CAP)
        quill_fuzz_fail("PEM size");
    memcpy(out->b, p, (size_t)n);
    out->len = (size_t)n;
    BIO_free(b);
}

static void set_der(enc *out, const uint8_t *der, size_t len) {
    if (len > ENC_CAP)
        quill_fuzz_fail("DER size");
    memcpy(out->b, der, len);
    out->len = len;
}

/* DER of |pk|'s |structure| by the default provider's encoder. */
static size_t encode_der(EVP_PKEY *pk, const char *structure, int selection, uint8_t *out) {
    OSSL_ENCODER_CTX *e =
        OSSL_ENCODER_CTX_new_for_pkey(pk, selection, "DER", structure, NULL);
    unsigned char *p = NULL;
    size_t len = 0;
    if (e == NULL || OSSL_ENCODER_to_data(e, &p, &len) != 1 || len > ENC_CAP)
        quill_fuzz_fail("encoder");
    memcpy(out, p, len);
    OPENSSL_free(p);
    OSSL_ENCODER_CTX_free(e);
    return len;
}

/* EncryptedPrivateKeyInfo of a DER PrivateKeyInfo: PBES2, PBKDF2 with
 * HMAC-SHA256 and 16 iterations, AES-256-CBC, fixed salt and IV. */
static size_t encrypt_pki(const uint8_t *pki, size_t len, uint8_t *out) {
    const unsigned char *p = pki;
    PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
    unsigned char salt[16], iv[16];
    for (int i = 0; i < 16; i++)
        salt[i] = (unsigned char)(0xa0 + i), iv[i] = (unsigned char)(0x30 + i);
    EVP_CIPHER *aes = EVP_CIPHER_fetch(quill_fuzz_dflt, "AES-256-CBC", NULL);
    X509_ALGOR *alg = PKCS5_pbe2_set_iv_ex(aes, 16, salt, sizeof(salt), iv, NID_hmacWithSHA256,
                                           quill_fuzz_dflt);
    X509_SIG *sig = p8 != NULL && alg != NULL
                        ? PKCS8_set0_pbe_ex(pass, (int)strlen(pass), p8, alg, quill_fuzz_dflt, NULL)
                        : NULL;
    unsigned char *der = NULL;
    int n = sig != NULL ? i2d_X509_SIG(sig, &der) : -1;
    if (n <= 0 || n > ENC_CAP)
        quill_fuzz_fail("EncryptedPrivateKeyInfo at start-up");
    memcpy(out, der, (size_t)n);
    OPENSSL_free(der);
    X509_SIG_free(sig);
    PKCS8_PRIV_KEY_INFO_free(p8);
    EVP_CIPHER_free(aes);
    return (size_t)n;
}

static EVP_PKEY *build_key(const char *name, OSSL_PARAM_BLD *bld) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(quill_fuzz_dflt, name, NULL);
    EVP_PKEY *pk = NULL;
    if (params == NULL || pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
        EVP_PKEY_fromdata(pc, &pk, EVP_PKEY_KEYPAIR, params) != 1)
        quill_fuzz_fail("start-up key");
    EVP_PKEY_CTX_free(pc);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return pk;
}

static void make_starts(void) {
    static uint8_t der[ENC_CAP];
    size_t n;
    /* ML-DSA */
    for (int s = 0; s < 3; s++) {
        uint8_t seed[32], mu[64], zero[32] = {0};
        for (int i = 0; i < 32; i++)
            seed[i] = (uint8_t)(29 * i + s);
        if (quill_mldsa_key_from_seed(&ml_key[s], (quill_mldsa_set)s, seed) != QUILL_OK)
            quill_fuzz_fail("ML-DSA start-up key");
        for (int form = 0; form < 3; form++) {
            n = quill_fuzz_mldsa_der(der, ml_key[s],
                                     (quill_fuzz_mldsa_form)(QUILL_FUZZ_MLDSA_PKI_SEED + form));
            set_der(&start_mldsa_pki[s][form][0], der, n);
            pem_of(&start_mldsa_pki[s][form][1], "PRIVATE KEY", der, n);
        }
        n = quill_fuzz_mldsa_der(der, ml_key[s], QUILL_FUZZ_MLDSA_SPKI);
        set_der(&start_mldsa_spki[s][0], der, n);
        pem_of(&start_mldsa_spki[s][1], "PUBLIC KEY", der, n);
        quill_fuzz_mldsa_mu_ref(mu, quill_mldsa_key_pub(ml_key[s]),
                                quill_mldsa_pub_bytes((quill_mldsa_set)s), 1, NULL, 0, message,
                                sizeof(message));
        if (quill_mldsa_sign_mu(ml_key[s], mu, zero, ml_sig[s], sizeof(ml_sig[s])) != QUILL_OK)
            quill_fuzz_fail("ML-DSA start-up signature");
    }
    /* RSA 2048 */
    BIGNUM *f[8];
    quill_fuzz_rsa_fixed(2048, f);
    static const char *const names[8] = {
        OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,
        OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
        OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
        OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    for (int i = 0; i < 8; i++)
        OSSL_PARAM_BLD_push_BN(bld, names[i], f[i]);
    EVP_PKEY *rsa = build_key("RSA", bld);
    for (int i = 0; i < 8; i++)
        BN_clear_free(f[i]);
    /* EC P-256 */
    uint8_t priv[32], pub[65];
    quill_fuzz_ec_fixed(priv, pub);
    BIGNUM *pbn = BN_bin2bn(priv, 32, NULL);
    bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, 65);
    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, pbn);
    EVP_PKEY *ec = build_key("EC", bld);
    BN_clear_free(pbn);
    memcpy(ec_point[0], pub, 65);
    ec_point_len[0] = 65;
    ec_point[1][0] = (uint8_t)(2 | (pub[64] & 1));
    memcpy(ec_point[1] + 1, pub + 1, 32);
    ec_point_len[1] = 33;

    EVP_PKEY *keys[2] = {rsa, ec};
    enc(*starts[2])[2] = {start_rsa, start_ec};
    for (int a = 0; a < 2; a++) {
        n = encode_der(keys[a], "PrivateKeyInfo", EVP_PKEY_KEYPAIR, der);
        set_der(&starts[a][0][0], der, n);
        pem_of(&starts[a][0][1], "PRIVATE KEY", der, n);
        static uint8_t e[ENC_CAP];
        size_t en = encrypt_pki(der, n, e);
        set_der(&start_epki[a][0], e, en);
        pem_of(&start_epki[a][1], "ENCRYPTED PRIVATE KEY", e, en);
        n = encode_der(keys[a], "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY, der);
        set_der(&starts[a][1][0], der, n);
        pem_of(&starts[a][1][1], "PUBLIC KEY", der, n);
    }
    n = quill_fuzz_mldsa_der(der, ml_key[1], QUILL_FUZZ_MLDSA_PKI_BOTH);
    static uint8_t e[ENC_CAP];
    size_t en = encrypt_pki(der, n, e);
    set_der(&start_epki[2][0], e, en);
    pem_of(&start_epki[2][1], "ENCRYPTED PRIVATE KEY", e, en);

    rsa_siglen = quill_fuzz_sign(quill_fuzz_dflt, rsa, "default", "SHA256", message,
                                 sizeof(message), rsa_sig, sizeof(rsa_sig));
    ec_siglen = quill_fuzz_sign(quill_fuzz_dflt, ec, "default", "SHA256", message,
                                sizeof(message), ec_sig, sizeof(ec_sig));
    if (rsa_siglen == 0 || ec_siglen == 0)
        quill_fuzz_fail("start-up signatures");
    rsa_pub = rsa;
    ec_pub = ec;
}

/* The starting encoding of (kind, variant) and its flags. */
static void select_start(int kind, int v, enc *e, int *epki, int *mldsa) {
    const int pem = v & 1, form = ((v >> 1) & 3) % 3, set = ((v >> 3) & 3) % 3;
    switch (kind) {
    case 0:
        *e = start_mldsa_pki[set][form][pem];
        *mldsa = 1;
        break;
    case 1:
        *e = start_mldsa_spki[set][pem];
        *mldsa = 1;
        break;
    case 2:
    case 3:
        *e = start_rsa[kind - 2][pem];
        break;
    case 4:
    case 5:
        *e = start_ec[kind - 4][pem];
        break;
    case 6: {
        int which = (v >> 3) & 3;
        which = which > 2 ? 2 : which;
        *e = start_epki[which][pem];
        *epki = 1;
        *mldsa = which == 2;
        break;
    }
    default:
        memcpy(e->b, ec_point[pem], ec_point_len[pem]);
        e->len = ec_point_len[pem];
        break;
    }
}

/* Per starting encoding: itself, and one-operation mutations (a flipped
 * bit at the start, the middle and the end, the last byte cut off). */
static void write_seeds(const char *dir) {
    unsigned n = 0;
    static enc e;
    for (int kind = 0; kind < KINDS; kind++)
        for (int v = 0; v < 32; v++) {
            if (kind != 0 && kind != 6 && (v & 6) != 0)
                continue; /* the form bits matter only for ML-DSA PKI */
            if ((kind <= 1 && ((v >> 3) & 3) == 3) || (kind > 1 && kind != 6 && (v >> 3) != 0))
                continue;
            int epki = 0, mldsa = 0;
            select_start(kind, v, &e, &epki, &mldsa);
            uint8_t in[6] = {(uint8_t)kind, (uint8_t)v, 0, 0, 0, 0};
            quill_fuzz_seed_write(dir, "decoder", n++, in, 2);
            const size_t offs[3] = {1, e.len / 2, e.len - 1};
            for (int i = 0; i < 3; i++) {
                in[2] = 0, in[3] = (uint8_t)(offs[i] >> 8), in[4] = (uint8_t)offs[i], in[5] = 1;
                quill_fuzz_seed_write(dir, "decoder", n++, in, 6);
            }
            in[2] = 1, in[3] = (uint8_t)((e.len - 1) >> 8), in[4] = (uint8_t)(e.len - 1);
            quill_fuzz_seed_write(dir, "decoder", n++, in, 6);
        }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    quill_fuzz_init();
    make_starts();
    quill_fuzz_seed_mode(write_seeds);
    return 0;
}

/* ---- Decoding ---- */

/* Decodes |in| (|input| "DER" or "PEM", |structure| or NULL) in |ctx|;
 * *used gets the bytes consumed. */
static EVP_PKEY *decode(OSSL_LIB_CTX *ctx, const char *input, const char *structure,
                        const uint8_t *in, size_t len, size_t *used) {
    EVP_PKEY *pk = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&pk, input, structure, NULL, 0, ctx, NULL);
    if (d == NULL || OSSL_DECODER_CTX_set_passphrase(d, (const unsigned char *)pass,
                                                     strlen(pass)) != 1)
        quill_fuzz_fail("decoder context");
    const unsigned char *p = in;
    size_t left = len;
    if (OSSL_DECODER_from_data(d, &p, &left) != 1) {
        EVP_PKEY_free(pk);
        pk = NULL;
    }
    if (used != NULL)
        *used = len - left;
    OSSL_DECODER_CTX_free(d);
    ERR_clear_error();
    return pk;
}

/* The first PEM block's label and DER body (PEM_read_bio), or 0. */
static int pem_first(const uint8_t *in, size_t len, char **label, uint8_t **der, long *dlen) {
    BIO *b = BIO_new_mem_buf(in, (int)len);
    char *header = NULL;
    int ok = b != NULL && PEM_read_bio(b, label, &header, der, dlen) == 1;
    OPENSSL_free(header);
    BIO_free(b);
    ERR_clear_error();
    return ok;
}

/* 1 if the EncryptedPrivateKeyInfo |der| uses PBES2 with PBKDF2 of at most
 * 4096 iterations, or is no EncryptedPrivateKeyInfo at all; 0 for any other
 * scheme (PBES1 and scrypt have fuzzable costs too). */
static int kdf_cheap(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    X509_SIG *sig = d2i_X509_SIG(NULL, &p, (long)len);
    if (sig == NULL) {
        ERR_clear_error();
        return 1;
    }
    const X509_ALGOR *alg;
    X509_SIG_get0(sig, &alg, NULL);
    const ASN1_OBJECT *oid;
    int ptype;
    const void *pval;
    X509_ALGOR_get0(&oid, &ptype, &pval, alg);
    int ok = 0;
    if (OBJ_obj2nid(oid) == NID_pbes2 && ptype == V_ASN1_SEQUENCE) {
        PBE2PARAM *pbe2 =
            ASN1_TYPE_unpack_sequence(ASN1_ITEM_rptr(PBE2PARAM), alg->parameter);
        if (pbe2 != NULL && OBJ_obj2nid(pbe2->keyfunc->algorithm) == NID_id_pbkdf2 &&
            pbe2->keyfunc->parameter != NULL &&
            pbe2->keyfunc->parameter->type == V_ASN1_SEQUENCE) {
            PBKDF2PARAM *kdf =
                ASN1_TYPE_unpack_sequence(ASN1_ITEM_rptr(PBKDF2PARAM), pbe2->keyfunc->parameter);
            long iter = kdf != NULL ? ASN1_INTEGER_get(kdf->iter) : -1;
            ok = iter >= 0 && iter <= 4096;
            PBKDF2PARAM_free(kdf);
        }
        PBE2PARAM_free(pbe2);
    } /* PBES1, scrypt and the rest: skipped (their cost is fuzzable too) */
    X509_SIG_free(sig);
    ERR_clear_error();
    return ok;
}

/* Every PEM block of |in| (or |in| itself as DER) has a cheap KDF. */
static int input_cheap(const uint8_t *in, size_t len, int pem) {
    if (!pem)
        return kdf_cheap(in, len);
    BIO *b = BIO_new_mem_buf(in, (int)len);
    int ok = 1;
    for (;;) {
        char *label = NULL, *header = NULL;
        uint8_t *der = NULL;
        long dlen = 0;
        if (PEM_read_bio(b, &label, &header, &der, &dlen) != 1)
            break;
        ok = ok && kdf_cheap(der, (size_t)dlen);
        OPENSSL_free(label), OPENSSL_free(header), OPENSSL_free(der);
    }
    BIO_free(b);
    ERR_clear_error();
    return ok;
}

/* Private parameter (octets for ML-DSA, the BN otherwise) equality. */
static int same_private(EVP_PKEY *a, EVP_PKEY *b) {
    const int rsa = EVP_PKEY_is_a(a, "RSA") || EVP_PKEY_is_a(a, "RSA-PSS");
    const char *name = rsa ? OSSL_PKEY_PARAM_RSA_D : OSSL_PKEY_PARAM_PRIV_KEY;
    if (rsa || EVP_PKEY_is_a(a, "EC")) {
        BIGNUM *x = NULL, *y = NULL;
        int hx = EVP_PKEY_get_bn_param(a, name, &x) == 1, hy = EVP_PKEY_get_bn_param(b, name, &y) == 1;
        int eq = hx == hy && (!hx || BN_cmp(x, y) == 0);
        BN_clear_free(x), BN_clear_free(y);
        ERR_clear_error();
        return eq;
    }
    static uint8_t x[QUILL_MLDSA_MAX_PRIV_BYTES], y[QUILL_MLDSA_MAX_PRIV_BYTES];
    size_t xl, yl;
    int hx = quill_fuzz_get_octets(a, name, x, sizeof(x), &xl);
    int hy = quill_fuzz_get_octets(b, name, y, sizeof(y), &yl);
    return hx == hy && xl == yl && memcmp(x, y, xl) == 0;
}

static int mldsa_set_of(EVP_PKEY *pk) {
    for (int s = 0; s < 3; s++)
        if (EVP_PKEY_is_a(pk, mldsa_names[s]))
            return s;
    return -1;
}

/* Uses |pk| once (see the header). */
static void use_key(EVP_PKEY *pk, EVP_PKEY *dref) {
    int set = mldsa_set_of(pk);
    if (set >= 0) {
        const quill_mldsa_set s = (quill_mldsa_set)set;
        uint8_t pub[QUILL_MLDSA_MAX_PUB_BYTES], seed[64], mu[64];
        static uint8_t priv[QUILL_MLDSA_MAX_PRIV_BYTES];
        size_t pl, kl, sl;
        if (!quill_fuzz_get_octets(pk, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &pl) ||
            pl != quill_mldsa_pub_bytes(s))
            quill_fuzz_fail("ML-DSA: no public key");
        int has_priv = quill_fuzz_get_octets(pk, OSSL_PKEY_PARAM_PRIV_KEY, priv, sizeof(priv), &kl);
        int has_seed = quill_fuzz_get_octets(pk, "seed", seed, sizeof(seed), &sl);
        quill_mldsa_key *ref = NULL;
        if (has_seed) {
            if (sl != 32 || quill_mldsa_key_from_seed(&ref, s, seed) != QUILL_OK ||
                !has_priv || kl != quill_mldsa_priv_bytes(s) ||
                memcmp(quill_mldsa_key_priv(ref), priv, kl) != 0)
                quill_fuzz_fail("ML-DSA: seed and expanded key disagree");
        } else if (has_priv) {
            if (quill_mldsa_key_from_priv(&ref, s, priv, kl) != QUILL_OK)
                quill_fuzz_fail("ML-DSA: expanded key fails FIPS 204's checks");
        } else if (quill_mldsa_key_from_pub(&ref, s, pub, pl) != QUILL_OK) {
            quill_fuzz_fail("ML-DSA: public key");
        }
        if (memcmp(quill_mldsa_key_pub(ref), pub, pl) != 0)
            quill_fuzz_fail("ML-DSA: public key does not match the private key");
        quill_fuzz_mldsa_mu_ref(mu, pub, pl, 1, NULL, 0, message, sizeof(message));
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_both, pk, NULL);
        if (has_priv) {
            uint8_t sig[QUILL_MLDSA_MAX_SIG_BYTES];
            size_t slen = sizeof(sig);
            int one = 1;
            OSSL_PARAM sp[] = {OSSL_PARAM_construct_int("deterministic", &one), OSSL_PARAM_END};
            quill_fuzz_trace("decoder ML-DSA private key signs");
            if (pc == NULL || EVP_PKEY_sign_init_ex(pc, sp) != 1 ||
                EVP_PKEY_sign(pc, sig, &slen, message, sizeof(message)) != 1 ||
                quill_mldsa_verify_mu(ref, mu, sig, slen) != QUILL_OK)
                quill_fuzz_fail("ML-DSA: decoded private key's signature does not verify");
        } else {
            size_t slen = quill_mldsa_sig_bytes(s);
            int got = pc != NULL && EVP_PKEY_verify_init(pc) == 1 &&
                      EVP_PKEY_verify(pc, ml_sig[set], slen, message, sizeof(message)) == 1;
            quill_fuzz_trace("decoder ML-DSA public verdict %d", got);
            if (got != (quill_mldsa_verify_mu(ref, mu, ml_sig[set], slen) == QUILL_OK))
                quill_fuzz_fail("ML-DSA: verdict differs from the core's");
        }
        EVP_PKEY_CTX_free(pc);
        quill_mldsa_key_free(ref);
        ERR_clear_error();
        return;
    }
    const int is_rsa = EVP_PKEY_is_a(pk, "RSA") || EVP_PKEY_is_a(pk, "RSA-PSS");
    if (!is_rsa && !EVP_PKEY_is_a(pk, "EC"))
        return; /* DSA, DH, X25519...: not quill's */
    BIGNUM *priv = NULL;
    int has_priv = EVP_PKEY_get_bn_param(dref, is_rsa ? OSSL_PKEY_PARAM_RSA_D
                                                      : OSSL_PKEY_PARAM_PRIV_KEY, &priv) == 1;
    BN_clear_free(priv);
    ERR_clear_error();
    if (has_priv) {
        uint8_t sig[2048];
        size_t slen = quill_fuzz_sign(quill_fuzz_both, pk, "quill", "SHA256", message,
                                      sizeof(message), sig, sizeof(sig));
        quill_fuzz_trace("decoder signed with quill: %zu bytes", slen);
        if (slen == 0)
            return; /* quill declined the key (size, curve, inconsistency) */
        int ok = quill_fuzz_verify(quill_fuzz_dflt, dref, "default", "SHA256", message,
                                   sizeof(message), sig, slen);
        if (is_rsa) {
            if (!ok)
                quill_fuzz_fail("RSA: quill released a signature that does not verify");
        } else {
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_dflt, dref, NULL);
            int consistent = pc != NULL && EVP_PKEY_pairwise_check(pc) == 1;
            EVP_PKEY_CTX_free(pc);
            ERR_clear_error();
            if (ok != consistent)
                quill_fuzz_fail("EC: signature verdict is not the pairwise check's");
        }
        return;
    }
    const uint8_t *sig = is_rsa ? rsa_sig : ec_sig;
    size_t slen = is_rsa ? rsa_siglen : ec_siglen;
    int q = quill_fuzz_verify(quill_fuzz_both, pk, "quill", "SHA256", message, sizeof(message),
                              sig, slen);
    int d = quill_fuzz_verify(quill_fuzz_dflt, dref, "default", "SHA256", message,
                              sizeof(message), sig, slen);
    /* quill may decline a key (e.g. RSA below 1024 bits, another curve):
     * then OpenSSL cannot verify with provider=quill at all, and the
     * default provider's verdict is the only one. */
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_both, pk, "provider=quill");
    int quill_has = pc != NULL && EVP_PKEY_verify_init(pc) == 1;
    EVP_PKEY_CTX_free(pc);
    ERR_clear_error();
    quill_fuzz_trace("decoder public verdicts: quill %d (has %d) default %d", q, quill_has, d);
    if (quill_has && q != d)
        quill_fuzz_fail("verdicts differ on the genuine signature");
}

static void check_keys_equal(EVP_PKEY *a, EVP_PKEY *b, const char *what) {
    if (EVP_PKEY_eq(a, b) != 1 || !same_private(a, b)) {
        fprintf(stderr, "%s\n", what);
        quill_fuzz_fail("decoded key differs from the independently decoded one");
    }
    ERR_clear_error();
}

static void check_decode(const uint8_t *in, size_t len, int pem, int epki, int mldsa) {
    const char *input = pem ? "PEM" : "DER";
    if (epki && !input_cheap(in, len, pem))
        return;
    size_t used = 0;
    EVP_PKEY *pk = decode(quill_fuzz_both, input, NULL, in, len, &used);
    EVP_PKEY *dk = mldsa ? NULL : decode(quill_fuzz_dflt, input, NULL, in, len, NULL);
    quill_fuzz_trace("decoder %s epki=%d mldsa=%d: with quill %s (%s), default alone %s", input,
                     epki, mldsa, pk != NULL ? EVP_PKEY_get0_type_name(pk) : "-",
                     pk != NULL ? quill_fuzz_provider_of(pk) : "-",
                     dk != NULL ? EVP_PKEY_get0_type_name(dk) : "-");
    if (!mldsa && (pk != NULL) != (dk != NULL))
        quill_fuzz_fail(pk != NULL ? "decoded with quill, refused by the default provider alone"
                                   : "refused with quill, decoded by the default provider alone");
    if (pk == NULL)
        return;
    if (dk != NULL)
        check_keys_equal(pk, dk, "against the default provider alone");
    if (mldsa && mldsa_set_of(pk) < 0) {
        EVP_PKEY_free(pk); /* a mutated ML-DSA input read as another key type */
        return;
    }
    if (mldsa) {
        /* The independent reading: the first PEM block or the DER consumed,
         * decrypted for EPKI, then decoded as plain DER. */
        uint8_t *der = NULL;
        long dlen = 0;
        char *label = NULL;
        if (pem) {
            if (!pem_first(in, len, &label, &der, &dlen))
                quill_fuzz_fail("decoded a PEM input PEM_read_bio does not read");
        } else {
            der = OPENSSL_memdup(in, used);
            dlen = (long)used;
        }
        if (epki) {
            const unsigned char *p = der;
            X509_SIG *sig = d2i_X509_SIG(NULL, &p, dlen);
            PKCS8_PRIV_KEY_INFO *p8 =
                sig != NULL ? PKCS8_decrypt_ex(sig, pass, (int)strlen(pass), quill_fuzz_dflt, NULL)
                            : NULL;
            unsigned char *plain = NULL;
            int pn = p8 != NULL ? i2d_PKCS8_PRIV_KEY_INFO(p8, &plain) : -1;
            if (pn <= 0)
                quill_fuzz_fail("decoded an EncryptedPrivateKeyInfo PKCS8_decrypt does not");
            OPENSSL_free(der);
            der = plain;
            dlen = pn;
            X509_SIG_free(sig);
            PKCS8_PRIV_KEY_INFO_free(p8);
        }
        EVP_PKEY *ref = decode(quill_fuzz_both, "DER", NULL, der, (size_t)dlen, NULL);
        if (ref == NULL)
            quill_fuzz_fail("the independently read DER does not decode");
        check_keys_equal(pk, ref, label != NULL ? label : "DER");
        EVP_PKEY_free(ref);
        OPENSSL_free(der);
        OPENSSL_free(label);
    }
    use_key(pk, dk != NULL ? dk : pk);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(dk);
}

/* ---- The EC point through EVP_PKEY_set1_encoded_public_key ---- */

static EVP_PKEY *p256_empty(OSSL_LIB_CTX *ctx, const char *props) {
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                            (char *)"prime256v1", 0),
                           OSSL_PARAM_END};
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(ctx, "EC", props);
    EVP_PKEY *pk = NULL;
    if (pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
        EVP_PKEY_fromdata(pc, &pk, EVP_PKEY_KEY_PARAMETERS, params) != 1)
        quill_fuzz_fail("empty P-256 key");
    EVP_PKEY_CTX_free(pc);
    return pk;
}

static void check_point(const uint8_t *pt, size_t len) {
    EVP_PKEY *kq = p256_empty(quill_fuzz_both, "provider=quill");
    EVP_PKEY *kd = p256_empty(quill_fuzz_dflt, NULL);
    if (strcmp(quill_fuzz_provider_of(kq), "quill") != 0)
        quill_fuzz_fail("P-256 key not in quill");
    int q = EVP_PKEY_set1_encoded_public_key(kq, pt, len) == 1;
    int d = EVP_PKEY_set1_encoded_public_key(kd, pt, len) == 1;
    ERR_clear_error();
    if (d) {
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_dflt, kd, NULL);
        d = pc != NULL && EVP_PKEY_public_check(pc) == 1;
        EVP_PKEY_CTX_free(pc);
        ERR_clear_error();
    }
    quill_fuzz_trace("decoder EC point len=%zu: quill %d default %d", len, q, d);
    if (q && !d)
        quill_fuzz_fail("EC point: quill accepts a point the default provider refuses");
    if (d && !q && len > 0 && (pt[0] == 2 || pt[0] == 3 || pt[0] == 4))
        quill_fuzz_fail("EC point: quill refuses a valid SEC 1 point");
    if (q) {
        const char *xy[2] = {OSSL_PKEY_PARAM_EC_PUB_X, OSSL_PKEY_PARAM_EC_PUB_Y};
        for (int i = 0; i < 2; i++) {
            BIGNUM *a = NULL, *b = NULL;
            if (EVP_PKEY_get_bn_param(kq, xy[i], &a) != 1 ||
                EVP_PKEY_get_bn_param(kd, xy[i], &b) != 1 || BN_cmp(a, b) != 0)
                quill_fuzz_fail("EC point: coordinates differ from the default provider's");
            BN_free(a), BN_free(b);
        }
        int vq = quill_fuzz_verify(quill_fuzz_both, kq, "quill", "SHA256", message,
                                   sizeof(message), ec_sig, ec_siglen);
        int vd = quill_fuzz_verify(quill_fuzz_dflt, kd, "default", "SHA256", message,
                                   sizeof(message), ec_sig, ec_siglen);
        if (vq != vd)
            quill_fuzz_fail("EC point: verdicts differ on the genuine signature");
    }
    EVP_PKEY_free(kq);
    EVP_PKEY_free(kd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    const int kind = data[0] % KINDS, v = data[1], pem = v & 1;
    static enc e;
    int epki = 0, mldsa = 0;
    select_start(kind, v, &e, &epki, &mldsa);
    quill_fuzz_mutate(e.b, &e.len, sizeof(e.b), data + 2, size - 2);
    if (kind == 7)
        check_point(e.b, e.len);
    else
        check_decode(e.b, e.len, pem, epki, mldsa);
    return 0;
}
