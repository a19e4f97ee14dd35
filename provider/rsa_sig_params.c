/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Parameters of the RSA signature context (see rsa_sig.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "names.h"
#include "params.h"
#include "prov_err.h"
#include "rsa_algid.h"
#include "core_version.h"
#include "rsa_sig.h"
#include "sig_params.h"

static const char *pad_name(int pad) {
    switch (pad) {
    case QUILL_PAD_PSS:
        return OSSL_PKEY_RSA_PAD_MODE_PSS;
    case QUILL_PAD_NONE:
        return OSSL_PKEY_RSA_PAD_MODE_NONE;
    case QUILL_PAD_X931:
        return OSSL_PKEY_RSA_PAD_MODE_X931;
    default:
        return OSSL_PKEY_RSA_PAD_MODE_PKCSV15;
    }
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

/* Parses "pad-mode" (a name or an RSA_*_PADDING integer) into *out and
 * checks it against the operation and the key as OpenSSL's default
 * provider does: PKCS#1 v1.5, PSS (not for verify-recover), none and X9.31
 * (the last two, like PKCS#1 v1.5, for plain RSA keys: an RSA-PSS key
 * signs with PSS only); OAEP and anything else is refused. */
static int parse_pad(const quill_rsa_sig_ctx *c, const OSSL_PARAM *p, int *out) {
    int pad = -1;
    const char *s = NULL;
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        if (!quill_param_get_utf8(p, &s) || (pad = pad_from_string(s)) < 0) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "pad-mode %s", s != NULL ? s : "?");
            return 0;
        }
    } else if (!OSSL_PARAM_get_int(p, &pad)) {
        QUILL_RAISE(c->prov, QUILL_R_BAD_PARAMETER);
        return 0;
    }
    if (pad != QUILL_PAD_PKCS1 && pad != QUILL_PAD_PSS && pad != QUILL_PAD_NONE &&
        pad != QUILL_PAD_X931) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "pad-mode %d", pad);
        return 0;
    }
    if (pad == QUILL_PAD_PSS && c->op == QUILL_SIG_OP_VERIFY_RECOVER) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_NOT_SUPPORTED, "PSS signatures cannot be recovered");
        return 0;
    }
    if (pad != QUILL_PAD_PSS && c->key != NULL && c->key->type == QUILL_PROV_RSA_PSS) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_PSS_RESTRICTED, "RSA-PSS keys sign only with PSS");
        return 0;
    }
    *out = pad;
    return 1;
}

/* The padding and the digest in effect must agree (OpenSSL's
 * rsa_check_padding): no padding takes no digest, X9.31 one with an X9.31
 * hash identifier. */
static int check_pad_digest(const quill_rsa_sig_ctx *c, int pad, quill_md md) {
    if (pad == QUILL_PAD_NONE && md != QUILL_MD_NONE) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE, "no padding takes no digest (%s set)",
                        quill_prov_md_name(md));
        return 0;
    }
    if (pad == QUILL_PAD_X931 && quill_rsa_x931_hash_id(md) == 0) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_PAD_MODE,
                        "X9.31 needs SHA1, SHA256, SHA384 or SHA512 (digest %s)",
                        md != QUILL_MD_NONE ? quill_prov_md_name(md) : "none");
        return 0;
    }
    return 1;
}

/* Parses a salt length: an integer, or a string naming a number or one of
 * digest/max/auto/auto-digestmax.  Returns 0 if it is neither. */
static int parse_saltlen(const OSSL_PARAM *p, int *out) {
    if (p->data_type != OSSL_PARAM_UTF8_STRING)
        return OSSL_PARAM_get_int(p, out);
    const char *s = NULL;
    if (!quill_param_get_utf8(p, &s))
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

static int set_saltlen(quill_rsa_sig_ctx *c, const OSSL_PARAM *p) {
    int saltlen;
    if (!parse_saltlen(p, &saltlen) || saltlen < QUILL_SALTLEN_AUTO_DIGEST_MAX) {
        QUILL_RAISE(c->prov, QUILL_R_BAD_SALT_LENGTH);
        return 0;
    }
    /* auto-digestmax came with OpenSSL 3.1: on an older core the default
     * provider refuses it, and so does quill, so that loading quill changes
     * no verdict. */
    if (saltlen == QUILL_SALTLEN_AUTO_DIGEST_MAX &&
        c->prov->core_version < QUILL_CORE_VERSION(3, 1, 0)) {
        QUILL_RAISE_MSG(c->prov, QUILL_R_BAD_SALT_LENGTH,
                        "salt length auto-digestmax needs OpenSSL 3.1 or later");
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
            (c->op == QUILL_SIG_OP_VERIFY && (saltlen == QUILL_SALTLEN_AUTO ||
                                    saltlen == QUILL_SALTLEN_AUTO_DIGEST_MAX))) {
            QUILL_RAISE(c->prov, QUILL_R_PSS_RESTRICTED);
            return 0;
        }
    }
    c->saltlen = saltlen;
    return 1;
}

