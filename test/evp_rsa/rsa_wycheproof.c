/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * rsa_wycheproof: Wycheproof RSA vectors through plain EVP, served by quill.
 *
 *   rsa_signature_*       RSASSA-PKCS1-v1_5 verification, keys from publicKeyDer
 *   rsa_pkcs1_*_sig_gen   PKCS#1 v1.5 signing (SHA-256/384/512 groups), byte for
 *                         byte against the vector, then verified by quill and by
 *                         the default provider
 *   rsa_pss_*             RSASSA-PSS verification; *_params files carry
 *                         id-RSASSA-PSS keys (OpenSSL type "RSA-PSS")
 *
 * Every valid test must be accepted and every invalid one rejected (with an
 * error that has a reason), each served by quill, except that RSA-PSS keys
 * are only required to be served by quill if quill has an "RSA-PSS" key
 * manager.  "acceptable" results are counted, never failed.  Two passes: with
 * the default properties of openssl.cnf.example, then with no default
 * properties and "provider=quill" in every fetch.  Field layout:
 * ../shared/vectors/README.md; every field is read or listed as ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "qt_evp.h"
#include "qt_json.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov_default, *prov_quill;
static int quill_has_pss_keymgmt;
static const cJSON *cur_notes; /* the "notes" of the file being run */
/* Property query of the operations under test: NULL in the first pass
 * (quill preferred by default properties), "provider=quill" in the second. */
static const char *op_propq;

static struct {
    unsigned long files, absent, tests, valid_ok, invalid_ok, acceptable_accepted,
        acceptable_rejected, served_quill, pss_key_tests, pss_key_served_quill, skipped_sha,
        signed_equal;
} st;

/* Fields each record may carry: read by this suite, or alternative
 * encodings of what it reads (PEM, JWK, PKCS#1 ASN.1) and provenance. */
static const char *const pkcs1_verify_group_fields[] = {
    "type", "sha", "keySize", "publicKey", "publicKeyDer", "publicKeyPem", "publicKeyAsn",
    "keyJwk", "source", "tests", NULL};
static const char *const pss_verify_group_fields[] = {
    "type", "sha", "mgf", "mgfSha", "sLen", "keySize", "publicKey", "publicKeyDer",
    "publicKeyPem", "publicKeyAsn", "publicKeyJwk", "source", "tests", NULL};
static const char *const sig_gen_group_fields[] = {
    "type", "sha", "keySize", "privateKey", "privateKeyPkcs8", "privateKeyPem", "privateKeyJwk",
    "keyDer", "keyPem", "keyAsn", "keyJwk", "source", "tests", NULL};
static const char *const test_fields[] = {"tcId", "comment", "flags", "msg", "sig", "result",
                                          NULL};
static const char *const public_key_fields[] = {"modulus", "publicExponent", NULL};
static const char *const private_key_fields[] = {"modulus", "privateExponent", "publicExponent",
                                                 NULL};

/* Wycheproof digest names that OpenSSL knows under the same spelling. */
static int known_digest(const char *sha) {
    static const char *const names[] = {"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512",
                                        NULL};
    for (size_t i = 0; names[i] != NULL; i++)
        if (strcmp(sha, names[i]) == 0)
            return 1;
    return 0;
}

enum verdict { V_VALID, V_INVALID, V_ACCEPTABLE, V_BAD };

/* Every flag of a test must be explained in the file's notes. */
static int flags_known(const cJSON *t) {
    const cJSON *flags = cJSON_GetObjectItemCaseSensitive(t, "flags"), *f;
    if (!cJSON_IsArray(flags))
        return 0;
    cJSON_ArrayForEach(f, flags) {
        if (!cJSON_IsString(f) ||
            !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cur_notes, f->valuestring))) {
            fprintf(stderr, "flag %s is not described in notes\n",
                    cJSON_IsString(f) ? f->valuestring : "(non-string)");
            return 0;
        }
    }
    return 1;
}

static enum verdict parse_result(const cJSON *t) {
    const char *r = qt_json_str(t, "result");
    if (r == NULL)
        return V_BAD;
    if (strcmp(r, "valid") == 0)
        return V_VALID;
    if (strcmp(r, "invalid") == 0)
        return V_INVALID;
    if (strcmp(r, "acceptable") == 0)
        return V_ACCEPTABLE;
    fprintf(stderr, "unknown result \"%s\"\n", r);
    return V_BAD;
}

