/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * alloc_fail: for every N from 1 until a flow completes without reaching an
 * Nth allocation, the flow runs with its Nth allocation failed, counting
 * quill's core allocations (the test hook of core/common/alloc.h, compiled
 * into the core variant quill_core_fault only) and OpenSSL's (its memory
 * functions, CRYPTO_set_mem_functions, set before anything allocates:
 * they also count the provider's OPENSSL_malloc).  quill is the provider
 * objects linked into this program over quill_core_fault and registered
 * with OSSL_PROVIDER_add_builtin, so quill.so itself carries no hook.
 *
 * Flows, for RSA-2048 PKCS#1 v1.5, RSA-2048 PSS, ECDSA P-256 and ML-DSA-65,
 * each operation requested from quill ("provider=quill"):
 *   sign     EVP_DigestSign with a key quill holds;
 *   verify   EVP_DigestVerify of a valid signature;
 *   keygen   EVP_PKEY_keygen, the key then used once to sign;
 *   import   EVP_PKEY_fromdata of the key's parameters, then one signature;
 *   reuse    EVP_PKEY_fromdata of the public key, then two verifications
 *            with it: the second builds the key's lazy verification state
 *            (ECDSA's table of multiples of Q, ML-DSA's t1 in NTT form),
 *            which the other flows build once, in their warm-up run;
 *   reject   verification of a corrupted signature: never 1 (no false
 *            accept on any allocation failure path);
 *   pem, der OSSL_DECODER of the PrivateKeyInfo (PEM, DER), then one
 *            signature with quill (which imports an RSA or EC key into
 *            quill's key manager: only ML-DSA has quill's own decoder).
 * Every run must end either with a failure and an error in the queue
 * (ERR_peek_error() != 0; if the failed allocation was quill's, core or
 * provider, an error raised by quill itself, seen through a spy on its
 * error upcall, since OpenSSL 3.0 drops a provider's errors in some paths;
 * OpenSSL's own functions, called by the test, sometimes fail without an
 * error, e.g. EVP_MD_CTX_new: counted, not quill's), or with a correct
 * result: verify returns 1;
 * every produced signature verifies, with the allocation hook disarmed,
 * under the reference key in a library context with the default provider
 * alone (RSA, ECDSA) or, for ML-DSA, which OpenSSL 3.0's default provider
 * lacks, by quill's verification (checked against the ACVP and Wycheproof
 * vectors by the mldsa suites).  Crashes and sanitizer reports end the
 * program; leaks are found by LeakSanitizer at exit (QUILL_SANITIZE=ON),
 * with the stack of the leaked block.
 *
 * QT_ALLOC_FAIL_STRIDE=k (optional) tries every k-th N only, and
 * QT_ALLOC_FAIL_ALG=name runs only the algorithms whose name contains
 * |name| (e.g. "PSS"), and QT_ALLOC_FAIL_N=n runs each flow once with
 * allocation n failed (to debug one case); CTest runs every N of every
 * flow. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include "common/alloc.h"
#include "test_util.h"

/* ---- Counting and failing allocations ---- */

/* Who made a failed allocation: quill's core, quill's provider
 * (OPENSSL_malloc in provider/), OpenSSL called by quill's provider (the
 * innermost frame of this program above the allocation is quill's), or
 * OpenSSL called by this test directly.  quill must raise an error for the
 * first three; OpenSSL's own functions sometimes fail without one (e.g.
 * EVP_MD_CTX_new returns NULL and queues nothing, as documented), which
 * is reported but is not quill's to fix. */
enum { SRC_CORE, SRC_PROVIDER, SRC_VIA_QUILL, SRC_OPENSSL, SRC_COUNT };
static const char *const src_names[SRC_COUNT] = {"quill core", "quill provider",
                                                 "OpenSSL under quill", "OpenSSL"};

/* Every function of this file is in the section qt_af_text, so that a
 * return address can be told from the provider's code linked beside it. */
#define QT_TEXT __attribute__((section("qt_af_text"), noinline))
extern const char __start_qt_af_text[], __stop_qt_af_text[];

