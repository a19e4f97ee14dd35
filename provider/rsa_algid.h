/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * DER AlgorithmIdentifiers of RSA signatures, for the "algorithm-id"
 * signature parameter (X.509 certificates and requests, CMS).  Public data
 * only. */
#ifndef QUILL_PROV_RSA_ALGID_H
#define QUILL_PROV_RSA_ALGID_H

#include <stddef.h>
#include <stdint.h>

#include "rsa/rsa.h"

/* Large enough for any identifier written here. */
#define QUILL_RSA_ALGID_MAX 96

/* quill_rsa_algid_pkcs1 writes the AlgorithmIdentifier of RSASSA-PKCS1-v1_5
 * with |md| (sha*WithRSAEncryption, RFC 8017 appendix A.2.4; the
 * id-rsassa-pkcs1-v1_5-with-sha3-* OIDs of NIST's CSOR; md5/md4/ripemd160
 * WithRSA), parameters NULL.
 * Returns the length written to out (cap bytes), or 0 if |md| has no such
 * identifier or cap is too small. */
size_t quill_rsa_algid_pkcs1(uint8_t *out, size_t cap, quill_md md);

/* quill_rsa_algid_pss writes id-RSASSA-PSS with its RSASSA-PSS-params (RFC
 * 4055 section 3.1 / RFC 8017 appendix A.2.3): hashAlgorithm,
 * maskGenAlgorithm (MGF1 with mgf1) and saltLength, each omitted when equal
 * to its default (SHA-1, MGF1 with SHA-1, 20); trailerField always
 * omitted (1).  SHA-1, SHA-2 and SHA-3 only (0 for the legacy digests).  Hash identifiers carry NULL parameters, as OpenSSL writes
 * them.  Returns the length, or 0 on failure. */
size_t quill_rsa_algid_pss(uint8_t *out, size_t cap, quill_md md, quill_md mgf1, long salt_len);

#endif
