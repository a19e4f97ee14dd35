/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "ec_key.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "common/zeroize.h"
#include "core_version.h"
#include "ec_domain.h"
#include "ec_foreign.h"
#include "names.h"
#include "params.h"
#include "prov_err.h"

quill_prov_ec_key *quill_prov_ec_key_new(quill_provctx *prov) {
    quill_prov_ec_key *k = quill_key_obj_alloc(prov, sizeof(*k));
    if (k == NULL)
        return NULL;
    k->prov = prov;
    quill_key_ref_init(&k->refs);
    return k;
}

void quill_prov_ec_key_up_ref(quill_prov_ec_key *k) {
    quill_key_ref_up(&k->refs);
}

void quill_prov_ec_key_free(quill_prov_ec_key *k) {
    if (k == NULL || !quill_key_ref_down(&k->refs))
        return;
    quill_p256_verify_cache_clear(&k->vcache);
    EVP_PKEY_free(k->foreign);
    quill_zeroize(k, sizeof(*k));
    OPENSSL_free(k);
}

/* Checks the domain in |params|: 1 if it is P-256 by name, 0 (error
 * raised) if it is anything else, -1 if no domain is given at all. */
static int import_group(const quill_prov_ec_key *k, const OSSL_PARAM params[]) {
    const char *s = NULL;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_EC_ENCODING);
    if (p != NULL && (!quill_param_get_utf8(p, &s) ||
                      OPENSSL_strcasecmp(s, OSSL_PKEY_EC_ENCODING_GROUP) != 0)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_UNSUPPORTED_CURVE, "encoding %s (named curves only)",
                        s != NULL ? s : "?");
        return 0;
    }
    if (quill_prov_ec_params_explicit(params)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_UNSUPPORTED_CURVE, "explicit curve parameters");
        return 0;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
    if (p == NULL)
        return -1;
    s = NULL;
    if (!quill_param_get_utf8(p, &s) || !quill_prov_ec_group_is_p256(s)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_UNSUPPORTED_CURVE, "group %s", s != NULL ? s : "?");
        return 0;
    }
    return 1;
}

/* Reads "point-format": 1 compressed, 0 uncompressed, -1 absent, -2 bad. */
static int import_point_format(const OSSL_PARAM params[]) {
    const OSSL_PARAM *p =
        OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT);
    const char *s = NULL;
    if (p == NULL)
        return -1;
    if (!quill_param_get_utf8(p, &s))
        return -2;
    if (OPENSSL_strcasecmp(s, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) == 0)
        return 0;
    if (OPENSSL_strcasecmp(s, OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED) == 0)
        return 1;
    return -2; /* "hybrid" and unknown names */
}

/* Reads "priv" into 32 big-endian bytes; 0 (error raised) if malformed or
 * longer than 32 significant bytes.  Range is checked by the caller. */
static int import_priv(const quill_prov_ec_key *k, const OSSL_PARAM *p, uint8_t out[32]) {
    uint8_t *be = NULL;
    size_t len = 0;
    if (!quill_param_get_be(p, &be, &len)) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "bad %s", OSSL_PKEY_PARAM_PRIV_KEY);
        return 0;
    }
    /* The length of the buffer is public (OpenSSL sizes it by the order);
     * leading bytes beyond 32 must all be zero. */
    uint8_t high = 0;
    for (size_t i = 0; i + 32 < len; i++)
        high |= be[i];
    int ok = high == 0;
    if (ok) {
        memset(out, 0, 32);
        size_t n = len < 32 ? len : 32;
        memcpy(out + 32 - n, be + len - n, n);
    }
    quill_param_free_be(be, len);
    if (!ok)
        QUILL_RAISE_CORE(k->prov, QUILL_ERR_KEY_CHECK);
    return ok;
}

/* On a 3.4+ core, a key on another curve (or with explicit parameters) is
 * taken at import too, held by the default provider (ec_foreign.h): an
 * application that fetched one of quill's ECDSA-SHA2-256, ... algorithms
 * (sigalg.h) has OpenSSL export its key to quill's key manager, with no
 * fallback to the default provider's algorithm if quill refuses it.  Only
 * into an empty key object. */
static int import_foreign(quill_prov_ec_key *k, int selection, const OSSL_PARAM params[]) {
    if (k->prov->core_version < QUILL_CORE_VERSION(3, 4, 0) || k->has_group ||
        quill_prov_ec_key_has_pub(k) || k->has_priv)
        return 0;
    k->foreign = quill_prov_ec_foreign_fromdata(k->prov, selection, params);
    return k->foreign != NULL;
}

