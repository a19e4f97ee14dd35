/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * A small DER writer (X.690) for the structures quill's provider writes
 * itself: the AlgorithmIdentifiers of its signatures (RSA, ECDSA, ML-DSA)
 * and ML-DSA's key encodings.  Writes go through a cursor that records an
 * overflow instead of writing past the buffer, so a caller writes a whole
 * structure and checks once, at quill_der_finish.  The writer looks at
 * lengths only, never at the bytes it copies (which may be secret). */
#ifndef QUILL_PROV_DER_H
#define QUILL_PROV_DER_H

#include <stddef.h>
#include <stdint.h>

/* Tags used (X.690 section 8). */
#define QUILL_DER_INTEGER 0x02
#define QUILL_DER_BIT_STRING 0x03
#define QUILL_DER_OCTET_STRING 0x04
#define QUILL_DER_NULL 0x05
#define QUILL_DER_OID 0x06
#define QUILL_DER_SEQUENCE 0x30
/* [n] constructed, context-specific (EXPLICIT tagging). */
#define QUILL_DER_CONTEXT(n) (0xa0 | (n))

/* The contents octets of an OBJECT IDENTIFIER, for tables: room for 11
 * (the longest quill writes, NIST's hash and ML-DSA arcs and
 * id-RSASSA-PSS, have 9). */
typedef struct quill_der_oid {
    uint8_t len;
    uint8_t bytes[11];
} quill_der_oid;

/* The cursor: out[0..cap), len bytes written so far; once |overflow| is
 * set nothing more is written. */
typedef struct quill_der {
    uint8_t *out;
    size_t cap, len;
    int overflow;
} quill_der;

/* quill_der_init starts writing at out[0] (cap bytes). */
void quill_der_init(quill_der *w, uint8_t *out, size_t cap);

/* quill_der_finish returns the length written, or 0 if anything did not
 * fit (the buffer's contents are then unspecified). */
size_t quill_der_finish(const quill_der *w);

/* quill_der_bytes and quill_der_byte copy raw bytes (contents). */
void quill_der_bytes(quill_der *w, const uint8_t *p, size_t n);
void quill_der_byte(quill_der *w, uint8_t b);

/* quill_der_header writes a tag and the definite length |len| in DER's
 * minimal form (one octet below 128, else 0x80 | count and the big-endian
 * length); the caller writes the len contents octets next. */
void quill_der_header(quill_der *w, uint8_t tag, size_t len);

/* quill_der_tlv_size returns the size of an element with |content_len|
 * contents octets (tag, length and contents). */
size_t quill_der_tlv_size(size_t content_len);

/* quill_der_open starts a constructed element |tag| whose contents will be
 * shorter than 128 bytes, and returns the position of its length octet for
 * quill_der_close, which fills it in (longer contents are an overflow). */
size_t quill_der_open(quill_der *w, uint8_t tag);
void quill_der_close(quill_der *w, size_t at);

/* quill_der_oid_put writes an OBJECT IDENTIFIER with the contents octets
 * oid[0..len). */
void quill_der_oid_put(quill_der *w, const uint8_t *oid, size_t len);

/* How an AlgorithmIdentifier's parameters are written. */
typedef enum quill_der_params {
    QUILL_DER_PARAMS_ABSENT = 0, /* omitted (ECDSA, ML-DSA) */
    QUILL_DER_PARAMS_NULL = 1,   /* NULL (RSASSA-PKCS1-v1_5, hashes) */
} quill_der_params;

/* quill_der_algid writes AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT
 * IDENTIFIER (contents oid[0..len)), parameters } with the parameters
 * absent or NULL; quill_der_algid_size returns its size. */
void quill_der_algid(quill_der *w, const uint8_t *oid, size_t len, quill_der_params params);
size_t quill_der_algid_size(size_t len, quill_der_params params);

/* quill_der_uint writes the INTEGER |v| (non-negative, minimal form). */
void quill_der_uint(quill_der *w, unsigned long v);

#endif