static int in_test(void *pc) {
    return (const char *)pc >= __start_qt_af_text && (const char *)pc < __stop_qt_af_text;
}

/* The return addresses of the stack, by the unwind tables (.eh_frame):
 * glibc's backtrace() is replaced by AddressSanitizer's frame-pointer walk,
 * which stops at libcrypto (built without frame pointers). */
typedef struct unwind_state {
    void **frames;
    int n, cap;
} unwind_state;

QT_TEXT static _Unwind_Reason_Code unwind_one(struct _Unwind_Context *uc, void *arg) {
    unwind_state *st = arg;
    if (st->n >= st->cap)
        return _URC_END_OF_STACK;
    st->frames[st->n++] = (void *)_Unwind_GetIP(uc);
    return _URC_NO_REASON;
}

/* SRC_VIA_QUILL if the innermost frame of this executable above OpenSSL's
 * allocator is not the test's, else SRC_OPENSSL. */
QT_TEXT static int openssl_caller(void) {
    void *frames[96];
    unwind_state st = {frames, 0, 96};
    _Unwind_Backtrace(unwind_one, &st);
    int n = st.n;
    Dl_info self, fi;
    if (dladdr((void *)openssl_caller, &self) == 0)
        return SRC_OPENSSL;
    int i = 0;
    while (i < n && in_test(frames[i]))
        i++; /* this function, should_fail, t_malloc */
    for (; i < n; i++) {
        if (dladdr(frames[i], &fi) == 0 || fi.dli_fbase != self.dli_fbase)
            continue; /* libcrypto, libc, the sanitizer runtime */
        return in_test(frames[i]) ? SRC_OPENSSL : SRC_VIA_QUILL;
    }
    return SRC_OPENSSL;
}

static int armed;                    /* count (and fail) allocations now */
static unsigned long alloc_count;    /* allocations since the flow began */
static unsigned long fail_at;        /* the one to fail (1-based) */
static int failed_src = -1;          /* who made the failed allocation */
static char failed_where[160];       /* its file:line (OpenSSL's allocator) */
static unsigned long injected[SRC_COUNT];
static unsigned long quill_raises;    /* errors quill raised (spy_vset_error) */

QT_TEXT static int should_fail(int src, const char *file, int line) {
    if (!armed)
        return 0;
    if (++alloc_count != fail_at)
        return 0;
    failed_src = src == SRC_OPENSSL ? openssl_caller() : src;
    injected[failed_src]++;
    snprintf(failed_where, sizeof(failed_where), "%s:%d", file != NULL ? file : "?", line);
    return 1;
}

QT_TEXT static int core_hook(void *arg) {
    (void)arg;
    return should_fail(SRC_CORE, "core", 0);
}

QT_TEXT static int src_of(const char *file) {
    static const char prov[] = QUILL_SOURCE_DIR "/provider/";
    return file != NULL && strncmp(file, prov, sizeof(prov) - 1) == 0 ? SRC_PROVIDER
                                                                        : SRC_OPENSSL;
}

QT_TEXT static void *t_malloc(size_t n, const char *file, int line) {
    return should_fail(src_of(file), file, line) ? NULL : malloc(n);
}

QT_TEXT static void *t_realloc(void *p, size_t n, const char *file, int line) {
    return should_fail(src_of(file), file, line) ? NULL : realloc(p, n);
}

QT_TEXT static void t_free(void *p, const char *file, int line) {
    (void)file;
    (void)line;
    free(p);
}

/* ---- Contexts, keys and the message ---- */

static OSSL_LIB_CTX *lq, *ld; /* default + quill (built in); default alone */
static const char PROPQ[] = "provider=quill";
static const unsigned char msg[] = "allocation failure test message";

typedef struct alg {
    const char *name;    /* the flow's name in the report */
    const char *keytype; /* EVP key type */
    const char *md;      /* digest for EVP_DigestSign, or NULL */
    int pss;             /* RSA PSS padding */
    EVP_PKEY *ref;       /* reference key: ld's (RSA, EC) or quill's (ML-DSA) */
    EVP_PKEY *held;      /* the same key held by quill */
    unsigned char *pem, *der;
    size_t pem_len, der_len;
    unsigned char sig[8192]; /* a valid signature, for the verify flow */
    size_t sig_len;
} alg;

