/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill's ML-DSA key managers and signatures through OpenSSL 3.0's EVP, for
 * ML-DSA-44, -65 and -87: key generation (random and from a seed) served
 * by quill; key parameters; sign/verify on whole messages with and without
 * a context string; deterministic and test-entropy signatures that repeat;
 * "mu" mode against a mu computed here with OpenSSL's SHAKE256 (FIPS 204:
 * tr = H(pk, 64), mu = H(tr || M', 64)); "message-encoding" 0 on M'
 * formatted here; streamed vs one-shot signing, copies of a context
 * mid-stream; import/export round trips (private key alone deriving the
 * public key, seed alone, mismatches refused); match and validation; a
 * signature context of another set refused by quill's own dispatch
 * functions; the OIDs and sigids registered for OpenSSL 3.0 (once per
 * process, whatever the number of library contexts), the
 * AlgorithmIdentifier, an X.509 certificate signed and verified; bad input
 * refused with quill's reason; the mldsa-* statistics counters. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/x509.h>

#include "test_util.h"

#define MAX_PUB 2592
#define MAX_PRIV 4896
#define MAX_SIG 4627

typedef struct set_info {
    const char *name, *sn, *oid;
    uint8_t arc; /* last OID arc: 17, 18, 19 */
    size_t pub, priv, sig;
    int secbits, category;
} set_info;

static const set_info sets[] = {
    {"ML-DSA-44", "id-ml-dsa-44", "2.16.840.1.101.3.4.3.17", 17, 1312, 2560, 2420, 128, 2},
    {"ML-DSA-65", "id-ml-dsa-65", "2.16.840.1.101.3.4.3.18", 18, 1952, 4032, 3309, 192, 3},
    {"ML-DSA-87", "id-ml-dsa-87", "2.16.840.1.101.3.4.3.19", 19, 2592, 4896, 4627, 256, 5},
};

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *quill_prov;

/* openssl.cnf.example's default properties. */
#define EXAMPLE_CNF_PROPS "?quill.sig=yes"

/* ---- Helpers ---- */

/* Returns 1 if some error in the queue has a reason string containing
 * |text|; clears the queue. */
static int error_has(const char *text) {
    int found = 0;
    unsigned long e;
    while ((e = ERR_get_error()) != 0) {
        const char *r = ERR_reason_error_string(e);
        if (r != NULL && strstr(r, text) != NULL)
            found = 1;
    }
    if (!found)
        fprintf(stderr, "  expected an error with \"%s\"\n", text);
    return found;
}

static EVP_PKEY *keygen(const set_info *s, const uint8_t *seed, size_t seed_len) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, s->name, NULL);
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_octet_string("seed", (void *)seed, seed_len),
        OSSL_PARAM_construct_end(),
    };
    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) <= 0 ||
        (seed != NULL && EVP_PKEY_CTX_set_params(pctx, p) <= 0) ||
        EVP_PKEY_generate(pctx, &key) <= 0)
        key = NULL;
    if (pctx != NULL && key != NULL)
        QT_CHECK(EVP_PKEY_CTX_get0_provider(pctx) == quill_prov);
    EVP_PKEY_CTX_free(pctx);
    return key;
}

/* Reads the octet-string key parameter |name|; returns its length, 0 if
 * absent. */
static size_t get_octets(const EVP_PKEY *key, const char *name, uint8_t *buf, size_t cap) {
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(key, name, buf, cap, &len) != 1)
        return 0;
    return len;
}

static EVP_PKEY *import(const set_info *s, int selection, const uint8_t *seed, size_t seed_len,
                        const uint8_t *priv, size_t priv_len, const uint8_t *pub, size_t pub_len) {
    OSSL_PARAM p[4];
    size_t n = 0;
    if (seed != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string("seed", (void *)seed, seed_len);
    if (priv != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, (void *)priv,
                                                   priv_len);
    if (pub != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, pub_len);
    p[n] = OSSL_PARAM_construct_end();
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, s->name, NULL);
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0 ||
        EVP_PKEY_fromdata(pctx, &key, selection, p) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(pctx);
    return key;
}

/* Signature options, turned into ctx parameters (-1 / NULL: not set). */
typedef struct opts {
    const uint8_t *context;
    size_t context_len;
    int deterministic, encoding, mu;
    const uint8_t *entropy;
} opts;

static const opts plain = {NULL, 0, -1, -1, -1, NULL};
static const opts det = {NULL, 0, 1, -1, -1, NULL};

