/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * DER AlgorithmIdentifiers of ECDSA signatures, for the "algorithm-id"
 * signature parameter.  Public data only. */
#ifndef QUILL_PROV_EC_ALGID_H
#define QUILL_PROV_EC_ALGID_H

#include <stddef.h>
#include <stdint.h>

#include "digest.h"

/* Large enough for any identifier written here. */
#define QUILL_EC_ALGID_MAX 16

/* quill_ec_algid_ecdsa writes the AlgorithmIdentifier of ECDSA with |md|:
 * ecdsa-with-SHA1 / -SHA224 / -SHA256 / -SHA384 / -SHA512 (RFC 5758
 * section 3.2, ANSI X9.62) or id-ecdsa-with-sha3-* (NIST CSOR), parameters
 * ABSENT as RFC 5758 requires.  Returns the length written to out (cap
 * bytes), or 0 if |md| has no such identifier (e.g. SHA-512/256) or cap is
 * too small. */
size_t quill_ec_algid_ecdsa(uint8_t *out, size_t cap, quill_md md);

#endif
