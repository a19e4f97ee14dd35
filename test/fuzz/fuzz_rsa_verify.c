/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: RSA signature verification through EVP, quill against
 * OpenSSL's default provider on every input (both loaded in one library
 * context, each side fetched with "provider=quill" / "provider=default").
 *
 * Keys: four fixed two-prime keys, 2048, 2049 (e = 3: the PSS encoded
 * message one byte shorter than the modulus), 3072 and 4096 bits, built
 * at init from the primes below (generated once with openssl genpkey), in
 * each provider's key manager; or a public key carried in the input (the
 * seed corpus puts Wycheproof's there, test/fuzz/make_corpus.py).
 *
 * Input (bytes past the end read as zero):
 *   b0  bits 0-2: key (0-3 the fixed keys, 4-7 the key in the input);
 *       bit 3: quill verifies with the default provider's key object
 *       (exported to quill's key manager by OpenSSL); bit 4: quill signs
 *       the genuine signature (else the default provider); bit 5: the
 *       signature is in the input (else the genuine one); bit 6: without
 *       padding, keep the input's first byte (else 0, so that it is below
 *       the modulus)
 *   b1  bits 0-1: padding (PKCS#1 v1.5, PSS, X9.31, none); bits 2-3: the
 *       operation (EVP_PKEY_verify on the digest of the message, or on the
 *       message itself when no digest is set; EVP_DigestVerify one-shot;
 *       EVP_DigestVerifyUpdate in fuzz-chosen chunks; EVP_PKEY_verify_recover);
 *       bits 4-7: 0, or 1 + the index of a different digest to verify with
 *   b2  bits 0-3: digest (md_names[], 15: none); bits 4-7: 0 (MGF1 digest =
 *       the digest) or 1 + the MGF1 digest's index
 *   b3, b4  PSS salt length when signing, when verifying (salt_len())
 *   b5  the seed of the streaming chunk sizes
 *   u16 message length (mod 2048), the message
 *   key in the input: u16 modulus length, modulus (big-endian), u8
 *       exponent length, exponent
 *   signature in the input: u16 length, the signature
 *   the rest: mutations of the signature (fz_mutate: xor triples, then a
 *       length change), so that small changes of a genuine signature are
 *       reachable.
 *
 * Oracle: quill accepts exactly when the default provider does (a set-up
 * refusal counts as not accepted); verify-recover gives the same bytes;
 * each side's operation ran on the provider it was fetched from; quill's
 * "rsa-verify" counter moves by one exactly when quill accepted; an
 * unmutated genuine signature verified with the parameters it was made
 * with is accepted by both.
 *
 * One known divergence is counted instead of compared (unless the
 * environment sets QUILL_FUZZ_STRICT; see "known" below): raw PKCS#1 v1.5
 * verification of an empty tbs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "fuzz_sigcmp.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_BYTES 512 /* 4096 bits; keys in the input are capped there */
#define MAX_MSG 2048

static const struct {
    unsigned bits;
    unsigned long e;
    const char *p, *q;
} key_src[4] = {
    {2048, 65537,
     "f2ec5b7e784382c3e9d65b0a3960ac2cb5b2b33bf95e4ee40c9966e43e42383a5631cd6073e8f63f7f4a1589"
     "a1c98eb490196d88b50f282a0b29c7871f960d53961c164101a1bab9aa8ed27764fec086961b1b5392c6cbcd"
     "366885fc2ee295e25c88e0e36141897c68eabb0a5a4465a00182d15ccbb1cd59fa3e5e802a6a3365",
     "e988bca5f78e1b43b1be6f4e5553cedeacbf5c8ae47874a55457b2b5071f446e961671404f5f550bf4ad59f5"
     "2746ed4d70ae997d08ed71d226f3924ca891f6a6c1d4cbe9847666fa85f8a85a47a9f712294b46594ead4a8a"
     "6614c745728a85e9c4abf3bcbf8f6f73891fbe4accc40d4fef6caeb992581b9bf64e5c6c363fe0c9"},
    {2049, 3,
     "1cd1df84d7aee3801dccf6b981739352d9fc129a313036c88bdfa6d65aae6ae511bf9fff1fdfbff86972e414"
     "0c0ae93444f7d1f3f4ccf0e0d5039dd72cf0d6ab4850a5c26083b62b1192a821a59d047dcb858568a134b011"
     "a8586b476fa5e8435b3abb47ea5a8ad34226f3d8f247f3ec109bddf4ba2014d5e8d47cc4111469c6d",
     "d4fdf9caab7b19f74f16006dfbfe538c1e4c41e0e7d6645d0b594404faf29f7cd7a8ee98bb1294b68a238453"
     "2396f19a1fab78181fa790844af4a946da7a50692c7949cfd72e580b2b487024185eb55aee4a81b417aa3df1"
     "6014c81d6905d1ee6e453989467a8ff4c7f916ae550c4d19b0322cc42df6a259558dd93018cc9b8b"},
    {3072, 65537,
     "db6b17b35e8f5aef2b897538124166f51d87bfad38e205ab3508378d9b4152fae9a0600caaada5af43f4dab9"
     "a0885c794854ac77219120634be8cc25c4eafc6b4f7251331c03377d8cba7cbb41ae21f500486fe70629c62c"
     "697d00b91abbebb81f37db5a67f3188df6090ce323b193af5c45168e24c7f7ce57686efbfe7667bca3f18c1a"
     "107cae7f3f614b29a69309adb261003e711a2d446eceb6691879aefddb765e5de1892d835d5c2c5bc7b7d372"
     "13ec8986776d5fffb02157ae315a960f",
     "d0dcf1eba493d4eb435b84233d3d30f008bf3f9a7d71e7bc91d600b10c5cc3e316e22e2340c29ac22874698d"
     "ccba8cdcb148573100adc3c3472121be96b3142cae68006ead85e8055b069ce96b68acc2128814c44f346782"
     "b64775b9dacb88b3c940c980f1141070c422884fc9cc5780ccab6c9abacb30ff7da8780d0d6a9b1ab8663f4e"
     "de480e4c7f7321924b3aad6d4df60bd8a90437f63d8920b2a2dc25d7534aeaad1526ad3d59660f3a9ec6dc02"
     "eeab3417d0a1743e827bf84a21ae9409"},
    {4096, 65537,
     "e53eb9f55d45785fa18ec96cb9be6124aaf6eee8927947583f6f367ef8818efcaf6ec35f87e05ae3a7e8e8f3"
     "be11872468aced0fbc8a0ced1d4c2454d14b35abaef5b87fc868f0a0774b2c56907540ccdd908bd6ab175c82"
     "4c1d43a0b47d9f94d8914d0909c089c49a917a11a9870b1cb24d80eeb3e902885b0a97d4c07c0eecec7b3ec0"
     "d5f0f971cdca0f18cfd3601797ca6cd712346e4664b35055ae2dc9ec567c547a96a9d0d488a3cfb6495f8d66"
     "5d0562cc083e38936484b53a68fe95de07c420c45c953bf44c823d9957411d8272fbb5ced48bfb7d524ca401"
     "8a8b0640ba0861fca30d5ddc72f0f18c0b435c5d99327f325e295afcf527775b0fbe321d",
     "d0ddc98f0b287b84dcda03e15fef0a4f74cc2f40d77e51d90d455c674241625af035e3eb8e50367f4c3b61d3"
     "d989096eea599a8e11a413cf8313e58a7ccbf1fa9a7932f91916b78cc793c30a9e217b0b48750e88c82a4504"
     "7e3abda5a68ae4a180bb4b20200840f83a6cc8956fad3f9e22b6e62e89770d5ab928f695f2c4818181bad78a"
     "5bf3eaee8576f5e01f2653b5396540612051821cd5666bf8f345f795144d4ec700be27d74140ccecd1cb836f"
     "29d006df843ed40017250f3f3442a48ad10e4b478ec9bcb1c97b14565be3f0806c14ea89e8d0e158b15b8678"
     "ffb6025543fc1b9bef84a26b1b515dd59445ce9971def559e718f188e6c038718acff6e5"},
};

/* [key][0]: quill's key manager, [key][1]: the default provider's. */
static EVP_PKEY *fixed[4][2];

/* Digests the default provider signs with; index 15 means none. */
static const char *const md_names[15] = {
    "SHA1",     "SHA224",   "SHA256",   "SHA384",   "SHA512",     "SHA512-224", "SHA512-256",
    "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "MD5",        "RIPEMD160",  "MD5-SHA1",
    "SHA256"};

static const int pads[4] = {RSA_PKCS1_PADDING, RSA_PKCS1_PSS_PADDING, RSA_X931_PADDING,
                            RSA_NO_PADDING};

/* PSS salt length from a byte: below 0xf0 itself; 0xf0-0xf3 the special
 * values (digest -1, auto -2, max -3, auto-digestmax -4); above, 240 and
 * more in steps of 40 (up to 680). */
static int salt_len(uint8_t c) {
    if (c < 0xf0)
        return c;
    if (c < 0xf4)
        return -1 - (c - 0xf0);
    return 240 + 40 * (c - 0xf4);
}

static EVP_PKEY *fromdata(const char *propq, OSSL_PARAM_BLD *b) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(fz_libctx, "RSA", propq);
    EVP_PKEY *key = NULL;
    int sel = EVP_PKEY_KEYPAIR;
    if (params == NULL || c == NULL || EVP_PKEY_fromdata_init(c) <= 0 ||
        EVP_PKEY_fromdata(c, &key, sel, params) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    return key;
}

static void make_fixed(int i) {
    BN_CTX *bc = BN_CTX_new();
    BIGNUM *p = NULL, *q = NULL;
    BIGNUM *n = BN_new(), *e = BN_new(), *d = BN_new(), *dp = BN_new(), *dq = BN_new(),
           *qi = BN_new(), *p1 = BN_new(), *q1 = BN_new(), *phi = BN_new();
    if (!BN_hex2bn(&p, key_src[i].p) || !BN_hex2bn(&q, key_src[i].q) ||
        !BN_set_word(e, key_src[i].e) || !BN_mul(n, p, q, bc) || !BN_sub(p1, p, BN_value_one()) ||
        !BN_sub(q1, q, BN_value_one()) || !BN_mul(phi, p1, q1, bc) ||
        !BN_mod_inverse(d, e, phi, bc) || !BN_mod(dp, d, p1, bc) || !BN_mod(dq, d, q1, bc) ||
        !BN_mod_inverse(qi, q, p, bc) || (unsigned)BN_num_bits(n) != key_src[i].bits)
        abort();
    for (int side = 0; side < 2; side++) {
        OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
        if (b == NULL || !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, n) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_D, d) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR1, p) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR2, q) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qi))
            abort();
        fixed[i][side] = fromdata(side == 0 ? FZ_QUILL : FZ_DEFAULT, b);
        OSSL_PARAM_BLD_free(b);
        if (fixed[i][side] == NULL) {
            fprintf(stderr, "fuzz_rsa_verify: key %u bits not imported by side %d\n",
                    key_src[i].bits, side);
            ERR_print_errors_fp(stderr);
            abort();
        }
    }
    BN_free(p), BN_free(q), BN_free(n), BN_free(e), BN_free(d), BN_free(dp), BN_free(dq);
    BN_free(qi), BN_free(p1), BN_free(q1), BN_free(phi);
    BN_CTX_free(bc);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_init("fuzz_rsa_verify");
    for (int i = 0; i < 4; i++)
        make_fixed(i);
    return 0;
}

