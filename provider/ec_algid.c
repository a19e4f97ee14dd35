/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "ec_algid.h"

#include "der.h"

/* OID content octets: 1.2.840.10045 is 2a 86 48 ce 3d (ansi-X9-62);
 * ecdsa-with-SHA1 = ansi-X9-62.4.1, ecdsa-with-SHA2 = ansi-X9-62.4.3 with
 * arcs 1..4 for SHA-224..SHA-512; 2.16.840.1.101.3.4.3 is 60 86 48 01 65 03
 * 04 03 (NIST sigAlgs), arcs 9..12 for ECDSA with SHA3-224..SHA3-512. */
static const struct {
    quill_md md;
    quill_der_oid oid;
} oids[] = {
    {QUILL_MD_SHA1, {7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x01}}},
    {QUILL_MD_SHA224, {8, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x01}}},
    {QUILL_MD_SHA256, {8, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02}}},
    {QUILL_MD_SHA384, {8, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03}}},
    {QUILL_MD_SHA512, {8, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x04}}},
    {QUILL_MD_SHA3_224, {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x09}}},
    {QUILL_MD_SHA3_256, {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x0a}}},
    {QUILL_MD_SHA3_384, {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x0b}}},
    {QUILL_MD_SHA3_512, {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x0c}}},
};

size_t quill_ec_algid_ecdsa(uint8_t *out, size_t cap, quill_md md) {
    for (size_t i = 0; i < sizeof(oids) / sizeof(oids[0]); i++) {
        if (oids[i].md != md)
            continue;
        quill_der w;
        quill_der_init(&w, out, cap);
        quill_der_algid(&w, oids[i].oid.bytes, oids[i].oid.len, QUILL_DER_PARAMS_ABSENT);
        return quill_der_finish(&w);
    }
    return 0;
}