int quill_prov_ec_key_import(quill_prov_ec_key *k, int selection, const OSSL_PARAM params[]) {
    if (k == NULL)
        return 0;
    /* Other curves are refused here (import_group) on a core before 3.4,
     * so that OpenSSL keeps such keys in its default provider and runs
     * their operations there; there only key generation makes them
     * (ec_foreign.h).  A 3.4+ core gets them held for it (import_foreign). */
    if (k->foreign != NULL) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "key object already filled");
        return 0;
    }
    ERR_set_mark();
    int group = import_group(k, params);
    if (group == 0) {
        if (import_foreign(k, selection, params)) {
            ERR_pop_to_mark();
            return 1;
        }
        ERR_clear_last_mark();
        return 0;
    }
    ERR_clear_last_mark();
    if (group < 0 && !k->has_group) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_MISSING_KEY_COMPONENT, "no group");
        return 0;
    }
    int fmt = import_point_format(params);
    if (fmt == -2) {
        QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "point-format");
        return 0;
    }
    /* The new parts, stored in *k only on success. */
    int has_pub = 0, has_priv = 0;
    quill_p256_public pub;
    uint8_t priv[QUILL_P256_PRIVATE_BYTES];
    int ok = 0;
    const OSSL_PARAM *p;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 &&
        (p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL) {
        const void *enc = NULL;
        size_t len = 0;
        if (!quill_param_get_octets(p, &enc, &len)) {
            QUILL_RAISE_MSG(k->prov, QUILL_R_BAD_PARAMETER, "bad %s", OSSL_PKEY_PARAM_PUB_KEY);
            goto done;
        }
        quill_err err = quill_p256_public_decode(&pub, enc, len);
        if (err != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, err);
            goto done;
        }
        has_pub = 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
        (p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL) {
        if (!import_priv(k, p, priv))
            goto done;
        quill_err err = quill_p256_private_check(priv);
        if (err == QUILL_OK && !has_pub && !quill_prov_ec_key_has_pub(k)) {
            err = quill_p256_public_from_private(&pub, priv);
            has_pub = err == QUILL_OK;
        }
        if (err != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, err);
            goto done;
        }
        has_priv = 1;
    }
    /* Only the fields change; refs stay, and vcache too unless the point
     * changes (the table was for the old point). */
    if (has_pub) {
        quill_p256_public scratch;
        const quill_p256_public *old = quill_prov_ec_key_pub(k, &scratch);
        if (old == NULL || memcmp(old, &pub, sizeof(pub)) != 0)
            quill_p256_verify_cache_clear(&k->vcache);
        quill_p256_lazy_public_set(&k->pub, &pub);
    }
    k->has_group = 1;
    if (fmt >= 0)
        k->compressed = fmt;
    if (has_priv) {
        memcpy(k->priv, priv, sizeof(k->priv));
        k->has_priv = 1;
    }
    ok = 1;
done:
    quill_zeroize(priv, sizeof(priv));
    return ok;
}

/* Byte i of a native-endian 32-byte integer comes from big-endian byte
 * QUILL_NATIVE_INDEX(i). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define QUILL_NATIVE_INDEX(i) (i)
#else
#define QUILL_NATIVE_INDEX(i) (31 - (i))
#endif

static const char *point_format_name(const quill_prov_ec_key *k) {
    return k->compressed ? OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_COMPRESSED
                         : OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED;
}

int quill_prov_ec_key_export(const quill_prov_ec_key *k, int selection, OSSL_CALLBACK *cb,
                             void *cbarg) {
    if (k != NULL && k->foreign != NULL)
        return EVP_PKEY_export(k->foreign, selection, cb, cbarg) == 1;
    if (k == NULL || !k->has_group) {
        QUILL_RAISE(k != NULL ? k->prov : NULL, QUILL_R_NO_KEY);
        return 0;
    }
    OSSL_PARAM params[8];
    size_t np = 0;
    uint8_t pub[QUILL_P256_PUBLIC_BYTES];
    uint8_t priv_native[QUILL_P256_PRIVATE_BYTES];
    size_t pub_len = 0;
    /* OpenSSL's EC import needs the group with any key part. */
    params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                    (char *)QUILL_EC_GROUP_NAME, 0);
    params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING,
                                                    (char *)OSSL_PKEY_EC_ENCODING_GROUP, 0);
    params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                                    (char *)point_format_name(k), 0);
    quill_p256_public scratch;
    const quill_p256_public *q = NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 &&
        (q = quill_prov_ec_key_pub(k, &scratch)) != NULL) {
        if (quill_p256_public_encode(pub, sizeof(pub), &pub_len, q, k->compressed) != QUILL_OK) {
            QUILL_RAISE_CORE(k->prov, QUILL_ERR_INTERNAL);
            return 0;
        }
        params[np++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len);
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->has_priv) {
        /* All 32 bytes, native-endian, written without looking at their
         * values (no leading-zero stripping: constant time in priv). */
        for (size_t i = 0; i < sizeof(priv_native); i++)
            priv_native[i] = k->priv[QUILL_NATIVE_INDEX(i)];
        params[np++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, priv_native,
                                               sizeof(priv_native));
    }
    params[np] = OSSL_PARAM_construct_end();
    int ok = cb(params, cbarg);
    quill_zeroize(priv_native, sizeof(priv_native));
    return ok;
}

