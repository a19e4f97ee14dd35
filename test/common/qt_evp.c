/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "qt_evp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/rsa.h>

#include "test_util.h"

static char standin_propq[128];

const char *qt_quill_propq(void) {
    const char *standin = getenv("QT_STANDIN_PROVIDER");
    if (standin == NULL || *standin == '\0')
        return "provider=quill";
    snprintf(standin_propq, sizeof(standin_propq), "provider=%s", standin);
    return standin_propq;
}

static OSSL_LIB_CTX *standin_libctx_new(const char *standin, OSSL_PROVIDER **def,
                                        OSSL_PROVIDER **quill) {
    fprintf(stderr, "NOTE: QT_STANDIN_PROVIDER=%s: testing it in place of quill\n", standin);
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    if (ctx == NULL)
        return NULL;
    *def = OSSL_PROVIDER_load(ctx, "default");
    *quill = OSSL_PROVIDER_load(ctx, standin);
    if (*def == NULL || *quill == NULL) {
        ERR_print_errors_fp(stderr);
        qt_libctx_free(ctx, *def, *quill);
        return NULL;
    }
    return ctx;
}

OSSL_LIB_CTX *qt_evp_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill) {
    const char *standin = getenv("QT_STANDIN_PROVIDER");
    OSSL_LIB_CTX *ctx = (standin != NULL && *standin != '\0')
                            ? standin_libctx_new(standin, def, quill)
                            : qt_libctx_new(def, quill);
    if (ctx == NULL)
        return NULL;
    if (!EVP_set_default_properties(ctx, QT_QUILL_DEFAULT_PROPS)) {
        ERR_print_errors_fp(stderr);
        qt_libctx_free(ctx, *def, *quill);
        *def = *quill = NULL;
        return NULL;
    }
    return ctx;
}

int qt_quill_has_keymgmt(OSSL_LIB_CTX *ctx, const char *name) {
    ERR_set_mark();
    EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(ctx, name, qt_quill_propq());
    ERR_pop_to_mark();
    EVP_KEYMGMT_free(km);
    return km != NULL;
}

const OSSL_PROVIDER *qt_pctx_provider(const EVP_PKEY_CTX *pctx) {
    return pctx != NULL ? EVP_PKEY_CTX_get0_provider(pctx) : NULL;
}

const char *qt_prov_name(const OSSL_PROVIDER *p) {
    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

const OSSL_PROVIDER *qt_pkey_provider(const EVP_PKEY *key) {
    return key != NULL ? EVP_PKEY_get0_provider(key) : NULL;
}

int qt_error_has_reason(void) {
    unsigned long e = ERR_peek_last_error();
    int ok = e != 0 && ERR_reason_error_string(e) != NULL;
    if (getenv("QT_VERBOSE") != NULL || (e != 0 && !ok)) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof(buf));
        fprintf(stderr, "  error: %s\n", e != 0 ? buf : "(queue empty)");
    }
    ERR_clear_error();
    return ok;
}

int qt_set_sigparams(EVP_PKEY_CTX *pctx, const qt_sigparams *p) {
    if (EVP_PKEY_CTX_set_rsa_padding(pctx, p->pad) <= 0)
        return 0;
    if (p->pad != RSA_PKCS1_PSS_PADDING)
        return 1;
    if (p->mgf1 != NULL && EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, p->mgf1, NULL) <= 0)
        return 0;
    if (p->saltlen != NULL && p->int_saltlen) {
        static const struct {
            const char *name;
            int value;
        } named[] = {{"digest", -1}, {"auto", -2}, {"max", -3}, {"auto-digestmax", -4}};
        char *end = NULL;
        long v = strtol(p->saltlen, &end, 10);
        int value = (int)v, found = *p->saltlen != '\0' && *end == '\0';
        for (size_t i = 0; !found && i < QT_ARRAY_LEN(named); i++)
            if (strcmp(p->saltlen, named[i].name) == 0) {
                value = named[i].value;
                found = 1;
            }
        return found && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, value) > 0;
    }
    if (p->saltlen != NULL) {
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN,
                                                     (char *)p->saltlen, 0);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_PKEY_CTX_set_params(pctx, params) <= 0)
            return 0;
    }
    return 1;
}

/* Feeds |msg| in uneven pieces (1, 2, 3, ... bytes) to exercise buffering. */
typedef int (*update_fn)(EVP_MD_CTX *, const void *, size_t);

static int feed(EVP_MD_CTX *md, update_fn update, const uint8_t *msg, size_t len) {
    size_t off = 0, step = 1;
    while (off < len) {
        size_t take = len - off < step ? len - off : step;
        if (update(md, msg + off, take) <= 0)
            return 0;
        off += take;
        step = step * 3 + 1;
    }
    return len > 0 || update(md, msg, 0) > 0;
}

int qt_digest_sign(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const qt_sigparams *p,
                   const uint8_t *msg, size_t msg_len, int mode, uint8_t *sig, size_t *sig_len,
                   const OSSL_PROVIDER **served) {
    int ok = 0;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (served != NULL)
        *served = NULL;
    if (md == NULL || EVP_DigestSignInit_ex(md, &pctx, p->md, ctx, propq, key, NULL) <= 0)
        goto done;
    if (served != NULL)
        *served = qt_pctx_provider(pctx);
    if (!qt_set_sigparams(pctx, p))
        goto done;
    if (mode == QT_STREAMED) {
        ok = feed(md, EVP_DigestSignUpdate, msg, msg_len) &&
             EVP_DigestSignFinal(md, sig, sig_len) > 0;
    } else {
        ok = EVP_DigestSign(md, sig, sig_len, msg, msg_len) > 0;
    }
done:
    EVP_MD_CTX_free(md);
    return ok;
}

int qt_digest_verify(OSSL_LIB_CTX *ctx, const char *propq, EVP_PKEY *key, const qt_sigparams *p,
                     const uint8_t *msg, size_t msg_len, int mode, const uint8_t *sig,
                     size_t sig_len, const OSSL_PROVIDER **served) {
    int ret = -1;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (served != NULL)
        *served = NULL;
    if (md == NULL || EVP_DigestVerifyInit_ex(md, &pctx, p->md, ctx, propq, key, NULL) <= 0)
        goto done;
    if (served != NULL)
        *served = qt_pctx_provider(pctx);
    if (!qt_set_sigparams(pctx, p))
        goto done;
    if (mode == QT_STREAMED) {
        if (!feed(md, EVP_DigestVerifyUpdate, msg, msg_len)) {
            ret = 0;
            goto done;
        }
        ret = EVP_DigestVerifyFinal(md, sig, sig_len) == 1;
    } else {
        ret = EVP_DigestVerify(md, sig, sig_len, msg, msg_len) == 1;
    }
done:
    EVP_MD_CTX_free(md);
    return ret;
}

EVP_PKEY *qt_rsa_keygen(OSSL_LIB_CTX *ctx, const char *propq, unsigned bits) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *gctx = EVP_PKEY_CTX_new_from_name(ctx, "RSA", propq);
    if (gctx == NULL || EVP_PKEY_keygen_init(gctx) <= 0 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(gctx, (int)bits) <= 0 ||
        EVP_PKEY_generate(gctx, &key) <= 0) {
        ERR_print_errors_fp(stderr);
        key = NULL;
    }
    EVP_PKEY_CTX_free(gctx);
    return key;
}
