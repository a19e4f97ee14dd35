/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Wycheproof ML-DSA at the core level, for ML-DSA-44, -65 and -87:
 *   mldsa_*_sign_seed_test.json    key from privateSeed gives publicKey
 *                                  (privateKeyPkcs8 ends with the seed);
 *   mldsa_*_sign_noseed_test.json  key_from_priv(privateKey) gives publicKey,
 *                                  InvalidPrivateKey groups are refused;
 *     for each test of both: mu from (msg, ctx) equals the given mu; the
 *     signature with rnd (all zeros unless given) equals sig for valid
 *     tests and verifies; invalid tests must fail (context over 255 bytes,
 *     a private key of the wrong length or out of range);
 *   mldsa_*_verify_test.json       every valid signature accepted, every
 *                                  invalid one refused (wrong pk/sig
 *                                  lengths, hints, norms, ...); the SPKI
 *                                  publicKeyDer ends with publicKey.
 * Exits 77 if the vector files are absent. */
#include <stdlib.h>
#include <string.h>

#include "mldsa/mldsa.h"
#include "qt_json.h"
#include "test_util.h"

static long n_keys, n_badkeys, n_sign_valid, n_sign_invalid, n_mu, n_ver_valid, n_ver_invalid;

static int has_flag(const cJSON *t, const char *flag) {
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(t, "flags")) {
        if (cJSON_IsString(f) && strcmp(f->valuestring, flag) == 0)
            return 1;
    }
    return 0;
}

/* Every flag must be described in the file's notes, except
 * "InvalidSignature", which the verify files use without a note (its
 * meaning is the test's result). */
static int flags_known(const cJSON *t, const cJSON *notes) {
    const cJSON *flags = cJSON_GetObjectItemCaseSensitive(t, "flags"), *f;
    int ok = cJSON_IsArray(flags);
    cJSON_ArrayForEach(f, flags) {
        if (!cJSON_IsString(f) || (!cJSON_GetObjectItemCaseSensitive(notes, f->valuestring) &&
                                   strcmp(f->valuestring, "InvalidSignature") != 0)) {
            fprintf(stderr, "flag not described in notes\n");
            ok = 0;
        }
    }
    return ok;
}

/* Optional hex member: *present = 0 if absent; returns 0 on a decoding
 * error. */
static int opt_hex(const cJSON *obj, const char *field, uint8_t **out, size_t *len, int *present) {
    *out = NULL;
    *len = 0;
    *present = cJSON_GetObjectItemCaseSensitive(obj, field) != NULL;
    return !*present || qt_json_hex(obj, field, out, len);
}

/* mu for a test: from msg and ctx (pure ML-DSA) if msg is present, else
 * the given mu.  Returns 1 with mu set, 0 if the context is refused, -1 on
 * a malformed test. */
static int test_mu(const quill_mldsa_key *key, const cJSON *t, uint8_t mu[64]) {
    uint8_t *msg = NULL, *ctx = NULL, *given = NULL;
    size_t msgl = 0, ctxl = 0, givenl = 0;
    int has_msg = 0, has_ctx = 0, has_mu = 0, ret = -1;
    if (!opt_hex(t, "msg", &msg, &msgl, &has_msg) || !opt_hex(t, "ctx", &ctx, &ctxl, &has_ctx) ||
        !opt_hex(t, "mu", &given, &givenl, &has_mu))
        goto out;
    if (has_mu && givenl != 64)
        goto out;
    if (has_msg) {
        quill_mldsa_mu m;
        quill_err err = quill_mldsa_mu_init_pure(&m, key, ctx, ctxl);
        if (err != QUILL_OK) {
            QT_CHECK(err == QUILL_ERR_CONTEXT_LENGTH && ctxl > 255);
            ret = 0;
            goto out;
        }
        QT_CHECK(ctxl <= 255);
        /* split the message to exercise incremental absorption */
        quill_mldsa_mu_update(&m, msg, msgl / 3);
        quill_mldsa_mu_update(&m, msg + msgl / 3, msgl - msgl / 3);
        quill_mldsa_mu_final(&m, mu);
        if (has_mu) {
            QT_CHECK(memcmp(mu, given, 64) == 0);
            n_mu++;
        }
        ret = 1;
    } else if (has_mu && !has_ctx) {
        memcpy(mu, given, 64);
        ret = 1;
    }
out:
    free(msg);
    free(ctx);
    free(given);
    return ret;
}

