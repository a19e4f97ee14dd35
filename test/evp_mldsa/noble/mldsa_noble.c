/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The quill side of the @noble/post-quantum cross-check (run_noble.sh runs
 * it twice around noble_check.mjs):
 *
 *   mldsa_noble gen CASES.json [N]
 *     For each set, N cases (default 20) from a fixed PRNG seed: a 32-byte
 *     key-generation seed, a message of 0..300 bytes and a context of
 *     0..255 bytes (0 and 255 included).  quill generates the key from the
 *     seed ("seed" key-generation parameter) and writes pk, sk (the exported
 *     expanded "priv"), the deterministic signature of the message with the
 *     context, a hedged one, the deterministic signature of the message as a
 *     raw M' ("message-encoding" = 0) and the deterministic signature of
 *     mu = SHAKE256(SHAKE256(pk, 64) || M', 64) with "mu" = 1 (mu computed
 *     here with the default provider's SHAKE256).  The mu signature must
 *     equal the pure one, and every signature must verify with quill.
 *
 *   mldsa_noble check NOBLE.json
 *     Verifies with quill the hedged signatures noble made (accepted), the
 *     same with one byte changed, with another context, and over another
 *     message (rejected).
 *
 * Every operation is checked to be served by quill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
#include "qt_json.h"
#include "test_util.h"

static OSSL_LIB_CTX *libctx;
static long not_quill;

static void note_served(const OSSL_PROVIDER *p) {
    if (!mdt_is_quill(p))
        not_quill++;
}

static void put_hex(FILE *f, const char *field, const uint8_t *b, size_t n, int last) {
    fprintf(f, "\"%s\": \"", field);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", b[i]);
    fprintf(f, "\"%s", last ? "" : ", ");
}

/* mu = SHAKE256(SHAKE256(pk, 64) || M', 64), FIPS 204 Algorithm 7 lines 6-7,
 * with M' = 0 || len(ctx) || ctx || msg (Algorithm 2 line 10). */
static int compute_mu(const uint8_t *pk, size_t pkl, const uint8_t *ctx, size_t ctxl,
                      const uint8_t *msg, size_t msgl, uint8_t mu[64]) {
    uint8_t tr[64], pre[2] = {0, (uint8_t)ctxl};
    EVP_MD *shake = EVP_MD_fetch(libctx, "SHAKE256", "provider=default");
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    int ok = shake != NULL && m != NULL && EVP_DigestInit_ex2(m, shake, NULL) > 0 &&
             EVP_DigestUpdate(m, pk, pkl) > 0 && EVP_DigestFinalXOF(m, tr, 64) > 0 &&
             EVP_DigestInit_ex2(m, shake, NULL) > 0 && EVP_DigestUpdate(m, tr, 64) > 0 &&
             EVP_DigestUpdate(m, pre, 2) > 0 && EVP_DigestUpdate(m, ctx, ctxl) > 0 &&
             EVP_DigestUpdate(m, msg, msgl) > 0 && EVP_DigestFinalXOF(m, mu, 64) > 0;
    EVP_MD_CTX_free(m);
    EVP_MD_free(shake);
    return ok;
}

/* Signs in[] with key and |o| (EVP_PKEY_sign); returns the length or 0. */
static size_t sign(EVP_PKEY *key, const mdt_opts *o, const uint8_t *in, size_t inl,
                   uint8_t *sig) {
    size_t sigl = MDT_MAX_SIG;
    const OSSL_PROVIDER *p = NULL;
    int r = mdt_sign(libctx, key, MDT_PKEY, o, in, inl, sig, &sigl, &p);
    note_served(p);
    if (r != MDT_OK) {
        ERR_print_errors_fp(stderr);
        return 0;
    }
    return sigl;
}

static int verify(EVP_PKEY *key, const mdt_opts *o, const uint8_t *in, size_t inl,
                  const uint8_t *sig, size_t sigl) {
    const OSSL_PROVIDER *p = NULL;
    int r = mdt_verify(libctx, key, MDT_PKEY, o, in, inl, sig, sigl, &p);
    note_served(p);
    ERR_clear_error();
    return r == MDT_OK;
}

static int gen(const char *path, int n) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    qt_rng_seed(0x6e6f626c65ull); /* "noble" */
    fprintf(f, "{\"cases\": [\n");
    int first = 1;
    static uint8_t pk[MDT_MAX_PUB], sk[MDT_MAX_PRIV];
    static uint8_t sig[MDT_MAX_SIG], hsig[MDT_MAX_SIG], rsig[MDT_MAX_SIG], musig[MDT_MAX_SIG];
    for (int set = 0; set < MDT_NSETS; set++)
        for (int i = 0; i < n; i++) {
            uint8_t seed[32], msg[300], ctx[255], mu[64];
            size_t msgl = (size_t)(qt_rng_u64() % 301);
            size_t ctxl = i == 0 ? 0 : i == 1 ? 255 : (size_t)(qt_rng_u64() % 256);
            qt_rng_bytes(seed, sizeof(seed));
            qt_rng_bytes(msg, msgl);
            qt_rng_bytes(ctx, ctxl);
            EVP_PKEY *key = mdt_key_generate(libctx, mdt_name(set), seed);
            QT_CHECK(key != NULL);
            if (key == NULL) {
                ERR_print_errors_fp(stderr);
                continue;
            }
            QT_CHECK(mdt_is_quill(qt_pkey_provider(key)));
            size_t pkl = mdt_key_octets(key, "pub", pk, sizeof(pk));
            size_t skl = mdt_key_octets(key, "priv", sk, sizeof(sk));
            QT_CHECK(pkl == mdt_pub_len(set) && skl == mdt_priv_len(set));
            mdt_opts pure = {.ctx = ctx, .ctx_len = ctxl, .has_ctx = 1, .deterministic = 1};
            mdt_opts hedged = {.ctx = ctx, .ctx_len = ctxl, .has_ctx = 1};
            mdt_opts raw = {.deterministic = 1, .encoding = 0, .set_encoding = 1};
            mdt_opts onmu = {.deterministic = 1, .mu = 1};
            size_t sl = sign(key, &pure, msg, msgl, sig);
            size_t hl = sign(key, &hedged, msg, msgl, hsig);
            size_t rl = sign(key, &raw, msg, msgl, rsig);
            QT_CHECK(compute_mu(pk, pkl, ctx, ctxl, msg, msgl, mu));
            size_t ml = sign(key, &onmu, mu, sizeof(mu), musig);
            size_t want = mdt_sig_len(set);
            QT_CHECK(sl == want && hl == want && rl == want && ml == want);
            /* mu mode computes the same signature as pure mode; hedged differs. */
            QT_CHECK(ml == sl && memcmp(musig, sig, sl) == 0);
            QT_CHECK(hl == sl && memcmp(hsig, sig, sl) != 0);
            QT_CHECK(verify(key, &pure, msg, msgl, sig, sl));
            QT_CHECK(verify(key, &pure, msg, msgl, hsig, hl));
            QT_CHECK(verify(key, &raw, msg, msgl, rsig, rl));
            QT_CHECK(verify(key, &onmu, mu, sizeof(mu), musig, ml));
            fprintf(f, "%s{\"set\": \"%s\", ", first ? "" : ",\n", mdt_name(set));
            put_hex(f, "seed", seed, sizeof(seed), 0);
            put_hex(f, "msg", msg, msgl, 0);
            put_hex(f, "ctx", ctx, ctxl, 0);
            put_hex(f, "pk", pk, pkl, 0);
            put_hex(f, "sk", sk, skl, 0);
            put_hex(f, "sig", sig, sl, 0);
            put_hex(f, "sig_hedged", hsig, hl, 0);
            put_hex(f, "sig_raw", rsig, rl, 0);
            put_hex(f, "sig_mu", musig, ml, 1);
            fprintf(f, "}");
            first = 0;
            EVP_PKEY_free(key);
        }
    fprintf(f, "\n]}\n");
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    QT_CHECK(not_quill == 0);
    printf("mldsa_noble gen: %d cases per set written to %s\n", n, path);
    return qt_finish("mldsa_noble gen");
}

