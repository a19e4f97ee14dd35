/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Wycheproof ML-DSA-44/65/87 through EVP with quill's key manager,
 * signature and decoders (all nine mldsa_*_test.json files):
 *   sign_seed    the key from privateSeed ("seed" import, and key generation
 *                with the "seed" parameter) and from privateKeyPkcs8
 *                (OSSL_DECODER, DER PrivateKeyInfo); its public key must
 *                equal publicKey.  Every valid test: the deterministic
 *                signature (or the one with test-entropy = rnd) equals
 *                "sig" through EVP_PKEY_sign, EVP_DigestSign and a streamed
 *                EVP_DigestSignUpdate/Final, and through EVP_PKEY_sign with
 *                "mu" = 1 on the given mu; "sig" verifies on msg and on mu.
 *                Invalid tests (a context over 255 bytes, a seed of the
 *                wrong length) fail with an error on the queue.
 *   sign_noseed  the same with the expanded key imported as "priv";
 *                out-of-range or wrong-length keys are refused at import.
 *   verify       the public key through "pub" and through publicKeyDer
 *                (SubjectPublicKeyInfo decoder); every valid test accepted,
 *                every invalid one rejected (or its key refused at import).
 * Every operation must be served by quill (EVP_PKEY_CTX_get0_provider).
 * Exits 77 if the vector files are absent, or if this build has no ML-DSA
 * provider code yet (QUILL_TEST_MLDSA_EXPECTED=0, see evp_mldsa.cmake). */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
#include "qt_json.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;

/* What one file's run counted. */
typedef struct counts {
    long tests, valid, invalid;
    long ops;            /* EVP operations run (and checked to be quill's) */
    long sig_equal;      /* signatures equal to "sig" */
    long accepted;       /* verifications that accepted a valid signature */
    long rejected;       /* invalid tests refused by sign / verify */
    long import_refused; /* invalid tests whose key was refused at import */
    long not_quill;
} counts;

/* Records that an operation ran and who served it. */
static void served_by(counts *c, const OSSL_PROVIDER *p) {
    c->ops++;
    if (!mdt_is_quill(p)) {
        c->not_quill++;
        fprintf(stderr, "operation served by %s, not quill\n", qt_prov_name(p));
    }
}

/* An optional hex member: absent or null leaves *out NULL and returns 1. */
static int opt_hex(const cJSON *obj, const char *field, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL || cJSON_IsNull(item))
        return 1;
    return qt_json_hex(obj, field, out, len);
}

/* The set named by the file's "algorithm". */
static int set_of(const cJSON *root) {
    const char *alg = qt_json_str(root, "algorithm");
    for (int s = 0; s < MDT_NSETS; s++)
        if (alg != NULL && strcmp(alg, mdt_name(s)) == 0)
            return s;
    return -1;
}

/* Checks |key|'s exported octet parameter |param| equals want. */
static int octets_equal(const EVP_PKEY *key, const char *param, const uint8_t *want, size_t len) {
    static uint8_t buf[MDT_MAX_PRIV];
    size_t got = mdt_key_octets(key, param, buf, sizeof(buf));
    return got == len && memcmp(buf, want, len) == 0;
}

/* One test of a sign file: msg / mu / ctx / rnd / sig / result. */
typedef struct sign_case {
    long id;
    int valid;
    uint8_t *msg, *mu, *ctx, *rnd, *sig;
    size_t msgl, mul, ctxl, rndl, sigl;
} sign_case;

/* The options of case |sc|: its context string (unless on_mu: mu already
 * binds it), and mu in place of the message when on_mu. */
static mdt_opts case_opts(const sign_case *sc, int on_mu) {
    mdt_opts o = {0};
    if (!on_mu && sc->ctx != NULL) {
        o.ctx = sc->ctx;
        o.ctx_len = sc->ctxl;
        o.has_ctx = 1;
    }
    o.mu = on_mu;
    return o;
}

/* Signs as |sc| says with |key| in |mode| (on mu when on_mu) and compares
 * with "sig". */
