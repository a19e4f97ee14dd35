/* Copyright quill authors.
 *
 * Big-integer OSSL_PARAMs without BIGNUM: OpenSSL passes integers as
 * native-endian magnitudes (OSSL_PARAM_UNSIGNED_INTEGER, or a non-negative
 * OSSL_PARAM_INTEGER); the core wants big-endian bytes.  These helpers only
 * reorder bytes, so they are safe for secrets: the caller zeroises the
 * buffers they fill. */
#ifndef QUILL_PROV_PARAMS_H
#define QUILL_PROV_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>

/* quill_param_get_be reads the integer in |p| into a new malloc'ed
 * big-endian buffer (*out, *out_len >= 1).  Returns 1, or 0 if |p| is not a
 * non-negative integer or memory runs out.  The caller zeroises and frees
 * *out (quill_param_free_be). */
int quill_param_get_be(const OSSL_PARAM *p, uint8_t **out, size_t *out_len);

/* quill_param_free_be zeroises and frees a buffer from quill_param_get_be. */
void quill_param_free_be(uint8_t *buf, size_t len);

/* quill_param_set_be stores the big-endian magnitude be[0..len) in |p| the
 * way OSSL_PARAM_set_BN does: return_size is the minimal size; with data ==
 * NULL only return_size is set; otherwise the value is zero-extended to
 * data_size (an INTEGER parameter keeps room for a zero sign bit).  Returns
 * 0 if the value does not fit or |p| is not an integer parameter. */
int quill_param_set_be(OSSL_PARAM *p, const uint8_t *be, size_t len);

#endif
