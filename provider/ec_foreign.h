/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * EC keys that quill's core does not take (every curve but P-256, explicit
 * curve parameters), held inside quill's EC key objects by OpenSSL's
 * default provider.
 *
 * Why: quill refuses such keys at import, and OpenSSL then keeps them in
 * its default provider and runs their operations there.  But OpenSSL 3.0's
 * method cache can route a generic EC key generation (by name, with no
 * provider asked for) to quill's key manager once quill has signed with an
 * EC key in that library context; a refusal there would break the
 * application.  So quill's key generation makes them: the key object holds
 * an EVP_PKEY made in quill's own (child) library context with
 * "provider=default", and the key manager and ECDSA (ec_keymgmt.c,
 * ec_sig_foreign.c) forward every operation on it there.  Import still
 * refuses them (EVP_PKEY_fromdata by name in that situation fails: a known
 * gap, README).  ec_domain.h tells these domains from P-256; this file
 * depends on no other EC file of the provider.  None of quill's own
 * arithmetic runs on these keys, and they are not counted in QUILL_STATS. */
#ifndef QUILL_PROV_EC_FOREIGN_H
#define QUILL_PROV_EC_FOREIGN_H

#include <openssl/core.h>
#include <openssl/evp.h>

#include "prov_ctx.h"

/* The property query that places these keys and their operations. */
#define QUILL_EC_FOREIGN_PROPQ "provider=default"

/* quill_prov_ec_foreign_failed raises quill's error for a failed |what|
 * (on top of any error the default provider raised). */
void quill_prov_ec_foreign_failed(const quill_provctx *prov, const char *what);

/* quill_prov_ec_foreign_fromdata imports the |selection| of |params| with
 * the default provider's EC key manager; NULL (error raised) if it
 * refuses. */
EVP_PKEY *quill_prov_ec_foreign_fromdata(quill_provctx *prov, int selection,
                                         const OSSL_PARAM params[]);

/* quill_prov_ec_foreign_has returns 1 if |k| holds every part |selection|
 * names (domain parameters, public key, private key). */
int quill_prov_ec_foreign_has(const EVP_PKEY *k, int selection);

/* quill_prov_ec_foreign_match compares the |selection| of two such keys as
 * OpenSSL does (EVP_PKEY_eq, or EVP_PKEY_parameters_eq for the domain
 * alone). */
int quill_prov_ec_foreign_match(const EVP_PKEY *a, const EVP_PKEY *b, int selection);

/* quill_prov_ec_foreign_validate runs the default provider's checks for
 * |selection| (pairwise for a whole key pair). */
int quill_prov_ec_foreign_validate(quill_provctx *prov, const EVP_PKEY *k, int selection);

/* quill_prov_ec_foreign_dup copies the |selection| of |k| (NULL, error
 * raised, on failure). */
EVP_PKEY *quill_prov_ec_foreign_dup(quill_provctx *prov, const EVP_PKEY *k, int selection);

/* quill_prov_ec_foreign_genctx returns a key generation context of the
 * default provider, initialised for keys (|selection| with a key pair) or
 * domain parameters alone; NULL (error raised) on failure.  The template
 * |templ|, if not NULL, gives its domain parameters. */
EVP_PKEY_CTX *quill_prov_ec_foreign_genctx(quill_provctx *prov, int selection,
                                           const EVP_PKEY *templ);

#endif
