/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "rsa_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "common/zeroize.h"
#include "digest.h"
#include "params.h"
#include "prov_err.h"

/* The OpenSSL parameter name of each core field, in quill_rsa_field order. */
static const char *const field_names[] = {
    [QUILL_RSA_N] = OSSL_PKEY_PARAM_RSA_N,
    [QUILL_RSA_E] = OSSL_PKEY_PARAM_RSA_E,
    [QUILL_RSA_D] = OSSL_PKEY_PARAM_RSA_D,
    [QUILL_RSA_P] = OSSL_PKEY_PARAM_RSA_FACTOR1,
    [QUILL_RSA_Q] = OSSL_PKEY_PARAM_RSA_FACTOR2,
    [QUILL_RSA_DP] = OSSL_PKEY_PARAM_RSA_EXPONENT1,
    [QUILL_RSA_DQ] = OSSL_PKEY_PARAM_RSA_EXPONENT2,
    [QUILL_RSA_QINV] = OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
#define FIELD_COUNT 8

/* Parameters naming a third or later prime: keys quill refuses. */
static const char *const multiprime_names[] = {
    OSSL_PKEY_PARAM_RSA_FACTOR3,       OSSL_PKEY_PARAM_RSA_FACTOR4,
    OSSL_PKEY_PARAM_RSA_FACTOR5,       OSSL_PKEY_PARAM_RSA_FACTOR6,
    OSSL_PKEY_PARAM_RSA_FACTOR7,       OSSL_PKEY_PARAM_RSA_FACTOR8,
    OSSL_PKEY_PARAM_RSA_FACTOR9,       OSSL_PKEY_PARAM_RSA_FACTOR10,
    OSSL_PKEY_PARAM_RSA_EXPONENT3,     OSSL_PKEY_PARAM_RSA_EXPONENT4,
    OSSL_PKEY_PARAM_RSA_EXPONENT5,     OSSL_PKEY_PARAM_RSA_EXPONENT6,
    OSSL_PKEY_PARAM_RSA_EXPONENT7,     OSSL_PKEY_PARAM_RSA_EXPONENT8,
    OSSL_PKEY_PARAM_RSA_EXPONENT9,     OSSL_PKEY_PARAM_RSA_EXPONENT10,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT2,  OSSL_PKEY_PARAM_RSA_COEFFICIENT3,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT4,  OSSL_PKEY_PARAM_RSA_COEFFICIENT5,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT6,  OSSL_PKEY_PARAM_RSA_COEFFICIENT7,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT8,  OSSL_PKEY_PARAM_RSA_COEFFICIENT9,
};

quill_prov_rsa_key *quill_prov_rsa_key_new(quill_provctx *prov, quill_prov_rsa_type type) {
    quill_prov_rsa_key *k = quill_key_obj_alloc(prov, sizeof(*k));
    if (k == NULL)
        return NULL;
    k->prov = prov;
    k->type = type;
    quill_key_ref_init(&k->refs);
    return k;
}

void quill_prov_rsa_key_up_ref(quill_prov_rsa_key *k) {
    quill_key_ref_up(&k->refs);
}

void quill_prov_rsa_key_free(quill_prov_rsa_key *k) {
    if (k == NULL || !quill_key_ref_down(&k->refs))
        return;
    quill_rsa_key_free(k->key);
    quill_zeroize(k, sizeof(*k));
    OPENSSL_free(k);
}

/* ---- PSS restrictions (RSA-PSS keys) ---- */

int quill_prov_rsa_key_set_pss(quill_prov_rsa_key *k, const OSSL_PARAM params[]) {
    const OSSL_PARAM *pmd = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_DIGEST);
    const OSSL_PARAM *pmgf = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MGF1_DIGEST);
    const OSSL_PARAM *pmgfn = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_MASKGENFUNC);
    const OSSL_PARAM *psalt = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PSS_SALTLEN);
    const OSSL_PARAM *pprops = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_DIGEST_PROPS);
    if (pmd == NULL && pmgf == NULL && pmgfn == NULL && psalt == NULL)
        return 1; /* an unrestricted RSA-PSS key */
    const char *props = NULL; /* NULL data: no property query */
    if (pprops != NULL && !quill_param_get_string_ptr(pprops, &props)) {
        QUILL_RAISE(k->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    /* RFC 4055 defaults, which OpenSSL leaves out of its export: SHA-1,
     * MGF1 with SHA-1 (whatever the hash), 20 bytes of salt. */
    const char *mdname = "SHA1", *mgfname = "SHA1";
    if (pmd != NULL && !quill_param_get_utf8(pmd, &mdname)) {
        QUILL_RAISE(k->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    if (pmgf != NULL && !quill_param_get_utf8(pmgf, &mgfname)) {
        QUILL_RAISE(k->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    if (pmgfn != NULL) {
        const char *fn = NULL;
        if (!quill_param_get_utf8(pmgfn, &fn) || OPENSSL_strcasecmp(fn, "MGF1") != 0) {
            QUILL_RAISE(k->prov, QUILL_R_UNSUPPORTED_KEY);
            return 0;
        }
    }
    int salt = 20;
    if (psalt != NULL && (!OSSL_PARAM_get_int(psalt, &salt) || salt < 0)) {
        QUILL_RAISE(k->prov, QUILL_R_BAD_SALT_LENGTH);
        return 0;
    }
    quill_prov_digest md = {0}, mgf = {0};
    if (!quill_prov_digest_fetch(&md, k->prov, mdname, props, 1))
        return 0;
    if (!quill_prov_digest_fetch(&mgf, k->prov, mgfname, props, 1)) {
        quill_prov_digest_clear(&md);
        return 0;
    }
    k->pss.restricted = 1;
    k->pss.md = md.id;
    k->pss.mgf1 = mgf.id;
    k->pss.min_salt = salt;
    quill_prov_digest_clear(&md);
    quill_prov_digest_clear(&mgf);
    return 1;
}

/* ---- Import ---- */

int quill_prov_rsa_key_import(quill_prov_rsa_key *k, int selection, const OSSL_PARAM params[]) {
    if (k == NULL)
        return 0;
    if (k->key != NULL) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "key object already filled");
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        /* Only domain parameters (RSA has none; RSA-PSS has its restrictions). */
        if (k->type == QUILL_PROV_RSA_PSS && (selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS))
            return quill_prov_rsa_key_set_pss(k, params);
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "no key selected");
        return 0;
    }
    for (size_t i = 0; i < sizeof(multiprime_names) / sizeof(multiprime_names[0]); i++) {
        if (OSSL_PARAM_locate_const(params, multiprime_names[i]) != NULL) {
            QUILL_RAISE_MSG(k->prov, QUILL_R_UNSUPPORTED_KEY, "multi-prime RSA key");
            return 0;
        }
    }

    int want_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    uint8_t *buf[FIELD_COUNT] = {0};
    size_t len[FIELD_COUNT] = {0};
    int ok = 0;
    for (size_t f = 0; f < FIELD_COUNT; f++) {
        if (f > QUILL_RSA_E && !want_private)
            break;
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, field_names[f]);
        if (p == NULL)
            continue;
        if (!quill_param_get_be(p, &buf[f], &len[f])) {
            QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "bad %s", field_names[f]);
            goto done;
        }
    }
    if (buf[QUILL_RSA_N] == NULL || buf[QUILL_RSA_E] == NULL) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "n and e are required");
        goto done;
    }
    size_t crt = 0;
    for (size_t f = QUILL_RSA_P; f <= QUILL_RSA_QINV; f++)
        crt += buf[f] != NULL;
    if (crt != 0 && (crt != 5 || buf[QUILL_RSA_D] == NULL)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "partial private key");
        goto done;
    }
    quill_rsa_components c;
    quill_bytes *dst[FIELD_COUNT] = {&c.n, &c.e, &c.d, &c.p, &c.q, &c.dp, &c.dq, &c.qinv};
    for (size_t f = 0; f < FIELD_COUNT; f++) {
        dst[f]->data = buf[f];
        dst[f]->len = len[f];
    }
    if (k->type == QUILL_PROV_RSA_PSS && (selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0 &&
        !quill_prov_rsa_key_set_pss(k, params))
        goto done;
    quill_rsa_key *key = NULL;
    quill_err err = quill_rsa_key_new(&key, &c);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        k->pss.restricted = 0;
        goto done;
    }
    k->key = key;
    ok = 1;
