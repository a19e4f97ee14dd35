/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * libFuzzer harness: ML-DSA signing and verification through EVP with an
 * external mu (quill's "mu" signature parameter) and with
 * "message-encoding" 0 (the input is M', no domain separation), beside
 * the pure encoding, one-shot and streamed.
 *
 * Setup: per set, a key from a fixed seed, a message M, and two genuine
 * signatures (deterministic and hedged) over mu0 = mu(pure, ctx "", M).
 * mu0 is also what "mu" mode gets as the 64-byte mu0 itself and what
 * encoding 0 gets for M' = 0 || 0 || M, so every mode starts from an
 * input whose genuine signatures verify.
 *
 * Input: byte 0 set (mod 3); byte 1 mode: bits 0-1 the message mode (0 mu,
 * 1 encoding 0, 2 and 3 pure), bit 2 streamed (EVP_DigestVerify* in
 * pieces) or one-shot (EVP_PKEY_verify), bit 3 sign instead of verify,
 * bit 4 start from the hedged signature, bits 5-7 the context-string
 * length in pure mode (a fixed pattern); byte 2: n, the number of
 * mutation operations (fuzz_util.h) applied to the signature; byte 3: the
 * split point of a streamed message; then n operations on the signature,
 * then operations on the message (mu0, 0 || 0 || M, or M).
 *
 * Oracle, for verification: mu is recomputed from the mutated message by
 * the harness with the default provider's SHAKE256 (FIPS 204 Algorithms 3
 * and 8: tr = H(pk), mu = H(tr || M')), and quill's EVP verdict must equal
 * the core's quill_mldsa_verify_mu on that mu (the provider glue, the
 * context string, the encoding and the streaming are what is checked,
 * against an independent mu).  In mu mode a message that is not 64 bytes,
 * and any streamed mu, must be refused.  A mutated mu or a message read
 * with the other encoding changes the reference mu, so the genuine
 * signatures then fail in both.  Moreover an accepted signature on
 * mu == mu0 must be one of the two genuine ones (FIPS 204's encoding of a
 * signature is unique and the fuzzer has no private key).
 * For signing (deterministic): the signature must equal the core's
 * quill_mldsa_sign_mu on the reference mu with rnd = 0, and verify under
 * the core; a mu of the wrong length must be refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "fuzz_util.h"
#include "mldsa/mldsa.h"

#define MSG_CAP 512

typedef struct fixture {
    EVP_PKEY *pk;
    quill_mldsa_key *core;
    uint8_t pub[QUILL_MLDSA_MAX_PUB_BYTES];
    size_t publen;
    uint8_t mu0[64];
    uint8_t sig[2][QUILL_MLDSA_MAX_SIG_BYTES];
    size_t siglen;
} fixture;

static fixture fx[3];
static const char *const names[3] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
static const uint8_t msg0[] = "quill fuzz_mldsa_mu: the message M";
static const uint8_t ctx_pattern[8] = {'q', 'u', 'i', 'l', 'l', 0x00, 0xff, 0x80};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_seeds(const char *dir) {
    unsigned n = 0;
    for (int s = 0; s < 3; s++)
        for (int mode = 0; mode < 32; mode++) {
            uint8_t in[8] = {(uint8_t)s, (uint8_t)mode, 0, 9, 0, 0, 0, 0};
            quill_fuzz_seed_write(dir, "mldsa_mu", n++, in, 4);
            /* one with a flipped byte of the message, one of the signature */
            in[4] = 0, in[5] = 0, in[6] = 7, in[7] = 1;
            quill_fuzz_seed_write(dir, "mldsa_mu", n++, in, 8);
            in[2] = 1;
            quill_fuzz_seed_write(dir, "mldsa_mu", n++, in, 8);
        }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    quill_fuzz_init();
    for (int s = 0; s < 3; s++) {
        fixture *f = &fx[s];
        uint8_t seed[32], rnd[32];
        for (unsigned i = 0; i < 32; i++)
            seed[i] = (uint8_t)(7 * i + 3 * s + 1), rnd[i] = (uint8_t)(i ^ 0x5a);
        OSSL_PARAM kp[] = {OSSL_PARAM_octet_string("seed", seed, sizeof(seed)), OSSL_PARAM_END};
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(quill_fuzz_both, names[s], NULL);
        if (pc == NULL || EVP_PKEY_fromdata_init(pc) != 1 ||
            EVP_PKEY_fromdata(pc, &f->pk, EVP_PKEY_KEYPAIR, kp) != 1)
            quill_fuzz_fail("ML-DSA key from seed");
        EVP_PKEY_CTX_free(pc);
        if (quill_mldsa_key_from_seed(&f->core, (quill_mldsa_set)s, seed) != QUILL_OK)
            quill_fuzz_fail("core key from seed");
        if (!quill_fuzz_get_octets(f->pk, OSSL_PKEY_PARAM_PUB_KEY, f->pub, sizeof(f->pub),
                                   &f->publen) ||
            f->publen != quill_mldsa_pub_bytes((quill_mldsa_set)s) ||
            memcmp(f->pub, quill_mldsa_key_pub(f->core), f->publen) != 0)
            quill_fuzz_fail("EVP and core keys differ");
        quill_fuzz_mldsa_mu_ref(f->mu0, f->pub, f->publen, 1, NULL, 0, msg0, sizeof(msg0));
        f->siglen = quill_mldsa_sig_bytes((quill_mldsa_set)s);
        uint8_t zero[32] = {0};
        if (quill_mldsa_sign_mu(f->core, f->mu0, zero, f->sig[0], sizeof(f->sig[0])) != QUILL_OK ||
            quill_mldsa_sign_mu(f->core, f->mu0, rnd, f->sig[1], sizeof(f->sig[1])) != QUILL_OK)
            quill_fuzz_fail("core sign");
    }
    quill_fuzz_seed_mode(write_seeds);
    return 0;
}

/* The EVP verdict (1 valid) or the signature length (sign) in |mode|. */
static int evp_run(fixture *f, int mu_mode, int enc, int stream, int sign, const uint8_t *ctx,
                   size_t ctxlen, const uint8_t *msg, size_t mlen, size_t split, uint8_t *sig,
                   size_t *siglen) {
    int one = 1;
    OSSL_PARAM params[5], *p = params;
    if (mu_mode)
        *p++ = OSSL_PARAM_construct_int("mu", &one);
    else
        *p++ = OSSL_PARAM_construct_int("message-encoding", &enc);
    if (!mu_mode && enc == 1)
        *p++ = OSSL_PARAM_construct_octet_string("context-string", (void *)ctx, ctxlen);
    if (sign)
        *p++ = OSSL_PARAM_construct_int("deterministic", &one);
    *p = OSSL_PARAM_construct_end();
    int ok = 0;
    if (stream) {
        EVP_MD_CTX *m = EVP_MD_CTX_new();
        if (m == NULL)
            quill_fuzz_fail("EVP_MD_CTX_new");
        ok = sign ? EVP_DigestSignInit_ex(m, NULL, NULL, quill_fuzz_both, NULL, f->pk, params)
                  : EVP_DigestVerifyInit_ex(m, NULL, NULL, quill_fuzz_both, NULL, f->pk, params);
        ok = ok == 1;
        if (split > mlen)
            split = mlen;
        if (ok)
            ok = (sign ? EVP_DigestSignUpdate(m, msg, split)
                       : EVP_DigestVerifyUpdate(m, msg, split)) == 1 &&
                 (sign ? EVP_DigestSignUpdate(m, msg + split, mlen - split)
                       : EVP_DigestVerifyUpdate(m, msg + split, mlen - split)) == 1;
        if (ok)
            ok = (sign ? EVP_DigestSignFinal(m, sig, siglen) : EVP_DigestVerifyFinal(m, sig, *siglen)) == 1;
        EVP_MD_CTX_free(m);
    } else {
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(quill_fuzz_both, f->pk, NULL);
        if (pc == NULL)
            quill_fuzz_fail("EVP_PKEY_CTX_new_from_pkey");
        ok = (sign ? EVP_PKEY_sign_init_ex(pc, params) : EVP_PKEY_verify_init_ex(pc, params)) == 1;
        if (ok)
            ok = (sign ? EVP_PKEY_sign(pc, sig, siglen, msg, mlen)
                       : EVP_PKEY_verify(pc, sig, *siglen, msg, mlen)) == 1;
        EVP_PKEY_CTX_free(pc);
    }
    ERR_clear_error();
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4)
        return 0;
    fixture *f = &fx[data[0] % 3];
    const int mmode = data[1] & 3, stream = (data[1] >> 2) & 1, sign = (data[1] >> 3) & 1;
    const int mu_mode = mmode == 0, enc = mmode == 1 ? 0 : 1;
    const size_t ctxlen = mmode >= 2 ? (data[1] >> 5) : 0;
    const size_t nsig = 4u * data[2], split = data[3];
    data += 4;
    size -= 4;

    uint8_t sig[QUILL_MLDSA_MAX_SIG_BYTES + 64];
    size_t siglen = f->siglen;
    memcpy(sig, f->sig[(data[-3] >> 4) & 1], siglen);
    size_t used = quill_fuzz_mutate(sig, &siglen, sizeof(sig), data, nsig < size ? nsig : size);
    data += used;
    size -= used;

    uint8_t msg[MSG_CAP];
    size_t mlen;
    if (mu_mode) {
        memcpy(msg, f->mu0, 64);
        mlen = 64;
    } else if (enc == 0) {
        msg[0] = 0, msg[1] = 0;
        memcpy(msg + 2, msg0, sizeof(msg0));
        mlen = 2 + sizeof(msg0);
    } else {
        memcpy(msg, msg0, sizeof(msg0));
        mlen = sizeof(msg0);
    }
    quill_fuzz_mutate(msg, &mlen, sizeof(msg), data, size);

    /* The reference mu, or none (mu mode: wrong length or streamed). */
    uint8_t mu[64];
    int have_mu = 1;
    if (mu_mode) {
        have_mu = mlen == 64 && !stream;
        if (have_mu)
            memcpy(mu, msg, 64);
    } else {
        quill_fuzz_mldsa_mu_ref(mu, f->pub, f->publen, enc, ctx_pattern, ctxlen, msg, mlen);
    }

    if (sign) {
        uint8_t out[QUILL_MLDSA_MAX_SIG_BYTES];
        size_t outlen = sizeof(out);
        int ok = evp_run(f, mu_mode, enc, stream, 1, ctx_pattern, ctxlen, msg, mlen, split, out,
                         &outlen);
        if (!have_mu) {
            quill_fuzz_trace("mldsa_mu sign mode=%d stream=%d mlen=%zu: refused %d", mmode,
                             stream, mlen, !ok);
            if (ok)
                quill_fuzz_fail("signed a mu of the wrong length or a streamed mu");
            return 0;
        }
        if (!ok)
            quill_fuzz_fail("deterministic signing failed");
        uint8_t want[QUILL_MLDSA_MAX_SIG_BYTES], zero[32] = {0};
        if (quill_mldsa_sign_mu(f->core, mu, zero, want, sizeof(want)) != QUILL_OK)
            quill_fuzz_fail("core sign");
        if (outlen != f->siglen || memcmp(out, want, outlen) != 0)
            quill_fuzz_fail("EVP signature differs from the core's on the reference mu");
        if (quill_mldsa_verify_mu(f->core, mu, out, outlen) != QUILL_OK)
            quill_fuzz_fail("EVP signature does not verify on the reference mu");
        quill_fuzz_trace("mldsa_mu sign mode=%d stream=%d ctx=%zu mlen=%zu: equal to the core's",
                         mmode, stream, ctxlen, mlen);
        return 0;
    }

    int got = evp_run(f, mu_mode, enc, stream, 0, ctx_pattern, ctxlen, msg, mlen, split, sig,
                      &siglen);
    int want = have_mu && quill_mldsa_verify_mu(f->core, mu, sig, siglen) == QUILL_OK;
    quill_fuzz_trace("mldsa_mu verify mode=%d stream=%d ctx=%zu mlen=%zu siglen=%zu: evp %d core %d",
                     mmode, stream, ctxlen, mlen, siglen, got, want);
    if (got != want)
        quill_fuzz_fail(got ? "EVP accepted what the core refuses on the reference mu"
                            : "EVP refused what the core accepts on the reference mu");
    if (got && memcmp(mu, f->mu0, 64) == 0 && siglen == f->siglen &&
        memcmp(sig, f->sig[0], siglen) != 0 && memcmp(sig, f->sig[1], siglen) != 0)
        quill_fuzz_fail("a second signature accepted on mu0");
    return 0;
}