/* A public key from the input, in each provider's key manager; [0] may be
 * NULL when quill refuses it at import (sizes it does not take): then
 * OpenSSL would fall back to the default provider, and only the default
 * side runs. */
static int inline_key(fz_in *in, EVP_PKEY *out[2]) {
    size_t nl, el;
    const uint8_t *nb = fz_take(in, fz_u16(in) % (MAX_BYTES + 1), &nl);
    const uint8_t *eb = fz_take(in, fz_u8(in) % 9, &el);
    out[0] = out[1] = NULL;
    BIGNUM *n = BN_bin2bn(nb, (int)nl, NULL), *e = BN_bin2bn(eb, (int)el, NULL);
    for (int side = 0; side < 2; side++) {
        OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
        if (b == NULL || n == NULL || e == NULL || !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, n) ||
            !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e)) {
            OSSL_PARAM_BLD_free(b);
            break;
        }
        OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(fz_libctx, "RSA", side ? FZ_DEFAULT : FZ_QUILL);
        if (params == NULL || c == NULL || EVP_PKEY_fromdata_init(c) <= 0 ||
            EVP_PKEY_fromdata(c, &out[side], EVP_PKEY_PUBLIC_KEY, params) <= 0)
            out[side] = NULL;
        EVP_PKEY_CTX_free(c);
        OSSL_PARAM_free(params);
        OSSL_PARAM_BLD_free(b);
    }
    BN_free(n);
    BN_free(e);
    ERR_clear_error();
    if (out[0] != NULL && out[1] == NULL)
        fz_fail("an RSA public key (%zu-byte modulus, %zu-byte exponent): quill imports it, "
                "the default provider refuses it", nl, el);
    return out[1] != NULL;
}

