/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The RSA private operation (RFC 8017 5.2.1 RSASP1): base blinding by a
 * pair (r^e, r^-1) mod n for a uniformly random r in [1, n) or a square of
 * an earlier one (blinding.c), CRT exponentiations with Garner's
 * recombination (or one exponentiation by d for keys without CRT values),
 * unblinding, and a check of the result against the public exponent before
 * anything is released.  Constant time in every secret. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* Working memory of one private operation, in limbs of the modulus. */
typedef struct priv_ws {
    quill_limb *x, *r, *rinv, *re, *xb, *sb, *s, *chk; /* re, rinv: r^e R, r^-1 R mod n */
    quill_limb *cp, *cq, *m1, *m2, *m2p, *h, *tmp; /* at most nl limbs each */
    quill_limb *prod;                              /* 2 nl limbs */
    uint8_t *rand;                                 /* k bytes */
} priv_ws;

#define PRIV_WS_LIMBS 17 /* 15 arrays of nl limbs and one of 2 nl */

/* sb = xb^d mod n by the CRT: m1 = xb^dp mod p, m2 = xb^dq mod q,
 * h = qinv (m1 - m2) mod p, sb = m2 + h q (Garner; RFC 8017 5.1.2 step
 * 2b).  q may be larger than p: m2 is reduced mod p first. */
static int crt_exp(const quill_rsa_key *key, priv_ws *ws) {
    size_t nl = key->nl, pl = key->pl, ql = key->ql;
    quill_bn_mod_consttime(ws->cp, ws->xb, nl, key->mont_p);
    quill_bn_mod_consttime(ws->cq, ws->xb, nl, key->mont_q);
    /* The exponent length is the public size of dp and dq (pl, ql limbs),
     * never their actual bit length. */
    if (pl == ql) {
        /* Balanced key: both halves in lockstep (two-way kernels). */
        if (!quill_mont_exp_consttime_x2(ws->m1, ws->cp, key->dp, key->mont_p, ws->m2, ws->cq,
                                         key->dq, key->mont_q, pl))
            return 0;
    } else if (!quill_mont_exp_consttime(ws->m1, ws->cp, key->dp, pl, key->mont_p) ||
               !quill_mont_exp_consttime(ws->m2, ws->cq, key->dq, ql, key->mont_q)) {
        return 0;
    }
    quill_bn_mod_consttime(ws->m2p, ws->m2, ql, key->mont_p);
    /* h = m1 - m2p mod p: add p back under the borrow mask. */
    quill_word borrow = 0 - quill_bn_sub(ws->h, ws->m1, ws->m2p, pl);
    (void)quill_bn_add(ws->tmp, ws->h, key->p, pl);
    quill_bn_select(ws->h, borrow, ws->tmp, ws->h, pl);
    /* h * (qinv R) * R^-1 = h * qinv mod p. */
    quill_mont_mul(ws->h, ws->h, key->qinv_mont, key->mont_p);
    /* sb = m2 + h * q < (p - 1) q + q = n: fits in nl limbs. */
    memset(ws->prod, 0, 2 * nl * sizeof(quill_limb));
    quill_bn_mul(ws->prod, ws->h, pl, key->q, ql);
    quill_limb c = quill_bn_add(ws->prod, ws->prod, ws->m2, ql);
    (void)quill_bn_add_word_consttime(ws->prod + ql, pl, c);
    memcpy(ws->sb, ws->prod, nl * sizeof(quill_limb));
    return 1;
}

static quill_err private_op(const quill_rsa_key *key, priv_ws *ws, uint8_t *out,
                            const uint8_t *in, const quill_rng *rng) {
    size_t nl = key->nl;
    /* The input (an encoded message) is public. */
    if (!quill_bn_from_bytes_be(ws->x, nl, in, key->bytes))
        return QUILL_ERR_INTERNAL;
    if (!quill_bn_lt_mask(ws->x, key->n, nl))
        return QUILL_ERR_INPUT_RANGE;

    quill_err err = quill_rsa_blinding_get(key, ws->re, ws->rinv, ws->r, ws->rand, rng);
    if (err != QUILL_OK)
        return err;
    /* xb = x * (r^e R) * R^-1 = x r^e mod n. */
    quill_mont_mul(ws->xb, ws->x, ws->re, key->mont_n);

    if (key->has_crt) {
        if (!crt_exp(key, ws))
            return QUILL_ERR_MEMORY;
    } else if (!quill_mont_exp_consttime(ws->sb, ws->xb, key->d, nl, key->mont_n)) {
        return QUILL_ERR_MEMORY;
    }

    /* s = sb * (r^-1 R) * R^-1 = sb r^-1 mod n. */
    quill_mont_mul(ws->s, ws->sb, ws->rinv, key->mont_n);

    /* Fault check: s^e == x, else release nothing. */
    if (!quill_mont_exp_vartime(ws->chk, ws->s, key->e, key->el, key->mont_n))
        return QUILL_ERR_MEMORY;
    if (!quill_rsa_verdict(quill_bn_eq_mask(ws->chk, ws->x, nl)))
        return QUILL_ERR_FAULT_DETECTED;
    /* A checked signature is public. */
    QUILL_CT_DECLASSIFY(ws->s, nl * sizeof(quill_limb));
    if (!quill_bn_to_bytes_be(out, key->bytes, ws->s, nl))
        return QUILL_ERR_INTERNAL;
    return QUILL_OK;
}

quill_err quill_rsa_private(const quill_rsa_key *key, uint8_t *out, const uint8_t *in,
                            size_t in_len, const quill_rng *rng) {
    if (key == NULL || out == NULL || in == NULL || rng == NULL || rng->fill == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!key->has_private)
        return QUILL_ERR_KEY_MISSING_PRIVATE;
    if (in_len != key->bytes)
        return QUILL_ERR_INVALID_ARGUMENT;
    size_t nl = key->nl, total = PRIV_WS_LIMBS * nl * sizeof(quill_limb) + key->bytes;
    quill_limb *mem = quill_calloc(1, total);
    if (mem == NULL)
        return QUILL_ERR_MEMORY;
    priv_ws ws;
    quill_limb **arrays[] = {&ws.x,  &ws.r,  &ws.rinv, &ws.re,  &ws.xb, &ws.sb,
                             &ws.s,  &ws.chk, &ws.cp,  &ws.cq,  &ws.m1, &ws.m2,
                             &ws.m2p, &ws.h,  &ws.tmp};
    for (size_t i = 0; i < QUILL_ARRAY_LEN(arrays); i++)
        *arrays[i] = mem + i * nl;
    ws.prod = mem + QUILL_ARRAY_LEN(arrays) * nl;
    ws.rand = (uint8_t *)(mem + PRIV_WS_LIMBS * nl);

    quill_err err = private_op(key, &ws, out, in, rng);
    if (err != QUILL_OK)
        quill_zeroize(out, key->bytes);
    quill_zeroize(mem, total);
    quill_free(mem);
    return err;
}
