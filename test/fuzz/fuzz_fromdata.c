/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: key import through EVP_PKEY_fromdata into quill's key
 * managers (RSA, EC P-256, ML-DSA-44/65/87) with fuzzed parameter bytes,
 * every accepted key used once to sign (private) or verify (public).
 *
 * Starting keys, made at start-up without quill: RSA 1024 and 2048 bits
 * (primes found by OpenSSL's BN_check_prime from fixed SHAKE256 outputs),
 * an EC P-256 key from a fixed scalar (its point by OpenSSL's EC_POINT_mul)
 * and ML-DSA keys from fixed seeds.
 *
 * Input: byte 0 the algorithm (mod 3: RSA, EC, ML-DSA) and below it the
 * variant (byte 0 / 3: RSA size 1024/2048; EC point compressed or not;
 * the ML-DSA set); byte 1 flags: bit 0 public-key selection only, bit 1
 * the wrong shape (RSA: an added "rsa-factor3", which quill must refuse;
 * EC: the group "secp384r1", which quill must leave to the default
 * provider; ML-DSA: the key manager of the next set, where a seed makes a
 * key and a priv or pub of the other set's length must be refused), bits
 * 2-7 spare;
 * byte 2: a mask of parameters to omit (RSA n e d p q dp dq qinv; EC
 * group pub priv; ML-DSA seed priv pub); then operations of 5 bytes:
 * (parameter index, then a 4-byte mutation of fuzz_util.h) applied to that
 * parameter's bytes (big-endian for the integers).
 *
 * The same parameters go to quill ("provider=quill") and to the default
 * provider in a library context of its own.  Oracles:
 *   RSA: quill accepts only n odd of 1024..16384 bits, 3 <= e < n odd,
 *     no third prime, and either no private part or d with all five CRT
 *     values or none (checked here with BN); what it accepts the default
 *     provider accepts too, and n and e read back equal the input.  A
 *     private key signs once (PKCS#1 v1.5, SHA-256); a signature quill
 *     releases must verify under the default provider with (n, e) and
 *     under quill with the same key; and a
 *     key the default provider's pairwise check passes must sign.  quill
 *     imports without checking d against e (as the default provider does):
 *     for an inconsistent key its fault check must refuse to sign, so the
 *     oracle is "released => verifies", not "accepted => signs".  A public
 *     key verifies a genuine signature: verdict equal to the default's.
 *   EC: quill accepts only the P-256 names (without regard to case, and
 *     the OID text, where the default provider of OpenSSL 3.0 takes only
 *     "prime256v1" and "P-256": a harmless difference, so the default
 *     provider is given "prime256v1"), a point on the curve
 *     (uncompressed or compressed; the default provider also takes the
 *     hybrid form, which quill refuses: a legitimate difference, so only
 *     quill => default is checked) and 0 < priv < n.  What it accepts the
 *     default accepts, with the same affine point, which the default's
 *     public check passes; a private key without a point gets priv * G
 *     (computed here with EC_POINT_mul).  Neither provider checks an
 *     imported pair (pub, priv) against each other, so the signature of a
 *     private key must verify under its point exactly when the point is
 *     priv * G.  A public key: verdict on a genuine signature equal to the
 *     default's.
 *   ML-DSA (no default implementation on OpenSSL 3.0): the verdict must
 *     equal the rule quill documents (mldsa_key.h), evaluated here with the
 *     core's KeyGen and private-key check: with a private selection a seed
 *     (32 bytes) regenerates the key and any priv or pub given must equal
 *     the generated one; else a priv must pass FIPS 204's checks and any
 *     pub equal the derived one; else a pub of the right length.  The key
 *     read back must hold that public key; a private key's deterministic
 *     signature must verify under the core with mu recomputed here with the
 *     default provider's SHAKE256; a public key's verdict on a genuine
 *     signature must equal the core's on the same mu. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include "fuzz_util.h"
#include "mldsa/mldsa.h"

#define FIELD_CAP 5200 /* ML-DSA-87 private key plus room to grow */
#define MAX_FIELDS 8

typedef struct field {
    uint8_t b[FIELD_CAP];
    size_t len;
} field;

static const char *const rsa_names[8] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
static const char *const mldsa_names[3] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
static const uint8_t message[] = "quill fuzz_fromdata message";

static field rsa_base[2][8];
static uint8_t rsa_sig[2][256];
static size_t rsa_siglen[2];
static field ec_base[3]; /* group, pub (uncompressed), priv */
static uint8_t ec_pub_c[33];
static uint8_t ec_sig[80];
static size_t ec_siglen;
static EC_GROUP *p256;
static quill_mldsa_key *ml_base[3];
static uint8_t ml_sig[3][QUILL_MLDSA_MAX_SIG_BYTES];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void set_field(field *f, const BIGNUM *bn) {
    f->len = (size_t)BN_num_bytes(bn);
    BN_bn2bin(bn, f->b);
}

static EVP_PKEY *rsa_from_fields(OSSL_LIB_CTX *ctx, const char *props, const field *f,
                                 unsigned omit, int extra, int selection);

static void rsa_init(int v, int bits) {
    BIGNUM *all[8];
    quill_fuzz_rsa_fixed(bits, all);
    for (int i = 0; i < 8; i++) {
        set_field(&rsa_base[v][i], all[i]);
        BN_clear_free(all[i]);
    }
    EVP_PKEY *pk = rsa_from_fields(quill_fuzz_dflt, NULL, rsa_base[v], 0, 0, EVP_PKEY_KEYPAIR);
    if (pk == NULL)
        quill_fuzz_fail("RSA start-up key import");
    rsa_siglen[v] = quill_fuzz_sign(quill_fuzz_dflt, pk, "default", "SHA256", message,
                                    sizeof(message), rsa_sig[v], sizeof(rsa_sig[v]));
    if (rsa_siglen[v] == 0)
        quill_fuzz_fail("RSA start-up signature");
    EVP_PKEY_free(pk);
}

static EVP_PKEY *ec_from_fields(OSSL_LIB_CTX *ctx, const char *props, const field *f,
                                unsigned omit, int selection);

static void ec_init(void) {
    p256 = EC_GROUP_new_by_curve_name_ex(quill_fuzz_dflt, NULL, NID_X9_62_prime256v1);
    memcpy(ec_base[0].b, "prime256v1", 10);
    ec_base[0].len = 10;
    quill_fuzz_ec_fixed(ec_base[2].b, ec_base[1].b);
    ec_base[1].len = 65;
    ec_base[2].len = 32;
    EC_POINT *pt = EC_POINT_new(p256);
    if (p256 == NULL || pt == NULL || !EC_POINT_oct2point(p256, pt, ec_base[1].b, 65, NULL) ||
        EC_POINT_point2oct(p256, pt, POINT_CONVERSION_COMPRESSED, ec_pub_c, 33, NULL) != 33)
        quill_fuzz_fail("EC start-up point");
    EC_POINT_free(pt);
    EVP_PKEY *pk = ec_from_fields(quill_fuzz_dflt, NULL, ec_base, 0, EVP_PKEY_KEYPAIR);
    if (pk == NULL)
        quill_fuzz_fail("EC start-up import");
    ec_siglen = quill_fuzz_sign(quill_fuzz_dflt, pk, "default", "SHA256", message,
                                sizeof(message), ec_sig, sizeof(ec_sig));
    if (ec_siglen == 0)
        quill_fuzz_fail("EC start-up signature");
    EVP_PKEY_free(pk);
}

static void mldsa_init(void) {
    for (int s = 0; s < 3; s++) {
        uint8_t seed[32], mu[64], zero[32] = {0};
        for (unsigned i = 0; i < 32; i++)
            seed[i] = (uint8_t)(13 * i + s);
        if (quill_mldsa_key_from_seed(&ml_base[s], (quill_mldsa_set)s, seed) != QUILL_OK)
            quill_fuzz_fail("ML-DSA start-up key");
        quill_fuzz_mldsa_mu_ref(mu, quill_mldsa_key_pub(ml_base[s]),
                                quill_mldsa_pub_bytes((quill_mldsa_set)s), 1, NULL, 0, message,
                                sizeof(message));
        if (quill_mldsa_sign_mu(ml_base[s], mu, zero, ml_sig[s], sizeof(ml_sig[s])) != QUILL_OK)
            quill_fuzz_fail("ML-DSA start-up signature");
    }
}

/* Per algorithm and variant: the flags (selection, extra parameter) with
 * every parameter, and with the subsets that make the other key shapes
 * (RSA: no CRT, public; EC: no point, no scalar; ML-DSA: no seed, seed
 * only, public), then one flipped byte in d, the EC scalar or the expanded key. */
static void write_seeds(const char *dir) {
    static const uint8_t omits[3][4] = {{0x00, 0xf8, 0xfc, 0x00},
                                        {0x00, 0x02, 0x04, 0x00},
                                        {0x00, 0x01, 0x06, 0x03}};
    unsigned n = 0;
    for (unsigned alg = 0; alg < 9; alg++)
        for (unsigned flags = 0; flags < 4; flags++)
            for (unsigned o = 0; o < 4; o++) {
                uint8_t in[8] = {(uint8_t)alg, (uint8_t)flags, omits[alg % 3][o], 0, 0, 0, 0, 1};
                if (o == 3) {
                    in[3] = alg % 3 == 2 ? 1 : 2; /* d (RSA), the scalar (EC), priv (ML-DSA) */
                    quill_fuzz_seed_write(dir, "fromdata", n++, in, 8);
                } else if (o == 0 || omits[alg % 3][o] != 0) {
                    quill_fuzz_seed_write(dir, "fromdata", n++, in, 3);
                }
            }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    quill_fuzz_init();
    rsa_init(0, 1024);
    rsa_init(1, 2048);
    ec_init();
    mldsa_init();
    quill_fuzz_seed_mode(write_seeds);
    return 0;
}

/* ---- Building keys ---- */

static EVP_PKEY *fromdata(OSSL_LIB_CTX *ctx, const char *name, const char *props,
                          OSSL_PARAM_BLD *bld, int selection) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(ctx, name, props);
    EVP_PKEY *pk = NULL;
    if (params == NULL || pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
        EVP_PKEY_fromdata(pc, &pk, selection, params) != 1) {
        EVP_PKEY_free(pk);
        pk = NULL;
    }
    EVP_PKEY_CTX_free(pc);
    OSSL_PARAM_free(params);
    ERR_clear_error();
    return pk;
}

static EVP_PKEY *rsa_from_fields(OSSL_LIB_CTX *ctx, const char *props, const field *f,
                                 unsigned omit, int extra, int selection) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *bn[9] = {0};
    for (int i = 0; i < 8; i++) {
        if (omit & (1u << i))
            continue;
        bn[i] = BN_bin2bn(f[i].b, (int)f[i].len, NULL);
        OSSL_PARAM_BLD_push_BN(bld, rsa_names[i], bn[i]);
    }
    if (extra) {
        bn[8] = BN_bin2bn(f[3].b, (int)f[3].len, NULL);
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR3, bn[8]);
    }
    EVP_PKEY *pk = fromdata(ctx, "RSA", props, bld, selection);
    OSSL_PARAM_BLD_free(bld);
    for (int i = 0; i < 9; i++)
        BN_clear_free(bn[i]);
    return pk;
}

static EVP_PKEY *ec_from_fields(OSSL_LIB_CTX *ctx, const char *props, const field *f,
                                unsigned omit, int selection) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    char group[FIELD_CAP + 1];
    memcpy(group, f[0].b, f[0].len);
    group[f[0].len] = '\0';
    BIGNUM *priv = NULL;
    if (!(omit & 1))
        OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    if (!(omit & 2))
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, f[1].b, f[1].len);
    if (!(omit & 4)) {
        priv = BN_bin2bn(f[2].b, (int)f[2].len, NULL);
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, priv);
    }
    EVP_PKEY *pk = fromdata(ctx, "EC", props, bld, selection);
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(priv);
    return pk;
}

