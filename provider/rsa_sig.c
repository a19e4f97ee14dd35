/* Copyright quill authors.
 *
 * The RSA signature operation: OSSL_PARAM and padding-mode glue around the
 * core's RSASSA-PKCS1-v1_5 and RSASSA-PSS (core/rsa/rsa.h).  Each context is
 * used by one thread at a time (OpenSSL's rule); the key it references is
 * immutable and shared. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "common/zeroize.h"
#include "digest.h"
#include "names.h"
#include "prov_err.h"
#include "algorithms.h"
#include "rng.h"
#include "rsa_algid.h"
#include "rsa_key.h"

static OSSL_FUNC_signature_newctx_fn sig_newctx;
static OSSL_FUNC_signature_freectx_fn sig_freectx;
static OSSL_FUNC_signature_dupctx_fn sig_dupctx;
static OSSL_FUNC_signature_sign_init_fn sig_sign_init;
static OSSL_FUNC_signature_sign_fn sig_sign;
static OSSL_FUNC_signature_verify_init_fn sig_verify_init;
static OSSL_FUNC_signature_verify_fn sig_verify;
static OSSL_FUNC_signature_verify_recover_init_fn sig_verify_recover_init;
static OSSL_FUNC_signature_verify_recover_fn sig_verify_recover;
static OSSL_FUNC_signature_digest_sign_init_fn sig_digest_sign_init;
static OSSL_FUNC_signature_digest_sign_update_fn sig_digest_update;
static OSSL_FUNC_signature_digest_sign_final_fn sig_digest_sign_final;
static OSSL_FUNC_signature_digest_sign_fn sig_digest_sign;
static OSSL_FUNC_signature_digest_verify_init_fn sig_digest_verify_init;
static OSSL_FUNC_signature_digest_verify_final_fn sig_digest_verify_final;
static OSSL_FUNC_signature_digest_verify_fn sig_digest_verify;
static OSSL_FUNC_signature_get_ctx_params_fn sig_get_ctx_params;
static OSSL_FUNC_signature_gettable_ctx_params_fn sig_gettable_ctx_params;
static OSSL_FUNC_signature_set_ctx_params_fn sig_set_ctx_params;
static OSSL_FUNC_signature_settable_ctx_params_fn sig_settable_ctx_params;
static OSSL_FUNC_signature_get_ctx_md_params_fn sig_get_ctx_md_params;
static OSSL_FUNC_signature_gettable_ctx_md_params_fn sig_gettable_ctx_md_params;
static OSSL_FUNC_signature_set_ctx_md_params_fn sig_set_ctx_md_params;
static OSSL_FUNC_signature_settable_ctx_md_params_fn sig_settable_ctx_md_params;

enum { OP_NONE, OP_SIGN, OP_VERIFY, OP_VERIFY_RECOVER };

typedef struct rsa_sig_ctx {
    quill_provctx *prov;
    char *propq;             /* the fetch's property query, for digests */
    quill_prov_rsa_key *key; /* one reference */
    int op;
    int pad;                 /* QUILL_PAD_PKCS1 or QUILL_PAD_PSS */
    quill_prov_digest md;    /* md.md == NULL: no digest (raw PKCS#1) */
    quill_prov_digest mgf1;  /* mgf1.md == NULL: same as md */
    int saltlen;             /* >= 0, or QUILL_SALTLEN_* */
    EVP_MD_CTX *mdctx;       /* the running hash of digest_sign/verify */
    int md_locked;           /* digest fixed by digest_*_init */
} rsa_sig_ctx;

/* ---- Context life cycle ---- */

static void *sig_newctx(void *provctx, const char *propq) {
    rsa_sig_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->prov = provctx;
    if (propq != NULL && (c->propq = OPENSSL_strdup(propq)) == NULL) {
        free(c);
        QUILL_RAISE(provctx, QUILL_R_MEMORY);
        return NULL;
    }
    c->pad = QUILL_PAD_PKCS1;
    c->saltlen = QUILL_SALTLEN_AUTO;
    return c;
}

static void sig_freectx(void *vctx) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL)
        return;
    EVP_MD_CTX_free(c->mdctx);
    quill_prov_digest_clear(&c->md);
    quill_prov_digest_clear(&c->mgf1);
    quill_prov_rsa_key_free(c->key);
    OPENSSL_free(c->propq);
    free(c);
}

