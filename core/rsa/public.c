/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The RSA public operation (RFC 8017 5.2.2 RSAVP1).  Everything here is
 * public (n, e, the signature), so it runs in variable time. */
#include <string.h>

#include "rsa/internal.h"

quill_err quill_rsa_public_raw_vartime(const quill_rsa_key *key, uint8_t *em, const uint8_t *sig,
                                       size_t sig_len) {
    if (sig_len != key->bytes)
        return QUILL_ERR_SIG_LENGTH;
    size_t nl = key->nl;
    /* On the stack (public values, nothing to wipe): no allocation per
     * verification. */
    quill_limb buf[2 * QUILL_BN_LIMBS_FOR_BITS(QUILL_RSA_MAX_BITS)];
    if (nl > QUILL_BN_LIMBS_FOR_BITS(QUILL_RSA_MAX_BITS))
        return QUILL_ERR_INTERNAL;
    quill_limb *x = buf, *y = buf + nl;
    quill_err err = QUILL_OK;
    if (!quill_bn_from_bytes_be(x, nl, sig, sig_len))
        err = QUILL_ERR_INTERNAL;
    else if (!quill_bn_lt_mask(x, key->n, nl))
        err = QUILL_ERR_INPUT_RANGE; /* RFC 8017 5.2.2 step 1 */
    else if (!quill_mont_exp_public(y, x, key->e, key->el, key->mont_n))
        err = QUILL_ERR_MEMORY;
    else if (!quill_bn_to_bytes_be(em, key->bytes, y, nl))
        err = QUILL_ERR_INTERNAL;
    return err;
}

quill_err quill_rsa_public(const quill_rsa_key *key, uint8_t *out, const uint8_t *in,
                           size_t in_len) {
    if (key == NULL || out == NULL || in == NULL || in_len != key->bytes)
        return QUILL_ERR_INVALID_ARGUMENT;
    return quill_rsa_public_raw_vartime(key, out, in, in_len);
}
