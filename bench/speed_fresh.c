/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Verification with a key used once (speed_fresh in speed.h), as a TLS
 * client checks a server's CertificateVerify: every run decodes the public
 * key from its SubjectPublicKeyInfo DER in the library context, makes an
 * EVP_PKEY_CTX from it with a NULL property query (so that the context's
 * default properties choose the signature, and a key held by another
 * provider's key manager is exported to it), verifies one signature over
 * the fixed digest, and frees everything.  The same signature and input as
 * the "verify" row, which keeps its key. */
#include "speed.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

struct speed_fresh {
    OSSL_LIB_CTX *libctx; /* not owned */
    const speed_alg *alg;
    uint8_t *spki, *sig;
    size_t spki_len, sig_len;
    uint8_t tbs[64];
    size_t tbs_len;
};

/* One run, its times added to *acc; *served (if not NULL) gets the provider
 * of the signature. */
static int run(speed_fresh *f, speed_phases *acc, const char **served) {
    const unsigned char *p = f->spki;
    uint64_t t0 = speed_now_ns();
    EVP_PKEY *key = d2i_PUBKEY_ex(NULL, &p, (long)f->spki_len, f->libctx, NULL);
    uint64_t t1 = speed_now_ns();
    EVP_PKEY_CTX *ctx = key != NULL ? EVP_PKEY_CTX_new_from_pkey(f->libctx, key, NULL) : NULL;
    int ok = ctx != NULL && EVP_PKEY_verify_init(ctx) == 1;
    if (ok && f->alg->md != NULL) {
        OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                                 (char *)f->alg->md, 0),
                                OSSL_PARAM_construct_end()};
        ok = EVP_PKEY_CTX_set_params(ctx, params) == 1;
    }
    if (ok && served != NULL) {
        const OSSL_PROVIDER *prov = EVP_PKEY_CTX_get0_provider(ctx);
        *served = prov != NULL ? OSSL_PROVIDER_get0_name(prov) : "none";
    }
    ok = ok && EVP_PKEY_verify(ctx, f->sig, f->sig_len, f->tbs, f->tbs_len) == 1;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(key);
    uint64_t t2 = speed_now_ns();
    acc->ns[SPEED_PH_F_DECODE] += t1 - t0;
    acc->ns[SPEED_PH_F_VERIFY] += t2 - t1;
    return ok;
}

int speed_fresh_run(speed_fresh *f, speed_phases *acc) {
    return run(f, acc, NULL);
}

speed_fresh *speed_fresh_new(OSSL_LIB_CTX *libctx, const char *expect, const speed_alg *alg,
                             const uint8_t *spki, size_t spki_len, const uint8_t *sig,
                             size_t sig_len) {
    speed_fresh *f = calloc(1, sizeof(*f));
    if (f == NULL)
        return NULL;
    f->libctx = libctx;
    f->alg = alg;
    const char *served = "none";
    if ((f->spki = malloc(spki_len)) == NULL || (f->sig = malloc(sig_len)) == NULL ||
        !speed_fixed_input(libctx, alg, f->tbs, sizeof(f->tbs), &f->tbs_len))
        goto fail;
    memcpy(f->spki, spki, spki_len);
    memcpy(f->sig, sig, sig_len);
    f->spki_len = spki_len;
    f->sig_len = sig_len;
    speed_phases unused = {{0}};
    if (!run(f, &unused, &served) || strcmp(served, expect) != 0)
        goto fail;
    return f;
fail:
    fprintf(stderr, "quill-speed: %s fresh-key verification failed or was not served by %s "
                    "(served by %s)\n",
            alg->label, expect, served);
    ERR_print_errors_fp(stderr);
    speed_fresh_free(f);
    return NULL;
}

void speed_fresh_free(speed_fresh *f) {
    if (f == NULL)
        return;
    free(f->spki);
    free(f->sig);
    free(f);
}