static void *sig_dupctx(void *vctx) {
    const rsa_sig_ctx *src = vctx;
    rsa_sig_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        return NULL;
    }
    *c = *src;
    c->propq = NULL;
    c->mdctx = NULL;
    c->md.md = c->mgf1.md = NULL;
    if (c->key != NULL)
        quill_prov_rsa_key_up_ref(c->key);
    int ok = quill_prov_digest_copy(&c->md, &src->md) &&
             quill_prov_digest_copy(&c->mgf1, &src->mgf1) &&
             (src->propq == NULL || (c->propq = OPENSSL_strdup(src->propq)) != NULL);
    if (ok && src->mdctx != NULL) {
        /* Mid-stream duplication (EVP_MD_CTX_copy, and EVP's own
         * DigestSignFinal, which finalises a copy). */
        c->mdctx = EVP_MD_CTX_new();
        ok = c->mdctx != NULL && EVP_MD_CTX_copy_ex(c->mdctx, src->mdctx);
    }
    if (!ok) {
        QUILL_RAISE(src->prov, QUILL_R_MEMORY);
        sig_freectx(c);
        return NULL;
    }
    return c;
}

/* ---- Parameters ---- */

static const char *pad_name(int pad) {
    return pad == QUILL_PAD_PSS ? OSSL_PKEY_RSA_PAD_MODE_PSS : OSSL_PKEY_RSA_PAD_MODE_PKCSV15;
}

static int pad_from_string(const char *s) {
    static const struct {
        const char *name;
        int pad;
    } modes[] = {
        {OSSL_PKEY_RSA_PAD_MODE_PKCSV15, QUILL_PAD_PKCS1}, {OSSL_PKEY_RSA_PAD_MODE_PSS, QUILL_PAD_PSS},
        {OSSL_PKEY_RSA_PAD_MODE_NONE, QUILL_PAD_NONE},     {OSSL_PKEY_RSA_PAD_MODE_X931, QUILL_PAD_X931},
        {OSSL_PKEY_RSA_PAD_MODE_OAEP, QUILL_PAD_OAEP},
    };
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        if (strcmp(s, modes[i].name) == 0)
            return modes[i].pad;
    return -1;
}

static int set_pad(rsa_sig_ctx *c, const OSSL_PARAM *p) {
    int pad = -1;
    const char *s = NULL;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &s) || (pad = pad_from_string(s)) < 0) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "pad-mode %s", s != NULL ? s : "?");
            return 0;
        }
    } else if (!OSSL_PARAM_get_int(p, &pad)) {
        QUILL_RAISE(c->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    if (pad != QUILL_PAD_PKCS1 && pad != QUILL_PAD_PSS) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "pad-mode %d", pad);
        return 0;
    }
    if (pad == QUILL_PAD_PSS && c->op == OP_VERIFY_RECOVER) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
        return 0;
    }
    if (pad != QUILL_PAD_PSS && c->key != NULL && c->key->type == QUILL_PROV_RSA_PSS) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_PSS_RESTRICTED, "RSA-PSS keys sign only with PSS");
        return 0;
    }
    c->pad = pad;
    return 1;
}

/* Parses a salt length: an integer, or a string naming a number or one of
 * digest/max/auto/auto-digestmax.  Returns 0 if it is neither. */
static int parse_saltlen(const OSSL_PARAM *p, int *out) {
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return OSSL_PARAM_get_int(p, out);
    const char *s = NULL;
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &s))
        return 0;
    static const struct {
        const char *name;
        int value;
    } names[] = {
        {OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST, QUILL_SALTLEN_DIGEST},
        {OSSL_PKEY_RSA_PSS_SALT_LEN_MAX, QUILL_SALTLEN_MAX},
        {OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO, QUILL_SALTLEN_AUTO},
        {QUILL_PSS_SALT_LEN_AUTO_DIGEST_MAX, QUILL_SALTLEN_AUTO_DIGEST_MAX},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].value;
            return 1;
        }
    }
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < INT_MIN || v > INT_MAX)
        return 0;
    *out = (int)v;
    return 1;
}