typedef struct params {
    int pad, op;
    const char *md, *mgf1;
    int salt;
} params;


static int set_md(EVP_PKEY_CTX *pctx, const char *md) {
    OSSL_PARAM p[2] = {OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, (char *)md, md ? strlen(md) : 0),
                       OSSL_PARAM_END};
    return md == NULL || EVP_PKEY_CTX_set_params(pctx, p) > 0;
}

static int set_params(EVP_PKEY_CTX *pctx, const params *p, int with_md) {
    if (EVP_PKEY_CTX_set_rsa_padding(pctx, p->pad) <= 0)
        return 0;
    if (with_md && !set_md(pctx, p->md))
        return 0;
    if (p->pad == RSA_PKCS1_PSS_PADDING) {
        if (p->mgf1 != NULL && EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, p->mgf1, NULL) <= 0)
            return 0;
        if (EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, p->salt) <= 0)
            return 0;
    }
    return 1;
}

/* Signs for side |side| (0 quill, 1 default); returns the length or 0. */
static size_t sign(int side, EVP_PKEY *key, const params *p, const uint8_t *msg, size_t msg_len,
                   uint8_t *sig, size_t cap) {
    const char *propq = side ? FZ_DEFAULT : FZ_QUILL;
    size_t len = cap;
    int ok;
    if (p->op == 1 || p->op == 2) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        ok = m != NULL &&
             EVP_DigestSignInit_ex(m, &pctx, p->md, fz_libctx, propq, key, NULL) > 0 &&
             set_params(pctx, p, 0) && EVP_DigestSign(m, sig, &len, msg, msg_len) > 0;
        EVP_MD_CTX_free(m);
    } else {
        uint8_t tbs[MAX_MSG + EVP_MAX_MD_SIZE];
        size_t tbs_len = fz_tbs(p->md, msg, msg_len, tbs);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(fz_libctx, key, propq);
        ok = pctx != NULL && EVP_PKEY_sign_init(pctx) > 0 && set_params(pctx, p, 1) &&
             EVP_PKEY_sign(pctx, sig, &len, tbs, tbs_len) > 0;
        EVP_PKEY_CTX_free(pctx);
    }
    ERR_clear_error();
    return ok ? len : 0;
}