static void build_params(const opts *o, OSSL_PARAM p[6], int ints[3]) {
    size_t n = 0;
    if (o->context != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string("context-string", (void *)o->context,
                                                   o->context_len);
    ints[0] = o->deterministic;
    ints[1] = o->encoding;
    ints[2] = o->mu;
    if (o->deterministic >= 0)
        p[n++] = OSSL_PARAM_construct_int("deterministic", &ints[0]);
    if (o->encoding >= 0)
        p[n++] = OSSL_PARAM_construct_int("message-encoding", &ints[1]);
    if (o->mu >= 0)
        p[n++] = OSSL_PARAM_construct_int("mu", &ints[2]);
    if (o->entropy != NULL)
        p[n++] = OSSL_PARAM_construct_octet_string("test-entropy", (void *)o->entropy, 32);
    p[n] = OSSL_PARAM_construct_end();
}

/* EVP_PKEY_sign on a whole message; *siglen is the capacity on input. */
static int sign_msg(EVP_PKEY *key, const opts *o, const uint8_t *msg, size_t len, uint8_t *sig,
                    size_t *siglen) {
    OSSL_PARAM p[6];
    int ints[3];
    build_params(o, p, ints);
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    size_t need = 0;
    int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 && EVP_PKEY_CTX_set_params(pctx, p) > 0 &&
             EVP_PKEY_sign(pctx, NULL, &need, msg, len) > 0 && need <= *siglen &&
             EVP_PKEY_sign(pctx, sig, siglen, msg, len) > 0;
    if (ok)
        QT_CHECK(EVP_PKEY_CTX_get0_provider(pctx) == quill_prov);
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

/* EVP_PKEY_verify: 1 valid, 0 rejected, -1 initialisation failed. */
static int verify_msg(EVP_PKEY *key, const opts *o, const uint8_t *msg, size_t len,
                      const uint8_t *sig, size_t siglen) {
    OSSL_PARAM p[6];
    int ints[3];
    build_params(o, p, ints);
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    int r = -1;
    if (pctx != NULL && EVP_PKEY_verify_init(pctx) > 0 && EVP_PKEY_CTX_set_params(pctx, p) > 0)
        r = EVP_PKEY_verify(pctx, sig, siglen, msg, len) == 1;
    EVP_PKEY_CTX_free(pctx);
    return r;
}

/* EVP_DigestSign: the message in |nchunks| updates (0: one-shot). */
static int dsign(EVP_PKEY *key, const opts *o, const uint8_t *msg, size_t len, size_t nchunks,
                 uint8_t *sig, size_t *siglen) {
    OSSL_PARAM p[6];
    int ints[3];
    build_params(o, p, ints);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int ok = md != NULL && EVP_DigestSignInit_ex(md, &pctx, NULL, libctx, NULL, key, p) == 1;
    if (ok && nchunks == 0) {
        ok = EVP_DigestSign(md, sig, siglen, msg, len) == 1;
    } else if (ok) {
        size_t step = len / nchunks + 1, off = 0;
        while (ok && off < len) {
            size_t n = len - off < step ? len - off : step;
            ok = EVP_DigestSignUpdate(md, msg + off, n) == 1;
            off += n;
        }
        size_t need = 0;
        ok = ok && EVP_DigestSignFinal(md, NULL, &need) == 1 && need <= *siglen &&
             EVP_DigestSignFinal(md, sig, siglen) == 1;
    }
    if (ok)
        QT_CHECK(EVP_PKEY_CTX_get0_provider(pctx) == quill_prov);
    EVP_MD_CTX_free(md);
    return ok;
}

static int dverify(EVP_PKEY *key, const opts *o, const uint8_t *msg, size_t len, int streamed,
                   const uint8_t *sig, size_t siglen) {
    OSSL_PARAM p[6];
    int ints[3];
    build_params(o, p, ints);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = -1;
    if (md != NULL && EVP_DigestVerifyInit_ex(md, NULL, NULL, libctx, NULL, key, p) == 1) {
        if (!streamed)
            r = EVP_DigestVerify(md, sig, siglen, msg, len) == 1;
        else
            r = EVP_DigestVerifyUpdate(md, msg, len / 2) == 1 &&
                EVP_DigestVerifyUpdate(md, msg + len / 2, len - len / 2) == 1 &&
                EVP_DigestVerifyFinal(md, sig, siglen) == 1;
    }
    EVP_MD_CTX_free(md);
    return r;
}

/* SHAKE256 over a || b, |outlen| bytes, with OpenSSL's default provider. */
static int shake256(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint8_t *out,
                    size_t outlen) {
    EVP_MD *md = EVP_MD_fetch(libctx, "SHAKE256", "provider=default");
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = md != NULL && c != NULL && EVP_DigestInit_ex2(c, md, NULL) == 1 &&
             EVP_DigestUpdate(c, a, alen) == 1 && (blen == 0 || EVP_DigestUpdate(c, b, blen) == 1) &&
             EVP_DigestFinalXOF(c, out, outlen) == 1;
    EVP_MD_CTX_free(c);
    EVP_MD_free(md);
    return ok;
}

/* ---- Tests ---- */

static void test_objects(void) {
    for (size_t i = 0; i < QT_ARRAY_LEN(sets); i++) {
        const set_info *s = &sets[i];
        int nid = OBJ_txt2nid(s->oid);
        QT_CHECK(nid != NID_undef);
        if (nid == NID_undef)
            continue;
        QT_CHECK(OBJ_sn2nid(s->sn) == nid);
        QT_CHECK(OBJ_ln2nid(s->name) == nid);
        int md = -1, pk = -1;
        QT_CHECK(OBJ_find_sigid_algs(nid, &md, &pk) == 1);
        QT_CHECK(md == NID_undef && pk == nid);
        EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(libctx, s->oid, NULL);
        QT_CHECK(sig != NULL && EVP_SIGNATURE_get0_provider(sig) == quill_prov);
        EVP_SIGNATURE_free(sig);
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(libctx, s->sn, NULL);
        QT_CHECK(km != NULL && EVP_KEYMGMT_get0_provider(km) == quill_prov);
        EVP_KEYMGMT_free(km);
    }
}

/* A second library context loading quill registers nothing more: the OIDs
 * are process-wide and quill adds them once (OBJ_new_nid(0) reads the next
 * free NID without taking one). */
static void test_objects_once(void) {
    int next = OBJ_new_nid(0);
    int nid = OBJ_txt2nid(sets[1].oid);
    OSSL_PROVIDER *def2 = NULL, *quill2 = NULL;
    OSSL_LIB_CTX *ctx2 = qt_libctx_new(&def2, &quill2);
    QT_CHECK(ctx2 != NULL && EVP_set_default_properties(ctx2, EXAMPLE_CNF_PROPS) == 1);
    if (ctx2 != NULL) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx2, sets[1].name, NULL);
        EVP_PKEY *key = NULL;
        QT_CHECK(pctx != NULL && EVP_PKEY_keygen_init(pctx) == 1 &&
                 EVP_PKEY_generate(pctx, &key) == 1);
        QT_CHECK(pctx != NULL && EVP_PKEY_CTX_get0_provider(pctx) == quill2);
        EVP_PKEY_free(key);
        EVP_PKEY_CTX_free(pctx);
        qt_libctx_free(ctx2, def2, quill2);
    }
    QT_CHECK(OBJ_new_nid(0) == next);
    QT_CHECK(OBJ_txt2nid(sets[1].oid) == nid);
}

