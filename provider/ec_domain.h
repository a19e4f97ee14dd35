/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Which EC domains quill's core takes: P-256 named by name, nothing else.
 * The tests the EC key object (ec_key.h) and the key manager (ec_keymgmt.c)
 * apply to OpenSSL's domain parameters, to take a key for the core or to
 * leave it to the default provider (ec_foreign.h).  Public data only. */
#ifndef QUILL_PROV_EC_DOMAIN_H
#define QUILL_PROV_EC_DOMAIN_H

#include <openssl/core.h>

/* quill_prov_ec_params_explicit returns 1 if |params| hold any explicit
 * curve parameter (field type, p, a, b, generator, order, cofactor,
 * seed). */
int quill_prov_ec_params_explicit(const OSSL_PARAM params[]);

/* quill_prov_ec_group_is_p256 returns 1 if |name| names P-256
 * ("prime256v1", "P-256", "secp256r1", or its OID; case-insensitive). */
int quill_prov_ec_group_is_p256(const char *name);

/* quill_prov_ec_params_foreign returns 1 if |params| describe a domain
 * quill's core does not take: a group other than P-256, explicit curve
 * parameters, or an "encoding" other than named_curve. */
int quill_prov_ec_params_foreign(const OSSL_PARAM params[]);

#endif