done:
    for (size_t f = 0; f < FIELD_COUNT; f++)
        quill_param_free_be(buf[f], len[f]);
    return ok;
}

/* ---- Export ---- */

/* A field read out of the core key into a native-endian buffer; secrets are
 * zeroised by fields_free. */
typedef struct field_buf {
    uint8_t *data;
    size_t len;
} field_buf;

static void fields_free(field_buf *b, size_t count) {
    for (size_t i = 0; i < count; i++)
        quill_param_free_be(b[i].data, b[i].len);
}

/* Reads field f as native-endian bytes (what OSSL_PARAM integers hold). */
static int field_read(const quill_prov_rsa_key *k, quill_rsa_field f, field_buf *out) {
    size_t need = 0;
    if (quill_rsa_key_get(k->key, f, NULL, 0, &need) != QUILL_OK || need == 0)
        return 0;
    uint8_t *be = OPENSSL_malloc(need);
    if (be == NULL)
        return 0;
    size_t got = 0;
    if (quill_rsa_key_get(k->key, f, be, need, &got) != QUILL_OK) {
        quill_param_free_be(be, need);
        return 0;
    }
    OSSL_PARAM tmp = OSSL_PARAM_construct_BN("x", NULL, 0);
    out->data = OPENSSL_malloc(got);
    out->len = got;
    if (out->data == NULL) {
        quill_param_free_be(be, need);
        return 0;
    }
    tmp.data = out->data;
    tmp.data_size = got;
    int ok = quill_param_set_be(&tmp, be, got);
    quill_param_free_be(be, need);
    return ok;
}