static void sign_tests(const char *name, const cJSON *g, const cJSON *notes,
                       const quill_mldsa_key *key) {
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "ctx", "mu",
                                         "rnd", "sig", "result", NULL};
    const cJSON *t;
    cJSON_ArrayForEach(t, qt_json_array(g, "tests")) {
        long tcid = 0;
        const char *result = qt_json_str(t, "result");
        uint8_t *sig = NULL, *rndb = NULL, mu[64], rnd[32] = {0};
        size_t sigl = 0, rndl = 0;
        int has_rnd;
        QT_CHECK(qt_json_check_fields(t, tknown, name));
        QT_CHECK(flags_known(t, notes));
        QT_CHECK(qt_json_str(t, "comment") != NULL);
        if (!qt_json_int(t, "tcId", &tcid) || result == NULL ||
            !qt_json_hex(t, "sig", &sig, &sigl) || !opt_hex(t, "rnd", &rndb, &rndl, &has_rnd) ||
            (has_rnd && rndl != 32)) {
            qt_failed++;
            free(sig);
            free(rndb);
            continue;
        }
        int valid = strcmp(result, "valid") == 0;
        QT_CHECK(valid || strcmp(result, "invalid") == 0);
        if (has_rnd)
            memcpy(rnd, rndb, 32);
        int produced = 0;
        if (key == NULL) {
            QT_CHECK(!valid && (has_flag(t, "IncorrectPrivateKeyLength") ||
                                has_flag(t, "InvalidPrivateKey")));
        } else {
            int m = test_mu(key, t, mu);
            QT_CHECK(m >= 0);
            if (m == 1) {
                uint8_t out[QUILL_MLDSA_MAX_SIG_BYTES];
                size_t n = quill_mldsa_sig_bytes(quill_mldsa_key_set(key));
                QT_CHECK(quill_mldsa_sign_mu(key, mu, rnd, out, n - 1) ==
                         QUILL_ERR_BUFFER_TOO_SMALL);
                if (quill_mldsa_sign_mu(key, mu, rnd, out, sizeof(out)) == QUILL_OK) {
                    produced = 1;
                    QT_CHECK(quill_mldsa_verify_mu(key, mu, out, n) == QUILL_OK);
                    if (valid) {
                        QT_CHECK(sigl == n && memcmp(out, sig, n) == 0);
                        if (sigl != n || memcmp(out, sig, n) != 0)
                            fprintf(stderr, "%s tcId %ld: signature differs\n", name, tcid);
                    }
                }
            } else {
                QT_CHECK(!valid && has_flag(t, "InvalidContext"));
            }
        }
        QT_CHECK(produced == valid);
        if (produced != valid)
            fprintf(stderr, "%s tcId %ld: expected %s\n", name, tcid, result);
        if (valid)
            n_sign_valid++;
        else
            n_sign_invalid++;
        free(sig);
        free(rndb);
    }
}

