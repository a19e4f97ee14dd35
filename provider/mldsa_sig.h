/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA signature context shared by mldsa_sig.c (operations) and
 * mldsa_sig_params.c (OSSL_PARAM handling).  Secret: the test entropy (a
 * signing rnd) and the key it references (mldsa_key.h); the context string,
 * the options and the running mu state are public. */
#ifndef QUILL_PROV_MLDSA_SIG_H
#define QUILL_PROV_MLDSA_SIG_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>

#include "mldsa/mldsa.h"
#include "mldsa_key.h"
#include "prov_ctx.h"

enum { QUILL_MLDSASIG_OP_NONE = 0, QUILL_MLDSASIG_OP_SIGN, QUILL_MLDSASIG_OP_VERIFY };

typedef struct quill_mldsa_sig_ctx {
    quill_provctx *prov;
    const quill_mldsa_alg *alg; /* the set this signature was fetched as */
    quill_prov_mldsa_key *key;  /* one reference, NULL before init */
    int op;
    /* Streaming (digest_sign/digest_verify): |streaming| after
     * digest_*_init; |started| once mu has been initialised for the
     * current message (lazily, at the first update or the final, so that
     * parameters set after init still apply); from then on the
     * context string and the message encoding are locked. */
    int streaming;
    int started;
    quill_mldsa_mu mu;
    /* Parameters (mldsa_sig_params.c); they persist across inits. */
    uint8_t context[QUILL_MLDSA_MAX_CONTEXT_BYTES];
    size_t context_len;
    int deterministic;                        /* rnd = 0^32 */
    int encoding;                             /* QUILL_MLDSA_ENCODING_* */
    int mu_input;                             /* sign/verify take mu itself */
    int has_entropy;                          /* "test-entropy" set */
    uint8_t entropy[QUILL_MLDSA_RND_BYTES];   /* secret */
} quill_mldsa_sig_ctx;

/* The OSSL_FUNC_signature_* parameter functions (mldsa_sig_params.c).
 * set refuses, with an error raised: a context string over 255 bytes
 * (QUILL_ERR_CONTEXT_LENGTH), a message encoding other than 0 and 1, test
 * entropy of other than 32 bytes, parameters of the wrong type, and a
 * change of context string, message encoding or mu mode once a streamed
 * message has started (QUILL_R_NOT_SUPPORTED). */
int quill_mldsa_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
const OSSL_PARAM *quill_mldsa_sig_settable_ctx_params(void *vctx, void *provctx);
/* get answers "algorithm-id" (DER AlgorithmIdentifier with absent
 * parameters, RFC 9881) and the current options. */
int quill_mldsa_sig_get_ctx_params(void *vctx, OSSL_PARAM params[]);
const OSSL_PARAM *quill_mldsa_sig_gettable_ctx_params(void *vctx, void *provctx);

#endif
