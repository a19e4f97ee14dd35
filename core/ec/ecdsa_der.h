/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Strict DER for ECDSA P-256 signatures (X9.62 / RFC 3279
 * Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }) to and from the
 * 64-byte r || s form of ecdsa.h.  Signatures are public. */
#ifndef QUILL_EC_ECDSA_DER_H
#define QUILL_EC_ECDSA_DER_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/err.h"

/* Longest DER signature: 2 + 2 * (2 + 33) bytes. */
#define QUILL_ECDSA_P256_DER_MAX 72

/* quill_ecdsa_p256_sig_from_der parses der strictly: definite short-form
 * lengths (the only minimal form at these sizes), exactly two INTEGERs,
 * each minimally encoded, non-negative, at most 32 bytes of magnitude, and
 * nothing after the SEQUENCE.  Range checks of r and s are left to
 * verification.  Returns QUILL_OK or QUILL_ERR_BAD_SIGNATURE (sig zeroised). */
QUILL_MUST_CHECK quill_err quill_ecdsa_p256_sig_from_der(uint8_t sig[64], const uint8_t *der,
                                                         size_t len);

/* quill_ecdsa_p256_sig_to_der writes sig (r || s) as DER and sets *out_len.
 * With out == NULL only sets *out_len.  QUILL_ERR_BUFFER_TOO_SMALL if cap is
 * too small (nothing written). */
QUILL_MUST_CHECK quill_err quill_ecdsa_p256_sig_to_der(uint8_t *out, size_t cap, size_t *out_len,
                                                       const uint8_t sig[64]);

#endif