/* Checks that the key's parameter |name| equals the hex field |field| of |obj|. */
static int key_param_matches(const EVP_PKEY *key, const char *name, const cJSON *obj,
                             const char *field) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    BIGNUM *want = NULL, *got = NULL;
    int ok = qt_json_hex(obj, field, &bytes, &len) &&
             (want = BN_bin2bn(bytes, (int)len, NULL)) != NULL &&
             EVP_PKEY_get_bn_param(key, name, &got) && BN_cmp(want, got) == 0;
    if (!ok)
        fprintf(stderr, "key parameter %s differs from field %s\n", name, field);
    BN_clear_free(got);
    BN_clear_free(want);
    free(bytes);
    return ok;
}

static EVP_PKEY *load_public_key(const cJSON *g, int pss_key, const char *where) {
    uint8_t *der = NULL;
    size_t der_len = 0;
    long key_size = 0;
    if (!qt_json_hex(g, "publicKeyDer", &der, &der_len) || !qt_json_int(g, "keySize", &key_size))
        return NULL;
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_PUBKEY_ex(NULL, &p, (long)der_len, libctx, NULL);
    free(der);
    if (key == NULL) {
        fprintf(stderr, "%s: publicKeyDer does not decode\n", where);
        ERR_print_errors_fp(stderr);
        return NULL;
    }
    const cJSON *pub = cJSON_GetObjectItemCaseSensitive(g, "publicKey");
    int ok = EVP_PKEY_is_a(key, pss_key ? "RSA-PSS" : "RSA") &&
             EVP_PKEY_get_bits(key) == key_size && cJSON_IsObject(pub) &&
             qt_json_check_fields(pub, public_key_fields, where) &&
             key_param_matches(key, OSSL_PKEY_PARAM_RSA_N, pub, "modulus") &&
             key_param_matches(key, OSSL_PKEY_PARAM_RSA_E, pub, "publicExponent");
    QT_CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s: decoded key disagrees with the group's fields\n", where);
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

/* Runs one verification test; |pss_key| marks an RSA-PSS (id-RSASSA-PSS) key. */
static void verify_test(const char *file, const cJSON *t, EVP_PKEY *key, const qt_sigparams *sp,
                        int pss_key) {
    long tc = -1;
    uint8_t *msg = NULL, *sig = NULL;
    size_t msg_len = 0, sig_len = 0;
    enum verdict v = parse_result(t);
    int fields_ok = qt_json_check_fields(t, test_fields, file) && qt_json_int(t, "tcId", &tc) &&
                    qt_json_hex(t, "msg", &msg, &msg_len) &&
                    qt_json_hex(t, "sig", &sig, &sig_len) &&
                    flags_known(t) && v != V_BAD;
    QT_CHECK(fields_ok);
    if (!fields_ok)
        goto done;
    st.tests++;
    ERR_clear_error();
    const OSSL_PROVIDER *served = NULL;
    int mode = (v == V_VALID && tc % 2 == 0) ? QT_STREAMED : QT_ONESHOT;
    int r = qt_digest_verify(libctx, op_propq, key, sp, msg, msg_len, mode, sig, sig_len,
                             &served);
    if (r < 0) {
        fprintf(stderr, "%s tcId %ld: verification could not be set up\n", file, tc);
        ERR_print_errors_fp(stderr);
    }
    QT_CHECK(r >= 0);
    if (pss_key) {
        st.pss_key_tests++;
        st.pss_key_served_quill += served == prov_quill;
        if (quill_has_pss_keymgmt)
            QT_CHECK(served == prov_quill);
    } else {
        st.served_quill += served == prov_quill;
        QT_CHECK(served == prov_quill);
    }
    if (served != prov_quill && (!pss_key || quill_has_pss_keymgmt))
        fprintf(stderr, "%s tcId %ld: served by %s\n", file, tc, qt_prov_name(served));
    switch (v) {
    case V_VALID:
        QT_CHECK(r == 1);
        st.valid_ok += r == 1;
        ERR_clear_error();
        break;
    case V_INVALID:
        QT_CHECK(r == 0);
        st.invalid_ok += r == 0;
        if (r == 0)
            QT_CHECK(qt_error_has_reason());
        break;
    default:
        if (r == 1)
            st.acceptable_accepted++;
        else
            st.acceptable_rejected++;
        ERR_clear_error();
        break;
    }
    if ((v == V_VALID && r != 1) || (v == V_INVALID && r != 0))
        fprintf(stderr, "%s tcId %ld: expected %s, got %d\n", file, tc,
                v == V_VALID ? "valid" : "invalid", r);
done:
    free(msg);
    free(sig);
}

static void run_verify_file(const char *file, const cJSON *root, int pss, int pss_key) {
    const char *schema = !pss      ? "rsassa_pkcs1_verify_schema_v1.json"
                         : pss_key ? "rsassa_pss_with_parameters_verify_schema.json"
                                   : "rsassa_pss_verify_schema_v1.json";
    const char *type = !pss ? "RsassaPkcs1Verify"
                            : pss_key ? "RsassaPssWithParametersVerify" : "RsassaPssVerify";
    QT_CHECK(qt_json_check_header(root, schema));
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups")) {
        const char *gtype = qt_json_str(g, "type"), *sha = qt_json_str(g, "sha");
        int ok = qt_json_check_fields(g, pss ? pss_verify_group_fields : pkcs1_verify_group_fields,
                                      file) &&
                 gtype != NULL && strcmp(gtype, type) == 0 && sha != NULL && known_digest(sha);
        qt_sigparams sp = {pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING, sha, NULL, NULL, 0};
        char salt[24] = "";
        if (ok && pss) {
            const char *mgf = qt_json_str(g, "mgf");
            long slen = -1;
            sp.mgf1 = qt_json_str(g, "mgfSha");
            ok = mgf != NULL && strcmp(mgf, "MGF1") == 0 && sp.mgf1 != NULL &&
                 known_digest(sp.mgf1) && qt_json_int(g, "sLen", &slen) && slen >= 0;
            snprintf(salt, sizeof(salt), "%ld", slen);
            sp.saltlen = salt;
        }
        QT_CHECK(ok);
        if (!ok) {
            fprintf(stderr, "%s: malformed or unknown group\n", file);
            continue;
        }
        EVP_PKEY *key = load_public_key(g, pss_key, file);
        if (key == NULL)
            continue;
        const cJSON *t;
        cJSON_ArrayForEach(t, qt_json_array(g, "tests")) verify_test(file, t, key, &sp, pss_key);
        EVP_PKEY_free(key);
    }
}