static void test_key_params(const set_info *s, EVP_PKEY *key) {
    QT_CHECK(EVP_PKEY_is_a(key, s->name) && EVP_PKEY_is_a(key, s->sn) &&
             EVP_PKEY_is_a(key, s->oid));
    QT_CHECK(EVP_PKEY_get_bits(key) == (int)(8 * s->pub));
    QT_CHECK(EVP_PKEY_get_security_bits(key) == s->secbits);
    QT_CHECK(EVP_PKEY_get_size(key) == (int)s->sig);
    int cat = 0;
    QT_CHECK(EVP_PKEY_get_int_param(key, "security-category", &cat) == 1 && cat == s->category);
    char mdname[32] = "x";
    /* The mandatory digest is empty: EVP reports "UNDEF" and hashes nothing. */
    QT_CHECK(EVP_PKEY_get_default_digest_name(key, mdname, sizeof(mdname)) == 2 &&
             strcmp(mdname, "UNDEF") == 0);
    uint8_t buf[MAX_PRIV];
    QT_CHECK(get_octets(key, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf)) == s->pub);
    QT_CHECK(get_octets(key, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof(buf)) == s->priv);
    QT_CHECK(get_octets(key, "seed", buf, sizeof(buf)) == 32);
    /* Several names in one request (mldsa_get_params answers them in one
     * pass): an unknown name is left alone and does not fail the request,
     * a repeated name is answered at its first occurrence only (as
     * OSSL_PARAM_locate would find it), and a buffer too small for pub
     * fails the request. */
    int bits = 0, bits2 = -7, secbits = 0, maxsize = 0, other = -5;
    char md[8] = "x";
    OSSL_PARAM p[] = {OSSL_PARAM_int("no-such-param", &other),
                      OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, &bits),
                      OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf)),
                      OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, &bits2),
                      OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, &secbits),
                      OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, md, sizeof(md)),
                      OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, &maxsize),
                      OSSL_PARAM_END};
    QT_CHECK(EVP_PKEY_get_params(key, p) == 1);
    QT_CHECK(bits == (int)(8 * s->pub) && secbits == s->secbits && maxsize == (int)s->sig);
    QT_CHECK(OSSL_PARAM_modified(&p[2]) && p[2].return_size == s->pub && md[0] == '\0');
    QT_CHECK(!OSSL_PARAM_modified(&p[0]) && other == -5);
    QT_CHECK(!OSSL_PARAM_modified(&p[3]) && bits2 == -7);
    OSSL_PARAM q[] = {OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, &bits),
                      OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, buf, s->pub - 1),
                      OSSL_PARAM_END};
    QT_CHECK(EVP_PKEY_get_params(key, q) == 0);
}

static void test_keygen_seed(const set_info *s) {
    uint8_t seed[32], seed2[32], pub1[MAX_PUB], pub2[MAX_PUB], got[32];
    qt_rng_bytes(seed, sizeof(seed));
    memcpy(seed2, seed, sizeof(seed));
    seed2[31] ^= 1;
    EVP_PKEY *a = keygen(s, seed, 32), *b = keygen(s, seed, 32), *c = keygen(s, seed2, 32);
    QT_CHECK(a != NULL && b != NULL && c != NULL);
    if (a != NULL && b != NULL && c != NULL) {
        QT_CHECK(get_octets(a, OSSL_PKEY_PARAM_PUB_KEY, pub1, sizeof(pub1)) == s->pub);
        QT_CHECK(get_octets(b, OSSL_PKEY_PARAM_PUB_KEY, pub2, sizeof(pub2)) == s->pub);
        QT_CHECK(memcmp(pub1, pub2, s->pub) == 0);
        QT_CHECK(EVP_PKEY_eq(a, b) == 1);
        QT_CHECK(EVP_PKEY_eq(a, c) != 1);
        QT_CHECK(get_octets(a, "seed", got, sizeof(got)) == 32 && memcmp(got, seed, 32) == 0);
    }
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    EVP_PKEY_free(c);
    /* A seed of the wrong length is refused. */
    QT_CHECK(keygen(s, seed, 31) == NULL);
    QT_CHECK(error_has("wrong length"));
}

