/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * DER writers and parsers of the ML-DSA key formats (mldsa_codec_der.h).
 * Tags used (X.690): 0x02 INTEGER, 0x03 BIT STRING, 0x04 OCTET STRING,
 * 0x06 OBJECT IDENTIFIER, 0x30 SEQUENCE, 0x80 [0] IMPLICIT primitive
 * (the seed choice), 0xa0 [0] constructed (PKCS#8 attributes), 0x81 [1]
 * IMPLICIT BIT STRING (OneAsymmetricKey publicKey). */
#include "mldsa_codec_der.h"

#include <string.h>

#include "der.h"

#define TAG_SEED 0x80
#define TAG_ATTRIBUTES 0xa0
#define TAG_PUBLIC_KEY 0x81

/* ---- Writing ------------------------------------------------------------ */

static size_t algid_size(const quill_mldsa_alg *alg) {
    return quill_der_algid_size(alg->oid_der_len, QUILL_DER_PARAMS_ABSENT);
}

/* AlgorithmIdentifier { id-ml-dsa-NN } with parameters absent. */
static void put_algid(quill_der *w, const quill_mldsa_alg *alg) {
    quill_der_algid(w, alg->oid_der, alg->oid_der_len, QUILL_DER_PARAMS_ABSENT);
}

size_t quill_mldsa_der_spki(const quill_mldsa_alg *alg, const uint8_t *pub, size_t pub_len,
                            uint8_t *out, size_t cap) {
    size_t bits = quill_der_tlv_size(1 + pub_len);
    size_t body = algid_size(alg) + bits;
    size_t total = quill_der_tlv_size(body);
    if (out == NULL)
        return total;
    if (cap < total || pub == NULL)
        return 0;
    quill_der w;
    quill_der_init(&w, out, cap);
    quill_der_header(&w, QUILL_DER_SEQUENCE, body);
    put_algid(&w, alg);
    quill_der_header(&w, QUILL_DER_BIT_STRING, 1 + pub_len);
    quill_der_byte(&w, 0); /* no unused bits */
    quill_der_bytes(&w, pub, pub_len);
    return quill_der_finish(&w);
}

size_t quill_mldsa_der_pki(const quill_mldsa_alg *alg, quill_mldsa_form form,
                           const uint8_t *seed, const uint8_t *priv, size_t priv_len,
                           uint8_t *out, size_t cap) {
    size_t seed_tlv = quill_der_tlv_size(QUILL_MLDSA_SEED_BYTES);
    size_t priv_tlv = quill_der_tlv_size(priv_len);
    size_t choice;
    switch (form) {
    case QUILL_MLDSA_FORM_SEED_ONLY:
        choice = seed_tlv;
        break;
    case QUILL_MLDSA_FORM_PRIV_ONLY:
        choice = priv_tlv;
        break;
    case QUILL_MLDSA_FORM_SEED_PRIV:
        choice = quill_der_tlv_size(seed_tlv + priv_tlv);
        break;
    default:
        return 0;
    }
    size_t body = quill_der_tlv_size(1) + algid_size(alg) + quill_der_tlv_size(choice);
    size_t total = quill_der_tlv_size(body);
    if (out == NULL)
        return total;
    int need_seed = form != QUILL_MLDSA_FORM_PRIV_ONLY;
    int need_priv = form != QUILL_MLDSA_FORM_SEED_ONLY;
    if (cap < total || (need_seed && seed == NULL) || (need_priv && priv == NULL))
        return 0;
    quill_der w;
    quill_der_init(&w, out, cap);
    quill_der_header(&w, QUILL_DER_SEQUENCE, body);
    quill_der_header(&w, QUILL_DER_INTEGER, 1);
    quill_der_byte(&w, 0); /* version v1 (0) */
    put_algid(&w, alg);
    quill_der_header(&w, QUILL_DER_OCTET_STRING, choice);
    if (form == QUILL_MLDSA_FORM_SEED_PRIV)
        quill_der_header(&w, QUILL_DER_SEQUENCE, seed_tlv + priv_tlv);
    if (need_seed) {
        quill_der_header(&w, form == QUILL_MLDSA_FORM_SEED_ONLY ? TAG_SEED : QUILL_DER_OCTET_STRING,
                         QUILL_MLDSA_SEED_BYTES);
        quill_der_bytes(&w, seed, QUILL_MLDSA_SEED_BYTES);
    }
    if (need_priv) {
        quill_der_header(&w, QUILL_DER_OCTET_STRING, priv_len);
        quill_der_bytes(&w, priv, priv_len);
    }
    return quill_der_finish(&w);
}

/* ---- Parsing ------------------------------------------------------------ */

/* A cursor over der[0..len). */
typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

/* Reads one TLV with tag |tag|: on success *content is its content (a
 * sub-reader) and the cursor moves past it.  DER only: definite lengths in
 * the minimal number of bytes (at most 3 length bytes: nothing here is near
 * 16 MiB).  When the content runs past the end of the input and |partial|
 * is non-NULL, the available part is returned and *partial set to 1 (the
 * caller still reads the OID to tell whose truncated key it is). */
static int get_tlv(reader *r, uint8_t tag, reader *content, int *partial) {
    if (r->left < 2 || r->p[0] != tag)
        return 0;
    size_t len = r->p[1];
    size_t hdr = 2;
    if (len >= 0x80) {
        size_t n = len & 0x7f;
        if (n == 0 || n > 3 || r->left < 2 + n)
            return 0; /* indefinite, huge or cut inside the length */
        len = 0;
        for (size_t i = 0; i < n; i++)
            len = (len << 8) | r->p[2 + i];
        if (r->p[2] == 0 || len < 0x80)
            return 0; /* not minimal */
        hdr += n;
    }
    size_t avail = r->left - hdr;
    if (len > avail) {
        if (partial == NULL)
            return 0;
        *partial = 1;
        len = avail;
    }
    content->p = r->p + hdr;
    content->left = len;
    r->p += hdr + len;
    r->left -= hdr + len;
    return 1;
}

/* Reads AlgorithmIdentifier { OID } and classifies it: OTHER for another
 * OID or a malformed header before the OID is known, BAD for |alg|'s OID
 * with parameters present, OK otherwise. */
static quill_mldsa_der_status get_algid(reader *r, const quill_mldsa_alg *alg) {
    reader seq, oid;
    int partial = 0;
    if (!get_tlv(r, QUILL_DER_SEQUENCE, &seq, &partial)
        || !get_tlv(&seq, QUILL_DER_OID, &oid, NULL))
        return QUILL_MLDSA_DER_OTHER;
    if (oid.left != alg->oid_der_len || memcmp(oid.p, alg->oid_der, oid.left) != 0)
        return QUILL_MLDSA_DER_OTHER;
    /* RFC 9881: parameters MUST be absent (a NULL is refused too). */
    if (partial || seq.left != 0)
        return QUILL_MLDSA_DER_BAD;
    return QUILL_MLDSA_DER_OK;
}

/* Reads a BIT STRING with no unused bits into *bits. */
static int get_bits(reader *r, uint8_t tag, reader *bits) {
    if (!get_tlv(r, tag, bits, NULL) || bits->left < 1 || bits->p[0] != 0)
        return 0;
    bits->p++;
    bits->left--;
    return 1;
}

quill_mldsa_der_status quill_mldsa_der_parse_spki(const quill_mldsa_alg *alg, const uint8_t *der,
                                                  size_t len, quill_mldsa_der_parts *parts) {
    memset(parts, 0, sizeof(*parts));
    reader in = {der, len}, spki, key;
    int partial = 0;
    if (der == NULL || !get_tlv(&in, QUILL_DER_SEQUENCE, &spki, &partial))
        return QUILL_MLDSA_DER_OTHER;
    quill_mldsa_der_status st = get_algid(&spki, alg);
    if (st != QUILL_MLDSA_DER_OK)
        return st;
    /* From here on the key is |alg|'s: every defect is BAD. */
    if (partial || in.left != 0 || !get_bits(&spki, QUILL_DER_BIT_STRING, &key) || spki.left != 0)
        return QUILL_MLDSA_DER_BAD;
    parts->pub = key.p;
    parts->pub_len = key.left;
    return QUILL_MLDSA_DER_OK;
}

/* Parses the content of privateKey (ML-DSA-PrivateKey) into |parts|. */
static int get_private_choice(reader *r, quill_mldsa_der_parts *parts, quill_mldsa_form *form) {
    reader a, b, both;
    if (r->left < 1)
        return 0;
    switch (r->p[0]) {
    case TAG_SEED:
        if (!get_tlv(r, TAG_SEED, &a, NULL))
            return 0;
        parts->seed = a.p;
        parts->seed_len = a.left;
        *form = QUILL_MLDSA_FORM_SEED_ONLY;
        break;
    case QUILL_DER_OCTET_STRING:
        if (!get_tlv(r, QUILL_DER_OCTET_STRING, &a, NULL))
            return 0;
        parts->priv = a.p;
        parts->priv_len = a.left;
        *form = QUILL_MLDSA_FORM_PRIV_ONLY;
        break;
    case QUILL_DER_SEQUENCE:
        if (!get_tlv(r, QUILL_DER_SEQUENCE, &both, NULL) ||
            !get_tlv(&both, QUILL_DER_OCTET_STRING, &a, NULL) ||
            !get_tlv(&both, QUILL_DER_OCTET_STRING, &b, NULL) || both.left != 0)
            return 0;
        parts->seed = a.p;
        parts->seed_len = a.left;
        parts->priv = b.p;
        parts->priv_len = b.left;
        *form = QUILL_MLDSA_FORM_SEED_PRIV;
        break;
    default:
        return 0;
    }
    return r->left == 0;
}

quill_mldsa_der_status quill_mldsa_der_parse_pki(const quill_mldsa_alg *alg, const uint8_t *der,
                                                 size_t len, quill_mldsa_der_parts *parts,
                                                 quill_mldsa_form *form) {
    memset(parts, 0, sizeof(*parts));
    quill_mldsa_form f = QUILL_MLDSA_FORM_PRIV_ONLY;
    reader in = {der, len}, pki, version, key, attrs, pub;
    int partial = 0;
    if (der == NULL || !get_tlv(&in, QUILL_DER_SEQUENCE, &pki, &partial) ||
        !get_tlv(&pki, QUILL_DER_INTEGER, &version, NULL) || version.left != 1 || version.p[0] > 1)
        return QUILL_MLDSA_DER_OTHER;
    quill_mldsa_der_status st = get_algid(&pki, alg);
    if (st != QUILL_MLDSA_DER_OK)
        return st;
    if (partial || in.left != 0 || !get_tlv(&pki, QUILL_DER_OCTET_STRING, &key, NULL))
        goto bad;
    if (key.left == QUILL_MLDSA_SEED_BYTES) {
        /* Bare seed: no structured form is 32 bytes long (seed-only is 34). */
        parts->seed = key.p;
        parts->seed_len = key.left;
        f = QUILL_MLDSA_FORM_SEED_ONLY;
    } else if (key.left == quill_mldsa_priv_bytes(alg->set)) {
        /* Bare expanded key: expandedKey alone is 4 bytes longer. */
        parts->priv = key.p;
        parts->priv_len = key.left;
        f = QUILL_MLDSA_FORM_PRIV_ONLY;
    } else if (!get_private_choice(&key, parts, &f)) {
        goto bad;
    }
    if (pki.left > 0 && pki.p[0] == TAG_ATTRIBUTES && !get_tlv(&pki, TAG_ATTRIBUTES, &attrs, NULL))
        goto bad;
    if (pki.left > 0 && version.p[0] == 1) {
        if (!get_bits(&pki, TAG_PUBLIC_KEY, &pub))
            goto bad;
        parts->pub = pub.p;
        parts->pub_len = pub.left;
    }
    if (pki.left != 0)
        goto bad;
    if (form != NULL)
        *form = f;
    return QUILL_MLDSA_DER_OK;
bad:
    memset(parts, 0, sizeof(*parts));
    return QUILL_MLDSA_DER_BAD;
}