static int set_saltlen(rsa_sig_ctx *c, const OSSL_PARAM *p) {
    int saltlen;
    if (!parse_saltlen(p, &saltlen) || saltlen < QUILL_SALTLEN_AUTO_DIGEST_MAX) {
        QUILL_RAISE(c->prov, QUILL_R_BAD_SALT_LENGTH);
        return 0;
    }
    if (c->pad != QUILL_PAD_PSS) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_SALT_LENGTH, "salt length needs PSS padding");
        return 0;
    }
    const quill_prov_pss_restrictions *r = c->key != NULL ? &c->key->pss : NULL;
    if (r != NULL && r->restricted) {
        /* RFC 4055: the key's saltLength is a minimum; verification needs
         * a definite length. */
        long hlen = (long)quill_md_size(r->md);
        if ((saltlen >= 0 && saltlen < r->min_salt) ||
            (saltlen == QUILL_SALTLEN_DIGEST && hlen < r->min_salt) ||
            (c->op == OP_VERIFY && (saltlen == QUILL_SALTLEN_AUTO ||
                                    saltlen == QUILL_SALTLEN_AUTO_DIGEST_MAX))) {
            QUILL_RAISE(c->prov, QUILL_R_PSS_RESTRICTED);
            return 0;
        }
    }
    c->saltlen = saltlen;
    return 1;
}

static int set_digest(rsa_sig_ctx *c, quill_prov_digest *d, const OSSL_PARAM *pname,
                      const OSSL_PARAM *pprops, quill_md required) {
    const char *name = NULL, *props = NULL;
    if (!OSSL_PARAM_get_utf8_string_ptr(pname, &name) ||
        (pprops != NULL && !OSSL_PARAM_get_utf8_string_ptr(pprops, &props))) {
        QUILL_RAISE(c->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    /* Explicit properties are honoured strictly; otherwise the operation's
     * own query is tried first, then none (see digest.h). */
    quill_prov_digest tmp = {0};
    if (!quill_prov_digest_fetch(&tmp, c->prov, name, pprops != NULL ? props : c->propq,
                                 pprops == NULL))
        return 0;
    if (required != QUILL_MD_NONE && tmp.id != required) {
        quill_prov_digest_clear(&tmp);
        QUILL_RAISE_MSG(c->prov, QUILL_R_PSS_RESTRICTED, "digest %s", name);
        return 0;
    }
    quill_prov_digest_clear(d);
    *d = tmp;
    return 1;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    rsa_sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    const quill_prov_pss_restrictions *r =
        c->key != NULL && c->key->pss.restricted ? &c->key->pss : NULL;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL) {
        if (c->md_locked) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_DIGEST_NOT_ALLOWED, "digest already in use");
            return 0;
        }
        const OSSL_PARAM *pp = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PROPERTIES);
        if (!set_digest(c, &c->md, p, pp, r != NULL ? r->md : QUILL_MD_NONE))
            return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL &&
        !set_pad(c, p))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) != NULL &&
        !set_saltlen(c, p))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) != NULL) {
        if (c->pad != QUILL_PAD_PSS) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "MGF1 digest needs PSS padding");
            return 0;
        }
        const OSSL_PARAM *pp =
            OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES);
        if (!set_digest(c, &c->mgf1, p, pp, r != NULL ? r->mgf1 : QUILL_MD_NONE))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM settable_params[] = {
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_END,
};

/* Without a digest fixed by digest_*_init the digest may still change. */
static const OSSL_PARAM settable_params_locked[] = {
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx) {
    const rsa_sig_ctx *c = vctx;
    return c != NULL && c->md_locked ? settable_params_locked : settable_params;
}

/* The MGF1 digest in effect: the explicit one, else the message digest. */
static const quill_prov_digest *mgf1_of(const rsa_sig_ctx *c) {
    return c->mgf1.md != NULL ? &c->mgf1 : &c->md;
}

/* The salt length a signature made now would use (RFC 8017 9.1.1, with
 * OpenSSL's keywords), or -1 (error raised) if it is impossible. */
