/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_clitool: the EVP side of cli_mldsa.sh, so that signatures made by the
 * openssl CLI are checked through the EVP API and the other way round.
 *   mldsa_clitool sign   KEY.pem MSG SIG [CONTEXT_HEX]
 *   mldsa_clitool verify KEY.pem MSG SIG [CONTEXT_HEX]
 * The key (private, or public for verify) is read with OSSL_DECODER from PEM;
 * the whole message is signed or verified with EVP_PKEY_sign /
 * EVP_PKEY_verify (pure ML-DSA, the optional context string).  Exit 0 on
 * success / a valid signature, 1 on failure / an invalid signature, 2 if the
 * operation was not served by quill or the files could not be used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/decoder.h>
#include <openssl/err.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
#include "test_util.h"

static EVP_PKEY *read_key(OSSL_LIB_CTX *ctx, const char *path) {
    size_t len = 0;
    char *pem = qt_read_file(path, &len);
    if (pem == NULL)
        return NULL;
    EVP_PKEY *key = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", NULL, NULL, 0, ctx, NULL);
    const unsigned char *p = (const unsigned char *)pem;
    if (d == NULL || OSSL_DECODER_from_data(d, &p, &len) <= 0) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    free(pem);
    return key;
}

static int run(OSSL_LIB_CTX *ctx, int argc, char **argv) {
    int sign = strcmp(argv[1], "sign") == 0;
    EVP_PKEY *key = read_key(ctx, argv[2]);
    size_t msgl = 0, sigl = 0, ctxl = 0;
    char *msg = qt_read_file(argv[3], &msgl);
    uint8_t *context = NULL;
    if (key == NULL || msg == NULL ||
        (argc > 5 && !qt_hex_decode(argv[5], &context, &ctxl))) {
        fprintf(stderr, "mldsa_clitool: cannot read the key, message or context\n");
        ERR_print_errors_fp(stderr);
        EVP_PKEY_free(key);
        free(msg);
        return 2;
    }
    mdt_opts o = {.ctx = context, .ctx_len = ctxl, .has_ctx = context != NULL};
    const OSSL_PROVIDER *p = NULL;
    int rc;
    if (sign) {
        static uint8_t sig[MDT_MAX_SIG];
        sigl = sizeof(sig);
        int r = mdt_sign(ctx, key, MDT_PKEY, &o, (const uint8_t *)msg, msgl, sig, &sigl, &p);
        FILE *f = r == MDT_OK ? fopen(argv[4], "wb") : NULL;
        rc = f != NULL && fwrite(sig, 1, sigl, f) == sigl ? 0 : 1;
        if (f != NULL && fclose(f) != 0)
            rc = 1;
    } else {
        char *sig = qt_read_file(argv[4], &sigl);
        int r = sig != NULL ? mdt_verify(ctx, key, MDT_PKEY, &o, (const uint8_t *)msg, msgl,
                                         (const uint8_t *)sig, sigl, &p)
                            : MDT_INIT_FAIL;
        rc = r == MDT_OK ? 0 : 1;
        free(sig);
    }
    if (!mdt_is_quill(p)) {
        fprintf(stderr, "mldsa_clitool: %s served by %s, not quill\n", argv[1], qt_prov_name(p));
        rc = 2;
    }
    if (rc != 0)
        ERR_print_errors_fp(stderr);
    printf("mldsa_clitool %s %s: %s\n", argv[1], EVP_PKEY_get0_type_name(key),
           rc == 0 ? "ok" : "failed");
    EVP_PKEY_free(key);
    free(msg);
    free(context);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 5 || (strcmp(argv[1], "sign") != 0 && strcmp(argv[1], "verify") != 0)) {
        fprintf(stderr, "usage: %s sign|verify KEY.pem MSG SIG [CONTEXT_HEX]\n", argv[0]);
        return 2;
    }
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    OSSL_LIB_CTX *ctx = qt_evp_libctx_new(&def, &quill);
    if (ctx == NULL)
        return 2;
    int rc = run(ctx, argc, argv);
    qt_libctx_free(ctx, def, quill);
    return rc;
}