/* ---- Oracles ---- */

static int bn_param_equals(const EVP_PKEY *pk, const char *name, const field *f) {
    BIGNUM *got = NULL, *want = BN_bin2bn(f->b, (int)f->len, NULL);
    int eq = EVP_PKEY_get_bn_param(pk, name, &got) == 1 && BN_cmp(got, want) == 0;
    BN_clear_free(got);
    BN_clear_free(want);
    ERR_clear_error();
    return eq;
}

static void check_rsa(const field *f, unsigned omit, int extra, int selection) {
    EVP_PKEY *kq = rsa_from_fields(quill_fuzz_both, "provider=quill", f, omit, extra, selection);
    quill_fuzz_trace("fromdata RSA omit=%02x extra=%d sel=%d: quill %s", omit, extra, selection,
                     kq != NULL ? "accepts" : "refuses");
    if (kq == NULL)
        return;
    if (strcmp(quill_fuzz_provider_of(kq), "quill") != 0)
        quill_fuzz_fail("RSA key not in quill");
    const int priv_sel = (selection & EVP_PKEY_KEYPAIR) == EVP_PKEY_KEYPAIR;
    /* What quill must have refused. */
    if (extra)
        quill_fuzz_fail("RSA: multi-prime key accepted");
    if (omit & 3)
        quill_fuzz_fail("RSA: key without n or e accepted");
    BIGNUM *n = BN_bin2bn(f[0].b, (int)f[0].len, NULL), *e = BN_bin2bn(f[1].b, (int)f[1].len, NULL);
    int bits = BN_num_bits(n);
    if (bits < 1024 || bits > 16384 || !BN_is_odd(n) || !BN_is_odd(e) ||
        BN_cmp(e, BN_value_one()) <= 0 || BN_cmp(e, n) >= 0)
        quill_fuzz_fail("RSA: n or e out of quill's range accepted");
    unsigned crt = (~omit >> 3) & 31;
    int has_d = !(omit & 4);
    if (priv_sel && crt != 0 && (crt != 31 || !has_d))
        quill_fuzz_fail("RSA: partial private key accepted");
    if (!bn_param_equals(kq, OSSL_PKEY_PARAM_RSA_N, &f[0]) ||
        !bn_param_equals(kq, OSSL_PKEY_PARAM_RSA_E, &f[1]))
        quill_fuzz_fail("RSA: n or e read back differ");
    EVP_PKEY *kd = rsa_from_fields(quill_fuzz_dflt, NULL, f, omit, 0, selection);
    EVP_PKEY *kdpub = rsa_from_fields(quill_fuzz_dflt, NULL, f, 0xfc, 0, EVP_PKEY_PUBLIC_KEY);
    if (kd == NULL || kdpub == NULL)
        quill_fuzz_fail("RSA: quill accepted a key the default provider refuses");
    const size_t v = (size_t)bits > 1024 ? 1 : 0;
    if (priv_sel && has_d) {
        if (!bn_param_equals(kq, OSSL_PKEY_PARAM_RSA_D, &f[2]))
            quill_fuzz_fail("RSA: d read back differs");
        uint8_t sig[2048 + 8];
        size_t slen = quill_fuzz_sign(quill_fuzz_both, kq, "quill", "SHA256", message,
                                      sizeof(message), sig, sizeof(sig));
        quill_fuzz_trace("fromdata RSA signed: %zu bytes", slen);
        if (slen != 0 && !quill_fuzz_verify(quill_fuzz_dflt, kdpub, "default", "SHA256", message,
                                            sizeof(message), sig, slen))
            quill_fuzz_fail("RSA: quill released a signature that does not verify");
        if (slen != 0 && !quill_fuzz_verify(quill_fuzz_both, kq, "quill", "SHA256", message,
                                            sizeof(message), sig, slen))
            quill_fuzz_fail("RSA: quill does not verify its own signature");
        if (slen == 0 && crt == 31) {
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_dflt, kd, NULL);
            int consistent = pc != NULL && EVP_PKEY_pairwise_check(pc) == 1;
            EVP_PKEY_CTX_free(pc);
            ERR_clear_error();
            if (consistent)
                quill_fuzz_fail("RSA: a consistent key does not sign");
        }
    } else {
        const uint8_t *sig = rsa_sig[v];
        int q = quill_fuzz_verify(quill_fuzz_both, kq, "quill", "SHA256", message,
                                  sizeof(message), sig, rsa_siglen[v]);
        int d = quill_fuzz_verify(quill_fuzz_dflt, kdpub, "default", "SHA256", message,
                                  sizeof(message), sig, rsa_siglen[v]);
        quill_fuzz_trace("fromdata RSA public verdicts: quill %d default %d", q, d);
        if (q != d)
            quill_fuzz_fail("RSA: verdicts differ on the genuine signature");
    }
    BN_free(n);
    BN_free(e);
    EVP_PKEY_free(kq);
    EVP_PKEY_free(kd);
    EVP_PKEY_free(kdpub);
}