static long sign_saltlen(const rsa_sig_ctx *c) {
    long max = quill_rsa_pss_max_salt(c->key->key, &c->md.hash);
    long hlen = (long)c->md.hash.size, s;
    switch (c->saltlen) {
    case QUILL_SALTLEN_DIGEST:
        s = hlen;
        break;
    case QUILL_SALTLEN_MAX:
    case QUILL_SALTLEN_AUTO:
        s = max;
        break;
    case QUILL_SALTLEN_AUTO_DIGEST_MAX:
        s = hlen < max ? hlen : max;
        break;
    default:
        s = c->saltlen;
        break;
    }
    if (max < 0 || s < 0 || s > max) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_SALT_LENGTH, "salt %ld, maximum %ld", s, max);
        return -1;
    }
    if (c->key->pss.restricted && s < c->key->pss.min_salt) {
        QUILL_RAISE(c->prov, QUILL_R_PSS_RESTRICTED);
        return -1;
    }
    return s;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    rsa_sig_ctx *c = vctx;
    OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL) {
        int ok = p->data_type == OSSL_PARAM_UTF8_STRING
                     ? OSSL_PARAM_set_utf8_string(p, pad_name(c->pad))
                     : OSSL_PARAM_set_int(p, c->pad);
        if (!ok)
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL) {
        const char *n = quill_prov_md_name(c->md.id);
        if (!OSSL_PARAM_set_utf8_string(p, n != NULL ? n : ""))
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) != NULL) {
        const char *n = quill_prov_md_name(mgf1_of(c)->id);
        if (!OSSL_PARAM_set_utf8_string(p, n != NULL ? n : ""))
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) != NULL) {
        int ok;
        if (p->data_type == OSSL_PARAM_UTF8_STRING) {
            char buf[24];
            const char *s = buf;
            switch (c->saltlen) {
            case QUILL_SALTLEN_DIGEST: s = OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST; break;
            case QUILL_SALTLEN_MAX: s = OSSL_PKEY_RSA_PSS_SALT_LEN_MAX; break;
            case QUILL_SALTLEN_AUTO: s = OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO; break;
            case QUILL_SALTLEN_AUTO_DIGEST_MAX: s = QUILL_PSS_SALT_LEN_AUTO_DIGEST_MAX; break;
            default: snprintf(buf, sizeof(buf), "%d", c->saltlen); break;
            }
            ok = OSSL_PARAM_set_utf8_string(p, s);
        } else {
            ok = OSSL_PARAM_set_int(p, c->saltlen);
        }
        if (!ok)
            return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        uint8_t der[QUILL_RSA_ALGID_MAX];
        size_t len = 0;
        if (c->md.md == NULL || c->key == NULL || c->key->key == NULL) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_ALGID_FAILED, "no digest or key");
            return 0;
        }
        if (c->pad == QUILL_PAD_PSS) {
            /* An explicit length is written as given (as OpenSSL does; the
             * signing itself checks it against the key). */
            long s = c->saltlen >= 0 ? c->saltlen : sign_saltlen(c);
            if (s < 0)
                return 0;
            len = quill_rsa_algid_pss(der, sizeof(der), c->md.id, mgf1_of(c)->id, s);
        } else {
            len = quill_rsa_algid_pkcs1(der, sizeof(der), c->md.id);
        }
        if (len == 0) {
            QUILL_RAISE(c->prov, QUILL_R_ALGID_FAILED);
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, der, len))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM gettable_params[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx) {
    return gettable_params;
}

static int sig_get_ctx_md_params(void *vctx, OSSL_PARAM *params) {
    rsa_sig_ctx *c = vctx;
    return c != NULL && c->mdctx != NULL && EVP_MD_CTX_get_params(c->mdctx, params);
}

static const OSSL_PARAM *sig_gettable_ctx_md_params(void *vctx) {
    rsa_sig_ctx *c = vctx;
    return c != NULL && c->md.md != NULL ? EVP_MD_gettable_ctx_params(c->md.md) : NULL;
}

static int sig_set_ctx_md_params(void *vctx, const OSSL_PARAM params[]) {
    rsa_sig_ctx *c = vctx;
    return c != NULL && c->mdctx != NULL && EVP_MD_CTX_set_params(c->mdctx, params);
}

static const OSSL_PARAM *sig_settable_ctx_md_params(void *vctx) {
    rsa_sig_ctx *c = vctx;
    return c != NULL && c->md.md != NULL ? EVP_MD_settable_ctx_params(c->md.md) : NULL;
}

/* ---- Initialisation ---- */

/* Common to every *_init: takes the key, resets padding and salt length to
 * their defaults (PKCS#1 v1.5, or PSS with the key's restrictions for an
 * RSA-PSS key), then applies |params|. */