QT_TEXT static int set_pad(const alg *a, EVP_PKEY_CTX *pc) {
    if (!a->pss)
        return 1;
    return EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
           EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) == 1;
}

/* Signs msg with quill; 1 on success. */
QT_TEXT static int quill_sign(const alg *a, EVP_PKEY *key, unsigned char *sig, size_t *sig_len) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    int ok = m != NULL && EVP_DigestSignInit_ex(m, &pc, a->md, lq, PROPQ, key, NULL) == 1 &&
             set_pad(a, pc) && EVP_DigestSign(m, sig, sig_len, msg, sizeof(msg)) == 1;
    EVP_MD_CTX_free(m);
    return ok;
}

/* Verifies with |key| in |ctx| (propq may be NULL); returns EVP's verdict. */
QT_TEXT static int do_verify(const alg *a, OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key,
                     const unsigned char *sig, size_t sig_len) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    int r = -1;
    if (m != NULL && EVP_DigestVerifyInit_ex(m, &pc, a->md, ctx, propq, key, NULL) == 1 &&
        set_pad(a, pc))
        r = EVP_DigestVerify(m, sig, sig_len, msg, sizeof(msg));
    EVP_MD_CTX_free(m);
    return r;
}

/* The independent check of a signature produced by quill (hook disarmed):
 * the default provider with the reference key, or quill for ML-DSA. */
QT_TEXT static int sig_ok(const alg *a, const unsigned char *sig, size_t sig_len) {
    if (strcmp(a->keytype, "ML-DSA-65") == 0)
        return do_verify(a, lq, PROPQ, a->ref, sig, sig_len) == 1;
    return do_verify(a, ld, NULL, a->ref, sig, sig_len) == 1;
}

/* An independent check that |key| (from keygen) is a working key pair:
 * quill signs and the default provider verifies with its public part (or
 * quill for ML-DSA). */
QT_TEXT static int key_works(const alg *a, EVP_PKEY *key) {
    unsigned char sig[8192];
    size_t sig_len = sizeof(sig);
    if (!quill_sign(a, key, sig, &sig_len))
        return 0;
    if (strcmp(a->keytype, "ML-DSA-65") == 0)
        return do_verify(a, lq, PROPQ, key, sig, sig_len) == 1;
    OSSL_PARAM *pub = NULL;
    EVP_PKEY_CTX *fc = EVP_PKEY_CTX_new_from_name(ld, a->keytype, NULL);
    EVP_PKEY *dk = NULL;
    int ok = fc != NULL && EVP_PKEY_todata(key, EVP_PKEY_PUBLIC_KEY, &pub) == 1 &&
             EVP_PKEY_fromdata_init(fc) == 1 &&
             EVP_PKEY_fromdata(fc, &dk, EVP_PKEY_PUBLIC_KEY, pub) == 1 &&
             do_verify(a, ld, NULL, dk, sig, sig_len) == 1;
    OSSL_PARAM_free(pub);
    EVP_PKEY_free(dk);
    EVP_PKEY_CTX_free(fc);
    return ok;
}

/* ---- The flows: 1 = correct result, 0 = failed (error expected) ---- */

/* Totals for the report. */
static unsigned long runs, runs_failed, runs_ok, openssl_silent, false_accepts, quill_silent;
static unsigned long via_quill_failed, via_quill_raised;

typedef struct flow_out {
    unsigned char sig[8192];
    size_t sig_len;
    EVP_PKEY *key; /* a key the flow made (keygen, import, decode) */
} flow_out;

QT_TEXT static int flow_sign(alg *a, flow_out *o) {
    o->sig_len = sizeof(o->sig);
    return quill_sign(a, a->held, o->sig, &o->sig_len);
}

QT_TEXT static int flow_verify(alg *a, flow_out *o) {
    (void)o;
    return do_verify(a, lq, PROPQ, a->held, a->sig, a->sig_len) == 1;
}