static void sign_and_compare(const char *file, int set, EVP_PKEY *key, int mode, int on_mu,
                             const sign_case *sc, counts *c) {
    mdt_opts o = case_opts(sc, on_mu);
    if (sc->rnd != NULL) {
        o.entropy = sc->rnd;
        o.entropy_len = sc->rndl;
    } else {
        o.deterministic = 1;
    }
    uint8_t sig[MDT_MAX_SIG];
    size_t sigl = sizeof(sig);
    const OSSL_PROVIDER *p = NULL;
    int r = mdt_sign(libctx, key, mode, &o, on_mu ? sc->mu : sc->msg, on_mu ? sc->mul : sc->msgl,
                     sig, &sigl, &p);
    served_by(c, p);
    int equal = r == MDT_OK && sigl == sc->sigl && sigl == mdt_sig_len(set) &&
                memcmp(sig, sc->sig, sigl) == 0;
    if (!equal) {
        fprintf(stderr, "%s tcId %ld: %s signature (mode %d) %s\n", file, sc->id,
                on_mu ? "mu" : "message", mode, r == MDT_OK ? "differs" : "failed");
        ERR_print_errors_fp(stderr);
    }
    QT_CHECK(equal);
    c->sig_equal += equal;
    ERR_clear_error();
}

/* Verifies "sig" as |sc| says (on mu when on_mu); it must be accepted. */
static void verify_valid(const char *file, EVP_PKEY *key, int mode, int on_mu,
                         const sign_case *sc, counts *c) {
    mdt_opts o = case_opts(sc, on_mu);
    const OSSL_PROVIDER *p = NULL;
    int r = mdt_verify(libctx, key, mode, &o, on_mu ? sc->mu : sc->msg,
                       on_mu ? sc->mul : sc->msgl, sc->sig, sc->sigl, &p);
    served_by(c, p);
    if (r != MDT_OK)
        fprintf(stderr, "%s tcId %ld: valid signature not accepted on %s (%d)\n", file, sc->id,
                on_mu ? "mu" : "msg", r);
    QT_CHECK(r == MDT_OK);
    c->accepted += r == MDT_OK;
    ERR_clear_error();
}

/* An invalid sign test with a usable key: signing must fail with an error. */
static void sign_invalid(const char *file, EVP_PKEY *key, const sign_case *sc, counts *c) {
    mdt_opts o = {0};
    o.ctx = sc->ctx;
    o.ctx_len = sc->ctxl;
    o.has_ctx = sc->ctx != NULL;
    o.deterministic = 1;
    uint8_t sig[MDT_MAX_SIG];
    for (int mode = MDT_PKEY; mode <= MDT_DIGEST; mode++) {
        size_t sigl = sizeof(sig);
        const OSSL_PROVIDER *p = NULL;
        ERR_clear_error();
        int r = mdt_sign(libctx, key, mode, &o, sc->msg, sc->msgl, sig, &sigl, &p);
        served_by(c, p);
        if (r == MDT_OK)
            fprintf(stderr, "%s tcId %ld: invalid test signed (mode %d)\n", file, sc->id, mode);
        QT_CHECK(r != MDT_OK);
        QT_CHECK(qt_error_has_reason());
    }
    c->rejected++;
}

/* The key-independent part of a sign file's test. */
static int read_sign_case(const cJSON *t, const char *file, sign_case *sc) {
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "mu", "ctx",
                                         "rnd",  "sig",     "result", NULL};
    memset(sc, 0, sizeof(*sc));
    const char *result = qt_json_str(t, "result");
    int ok = qt_json_check_fields(t, tknown, file) && qt_json_int(t, "tcId", &sc->id) &&
             result != NULL && opt_hex(t, "msg", &sc->msg, &sc->msgl) &&
             opt_hex(t, "mu", &sc->mu, &sc->mul) && opt_hex(t, "ctx", &sc->ctx, &sc->ctxl) &&
             opt_hex(t, "rnd", &sc->rnd, &sc->rndl) && qt_json_hex(t, "sig", &sc->sig, &sc->sigl);
    sc->valid = result != NULL && strcmp(result, "valid") == 0;
    QT_CHECK(result != NULL && (sc->valid || strcmp(result, "invalid") == 0));
    /* A valid test gives a signature and something to sign. */
    QT_CHECK(!sc->valid || (sc->sigl > 0 && (sc->msg != NULL || sc->mu != NULL)));
    QT_CHECK(sc->mu == NULL || sc->mul == 64);
    return ok;
}

static void free_sign_case(sign_case *sc) {
    free(sc->msg);
    free(sc->mu);
    free(sc->ctx);
    free(sc->rnd);
    free(sc->sig);
}

/* Runs one sign test against the keys (keys[0] is the imported one, the
 * others alternative forms of it; all NULL if import was refused). */
