/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill's ML-DSA encoders and decoders through OpenSSL 3.0's public API:
 *   round trips   for ML-DSA-44/65/87: DER and PEM PrivateKeyInfo, encrypted
 *                 PKCS#8 (PEM_write_bio_PrivateKey with a cipher, and the
 *                 EncryptedPrivateKeyInfo encoder in DER and PEM; a wrong
 *                 passphrase fails), SubjectPublicKeyInfo in DER and PEM;
 *                 the decoded key equals the original (public key, and the
 *                 exported "priv" and "seed").
 *                 A PrivateKeyInfo with 20 kB of attributes decodes too.
 *   forms         the seed-only, expanded-only and both forms of
 *                 ML-DSA-PrivateKey, built here from the exported parts,
 *                 each decode to the same key; the encoder writes "both" by
 *                 default and honours ml-dsa.output_formats (seed-only,
 *                 priv-only) from a provider configuration, falling back to
 *                 the expanded key for a key without its seed.
 *   wycheproof    the sign_seed files' privateKeyPkcs8 decodes to the key of
 *                 privateSeed / publicKey and is re-encoded byte for byte
 *                 with output_formats = seed-only; the verify files'
 *                 publicKeyDer decodes and re-encodes byte for byte, and
 *                 those of the wrong length are refused.
 *   tampering     every truncation, flipped tag bytes, other OIDs, NULL
 *                 parameters, trailing bytes, unused bits, bad seed lengths
 *                 and a seed that does not match the expanded key: refused
 *                 with an error on the queue, never a key.
 *   other keys    RSA and EC keys (PKCS#8, traditional, encrypted, SPKI; PEM
 *                 and DER) still load with quill loaded.
 *   text          EVP_PKEY_print_private / _public: headers and hex lines.
 * Without the Wycheproof vectors that part is left out, and the summary
 * line says "(vectors absent)". */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "qt_evp.h"
#include "qt_json.h"
#include "test_util.h"

#define NSETS 3
static const char *const set_names[NSETS] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
static const size_t pub_len[NSETS] = {1312, 1952, 2592};
static const size_t priv_len[NSETS] = {2560, 4032, 4896};
static const uint8_t oid_last[NSETS] = {0x11, 0x12, 0x13};
#define SEED_LEN 32
#define MAX_DER 8192

static OSSL_LIB_CTX *libctx;
static const char *const pass = "quill passphrase";

/* ---- DER built here, independently of the provider ------------------------ */

typedef struct buf {
    uint8_t b[MAX_DER];
    size_t n;
} buf;

static void put(buf *d, const uint8_t *p, size_t n) {
    memcpy(d->b + d->n, p, n);
    d->n += n;
}

static void put_hdr(buf *d, uint8_t tag, size_t len) {
    uint8_t h[4] = {tag};
    size_t n;
    if (len < 128) {
        h[1] = (uint8_t)len;
        n = 2;
    } else if (len < 256) {
        h[1] = 0x81;
        h[2] = (uint8_t)len;
        n = 3;
    } else {
        h[1] = 0x82;
        h[2] = (uint8_t)(len >> 8);
        h[3] = (uint8_t)len;
        n = 4;
    }
    put(d, h, n);
}

static void put_tlv(buf *d, uint8_t tag, const uint8_t *p, size_t n) {
    put_hdr(d, tag, n);
    put(d, p, n);
}

/* AlgorithmIdentifier of set s (last OID byte |last|). */
static void put_algid(buf *d, uint8_t last) {
    const uint8_t a[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                         0x65, 0x03, 0x04, 0x03, last};
    put(d, a, sizeof(a));
}

/* RFC 9881's three forms, then OpenSSL 3.5's "bare" inputs (the seed or
 * the expanded key directly as the privateKey octets). */
enum { FORM_SEED, FORM_PRIV, FORM_BOTH, FORM_BARE_SEED, FORM_BARE_PRIV };

/* PrivateKeyInfo v0 with the private key in |form|. */
static void make_pki(buf *out, int s, int form, const uint8_t *seed, size_t seedl,
                     const uint8_t *priv, size_t privl) {
    buf choice = {.n = 0}, inner = {.n = 0}, body = {.n = 0};
    if (form == FORM_BARE_SEED) {
        put(&choice, seed, seedl);
    } else if (form == FORM_BARE_PRIV) {
        put(&choice, priv, privl);
    } else if (form == FORM_SEED) {
        put_tlv(&choice, 0x80, seed, seedl);
    } else if (form == FORM_PRIV) {
        put_tlv(&choice, 0x04, priv, privl);
    } else {
        put_tlv(&inner, 0x04, seed, seedl);
        put_tlv(&inner, 0x04, priv, privl);
        put_tlv(&choice, 0x30, inner.b, inner.n);
    }
    const uint8_t version[] = {0x02, 0x01, 0x00};
    put(&body, version, sizeof(version));
    put_algid(&body, oid_last[s]);
    put_tlv(&body, 0x04, choice.b, choice.n);
    out->n = 0;
    put_tlv(out, 0x30, body.b, body.n);
}

static void make_spki(buf *out, uint8_t last, const uint8_t *pub, size_t publ) {
    buf body = {.n = 0}, bits = {.n = 0};
    const uint8_t zero = 0;
    put(&bits, &zero, 1);
    put(&bits, pub, publ);
    put_algid(&body, last);
    put_tlv(&body, 0x03, bits.b, bits.n);
    out->n = 0;
    put_tlv(out, 0x30, body.b, body.n);
}

/* Returns 1 if needle[0..nl) occurs in hay[0..hl). */
static int contains(const uint8_t *hay, size_t hl, const uint8_t *needle, size_t nl) {
    for (size_t i = 0; i + nl <= hl; i++)
        if (memcmp(hay + i, needle, nl) == 0)
            return 1;
    return 0;
}

/* ---- EVP helpers ------------------------------------------------------------ */

/* Returns 1 if an error whose text contains |needle| (NULL: any error) is
 * on the queue; clears the queue. */
static int error_seen(const char *needle) {
    unsigned long e;
    int found = 0;
    while ((e = ERR_get_error()) != 0) {
        const char *r = ERR_reason_error_string(e);
        if (needle == NULL || (r != NULL && strstr(r, needle) != NULL))
            found = 1;
        if (getenv("QT_VERBOSE") != NULL) {
            char s[256];
            ERR_error_string_n(e, s, sizeof(s));
            fprintf(stderr, "  error: %s\n", s);
        }
    }
    return found;
}

static size_t octets(const EVP_PKEY *k, const char *name, uint8_t *out, size_t cap) {
    size_t len = 0;
    if (!EVP_PKEY_get_octet_string_param(k, name, out, cap, &len))
        return 0;
    return len;
}