/* Sets an integer parameter from a 32-byte big-endian coordinate. */
static int set_coord(OSSL_PARAM *p, const uint8_t be[32]) {
    return quill_param_set_be(p, be, 32);
}

int quill_prov_ec_key_get_components(const quill_prov_ec_key *k, OSSL_PARAM params[]) {
    OSSL_PARAM *p;
    if (k->has_group) {
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_GROUP_NAME)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, QUILL_EC_GROUP_NAME))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_ENCODING)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, OSSL_PKEY_EC_ENCODING_GROUP))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT)) != NULL &&
            !OSSL_PARAM_set_utf8_string(p, point_format_name(k)))
            return 0;
    }
    /* The point only if asked for: a generated key's first read converts
     * it (OpenSSL asks every new key for its sizes alone). */
    OSSL_PARAM *pp = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY);
    OSSL_PARAM *pe = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    OSSL_PARAM *px = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_PUB_X);
    OSSL_PARAM *py = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_EC_PUB_Y);
    quill_p256_public scratch;
    const quill_p256_public *q = NULL;
    if ((pp != NULL || pe != NULL || px != NULL || py != NULL) &&
        (q = quill_prov_ec_key_pub(k, &scratch)) != NULL) {
        uint8_t enc[QUILL_P256_PUBLIC_BYTES], full[QUILL_P256_PUBLIC_BYTES];
        size_t len = 0, full_len = 0;
        if (quill_p256_public_encode(enc, sizeof(enc), &len, q, k->compressed) != QUILL_OK ||
            quill_p256_public_encode(full, sizeof(full), &full_len, q, 0) != QUILL_OK)
            return 0;
        if (pp != NULL && !OSSL_PARAM_set_octet_string(pp, enc, len))
            return 0;
        if (pe != NULL && !OSSL_PARAM_set_octet_string(pe, enc, len))
            return 0;
        if (px != NULL && !set_coord(px, full + 1))
            return 0;
        if (py != NULL && !set_coord(py, full + 33))
            return 0;
    }
    if (k->has_priv && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL &&
        !quill_param_set_be(p, k->priv, sizeof(k->priv)))
        return 0;
    return 1;
}

int quill_prov_ec_key_set_encoded_pub(quill_prov_ec_key *k, const uint8_t *in, size_t len) {
    quill_p256_public pub;
    quill_err err = quill_p256_public_decode(&pub, in, len);
    if (err != QUILL_OK) {
        QUILL_RAISE_CORE(k->prov, err);
        return 0;
    }
    quill_p256_verify_cache_clear(&k->vcache); /* the table was for the old point */
    quill_p256_lazy_public_set(&k->pub, &pub);
    k->has_group = 1;
    k->has_priv = 0;
    quill_zeroize(k->priv, sizeof(k->priv));
    return 1;
}

int quill_prov_ec_key_pub_equal(const quill_prov_ec_key *a, const quill_prov_ec_key *b) {
    uint8_t ea[QUILL_P256_PUBLIC_BYTES], eb[QUILL_P256_PUBLIC_BYTES];
    size_t la = 0, lb = 0;
    quill_p256_public sa, sb;
    const quill_p256_public *qa = quill_prov_ec_key_pub(a, &sa);
    const quill_p256_public *qb = quill_prov_ec_key_pub(b, &sb);
    if (qa == NULL || qb == NULL ||
        quill_p256_public_encode(ea, sizeof(ea), &la, qa, 0) != QUILL_OK ||
        quill_p256_public_encode(eb, sizeof(eb), &lb, qb, 0) != QUILL_OK)
        return 0;
    return la == lb && memcmp(ea, eb, la) == 0;
}

quill_prov_ec_key *quill_prov_ec_key_dup(const quill_prov_ec_key *k, int selection) {
    quill_prov_ec_key *d = quill_prov_ec_key_new(k->prov);
    if (d == NULL)
        return NULL;
    if (k->foreign != NULL) {
        if ((d->foreign = quill_prov_ec_foreign_dup(k->prov, k->foreign, selection)) == NULL) {
            quill_prov_ec_key_free(d);
            return NULL;
        }
        return d;
    }
    if ((selection & (OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_KEYPAIR)) != 0) {
        d->has_group = k->has_group;
        d->compressed = k->compressed;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        /* The point only, in the form k holds it (a pending point stays
         * pending): d->vcache stays empty (a shared table would be freed
         * twice) and fills again from d's own verifications. */
        quill_p256_lazy_public_copy(&d->pub, &k->pub);
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->has_priv) {
        memcpy(d->priv, k->priv, sizeof(d->priv));
        d->has_priv = 1;
    }
    return d;
}