static void test_sign_verify(const set_info *s, EVP_PKEY *key) {
    uint8_t msg[300], sig[MAX_SIG], sig2[MAX_SIG];
    size_t siglen = sizeof(sig), siglen2 = sizeof(sig2);
    qt_rng_bytes(msg, sizeof(msg));
    static const uint8_t ctx_a[] = "quill context", ctx_b[] = "quill contexT";
    const opts with_a = {ctx_a, sizeof(ctx_a) - 1, -1, -1, -1, NULL};
    const opts with_b = {ctx_b, sizeof(ctx_b) - 1, -1, -1, -1, NULL};
    const opts empty_ctx = {ctx_a, 0, -1, -1, -1, NULL};

    /* Hedged, no context. */
    QT_CHECK(sign_msg(key, &plain, msg, sizeof(msg), sig, &siglen) && siglen == s->sig);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen) == 1);
    QT_CHECK(verify_msg(key, &empty_ctx, msg, sizeof(msg), sig, siglen) == 1);
    QT_CHECK(verify_msg(key, &with_a, msg, sizeof(msg), sig, siglen) == 0);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg) - 1, sig, siglen) == 0);
    sig[siglen / 2] ^= 0x10;
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen) == 0);
    sig[siglen / 2] ^= 0x10;
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen - 1) == 0);
    QT_CHECK(error_has("wrong signature length"));
    /* Two hedged signatures differ (fresh rnd) and both verify. */
    QT_CHECK(sign_msg(key, &plain, msg, sizeof(msg), sig2, &siglen2) && siglen2 == s->sig);
    QT_CHECK(memcmp(sig, sig2, s->sig) != 0);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig2, siglen2) == 1);

    /* With a context string. */
    siglen = sizeof(sig);
    QT_CHECK(sign_msg(key, &with_a, msg, sizeof(msg), sig, &siglen));
    QT_CHECK(verify_msg(key, &with_a, msg, sizeof(msg), sig, siglen) == 1);
    QT_CHECK(verify_msg(key, &with_b, msg, sizeof(msg), sig, siglen) == 0);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen) == 0);
    ERR_clear_error();

    /* Deterministic signatures repeat; test entropy repeats; zero test
     * entropy is the deterministic signature. */
    static const uint8_t zeros[32] = {0}, ent[32] = {1, 2, 3};
    const opts ent0 = {NULL, 0, -1, -1, -1, zeros}, ent1 = {NULL, 0, -1, -1, -1, ent};
    siglen = sizeof(sig);
    siglen2 = sizeof(sig2);
    QT_CHECK(sign_msg(key, &det, msg, sizeof(msg), sig, &siglen));
    QT_CHECK(sign_msg(key, &det, msg, sizeof(msg), sig2, &siglen2));
    QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen) == 1);
    siglen2 = sizeof(sig2);
    QT_CHECK(sign_msg(key, &ent0, msg, sizeof(msg), sig2, &siglen2));
    QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
    siglen = sizeof(sig);
    siglen2 = sizeof(sig2);
    QT_CHECK(sign_msg(key, &ent1, msg, sizeof(msg), sig, &siglen));
    QT_CHECK(sign_msg(key, &ent1, msg, sizeof(msg), sig2, &siglen2));
    QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
    QT_CHECK(verify_msg(key, &plain, msg, sizeof(msg), sig, siglen) == 1);

    /* Empty message. */
    siglen = sizeof(sig);
    QT_CHECK(sign_msg(key, &plain, msg, 0, sig, &siglen));
    QT_CHECK(verify_msg(key, &plain, msg, 0, sig, siglen) == 1);
}

/* message-encoding 0 signs M' as given: M' = 0 || len(ctx) || ctx || M
 * must give the pure signature of M with ctx; "mu" signs mu computed here
 * from the public key (FIPS 204, Algorithm 7 lines 6-7). */
static void test_encodings(const set_info *s, EVP_PKEY *key) {
    uint8_t msg[100], mprime[2 + 255 + sizeof(msg)], sig[MAX_SIG], sig2[MAX_SIG];
    uint8_t pub[MAX_PUB], tr[64], mu[64];
    static const uint8_t ctxs[] = "ctx";
    qt_rng_bytes(msg, sizeof(msg));
    size_t mlen = 0;
    mprime[mlen++] = 0;
    mprime[mlen++] = 3;
    memcpy(mprime + mlen, ctxs, 3);
    mlen += 3;
    memcpy(mprime + mlen, msg, sizeof(msg));
    mlen += sizeof(msg);
    const opts pure_ctx = {ctxs, 3, 1, -1, -1, NULL};
    const opts raw = {NULL, 0, 1, 0, -1, NULL};
    const opts mu_mode = {NULL, 0, 1, -1, 1, NULL};
    size_t siglen = sizeof(sig), siglen2 = sizeof(sig2);
    QT_CHECK(sign_msg(key, &pure_ctx, msg, sizeof(msg), sig, &siglen));
    QT_CHECK(sign_msg(key, &raw, mprime, mlen, sig2, &siglen2));
    QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
    QT_CHECK(verify_msg(key, &raw, mprime, mlen, sig, siglen) == 1);
    QT_CHECK(verify_msg(key, &raw, msg, sizeof(msg), sig, siglen) == 0);

    QT_CHECK(get_octets(key, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub)) == s->pub);
    QT_CHECK(shake256(pub, s->pub, NULL, 0, tr, sizeof(tr)));
    QT_CHECK(shake256(tr, sizeof(tr), mprime, mlen, mu, sizeof(mu)));
    siglen2 = sizeof(sig2);
    QT_CHECK(sign_msg(key, &mu_mode, mu, sizeof(mu), sig2, &siglen2));
    QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
    QT_CHECK(verify_msg(key, &mu_mode, mu, sizeof(mu), sig, siglen) == 1);
    QT_CHECK(verify_msg(key, &pure_ctx, msg, sizeof(msg), sig2, siglen2) == 1);
    /* mu of the wrong length. */
    siglen2 = sizeof(sig2);
    QT_CHECK(!sign_msg(key, &mu_mode, mu, 63, sig2, &siglen2));
    QT_CHECK(error_has("bad parameter"));
    QT_CHECK(verify_msg(key, &mu_mode, mu, 65, sig, siglen) == 0);
    QT_CHECK(error_has("bad parameter"));
}

