/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_threads: eight threads sign and verify at once with three shared
 * ML-DSA EVP_PKEYs (44, 65, 87: quill's keys are immutable, so one key may
 * serve many threads), through EVP_PKEY_sign, one-shot and streamed
 * EVP_DigestSign, hedged and deterministic, with contexts, and on mu.
 * Deterministic signatures must equal the ones made before the threads
 * started; every signature must verify, and verify again after a byte is
 * changed must fail.  Meant to run under the sanitizer build too. */
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
#include "qt_threads.h"
#include "test_util.h"

#define N_THREADS 8
#define N_ITERATIONS 30

static OSSL_LIB_CTX *libctx;
static EVP_PKEY *keys[MDT_NSETS];
/* Deterministic signature of "fixed" with context "ctx" under each key,
 * made before the threads start. */
static const uint8_t fixed_msg[] = "fixed";
static const uint8_t fixed_ctx[] = "ctx";
static uint8_t det_sig[MDT_NSETS][MDT_MAX_SIG];
static size_t det_len[MDT_NSETS];

static void run(qt_worker *w) {
    uint8_t sig[MDT_MAX_SIG];
    for (unsigned i = 0; i < N_ITERATIONS; i++) {
        int set = (int)((w->id + i) % MDT_NSETS);
        int mode = (int)((w->id * 5 + i) % 3); /* MDT_PKEY, MDT_DIGEST, MDT_STREAMED */
        EVP_PKEY *key = keys[set];
        const OSSL_PROVIDER *ps = NULL, *pv = NULL;
        size_t sl = sizeof(sig);
        if (i % 4 == 0) {
            /* The fixed message: deterministic, must equal the reference. */
            mdt_opts o = {.ctx = fixed_ctx, .ctx_len = 3, .has_ctx = 1, .deterministic = 1};
            QT_W_CHECK(w, mdt_sign(libctx, key, mode, &o, fixed_msg, 5, sig, &sl, &ps) == MDT_OK);
            QT_W_CHECK(w, sl == det_len[set] && memcmp(sig, det_sig[set], sl) == 0);
            QT_W_CHECK(w, mdt_is_quill(ps));
            w->ops++;
            continue;
        }
        uint8_t msg[200], ctx[16];
        size_t ml = (w->id * 37 + i * 11) % sizeof(msg);
        for (size_t j = 0; j < ml; j++)
            msg[j] = (uint8_t)(w->id * 131 + i * 17 + j);
        for (size_t j = 0; j < sizeof(ctx); j++)
            ctx[j] = (uint8_t)(w->id + j);
        int on_mu = i % 4 == 3 && ml >= 64;
        mdt_opts o = {.ctx = ctx, .ctx_len = i % 3 == 0 ? 0 : sizeof(ctx), .has_ctx = !on_mu,
                      .deterministic = (int)(i % 2), .mu = on_mu};
        if (on_mu) {
            ml = 64; /* any 64 bytes are a mu */
            mode = MDT_PKEY;
        }
        QT_W_CHECK(w, mdt_sign(libctx, key, mode, &o, msg, ml, sig, &sl, &ps) == MDT_OK);
        QT_W_CHECK(w, sl == mdt_sig_len(set));
        QT_W_CHECK(w, mdt_verify(libctx, key, mode, &o, msg, ml, sig, sl, &pv) == MDT_OK);
        QT_W_CHECK(w, mdt_is_quill(ps) && mdt_is_quill(pv));
        sig[(i * 97) % sl] ^= 0x04;
        QT_W_CHECK(w, mdt_verify(libctx, key, mode, &o, msg, ml, sig, sl, NULL) == MDT_REJECTED);
        ERR_clear_error();
        w->ops += 3;
    }
    ERR_clear_error();
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL)
        return 1;
    if (!qt_quill_has_keymgmt(libctx, "ML-DSA-44")) {
        qt_libctx_free(libctx, def, quill);
        fprintf(stderr, "quill offers no ML-DSA-44 key manager\n");
        return 1;
    }
    int ready = 1;
    for (int set = 0; set < MDT_NSETS; set++) {
        keys[set] = mdt_key_generate(libctx, mdt_name(set), NULL);
        mdt_opts o = {.ctx = fixed_ctx, .ctx_len = 3, .has_ctx = 1, .deterministic = 1};
        det_len[set] = sizeof(det_sig[set]);
        ready &= keys[set] != NULL &&
                 mdt_sign(libctx, keys[set], MDT_PKEY, &o, fixed_msg, 5, det_sig[set],
                          &det_len[set], NULL) == MDT_OK;
    }
    QT_CHECK(ready);
    if (ready)
        qt_threads_run("mldsa_threads", N_THREADS, run, 0);
    for (int set = 0; set < MDT_NSETS; set++)
        EVP_PKEY_free(keys[set]);
    qt_libctx_free(libctx, def, quill);
    return qt_finish("mldsa_threads");
}