/* The key's parts; seed absent gives seedl 0. */
typedef struct parts {
    uint8_t seed[SEED_LEN], priv[4896], pub[2592];
    size_t seedl, privl, publ;
} parts;

static void get_parts(const EVP_PKEY *k, parts *p) {
    ERR_set_mark();
    p->seedl = octets(k, "seed", p->seed, sizeof(p->seed));
    p->privl = octets(k, OSSL_PKEY_PARAM_PRIV_KEY, p->priv, sizeof(p->priv));
    p->publ = octets(k, OSSL_PKEY_PARAM_PUB_KEY, p->pub, sizeof(p->pub));
    ERR_pop_to_mark();
}

/* Same public key, same private key and seed presence/value. */
static int same_key(const EVP_PKEY *a, const EVP_PKEY *b) {
    static parts pa, pb;
    if (a == NULL || b == NULL || EVP_PKEY_eq(a, b) != 1)
        return 0;
    get_parts(a, &pa);
    get_parts(b, &pb);
    return pa.publ == pb.publ && pa.privl == pb.privl && pa.seedl == pb.seedl &&
           memcmp(pa.pub, pb.pub, pa.publ) == 0 && memcmp(pa.priv, pb.priv, pa.privl) == 0 &&
           memcmp(pa.seed, pb.seed, pa.seedl) == 0;
}

static int is_quill(const EVP_PKEY *k) {
    const OSSL_PROVIDER *p = qt_pkey_provider(k);
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), "quill") == 0;
}

static EVP_PKEY *keygen(OSSL_LIB_CTX *ctx, int s) {
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(ctx, set_names[s], NULL);
    if (pc == NULL || EVP_PKEY_keygen_init(pc) <= 0 || EVP_PKEY_keygen(pc, &k) <= 0)
        k = NULL;
    EVP_PKEY_CTX_free(pc);
    return k;
}

/* Encodes |k| with OSSL_ENCODER (output type, structure, selection;
 * cipher/passphrase optional) into out. */
static int encode(const EVP_PKEY *k, const char *type, const char *structure, int sel,
                  const char *cipher, buf *out) {
    OSSL_ENCODER_CTX *ec = OSSL_ENCODER_CTX_new_for_pkey(k, sel, type, structure, NULL);
    unsigned char *data = NULL;
    size_t len = 0;
    int ok = ec != NULL && OSSL_ENCODER_CTX_get_num_encoders(ec) > 0;
    if (ok && cipher != NULL)
        ok = OSSL_ENCODER_CTX_set_cipher(ec, cipher, NULL) &&
             OSSL_ENCODER_CTX_set_passphrase(ec, (const unsigned char *)pass, strlen(pass));
    ok = ok && OSSL_ENCODER_to_data(ec, &data, &len) && len <= sizeof(out->b);
    if (ok) {
        memcpy(out->b, data, len);
        out->n = len;
    }
    OPENSSL_free(data);
    OSSL_ENCODER_CTX_free(ec);
    return ok;
}

/* Decodes der[0..len) (input type |type|, structure may be NULL) in |ctx|
 * with OSSL_DECODER; NULL if nothing was decoded. */
static EVP_PKEY *decode_in(OSSL_LIB_CTX *ctx, const uint8_t *der, size_t len, const char *type,
                           const char *structure, int sel, const char *pw) {
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *dc =
        OSSL_DECODER_CTX_new_for_pkey(&k, type, structure, NULL, sel, ctx, NULL);
    const unsigned char *p = der;
    size_t left = len;
    if (dc != NULL && pw != NULL)
        OSSL_DECODER_CTX_set_passphrase(dc, (const unsigned char *)pw, strlen(pw));
    if (dc == NULL || !OSSL_DECODER_from_data(dc, &p, &left)) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    OSSL_DECODER_CTX_free(dc);
    return k;
}

static EVP_PKEY *decode(const uint8_t *der, size_t len, const char *structure, int sel) {
    return decode_in(libctx, der, len, "DER", structure, sel, NULL);
}

static int count_construct(OSSL_DECODER_INSTANCE *inst, const OSSL_PARAM *params, void *arg) {
    (*(int *)arg)++;
    return 1; /* not taken over: the decoder frees its key object */
}

/* Copies the octet string |name| of |params| (if present) to out. */
static int get_part(const OSSL_PARAM params[], const char *name, uint8_t *out, size_t cap,
                    size_t *len) {
    const OSSL_PARAM *q = OSSL_PARAM_locate_const(params, name);
    void *dst = out;
    *len = 0;
    return q == NULL || OSSL_PARAM_get_octet_string(q, &dst, cap, len);
}

/* Copies "pub", "priv" and "seed" from an export into a parts struct. */
static int take_parts(const OSSL_PARAM params[], void *arg) {
    parts *p = arg;
    return get_part(params, OSSL_PKEY_PARAM_PUB_KEY, p->pub, sizeof(p->pub), &p->publ) &&
           get_part(params, OSSL_PKEY_PARAM_PRIV_KEY, p->priv, sizeof(p->priv), &p->privl) &&
           get_part(params, "seed", p->seed, sizeof(p->seed), &p->seedl);
}

/* A constructor that exports the decoded object the way OpenSSL does for a
 * key manager of another provider (the decoder's export_object). */
