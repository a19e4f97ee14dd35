/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: quill's ML-DSA DER decoders through OSSL_DECODER, with
 * the default provider and quill loaded in one library context.
 *
 * Input: byte 0 picks the set (mod 3); byte 1 picks the starting encoding
 * (bits 0-1: SPKI, PrivateKeyInfo seed-only, expanded-only, both; bit 2
 * set: the rest is the DER itself), otherwise the rest is a list of
 * (offset hi, offset lo, xor) triples applied to the valid encoding, and a
 * final byte of 0xff..0xf0 truncates by its low nibble times 7.
 *
 * Oracle for an accepted ML-DSA key (over the bytes consumed: OpenSSL's
 * DER reader takes one object and reports what follows as left over):
 *   - the input is DER that OpenSSL itself parses as a SubjectPublicKeyInfo
 *     or PrivateKeyInfo and re-encodes to the same bytes (no BER, no
 *     trailing data), with no algorithm parameters;
 *   - a private key's inner ML-DSA-PrivateKey is exactly one of RFC 9881's
 *     three forms with the set's lengths (parsed here independently);
 *   - the key's parameters agree: seed -> (priv, pub) by KeyGen, priv ->
 *     pub, and they equal what the input carried. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

#include "fuzz_mldsa_der.h"
#include "mldsa/mldsa.h"

static OSSL_LIB_CTX *libctx;
static quill_mldsa_key *base[3];
static const char *const names[3] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    libctx = OSSL_LIB_CTX_new();
    const char *modules = getenv("OPENSSL_MODULES");
    if (modules != NULL && *modules != '\0')
        OSSL_PROVIDER_set_default_search_path(libctx, modules);
    if (OSSL_PROVIDER_load(libctx, "default") == NULL || OSSL_PROVIDER_load(libctx, "quill") == NULL)
        abort();
    for (int s = 0; s < 3; s++) {
        uint8_t seed[QUILL_MLDSA_SEED_BYTES];
        for (unsigned i = 0; i < sizeof(seed); i++)
            seed[i] = (uint8_t)(41 * i + s);
        if (quill_mldsa_key_from_seed(&base[s], (quill_mldsa_set)s, seed) != QUILL_OK)
            abort();
    }
    return 0;
}

/* Strict reader: one TLV at *p within end, definite minimal length. */
static int get_tlv(const uint8_t **p, const uint8_t *end, uint8_t tag, const uint8_t **v,
                   size_t *n) {
    const uint8_t *q = *p;
    if (end - q < 2 || q[0] != tag)
        return 0;
    size_t len = q[1];
    q += 2;
    if (len & 0x80) {
        size_t nb = len & 0x7f;
        if (nb == 0 || nb > 2 || (size_t)(end - q) < nb || q[0] == 0)
            return 0;
        len = 0;
        for (size_t i = 0; i < nb; i++)
            len = (len << 8) | *q++;
        if (len < 128 || (nb == 2 && len < 256))
            return 0;
    }
    if ((size_t)(end - q) < len)
        return 0;
    *v = q;
    *n = len;
    *p = q + len;
    return 1;
}

/* Checks the inner ML-DSA-PrivateKey (RFC 9881), setting seed/priv views. */
static int inner_ok(const uint8_t *in, size_t len, int set, const uint8_t **seed,
                    const uint8_t **priv) {
    const uint8_t *p = in, *end = in + len, *v;
    size_t n;
    const size_t privlen = quill_mldsa_priv_bytes((quill_mldsa_set)set);
    *seed = *priv = NULL;
    if (len == 0)
        return 0;
    if (in[0] == 0x80)
        return get_tlv(&p, end, 0x80, seed, &n) && n == 32 && p == end;
    if (in[0] == 0x04)
        return get_tlv(&p, end, 0x04, priv, &n) && n == privlen && p == end;
    if (!get_tlv(&p, end, 0x30, &v, &n) || p != end)
        return 0;
    const uint8_t *q = v, *qe = v + n;
    return get_tlv(&q, qe, 0x04, seed, &n) && n == 32 && get_tlv(&q, qe, 0x04, priv, &n) &&
           n == privlen && q == qe;
}

static int param(EVP_PKEY *pk, const char *name, uint8_t *buf, size_t cap, size_t *len) {
    return EVP_PKEY_get_octet_string_param(pk, name, buf, cap, len);
}