static void test_streaming(const set_info *s, EVP_PKEY *key) {
    uint8_t msg[5000], one[MAX_SIG], sig[MAX_SIG];
    qt_rng_bytes(msg, sizeof(msg));
    static const uint8_t ctxs[] = "stream";
    const opts det_ctx = {ctxs, 6, 1, -1, -1, NULL};
    size_t onelen = sizeof(one), siglen;
    QT_CHECK(sign_msg(key, &det_ctx, msg, sizeof(msg), one, &onelen));
    const size_t chunks[] = {0, 1, 7, 64};
    for (size_t i = 0; i < QT_ARRAY_LEN(chunks); i++) {
        siglen = sizeof(sig);
        QT_CHECK(dsign(key, &det_ctx, msg, sizeof(msg), chunks[i], sig, &siglen));
        QT_CHECK(siglen == onelen && memcmp(sig, one, onelen) == 0);
    }
    QT_CHECK(dverify(key, &det_ctx, msg, sizeof(msg), 0, one, onelen) == 1);
    QT_CHECK(dverify(key, &det_ctx, msg, sizeof(msg), 1, one, onelen) == 1);
    QT_CHECK(dverify(key, &plain, msg, sizeof(msg), 1, one, onelen) == 0);
    QT_CHECK(dverify(key, &det_ctx, msg, sizeof(msg) - 1, 1, one, onelen) == 0);
    ERR_clear_error();

    /* Mid-stream copies: EVP_MD_CTX_copy_ex after the first half, both
     * finished alike; and EVP_DigestSignFinal (which finishes a copy)
     * followed by more data on the original. */
    EVP_MD_CTX *md = EVP_MD_CTX_new(), *md2 = EVP_MD_CTX_new();
    OSSL_PARAM p[6];
    int ints[3];
    build_params(&det_ctx, p, ints);
    size_t half = sizeof(msg) / 2;
    int ok = md != NULL && md2 != NULL &&
             EVP_DigestSignInit_ex(md, NULL, NULL, libctx, NULL, key, p) == 1 &&
             EVP_DigestSignUpdate(md, msg, half) == 1 && EVP_MD_CTX_copy_ex(md2, md) == 1;
    QT_CHECK(ok);
    if (ok) {
        uint8_t a[MAX_SIG], b[MAX_SIG], c[MAX_SIG], d[MAX_SIG];
        size_t alen = sizeof(a), blen = sizeof(b), clen = sizeof(c), dlen = sizeof(d);
        QT_CHECK(EVP_DigestSignUpdate(md2, msg + half, sizeof(msg) - half) == 1);
        QT_CHECK(EVP_DigestSignUpdate(md, msg + half, sizeof(msg) - half) == 1);
        QT_CHECK(EVP_DigestSignFinal(md, a, &alen) == 1);
        QT_CHECK(EVP_DigestSignFinal(md2, b, &blen) == 1);
        QT_CHECK(alen == onelen && memcmp(a, one, onelen) == 0);
        QT_CHECK(blen == onelen && memcmp(b, one, onelen) == 0);
        /* The original continues after its final: msg || msg[0..10). */
        QT_CHECK(EVP_DigestSignUpdate(md, msg, 10) == 1);
        QT_CHECK(EVP_DigestSignFinal(md, c, &clen) == 1);
        uint8_t *longer = malloc(sizeof(msg) + 10);
        QT_CHECK(longer != NULL);
        if (longer != NULL) {
            memcpy(longer, msg, sizeof(msg));
            memcpy(longer + sizeof(msg), msg, 10);
            QT_CHECK(sign_msg(key, &det_ctx, longer, sizeof(msg) + 10, d, &dlen));
            QT_CHECK(clen == dlen && memcmp(c, d, dlen) == 0);
            free(longer);
        }
    }
    EVP_MD_CTX_free(md);
    EVP_MD_CTX_free(md2);

    /* A digest may not be named; mu cannot be streamed. */
    md = EVP_MD_CTX_new();
    QT_CHECK(md != NULL &&
             EVP_DigestSignInit_ex(md, NULL, "SHA256", libctx, NULL, key, NULL) != 1);
    QT_CHECK(error_has("digest not allowed"));
    EVP_MD_CTX_free(md);
    md = EVP_MD_CTX_new();
    const opts mu_mode = {NULL, 0, -1, -1, 1, NULL};
    build_params(&mu_mode, p, ints);
    QT_CHECK(md != NULL && EVP_DigestSignInit_ex(md, NULL, NULL, libctx, NULL, key, p) == 1 &&
             EVP_DigestSignUpdate(md, msg, 64) != 1);
    QT_CHECK(error_has("not supported"));
    EVP_MD_CTX_free(md);
    (void)s;
}

