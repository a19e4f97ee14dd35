/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The provider capability "TLS-SIGALG" for ML-DSA, on an OpenSSL 3.5+ core.
 *
 * Why: libssl (3.2+) takes a provider's TLS signature algorithm only if the
 * key manager it fetches for the key type, with the application's
 * properties, comes from that same provider.  Under openssl.cnf.example
 * that is quill's for ML-DSA (names.h: QUILL_PROPS_KEYMGMT_SIG_ONLY), so the
 * default provider's ML-DSA entries are dropped there and quill announces
 * the same ones (code points 0x0904..0x0906 of draft-ietf-tls-mldsa,
 * TLS 1.3 only, the security bits of 3.5's default provider): TLS 1.3 with
 * ML-DSA certificates keeps working, on quill.  A core before 3.5 is not
 * offered the capability at all (prov.c), so nothing changes there. */
#ifndef QUILL_PROV_TLS_SIGALG_H
#define QUILL_PROV_TLS_SIGALG_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* The provider's get_capabilities: "TLS-SIGALG" calls |cb| once per
 * ML-DSA set; any other capability has no entries.  Returns 1, or 0 if
 * |cb| fails. */
OSSL_FUNC_provider_get_capabilities_fn quill_prov_get_capabilities;

#endif
