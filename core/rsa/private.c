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
    quill_limb *cp, *cq, *m1, *m2;                 /* at most nl limbs each */
    quill_limb *join;                              /* QUILL_RSA_CRT_JOIN_SCRATCH(nl) */
    uint8_t *rand;                                 /* k bytes */
} priv_ws;

#define PRIV_WS_ARRAYS 12 /* x .. m2, nl limbs each */
#define PRIV_WS_LIMBS(nl) (PRIV_WS_ARRAYS * (nl) + QUILL_RSA_CRT_JOIN_SCRATCH(nl))

/* r = xb mod m for the prime m of |mont| (ml limbs, mb bits), the other
 * prime having ol limbs.  xb < n = m o < m R (R = 2^(64 ml)) when o has at
 * most ml limbs.  Then, if m has its top bit set and xb has 2 ml limbs,
 * xb = hi R + lo with hi < m: hi R mod m is one product by R^2
 * (quill_mont_to) and lo < R <= 2m is reduced by one conditional
 * subtraction, their sum (below 2m) by another.  Otherwise xb < m R is the
 * precondition of one quill_mont_reduce_wide over all of xb (nl <= ml + ol
 * <= 2 ml); and for an o longer than m, Horner's rule over chunks. */
static void crt_reduce(quill_limb *r, const quill_limb *xb, size_t nl, const quill_mont *mont,
                       size_t ml, size_t mb, size_t ol) {
    if (ol > ml) {
        quill_bn_mod_consttime(r, xb, nl, mont);
    } else if (mb == 64 * ml && nl == 2 * ml) {
        const quill_limb *m = quill_mont_modulus(mont);
        quill_limb lo[QUILL_BN_MAX_LIMBS], t[QUILL_BN_MAX_LIMBS];
        quill_mont_to(r, xb + ml, mont);
        quill_word lt = 0 - quill_bn_sub(t, xb, m, ml);
        quill_bn_select(lo, lt, xb, t, ml);
        quill_limb carry = quill_bn_add(r, r, lo, ml);
        quill_limb borrow = quill_bn_sub(t, r, m, ml);
        /* the sum is at least m when it carried out or r - m did not borrow */
        quill_word take = ((quill_word)0 - carry) | ~((quill_word)0 - borrow);
        quill_bn_select(r, take, t, r, ml);
        quill_zeroize(lo, ml * sizeof(quill_limb));
        quill_zeroize(t, ml * sizeof(quill_limb));
    } else {
        quill_mont_reduce_wide(r, xb, nl, mont);
    }
}

void quill_rsa_crt_split(const quill_rsa_key *key, quill_limb *cp, quill_limb *cq,
                         const quill_limb *xb) {
    crt_reduce(cp, xb, key->nl, key->mont_p, key->pl, key->p_bits, key->ql);
    crt_reduce(cq, xb, key->nl, key->mont_q, key->ql, key->q_bits, key->pl);
}

void quill_rsa_crt_join(const quill_rsa_key *key, quill_limb *sb, const quill_limb *m1,
                        const quill_limb *m2, quill_limb *t) {
    size_t nl = key->nl, pl = key->pl, ql = key->ql;
    quill_limb *m2p = t, *h = t + nl, *tmp = t + 2 * nl, *prod = t + 3 * nl;
    if (key->q_bits <= key->p_bits) {
        /* m2 < q < 2p (q no longer than p in bits, so ql <= pl): one
         * conditional subtraction of m2, zero-extended to pl limbs. */
        memset(tmp, 0, pl * sizeof(quill_limb));
        memcpy(tmp, m2, ql * sizeof(quill_limb));
        quill_word lt = 0 - quill_bn_sub(m2p, tmp, key->p, pl);
        quill_bn_select(m2p, lt, tmp, m2p, pl);
    } else {
        quill_bn_mod_consttime(m2p, m2, ql, key->mont_p);
    }
    /* h = m1 - m2p mod p: add p back under the borrow mask. */
    quill_word borrow = 0 - quill_bn_sub(h, m1, m2p, pl);
    (void)quill_bn_add(tmp, h, key->p, pl);
    quill_bn_select(h, borrow, tmp, h, pl);
    /* h * (qinv R) * R^-1 = h * qinv mod p. */
    quill_mont_mul(h, h, key->qinv_mont, key->mont_p);
    /* sb = m2 + h * q < (p - 1) q + q = n: fits in nl limbs. */
    memset(prod, 0, 2 * nl * sizeof(quill_limb));
    quill_bn_mul(prod, h, pl, key->q, ql);
    quill_limb c = quill_bn_add(prod, prod, m2, ql);
    (void)quill_bn_add_word_consttime(prod + ql, pl, c);
    memcpy(sb, prod, nl * sizeof(quill_limb));
}

/* sb = xb^d mod n by the CRT: m1 = xb^dp mod p, m2 = xb^dq mod q, then
 * Garner's recombination. */
static int crt_exp(const quill_rsa_key *key, priv_ws *ws) {
    size_t pl = key->pl, ql = key->ql;
    quill_rsa_crt_split(key, ws->cp, ws->cq, ws->xb);
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
    quill_rsa_crt_join(key, ws->sb, ws->m1, ws->m2, ws->join);
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
    size_t nl = key->nl, total = PRIV_WS_LIMBS(nl) * sizeof(quill_limb) + key->bytes;
    quill_limb *mem = quill_calloc(1, total);
    if (mem == NULL)
        return QUILL_ERR_MEMORY;
    priv_ws ws;
    quill_limb **arrays[PRIV_WS_ARRAYS] = {&ws.x, &ws.r,  &ws.rinv, &ws.re, &ws.xb, &ws.sb,
                                           &ws.s, &ws.chk, &ws.cp,  &ws.cq, &ws.m1, &ws.m2};
    for (size_t i = 0; i < PRIV_WS_ARRAYS; i++)
        *arrays[i] = mem + i * nl;
    ws.join = mem + PRIV_WS_ARRAYS * nl;
    ws.rand = (uint8_t *)(mem + PRIV_WS_LIMBS(nl));

    quill_err err = private_op(key, &ws, out, in, rng);
    if (err != QUILL_OK)
        quill_zeroize(out, key->bytes);
    quill_zeroize(mem, total);
    quill_free(mem);
    return err;
}