static void test_import_export(const set_info *s, EVP_PKEY *key, EVP_PKEY *other) {
    uint8_t seed[32], priv[MAX_PRIV], pub[MAX_PUB], opriv[MAX_PRIV], opub[MAX_PUB];
    uint8_t got[MAX_PRIV];
    QT_CHECK(get_octets(key, "seed", seed, sizeof(seed)) == 32);
    QT_CHECK(get_octets(key, OSSL_PKEY_PARAM_PRIV_KEY, priv, sizeof(priv)) == s->priv);
    QT_CHECK(get_octets(key, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub)) == s->pub);
    QT_CHECK(get_octets(other, OSSL_PKEY_PARAM_PRIV_KEY, opriv, sizeof(opriv)) == s->priv);
    QT_CHECK(get_octets(other, OSSL_PKEY_PARAM_PUB_KEY, opub, sizeof(opub)) == s->pub);

    /* todata/fromdata of the whole key pair. */
    OSSL_PARAM *data = NULL;
    QT_CHECK(EVP_PKEY_todata(key, EVP_PKEY_KEYPAIR, &data) == 1);
    if (data != NULL) {
        QT_CHECK(OSSL_PARAM_locate(data, "seed") != NULL);
        EVP_PKEY *k = NULL;
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, s->name, NULL);
        QT_CHECK(pctx != NULL && EVP_PKEY_fromdata_init(pctx) == 1 &&
                 EVP_PKEY_fromdata(pctx, &k, EVP_PKEY_KEYPAIR, data) == 1);
        QT_CHECK(k != NULL && EVP_PKEY_eq(k, key) == 1);
        QT_CHECK(k != NULL && get_octets(k, OSSL_PKEY_PARAM_PRIV_KEY, got, sizeof(got)) == s->priv &&
                 memcmp(got, priv, s->priv) == 0);
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(pctx);
        OSSL_PARAM_free(data);
    }

    /* The expanded private key alone: public key derived, no seed. */
    EVP_PKEY *k = import(s, EVP_PKEY_KEYPAIR, NULL, 0, priv, s->priv, NULL, 0);
    QT_CHECK(k != NULL);
    if (k != NULL) {
        QT_CHECK(get_octets(k, OSSL_PKEY_PARAM_PUB_KEY, got, sizeof(got)) == s->pub &&
                 memcmp(got, pub, s->pub) == 0);
        QT_CHECK(get_octets(k, "seed", got, sizeof(got)) == 0);
        QT_CHECK(EVP_PKEY_eq(k, key) == 1);
        uint8_t sig[MAX_SIG], sig2[MAX_SIG];
        size_t siglen = sizeof(sig), siglen2 = sizeof(sig2);
        static const uint8_t m[] = "priv-only";
        QT_CHECK(sign_msg(k, &det, m, sizeof(m), sig, &siglen));
        QT_CHECK(sign_msg(key, &det, m, sizeof(m), sig2, &siglen2));
        QT_CHECK(siglen == siglen2 && memcmp(sig, sig2, siglen) == 0);
        /* The seed-less key exports priv and pub only. */
        data = NULL;
        QT_CHECK(EVP_PKEY_todata(k, EVP_PKEY_KEYPAIR, &data) == 1 && data != NULL &&
                 OSSL_PARAM_locate(data, "seed") == NULL &&
                 OSSL_PARAM_locate(data, OSSL_PKEY_PARAM_PRIV_KEY) != NULL);
        OSSL_PARAM_free(data);
        EVP_PKEY_free(k);
    }
    /* The seed alone, and the seed with matching parts. */
    k = import(s, EVP_PKEY_KEYPAIR, seed, 32, NULL, 0, NULL, 0);
    QT_CHECK(k != NULL && EVP_PKEY_eq(k, key) == 1);
    EVP_PKEY_free(k);
    k = import(s, EVP_PKEY_KEYPAIR, seed, 32, priv, s->priv, pub, s->pub);
    QT_CHECK(k != NULL && EVP_PKEY_eq(k, key) == 1);
    EVP_PKEY_free(k);
    /* Mismatches and bad lengths are refused with quill's reasons. */
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, seed, 32, opriv, s->priv, NULL, 0) == NULL);
    QT_CHECK(error_has("seed does not match"));
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, seed, 32, NULL, 0, opub, s->pub) == NULL);
    QT_CHECK(error_has("public key does not match"));
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, NULL, 0, priv, s->priv, opub, s->pub) == NULL);
    QT_CHECK(error_has("public key does not match"));
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, seed, 31, NULL, 0, NULL, 0) == NULL);
    QT_CHECK(error_has("wrong length"));
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, NULL, 0, priv, s->priv - 1, NULL, 0) == NULL);
    QT_CHECK(error_has("wrong length"));
    QT_CHECK(import(s, EVP_PKEY_PUBLIC_KEY, NULL, 0, NULL, 0, pub, s->pub + 1) == NULL);
    QT_CHECK(error_has("wrong length"));
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, NULL, 0, NULL, 0, NULL, 0) == NULL);
    QT_CHECK(error_has("missing key component"));
    /* A corrupted expanded key fails the core's checks (tr no longer
     * matches rho, s1, s2). */
    priv[s->priv - 1] ^= 1;
    QT_CHECK(import(s, EVP_PKEY_KEYPAIR, NULL, 0, priv, s->priv, NULL, 0) == NULL);
    QT_CHECK(error_has("key check failed"));
    priv[s->priv - 1] ^= 1;

    /* Public key only: verifies, matches, cannot sign or pass a private
     * check.  A public-key selection ignores private parts. */
    EVP_PKEY *pk = import(s, EVP_PKEY_PUBLIC_KEY, seed, 32, priv, s->priv, pub, s->pub);
    QT_CHECK(pk != NULL);
    if (pk != NULL) {
        QT_CHECK(get_octets(pk, OSSL_PKEY_PARAM_PRIV_KEY, got, sizeof(got)) == 0);
        QT_CHECK(EVP_PKEY_eq(pk, key) == 1);
        QT_CHECK(EVP_PKEY_eq(pk, other) == 0);
        uint8_t sig[MAX_SIG];
        size_t siglen = sizeof(sig);
        static const uint8_t m[] = "pub-only";
        QT_CHECK(sign_msg(key, &plain, m, sizeof(m), sig, &siglen));
        QT_CHECK(verify_msg(pk, &plain, m, sizeof(m), sig, siglen) == 1);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, pk, NULL);
        QT_CHECK(pctx != NULL && EVP_PKEY_sign_init(pctx) <= 0);
        QT_CHECK(error_has("not a private key"));
        QT_CHECK(pctx != NULL && EVP_PKEY_public_check(pctx) == 1);
        QT_CHECK(pctx != NULL && EVP_PKEY_private_check(pctx) != 1);
        ERR_clear_error();
        EVP_PKEY_CTX_free(pctx);
        EVP_PKEY_free(pk);
    }
    /* Validation of a full key. */
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    QT_CHECK(pctx != NULL && EVP_PKEY_check(pctx) == 1 && EVP_PKEY_public_check(pctx) == 1 &&
             EVP_PKEY_private_check(pctx) == 1 && EVP_PKEY_pairwise_check(pctx) == 1);
    EVP_PKEY_CTX_free(pctx);
    /* Copies. */
    EVP_PKEY *dup = EVP_PKEY_dup(key);
    QT_CHECK(dup != NULL && EVP_PKEY_eq(dup, key) == 1 &&
             get_octets(dup, "seed", got, sizeof(got)) == 32 && memcmp(got, seed, 32) == 0);
    EVP_PKEY_free(dup);
}

/* Finds quill's dispatch function |id| for algorithm |name| of operation
 * |op|. */
static void (*find_fn(int op, const char *name, int id))(void) {
    int no_cache = 0;
    const OSSL_ALGORITHM *algs = OSSL_PROVIDER_query_operation(quill_prov, op, &no_cache);
    for (; algs != NULL && algs->algorithm_names != NULL; algs++) {
        if (strncmp(algs->algorithm_names, name, strlen(name)) != 0)
            continue;
        for (const OSSL_DISPATCH *f = algs->implementation; f->function_id != 0; f++)
            if (f->function_id == id)
                return f->function;
    }
    return NULL;
}

