/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "params.h"

#include <openssl/crypto.h>
#include <openssl/params.h>

#include <stdlib.h>
#include <string.h>

#include "common/zeroize.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define QUILL_NATIVE_BIG_ENDIAN 1
#else
#define QUILL_NATIVE_BIG_ENDIAN 0
#endif

/* Byte i (0 = least significant) of a native-endian integer of |size|. */
static size_t native_index(size_t i, size_t size) {
    return QUILL_NATIVE_BIG_ENDIAN ? size - 1 - i : i;
}

/* What OSSL_PARAM_get_utf8_string_ptr and OSSL_PARAM_get_octet_string_ptr
 * read (*v, and *len if not NULL): the pointer held by a parameter of type
 * |ptr_type| or the data of one of type |str_type|; 0 for any other type.
 * Done here because OpenSSL 3.2+ tries the pointer type first by raising
 * an error and popping it again (ERR_set_mark, ERR_raise, ERR_pop_to_mark:
 * about 1,500 instructions per call) when the parameter is a string, as
 * OpenSSL's own parameters are: that cost was on every signature
 * initialisation (the digest name). */
static int get_string_ptr(const OSSL_PARAM *p, unsigned int ptr_type, unsigned int str_type,
                          const void **v, size_t *len) {
    if (p == NULL)
        return 0;
    if (p->data_type == ptr_type) {
        if (p->data == NULL)
            return 0;
        *v = *(const void *const *)p->data;
    } else if (p->data_type == str_type) {
        *v = p->data;
    } else {
        return 0;
    }
    if (len != NULL)
        *len = p->data_size;
    return 1;
}

int quill_param_get_string_ptr(const OSSL_PARAM *p, const char **s) {
    const void *v = NULL;
    if (!get_string_ptr(p, OSSL_PARAM_UTF8_PTR, OSSL_PARAM_UTF8_STRING, &v, NULL))
        return 0;
    *s = v;
    return 1;
}

int quill_param_get_utf8(const OSSL_PARAM *p, const char **s) {
    return quill_param_get_string_ptr(p, s) && *s != NULL;
}

int quill_param_get_octets(const OSSL_PARAM *p, const void **v, size_t *len) {
    if (!get_string_ptr(p, OSSL_PARAM_OCTET_PTR, OSSL_PARAM_OCTET_STRING, v, len))
        return 0;
    if (*v == NULL) {
        if (*len != 0)
            return 0;
        *v = "";
    }
    return 1;
}

int quill_param_get_be(const OSSL_PARAM *p, uint8_t **out, size_t *out_len) {
    if (p == NULL || p->data == NULL || p->data_size == 0)
        return 0;
    if (p->data_type != OSSL_PARAM_UNSIGNED_INTEGER && p->data_type != OSSL_PARAM_INTEGER)
        return 0;
    const uint8_t *src = p->data;
    size_t size = p->data_size;
    if (p->data_type == OSSL_PARAM_INTEGER && (src[native_index(size - 1, size)] & 0x80) != 0)
        return 0; /* negative */
    uint8_t *buf = OPENSSL_malloc(size);
    if (buf == NULL)
        return 0;
    for (size_t i = 0; i < size; i++)
        buf[size - 1 - i] = src[native_index(i, size)];
    *out = buf;
    *out_len = size;
    return 1;
}

void quill_param_free_be(uint8_t *buf, size_t len) {
    if (buf == NULL)
        return;
    quill_zeroize(buf, len);
    OPENSSL_free(buf);
}

int quill_param_set_be(OSSL_PARAM *p, const uint8_t *be, size_t len) {
    if (p->data_type != OSSL_PARAM_UNSIGNED_INTEGER && p->data_type != OSSL_PARAM_INTEGER)
        return 0;
    /* Minimal length: strip leading zeros (the length of a public value such
     * as n, or of a secret whose length OpenSSL's own export reveals too). */
    size_t skip = 0;
    while (skip + 1 < len && be[skip] == 0)
        skip++;
    be += skip;
    len -= skip;
    size_t need = len;
    if (p->data_type == OSSL_PARAM_INTEGER && (be[0] & 0x80) != 0)
        need++; /* room for the sign bit */
    p->return_size = need;
    if (p->data == NULL)
        return 1;
    if (p->data_size < need)
        return 0;
    uint8_t *dst = p->data;
    memset(dst, 0, p->data_size);
    for (size_t i = 0; i < len; i++)
        dst[native_index(i, p->data_size)] = be[len - 1 - i];
    return 1;
}
