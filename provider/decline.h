/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Declining at load: the algorithm families quill does not register on this
 * architecture because, by bench/aarch64_model.py's machine-model estimate,
 * OpenSSL's own assembly does the whole operation faster there.  Loading
 * quill must never slow an application down, so for a declined family quill
 * offers no key manager, signature, signature algorithm, encoder or decoder
 * at all: the default provider serves those keys end to end (a key manager
 * of quill's with the default provider's signature would cost an export per
 * operation; a signature of quill's for verification alone cannot be had,
 * since OpenSSL fetches one signature implementation for both).
 *
 * The list is fixed at compile time per architecture (decline.c); it is
 * empty on x86-64.  The provider parameter QUILL_PARAM_DECLINED
 * (info_params.h) and quill-info say what was declined and why. */
#ifndef QUILL_PROV_DECLINE_H
#define QUILL_PROV_DECLINE_H

#include <openssl/core.h>

/* quill_decline_count returns how many families are declined on this build's
 * architecture (0 on x86-64). */
unsigned quill_decline_count(void);

/* quill_decline_overridden returns 1 if the environment variable
 * QUILL_DECLINE is "none" and this build declines something: quill then
 * registers every family anyway (for the test suites, which exercise
 * quill's own code on every architecture, and for whoever wants quill
 * regardless of speed).  Read once at load. */
int quill_decline_overridden(void);

/* quill_declined_text returns the declined families and their reasons, for
 * the provider parameter: "none", "FAMILY (REASON); FAMILY (REASON)", or,
 * |overridden|, "none (QUILL_DECLINE=none overrides this build's list; FAMILY
 * (REASON)...)". */
const char *quill_declined_text(int overridden);

/* quill_decline_filter returns |table| itself when nothing in it is
 * declined, else a malloc'ed copy without the declined rows (a row is
 * declined when the first name of its algorithm_names starts with a
 * declined family's prefix: "RSA" covers RSA, RSA-PSS and RSA-SHA256;
 * "EC" covers EC, ECDSA and ECDSA-SHA256).  Returns NULL if the copy
 * cannot be allocated; free the result with quill_decline_free().  With
 * |overridden| (quill_decline_overridden()), |table| itself. */
const OSSL_ALGORITHM *quill_decline_filter(const OSSL_ALGORITHM *table, int overridden);

/* quill_decline_free frees a table quill_decline_filter returned, unless it
 * is |table| itself. */
void quill_decline_free(const OSSL_ALGORITHM *filtered, const OSSL_ALGORITHM *table);

#endif