/* The last genuine signature and what it was made from: libFuzzer often
 * changes only the mutation bytes of an input, and signing (4096-bit keys
 * in quill's instrumented code above all) costs far more than verifying.
 * A reused signature is still a genuine one made by the same signer with
 * the same parameters (PSS would only draw another salt). */
static struct {
    int valid, signer, key;
    params p;
    size_t msg_len, sig_len;
    uint8_t msg[MAX_MSG], sig[MAX_BYTES];
} last;

static size_t cached_sign(int signer, int ki, const params *p, const uint8_t *msg,
                          size_t msg_len, uint8_t *sig) {
    if (last.valid && last.signer == signer && last.key == ki && last.p.pad == p->pad &&
        last.p.op == p->op && last.p.md == p->md && last.p.mgf1 == p->mgf1 &&
        last.p.salt == p->salt && last.msg_len == msg_len && memcmp(last.msg, msg, msg_len) == 0) {
        memcpy(sig, last.sig, last.sig_len);
        return last.sig_len;
    }
    size_t len = sign(signer, fixed[ki][signer], p, msg, msg_len, sig, MAX_BYTES);
    last.valid = 1;
    last.signer = signer;
    last.key = ki;
    last.p = *p;
    last.msg_len = msg_len;
    memcpy(last.msg, msg, msg_len);
    last.sig_len = len;
    memcpy(last.sig, sig, len);
    return len;
}

