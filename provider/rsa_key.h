/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The key object behind quill's RSA and RSA-PSS key managers: a reference
 * counted holder of an immutable core key (plus, for RSA-PSS keys, the
 * RSASSA-PSS-params restrictions).  It is filled once (import, dup or
 * generation) and never changed afterwards, so it is shared freely between
 * threads and between signature contexts (each holds a reference). */
#ifndef QUILL_PROV_RSA_KEY_H
#define QUILL_PROV_RSA_KEY_H

#include <openssl/core.h>

#include "key_ref.h"
#include "prov_ctx.h"
#include "rsa/rsa.h"

typedef enum quill_prov_rsa_type {
    QUILL_PROV_RSA,     /* rsaEncryption */
    QUILL_PROV_RSA_PSS, /* id-RSASSA-PSS: PSS only, maybe restricted */
} quill_prov_rsa_type;

/* RSASSA-PSS-params of a restricted RSA-PSS key (RFC 4055 section 3.1):
 * signatures must use exactly md and mgf1 and a salt of at least
 * min_salt bytes. */
typedef struct quill_prov_pss_restrictions {
    int restricted;
    quill_md md, mgf1;
    long min_salt;
} quill_prov_pss_restrictions;

typedef struct quill_prov_rsa_key {
    quill_provctx *prov;
    quill_key_ref refs;
    quill_prov_rsa_type type;
    quill_rsa_key *key; /* NULL for an empty object */
    quill_prov_pss_restrictions pss;
} quill_prov_rsa_key;

/* quill_prov_rsa_key_new returns an empty key object (one reference), or
 * NULL with an error raised. */
quill_prov_rsa_key *quill_prov_rsa_key_new(quill_provctx *prov, quill_prov_rsa_type type);

/* quill_prov_rsa_key_up_ref adds a reference; quill_prov_rsa_key_free drops
 * one and, on the last, zeroises and frees the key (NULL is fine). */
void quill_prov_rsa_key_up_ref(quill_prov_rsa_key *k);
void quill_prov_rsa_key_free(quill_prov_rsa_key *k);

/* quill_prov_rsa_key_import fills an empty |k| from OpenSSL key parameters
 * (n, e, and with OSSL_KEYMGMT_SELECT_PRIVATE_KEY d, rsa-factor1/2,
 * rsa-exponent1/2, rsa-coefficient1; for RSA-PSS also the PSS
 * restrictions).  Refuses, with an error raised and |k| left empty, keys
 * with more than two primes, partial CRT values, or anything the core
 * refuses (size, exponents, consistency).  Secret copies are zeroised. */
int quill_prov_rsa_key_import(quill_prov_rsa_key *k, int selection, const OSSL_PARAM params[]);

/* quill_prov_rsa_key_set_pss sets the PSS restrictions of the RSA-PSS key
 * |k| from the parameters digest, mgf1-digest, mgf, saltlen and
 * digest-props (RFC 4055's defaults for those absent; unrestricted if none
 * is given).  Returns 0, with an error raised, for a bad value. */
int quill_prov_rsa_key_set_pss(quill_prov_rsa_key *k, const OSSL_PARAM params[]);

/* quill_prov_rsa_key_export passes the components selected (public: n, e;
 * private: d, the two factors, exponents and the coefficient; for RSA-PSS
 * the restrictions) to |cb| in one OSSL_PARAM array.  Secret buffers are
 * zeroised afterwards. */
int quill_prov_rsa_key_export(const quill_prov_rsa_key *k, int selection, OSSL_CALLBACK *cb,
                              void *cbarg);

/* quill_prov_rsa_key_get_components answers the key-component requests in
 * |params| (n, e, d, factors, exponents, coefficient) like OpenSSL's
 * default provider; absent components are left unanswered. */
int quill_prov_rsa_key_get_components(const quill_prov_rsa_key *k, OSSL_PARAM params[]);

/* quill_prov_rsa_key_dup returns a new object with the selected parts of
 * |k| (NULL, with an error, on failure). */
quill_prov_rsa_key *quill_prov_rsa_key_dup(const quill_prov_rsa_key *k, int selection);

/* quill_prov_rsa_security_bits returns the security strength of a
 * modulus of |bits| bits, as OpenSSL computes it (SP 800-56B rev 2,
 * appendix D; common sizes pinned to their canonical values). */
int quill_prov_rsa_security_bits(size_t bits);

#endif