int quill_prov_rsa_key_export(const quill_prov_rsa_key *k, int selection, OSSL_CALLBACK *cb,
                              void *cbarg) {
    if (k == NULL || k->key == NULL) {
        QUILL_RAISE(k != NULL ? k->prov : NULL, QUILL_R_NO_KEY);
        return 0;
    }
    field_buf bufs[FIELD_COUNT] = {{0}};
    OSSL_PARAM params[FIELD_COUNT + 5];
    size_t np = 0;
    int ok = 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0) {
        size_t last = QUILL_RSA_E;
        if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && quill_rsa_key_has_private(k->key))
            last = quill_rsa_key_has_crt(k->key) ? QUILL_RSA_QINV : QUILL_RSA_D;
        for (size_t f = 0; f <= last; f++) {
            if (!field_read(k, (quill_rsa_field)f, &bufs[f])) {
                QUILL_RAISE(k->prov, QUILL_R_MEMORY);
                goto done;
            }
            params[np++] = OSSL_PARAM_construct_BN(field_names[f], bufs[f].data, bufs[f].len);
        }
    }
    char mdname[32], mgfname[32];
    int salt = 0;
    if (k->type == QUILL_PROV_RSA_PSS && k->pss.restricted &&
        (selection & OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS) != 0) {
        snprintf(mdname, sizeof(mdname), "%s", quill_prov_md_name(k->pss.md));
        snprintf(mgfname, sizeof(mgfname), "%s", quill_prov_md_name(k->pss.mgf1));
        salt = (int)k->pss.min_salt;
        params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_DIGEST, mdname, 0);
        params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_MASKGENFUNC,
                                                        (char *)"MGF1", 0);
        params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_RSA_MGF1_DIGEST,
                                                        mgfname, 0);
        params[np++] = OSSL_PARAM_construct_int(OSSL_PKEY_PARAM_RSA_PSS_SALTLEN, &salt);
    }
    params[np] = OSSL_PARAM_construct_end();
    ok = cb(params, cbarg);
done:
    fields_free(bufs, FIELD_COUNT);
    return ok;
}