/* Verifies on side |side|: 1 accepted, 0 rejected, -1 refused at set-up.
 * For verify-recover, the recovered bytes go to out/out_len. */
static int verify(int side, EVP_PKEY *key, const params *p, const uint8_t *msg, size_t msg_len,
                  const uint8_t *sig, size_t sig_len, unsigned chunk_seed, uint8_t *out,
                  size_t *out_len) {
    const char *propq = side ? FZ_DEFAULT : FZ_QUILL;
    const OSSL_PROVIDER *want = side ? fz_prov_default : fz_prov_quill;
    int r = -1;
    if (p->op == 1 || p->op == 2) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        if (m != NULL && EVP_DigestVerifyInit_ex(m, &pctx, p->md, fz_libctx, propq, key, NULL) > 0 &&
            set_params(pctx, p, 0)) {
            fz_check_served(pctx, want, "EVP_DigestVerifyInit_ex");
            r = fz_digest_verify(m, p->op == 2, chunk_seed, sig, sig_len, msg, msg_len);
        }
        EVP_MD_CTX_free(m);
    } else {
        uint8_t tbs[MAX_MSG + EVP_MAX_MD_SIZE];
        size_t tbs_len = fz_tbs(p->md, msg, msg_len, tbs);
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(fz_libctx, key, propq);
        int init = pctx == NULL ? 0
                   : p->op == 3 ? EVP_PKEY_verify_recover_init(pctx)
                                : EVP_PKEY_verify_init(pctx);
        if (init > 0 && set_params(pctx, p, 1)) {
            fz_check_served(pctx, want, "EVP_PKEY_verify(_recover)_init");
            if (p->op == 3) {
                *out_len = MAX_BYTES + 64;
                r = EVP_PKEY_verify_recover(pctx, out, out_len, sig, sig_len) == 1;
            } else {
                r = EVP_PKEY_verify(pctx, sig, sig_len, tbs, tbs_len) == 1;
            }
        }
        EVP_PKEY_CTX_free(pctx);
    }
    ERR_clear_error();
    return r;
}

/* Whether the known divergences are skipped: unless QUILL_FUZZ_STRICT. */
static int known_divergence_allowed(void) {
    const char *strict = getenv("QUILL_FUZZ_STRICT");
    return strict == NULL || *strict == '\0';
}

static const char *verdict(int r) {
    return r == 1 ? "accepts" : r == 0 ? "rejects" : "refuses at set-up";
}

