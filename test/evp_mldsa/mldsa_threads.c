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
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "mldsa_evp.h"
#include "qt_evp.h"
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

typedef struct worker {
    pthread_t thread;
    unsigned id;
    unsigned long ops, checks, failures;
} worker;

#define W_CHECK(w, cond)                                                                  \
    do {                                                                                  \
        (w)->checks++;                                                                    \
        if (!(cond)) {                                                                    \
            (w)->failures++;                                                              \
            fprintf(stderr, "thread %u: %s:%d: check failed: %s\n", (w)->id, __FILE__,    \
                    __LINE__, #cond);                                                     \
        }                                                                                 \
    } while (0)

static void *run(void *arg) {
    worker *w = arg;
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
            W_CHECK(w, mdt_sign(libctx, key, mode, &o, fixed_msg, 5, sig, &sl, &ps) == MDT_OK);
            W_CHECK(w, sl == det_len[set] && memcmp(sig, det_sig[set], sl) == 0);
            W_CHECK(w, mdt_is_quill(ps));
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
        W_CHECK(w, mdt_sign(libctx, key, mode, &o, msg, ml, sig, &sl, &ps) == MDT_OK);
        W_CHECK(w, sl == mdt_sig_len(set));
        W_CHECK(w, mdt_verify(libctx, key, mode, &o, msg, ml, sig, sl, &pv) == MDT_OK);
        W_CHECK(w, mdt_is_quill(ps) && mdt_is_quill(pv));
        sig[(i * 97) % sl] ^= 0x04;
        W_CHECK(w, mdt_verify(libctx, key, mode, &o, msg, ml, sig, sl, NULL) == MDT_REJECTED);
        ERR_clear_error();
        w->ops += 3;
    }
    ERR_clear_error();
    return NULL;
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
    worker w[N_THREADS];
    memset(w, 0, sizeof(w));
    double t0 = qt_now();
    int started = 0;
    for (unsigned i = 0; ready && i < N_THREADS; i++) {
        w[i].id = i;
        if (pthread_create(&w[i].thread, NULL, run, &w[i]) == 0)
            started++;
        else
            break;
    }
    QT_CHECK(!ready || started == N_THREADS);
    unsigned long ops = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(w[i].thread, NULL);
        ops += w[i].ops;
        qt_checked += w[i].checks;
        qt_failed += w[i].failures;
    }
    printf("%d threads, %lu operations in %.2f s\n", started, ops, qt_now() - t0);
    for (int set = 0; set < MDT_NSETS; set++)
        EVP_PKEY_free(keys[set]);
    qt_libctx_free(libctx, def, quill);
    return qt_finish("mldsa_threads");
}