static int sig_init(rsa_sig_ctx *c, void *provkey, const OSSL_PARAM params[], int op) {
    if (c == NULL)
        return 0;
    if (provkey != NULL) {
        quill_prov_rsa_key_up_ref(provkey);
        quill_prov_rsa_key_free(c->key);
        c->key = provkey;
    }
    if (c->key == NULL || c->key->key == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_NO_KEY);
        return 0;
    }
    if (op == OP_SIGN && !quill_rsa_key_has_private(c->key->key)) {
        QUILL_RAISE(c->prov, QUILL_R_NOT_PRIVATE_KEY);
        return 0;
    }
    c->op = op;
    c->md_locked = 0;
    c->pad = QUILL_PAD_PKCS1;
    c->saltlen = QUILL_SALTLEN_AUTO;
    if (c->key->type == QUILL_PROV_RSA_PSS) {
        if (op == OP_VERIFY_RECOVER) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
            return 0;
        }
        c->pad = QUILL_PAD_PSS;
        const quill_prov_pss_restrictions *r = &c->key->pss;
        if (r->restricted) {
            if (!quill_prov_digest_fetch(&c->md, c->prov, quill_prov_md_name(r->md), c->propq, 1) ||
                !quill_prov_digest_fetch(&c->mgf1, c->prov, quill_prov_md_name(r->mgf1), c->propq,
                                         1))
                return 0;
            c->saltlen = (int)r->min_salt;
        }
    }
    return sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, OP_SIGN);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, OP_VERIFY);
}

static int sig_verify_recover_init(void *vctx, void *provkey, const OSSL_PARAM params[]) {
    return sig_init(vctx, provkey, params, OP_VERIFY_RECOVER);
}

/* ---- Sign and verify on a digest (or raw input) ---- */

static int check_digest_len(const rsa_sig_ctx *c, size_t tbslen) {
    if (c->md.md != NULL && tbslen != c->md.hash.size) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_INVALID_DIGEST_LENGTH, "%zu bytes for %s", tbslen,
                        quill_prov_md_name(c->md.id));
        return 0;
    }
    if (c->pad == QUILL_PAD_PSS && c->md.md == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_PSS_NEEDS_DIGEST);
        return 0;
    }
    return 1;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->op != OP_SIGN || c->key == NULL) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    size_t k = quill_rsa_key_size(c->key->key);
    if (sig == NULL) {
        *siglen = k;
        return 1;
    }
    if (sigsize < k) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BUFFER_TOO_SMALL, "%zu bytes, need %zu", sigsize, k);
        return 0;
    }
    if (!check_digest_len(c, tbslen))
        return 0;
    quill_rng rng = quill_prov_rng_private(c->prov);
    quill_err err;
    if (c->pad == QUILL_PAD_PSS) {
        long salt = sign_saltlen(c);
        if (salt < 0)
            return 0;
        err = quill_rsa_pss_sign(c->key->key, sig, &c->md.hash, &mgf1_of(c)->hash, tbs, tbslen,
                                 salt, &rng);
    } else {
        err = quill_rsa_pkcs1_sign(c->key->key, sig, c->md.id, tbs, tbslen, &rng);
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *siglen = k;
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_SIGN);
    return 1;
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->op != OP_VERIFY || c->key == NULL) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    if (!check_digest_len(c, tbslen))
        return 0;
    quill_err err;
    if (c->pad == QUILL_PAD_PSS) {
        long salt;
        switch (c->saltlen) {
        case QUILL_SALTLEN_DIGEST:
            salt = (long)c->md.hash.size;
            break;
        case QUILL_SALTLEN_MAX:
            salt = quill_rsa_pss_max_salt(c->key->key, &c->md.hash);
            if (salt < 0) {
                QUILL_RAISE_CORE(c->prov, QUILL_ERR_DIGEST_TOO_BIG);
                return 0;
            }
            break;
        case QUILL_SALTLEN_AUTO:
        case QUILL_SALTLEN_AUTO_DIGEST_MAX:
            salt = QUILL_PSS_SALT_AUTO;
            break;
        default:
            salt = c->saltlen;
            break;
        }
        err = quill_rsa_pss_verify(c->key->key, sig, siglen, &c->md.hash, &mgf1_of(c)->hash, tbs,
                                   tbslen, salt);
    } else {
        err = quill_rsa_pkcs1_verify(c->key->key, sig, siglen, c->md.id, tbs, tbslen);
    }
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_VERIFY);
    return 1;
}

static int sig_verify_recover(void *vctx, unsigned char *rout, size_t *routlen, size_t routsize,
                              const unsigned char *sig, size_t siglen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->op != OP_VERIFY_RECOVER || c->key == NULL) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    if (rout == NULL) {
        *routlen = quill_rsa_key_size(c->key->key);
        return 1;
    }
    if (c->pad != QUILL_PAD_PKCS1) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
        return 0;
    }
    size_t len = 0;
    quill_err err = quill_rsa_pkcs1_recover(c->key->key, rout, routsize, &len, sig, siglen,
                                            c->md.id);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(c->prov, err);
        return 0;
    }
    *routlen = len;
    quill_stats_add(&c->prov->stats, QUILL_STAT_RSA_VERIFY);
    return 1;
}