static const char *side_name(int side) {
    return side ? "default" : "quill";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in = {data, size};
    const uint8_t b0 = fz_u8(&in), b1 = fz_u8(&in), b2 = fz_u8(&in), b3 = fz_u8(&in),
                  b4 = fz_u8(&in), b5 = fz_u8(&in);
    params sp, vp;
    sp.pad = pads[b1 & 3];
    sp.op = (b1 >> 2) & 3;
    sp.md = (b2 & 15) == 15 ? NULL : md_names[b2 & 15];
    sp.mgf1 = (b2 >> 4) == 0 ? NULL : (b2 >> 4) == 15 ? NULL : md_names[(b2 >> 4) - 1];
    sp.salt = salt_len(b3);
    vp = sp;
    vp.salt = salt_len(b4);
    if (b1 >> 4)
        vp.md = (b1 >> 4) - 1 == 15 ? NULL : md_names[(b1 >> 4) - 1];
    size_t msg_len;
    const uint8_t *msg = fz_take(&in, fz_u16(&in) % (MAX_MSG + 1), &msg_len);

    EVP_PKEY *key[2] = {NULL, NULL}, *own[2] = {NULL, NULL};
    int ki = b0 & 7;
    if (ki < 4) {
        key[0] = fixed[ki][(b0 & 8) ? 1 : 0];
        key[1] = fixed[ki][1];
    } else if (inline_key(&in, own)) {
        key[0] = own[0];
        key[1] = own[1];
        fz_stats.quill_declined_keys += own[0] == NULL;
    } else {
        return 0;
    }
    size_t k = (size_t)EVP_PKEY_get_size(key[1]);
    if (k == 0 || k > MAX_BYTES) {
        EVP_PKEY_free(own[0]);
        EVP_PKEY_free(own[1]);
        return 0;
    }

    uint8_t sig[MAX_BYTES + 128];
    size_t sig_len = 0;
    unsigned changes;
    uint8_t block[MAX_BYTES];
    if (sp.pad == RSA_NO_PADDING && sp.op != 1 && sp.op != 2 && sp.md == NULL) {
        /* Without padding the message is the k-byte block itself. */
        for (size_t i = 0; i < k; i++)
            block[i] = msg_len ? msg[i % msg_len] : (uint8_t)i;
        if (!(b0 & 0x40))
            block[0] = 0;
        msg = block;
        msg_len = k;
    }
    int genuine = 0;
    if (b0 & 0x20) {
        const uint8_t *s = fz_take(&in, fz_u16(&in) % (MAX_BYTES + 65), &sig_len);
        memcpy(sig, s, sig_len);
    } else if (ki < 4) {
        int signer = (b0 & 0x10) ? 0 : 1;
        sig_len = cached_sign(signer, ki, &sp, msg, msg_len, sig);
        genuine = sig_len > 0;
    }
    if (sig_len == 0) {
        memset(sig, 0x5a, k);
        sig_len = k;
    }
    changes = fz_mutate(sig, &sig_len, sizeof(sig), &in);

    uint8_t rec[2][MAX_BYTES + 64];
    size_t rec_len[2] = {0, 0};
    int res[2];
    const uint64_t before = fz_counter("rsa-verify");
    res[0] = key[0] == NULL ? -2
                            : verify(0, key[0], &vp, msg, msg_len, sig, sig_len, b5, rec[0],
                                     &rec_len[0]);
    const uint64_t after = fz_counter("rsa-verify");
    res[1] = verify(1, key[1], &vp, msg, msg_len, sig, sig_len, b5, rec[1], &rec_len[1]);

    fz_record(res, "rsa-verify", before, after);
    /* The known divergence (found by this harness, issue 23), counted and
     * not compared unless QUILL_FUZZ_STRICT is set: EVP_PKEY_verify with
     * PKCS#1 v1.5 padding, no digest and an empty tbs.  The default
     * provider rejects every signature there (its RSA_public_decrypt result
     * 0 counts as failure), even its own signature of the empty string;
     * quill accepts a valid one.  (The harness also found quill taking the
     * PSS salt length -4, "auto-digestmax", on a 3.0 core whose default
     * provider refuses it: quill now refuses it there too.) */
    const int known = res[0] == 1 && res[1] == 0 && vp.pad == RSA_PKCS1_PADDING && vp.op == 0 &&
                      vp.md == NULL && msg_len == 0;
    if (known && known_divergence_allowed()) {
        fz_stats.known_divergence++;
        EVP_PKEY_free(own[0]);
        EVP_PKEY_free(own[1]);
        return 0;
    }
    if (res[0] != -2 && (res[0] == 1) != (res[1] == 1))
        fz_fail("RSA %zu-byte key, padding %d, op %d, md %s, mgf1 %s, salt %d (signed with %d): "
                "quill %s, default %s (signature %zu bytes, %u changes)",
                k, vp.pad, vp.op, vp.md ? vp.md : "none", vp.mgf1 ? vp.mgf1 : "=md", vp.salt,
                sp.salt, verdict(res[0]), verdict(res[1]), sig_len, changes);
    if (res[0] == 1 && res[1] == 1) {
        fz_stats.both_accept++;
        if (vp.op == 3 && (rec_len[0] != rec_len[1] || memcmp(rec[0], rec[1], rec_len[0]) != 0))
            fz_fail("verify-recover: quill recovered %zu bytes, default %zu, or different ones",
                    rec_len[0], rec_len[1]);
    }
    /* (PSS signatures cannot be recovered: both refuse verify-recover) */
    if (genuine && changes == 0 && vp.md == sp.md && vp.salt == sp.salt &&
        !(vp.op == 3 && vp.pad == RSA_PKCS1_PSS_PADDING)) {
        fz_stats.genuine++;
        if (res[1] != 1 || res[0] != 1)
            fz_fail("a genuine signature (signed by %s) was rejected: quill %d, default %d",
                    side_name((b0 & 0x10) ? 0 : 1), res[0], res[1]);
    }
    EVP_PKEY_free(own[0]);
    EVP_PKEY_free(own[1]);
    return 0;
}
