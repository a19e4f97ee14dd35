/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Reading string parameters safely, and big-integer OSSL_PARAMs without
 * BIGNUM.
 *
 * Strings: OpenSSL 3.0's OSSL_PARAM_get_utf8_string_ptr and
 * OSSL_PARAM_get_octet_string_ptr accept a parameter whose data pointer is
 * NULL and hand the NULL back; quill_param_get_utf8 and
 * quill_param_get_octets refuse it (an empty octet string, NULL with size
 * 0, is read as a valid pointer to no bytes), so no caller ever passes NULL
 * to strcmp or memcpy.
 *
 * Big integers: OpenSSL passes integers as native-endian magnitudes
 * (OSSL_PARAM_UNSIGNED_INTEGER, or a non-negative OSSL_PARAM_INTEGER); the
 * core wants big-endian bytes.  These helpers only reorder bytes, so they
 * are safe for secrets: the caller zeroises the buffers they fill. */
#ifndef QUILL_PROV_PARAMS_H
#define QUILL_PROV_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>

/* quill_param_get_string_ptr is OSSL_PARAM_get_utf8_string_ptr (a UTF-8
 * string or UTF-8 pointer parameter; *s may be set to NULL) without the
 * error it raises and pops on OpenSSL 3.2+ for a string parameter. */
int quill_param_get_string_ptr(const OSSL_PARAM *p, const char **s);

/* quill_param_get_utf8 sets *s to the string in |p| and returns 1, or
 * returns 0 if |p| is not a UTF-8 string parameter or its data is NULL. */
int quill_param_get_utf8(const OSSL_PARAM *p, const char **s);

/* quill_param_get_octets sets *v and *len to the bytes in |p| and returns
 * 1, or returns 0 if |p| is not an octet-string parameter or holds a NULL
 * pointer with a nonzero size.  For an empty string *v is a valid pointer
 * (never NULL) and *len is 0. */
int quill_param_get_octets(const OSSL_PARAM *p, const void **v, size_t *len);

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