/* ---- Sign and verify a message (hashing inside) ---- */

static int digest_init(rsa_sig_ctx *c, const char *mdname, void *provkey,
                       const OSSL_PARAM params[], int op) {
    if (!sig_init(c, provkey, NULL, op))
        return 0;
    /* EVP passes the key's default digest when the caller names none, and
     * NULL again when it re-initialises a context: keep what is set. */
    if (mdname != NULL && *mdname != '\0') {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
                                                            (char *)mdname, 0),
                           OSSL_PARAM_construct_end()};
        if (!sig_set_ctx_params(c, p))
            return 0;
    } else if (c->md.md == NULL &&
               !quill_prov_digest_fetch(&c->md, c->prov, "SHA256", c->propq, 1)) {
        return 0;
    }
    if (!sig_set_ctx_params(c, params))
        return 0;
    if (c->mdctx == NULL && (c->mdctx = EVP_MD_CTX_new()) == NULL) {
        QUILL_RAISE(c->prov, QUILL_R_MEMORY);
        return 0;
    }
    if (!EVP_DigestInit_ex2(c->mdctx, c->md.md, NULL)) {
        QUILL_RAISE(c->prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    c->md_locked = 1;
    return 1;
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *provkey,
                                const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, OP_SIGN);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *provkey,
                                  const OSSL_PARAM params[]) {
    return digest_init(vctx, mdname, provkey, params, OP_VERIFY);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->mdctx == NULL || !c->md_locked) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    if (!EVP_DigestUpdate(c->mdctx, data, datalen)) {
        QUILL_RAISE(c->prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    return 1;
}

static int finish_digest(rsa_sig_ctx *c, unsigned char *out, size_t *len) {
    unsigned int n = 0;
    if (c->mdctx == NULL || !c->md_locked) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    if (!EVP_DigestFinal_ex(c->mdctx, out, &n)) {
        QUILL_RAISE(c->prov, QUILL_R_DIGEST_FAILED);
        return 0;
    }
    *len = n;
    return 1;
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->key == NULL || c->op != OP_SIGN) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    size_t k = quill_rsa_key_size(c->key->key);
    if (sig == NULL) {
        *siglen = k;
        return 1;
    }
    if (sigsize < k) {
        /* Refused before the hash is finalised: the caller may retry. */
        QUILL_RAISE_MSG(c->prov, QUILL_R_BUFFER_TOO_SMALL, "%zu bytes, need %zu", sigsize, k);
        return 0;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    size_t dlen = 0;
    if (!finish_digest(c, digest, &dlen))
        return 0;
    c->md_locked = 0;
    return sig_sign(c, sig, siglen, sigsize, digest, dlen);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->op != OP_VERIFY) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    size_t dlen = 0;
    if (!finish_digest(c, digest, &dlen))
        return 0;
    c->md_locked = 0;
    return sig_verify(c, sig, siglen, digest, dlen);
}

static int sig_digest_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                           const unsigned char *tbs, size_t tbslen) {
    rsa_sig_ctx *c = vctx;
    if (c == NULL || c->key == NULL || c->op != OP_SIGN) {
        QUILL_RAISE(c != NULL ? c->prov : NULL, QUILL_R_OPERATION_NOT_INITIALISED);
        return 0;
    }
    size_t k = quill_rsa_key_size(c->key->key);
    if (sig == NULL) {
        *siglen = k;
        return 1;
    }
    if (sigsize < k) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BUFFER_TOO_SMALL, "%zu bytes, need %zu", sigsize, k);
        return 0;
    }
    return sig_digest_update(c, tbs, tbslen) && sig_digest_sign_final(c, sig, siglen, sigsize);
}

static int sig_digest_verify(void *vctx, const unsigned char *sig, size_t siglen,
                             const unsigned char *tbs, size_t tbslen) {
    return sig_digest_update(vctx, tbs, tbslen) && sig_digest_verify_final(vctx, sig, siglen);
}

const OSSL_DISPATCH quill_rsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (void (*)(void))sig_verify_recover_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (void (*)(void))sig_verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_digest_sign},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_digest_verify},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_ctx_params},
    {OSSL_FUNC_SIGNATURE_GET_CTX_MD_PARAMS, (void (*)(void))sig_get_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_MD_PARAMS, (void (*)(void))sig_gettable_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_MD_PARAMS, (void (*)(void))sig_set_ctx_md_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_MD_PARAMS, (void (*)(void))sig_settable_ctx_md_params},
    {0, NULL},
};