/* The group name as passed (a C string: it ends at the first NUL). */
static int is_p256_name(const field *g) {
    static const char *const ok[] = {"prime256v1", "P-256", "secp256r1", "1.2.840.10045.3.1.7"};
    char name[64];
    const uint8_t *nul = memchr(g->b, 0, g->len);
    size_t n = nul != NULL ? (size_t)(nul - g->b) : g->len;
    if (n >= sizeof(name))
        return 0;
    memcpy(name, g->b, n);
    name[n] = '\0';
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (OPENSSL_strcasecmp(name, ok[i]) == 0)
            return 1;
    return 0;
}

static void check_ec(field *f, unsigned omit, int selection) {
    EVP_PKEY *kq = ec_from_fields(quill_fuzz_both, "provider=quill", f, omit, selection);
    quill_fuzz_trace("fromdata EC omit=%02x sel=%d: quill %s", omit, selection,
                     kq != NULL ? "accepts" : "refuses");
    if (kq == NULL)
        return;
    if (strcmp(quill_fuzz_provider_of(kq), "quill") != 0)
        quill_fuzz_fail("EC key not in quill");
    const int priv_sel = (selection & EVP_PKEY_KEYPAIR) == EVP_PKEY_KEYPAIR;
    if ((omit & 1) || !is_p256_name(&f[0])) {
        /* A 3.4+ core: quill holds other curves for the default provider
         * (ec_foreign.h), not checked here. */
        if (OPENSSL_version_major() == 3 && OPENSSL_version_minor() >= 4) {
            EVP_PKEY_free(kq);
            return;
        }
        quill_fuzz_fail("EC: a group other than P-256 accepted");
    }
    /* quill takes its P-256 names without regard to case, the OID text
     * too; OpenSSL 3.0's default provider only "prime256v1" in any case
     * and "P-256": the default provider is given its own name. */
    field fd[3];
    memcpy(fd, f, sizeof(fd));
    memcpy(fd[0].b, "prime256v1", 10);
    fd[0].len = 10;
    EVP_PKEY *kd = ec_from_fields(quill_fuzz_dflt, NULL, fd, omit, selection);
    if (kd == NULL)
        quill_fuzz_fail("EC: quill accepted a key the default provider refuses");
    uint8_t qpub[65], want[65] = {0};
    size_t qlen = 0;
    int has_pub = quill_fuzz_get_octets(kq, OSSL_PKEY_PARAM_PUB_KEY, qpub, sizeof(qpub), &qlen);
    BIGNUM *priv = NULL;
    int has_priv = EVP_PKEY_get_bn_param(kq, OSSL_PKEY_PARAM_PRIV_KEY, &priv) == 1;
    ERR_clear_error();
    if (priv_sel && !(omit & 4)) {
        if (!has_priv || !bn_param_equals(kq, OSSL_PKEY_PARAM_PRIV_KEY, &f[2]))
            quill_fuzz_fail("EC: private key read back differs");
        if (!quill_fuzz_p256_mul_base(priv, want))
            quill_fuzz_fail("EC: private scalar out of range accepted");
    }
    if (!(omit & 2)) {
        /* The given point: on the curve per the default provider, the same
         * affine point in both. */
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_dflt, kd, NULL);
        if (pc == NULL || EVP_PKEY_public_check(pc) != 1)
            quill_fuzz_fail("EC: quill accepted a point the default provider's check refuses");
        EVP_PKEY_CTX_free(pc);
        if (f[1].len == 0 || (f[1].b[0] != 2 && f[1].b[0] != 3 && f[1].b[0] != 4))
            quill_fuzz_fail("EC: a point not in SEC 1 compressed/uncompressed form accepted");
        const char *xy[2] = {OSSL_PKEY_PARAM_EC_PUB_X, OSSL_PKEY_PARAM_EC_PUB_Y};
        for (int i = 0; i < 2; i++) {
            BIGNUM *a = NULL, *b = NULL;
            if (EVP_PKEY_get_bn_param(kq, xy[i], &a) != 1 ||
                EVP_PKEY_get_bn_param(kd, xy[i], &b) != 1 || BN_cmp(a, b) != 0)
                quill_fuzz_fail("EC: point coordinates differ from the default provider's");
            BN_free(a);
            BN_free(b);
        }
    } else if (priv_sel && !(omit & 4)) {
        if (!has_pub || qlen != 65 || memcmp(qpub, want, 65) != 0)
            quill_fuzz_fail("EC: derived public key is not priv * G");
    }
    ERR_clear_error();
    if (has_priv) {
        if (!has_pub)
            quill_fuzz_fail("EC: private key without a public key");
        int consistent = qlen == 65 && memcmp(qpub, want, 65) == 0;
        uint8_t sig[80];
        size_t slen = quill_fuzz_sign(quill_fuzz_both, kq, "quill", "SHA256", message,
                                      sizeof(message), sig, sizeof(sig));
        if (slen == 0)
            quill_fuzz_fail("EC: an accepted private key does not sign");
        field pubf[3];
        memcpy(&pubf[0], &fd[0], sizeof(field));
        memcpy(pubf[1].b, qpub, qlen);
        pubf[1].len = qlen;
        pubf[2].len = 0;
        EVP_PKEY *vk = ec_from_fields(quill_fuzz_dflt, NULL, pubf, 4, EVP_PKEY_PUBLIC_KEY);
        if (vk == NULL)
            quill_fuzz_fail("EC: quill's public key refused by the default provider");
        int d = quill_fuzz_verify(quill_fuzz_dflt, vk, "default", "SHA256", message,
                                  sizeof(message), sig, slen);
        int q = quill_fuzz_verify(quill_fuzz_both, kq, "quill", "SHA256", message,
                                  sizeof(message), sig, slen);
        quill_fuzz_trace("fromdata EC signed: consistent %d default %d quill %d", consistent, d, q);
        if (d != consistent || q != consistent)
            quill_fuzz_fail("EC: signature verdict is not 'pub == priv * G'");
        EVP_PKEY_free(vk);
    } else if (has_pub) {
        int q = quill_fuzz_verify(quill_fuzz_both, kq, "quill", "SHA256", message,
                                  sizeof(message), ec_sig, ec_siglen);
        int d = quill_fuzz_verify(quill_fuzz_dflt, kd, "default", "SHA256", message,
                                  sizeof(message), ec_sig, ec_siglen);
        quill_fuzz_trace("fromdata EC public verdicts: quill %d default %d", q, d);
        if (q != d)
            quill_fuzz_fail("EC: verdicts differ on the genuine signature");
    }
    BN_clear_free(priv);
    EVP_PKEY_free(kq);
    EVP_PKEY_free(kd);
}