static int set_index(const char *name) {
    for (int s = 0; s < MDT_NSETS; s++)
        if (name != NULL && strcmp(name, mdt_name(s)) == 0)
            return s;
    return -1;
}

static int check(const char *path) {
    size_t len = 0;
    char *text = qt_read_file(path, &len);
    cJSON *root = text != NULL ? cJSON_Parse(text) : NULL;
    free(text);
    if (root == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    static const char *const known[] = {"set", "pk", "msg", "ctx", "sig", NULL};
    const cJSON *cases = qt_json_array(root, "cases"), *c;
    long n = 0, accepted = 0, rejected = 0;
    cJSON_ArrayForEach(c, cases) {
        uint8_t *pk = NULL, *msg = NULL, *ctx = NULL, *sig = NULL;
        size_t pkl = 0, msgl = 0, ctxl = 0, sigl = 0;
        int set = set_index(qt_json_str(c, "set"));
        QT_CHECK(qt_json_check_fields(c, known, path) && set >= 0);
        QT_CHECK(qt_json_hex(c, "pk", &pk, &pkl) && qt_json_hex(c, "msg", &msg, &msgl) &&
                 qt_json_hex(c, "ctx", &ctx, &ctxl) && qt_json_hex(c, "sig", &sig, &sigl));
        EVP_PKEY *key = set >= 0 && pk != NULL
                            ? mdt_key_fromdata(libctx, mdt_name(set), NULL, 0, NULL, 0, pk, pkl)
                            : NULL;
        QT_CHECK(key != NULL);
        if (key != NULL && sig != NULL && sigl > 0) {
            n++;
            mdt_opts o = {.ctx = ctx, .ctx_len = ctxl, .has_ctx = 1};
            int ok = verify(key, &o, msg, msgl, sig, sigl);
            QT_CHECK(ok);
            accepted += ok;
            sig[sigl / 2] ^= 0x10;
            int bad1 = verify(key, &o, msg, msgl, sig, sigl);
            sig[sigl / 2] ^= 0x10;
            mdt_opts other = {.ctx = ctx, .ctx_len = ctxl, .has_ctx = 1};
            uint8_t alt[256];
            memcpy(alt, ctx, ctxl);
            if (ctxl > 0) {
                alt[0] ^= 1;
                other.ctx = alt;
            } else {
                other.ctx = (const uint8_t *)"x";
                other.ctx_len = 1;
            }
            int bad2 = verify(key, &other, msg, msgl, sig, sigl);
            uint8_t *msg2 = malloc(msgl + 1);
            QT_CHECK(msg2 != NULL);
            int bad3 = 1;
            if (msg2 != NULL) {
                memcpy(msg2, msg, msgl);
                msg2[msgl] = 0;
                bad3 = verify(key, &o, msg2, msgl + 1, sig, sigl);
                free(msg2);
            }
            QT_CHECK(!bad1 && !bad2 && !bad3);
            rejected += !bad1 + !bad2 + !bad3;
        }
        EVP_PKEY_free(key);
        free(pk);
        free(msg);
        free(ctx);
        free(sig);
    }
    cJSON_Delete(root);
    QT_CHECK(n > 0);
    QT_CHECK(not_quill == 0);
    printf("mldsa_noble check: quill accepted %ld of %ld noble signatures, rejected %ld "
           "altered ones\n", accepted, n, rejected);
    return qt_finish("mldsa_noble check");
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "gen") != 0 && strcmp(argv[1], "check") != 0)) {
        fprintf(stderr, "usage: %s gen CASES.json [N] | check NOBLE.json\n", argv[0]);
        return 2;
    }
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = mdt_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    int n = argc > 3 ? atoi(argv[3]) : 20;
    int r = strcmp(argv[1], "gen") == 0 ? gen(argv[2], n > 0 ? n : 20) : check(argv[2]);
    qt_libctx_free(libctx, def, quill);
    return r;
}
