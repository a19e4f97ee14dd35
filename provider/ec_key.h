/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The key object behind quill's EC key manager: P-256 for quill's core, or
 * a key on another curve held by the default provider (ec_foreign.h).  A reference
 * counted holder of the domain (always P-256 once set), a validated public
 * point and a private scalar (secret, zeroised on release).  Filled by
 * import, generation or dup; the only later change is set_params of an
 * encoded public key (ECDH peer keys), which OpenSSL makes before sharing
 * the object.
 *
 * pub is read only through quill_prov_ec_key_pub: a generated key holds
 * its point in Jacobian form until the first read converts it, once, for
 * every thread (core/ec/ecdsa_lazy_pub.h); signing never reads it.
 *
 * vcache speeds up repeated verification with the key: the core builds a
 * table for pub from the second verification on and publishes it
 * atomically, so threads sharing the object share it (ecdsa.h).  It belongs
 * to this object alone: dup starts the copy with an empty cache, a change
 * of pub empties it, and the last free releases it. */
#ifndef QUILL_PROV_EC_KEY_H
#define QUILL_PROV_EC_KEY_H

#include <stdint.h>

#include <openssl/core.h>
#include <openssl/evp.h>

#include "ec/ecdsa.h"
#include "ec/ecdsa_lazy_pub.h"
#include "key_ref.h"
#include "prov_ctx.h"

typedef struct quill_prov_ec_key {
    quill_provctx *prov;
    quill_key_ref refs;
    int has_group;  /* domain parameters set (P-256) */
    int has_priv;
    int compressed; /* point format reported and exported */
    quill_p256_lazy_public pub;     /* read through quill_prov_ec_key_pub */
    quill_p256_verify_cache vcache; /* for pub; never copied */
    uint8_t priv[QUILL_P256_PRIVATE_BYTES]; /* secret, big-endian */
    /* Another curve: the whole key, held by the default provider
     * (ec_foreign.h); the fields above are then unused. */
    EVP_PKEY *foreign;
} quill_prov_ec_key;

/* quill_prov_ec_key_has_pub returns 1 if k (P-256) holds a public key. */
static inline int quill_prov_ec_key_has_pub(const quill_prov_ec_key *k) {
    return quill_p256_lazy_public_has(&k->pub);
}

/* quill_prov_ec_key_pub returns k's public point in affine form, or NULL
 * if k has none: the one way to read it.  The first reads of a generated
 * key convert it (constant time, no lock; concurrent first readers each
 * convert into their |scratch| and one of them stores the result in k);
 * later reads return the stored point.  The pointer is into k or
 * |scratch| and valid while both are. */
static inline const quill_p256_public *quill_prov_ec_key_pub(const quill_prov_ec_key *k,
                                                             quill_p256_public *scratch) {
    return quill_p256_lazy_public_get(&k->pub, scratch);
}

/* quill_prov_ec_key_new returns an empty key object (one reference), or
 * NULL with an error raised. */
quill_prov_ec_key *quill_prov_ec_key_new(quill_provctx *prov);

/* quill_prov_ec_key_up_ref adds a reference; quill_prov_ec_key_free drops
 * one and, on the last, zeroises and frees the object (NULL is fine). */
void quill_prov_ec_key_up_ref(quill_prov_ec_key *k);
void quill_prov_ec_key_free(quill_prov_ec_key *k);

/* quill_prov_ec_key_import fills |k| from OpenSSL EC key parameters: the
 * group (by name only: explicit parameters and every other curve are
 * refused with QUILL_R_UNSUPPORTED_CURVE, so OpenSSL keeps the key in its
 * default provider), "pub" (SEC 1 point, validated) and "priv" (checked to
 * be in [1, n-1]; the public key is derived when absent).  On failure an
 * error is raised and |k| is left as it was.  Secret copies are
 * zeroised. */
int quill_prov_ec_key_import(quill_prov_ec_key *k, int selection, const OSSL_PARAM params[]);

/* quill_prov_ec_key_export passes the selected parts (group name, encoding
 * and point format; pub; priv) to |cb| in one OSSL_PARAM array, in the form
 * OpenSSL's default provider imports.  The private key buffer is zeroised
 * afterwards. */
int quill_prov_ec_key_export(const quill_prov_ec_key *k, int selection, OSSL_CALLBACK *cb,
                             void *cbarg);

/* quill_prov_ec_key_get_components answers "group", "pub", "priv",
 * "encoded-pub-key", "point-format", "encoding" and the point coordinates
 * "qx"/"qy" in |params| for what a P-256 key holds (the key manager
 * forwards a key on another curve itself).  Returns 0 if a buffer is too
 * small. */
int quill_prov_ec_key_get_components(const quill_prov_ec_key *k, OSSL_PARAM params[]);

/* quill_prov_ec_key_set_encoded_pub replaces the public key of a P-256 key
 * with the SEC 1 point |in| (validated) and drops any private key (it would no longer
 * match).  Returns 0 with an error raised if the point is invalid. */
int quill_prov_ec_key_set_encoded_pub(quill_prov_ec_key *k, const uint8_t *in, size_t len);

/* quill_prov_ec_key_pub_equal returns 1 if both keys have the same public
 * point. */
int quill_prov_ec_key_pub_equal(const quill_prov_ec_key *a, const quill_prov_ec_key *b);

/* quill_prov_ec_key_dup returns a new object with the selected parts of |k|
 * (NULL, with an error, on failure). */
quill_prov_ec_key *quill_prov_ec_key_dup(const quill_prov_ec_key *k, int selection);

#endif