int quill_rsa_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    quill_rsa_sig_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    const quill_prov_pss_restrictions *r =
        c->key != NULL && c->key->pss.restricted ? &c->key->pss : NULL;
    /* The digest and the padding are checked together before either is
     * applied (set in one call, they may only make sense together). */
    quill_prov_digest md = {0};
    int pad = c->pad;
    if (!quill_sig_stream_fetch_digest(&c->stream, c->prov, c->propq, params,
                                       r != NULL ? r->md : QUILL_MD_NONE, &md))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL &&
        !parse_pad(c, p, &pad)) {
        quill_prov_digest_clear(&md);
        return 0;
    }
    /* PSS with no digest at all takes SHA-1, the RSASSA-PSS-params default
     * (RFC 8017 A.2.3), as OpenSSL's default provider does. */
    if (pad == QUILL_PAD_PSS && md.md == NULL && c->stream.md.md == NULL &&
        !quill_prov_digest_fetch_for(&md, c->prov, "SHA1", c->propq, 1, QUILL_PROV_SCHEME_RSA))
        return 0;
    if (!check_pad_digest(c, pad, md.md != NULL ? md.id : c->stream.md.id)) {
        quill_prov_digest_clear(&md);
        return 0;
    }
    if (md.md != NULL) {
        quill_prov_digest_clear(&c->stream.md);
        c->stream.md = md;
    }
    c->pad = pad;
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
        if (!quill_sig_fetch_digest(&c->mgf1, c->prov, c->propq, p, pp,
                                    r != NULL ? r->mgf1 : QUILL_MD_NONE, QUILL_PROV_SCHEME_RSA))
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

/* Once digest_*_init has started hashing, the digest can no longer change. */
static const OSSL_PARAM settable_params_locked[] = {
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM *quill_rsa_sig_settable_ctx_params(void *vctx, void *provctx) {
    const quill_rsa_sig_ctx *c = vctx;
    return c != NULL && c->stream.locked ? settable_params_locked : settable_params;
}

/* The MGF1 digest in effect: the explicit one, else the message digest. */
const quill_prov_digest *quill_rsa_sig_mgf1(const quill_rsa_sig_ctx *c) {
    return c->mgf1.md != NULL ? &c->mgf1 : &c->stream.md;
}

/* The salt length a signature made now would use (RFC 8017 9.1.1, with
 * OpenSSL's keywords), or -1 (error raised) if it is impossible. */
long quill_rsa_sig_sign_saltlen(const quill_rsa_sig_ctx *c) {
    long max = quill_rsa_pss_max_salt(c->key->key, &c->stream.md.hash);
    long hlen = (long)c->stream.md.hash.size, s;
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

int quill_rsa_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    quill_rsa_sig_ctx *c = vctx;
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
    if (!quill_sig_get_digest_name(OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST),
                                   c->stream.md.id))
        return 0;
    if (!quill_sig_get_digest_name(OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST),
                                   quill_rsa_sig_mgf1(c)->id))
        return 0;
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
        if (c->stream.md.md == NULL || c->key == NULL || c->key->key == NULL) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_ALGID_FAILED, "no digest or key");
            return 0;
        }
        if (c->pad == QUILL_PAD_NONE || c->pad == QUILL_PAD_X931) {
            QUILL_RAISE_MSG(c->prov, QUILL_R_ALGID_FAILED, "no identifier for %s padding",
                            pad_name(c->pad));
            return 0;
        }
        if (c->pad == QUILL_PAD_PSS) {
            /* An explicit length is written as given (as OpenSSL does; the
             * signing itself checks it against the key). */
            long s = c->saltlen >= 0 ? c->saltlen : quill_rsa_sig_sign_saltlen(c);
            if (s < 0)
                return 0;
            len = quill_rsa_algid_pss(der, sizeof(der), c->stream.md.id,
                                      quill_rsa_sig_mgf1(c)->id, s);
        } else {
            len = quill_rsa_algid_pkcs1(der, sizeof(der), c->stream.md.id);
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

const OSSL_PARAM *quill_rsa_sig_gettable_ctx_params(void *vctx, void *provctx) {
    return gettable_params;
}
