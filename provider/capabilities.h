/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The provider's capabilities (OSSL_FUNC_provider_get_capabilities), which
 * libssl reads when it builds an SSL_CTX: "TLS-GROUP" (key exchange groups,
 * asked by every 3.x libssl) and "TLS-SIGALG" (TLS signature schemes,
 * asked from 3.2 on). */
#ifndef QUILL_PROV_CAPABILITIES_H
#define QUILL_PROV_CAPABILITIES_H

#include <openssl/core.h>

/* quill_get_capabilities answers OpenSSL's capability query.
 *
 * "TLS-SIGALG" (case-insensitive) on a 3.5+ core (provctx->core_version):
 * calls |cb| once per ML-DSA parameter set with the parameters OpenSSL
 * 3.5's default provider gives for it (providers/common/capabilities.c):
 * IANA name mldsa44/65/87, algorithm name ML-DSA-44/65/87, its OID, code
 * point 0x0904/0x0905/0x0906 (draft-ietf-tls-mldsa), security bits
 * 128/192/256, TLS 1.3 only, no DTLS.  Why: libssl 3.5 keeps a provider's
 * TLS signature scheme only if fetching its key type (with the SSL_CTX's
 * properties) returns that same provider's key manager.  Under
 * openssl.cnf.example's ?quill.sig=yes that is quill's, so the default
 * provider's ML-DSA schemes are dropped and quill must offer them itself
 * for ML-DSA certificates to work in TLS; with any other configuration one
 * of the two announcements survives, the same on the wire.
 *
 * On a core before 3.5 "TLS-SIGALG" calls nothing: libssl 3.2-3.4 and
 * their default providers have no ML-DSA in TLS, and quill does not add
 * it (it would change every handshake's signature_algorithms list of an
 * application that merely loads quill); 3.0 and 3.1 never ask.
 *
 * Any other capability ("TLS-GROUP": quill has no key exchange) calls
 * nothing and succeeds: libssl fails SSL_CTX_new when a provider answers 0.
 *
 * Returns 0 only if |cb| returns 0 (which stops the enumeration), else 1. */
int quill_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb, void *arg);

#endif