/* OpenSSL 3.0 always picks the signature named after the key, so the
 * cross-set check is made on quill's dispatch functions directly. */
static void test_wrong_set(void) {
    void *provctx = OSSL_PROVIDER_get0_provider_ctx(quill_prov);
    OSSL_FUNC_keymgmt_new_fn *km_new =
        (OSSL_FUNC_keymgmt_new_fn *)find_fn(OSSL_OP_KEYMGMT, "ML-DSA-44", OSSL_FUNC_KEYMGMT_NEW);
    OSSL_FUNC_keymgmt_free_fn *km_free = (OSSL_FUNC_keymgmt_free_fn *)find_fn(
        OSSL_OP_KEYMGMT, "ML-DSA-44", OSSL_FUNC_KEYMGMT_FREE);
    OSSL_FUNC_keymgmt_gen_init_fn *gen_init = (OSSL_FUNC_keymgmt_gen_init_fn *)find_fn(
        OSSL_OP_KEYMGMT, "ML-DSA-44", OSSL_FUNC_KEYMGMT_GEN_INIT);
    OSSL_FUNC_keymgmt_gen_fn *gen =
        (OSSL_FUNC_keymgmt_gen_fn *)find_fn(OSSL_OP_KEYMGMT, "ML-DSA-44", OSSL_FUNC_KEYMGMT_GEN);
    OSSL_FUNC_keymgmt_gen_cleanup_fn *gen_cleanup = (OSSL_FUNC_keymgmt_gen_cleanup_fn *)find_fn(
        OSSL_OP_KEYMGMT, "ML-DSA-44", OSSL_FUNC_KEYMGMT_GEN_CLEANUP);
    OSSL_FUNC_signature_newctx_fn *newctx65 = (OSSL_FUNC_signature_newctx_fn *)find_fn(
        OSSL_OP_SIGNATURE, "ML-DSA-65", OSSL_FUNC_SIGNATURE_NEWCTX);
    OSSL_FUNC_signature_newctx_fn *newctx44 = (OSSL_FUNC_signature_newctx_fn *)find_fn(
        OSSL_OP_SIGNATURE, "ML-DSA-44", OSSL_FUNC_SIGNATURE_NEWCTX);
    OSSL_FUNC_signature_freectx_fn *freectx = (OSSL_FUNC_signature_freectx_fn *)find_fn(
        OSSL_OP_SIGNATURE, "ML-DSA-65", OSSL_FUNC_SIGNATURE_FREECTX);
    OSSL_FUNC_signature_sign_init_fn *sign_init = (OSSL_FUNC_signature_sign_init_fn *)find_fn(
        OSSL_OP_SIGNATURE, "ML-DSA-65", OSSL_FUNC_SIGNATURE_SIGN_INIT);
    OSSL_FUNC_signature_verify_init_fn *verify_init =
        (OSSL_FUNC_signature_verify_init_fn *)find_fn(OSSL_OP_SIGNATURE, "ML-DSA-65",
                                                      OSSL_FUNC_SIGNATURE_VERIFY_INIT);
    QT_CHECK(provctx != NULL && km_new != NULL && km_free != NULL && gen_init != NULL &&
             gen != NULL && gen_cleanup != NULL && newctx65 != NULL && newctx44 != NULL &&
             freectx != NULL && sign_init != NULL && verify_init != NULL);
    if (provctx == NULL || km_new == NULL || km_free == NULL || gen_init == NULL || gen == NULL ||
        gen_cleanup == NULL || newctx65 == NULL || newctx44 == NULL || freectx == NULL ||
        sign_init == NULL || verify_init == NULL)
        return;
    void *g = gen_init(provctx, OSSL_KEYMGMT_SELECT_KEYPAIR, NULL);
    void *key44 = g != NULL ? gen(g, NULL, NULL) : NULL;
    gen_cleanup(g);
    QT_CHECK(key44 != NULL);
    void *c65 = newctx65(provctx, NULL), *c44 = newctx44(provctx, NULL);
    QT_CHECK(c65 != NULL && c44 != NULL);
    if (key44 != NULL && c65 != NULL && c44 != NULL) {
        QT_CHECK(sign_init(c65, key44, NULL) == 0);
        QT_CHECK(error_has("unsupported key"));
        QT_CHECK(verify_init(c65, key44, NULL) == 0);
        QT_CHECK(error_has("unsupported key"));
        QT_CHECK(sign_init(c44, key44, NULL) == 1);
    }
    freectx(c65);
    freectx(c44);
    km_free(key44);
    /* EVP_PKEY_eq across sets. */
    EVP_PKEY *a = keygen(&sets[0], NULL, 0), *b = keygen(&sets[1], NULL, 0);
    QT_CHECK(a != NULL && b != NULL && EVP_PKEY_eq(a, b) != 1);
    ERR_clear_error();
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
}

static void test_algorithm_id(const set_info *s, EVP_PKEY *key) {
    uint8_t aid[64];
    const uint8_t want[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                            0x65, 0x03, 0x04, 0x03, s->arc};
    OSSL_PARAM p[] = {
        OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, aid, sizeof(aid)),
        OSSL_PARAM_construct_end(),
    };
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    QT_CHECK(pctx != NULL && EVP_PKEY_sign_init(pctx) == 1 && EVP_PKEY_CTX_get_params(pctx, p) == 1);
    QT_CHECK(p[0].return_size == sizeof(want) && memcmp(aid, want, sizeof(want)) == 0);
    EVP_PKEY_CTX_free(pctx);
}

/* A self-signed certificate: X509_sign takes the AlgorithmIdentifier from
 * quill, X509_verify finds the key type through the registered sigid. */