static EVP_PKEY *load_private_key(const cJSON *g, const char *where) {
    uint8_t *der = NULL;
    size_t der_len = 0;
    long key_size = 0;
    if (!qt_json_hex(g, "privateKeyPkcs8", &der, &der_len) || !qt_json_int(g, "keySize", &key_size))
        return NULL;
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_AutoPrivateKey_ex(NULL, &p, (long)der_len, libctx, NULL);
    free(der);
    if (key == NULL) {
        fprintf(stderr, "%s: privateKeyPkcs8 does not decode\n", where);
        ERR_print_errors_fp(stderr);
        return NULL;
    }
    const cJSON *priv = cJSON_GetObjectItemCaseSensitive(g, "privateKey");
    int ok = EVP_PKEY_is_a(key, "RSA") && EVP_PKEY_get_bits(key) == key_size &&
             cJSON_IsObject(priv) && qt_json_check_fields(priv, private_key_fields, where) &&
             key_param_matches(key, OSSL_PKEY_PARAM_RSA_N, priv, "modulus") &&
             key_param_matches(key, OSSL_PKEY_PARAM_RSA_E, priv, "publicExponent") &&
             key_param_matches(key, OSSL_PKEY_PARAM_RSA_D, priv, "privateExponent");
    QT_CHECK(ok);
    if (!ok) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

static void sig_gen_test(const char *file, const cJSON *t, EVP_PKEY *key, const qt_sigparams *sp) {
    long tc = -1;
    uint8_t *msg = NULL, *want = NULL;
    size_t msg_len = 0, want_len = 0;
    enum verdict v = parse_result(t);
    int fields_ok = qt_json_check_fields(t, test_fields, file) && qt_json_int(t, "tcId", &tc) &&
                    qt_json_hex(t, "msg", &msg, &msg_len) &&
                    qt_json_hex(t, "sig", &want, &want_len) && v != V_BAD && flags_known(t);
    QT_CHECK(fields_ok);
    /* These files have no invalid tests; one would need a meaning defined. */
    QT_CHECK(v != V_INVALID);
    if (!fields_ok || v == V_INVALID)
        goto done;
    st.tests++;
    uint8_t sig[1024];
    size_t sig_len = sizeof(sig);
    const OSSL_PROVIDER *served = NULL;
    int mode = tc % 2 == 0 ? QT_STREAMED : QT_ONESHOT;
    int ok = qt_digest_sign(libctx, op_propq, key, sp, msg, msg_len, mode, sig, &sig_len,
                            &served);
    if (!ok)
        ERR_print_errors_fp(stderr);
    QT_CHECK(served == prov_quill);
    st.served_quill += served == prov_quill;
    if (v == V_ACCEPTABLE && !ok) {
        st.acceptable_rejected++;
        goto done;
    }
    QT_CHECK(ok);
    int equal = ok && sig_len == want_len && memcmp(sig, want, want_len) == 0;
    QT_CHECK(equal);
    st.signed_equal += equal;
    if (!equal)
        fprintf(stderr, "%s tcId %ld: signature differs from the vector\n", file, tc);
    /* The produced signature verifies with quill and with the default provider. */
    const OSSL_PROVIDER *vserved = NULL;
    QT_CHECK(qt_digest_verify(libctx, op_propq, key, sp, msg, msg_len, QT_ONESHOT, sig, sig_len,
                              &vserved) == 1);
    QT_CHECK(vserved == prov_quill);
    QT_CHECK(qt_digest_verify(libctx, "provider=default", key, sp, msg, msg_len, QT_ONESHOT, sig,
                              sig_len, &vserved) == 1);
    QT_CHECK(vserved == prov_default);
    if (v == V_VALID)
        st.valid_ok += equal;
    else
        st.acceptable_accepted++;
done:
    ERR_clear_error();
    free(msg);
    free(want);
}

static void run_sig_gen_file(const char *file, const cJSON *root) {
    QT_CHECK(qt_json_check_header(root, "rsassa_pkcs1_generate_schema_v1.json"));
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "testGroups")) {
        const char *gtype = qt_json_str(g, "type"), *sha = qt_json_str(g, "sha");
        int ok = qt_json_check_fields(g, sig_gen_group_fields, file) && gtype != NULL &&
                 strcmp(gtype, "RsassaPkcs1Generate") == 0 && sha != NULL;
        QT_CHECK(ok);
        if (!ok)
            continue;
        const cJSON *tests = qt_json_array(g, "tests");
        /* Only the SHA-256/384/512 groups are in scope (README). */
        if (strcmp(sha, "SHA-256") != 0 && strcmp(sha, "SHA-384") != 0 &&
            strcmp(sha, "SHA-512") != 0) {
            st.skipped_sha += (unsigned long)cJSON_GetArraySize(tests);
            continue;
        }
        EVP_PKEY *key = load_private_key(g, file);
        if (key == NULL)
            continue;
        qt_sigparams sp = {RSA_PKCS1_PADDING, sha, NULL, NULL, 0};
        const cJSON *t;
        cJSON_ArrayForEach(t, tests) sig_gen_test(file, t, key, &sp);
        EVP_PKEY_free(key);
    }
}