int quill_prov_rsa_key_get_components(const quill_prov_rsa_key *k, OSSL_PARAM params[]) {
    if (k->key == NULL)
        return 1;
    for (size_t f = 0; f < FIELD_COUNT; f++) {
        OSSL_PARAM *p = OSSL_PARAM_locate(params, field_names[f]);
        if (p == NULL)
            continue;
        if (f >= QUILL_RSA_D && !quill_rsa_key_has_private(k->key))
            continue;
        if (f >= QUILL_RSA_P && !quill_rsa_key_has_crt(k->key))
            continue;
        size_t need = 0;
        if (quill_rsa_key_get(k->key, (quill_rsa_field)f, NULL, 0, &need) != QUILL_OK)
            return 0;
        uint8_t *be = OPENSSL_malloc(need);
        size_t got = 0;
        if (be == NULL || quill_rsa_key_get(k->key, (quill_rsa_field)f, be, need, &got) != QUILL_OK) {
            quill_param_free_be(be, need);
            QUILL_RAISE(k->prov, QUILL_R_MEMORY);
            return 0;
        }
        int ok = quill_param_set_be(p, be, got);
        quill_param_free_be(be, need);
        if (!ok) {
            QUILL_RAISE_MSG(k->prov, QUILL_R_BUFFER_TOO_SMALL, "%s", field_names[f]);
            return 0;
        }
    }
    return 1;
}

/* ---- Dup ---- */

quill_prov_rsa_key *quill_prov_rsa_key_dup(const quill_prov_rsa_key *k, int selection) {
    quill_prov_rsa_key *d = quill_prov_rsa_key_new(k->prov, k->type);
    if (d == NULL)
        return NULL;
    d->pss = k->pss;
    if (k->key == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return d;
    /* A copy of the core key (its own Montgomery contexts; the core key
     * itself is never shared mutably).  Not a re-import: a key quill
     * generated below QUILL_RSA_IMPORT_MIN_BITS must stay duplicable. */
    int with_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    quill_err err = quill_rsa_key_dup(&d->key, k->key, with_private);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        quill_prov_rsa_key_free(d);
        return NULL;
    }
    return d;
}

/* ---- Security strength ---- */

/* Natural logarithm for x > 0 without libm: x = m * 2^e with m in [1, 2),
 * ln x = e ln 2 + 2 atanh((m - 1) / (m + 1)), the series converging fast. */
static double ln_d(double x) {
    static const double ln2 = 0.69314718055994530942;
    int e = 0;
    while (x >= 2.0) {
        x /= 2.0;
        e++;
    }
    while (x < 1.0) {
        x *= 2.0;
        e--;
    }
    double t = (x - 1.0) / (x + 1.0), t2 = t * t, term = t, sum = 0.0;
    for (int i = 1; i < 60; i += 2) {
        sum += term / i;
        term *= t2;
    }
    return e * ln2 + 2.0 * sum;
}

/* Cube root for a > 0 by Newton's method. */
static double cbrt_d(double a) {
    double y = a > 1.0 ? a / 3.0 : 1.0;
    for (int i = 0; i < 200; i++)
        y -= (y * y * y - a) / (3.0 * y * y);
    return y;
}

int quill_prov_rsa_security_bits(size_t bits) {
    /* Canonical strengths of the common sizes (SP 800-57 part 1 table 2 and
     * OpenSSL's choices for the others). */
    static const struct {
        size_t bits;
        int strength;
    } pinned[] = {{2048, 112}, {3072, 128}, {4096, 152}, {6144, 176},
                  {7680, 192}, {8192, 200}, {15360, 256}};
    for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
        if (pinned[i].bits == bits)
            return pinned[i].strength;
    if (bits < 8)
        return 0;
    /* SP 800-56B rev 2, appendix D (and FIPS 140 IG D.B):
     *   E = (1.923 * cbrt(n ln 2) * (ln(n ln 2))^(2/3) - 4.69) / ln 2
     *     = (1.923 * cbrt(x * (ln x)^2) - 4.69) / ln 2,  x = n ln 2,
     * truncated, then rounded to the nearest multiple of 8. */
    static const double ln2 = 0.69314718055994530942;
    double x = (double)bits * ln2, lx = ln_d(x);
    double e = (1.923 * cbrt_d(x * lx * lx) - 4.69) / ln2;
    int y = e > 0 ? (int)e : 0;
    y = (y + 4) & ~7;
    /* Keep the result non-decreasing across the pinned sizes, which the
     * formula slightly overestimates just below them. */
    int cap = bits <= 7680 ? 192 : bits <= 15360 ? 256 : 1200;
    return y < cap ? y : cap;
}
