/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The DER DigestInfo prefixes of EMSA-PKCS1-v1_5 (RFC 8017 9.2, note 1),
 * built from each digest's object identifier and its size (quill_md_size,
 * common/md.c):
 *
 *   DigestInfo ::= SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen) }
 *
 * i.e. 30 (oidLen + 8 + hLen) 30 (oidLen + 4) 06 oidLen <oid> 05 00 04 hLen,
 * which for SHA-256 gives RFC 8017's 30 31 30 0d 06 09 ... 05 00 04 20.
 * Every length is below 128, so each is one octet. */
#include <string.h>

#include "rsa/internal.h"

/* Contents octets of the hash OIDs (X.690 8.19: the first two arcs as
 * 40 * a + b, then base-128 with the high bit on every octet but the
 * last). */
#define NIST_HASH(arc) {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, (arc)}
#define QUILL_RSA_OID_MAX 9

static const struct {
    quill_md md;
    uint8_t oid_len;
    uint8_t oid[QUILL_RSA_OID_MAX];
} md_table[] = {
    /* id-sha1 1.3.14.3.2.26 */
    {QUILL_MD_SHA1, 5, {0x2b, 0x0e, 0x03, 0x02, 0x1a}},
    /* 2.16.840.1.101.3.4.2.x (NIST CSOR hashAlgs; RFC 8017 B.1) */
    {QUILL_MD_SHA224, 9, NIST_HASH(4)},
    {QUILL_MD_SHA256, 9, NIST_HASH(1)},
    {QUILL_MD_SHA384, 9, NIST_HASH(2)},
    {QUILL_MD_SHA512, 9, NIST_HASH(3)},
    {QUILL_MD_SHA512_224, 9, NIST_HASH(5)},
    {QUILL_MD_SHA512_256, 9, NIST_HASH(6)},
    {QUILL_MD_SHA3_224, 9, NIST_HASH(7)},
    {QUILL_MD_SHA3_256, 9, NIST_HASH(8)},
    {QUILL_MD_SHA3_384, 9, NIST_HASH(9)},
    {QUILL_MD_SHA3_512, 9, NIST_HASH(10)},
    /* id-md5 1.2.840.113549.2.5 (RFC 8017 B.1; 840 = 0x86 0x48,
     * 113549 = 0x86 0xf7 0x0d). */
    {QUILL_MD_MD5, 8, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05}},
    /* MD4 is id-md4 1.2.840.113549.2.4 (RFC 2313 10.1.2), but OpenSSL
     * (every version, and so everything that verifies MD4 signatures in
     * practice) writes and expects 1.2.840.113549.2.3 in its DigestInfo.
     * quill signs MD4 only to do what OpenSSL's default provider does, so
     * it uses OpenSSL's arc: quill's MD4 signatures verify there and its
     * signatures verify here (test/evp_rsa/rsa_gaps.c checks both ways). */
    {QUILL_MD_MD4, 8, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x03}},
    /* ripemd160 1.3.36.3.2.1 (TeleTrusT) */
    {QUILL_MD_RIPEMD160, 5, {0x2b, 0x24, 0x03, 0x02, 0x01}},
    /* SM3's hash OID is 1.2.156.10197.1.401, but OpenSSL (whose default
     * provider signs RSA with SM3 from 3.4 on, the only place quill does)
     * writes and expects 1.2.156.10197.1.504 (sm3WithRSAEncryption) in its
     * DigestInfo, with a short outer length (quill_rsa_digest_info); as for
     * MD4, quill uses OpenSSL's bytes so that its signatures verify there
     * and OpenSSL's here (156 = 0x81 0x1c, 10197 = 0xcf 0x55, 504 = 0x83
     * 0x78; test/evp_rsa/rsa_gaps.c checks both ways). */
    {QUILL_MD_SM3, 8, {0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x83, 0x78}},
    /* MD5 || SHA-1 (TLS 1.0/1.1, RFC 4346 7.4.3): signed raw, no OID. */
    {QUILL_MD_MD5_SHA1, 0, {0}},
};

/* The table row of |md|, or -1 (QUILL_MD_NONE and unknown values). */
static int md_row(quill_md md) {
    for (size_t i = 0; i < QUILL_ARRAY_LEN(md_table); i++)
        if (md_table[i].md == md)
            return (int)i;
    return -1;
}

int quill_rsa_md_known(quill_md md) {
    return md == QUILL_MD_NONE || md_row(md) >= 0;
}

int quill_rsa_md_raw(quill_md md) {
    return md == QUILL_MD_NONE || md == QUILL_MD_MD5_SHA1;
}

size_t quill_rsa_digest_info(quill_md md, uint8_t *out) {
    int i = md_row(md);
    if (i < 0 || md_table[i].oid_len == 0)
        return 0;
    size_t ol = md_table[i].oid_len, h = quill_md_size(md);
    out[0] = 0x30;
    out[1] = (uint8_t)(ol + 8 + h);
    out[2] = 0x30;
    out[3] = (uint8_t)(ol + 4);
    out[4] = 0x06;
    out[5] = (uint8_t)ol;
    memcpy(out + 6, md_table[i].oid, ol);
    out[6 + ol] = 0x05;
    out[7 + ol] = 0x00;
    out[8 + ol] = 0x04;
    out[9 + ol] = (uint8_t)h;
    /* OpenSSL's SM3 DigestInfo (crypto/rsa/rsa_sign.c, as of 3.5) declares
     * its outer SEQUENCE one byte short (0x2f for 48 bytes of content); its
     * verification compares the whole encoding, so quill writes the same
     * bytes (see the SM3 row). */
    if (md == QUILL_MD_SM3)
        out[1]--;
    return ol + 10;
}