static const char *const vector_files[] = {
    "wycheproof/rsa_signature_2048_sha256_test.json",
    "wycheproof/rsa_signature_2048_sha384_test.json",
    "wycheproof/rsa_signature_2048_sha512_test.json",
    "wycheproof/rsa_signature_3072_sha256_test.json",
    "wycheproof/rsa_signature_3072_sha384_test.json",
    "wycheproof/rsa_signature_3072_sha512_test.json",
    "wycheproof/rsa_signature_4096_sha256_test.json",
    "wycheproof/rsa_signature_4096_sha384_test.json",
    "wycheproof/rsa_signature_4096_sha512_test.json",
    "wycheproof/rsa_pkcs1_2048_sig_gen_test.json",
    "wycheproof/rsa_pkcs1_3072_sig_gen_test.json",
    "wycheproof/rsa_pkcs1_4096_sig_gen_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1_0_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1sha1_20_test.json",
    "wycheproof/rsa_pss_2048_sha384_mgf1_48_test.json",
    "wycheproof/rsa_pss_3072_sha256_mgf1_32_test.json",
    "wycheproof/rsa_pss_4096_sha256_mgf1_32_test.json",
    "wycheproof/rsa_pss_4096_sha384_mgf1_48_test.json",
    "wycheproof/rsa_pss_4096_sha512_mgf1_32_test.json",
    "wycheproof/rsa_pss_4096_sha512_mgf1_64_test.json",
    "wycheproof/rsa_pss_misc_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1_0_params_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1_32_params_test.json",
    "wycheproof/rsa_pss_2048_sha512_mgf1sha256_32_params_test.json",
    "wycheproof/rsa_pss_3072_sha256_mgf1_32_params_test.json",
    "wycheproof/rsa_pss_4096_sha512_mgf1_32_params_test.json",
    "wycheproof/rsa_pss_4096_sha512_mgf1_64_params_test.json",
    "wycheproof/rsa_pss_misc_params_test.json",
};