QT_TEXT static int flow_keygen(alg *a, flow_out *o) {
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(lq, a->keytype, PROPQ);
    int ok = g != NULL && EVP_PKEY_keygen_init(g) == 1;
    if (ok && strcmp(a->keytype, "RSA") == 0)
        ok = EVP_PKEY_CTX_set_rsa_keygen_bits(g, 2048) == 1;
    if (ok && strcmp(a->keytype, "EC") == 0)
        ok = EVP_PKEY_CTX_set_group_name(g, "P-256") == 1;
    ok = ok && EVP_PKEY_keygen(g, &o->key) == 1;
    EVP_PKEY_CTX_free(g);
    return ok;
}

static OSSL_PARAM *ref_params; /* the current alg's key as parameters */

QT_TEXT static int flow_import(alg *a, flow_out *o) {
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(lq, a->keytype, PROPQ);
    int ok = f != NULL && EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &o->key, EVP_PKEY_KEYPAIR, ref_params) == 1;
    EVP_PKEY_CTX_free(f);
    o->sig_len = sizeof(o->sig);
    return ok && quill_sign(a, o->key, o->sig, &o->sig_len);
}

QT_TEXT static int flow_reuse(alg *a, flow_out *o) {
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(lq, a->keytype, PROPQ);
    int ok = f != NULL && EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &o->key, EVP_PKEY_PUBLIC_KEY, ref_params) == 1 &&
             do_verify(a, lq, PROPQ, o->key, a->sig, a->sig_len) == 1 &&
             do_verify(a, lq, PROPQ, o->key, a->sig, a->sig_len) == 1;
    EVP_PKEY_CTX_free(f);
    return ok;
}

QT_TEXT static int flow_reject(alg *a, flow_out *o) {
    (void)o;
    unsigned char bad[sizeof(a->sig)];
    memcpy(bad, a->sig, a->sig_len);
    bad[a->sig_len / 2] ^= 0x10;
    if (do_verify(a, lq, PROPQ, a->held, bad, a->sig_len) == 1) {
        false_accepts++;
        fprintf(stderr, "%s: a corrupted signature verified (N=%lu)\n", a->name, fail_at);
        QT_CHECK(0);
    }
    return 1; /* 0 or an error are both correct verdicts */
}

QT_TEXT static int decode(alg *a, flow_out *o, const char *type, const unsigned char *data,
                  size_t len) {
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&o->key, type, "PrivateKeyInfo",
                                                        a->keytype, EVP_PKEY_KEYPAIR, lq, NULL);
    int ok = d != NULL && OSSL_DECODER_from_data(d, &data, &len) == 1 && o->key != NULL;
    OSSL_DECODER_CTX_free(d);
    o->sig_len = sizeof(o->sig);
    return ok && quill_sign(a, o->key, o->sig, &o->sig_len);
}

QT_TEXT static int flow_pem(alg *a, flow_out *o) {
    return decode(a, o, "PEM", a->pem, a->pem_len);
}

QT_TEXT static int flow_der(alg *a, flow_out *o) {
    return decode(a, o, "DER", a->der, a->der_len);
}

typedef struct flow {
    const char *name;
    int (*run)(alg *a, flow_out *o);
    int makes_sig, makes_key;
} flow;

static const flow flows[] = {
    {"sign", flow_sign, 1, 0},     {"verify", flow_verify, 0, 0}, {"keygen", flow_keygen, 0, 1},
    {"import", flow_import, 1, 1}, {"pem", flow_pem, 1, 1},       {"der", flow_der, 1, 1},
    {"reuse", flow_reuse, 0, 0},   {"reject", flow_reject, 0, 0},
};

/* Runs |f| once with allocation |n| failed (n = 0: none).  Returns the
 * number of allocations the flow made (counted up to the end). */