static void run_sign_case(const char *file, int set, EVP_PKEY *const *keys, size_t nkeys,
                          const sign_case *sc, counts *c) {
    if (keys[0] == NULL) {
        /* Refused at import: only an invalid test may have such a key. */
        if (sc->valid)
            fprintf(stderr, "%s tcId %ld: valid test but the key was refused\n", file, sc->id);
        QT_CHECK(!sc->valid);
        c->import_refused++;
        return;
    }
    if (!sc->valid) {
        QT_CHECK(sc->msg != NULL); /* only bad contexts: a message to sign */
        if (sc->msg != NULL)
            sign_invalid(file, keys[0], sc, c);
        return;
    }
    if (sc->msg != NULL) {
        for (size_t k = 0; k < nkeys; k++)
            if (keys[k] != NULL)
                sign_and_compare(file, set, keys[k], MDT_PKEY, 0, sc, c);
        sign_and_compare(file, set, keys[0], MDT_DIGEST, 0, sc, c);
        sign_and_compare(file, set, keys[0], MDT_STREAMED, 0, sc, c);
        verify_valid(file, keys[0], MDT_PKEY, 0, sc, c);
        verify_valid(file, keys[0], MDT_DIGEST, 0, sc, c);
    }
    if (sc->mu != NULL) {
        sign_and_compare(file, set, keys[0], MDT_PKEY, 1, sc, c);
        verify_valid(file, keys[0], MDT_PKEY, 1, sc, c);
    }
}

/* Imports a key expected to be refused: NULL, with a reason on the queue. */
static void expect_refused(EVP_PKEY *key, const char *file, const char *what) {
    if (key != NULL)
        fprintf(stderr, "%s: %s accepted at import\n", file, what);
    QT_CHECK(key == NULL);
    QT_CHECK(qt_error_has_reason());
}

/* Returns 1 if a test of group |g| carries |flag|. */
static int group_has_flag(const cJSON *g, const char *flag) {
    const cJSON *t, *f;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests")) {
        cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(t, "flags")) {
            if (cJSON_IsString(f) && strcmp(f->valuestring, flag) == 0)
                return 1;
        }
    }
    return 0;
}

static void run_sign_group(const char *file, int set, const cJSON *g, int seeded, counts *c) {
    static const char *const seed_known[] = {"type", "source", "privateSeed", "privateKeyPkcs8",
                                             "publicKey", "tests", NULL};
    static const char *const noseed_known[] = {"type", "source", "privateKey", "publicKey",
                                               "tests", NULL};
    const char *name = mdt_name(set);
    uint8_t *secret = NULL, *pkcs8 = NULL, *pub = NULL;
    size_t secretl = 0, pkcs8l = 0, publ = 0;
    QT_CHECK(qt_json_check_fields(g, seeded ? seed_known : noseed_known, file));
    QT_CHECK(qt_json_hex(g, seeded ? "privateSeed" : "privateKey", &secret, &secretl));
    QT_CHECK(opt_hex(g, "privateKeyPkcs8", &pkcs8, &pkcs8l));
    QT_CHECK(opt_hex(g, "publicKey", &pub, &publ));
    int good_len = seeded ? secretl == 32 : secretl == mdt_priv_len(set);
    int bad_key = !good_len || group_has_flag(g, "InvalidPrivateKey") ||
                  group_has_flag(g, "IncorrectPrivateKeyLength");
    EVP_PKEY *keys[4] = {NULL, NULL, NULL, NULL};
    ERR_clear_error();
    keys[0] = seeded ? mdt_key_fromdata(libctx, name, secret, secretl, NULL, 0, NULL, 0)
                     : mdt_key_fromdata(libctx, name, NULL, 0, secret, secretl, NULL, 0);
    if (!good_len) {
        expect_refused(keys[0], file, "a private key of the wrong length");
        if (pkcs8l > 0)
            expect_refused(mdt_key_from_der(libctx, name, "PrivateKeyInfo", pkcs8, pkcs8l), file,
                           "a PKCS#8 key of the wrong length");
    } else if (bad_key) {
        /* noseed files: a key with s1 or s2 out of range, refused. */
        expect_refused(keys[0], file, "an invalid private key");
    } else {
        if (keys[0] == NULL)
            ERR_print_errors_fp(stderr);
        QT_CHECK(keys[0] != NULL);
        ERR_clear_error();
    }
    if (keys[0] != NULL && pub != NULL) {
        QT_CHECK(mdt_is_quill(qt_pkey_provider(keys[0])));
        QT_CHECK(octets_equal(keys[0], "pub", pub, publ));
        QT_CHECK(octets_equal(keys[0], seeded ? "seed" : "priv", secret, secretl));
        /* The same key with its public key given too. */
        EVP_PKEY *both = seeded ? mdt_key_fromdata(libctx, name, secret, secretl, NULL, 0, pub, publ)
                                : mdt_key_fromdata(libctx, name, NULL, 0, secret, secretl, pub, publ);
        QT_CHECK(both != NULL && octets_equal(both, "pub", pub, publ));
        EVP_PKEY_free(both);
        if (seeded) {
            /* Key generation from the seed, and the expanded key alone. */
            keys[1] = mdt_key_generate(libctx, name, secret);
            QT_CHECK(keys[1] != NULL && octets_equal(keys[1], "pub", pub, publ));
            static uint8_t priv[MDT_MAX_PRIV];
            size_t privl = mdt_key_octets(keys[0], "priv", priv, sizeof(priv));
            QT_CHECK(privl == mdt_priv_len(set));
            keys[2] = mdt_key_fromdata(libctx, name, NULL, 0, priv, privl, NULL, 0);
            QT_CHECK(keys[2] != NULL && octets_equal(keys[2], "pub", pub, publ));
        }
        if (pkcs8l > 0) {
            keys[3] = mdt_key_from_der(libctx, name, "PrivateKeyInfo", pkcs8, pkcs8l);
            if (keys[3] == NULL)
                ERR_print_errors_fp(stderr);
            QT_CHECK(keys[3] != NULL);
            QT_CHECK(keys[3] != NULL && mdt_is_quill(qt_pkey_provider(keys[3])));
            QT_CHECK(keys[3] != NULL && octets_equal(keys[3], "pub", pub, publ));
        }
        ERR_clear_error();
    }
    const cJSON *tests = qt_json_array(g, "tests"), *t;
    cJSON_ArrayForEach(t, tests) {
        sign_case sc;
        QT_CHECK(read_sign_case(t, file, &sc));
        c->tests++;
        c->valid += sc.valid;
        c->invalid += !sc.valid;
        run_sign_case(file, set, keys, QT_ARRAY_LEN(keys), &sc, c);
        free_sign_case(&sc);
    }
    for (size_t k = 0; k < QT_ARRAY_LEN(keys); k++)
        EVP_PKEY_free(keys[k]);
    free(secret);
    free(pkcs8);
    free(pub);
}

