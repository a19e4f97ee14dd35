/* Copyright quill authors.
 *
 * Property-query helpers shared by the digest wrappers (digest.c for RSA,
 * ec_digest.c for ECDSA). */
#ifndef QUILL_PROV_PROPS_H
#define QUILL_PROV_PROPS_H

/* quill_prov_props_require_quill returns 1 if the property query |props|
 * (may be NULL) has the mandatory clause "provider=quill" (spaces around
 * its parts allowed): such a query selects no digest, as quill has none. */
int quill_prov_props_require_quill(const char *props);

#endif
