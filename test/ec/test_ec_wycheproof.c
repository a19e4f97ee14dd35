/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Wycheproof ECDSA P-256 / SHA-256 at the core level:
 * ecdsa_secp256r1_sha256_test.json (DER signatures, parsed with the strict
 * quill_ecdsa_p256_sig_from_der) and ecdsa_secp256r1_sha256_p1363_test.json
 * (r || s, exactly 64 bytes).  Public keys are decoded from
 * publicKey.uncompressed and cross-checked against wx/wy and the SPKI.
 * Every "valid" test must verify, every "invalid" one must be rejected (no
 * "acceptable" results exist in these files; one would be an error).
 * Exits 77 if the vector files are absent. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "ec/ecdsa.h"
#include "ec/ecdsa_der.h"
#include "qt_json.h"
#include "test_util.h"

/* SPKI prefix for an id-ecPublicKey prime256v1 uncompressed point. */
static const uint8_t spki_prefix[] = {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48,
                                      0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
                                      0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00};

/* Big-endian coordinate with an optional leading 00 equals the 32 bytes. */
static int coord_matches(const uint8_t *c, size_t clen, const uint8_t want[32]) {
    while (clen > 32 && c[0] == 0) {
        c++;
        clen--;
    }
    if (clen > 32)
        return 0;
    for (size_t i = 0; i < 32 - clen; i++)
        if (want[i] != 0)
            return 0;
    return memcmp(c, want + 32 - clen, clen) == 0;
}

static int flags_known(const cJSON *test, const cJSON *notes) {
    const cJSON *flags = cJSON_GetObjectItemCaseSensitive(test, "flags"), *f;
    int ok = cJSON_IsArray(flags);
    cJSON_ArrayForEach(f, flags) {
        if (!cJSON_IsString(f) || !cJSON_GetObjectItemCaseSensitive(notes, f->valuestring)) {
            fprintf(stderr, "flag not described in notes\n");
            ok = 0;
        }
    }
    return ok;
}

static int run_file(const char *name, const char *schema, int p1363, long *nvalid,
                    long *ninvalid) {
    int absent;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL)
        return absent ? QT_SKIP : 1;
    QT_CHECK(qt_json_check_header(root, schema));
    const cJSON *notes = cJSON_GetObjectItemCaseSensitive(root, "notes");
    const cJSON *groups = qt_json_array(root, "testGroups"), *g;
    static const char *const gknown[] = {"type", "source", "publicKey", "publicKeyDer",
                                         "publicKeyPem", "publicKeyJwk", "sha", "tests", NULL};
    static const char *const pknown[] = {"type", "curve", "keySize", "uncompressed", "wx", "wy",
                                         NULL};
    static const char *const tknown[] = {"tcId", "comment", "flags", "msg", "sig", "result", NULL};
    cJSON_ArrayForEach(g, groups) {
        const cJSON *pk = cJSON_GetObjectItemCaseSensitive(g, "publicKey");
        const char *sha = qt_json_str(g, "sha"), *curve = qt_json_str(pk, "curve");
        uint8_t *u = NULL, *wx = NULL, *wy = NULL, *spki = NULL;
        size_t ul = 0, wxl = 0, wyl = 0, spkil = 0;
        long keysize = 0;
        quill_p256_public pub;
        QT_CHECK(qt_json_check_fields(g, gknown, name));
        QT_CHECK(qt_json_check_fields(pk, pknown, name));
        QT_CHECK(sha != NULL && strcmp(sha, "SHA-256") == 0);
        QT_CHECK(curve != NULL && strcmp(curve, "secp256r1") == 0);
        QT_CHECK(qt_json_int(pk, "keySize", &keysize) && keysize == 256);
        QT_CHECK(qt_json_hex(pk, "uncompressed", &u, &ul) && qt_json_hex(pk, "wx", &wx, &wxl) &&
                 qt_json_hex(pk, "wy", &wy, &wyl) && qt_json_hex(g, "publicKeyDer", &spki, &spkil));
        QT_CHECK(quill_p256_public_decode(&pub, u, ul) == QUILL_OK);
        QT_CHECK(ul == 65 && coord_matches(wx, wxl, u + 1) && coord_matches(wy, wyl, u + 33));
        QT_CHECK(spkil == sizeof(spki_prefix) + 65 &&
                 memcmp(spki, spki_prefix, sizeof(spki_prefix)) == 0 &&
                 memcmp(spki + sizeof(spki_prefix), u, 65) == 0);
        const cJSON *t;
        cJSON_ArrayForEach(t, qt_json_array(g, "tests")) {
            uint8_t *msg = NULL, *sigb = NULL, dg[32], sig[64];
            size_t msgl = 0, sigl = 0;
            long tcid = 0;
            const char *result = qt_json_str(t, "result");
            QT_CHECK(qt_json_check_fields(t, tknown, name));
            QT_CHECK(flags_known(t, notes));
            QT_CHECK(qt_json_str(t, "comment") != NULL);
            if (!qt_json_int(t, "tcId", &tcid) || !qt_json_hex(t, "msg", &msg, &msgl) ||
                !qt_json_hex(t, "sig", &sigb, &sigl) || result == NULL) {
                qt_failed++;
                free(msg);
                free(sigb);
                continue;
            }
            int valid = strcmp(result, "valid") == 0;
            QT_CHECK(valid || strcmp(result, "invalid") == 0);
            unsigned dl = 0;
            QT_CHECK(EVP_Digest(msg, msgl, dg, &dl, EVP_sha256(), NULL) == 1 && dl == 32);
            quill_err err;
            if (p1363) {
                if (sigl == 64) {
                    memcpy(sig, sigb, 64);
                    err = QUILL_OK;
                } else {
                    err = QUILL_ERR_BAD_SIGNATURE;
                }
            } else {
                err = quill_ecdsa_p256_sig_from_der(sig, sigb, sigl);
            }
            if (err == QUILL_OK)
                err = quill_ecdsa_p256_verify(&pub, dg, 32, sig);
            int accepted = err == QUILL_OK;
            if (accepted != valid)
                fprintf(stderr, "%s tcId %ld: expected %s, quill says %d\n", name, tcid, result,
                        (int)err);
            QT_CHECK(accepted == valid);
            QT_CHECK(accepted || err == QUILL_ERR_BAD_SIGNATURE);
            *(valid ? nvalid : ninvalid) += 1;
            free(msg);
            free(sigb);
        }
        free(u);
        free(wx);
        free(wy);
        free(spki);
    }
    cJSON_Delete(root);
    return 0;
}

int main(void) {
    long v1 = 0, i1 = 0, v2 = 0, i2 = 0;
    int r1 = run_file("wycheproof/ecdsa_secp256r1_sha256_test.json", "ecdsa_verify_schema_v1.json",
                      0, &v1, &i1);
    int r2 = run_file("wycheproof/ecdsa_secp256r1_sha256_p1363_test.json",
                      "ecdsa_p1363_verify_schema_v1.json", 1, &v2, &i2);
    if (r1 == QT_SKIP && r2 == QT_SKIP)
        return QT_SKIP;
    QT_CHECK(r1 == 0 && r2 == 0);
    printf("DER: %ld valid, %ld invalid; P1363: %ld valid, %ld invalid\n", v1, i1, v2, i2);
    QT_CHECK(v1 + i1 == 484 && v2 + i2 == 262);
    return qt_finish("ec_wycheproof");
}
