/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Registration of the ML-DSA object identifiers with the OpenSSL core that
 * loads quill.  OpenSSL 3.0 to 3.4 know no ML-DSA OID; without one, a key
 * or signature algorithm cannot be named in DER (X.509 certificates,
 * PKCS#8, SPKI), and X.509 verification needs the "sigid" triple that maps
 * a signature OID to its digest (none) and key type. */
#ifndef QUILL_PROV_MLDSA_OBJ_H
#define QUILL_PROV_MLDSA_OBJ_H

#include <openssl/core.h>

#include "prov_ctx.h"

/* quill_mldsa_obj_register creates id-ml-dsa-44/65/87 (short names
 * "id-ml-dsa-NN", long names "ML-DSA-NN", as OpenSSL 3.5's objects table)
 * through the core's obj_create upcall, and adds each as a signature
 * algorithm with no digest whose key type is the same OID
 * (obj_add_sigid).  The object table is process-wide, so this runs once
 * per process whichever library context loads quill first (under a lock).
 * Skipped entirely when the core is OpenSSL 3.5 or later (read from
 * prov->core_version, core_version.h) and, OID by OID,
 * for what the core already knows.  Returns 1 on success or when skipped;
 * 0 with QUILL_R_OBJ_REGISTRATION raised if an upcall is missing or
 * fails (a later load retries). */
int quill_mldsa_obj_register(quill_provctx *prov, const OSSL_DISPATCH *in);

#endif