static int run_sign(quill_mldsa_set set, const char *name, int seeded) {
    int absent;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL)
        return absent ? QT_SKIP : 1;
    QT_CHECK(qt_json_check_header(root, seeded ? "mldsa_sign_seed_schema.json"
                                               : "mldsa_sign_noseed_schema.json"));
    const cJSON *notes = cJSON_GetObjectItemCaseSensitive(root, "notes"), *g;
    static const char *const gknown[] = {"type", "source", "privateSeed", "privateKeyPkcs8",
                                         "privateKey", "publicKey", "tests", NULL};
    cJSON_ArrayForEach(g, qt_json_array(root, "testGroups")) {
        QT_CHECK(qt_json_check_fields(g, gknown, name));
        const char *type = qt_json_str(g, "type");
        QT_CHECK(type != NULL && strcmp(type, "MlDsaSign") == 0);
        uint8_t *priv = NULL, *pub = NULL, *pkcs8 = NULL;
        size_t privl = 0, publ = 0, pkcs8l = 0;
        int has_pkcs8;
        QT_CHECK(qt_json_hex(g, seeded ? "privateSeed" : "privateKey", &priv, &privl));
        const cJSON *pubj = cJSON_GetObjectItemCaseSensitive(g, "publicKey");
        int has_pub = !cJSON_IsNull(pubj);
        if (has_pub)
            QT_CHECK(qt_json_hex(g, "publicKey", &pub, &publ));
        QT_CHECK(opt_hex(g, "privateKeyPkcs8", &pkcs8, &pkcs8l, &has_pkcs8));
        /* a seed-only PKCS#8 ends with the seed; it is empty for seeds of
         * the wrong length */
        if (has_pkcs8 && pkcs8l != 0)
            QT_CHECK(pkcs8l > privl && memcmp(pkcs8 + pkcs8l - privl, priv, privl) == 0);
        if (has_pkcs8 && pkcs8l == 0)
            QT_CHECK(privl != QUILL_MLDSA_SEED_BYTES);

        quill_mldsa_key *key = NULL;
        quill_err err;
        if (seeded)
            err = privl == QUILL_MLDSA_SEED_BYTES ? quill_mldsa_key_from_seed(&key, set, priv)
                                                  : QUILL_ERR_KEY_LENGTH;
        else
            err = quill_mldsa_key_from_priv(&key, set, priv, privl);
        if (err == QUILL_OK) {
            n_keys++;
            QT_CHECK(has_pub && publ == quill_mldsa_pub_bytes(set) &&
                     memcmp(quill_mldsa_key_pub(key), pub, publ) == 0);
            QT_CHECK(quill_mldsa_key_has_private(key));
            QT_CHECK(quill_mldsa_key_has_seed(key) == seeded);
            if (!seeded)
                QT_CHECK(memcmp(quill_mldsa_key_priv(key), priv, privl) == 0);
            else
                QT_CHECK(memcmp(quill_mldsa_key_seed(key), priv, privl) == 0);
        } else {
            n_badkeys++;
            QT_CHECK(err == (privl != (seeded ? 32 : quill_mldsa_priv_bytes(set))
                                 ? QUILL_ERR_KEY_LENGTH
                                 : QUILL_ERR_KEY_CHECK));
        }
        sign_tests(name, g, notes, key);
        quill_mldsa_key_free(key);
        free(priv);
        free(pub);
        free(pkcs8);
    }
    cJSON_Delete(root);
    return 0;
}

