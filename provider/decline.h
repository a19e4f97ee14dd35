/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Declining at load: the algorithm families quill does not register on
 * this CPU because OpenSSL's own code does the whole operation faster there
 * (aarch64: by bench/aarch64_model.py's machine-model estimate; x86-64
 * without BMI2 and ADX: measured with quill-speed --level).  Loading quill
 * must never slow an application down, so for a declined family quill
 * offers no key manager, signature, signature algorithm, encoder or decoder
 * at all: the default provider serves those keys end to end (a key manager
 * of quill's with the default provider's signature would cost an export per
 * operation; a signature of quill's for verification alone cannot be had,
 * since OpenSSL fetches one signature implementation for both).
 *
 * The list and each row's condition are compiled in per architecture
 * (decline.c); the conditions are evaluated once at load, on the CPU
 * features core/common/cpu.h probed (QUILL_CPU_MASK included, so the test
 * levels see what such a CPU would).  The provider parameter
 * QUILL_PARAM_DECLINED (info_params.h) and quill-info say what was declined
 * and why. */
#ifndef QUILL_PROV_DECLINE_H
#define QUILL_PROV_DECLINE_H

#include <stddef.h>

#include <openssl/core.h>

/* quill_decline_active returns the families declined on this CPU, one bit
 * per row of decline.c's list (0: nothing declined). */
unsigned quill_decline_active(void);

/* quill_decline_overridden returns 1 if the environment variable
 * QUILL_DECLINE is "none" and |active| (quill_decline_active()) is not 0:
 * quill then registers every family anyway (for the test suites, which
 * exercise quill's own code on every CPU, and for whoever wants quill
 * regardless of speed).  Read once at load. */
int quill_decline_overridden(unsigned active);

/* quill_declined_text writes the declined families and their reasons into
 * |buf| (|len| bytes, NUL-terminated, truncated if short), for the provider
 * parameter: "none", "FAMILY (REASON); FAMILY (REASON)", or, |overridden|,
 * "none (QUILL_DECLINE=none overrides this CPU's list: FAMILY (REASON)...)". */
void quill_declined_text(char *buf, size_t len, unsigned active, int overridden);

/* quill_decline_filter returns |table| itself when nothing in it is
 * declined, else a malloc'ed copy without the rows of the families in
 * |active| (a row is declined when the first name of its algorithm_names
 * starts with a declined family's prefix: "RSA" covers RSA, RSA-PSS and
 * RSA-SHA256; "EC" covers EC, ECDSA and ECDSA-SHA256).  Returns NULL if the
 * copy cannot be allocated; free the result with quill_decline_free().
 * With |overridden|, |table| itself. */
const OSSL_ALGORITHM *quill_decline_filter(const OSSL_ALGORITHM *table, unsigned active,
                                           int overridden);

/* quill_decline_free frees a table quill_decline_filter returned, unless it
 * is |table| itself. */
void quill_decline_free(const OSSL_ALGORITHM *filtered, const OSSL_ALGORITHM *table);

#endif