/* Runs every file once; returns the number of files found. */
static unsigned long run_pass(const char *name) {
    memset(&st, 0, sizeof(st));
    double t0 = qt_now();
    for (size_t i = 0; i < QT_ARRAY_LEN(vector_files); i++) {
        const char *file = vector_files[i] + strlen("wycheproof/");
        int pss_key = strstr(file, "_params_") != NULL;
        /* Forcing quill on RSA-PSS keys needs its RSA-PSS key manager. */
        if (op_propq != NULL && pss_key && !quill_has_pss_keymgmt)
            continue;
        int absent = 0;
        cJSON *root = qt_json_load_vector(vector_files[i], &absent);
        if (root == NULL) {
            st.absent += absent;
            QT_CHECK(absent); /* present but unreadable is a failure */
            continue;
        }
        st.files++;
        cur_notes = cJSON_GetObjectItemCaseSensitive(root, "notes");
        unsigned long before = qt_failed;
        if (strncmp(file, "rsa_signature_", 14) == 0)
            run_verify_file(file, root, 0, 0);
        else if (strncmp(file, "rsa_pkcs1_", 10) == 0)
            run_sig_gen_file(file, root);
        else
            run_verify_file(file, root, 1, pss_key);
        if (qt_failed != before || op_propq == NULL)
            printf("%-52s %s\n", file, qt_failed == before ? "ok" : "FAILED");
        cJSON_Delete(root);
    }
    if (st.files == 0)
        return 0;
    /* A partial copy of the vectors is an error, not a skip. */
    QT_CHECK(st.absent == 0);
    printf("[%s] %.2f s; files %lu (absent %lu), tests %lu: valid accepted %lu, invalid "
           "rejected %lu, acceptable accepted %lu / rejected %lu, sig_gen byte-equal %lu, "
           "out-of-scope digest tests %lu\n",
           name, qt_now() - t0, st.files, st.absent, st.tests, st.valid_ok, st.invalid_ok,
           st.acceptable_accepted, st.acceptable_rejected, st.signed_equal, st.skipped_sha);
    printf("[%s] served by quill: %lu (rsaEncryption keys); RSA-PSS keys %lu of %lu\n", name,
           st.served_quill, st.pss_key_served_quill, st.pss_key_tests);
    return st.files;
}

int main(void) {
    libctx = qt_evp_libctx_new(&prov_default, &prov_quill);
    if (libctx == NULL) {
        fprintf(stderr, "cannot load the providers\n");
        return 1;
    }
    quill_has_pss_keymgmt = qt_quill_has_keymgmt(libctx, "RSA-PSS");
    printf("quill %s an RSA-PSS key manager\n", quill_has_pss_keymgmt ? "has" : "lacks");
    op_propq = NULL;
    if (run_pass("default properties ?quill.sig=yes") == 0) {
        qt_libctx_free(libctx, prov_default, prov_quill);
        fprintf(stderr, "no Wycheproof RSA vectors under %s: skipped\n", qt_vectors_dir());
        return QT_SKIP;
    }
    /* Second pass: no default properties, quill named in every fetch. */
    QT_CHECK(EVP_set_default_properties(libctx, "") == 1);
    op_propq = qt_quill_propq();
    run_pass("propq provider=quill");
    qt_libctx_free(libctx, prov_default, prov_quill);
    return qt_finish("rsa_wycheproof");
}