static int run_verify(quill_mldsa_set set, const char *name) {
    int absent;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL)
        return absent ? QT_SKIP : 1;
    QT_CHECK(qt_json_check_header(root, "mldsa_verify_schema.json"));
    const cJSON *notes = cJSON_GetObjectItemCaseSensitive(root, "notes"), *g;
    static const char *const gknown[] = {"type", "source", "publicKey", "publicKeyDer", "tests",
                                         NULL};
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "ctx",
                                         "sig", "result", NULL};
    cJSON_ArrayForEach(g, qt_json_array(root, "testGroups")) {
        QT_CHECK(qt_json_check_fields(g, gknown, name));
        const char *type = qt_json_str(g, "type");
        QT_CHECK(type != NULL && strcmp(type, "MlDsaVerify") == 0);
        uint8_t *pub = NULL, *der = NULL;
        size_t publ = 0, derl = 0;
        int has_der;
        QT_CHECK(qt_json_hex(g, "publicKey", &pub, &publ));
        QT_CHECK(opt_hex(g, "publicKeyDer", &der, &derl, &has_der));
        if (has_der && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(g, "publicKeyDer")))
            QT_CHECK(derl > publ && memcmp(der + derl - publ, pub, publ) == 0);
        quill_mldsa_key *key = NULL;
        quill_err err = quill_mldsa_key_from_pub(&key, set, pub, publ);
        QT_CHECK(err == (publ == quill_mldsa_pub_bytes(set) ? QUILL_OK : QUILL_ERR_KEY_LENGTH));
        const cJSON *t;
        cJSON_ArrayForEach(t, qt_json_array(g, "tests")) {
            long tcid = 0;
            const char *result = qt_json_str(t, "result");
            uint8_t *sig = NULL, mu[64];
            size_t sigl = 0;
            QT_CHECK(qt_json_check_fields(t, tknown, name));
            QT_CHECK(flags_known(t, notes));
            QT_CHECK(qt_json_str(t, "comment") != NULL);
            if (!qt_json_int(t, "tcId", &tcid) || result == NULL ||
                !qt_json_hex(t, "sig", &sig, &sigl)) {
                qt_failed++;
                free(sig);
                continue;
            }
            int valid = strcmp(result, "valid") == 0;
            QT_CHECK(valid || strcmp(result, "invalid") == 0);
            int accepted = 0;
            if (key != NULL) {
                int m = test_mu(key, t, mu);
                QT_CHECK(m >= 0);
                if (m == 1) {
                    quill_err v = quill_mldsa_verify_mu(key, mu, sig, sigl);
                    accepted = v == QUILL_OK;
                    if (sigl != quill_mldsa_sig_bytes(set))
                        QT_CHECK(v == QUILL_ERR_SIG_LENGTH);
                    else
                        QT_CHECK(v == QUILL_OK || v == QUILL_ERR_BAD_SIGNATURE);
                }
            }
            QT_CHECK(accepted == valid);
            if (accepted != valid)
                fprintf(stderr, "%s tcId %ld: expected %s, quill says %d\n", name, tcid, result,
                        accepted);
            if (valid)
                n_ver_valid++;
            else
                n_ver_invalid++;
            free(sig);
        }
        quill_mldsa_key_free(key);
        free(pub);
        free(der);
    }
    cJSON_Delete(root);
    return 0;
}

int main(void) {
    static const struct {
        quill_mldsa_set set;
        const char *tag;
    } sets[] = {{QUILL_MLDSA_44, "44"}, {QUILL_MLDSA_65, "65"}, {QUILL_MLDSA_87, "87"}};
    int skipped = 0;
    for (size_t i = 0; i < QT_ARRAY_LEN(sets); i++) {
        char name[64];
        snprintf(name, sizeof(name), "wycheproof/mldsa_%s_sign_seed_test.json", sets[i].tag);
        skipped |= run_sign(sets[i].set, name, 1) == QT_SKIP;
        snprintf(name, sizeof(name), "wycheproof/mldsa_%s_sign_noseed_test.json", sets[i].tag);
        skipped |= run_sign(sets[i].set, name, 0) == QT_SKIP;
        snprintf(name, sizeof(name), "wycheproof/mldsa_%s_verify_test.json", sets[i].tag);
        skipped |= run_verify(sets[i].set, name) == QT_SKIP;
    }
    if (skipped && qt_checked == 0)
        return QT_SKIP;
    QT_CHECK(!skipped);
    printf("mldsa_wycheproof: keys %ld accepted, %ld refused; sign %ld valid, %ld invalid "
           "(%ld mu checked); verify %ld valid, %ld invalid\n",
           n_keys, n_badkeys, n_sign_valid, n_sign_invalid, n_mu, n_ver_valid, n_ver_invalid);
    return qt_finish("mldsa_wycheproof");
}