QT_TEXT static unsigned long run_once(alg *a, const flow *f, unsigned long n, int *hit) {
    flow_out *o = calloc(1, sizeof(*o));
    QT_CHECK(o != NULL);
    if (o == NULL)
        return 0;
    ERR_clear_error();
    unsigned long raises_before = quill_raises;
    alloc_count = 0;
    fail_at = n;
    failed_src = -1;
    armed = 1;
    int ok = f->run(a, o);
    armed = 0;
    *hit = failed_src >= 0;
    runs++;
    if (ok) {
        runs_ok++;
        int good = 1;
        if (f->makes_sig)
            good = sig_ok(a, o->sig, o->sig_len);
        else if (f->makes_key)
            good = key_works(a, o->key);
        if (!good)
            fprintf(stderr, "%s %s N=%lu: success with a wrong result (failed: %s %s)\n",
                    a->name, f->name, n, failed_src >= 0 ? src_names[failed_src] : "none",
                    failed_src >= 0 ? failed_where : "");
        QT_CHECK(good);
    } else {
        runs_failed++;
        int raised = ERR_peek_error() != 0;
        via_quill_failed += failed_src == SRC_VIA_QUILL;
        /* For its own allocations (core or provider), quill itself must
         * have raised an error (seen by the spy on its error upcall: OpenSSL
         * 3.0 pops a provider's errors in some paths, e.g. exporting a key
         * to quill inside EVP_DigestSignInit, and raises its own). */
        int quill_raised = quill_raises != raises_before;
        if ((failed_src == SRC_CORE || failed_src == SRC_PROVIDER) && !quill_raised) {
            quill_silent++;
            fprintf(stderr, "%s %s N=%lu: %s allocation failed (%s), no error from quill\n",
                    a->name, f->name, n, src_names[failed_src], failed_where);
        }
        QT_CHECK(quill_raised || (failed_src != SRC_CORE && failed_src != SRC_PROVIDER));
        if (failed_src == SRC_VIA_QUILL) {
            via_quill_raised += quill_raised;
            if (!quill_raised && getenv("QT_VERBOSE") != NULL)
                fprintf(stderr, "%s %s N=%lu: OpenSSL allocation under quill (%s) failed: "
                        "OpenSSL's error only\n", a->name, f->name, n, failed_where);
        }
        if (!raised && failed_src == SRC_OPENSSL)
            openssl_silent++;
        if ((!raised && failed_src != SRC_OPENSSL) || failed_src < 0 || getenv("QT_VERBOSE"))
            fprintf(stderr, "%s %s N=%lu: failed %s (failed allocation: %s %s)\n", a->name,
                    f->name, n, raised ? "with an error" : "without an error",
                    failed_src >= 0 ? src_names[failed_src] : "none",
                    failed_src >= 0 ? failed_where : "");
        QT_CHECK(raised || failed_src == SRC_OPENSSL);
        QT_CHECK(failed_src >= 0); /* it fails only because of the injection */
    }
    ERR_clear_error();
    EVP_PKEY_free(o->key);
    free(o);
    return alloc_count;
}

/* ---- Setup (no injection) ---- */