/* One verification; returns 1 if accepted.  A refused parameter (a context
 * over 255 bytes) counts as a rejection and must leave a reason. */
static int verify_one(EVP_PKEY *key, int mode, const mdt_opts *o, const uint8_t *msg,
                      size_t msgl, const uint8_t *sig, size_t sigl, counts *c) {
    const OSSL_PROVIDER *p = NULL;
    ERR_clear_error();
    int r = mdt_verify(libctx, key, mode, o, msg, msgl, sig, sigl, &p);
    served_by(c, p);
    QT_CHECK(r != MDT_INIT_FAIL);
    if (r == MDT_PARAM_FAIL)
        QT_CHECK(qt_error_has_reason());
    ERR_clear_error();
    return r == MDT_OK;
}

static void run_verify_group(const char *file, int set, const cJSON *g, counts *c) {
    static const char *const gknown[] = {"type", "source", "publicKey", "publicKeyDer", "tests",
                                         NULL};
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "ctx", "sig",
                                         "result", NULL};
    const char *name = mdt_name(set);
    uint8_t *pub = NULL, *der = NULL;
    size_t publ = 0, derl = 0;
    QT_CHECK(qt_json_check_fields(g, gknown, file));
    QT_CHECK(qt_json_hex(g, "publicKey", &pub, &publ) &&
             qt_json_hex(g, "publicKeyDer", &der, &derl));
    ERR_clear_error();
    EVP_PKEY *k1 = mdt_key_fromdata(libctx, name, NULL, 0, NULL, 0, pub, publ);
    EVP_PKEY *k2 = NULL;
    if (publ != mdt_pub_len(set) || group_has_flag(g, "IncorrectPublicKeyLength")) {
        expect_refused(k1, file, "a public key of the wrong length");
        expect_refused(mdt_key_from_der(libctx, name, "SubjectPublicKeyInfo", der, derl), file,
                       "an SPKI of the wrong length");
    } else {
        k2 = mdt_key_from_der(libctx, name, "SubjectPublicKeyInfo", der, derl);
        if (k1 == NULL || k2 == NULL)
            ERR_print_errors_fp(stderr);
        QT_CHECK(k1 != NULL && k2 != NULL);
        QT_CHECK(k1 != NULL && mdt_is_quill(qt_pkey_provider(k1)));
        QT_CHECK(k2 != NULL && mdt_is_quill(qt_pkey_provider(k2)));
        QT_CHECK(k2 != NULL && octets_equal(k2, "pub", pub, publ));
        ERR_clear_error();
    }
    const cJSON *tests = qt_json_array(g, "tests"), *t;
    cJSON_ArrayForEach(t, tests) {
        long id = 0;
        const char *result = qt_json_str(t, "result");
        uint8_t *msg = NULL, *ctx = NULL, *sig = NULL;
        size_t msgl = 0, ctxl = 0, sigl = 0;
        QT_CHECK(qt_json_check_fields(t, tknown, file));
        QT_CHECK(qt_json_int(t, "tcId", &id));
        QT_CHECK(qt_json_hex(t, "msg", &msg, &msgl) && opt_hex(t, "ctx", &ctx, &ctxl) &&
                 qt_json_hex(t, "sig", &sig, &sigl));
        int valid = result != NULL && strcmp(result, "valid") == 0;
        QT_CHECK(result != NULL && (valid || strcmp(result, "invalid") == 0));
        c->tests++;
        c->valid += valid;
        c->invalid += !valid;
        if (k1 == NULL && k2 == NULL) {
            QT_CHECK(!valid);
            c->import_refused++;
        } else {
            mdt_opts o = {0};
            o.ctx = ctx;
            o.ctx_len = ctxl;
            o.has_ctx = ctx != NULL;
            int a1 = k1 != NULL && verify_one(k1, MDT_PKEY, &o, msg, msgl, sig, sigl, c);
            int a2 = k2 != NULL && verify_one(k2, MDT_DIGEST, &o, msg, msgl, sig, sigl, c);
            int a3 = k1 != NULL && verify_one(k1, MDT_STREAMED, &o, msg, msgl, sig, sigl, c);
            if (a1 != valid || a2 != valid || a3 != valid)
                fprintf(stderr, "%s tcId %ld: expected %s, got %d/%d/%d (pkey/digest/stream)\n",
                        file, id, valid ? "valid" : "invalid", a1, a2, a3);
            QT_CHECK(a1 == valid && a2 == valid && a3 == valid);
            if (valid)
                c->accepted += a1 && a2 && a3;
            else
                c->rejected += !a1 && !a2 && !a3;
        }
        free(msg);
        free(ctx);
        free(sig);
    }
    EVP_PKEY_free(k1);
    EVP_PKEY_free(k2);
    free(pub);
    free(der);
}

