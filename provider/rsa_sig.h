/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The RSA signature context shared by the operation code (rsa_sig.c) and
 * its parameter handling (rsa_sig_params.c).  A context is used by one
 * thread at a time (OpenSSL's rule); the key it references is immutable and
 * shared.  Nothing in it is secret (the key's secrets stay in the core key). */
#ifndef QUILL_PROV_RSA_SIG_H
#define QUILL_PROV_RSA_SIG_H

#include <stddef.h>

#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

#include "digest.h"
#include "prov_ctx.h"
#include "rsa_key.h"
#include "sig_stream.h"

enum { QUILL_SIG_OP_NONE, QUILL_SIG_OP_SIGN, QUILL_SIG_OP_VERIFY, QUILL_SIG_OP_VERIFY_RECOVER };

typedef struct quill_rsa_sig_ctx {
    quill_sig_stream stream; /* first (sig_params.h); stream.md.md == NULL: no
                              * digest (raw PKCS#1) */
    quill_provctx *prov;
    char *propq;             /* the fetch's property query, for digests */
    quill_prov_rsa_key *key; /* one reference */
    int op;                  /* QUILL_SIG_OP_* */
    int pad;                 /* QUILL_PAD_PKCS1, _PSS, _NONE or _X931 */
    quill_prov_digest mgf1;  /* mgf1.md == NULL: same as md */
    int saltlen;             /* >= 0, or QUILL_SALTLEN_* */
} quill_rsa_sig_ctx;
_Static_assert(offsetof(quill_rsa_sig_ctx, stream) == 0, "the stream comes first (sig_params.h)");

/* Parameter dispatch functions (rsa_sig_params.c).  set_ctx_params applies
 * "digest" (+ "properties") and "pad-mode" (string or RSA_*_PADDING integer:
 * PKCS#1 v1.5, PSS, none, X9.31) together, checking that they agree (none
 * takes no digest, X9.31 only SHA-1/256/384/512, as OpenSSL's default
 * provider), then "saltlen" (integer or string: a number, digest, max,
 * auto, auto-digestmax) and "mgf1-digest" (+ "mgf1-properties"), refusing
 * with an error what quill cannot do or what an RSA-PSS key's restrictions
 * forbid.  The digests RSA accepts include MD5, MD4, RIPEMD-160 and
 * MD5-SHA1 (digest.h).  get_ctx_params
 * answers the same names and "algorithm-id" (rsa_algid.h). */
OSSL_FUNC_signature_set_ctx_params_fn quill_rsa_sig_set_ctx_params;
OSSL_FUNC_signature_settable_ctx_params_fn quill_rsa_sig_settable_ctx_params;
OSSL_FUNC_signature_get_ctx_params_fn quill_rsa_sig_get_ctx_params;
OSSL_FUNC_signature_gettable_ctx_params_fn quill_rsa_sig_gettable_ctx_params;
/* The running hash's own parameters are sig_params.h's. */

/* quill_rsa_sig_mgf1 returns the MGF1 digest in effect: the explicit one,
 * else the message digest. */
const quill_prov_digest *quill_rsa_sig_mgf1(const quill_rsa_sig_ctx *c);

/* quill_rsa_sig_sign_saltlen returns the salt length a PSS signature made
 * now would use (RFC 8017 9.1.1 with OpenSSL's keywords: digest = hLen,
 * max and auto = the maximum, auto-digestmax = min(hLen, maximum)), or -1
 * with an error raised if it is impossible for the key or below an RSA-PSS
 * key's minimum.  Needs a key and a digest. */
long quill_rsa_sig_sign_saltlen(const quill_rsa_sig_ctx *c);

#endif
