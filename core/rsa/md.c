/* Copyright quill authors.
 *
 * Digest sizes and the DER DigestInfo prefixes of EMSA-PKCS1-v1_5
 * (RFC 8017 9.2, note 1). */
#include <string.h>

#include "rsa/internal.h"

int quill_rsa_md_known(quill_md md) {
    return md >= QUILL_MD_NONE && md <= QUILL_MD_SHA3_512;
}

size_t quill_md_size(quill_md md) {
    switch (md) {
    case QUILL_MD_SHA1:
        return 20;
    case QUILL_MD_SHA224:
    case QUILL_MD_SHA512_224:
    case QUILL_MD_SHA3_224:
        return 28;
    case QUILL_MD_SHA256:
    case QUILL_MD_SHA512_256:
    case QUILL_MD_SHA3_256:
        return 32;
    case QUILL_MD_SHA384:
    case QUILL_MD_SHA3_384:
        return 48;
    case QUILL_MD_SHA512:
    case QUILL_MD_SHA3_512:
        return 64;
    case QUILL_MD_NONE:
    default:
        return 0;
    }
}

/* The last arc of the NIST hash algorithm OIDs 2.16.840.1.101.3.4.2.x
 * (NIST CSOR; RFC 8017 Appendix B.1 and A.2.4 for the SHA-2 ones), 0 for
 * digests outside that arc. */
static uint8_t nist_hash_arc(quill_md md) {
    switch (md) {
    case QUILL_MD_SHA256:
        return 1;
    case QUILL_MD_SHA384:
        return 2;
    case QUILL_MD_SHA512:
        return 3;
    case QUILL_MD_SHA224:
        return 4;
    case QUILL_MD_SHA512_224:
        return 5;
    case QUILL_MD_SHA512_256:
        return 6;
    case QUILL_MD_SHA3_224:
        return 7;
    case QUILL_MD_SHA3_256:
        return 8;
    case QUILL_MD_SHA3_384:
        return 9;
    case QUILL_MD_SHA3_512:
        return 10;
    default:
        return 0;
    }
}

size_t quill_rsa_digest_info(quill_md md, uint8_t *out) {
    size_t h = quill_md_size(md);
    if (md == QUILL_MD_SHA1) {
        /* SEQUENCE { SEQUENCE { OID 1.3.14.3.2.26, NULL }, OCTET STRING (20) } */
        static const uint8_t sha1[15] = {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e,
                                         0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14};
        memcpy(out, sha1, sizeof(sha1));
        return sizeof(sha1);
    }
    uint8_t arc = nist_hash_arc(md);
    if (arc == 0)
        return 0;
    /* SEQUENCE (17 + h) { SEQUENCE (13) { OID (9) 2.16.840.1.101.3.4.2.arc,
     * NULL }, OCTET STRING (h) }: 2 + 13 + 2 header bytes precede the
     * digest, so the outer length is 2 + 13 + 2 + h = 17 + h. */
    const uint8_t prefix[19] = {0x30, (uint8_t)(0x11 + h), 0x30, 0x0d, 0x06, 0x09, 0x60,
                                0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, arc,
                                0x05, 0x00, 0x04, (uint8_t)h};
    memcpy(out, prefix, sizeof(prefix));
    return sizeof(prefix);
}