static void check_mldsa(int set, const field *f, unsigned omit, int extra, int selection) {
    /* extra: import into the key manager of the next set. */
    const int target = extra ? (set + 1) % 3 : set;
    const quill_mldsa_set ts = (quill_mldsa_set)target;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    static const char *const pnames[3] = {"seed", OSSL_PKEY_PARAM_PRIV_KEY,
                                          OSSL_PKEY_PARAM_PUB_KEY};
    for (int i = 0; i < 3; i++)
        if (!(omit & (1u << i)))
            OSSL_PARAM_BLD_push_octet_string(bld, pnames[i], f[i].b, f[i].len);
    EVP_PKEY *kq = fromdata(quill_fuzz_both, mldsa_names[target], NULL, bld, selection);
    OSSL_PARAM_BLD_free(bld);

    /* The documented rule. */
    const int priv_sel = (selection & EVP_PKEY_KEYPAIR) == EVP_PKEY_KEYPAIR;
    const int has_seed = priv_sel && !(omit & 1), has_priv = priv_sel && !(omit & 2);
    const int has_pub = !(omit & 4);
    const size_t publen = quill_mldsa_pub_bytes(ts), privlen = quill_mldsa_priv_bytes(ts);
    quill_mldsa_key *ref = NULL;
    int want = 0;
    if (has_seed) {
        want = f[0].len == 32 && quill_mldsa_key_from_seed(&ref, ts, f[0].b) == QUILL_OK &&
               (!has_priv ||
                (f[1].len == privlen && memcmp(f[1].b, quill_mldsa_key_priv(ref), privlen) == 0));
    } else if (has_priv) {
        want = quill_mldsa_key_from_priv(&ref, ts, f[1].b, f[1].len) == QUILL_OK;
    } else if (has_pub) {
        want = quill_mldsa_key_from_pub(&ref, ts, f[2].b, f[2].len) == QUILL_OK;
    }
    if (want && has_pub && (has_seed || has_priv))
        want = f[2].len == publen && memcmp(f[2].b, quill_mldsa_key_pub(ref), publen) == 0;
    quill_fuzz_trace("fromdata ML-DSA set=%d omit=%02x sel=%d: quill %d rule %d", target, omit,
                     selection, kq != NULL, want);
    if ((kq != NULL) != want)
        quill_fuzz_fail(kq != NULL ? "ML-DSA: key accepted against the import rule"
                                   : "ML-DSA: key refused against the import rule");
    if (kq == NULL) {
        quill_mldsa_key_free(ref);
        return;
    }
    uint8_t pub[QUILL_MLDSA_MAX_PUB_BYTES];
    size_t pl = 0;
    if (!quill_fuzz_get_octets(kq, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &pl) ||
        pl != publen || memcmp(pub, quill_mldsa_key_pub(ref), publen) != 0)
        quill_fuzz_fail("ML-DSA: public key read back differs");
    uint8_t mu[64];
    quill_fuzz_mldsa_mu_ref(mu, pub, pl, 1, NULL, 0, message, sizeof(message));
    if (has_seed || has_priv) {
        uint8_t sig[QUILL_MLDSA_MAX_SIG_BYTES];
        int one = 1;
        OSSL_PARAM sp[] = {OSSL_PARAM_construct_int("deterministic", &one), OSSL_PARAM_END};
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_both, kq, NULL);
        size_t slen = sizeof(sig);
        if (pc == NULL || EVP_PKEY_sign_init_ex(pc, sp) != 1 ||
            EVP_PKEY_sign(pc, sig, &slen, message, sizeof(message)) != 1)
            quill_fuzz_fail("ML-DSA: an accepted private key does not sign");
        EVP_PKEY_CTX_free(pc);
        if (quill_mldsa_verify_mu(ref, mu, sig, slen) != QUILL_OK)
            quill_fuzz_fail("ML-DSA: signature does not verify on the reference mu");
    } else {
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_both, kq, NULL);
        size_t slen = quill_mldsa_sig_bytes((quill_mldsa_set)set);
        int got = pc != NULL && EVP_PKEY_verify_init(pc) == 1 &&
                  EVP_PKEY_verify(pc, ml_sig[set], slen, message, sizeof(message)) == 1;
        EVP_PKEY_CTX_free(pc);
        int exp = quill_mldsa_verify_mu(ref, mu, ml_sig[set], slen) == QUILL_OK;
        quill_fuzz_trace("fromdata ML-DSA public verdicts: evp %d core %d", got, exp);
        if (got != exp)
            quill_fuzz_fail("ML-DSA: verdict differs from the core's on the reference mu");
    }
    ERR_clear_error();
    quill_mldsa_key_free(ref);
    EVP_PKEY_free(kq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3)
        return 0;
    const int alg = data[0] % 3, variant = data[0] / 3;
    const int pub_only = data[1] & 1, extra = (data[1] >> 1) & 1;
    const unsigned omit = data[2];
    const int selection = pub_only ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR;
    static field f[MAX_FIELDS];
    size_t nf;
    int set = 0;
    if (alg == 0) {
        nf = 8;
        memcpy(f, rsa_base[variant & 1], sizeof(field) * nf);
    } else if (alg == 1) {
        nf = 3;
        memcpy(f, ec_base, sizeof(field) * nf);
        if (variant & 1) {
            memcpy(f[1].b, ec_pub_c, 33);
            f[1].len = 33;
        }
        if (extra) { /* another curve's name: must go elsewhere */
            memcpy(f[0].b, "secp384r1", 9);
            f[0].len = 9;
        }
    } else {
        nf = 3;
        set = variant % 3;
        const quill_mldsa_key *k = ml_base[set];
        memcpy(f[0].b, quill_mldsa_key_seed(k), 32);
        f[0].len = 32;
        f[1].len = quill_mldsa_priv_bytes((quill_mldsa_set)set);
        memcpy(f[1].b, quill_mldsa_key_priv(k), f[1].len);
        f[2].len = quill_mldsa_pub_bytes((quill_mldsa_set)set);
        memcpy(f[2].b, quill_mldsa_key_pub(k), f[2].len);
    }
    for (size_t i = 3; i + 5 <= size; i += 5) {
        field *t = &f[data[i] % nf];
        /* Integers grow by a few bytes at most (keeps RSA sizes sane). */
        size_t cap = alg == 0 ? 264 : FIELD_CAP;
        quill_fuzz_mutate(t->b, &t->len, cap, data + i + 1, 4);
    }
    if (alg == 0)
        check_rsa(f, omit, extra, selection);
    else if (alg == 1)
        check_ec(f, omit & 7, selection);
    else
        check_mldsa(set, f, omit & 7, extra, selection);
    return 0;
}