static void check_key(EVP_PKEY *pk, const uint8_t *der, size_t len) {
    int set = -1;
    for (int s = 0; s < 3; s++)
        if (EVP_PKEY_is_a(pk, names[s]))
            set = s;
    if (set < 0)
        return; /* another algorithm (the default provider's decoders) */
    const size_t publen = quill_mldsa_pub_bytes((quill_mldsa_set)set);
    const size_t privlen = quill_mldsa_priv_bytes((quill_mldsa_set)set);
    uint8_t pub[QUILL_MLDSA_MAX_PUB_BYTES], priv[QUILL_MLDSA_MAX_PRIV_BYTES], seed[64];
    size_t pl = 0, kl = 0, sl = 0;
    if (!param(pk, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &pl) || pl != publen)
        abort();
    int has_priv = param(pk, OSSL_PKEY_PARAM_PRIV_KEY, priv, sizeof(priv), &kl);
    int has_seed = param(pk, "seed", seed, sizeof(seed), &sl);
    const uint8_t *p = der;
    if (!has_priv) {
        if (has_seed)
            abort();
        X509_PUBKEY *xp = d2i_X509_PUBKEY(NULL, &p, (long)len);
        if (xp == NULL || p != der + len)
            abort(); /* quill accepted what OpenSSL's parser does not */
        uint8_t *re = NULL;
        int rl = i2d_X509_PUBKEY(xp, &re);
        if (rl != (int)len || memcmp(re, der, len) != 0)
            abort(); /* not DER */
        const unsigned char *kp;
        int kn;
        X509_ALGOR *alg;
        if (!X509_PUBKEY_get0_param(NULL, &kp, &kn, &alg, xp) || (size_t)kn != publen ||
            memcmp(kp, pub, publen) != 0)
            abort();
        int ptype;
        X509_ALGOR_get0(NULL, &ptype, NULL, alg);
        if (ptype != V_ASN1_UNDEF)
            abort(); /* parameters must be absent */
        OPENSSL_free(re);
        X509_PUBKEY_free(xp);
        return;
    }
    if (kl != privlen || (has_seed && sl != 32))
        abort();
    PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
    if (p8 == NULL || p != der + len)
        abort();
    uint8_t *re = NULL;
    int rl = i2d_PKCS8_PRIV_KEY_INFO(p8, &re);
    if (rl != (int)len || memcmp(re, der, len) != 0)
        abort();
    const unsigned char *in;
    int inl;
    const X509_ALGOR *alg;
    if (!PKCS8_pkey_get0(NULL, &in, &inl, &alg, p8))
        abort();
    int ptype;
    X509_ALGOR_get0(NULL, &ptype, NULL, alg);
    if (ptype != V_ASN1_UNDEF)
        abort();
    const uint8_t *dseed, *dpriv;
    if (!inner_ok(in, (size_t)inl, set, &dseed, &dpriv))
        abort(); /* quill accepted a malformed ML-DSA-PrivateKey */
    if (dseed != NULL && (!has_seed || memcmp(dseed, seed, 32) != 0))
        abort();
    if (dpriv != NULL && memcmp(dpriv, priv, privlen) != 0)
        abort();
    /* Consistency through the core, independently of the provider. */
    quill_mldsa_key *k = NULL;
    if (has_seed) {
        if (quill_mldsa_key_from_seed(&k, (quill_mldsa_set)set, seed) != QUILL_OK)
            abort();
        if (memcmp(quill_mldsa_key_priv(k), priv, privlen) != 0)
            abort(); /* seed and expanded key disagree */
    } else if (quill_mldsa_key_from_priv(&k, (quill_mldsa_set)set, priv, privlen) != QUILL_OK) {
        abort(); /* an expanded key that fails FIPS 204's checks */
    }
    if (memcmp(quill_mldsa_key_pub(k), pub, publen) != 0)
        abort();
    quill_mldsa_key_free(k);
    OPENSSL_free(re);
    PKCS8_PRIV_KEY_INFO_free(p8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    const int set = data[0] % 3, form = data[1] & 3;
    uint8_t *der;
    size_t len;
    if (data[1] & 4) {
        len = size - 2;
        der = malloc(len ? len : 1);
        if (der == NULL)
            return 0;
        memcpy(der, data + 2, len);
    } else {
        uint8_t buf[QUILL_FUZZ_MLDSA_DER_MAX];
        len = quill_fuzz_mldsa_der(buf, base[set], (quill_fuzz_mldsa_form)form);
        size_t i = 2;
        for (; i + 3 <= size; i += 3)
            buf[(((size_t)data[i] << 8) | data[i + 1]) % len] ^= data[i + 2];
        if (i < size && (data[i] & 0xf0) == 0xf0) {
            size_t cut = 7u * (data[i] & 15);
            len = cut < len ? len - cut : 0;
        }
        der = malloc(len ? len : 1);
        if (der == NULL)
            return 0;
        memcpy(der, buf, len);
    }
    EVP_PKEY *pk = NULL;
    OSSL_DECODER_CTX *dctx =
        OSSL_DECODER_CTX_new_for_pkey(&pk, "DER", NULL, NULL, 0, libctx, NULL);
    if (dctx == NULL)
        abort();
    const unsigned char *p = der;
    size_t left = len;
    /* OpenSSL's DER input reads one object and leaves what follows it
     * unread (reported in |left|, as for every key type): the oracle
     * looks at the bytes consumed. */
    if (OSSL_DECODER_from_data(dctx, &p, &left) && pk != NULL)
        check_key(pk, der, len - left);
    EVP_PKEY_free(pk);
    OSSL_DECODER_CTX_free(dctx);
    ERR_clear_error();
    free(der);
    return 0;
}