QT_TEXT static int export_codings(alg *a) {
    OSSL_ENCODER_CTX *e;
    int ok = 1;
    e = OSSL_ENCODER_CTX_new_for_pkey(a->ref, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", NULL);
    ok &= e != NULL && OSSL_ENCODER_to_data(e, &a->pem, &a->pem_len) == 1;
    OSSL_ENCODER_CTX_free(e);
    e = OSSL_ENCODER_CTX_new_for_pkey(a->ref, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL);
    ok &= e != NULL && OSSL_ENCODER_to_data(e, &a->der, &a->der_len) == 1;
    OSSL_ENCODER_CTX_free(e);
    return ok;
}

QT_TEXT static int setup_alg(alg *a) {
    if (strcmp(a->keytype, "ML-DSA-65") == 0) {
        EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(lq, a->keytype, PROPQ);
        if (g == NULL || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_keygen(g, &a->ref) != 1)
            a->ref = NULL;
        EVP_PKEY_CTX_free(g);
    } else if (strcmp(a->keytype, "RSA") == 0) {
        a->ref = EVP_PKEY_Q_keygen(ld, NULL, "RSA", (size_t)2048);
    } else {
        a->ref = EVP_PKEY_Q_keygen(ld, NULL, "EC", "P-256");
    }
    if (a->ref == NULL || !export_codings(a))
        return 0;
    OSSL_PARAM *p = NULL;
    EVP_PKEY_CTX *f = EVP_PKEY_CTX_new_from_name(lq, a->keytype, PROPQ);
    int ok = EVP_PKEY_todata(a->ref, EVP_PKEY_KEYPAIR, &p) == 1 && f != NULL &&
             EVP_PKEY_fromdata_init(f) == 1 &&
             EVP_PKEY_fromdata(f, &a->held, EVP_PKEY_KEYPAIR, p) == 1;
    OSSL_PARAM_free(p);
    EVP_PKEY_CTX_free(f);
    a->sig_len = sizeof(a->sig);
    return ok && quill_sign(a, a->held, a->sig, &a->sig_len) && sig_ok(a, a->sig, a->sig_len);
}

extern OSSL_provider_init_fn OSSL_provider_init;

/* quill is registered through spy_init, which hands OSSL_provider_init the
 * core's dispatch table with the error upcall (core_vset_error) replaced by
 * spy_vset_error: it counts quill's errors, then forwards them. */
static OSSL_FUNC_core_vset_error_fn *real_vset_error;
static OSSL_DISPATCH spy_in[128];

QT_TEXT static void spy_vset_error(const OSSL_CORE_HANDLE *h, uint32_t reason, const char *fmt,
                                   va_list args) {
    quill_raises++;
    real_vset_error(h, reason, fmt, args);
}

QT_TEXT static int spy_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                            const OSSL_DISPATCH **out, void **provctx) {
    size_t i = 0;
    for (; in[i].function_id != 0 && i + 1 < QT_ARRAY_LEN(spy_in); i++) {
        spy_in[i] = in[i];
        if (in[i].function_id == OSSL_FUNC_CORE_VSET_ERROR) {
            real_vset_error = OSSL_FUNC_core_vset_error(&in[i]);
            spy_in[i].function = (void (*)(void))spy_vset_error;
        }
    }
    if (in[i].function_id != 0 || real_vset_error == NULL)
        return 0;
    spy_in[i] = in[i];
    return OSSL_provider_init(handle, spy_in, out, provctx);
}