/* kind: 0 sign_seed, 1 sign_noseed, 2 verify. */
static int run_file(int set, int kind) {
    static const char *const kinds[] = {"sign_seed", "sign_noseed", "verify"};
    static const char *const schemas[] = {"mldsa_sign_seed_schema.json",
                                          "mldsa_sign_noseed_schema.json",
                                          "mldsa_verify_schema.json"};
    char file[96];
    snprintf(file, sizeof(file), "wycheproof/mldsa_%s_%s_test.json", mdt_name(set) + 7,
             kinds[kind]);
    int absent;
    cJSON *root = qt_json_load_vector(file, &absent);
    if (root == NULL)
        return absent ? QT_SKIP : 1;
    QT_CHECK(qt_json_check_header(root, schemas[kind]));
    QT_CHECK(set_of(root) == set);
    counts c = {0};
    const cJSON *groups = qt_json_array(root, "testGroups"), *g;
    cJSON_ArrayForEach(g, groups) {
        const char *type = qt_json_str(g, "type");
        QT_CHECK(type != NULL && strcmp(type, kind == 2 ? "MlDsaVerify" : "MlDsaSign") == 0);
        if (kind == 2)
            run_verify_group(file, set, g, &c);
        else
            run_sign_group(file, set, g, kind == 0, &c);
    }
    long declared = 0;
    QT_CHECK(qt_json_int(root, "numberOfTests", &declared) && declared == c.tests);
    /* Every valid test produced its checks; every invalid one was refused. */
    QT_CHECK(c.rejected + c.import_refused == c.invalid);
    QT_CHECK(c.not_quill == 0);
    printf("%-44s %3ld tests (%3ld valid, %3ld invalid): %4ld ops by quill, %3ld signatures "
           "equal, %3ld accepted, %3ld rejected, %2ld refused at import\n",
           file + 11, c.tests, c.valid, c.invalid, c.ops, c.sig_equal, c.accepted, c.rejected,
           c.import_refused);
    cJSON_Delete(root);
    return 0;
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = mdt_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    int ran = 0;
    for (int set = 0; set < MDT_NSETS; set++)
        for (int kind = 0; kind < 3; kind++) {
            int r = run_file(set, kind);
            QT_CHECK(r == 0 || r == QT_SKIP);
            ran += r != QT_SKIP;
        }
    qt_libctx_free(libctx, def, quill);
    if (ran == 0)
        return QT_SKIP;
    QT_CHECK(ran == 9);
    return qt_finish("mldsa_wycheproof");
}