static int export_construct(OSSL_DECODER_INSTANCE *inst, const OSSL_PARAM *params, void *arg) {
    const OSSL_PARAM *ref = OSSL_PARAM_locate_const(params, OSSL_OBJECT_PARAM_REFERENCE);
    if (ref == NULL || ref->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    return OSSL_DECODER_export(inst, ref->data, ref->data_size, take_parts, arg);
}

/* Runs quill's own DER decoder of set s for |structure| alone on der (not
 * OpenSSL's chain, whose DER-to-DER steps cut the input to one DER object
 * first).  Returns the number of key objects it produced (0 or 1). */
static int direct_decode_ex(int s, const char *structure, const uint8_t *der, size_t len,
                            parts *exported) {
    char props[128];
    snprintf(props, sizeof(props), "provider=quill,input=der,structure=%s", structure);
    OSSL_DECODER *d = OSSL_DECODER_fetch(libctx, set_names[s], props);
    OSSL_DECODER_CTX *dc = OSSL_DECODER_CTX_new();
    int calls = 0;
    const unsigned char *p = der;
    size_t left = len;
    if (d == NULL || dc == NULL || !OSSL_DECODER_CTX_add_decoder(dc, d) ||
        !OSSL_DECODER_CTX_set_construct(dc, exported ? export_construct : count_construct) ||
        !OSSL_DECODER_CTX_set_construct_data(dc, exported ? (void *)exported : &calls) ||
        !OSSL_DECODER_CTX_set_input_type(dc, "DER")) {
        fprintf(stderr, "cannot set up quill's %s %s decoder\n", set_names[s], structure);
        QT_CHECK(0);
        calls = -1;
    } else if (!OSSL_DECODER_from_data(dc, &p, &left)) {
        calls = 0;
    } else if (exported != NULL) {
        calls = 1;
    }
    OSSL_DECODER_CTX_free(dc);
    OSSL_DECODER_free(d);
    return calls;
}

static int direct_decode(int s, const char *structure, const uint8_t *der, size_t len) {
    return direct_decode_ex(s, structure, der, len, NULL);
}

/* ---- Round trips ------------------------------------------------------------ */

static unsigned long round_trips;

static void check_decoded(const char *what, int s, EVP_PKEY *orig, EVP_PKEY *got, int private) {
    int ok = got != NULL && is_quill(got) && EVP_PKEY_is_a(got, set_names[s]) &&
             (private ? same_key(orig, got) : EVP_PKEY_eq(orig, got) == 1);
    if (!ok) {
        fprintf(stderr, "%s %s: round trip failed\n", set_names[s], what);
        ERR_print_errors_fp(stderr);
    }
    QT_CHECK(ok);
    round_trips++;
    EVP_PKEY_free(got);
}

/* Expected length of each form's PrivateKeyInfo. */
static size_t pki_len(int s, int form) {
    static buf b;
    static const uint8_t zero[4896];
    make_pki(&b, s, form, zero, SEED_LEN, zero, priv_len[s]);
    return b.n;
}

static void test_round_trips(int s) {
    EVP_PKEY *k = keygen(libctx, s);
    QT_CHECK(k != NULL && is_quill(k));
    if (k == NULL)
        return;
    static parts p;
    get_parts(k, &p);
    QT_CHECK(p.seedl == SEED_LEN && p.privl == priv_len[s] && p.publ == pub_len[s]);
    static buf der, want;

    /* DER PrivateKeyInfo: the "both" form by default, exactly. */
    QT_CHECK(encode(k, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &der));
    make_pki(&want, s, FORM_BOTH, p.seed, SEED_LEN, p.priv, p.privl);
    QT_CHECK(der.n == want.n && memcmp(der.b, want.b, der.n) == 0);
    check_decoded("DER PrivateKeyInfo", s, k, decode(der.b, der.n, "PrivateKeyInfo",
                                                     EVP_PKEY_KEYPAIR), 1);
    /* Without naming the structure, and with selection 0 (anything). */
    check_decoded("DER, any structure", s, k, decode(der.b, der.n, NULL, 0), 1);
    /* The same PrivateKeyInfo carrying attributes ([0], a 20000-byte value
     * of an arbitrary type): the decoder reads input of any size below its
     * 1 MiB limit, here past two of its buffer's growth steps. */
    {
        static uint8_t big[MAX_DER + 24000];
        static const uint8_t attr_type[] = {0x06, 0x03, 0x2a, 0x03, 0x04}; /* 1.2.3.4 */
        const size_t vl = 20000, setl = 4 + vl, attrl = sizeof(attr_type) + 4 + setl;
        const size_t seql = 4 + attrl, attrsl = 4 + seql;
        size_t n = 0, body = der.n - 4 + attrsl; /* der's own header is 4 bytes */
        QT_CHECK(der.b[0] == 0x30 && der.b[1] == 0x82);
        const uint8_t hdr[] = {0x30, 0x82, (uint8_t)(body >> 8), (uint8_t)body};
        memcpy(big + n, hdr, 4);
        n += 4;
        memcpy(big + n, der.b + 4, der.n - 4);
        n += der.n - 4;
        const uint8_t h_attrs[] = {0xa0, 0x82, (uint8_t)(seql >> 8), (uint8_t)seql,
                                   0x30, 0x82, (uint8_t)(attrl >> 8), (uint8_t)attrl};
        memcpy(big + n, h_attrs, sizeof(h_attrs));
        n += sizeof(h_attrs);
        memcpy(big + n, attr_type, sizeof(attr_type));
        n += sizeof(attr_type);
        const uint8_t h_set[] = {0x31, 0x82, (uint8_t)(setl >> 8), (uint8_t)setl,
                                 0x04, 0x82, (uint8_t)(vl >> 8), (uint8_t)vl};
        memcpy(big + n, h_set, sizeof(h_set));
        n += sizeof(h_set);
        memset(big + n, 0x5a, vl);
        n += vl;
        QT_CHECK(n == 4 + body && n > 2 * 8192);
        check_decoded("DER PrivateKeyInfo with 20 kB of attributes", s, k,
                      decode(big, n, "PrivateKeyInfo", EVP_PKEY_KEYPAIR), 1);
    }
    /* The legacy-named calls: i2d_PrivateKey writes the same bytes,
     * d2i_AutoPrivateKey reads them. */
    unsigned char *legacy = NULL;
    int legacy_len = i2d_PrivateKey(k, &legacy);
    QT_CHECK(legacy_len > 0 && (size_t)legacy_len == der.n && memcmp(legacy, der.b, der.n) == 0);
    OPENSSL_free(legacy);
    const unsigned char *lp = der.b;
    check_decoded("d2i_AutoPrivateKey", s, k,
                  d2i_AutoPrivateKey_ex(NULL, &lp, (long)der.n, libctx, NULL), 1);

    /* PEM PrivateKeyInfo through the PEM API. */
    BIO *bio = BIO_new(BIO_s_mem());
    QT_CHECK(PEM_write_bio_PrivateKey(bio, k, NULL, NULL, 0, NULL, NULL) == 1);
    char *pem = NULL;
    long pem_len = BIO_get_mem_data(bio, &pem);
    QT_CHECK(pem_len > 0 && strncmp(pem, "-----BEGIN PRIVATE KEY-----", 27) == 0);
    check_decoded("PEM PrivateKeyInfo", s, k,
                  PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, NULL), 1);
    BIO_free(bio);

    /* Encrypted PEM with a passphrase; a wrong one fails. */
    bio = BIO_new(BIO_s_mem());
    QT_CHECK(PEM_write_bio_PrivateKey(bio, k, EVP_aes_256_cbc(), (unsigned char *)pass,
                                      (int)strlen(pass), NULL, NULL) == 1);
    pem_len = BIO_get_mem_data(bio, &pem);
    QT_CHECK(pem_len > 0 && strncmp(pem, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0);
    BIO *bio2 = BIO_new_mem_buf(pem, (int)pem_len);
    EVP_PKEY *bad = PEM_read_bio_PrivateKey_ex(bio2, NULL, NULL, (void *)"wrong", libctx, NULL);
    QT_CHECK(bad == NULL && error_seen(NULL));
    EVP_PKEY_free(bad);
    BIO_free(bio2);
    check_decoded("encrypted PEM", s, k,
                  PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, (void *)pass, libctx, NULL), 1);
    BIO_free(bio);

    /* The EncryptedPrivateKeyInfo encoder, DER and PEM. */
    QT_CHECK(encode(k, "DER", "EncryptedPrivateKeyInfo", EVP_PKEY_KEYPAIR, "AES-128-CBC", &der));
    QT_CHECK(der.n > want.n && !contains(der.b, der.n, p.seed, SEED_LEN));
    check_decoded("DER EncryptedPrivateKeyInfo", s, k,
                  decode_in(libctx, der.b, der.n, "DER", NULL, EVP_PKEY_KEYPAIR, pass), 1);
    bad = decode_in(libctx, der.b, der.n, "DER", NULL, EVP_PKEY_KEYPAIR, "wrong");
    QT_CHECK(bad == NULL);
    EVP_PKEY_free(bad);
    ERR_clear_error();
    QT_CHECK(encode(k, "PEM", "EncryptedPrivateKeyInfo", EVP_PKEY_KEYPAIR, "AES-256-CBC", &der));
    QT_CHECK(der.n > 37 && memcmp(der.b, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0);
    check_decoded("PEM EncryptedPrivateKeyInfo", s, k,
                  decode_in(libctx, der.b, der.n, "PEM", NULL, EVP_PKEY_KEYPAIR, pass), 1);
    /* Without a cipher the EncryptedPrivateKeyInfo encoder refuses. */
    QT_CHECK(!encode(k, "DER", "EncryptedPrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &der));
    ERR_clear_error();

    /* SubjectPublicKeyInfo: DER via i2d_PUBKEY, PEM via the PEM API. */
    unsigned char *spki = NULL;
    int spki_len = i2d_PUBKEY(k, &spki);
    make_spki(&want, oid_last[s], p.pub, p.publ);
    QT_CHECK(spki_len > 0 && (size_t)spki_len == want.n && memcmp(spki, want.b, want.n) == 0);
    const unsigned char *q = spki;
    check_decoded("DER SPKI (d2i_PUBKEY)", s, k, d2i_PUBKEY_ex(NULL, &q, spki_len, libctx, NULL),
                  0);
    check_decoded("DER SPKI (decoder)", s, k,
                  decode(spki, (size_t)spki_len, "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY), 0);
    OPENSSL_free(spki);
    bio = BIO_new(BIO_s_mem());
    QT_CHECK(PEM_write_bio_PUBKEY(bio, k) == 1);
    pem_len = BIO_get_mem_data(bio, &pem);
    QT_CHECK(pem_len > 0 && strncmp(pem, "-----BEGIN PUBLIC KEY-----", 26) == 0);
    EVP_PKEY *pubk = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, libctx, NULL);
    QT_CHECK(pubk != NULL && EVP_PKEY_eq(k, pubk) == 1);
    if (pubk != NULL) {
        /* A public key has no PrivateKeyInfo. */
        QT_CHECK(!encode(pubk, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &der));
        ERR_clear_error();
        QT_CHECK(encode(pubk, "DER", "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY, NULL, &der));
        QT_CHECK(der.n == want.n && memcmp(der.b, want.b, der.n) == 0);
    }
    check_decoded("PEM SPKI", s, k, pubk, 0);
    BIO_free(bio);

    /* Every form built here decodes to the same key; the forms with a seed
     * keep it, the expanded-only ones have none. */
    for (int form = FORM_SEED; form <= FORM_BARE_PRIV; form++) {
        int no_seed = form == FORM_PRIV || form == FORM_BARE_PRIV;
        make_pki(&der, s, form, p.seed, SEED_LEN, p.priv, p.privl);
        EVP_PKEY *got = decode(der.b, der.n, "PrivateKeyInfo", EVP_PKEY_KEYPAIR);
        QT_CHECK(got != NULL && EVP_PKEY_eq(k, got) == 1);
        if (got != NULL) {
            static parts g;
            get_parts(got, &g);
            QT_CHECK(g.privl == p.privl && memcmp(g.priv, p.priv, p.privl) == 0);
            QT_CHECK(no_seed ? g.seedl == 0
                             : g.seedl == SEED_LEN && !memcmp(g.seed, p.seed, SEED_LEN));
            /* Re-encoded by default: "both" with a seed, else expanded. */
            QT_CHECK(encode(got, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &want));
            QT_CHECK(want.n == pki_len(s, no_seed ? FORM_PRIV : FORM_BOTH));
        }
        round_trips++;
        EVP_PKEY_free(got);
    }

    /* The decoder's export_object (used when the key manager is another
     * provider's) hands over the same parts. */
    static parts e;
    make_pki(&der, s, FORM_BOTH, p.seed, SEED_LEN, p.priv, p.privl);
    QT_CHECK(direct_decode_ex(s, "PrivateKeyInfo", der.b, der.n, &e) == 1);
    QT_CHECK(e.publ == p.publ && e.privl == p.privl && e.seedl == SEED_LEN &&
             !memcmp(e.pub, p.pub, p.publ) && !memcmp(e.priv, p.priv, p.privl) &&
             !memcmp(e.seed, p.seed, SEED_LEN));
    make_spki(&der, oid_last[s], p.pub, p.publ);
    QT_CHECK(direct_decode_ex(s, "SubjectPublicKeyInfo", der.b, der.n, &e) == 1);
    QT_CHECK(e.publ == p.publ && e.privl == 0 && e.seedl == 0 && !memcmp(e.pub, p.pub, p.publ));
    EVP_PKEY_free(k);
}

/* ---- Output forms from the provider configuration --------------------------- */

/* A library context configured from a file that loads default and quill
 * with ml-dsa.output_formats = |formats|, and openssl.cnf.example's
 * default properties: on OpenSSL 3.5+, whose default provider has ML-DSA
 * too, they put the key (and so its encoding) on quill. */
static OSSL_LIB_CTX *configured_libctx(const char *formats, char *path, size_t path_cap) {
    const char *mods = getenv("OPENSSL_MODULES");
    snprintf(path, path_cap, "%s/mldsa_codec_%ld.cnf", mods != NULL ? mods : ".", (long)getpid());
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return NULL;
    fprintf(f,
            "openssl_conf = conf\n[conf]\nproviders = provs\nalg_section = algs\n"
            "[algs]\ndefault_properties = ?quill.sig=yes\n"
            "[provs]\ndefault = def\nquill = quill\n"
            "[def]\nactivate = 1\n"
            "[quill]\nmodule = %s/quill.so\nactivate = 1\nml-dsa.output_formats = %s\n",
            mods != NULL ? mods : ".", formats);
    fclose(f);
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    if (ctx != NULL && !OSSL_LIB_CTX_load_config(ctx, path)) {
        ERR_print_errors_fp(stderr);
        OSSL_LIB_CTX_free(ctx);
        ctx = NULL;
    }
    return ctx;
}

static void test_output_formats(void) {
    static const struct {
        const char *conf;
        int form_seed; /* the form for a key with its seed */
    } cases[] = {
        {"seed-only", FORM_SEED},
        {"priv-only", FORM_PRIV},
        {"seed-priv", FORM_BOTH},
        {"bare-seed, seed-only, priv-only", FORM_SEED},
        {"oqskeypair:priv-only", FORM_PRIV},
    };
    for (size_t c = 0; c < QT_ARRAY_LEN(cases); c++) {
        char path[512];
        OSSL_LIB_CTX *ctx = configured_libctx(cases[c].conf, path, sizeof(path));
        QT_CHECK(ctx != NULL);
        for (int s = 0; ctx != NULL && s < NSETS; s++) {
            EVP_PKEY *k = keygen(ctx, s);
            QT_CHECK(k != NULL);
            if (k == NULL)
                continue;
            static parts p;
            static buf der, want;
            get_parts(k, &p);
            QT_CHECK(encode(k, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &der));
            make_pki(&want, s, cases[c].form_seed, p.seed, SEED_LEN, p.priv, p.privl);
            int same = der.n == want.n && memcmp(der.b, want.b, der.n) == 0;
            if (!same)
                fprintf(stderr, "%s with output_formats \"%s\": %zu bytes, want %zu\n",
                        set_names[s], cases[c].conf, der.n, want.n);
            QT_CHECK(same);
            /* Decoded in another library context: the same key. */
            EVP_PKEY *got = decode(der.b, der.n, "PrivateKeyInfo", EVP_PKEY_KEYPAIR);
            QT_CHECK(got != NULL && EVP_PKEY_eq(k, got) == 1);
            EVP_PKEY_free(got);
            /* A key without its seed: always the expanded form. */
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(ctx, set_names[s], NULL);
            OSSL_PARAM params[] = {
                OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, p.priv, p.privl),
                OSSL_PARAM_END,
            };
            EVP_PKEY *noseed = NULL;
            QT_CHECK(pc != NULL && EVP_PKEY_fromdata_init(pc) > 0 &&
                     EVP_PKEY_fromdata(pc, &noseed, EVP_PKEY_KEYPAIR, params) > 0);
            EVP_PKEY_CTX_free(pc);
            if (noseed != NULL) {
                QT_CHECK(encode(noseed, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &der));
                make_pki(&want, s, FORM_PRIV, NULL, 0, p.priv, p.privl);
                QT_CHECK(der.n == want.n && memcmp(der.b, want.b, der.n) == 0);
            }
            EVP_PKEY_free(noseed);
            EVP_PKEY_free(k);
            round_trips++;
        }
        OSSL_LIB_CTX_free(ctx);
        unlink(path);
    }
}

static void expect_refused(const char *what, int s, const uint8_t *der, size_t len, int sel,
                           const char *needle);

/* ---- Wycheproof -------------------------------------------------------------- */

static unsigned long wp_keys, wp_refused, wp_no_pkcs8;

/* privateKeyPkcs8 (seed form) decodes to the key of privateSeed/publicKey
 * and re-encodes byte for byte under output_formats = seed-only. */
static int wycheproof_sign_seed(int s, OSSL_LIB_CTX *seed_only) {
    char name[96];
    snprintf(name, sizeof(name), "wycheproof/mldsa_%s_sign_seed_test.json", set_names[s] + 7);
    int absent = 0;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL) {
        QT_CHECK(absent); /* a malformed file fails */
        return !absent;
    }
    const cJSON *groups = qt_json_array(root, "testGroups"), *g;
    cJSON_ArrayForEach(g, groups) {
        /* The tests (signatures) are mldsa_wycheproof's business. */
        static const char *const known[] = {"type", "privateSeed", "privateKeyPkcs8",
                                            "publicKey", "source", "tests", NULL};
        QT_CHECK(qt_json_check_fields(g, known, name));
        uint8_t *seed = NULL, *pkcs8 = NULL, *pub = NULL;
        size_t seedl = 0, pkcs8l = 0, publ = 0;
        /* privateKeyPkcs8 is absent from some groups, and empty (with no
         * publicKey) for the seeds of a wrong length. */
        const cJSON *pk8 = cJSON_GetObjectItemCaseSensitive(g, "privateKeyPkcs8");
        int read = qt_json_hex(g, "privateSeed", &seed, &seedl);
        if (read && seedl != SEED_LEN) {
            /* The seed form with that seed: refused for its length. */
            static buf t;
            make_pki(&t, s, FORM_SEED, seed, seedl, NULL, 0);
            expect_refused("Wycheproof seed of a wrong length", s, t.b, t.n, EVP_PKEY_KEYPAIR,
                           "length");
            wp_refused++;
            free(seed);
            continue;
        }
        if (pk8 == NULL || cJSON_IsNull(pk8)) {
            wp_no_pkcs8++;
            free(seed);
            continue;
        }
        read = read && qt_json_hex(g, "privateKeyPkcs8", &pkcs8, &pkcs8l) &&
               qt_json_hex(g, "publicKey", &pub, &publ);
        QT_CHECK(read);
        EVP_PKEY *k = read ? decode(pkcs8, pkcs8l, "PrivateKeyInfo", EVP_PKEY_KEYPAIR) : NULL;
        QT_CHECK(k != NULL && is_quill(k));
        if (k != NULL) {
            static parts p;
            get_parts(k, &p);
            QT_CHECK(p.publ == publ && memcmp(p.pub, pub, publ) == 0);
            QT_CHECK(p.seedl == seedl && memcmp(p.seed, seed, seedl) == 0);
            static buf der;
            /* Re-encoded where the configuration says seed-only. */
            EVP_PKEY *k2 = decode_in(seed_only, pkcs8, pkcs8l, "DER", "PrivateKeyInfo",
                                     EVP_PKEY_KEYPAIR, NULL);
            QT_CHECK(k2 != NULL && encode(k2, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL,
                                          &der) &&
                     der.n == pkcs8l && memcmp(der.b, pkcs8, pkcs8l) == 0);
            EVP_PKEY_free(k2);
            wp_keys++;
        }
        EVP_PKEY_free(k);
        free(seed);
        free(pkcs8);
        free(pub);
    }
    cJSON_Delete(root);
    return 1;
}

/* publicKeyDer decodes to publicKey and re-encodes byte for byte; keys of
 * the wrong length are refused with an error. */
static int wycheproof_verify(int s) {
    char name[96];
    snprintf(name, sizeof(name), "wycheproof/mldsa_%s_verify_test.json", set_names[s] + 7);
    int absent = 0;
    cJSON *root = qt_json_load_vector(name, &absent);
    if (root == NULL) {
        QT_CHECK(absent); /* a malformed file fails */
        return !absent;
    }
    const cJSON *groups = qt_json_array(root, "testGroups"), *g;
    cJSON_ArrayForEach(g, groups) {
        static const char *const known[] = {"type", "publicKey", "publicKeyDer", "source",
                                            "tests", NULL};
        QT_CHECK(qt_json_check_fields(g, known, name));
        uint8_t *der = NULL, *pub = NULL;
        size_t derl = 0, publ = 0;
        int read = qt_json_hex(g, "publicKeyDer", &der, &derl) &&
                   qt_json_hex(g, "publicKey", &pub, &publ);
        QT_CHECK(read);
        if (!read) {
            free(der);
            free(pub);
            continue;
        }
        const unsigned char *q = der;
        EVP_PKEY *k = d2i_PUBKEY_ex(NULL, &q, (long)derl, libctx, NULL);
        if (publ != pub_len[s]) {
            /* d2i_PUBKEY replaces the decoder's error with its own. */
            QT_CHECK(k == NULL && error_seen(NULL));
            EVP_PKEY *k2 = decode(der, derl, "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY);
            QT_CHECK(k2 == NULL && error_seen("length"));
            EVP_PKEY_free(k2);
            wp_refused++;
        } else {
            QT_CHECK(k != NULL && is_quill(k));
            if (k != NULL) {
                static parts p;
                get_parts(k, &p);
                QT_CHECK(p.publ == publ && memcmp(p.pub, pub, publ) == 0);
                unsigned char *out = NULL;
                int n = i2d_PUBKEY(k, &out);
                QT_CHECK(n > 0 && (size_t)n == derl && memcmp(out, der, derl) == 0);
                OPENSSL_free(out);
                wp_keys++;
            }
        }
        EVP_PKEY_free(k);
        free(der);
        free(pub);
    }
    cJSON_Delete(root);
    return 1;
}

/* ---- Tampering ---------------------------------------------------------------- */

static unsigned long tampered;

/* der must not decode, neither through OpenSSL's decoder chain nor by
 * quill's PrivateKeyInfo and SPKI decoders of set s run alone, and must
 * leave an error on the queue (|needle| in it, if given).  With
 * chain_trims, OpenSSL's chain may instead decode it while leaving the
 * trailing byte unconsumed, as it does for every key type (its DER-to-DER
 * steps cut the input to the first DER object). */
static void expect_refused_ex(const char *what, int s, const uint8_t *der, size_t len, int sel,
                              const char *needle, int chain_trims) {
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *dc = OSSL_DECODER_CTX_new_for_pkey(&k, "DER", NULL, NULL, sel, libctx, NULL);
    const unsigned char *p = der;
    size_t left = len;
    int decoded = dc != NULL && OSSL_DECODER_from_data(dc, &p, &left) && k != NULL;
    OSSL_DECODER_CTX_free(dc);
    int ok = decoded ? chain_trims && left == 1 : error_seen(needle);
    ERR_clear_error();
    int direct = direct_decode(s, "PrivateKeyInfo", der, len) +
                 direct_decode(s, "SubjectPublicKeyInfo", der, len);
    int direct_err = error_seen(needle);
    if (!ok || direct != 0 || !direct_err)
        fprintf(stderr, "%s %s (%zu bytes): chain %s, quill's decoders %s\n", set_names[s], what,
                len, ok ? "ok" : decoded ? "accepted" : "no matching error",
                direct != 0 ? "accepted" : direct_err ? "refused" : "no matching error");
    QT_CHECK(ok && direct == 0 && direct_err);
    ERR_clear_error();
    EVP_PKEY_free(k);
    tampered++;
}

static void expect_refused(const char *what, int s, const uint8_t *der, size_t len, int sel,
                           const char *needle) {
    expect_refused_ex(what, s, der, len, sel, needle, 0);
}

static void test_tampering(int s) {
    EVP_PKEY *k = keygen(libctx, s), *other = keygen(libctx, s);
    QT_CHECK(k != NULL && other != NULL);
    if (k == NULL || other == NULL) {
        EVP_PKEY_free(k);
        EVP_PKEY_free(other);
        return;
    }
    static parts p, o;
    static buf pki, spki, seedform, t;
    get_parts(k, &p);
    get_parts(other, &o);
    make_pki(&pki, s, FORM_BOTH, p.seed, SEED_LEN, p.priv, p.privl);
    make_pki(&seedform, s, FORM_SEED, p.seed, SEED_LEN, NULL, 0);
    make_spki(&spki, oid_last[s], p.pub, p.publ);

    /* Truncations: every length of the seed form and of the SPKI up to its
     * key, then every 7th; every length of the "both" form's framing, then
     * every 13th. */
    for (size_t n = 0; n < seedform.n; n++)
        expect_refused("truncated seed PrivateKeyInfo", s, seedform.b, n, EVP_PKEY_KEYPAIR, NULL);
    for (size_t n = 0; n < spki.n; n += n < 64 ? 1 : 7)
        expect_refused("truncated SPKI", s, spki.b, n, EVP_PKEY_PUBLIC_KEY, NULL);
    for (size_t n = 0; n < pki.n; n += n < 80 ? 1 : 13)
        expect_refused("truncated PrivateKeyInfo", s, pki.b, n, EVP_PKEY_KEYPAIR, NULL);
    expect_refused("truncated PrivateKeyInfo", s, pki.b, pki.n - 1, EVP_PKEY_KEYPAIR, NULL);
    expect_refused("truncated SPKI", s, spki.b, spki.n - 1, EVP_PKEY_PUBLIC_KEY, NULL);

    /* Flipped tag bytes (each of a few bit patterns) at every tag of the
     * framing: PKI outer, version, algid, OID, privateKey, both, seed,
     * expandedKey; SPKI outer, algid, OID, BIT STRING. */
    const size_t pki_tags[] = {0, 4, 7, 9, 20, 24, 28, 62};
    const size_t spki_tags[] = {0, 4, 6, 17};
    const uint8_t flips[] = {0x01, 0x02, 0x20, 0x80, 0xff};
    for (size_t i = 0; i < QT_ARRAY_LEN(pki_tags); i++) {
        for (size_t f = 0; f < QT_ARRAY_LEN(flips); f++) {
            t = pki;
            t.b[pki_tags[i]] ^= flips[f];
            expect_refused("PrivateKeyInfo with a flipped tag", s, t.b, t.n, EVP_PKEY_KEYPAIR,
                           NULL);
        }
    }
    for (size_t i = 0; i < QT_ARRAY_LEN(spki_tags); i++) {
        for (size_t f = 0; f < QT_ARRAY_LEN(flips); f++) {
            t = spki;
            t.b[spki_tags[i]] ^= flips[f];
            expect_refused("SPKI with a flipped tag", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, NULL);
        }
    }

    /* Trailing bytes after the key. */
    t = pki;
    t.b[t.n++] = 0;
    expect_refused_ex("PrivateKeyInfo + 1 byte", s, t.b, t.n, EVP_PKEY_KEYPAIR, "malformed", 1);
    t = spki;
    t.b[t.n++] = 0;
    expect_refused_ex("SPKI + 1 byte", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, "malformed", 1);

    /* The OID of another set (wrong lengths for it) or an unknown arc. */
    for (int other_set = 0; other_set < NSETS; other_set++) {
        if (other_set == s)
            continue;
        make_spki(&t, oid_last[other_set], p.pub, p.publ);
        expect_refused("SPKI with another set's OID", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, NULL);
        t = pki;
        t.b[19] = oid_last[other_set];
        expect_refused("PrivateKeyInfo with another set's OID", s, t.b, t.n, EVP_PKEY_KEYPAIR,
                       NULL);
    }
    make_spki(&t, 0x14, p.pub, p.publ);
    expect_refused("SPKI with an unknown OID", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, NULL);

    /* NULL parameters in the AlgorithmIdentifier. */
    {
        buf body = {.n = 0}, bits = {.n = 0};
        const uint8_t algid[] = {0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                 0x65, 0x03, 0x04, 0x03, oid_last[s], 0x05, 0x00};
        const uint8_t zero = 0;
        put(&body, algid, sizeof(algid));
        put(&bits, &zero, 1);
        put(&bits, p.pub, p.publ);
        put_tlv(&body, 0x03, bits.b, bits.n);
        t.n = 0;
        put_tlv(&t, 0x30, body.b, body.n);
        expect_refused("SPKI with NULL parameters", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY,
                       "malformed");
    }
    /* Unused bits in the BIT STRING. */
    t = spki;
    t.b[21] = 1;
    expect_refused("SPKI with unused bits", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, "malformed");
    /* Version 2. */
    t = pki;
    t.b[6] = 2;
    expect_refused("PrivateKeyInfo version 2", s, t.b, t.n, EVP_PKEY_KEYPAIR, NULL);

    /* Seeds of 31 and 33 bytes, an expanded key one byte short, and a
     * public key one byte short / long. */
    make_pki(&t, s, FORM_SEED, p.seed, SEED_LEN - 1, NULL, 0);
    expect_refused("31-byte seed", s, t.b, t.n, EVP_PKEY_KEYPAIR, "length");
    uint8_t seed33[SEED_LEN + 1] = {0};
    memcpy(seed33, p.seed, SEED_LEN);
    make_pki(&t, s, FORM_SEED, seed33, SEED_LEN + 1, NULL, 0);
    expect_refused("33-byte seed", s, t.b, t.n, EVP_PKEY_KEYPAIR, "length");
    make_pki(&t, s, FORM_PRIV, NULL, 0, p.priv, p.privl - 1);
    expect_refused("short expanded key", s, t.b, t.n, EVP_PKEY_KEYPAIR, "length");
    make_pki(&t, s, FORM_BOTH, p.seed, SEED_LEN, p.priv, p.privl - 1);
    expect_refused("both, short expanded key", s, t.b, t.n, EVP_PKEY_KEYPAIR, "length");
    make_spki(&t, oid_last[s], p.pub, p.publ - 1);
    expect_refused("short public key", s, t.b, t.n, EVP_PKEY_PUBLIC_KEY, "length");

    /* A seed that does not match the expanded key: another key's seed, and
     * the right seed with one bit of the expanded key flipped. */
    make_pki(&t, s, FORM_BOTH, o.seed, SEED_LEN, p.priv, p.privl);
    expect_refused("mismatched seed", s, t.b, t.n, EVP_PKEY_KEYPAIR, "seed");
    static uint8_t priv2[4896];
    memcpy(priv2, p.priv, p.privl);
    priv2[p.privl - 1] ^= 1;
    make_pki(&t, s, FORM_BOTH, p.seed, SEED_LEN, priv2, p.privl);
    expect_refused("flipped expanded key", s, t.b, t.n, EVP_PKEY_KEYPAIR, "seed");

    /* Untouched, the same encodings still decode (the checks above did
     * not refuse everything). */
    EVP_PKEY *ok1 = decode(pki.b, pki.n, NULL, EVP_PKEY_KEYPAIR);
    EVP_PKEY *ok2 = decode(spki.b, spki.n, NULL, EVP_PKEY_PUBLIC_KEY);
    QT_CHECK(ok1 != NULL && ok2 != NULL && EVP_PKEY_eq(ok1, k) == 1 && EVP_PKEY_eq(ok2, k) == 1);
    EVP_PKEY_free(ok1);
    EVP_PKEY_free(ok2);
    EVP_PKEY_free(k);
    EVP_PKEY_free(other);
}

/* ---- RSA and EC keys still load ---------------------------------------------- */

static unsigned long other_loads;

static void check_loaded(const char *what, EVP_PKEY *orig, EVP_PKEY *got, int private) {
    int ok = got != NULL && EVP_PKEY_eq(orig, got) == 1;
    if (ok && private) {
        /* The private half too: a signature by |got| verifies with orig. */
        uint8_t sig[1024];
        size_t sigl = sizeof(sig);
        const uint8_t msg[] = "quill";
        EVP_MD_CTX *mc = EVP_MD_CTX_new();
        ok = mc != NULL &&
             EVP_DigestSignInit_ex(mc, NULL, "SHA256", libctx, NULL, got, NULL) == 1 &&
             EVP_DigestSign(mc, sig, &sigl, msg, sizeof(msg)) == 1;
        EVP_MD_CTX_free(mc);
        mc = EVP_MD_CTX_new();
        ok = ok && mc != NULL &&
             EVP_DigestVerifyInit_ex(mc, NULL, "SHA256", libctx, NULL, orig, NULL) == 1 &&
             EVP_DigestVerify(mc, sig, sigl, msg, sizeof(msg)) == 1;
        EVP_MD_CTX_free(mc);
    }
    if (!ok) {
        fprintf(stderr, "%s did not load\n", what);
        ERR_print_errors_fp(stderr);
    }
    QT_CHECK(ok);
    other_loads++;
    EVP_PKEY_free(got);
}

static void test_other_keys(void) {
    EVP_PKEY *keys[2];
    const char *names[2] = {"RSA", "EC"};
    keys[0] = EVP_PKEY_Q_keygen(libctx, "provider=default", "RSA", (size_t)2048);
    keys[1] = EVP_PKEY_Q_keygen(libctx, "provider=default", "EC", "P-256");
    for (int i = 0; i < 2; i++) {
        EVP_PKEY *k = keys[i];
        QT_CHECK(k != NULL);
        if (k == NULL)
            continue;
        char what[96];
        BIO *b;
        /* PKCS#8 PEM, traditional PEM, encrypted PKCS#8 PEM. */
        for (int kind = 0; kind < 3; kind++) {
            b = BIO_new(BIO_s_mem());
            int w = kind == 0   ? PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL)
                    : kind == 1 ? PEM_write_bio_PrivateKey_traditional(b, k, NULL, NULL, 0,
                                                                       NULL, NULL)
                                : PEM_write_bio_PrivateKey(b, k, EVP_aes_256_cbc(),
                                                           (unsigned char *)pass,
                                                           (int)strlen(pass), NULL, NULL);
            QT_CHECK(w == 1);
            snprintf(what, sizeof(what), "%s %s PEM", names[i],
                     kind == 0 ? "PKCS#8" : kind == 1 ? "traditional" : "encrypted PKCS#8");
            check_loaded(what, k,
                         PEM_read_bio_PrivateKey_ex(b, NULL, NULL, (void *)pass, libctx, NULL),
                         1);
            BIO_free(b);
        }
        /* SPKI PEM and DER, PKCS#8 DER through OSSL_DECODER. */
        b = BIO_new(BIO_s_mem());
        QT_CHECK(PEM_write_bio_PUBKEY(b, k) == 1);
        snprintf(what, sizeof(what), "%s SPKI PEM", names[i]);
        check_loaded(what, k, PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, libctx, NULL), 0);
        BIO_free(b);
        unsigned char *der = NULL;
        int n = i2d_PUBKEY(k, &der);
        const unsigned char *q = der;
        snprintf(what, sizeof(what), "%s SPKI DER", names[i]);
        check_loaded(what, k, n > 0 ? d2i_PUBKEY_ex(NULL, &q, n, libctx, NULL) : NULL, 0);
        snprintf(what, sizeof(what), "%s SPKI DER (decoder)", names[i]);
        check_loaded(what, k, n > 0 ? decode(der, (size_t)n, NULL, EVP_PKEY_PUBLIC_KEY) : NULL, 0);
        OPENSSL_free(der);
        /* Traditional (type-specific) DER through the decoder chain. */
        der = NULL;
        n = i2d_PrivateKey(k, &der);
        snprintf(what, sizeof(what), "%s traditional DER (decoder)", names[i]);
        check_loaded(what, k, n > 0 ? decode(der, (size_t)n, NULL, EVP_PKEY_KEYPAIR) : NULL, 1);
        OPENSSL_free(der);
        static buf pk8;
        QT_CHECK(encode(k, "DER", "PrivateKeyInfo", EVP_PKEY_KEYPAIR, NULL, &pk8));
        snprintf(what, sizeof(what), "%s PKCS#8 DER (decoder)", names[i]);
        check_loaded(what, k, decode(pk8.b, pk8.n, NULL, EVP_PKEY_KEYPAIR), 1);
        snprintf(what, sizeof(what), "%s PKCS#8 DER (decoder, any selection)", names[i]);
        check_loaded(what, k, decode(pk8.b, pk8.n, NULL, 0), 1);
        EVP_PKEY_free(k);
    }
}

/* ---- Text --------------------------------------------------------------------- */

/* The OpenSSL 3.5 hex block for b[0..len): first line only. */
static void first_hex_line(char *out, const uint8_t *b, size_t len) {
    size_t n = len < 15 ? len : 15;
    char *o = out + sprintf(out, "    ");
    for (size_t i = 0; i < n; i++)
        o += sprintf(o, "%02x%s", b[i], i + 1 < len ? ":" : "");
    sprintf(o, "\n");
}

static void test_text(int s) {
    EVP_PKEY *k = keygen(libctx, s);
    QT_CHECK(k != NULL);
    if (k == NULL)
        return;
    static parts p;
    get_parts(k, &p);
    char header[64], line[128];
    for (int priv = 1; priv >= 0; priv--) {
        BIO *b = BIO_new(BIO_s_mem());
        int r = priv ? EVP_PKEY_print_private(b, k, 0, NULL) : EVP_PKEY_print_public(b, k, 0, NULL);
        QT_CHECK(r == 1);
        BIO_write(b, "", 1);
        char *text = NULL;
        BIO_get_mem_data(b, &text);
        snprintf(header, sizeof(header), "%s %s-Key:\n", set_names[s], priv ? "Private" : "Public");
        QT_CHECK(text != NULL && strncmp(text, header, strlen(header)) == 0);
        const char *at;
        at = text != NULL ? strstr(text, "\npub:\n") : NULL;
        first_hex_line(line, p.pub, p.publ);
        QT_CHECK(at != NULL && strncmp(at + 6, line, strlen(line)) == 0);
        at = text != NULL ? strstr(text, "\nseed:\n") : NULL;
        first_hex_line(line, p.seed, p.seedl);
        QT_CHECK(priv ? at != NULL && strncmp(at + 7, line, strlen(line)) == 0 : at == NULL);
        at = text != NULL ? strstr(text, "\npriv:\n") : NULL;
        first_hex_line(line, p.priv, p.privl);
        QT_CHECK(priv ? at != NULL && strncmp(at + 7, line, strlen(line)) == 0 : at == NULL);
        /* pub: ceil(len / 15) lines of hex, the last without ':' */
        size_t lines = 0;
        for (at = text != NULL ? strstr(text, "\npub:\n") : NULL; at != NULL && at[1] != '\0';) {
            at = strchr(at + 1, '\n');
            if (at == NULL || strncmp(at + 1, "    ", 4) != 0)
                break;
            lines++;
        }
        QT_CHECK(lines == (p.publ + 14) / 15);
        BIO_free(b);
    }
    EVP_PKEY_free(k);
}

int main(void) {
    OSSL_PROVIDER *def = NULL, *quill = NULL;
    libctx = qt_evp_libctx_new(&def, &quill);
    if (libctx == NULL) {
        fprintf(stderr, "cannot load default + quill\n");
        return 1;
    }
    for (int s = 0; s < NSETS; s++) {
        test_round_trips(s);
        test_tampering(s);
        test_text(s);
    }
    test_output_formats();
    test_other_keys();

    char path[512];
    OSSL_LIB_CTX *seed_only = configured_libctx("seed-only", path, sizeof(path));
    QT_CHECK(seed_only != NULL);
    int have_vectors = 1;
    for (int s = 0; s < NSETS && seed_only != NULL; s++) {
        have_vectors &= wycheproof_sign_seed(s, seed_only);
        have_vectors &= wycheproof_verify(s);
    }
    OSSL_LIB_CTX_free(seed_only);
    unlink(path);
    printf("mldsa_codec: %lu round trips, %lu refused encodings, %lu RSA/EC loads, "
           "Wycheproof: %lu keys matched, %lu refused, %lu groups without PKCS#8%s\n",
           round_trips, tampered, other_loads, wp_keys, wp_refused, wp_no_pkcs8,
           have_vectors ? "" : " (vectors absent)");
    qt_libctx_free(libctx, def, quill);
    return qt_finish("mldsa_codec");
}