static void test_x509(const set_info *s, EVP_PKEY *key, EVP_PKEY *other) {
    X509 *x = X509_new_ex(libctx, NULL);
    X509_NAME *name = X509_NAME_new();
    int ok = x != NULL && name != NULL && X509_set_version(x, 2) &&
             ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
             X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)s->name,
                                        -1, -1, 0) &&
             X509_set_subject_name(x, name) && X509_set_issuer_name(x, name) &&
             X509_gmtime_adj(X509_getm_notBefore(x), 0) &&
             X509_gmtime_adj(X509_getm_notAfter(x), 3600) && X509_set_pubkey(x, key);
    QT_CHECK(ok);
    if (ok) {
        QT_CHECK(X509_sign(x, key, NULL) > 0);
        const X509_ALGOR *alg = NULL;
        X509_get0_signature(NULL, &alg, x);
        QT_CHECK(alg != NULL && OBJ_obj2nid(alg->algorithm) == OBJ_txt2nid(s->oid));
        int ptype = 0;
        X509_ALGOR_get0(NULL, &ptype, NULL, alg);
        QT_CHECK(ptype == V_ASN1_UNDEF); /* parameters absent */
        QT_CHECK(X509_verify(x, key) == 1);
        QT_CHECK(X509_verify(x, other) != 1);
        ERR_clear_error();
    }
    X509_NAME_free(name);
    X509_free(x);
}

static void test_bad_params(EVP_PKEY *key) {
    uint8_t big[256] = {0}, sig[MAX_SIG];
    size_t siglen = sizeof(sig);
    const opts too_long = {big, 256, -1, -1, -1, NULL};
    const opts max_len = {big, 255, -1, -1, -1, NULL};
    QT_CHECK(!sign_msg(key, &too_long, big, 10, sig, &siglen));
    QT_CHECK(error_has("context string longer than 255"));
    QT_CHECK(verify_msg(key, &too_long, big, 10, sig, siglen) == -1);
    QT_CHECK(error_has("context string longer than 255"));
    siglen = sizeof(sig);
    QT_CHECK(sign_msg(key, &max_len, big, 10, sig, &siglen));
    QT_CHECK(verify_msg(key, &max_len, big, 10, sig, siglen) == 1);
    const opts bad_enc = {NULL, 0, -1, 2, -1, NULL};
    siglen = sizeof(sig);
    QT_CHECK(!sign_msg(key, &bad_enc, big, 10, sig, &siglen));
    QT_CHECK(error_has("bad parameter"));
    /* A short output buffer. */
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, NULL);
    siglen = 100;
    QT_CHECK(pctx != NULL && EVP_PKEY_sign_init(pctx) == 1 &&
             EVP_PKEY_sign(pctx, sig, &siglen, big, 10) != 1);
    QT_CHECK(error_has("output buffer too small"));
    /* Test entropy of the wrong size. */
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("test-entropy", big, 31),
                      OSSL_PARAM_construct_end()};
    QT_CHECK(pctx != NULL && EVP_PKEY_CTX_set_params(pctx, p) != 1);
    QT_CHECK(error_has("bad parameter"));
    EVP_PKEY_CTX_free(pctx);
}

/* Sums |field| over every line of the stats file (one per library
 * context). */
static unsigned long stat_sum(const char *text, const char *field) {
    char pat[64];
    snprintf(pat, sizeof(pat), " %s=", field);
    unsigned long sum = 0;
    for (const char *p = strstr(text, pat); p != NULL; p = strstr(p + 1, pat))
        sum += strtoul(p + strlen(pat), NULL, 10);
    return sum;
}

int main(void) {
    char stats_path[] = "/tmp/quill-mldsa-stats-XXXXXX";
    int fd = mkstemp(stats_path);
    if (fd >= 0) {
        close(fd);
        setenv("QUILL_STATS", stats_path, 1);
    }
    OSSL_PROVIDER *def = NULL;
    libctx = qt_libctx_new(&def, &quill_prov);
    if (libctx == NULL)
        return 1;
    /* As an application configured with openssl.cnf.example: on OpenSSL
     * 3.5+, whose default provider has ML-DSA too, these put every ML-DSA
     * fetch (signatures and key managers) on quill; on 3.0-3.4 quill is
     * the only ML-DSA provider either way. */
    if (EVP_set_default_properties(libctx, EXAMPLE_CNF_PROPS) != 1)
        return 1;
    qt_rng_seed(0x6d6c647361ULL);
    test_objects();
    test_objects_once();
    for (size_t i = 0; i < QT_ARRAY_LEN(sets); i++) {
        const set_info *s = &sets[i];
        unsigned long before = qt_failed;
        EVP_PKEY *key = keygen(s, NULL, 0), *other = keygen(s, NULL, 0);
        QT_CHECK(key != NULL && other != NULL);
        if (key != NULL && other != NULL) {
            test_key_params(s, key);
            test_keygen_seed(s);
            test_sign_verify(s, key);
            test_encodings(s, key);
            test_streaming(s, key);
            test_import_export(s, key, other);
            test_algorithm_id(s, key);
            test_x509(s, key, other);
            test_bad_params(key);
        }
        printf("%s: %s\n", s->name, qt_failed == before ? "ok" : "FAILED");
        EVP_PKEY_free(key);
        EVP_PKEY_free(other);
    }
    test_wrong_set();
    qt_libctx_free(libctx, def, quill_prov);

    /* The stats line carries the ML-DSA counters after the others. */
    size_t len = 0;
    char *text = fd >= 0 ? qt_read_file(stats_path, &len) : NULL;
    QT_CHECK(text != NULL);
    if (text != NULL) {
        QT_CHECK(strstr(text, " ec-keygen=") != NULL &&
                 strstr(text, " ec-keygen=") < strstr(text, " mldsa-keygen="));
        QT_CHECK(stat_sum(text, "mldsa-keygen") > 0);
        QT_CHECK(stat_sum(text, "mldsa-sign") > 0);
        QT_CHECK(stat_sum(text, "mldsa-verify") > 0);
        free(text);
    }
    if (fd >= 0)
        unlink(stats_path);
    return qt_finish("mldsa_provider");
}
