/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Wycheproof ECDSA P-256 / SHA-256 through EVP with quill's signature:
 * ecdsa_secp256r1_sha256_test.json (DER signatures as given) and
 * ecdsa_secp256r1_sha256_p1363_test.json (r || s turned into DER here; any
 * length other than 64 bytes is invalid by definition).  Keys come from
 * publicKeyDer, decoded by quill's SubjectPublicKeyInfo decoder (the key
 * must be held by quill).  Every test is verified twice: with the group's
 * key, which quill's per-key table serves from its second use on, and with
 * a key decoded afresh for that test and used once (the one-shot path of a
 * TLS client checking a certificate's key).  Every verification must have
 * been served by quill (EVP_PKEY_CTX_get0_provider), every "valid" test
 * accepted and every "invalid" one rejected by both.  Exits 77 if the
 * vector files are absent. */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "ec_evp.h"
#include "qt_evp.h"
#include "qt_json.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;

static int run_file(const char *name, const char *schema, int p1363, long *nvalid,
                    long *ninvalid) {
    int absent;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL)
        return absent ? QT_SKIP : 1;
    QT_CHECK(qt_json_check_header(root, schema));
    const cJSON *groups = qt_json_array(root, "testGroups"), *g;
    static const char *const gknown[] = {"type", "source", "publicKey", "publicKeyDer",
                                         "publicKeyPem", "publicKeyJwk", "sha", "tests", NULL};
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "sig", "result", NULL};
    long not_quill = 0;
    cJSON_ArrayForEach(g, groups) {
        const char *sha = qt_json_str(g, "sha");
        uint8_t *spki = NULL;
        size_t spkil = 0;
        QT_CHECK(qt_json_check_fields(g, gknown, name));
        QT_CHECK(sha != NULL && strcmp(sha, "SHA-256") == 0);
        QT_CHECK(qt_json_hex(g, "publicKeyDer", &spki, &spkil));
        EVP_PKEY *key = ect_key_from_spki(libctx, spki, spkil);
        QT_CHECK(key != NULL);
        QT_CHECK(key != NULL && ect_is_quill(EVP_PKEY_get0_provider(key)));
        const cJSON *tests = qt_json_array(g, "tests"), *t;
        cJSON_ArrayForEach(t, tests) {
            long id = 0;
            const char *result = qt_json_str(t, "result");
            uint8_t *msg = NULL, *sig = NULL;
            size_t msgl = 0, sigl = 0;
            QT_CHECK(qt_json_check_fields(t, tknown, name));
            QT_CHECK(qt_json_int(t, "tcId", &id));
            QT_CHECK(qt_json_hex(t, "msg", &msg, &msgl) && qt_json_hex(t, "sig", &sig, &sigl));
            int valid = result != NULL && strcmp(result, "valid") == 0;
            QT_CHECK(result != NULL && (valid || strcmp(result, "invalid") == 0));
            uint8_t der[80];
            const uint8_t *vsig = sig;
            size_t vlen = sigl;
            int r = 0;
            const OSSL_PROVIDER *served = NULL;
            if (p1363 && sigl != 64) {
                vlen = 0; /* not a P1363 signature of P-256: invalid */
            } else if (p1363) {
                vlen = ect_p1363_to_der(sig, der, sizeof(der));
                vsig = der;
                QT_CHECK(vlen != 0);
            }
            int rf = 0;
            if (key != NULL && vlen != 0) {
                r = ect_verify(libctx, ECT_QUILL, key, "SHA256", msg, msgl, ECT_ONESHOT, vsig,
                               vlen, &served);
                QT_CHECK(r >= 0);
                if (!ect_is_quill(served))
                    not_quill++;
                EVP_PKEY *fresh = ect_key_from_spki(libctx, spki, spkil);
                QT_CHECK(fresh != NULL && ect_is_quill(EVP_PKEY_get0_provider(fresh)));
                served = NULL;
                rf = ect_verify(libctx, ECT_QUILL, fresh, "SHA256", msg, msgl, ECT_ONESHOT, vsig,
                                vlen, &served);
                QT_CHECK(rf >= 0);
                if (!ect_is_quill(served))
                    not_quill++;
                EVP_PKEY_free(fresh);
            }
            if ((rf == 1) != valid)
                fprintf(stderr, "%s tcId %ld (fresh key): expected %s, got %s\n", name, id,
                        valid ? "valid" : "invalid", rf == 1 ? "accepted" : "rejected");
            QT_CHECK((rf == 1) == valid);
            if ((r == 1) != valid)
                fprintf(stderr, "%s tcId %ld: expected %s, got %s\n", name, id,
                        valid ? "valid" : "invalid", r == 1 ? "accepted" : "rejected");
            QT_CHECK((r == 1) == valid);
            if (valid)
                (*nvalid)++;
            else
                (*ninvalid)++;
            ERR_clear_error();
            free(msg);
            free(sig);
        }
        EVP_PKEY_free(key);
        free(spki);
    }
    QT_CHECK(not_quill == 0);
    cJSON_Delete(root);
    return 0;
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    long v1 = 0, i1 = 0, v2 = 0, i2 = 0;
    int r1 = run_file("wycheproof/ecdsa_secp256r1_sha256_test.json", "ecdsa_verify_schema_v1.json",
                      0, &v1, &i1);
    int r2 = run_file("wycheproof/ecdsa_secp256r1_sha256_p1363_test.json",
                      "ecdsa_p1363_verify_schema_v1.json", 1, &v2, &i2);
    qt_libctx_free(libctx, def, quill);
    if (r1 == QT_SKIP && r2 == QT_SKIP)
        return QT_SKIP;
    QT_CHECK(r1 == 0 && r2 == 0);
    printf("DER: %ld valid, %ld invalid; P1363: %ld valid, %ld invalid\n", v1, i1, v2, i2);
    return qt_finish("ec_wycheproof");
}