QT_TEXT int main(void) {
    /* Before anything allocates through OpenSSL. */
    if (!CRYPTO_set_mem_functions(t_malloc, t_realloc, t_free)) {
        fprintf(stderr, "alloc_fail: CRYPTO_set_mem_functions refused (too late)\n");
        return 1;
    }
    quill_alloc_set_test_hook(core_hook, NULL);
    unsigned long stride = 1;
    const char *s = getenv("QT_ALLOC_FAIL_STRIDE");
    if (s != NULL && strtoul(s, NULL, 10) > 0)
        stride = strtoul(s, NULL, 10);

    OSSL_PROVIDER *pq_def = NULL, *pq = NULL, *pd_def = NULL;
    lq = OSSL_LIB_CTX_new();
    ld = OSSL_LIB_CTX_new();
    int ok = lq != NULL && ld != NULL &&
             OSSL_PROVIDER_add_builtin(lq, "quill", spy_init) == 1 &&
             (pq_def = OSSL_PROVIDER_load(lq, "default")) != NULL &&
             (pq = OSSL_PROVIDER_load(lq, "quill")) != NULL &&
             (pd_def = OSSL_PROVIDER_load(ld, "default")) != NULL;
    if (!ok) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "alloc_fail: cannot set up the library contexts\n");
        return 1;
    }

    static alg algs[] = {
        {.name = "RSA-2048 PKCS#1", .keytype = "RSA", .md = "SHA256"},
        {.name = "RSA-2048 PSS", .keytype = "RSA", .md = "SHA256", .pss = 1},
        {.name = "ECDSA P-256", .keytype = "EC", .md = "SHA256"},
        {.name = "ML-DSA-65", .keytype = "ML-DSA-65"},
    };
    double t0 = qt_now();
    for (size_t i = 0; i < QT_ARRAY_LEN(algs); i++) {
        alg *a = &algs[i];
        const char *only = getenv("QT_ALLOC_FAIL_ALG");
        if (only != NULL && strstr(a->name, only) == NULL)
            continue;
        if (!setup_alg(a)) {
            ERR_print_errors_fp(stderr);
            fprintf(stderr, "alloc_fail: %s: setup failed\n", a->name);
            QT_CHECK(0);
            continue;
        }
        QT_CHECK(EVP_PKEY_todata(a->ref, EVP_PKEY_KEYPAIR, &ref_params) == 1);
        for (size_t j = 0; j < QT_ARRAY_LEN(flows); j++) {
            const flow *f = &flows[j];
            int hit = 0;
            /* A warm-up run: fills OpenSSL's fetch caches, so that the
             * sweep exercises the flow rather than one-time set-up. */
            unsigned long base = run_once(a, f, 0, &hit);
            unsigned long n = 1, tried = 0, before[SRC_COUNT];
            memcpy(before, injected, sizeof(before));
            double t = qt_now();
            const char *one = getenv("QT_ALLOC_FAIL_N");
            if (one != NULL) { /* debugging: this N only */
                run_once(a, f, strtoul(one, NULL, 10), &hit);
                continue;
            }
            for (;; n += stride) {
                run_once(a, f, n, &hit);
                tried++;
                if (!hit)
                    break; /* the flow made fewer than n allocations */
            }
            printf("%-16s %-6s %5lu allocations, N = 1..%lu step %lu (%lu runs): failed "
                   "%lu core, %lu provider, %lu OpenSSL-under-quill, %lu OpenSSL; %.1f s\n",
                   a->name, f->name, base, n, stride, tried,
                   injected[SRC_CORE] - before[SRC_CORE],
                   injected[SRC_PROVIDER] - before[SRC_PROVIDER],
                   injected[SRC_VIA_QUILL] - before[SRC_VIA_QUILL],
                   injected[SRC_OPENSSL] - before[SRC_OPENSSL], qt_now() - t);
            fflush(stdout);
        }
        OSSL_PARAM_free(ref_params);
        ref_params = NULL;
    }
    printf("alloc_fail: %lu runs (%lu ended with an error, %lu with a checked result), "
           "failed allocations: %lu core, %lu provider, %lu OpenSSL-under-quill, %lu OpenSSL "
           "(%lu of these failed without an error: OpenSSL's own); %lu false accepts; "
           "stride %lu; %.1f s\n"
           "alloc_fail: runs that failed on a core or provider allocation without an error "
           "from quill: %lu; runs that failed on an OpenSSL allocation under quill: %lu "
           "with an error from quill, of %lu\n",
           runs, runs_failed, runs_ok, injected[SRC_CORE], injected[SRC_PROVIDER],
           injected[SRC_VIA_QUILL], injected[SRC_OPENSSL], openssl_silent, false_accepts, stride,
           qt_now() - t0, quill_silent, via_quill_raised, via_quill_failed);
    if (getenv("QT_ALLOC_FAIL_ALG") == NULL)
        QT_CHECK(injected[SRC_CORE] > 0 && injected[SRC_PROVIDER] > 0 &&
                 injected[SRC_VIA_QUILL] > 0 && injected[SRC_OPENSSL] > 0);

    for (size_t i = 0; i < QT_ARRAY_LEN(algs); i++) {
        EVP_PKEY_free(algs[i].ref);
        EVP_PKEY_free(algs[i].held);
        OPENSSL_free(algs[i].pem);
        OPENSSL_free(algs[i].der);
    }
    quill_alloc_set_test_hook(NULL, NULL);
    OSSL_PROVIDER_unload(pq);
    OSSL_PROVIDER_unload(pq_def);
    OSSL_PROVIDER_unload(pd_def);
    OSSL_LIB_CTX_free(lq);
    OSSL_LIB_CTX_free(ld);
    return qt_finish("alloc_fail");
}
