/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 key handling for ECDSA: private-key range check, key generation,
 * public key from private key, SEC 1 public-key decoding and encoding
 * (see ecdsa.h), and the lazily converted public key of a generated key
 * (ecdsa_lazy_pub.h). */
#include <string.h>

#include "common/ct.h"
#include "common/zeroize.h"
#include "ec/ecdsa.h"
#include "ec/ecdsa_lazy_pub.h"

/* 1 <= k < n as a mask; k secret. */
static quill_word private_ok_mask(quill_p256_scalar_plain *k, const uint8_t priv[32]) {
    quill_word lt = quill_p256_scalar_plain_from_bytes(k, priv);
    return lt & quill_p256_scalar_plain_nonzero(k);
}

quill_err quill_p256_private_check(const uint8_t priv[32]) {
    quill_p256_scalar_plain k;
    quill_word ok = quill_ct_declassify_w(private_ok_mask(&k, priv));
    quill_zeroize(&k, sizeof(k));
    return ok ? QUILL_OK : QUILL_ERR_KEY_CHECK;
}

/* Sets r = priv * G (Jacobian, secret representation) if priv is in
 * [1, n-1]; returns the declassified range verdict (all-ones if in range).
 * r is untouched when out of range. */
static quill_word mul_base_checked(quill_p256_jacobian *r, const uint8_t priv[32]) {
    quill_p256_scalar_plain k;
    quill_word ok = quill_ct_declassify_w(private_ok_mask(&k, priv));
    if (ok)
        quill_p256_point_mul_base(r, &k);
    quill_zeroize(&k, sizeof(k));
    return ok;
}

/* pub = the affine form of r (not infinity), declassified. */
static void public_from_jacobian(quill_p256_public *pub, const quill_p256_jacobian *r) {
    quill_p256_affine a;
    (void)quill_p256_point_to_affine(&a, r); /* not infinity: 0 < k < n */
    QUILL_CT_DECLASSIFY(&a, sizeof(a));      /* the public key is public */
    pub->q = a;
}

quill_err quill_p256_public_from_private(quill_p256_public *pub, const uint8_t priv[32]) {
    quill_p256_jacobian r;
    if (!mul_base_checked(&r, priv))
        return QUILL_ERR_KEY_CHECK;
    public_from_jacobian(pub, &r);
    quill_zeroize(&r, sizeof(r));
    return QUILL_OK;
}

/* The rejection sampling of quill_p256_keygen, leaving r = priv * G in
 * Jacobian form. */
static quill_err keygen_jacobian(uint8_t priv[32], quill_p256_jacobian *r, const quill_rng *rng) {
    if (priv == NULL || rng == NULL || rng->fill == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    for (int tries = 0; tries < 64; tries++) {
        if (!rng->fill(rng->arg, priv, 32)) {
            quill_zeroize(priv, 32);
            return QUILL_ERR_RNG;
        }
        QUILL_CT_SECRET(priv, 32);
        /* Rejection sampling: whether a candidate is rejected reveals
         * nothing about the accepted key. */
        if (mul_base_checked(r, priv))
            return QUILL_OK;
    }
    quill_zeroize(priv, 32);
    return QUILL_ERR_KEYGEN;
}

quill_err quill_p256_keygen(uint8_t priv[32], quill_p256_public *pub, const quill_rng *rng) {
    quill_p256_jacobian r;
    if (pub == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_err err = keygen_jacobian(priv, &r, rng);
    if (err == QUILL_OK)
        public_from_jacobian(pub, &r);
    quill_zeroize(&r, sizeof(r));
    return err;
}

/* ---- The lazily converted public key (ecdsa_lazy_pub.h) ---- */

int quill_p256_lazy_public_has(const quill_p256_lazy_public *lp) {
    return atomic_load_explicit(&lp->state, memory_order_relaxed) != QUILL_P256_LAZY_EMPTY;
}

const quill_p256_public *quill_p256_lazy_public_get(const quill_p256_lazy_public *lp,
                                                    quill_p256_public *scratch) {
    /* The publication is the only write through a const object. */
    quill_p256_lazy_public *w = (quill_p256_lazy_public *)lp;
    unsigned s = atomic_load_explicit(&w->state, memory_order_acquire);
    if (s == QUILL_P256_LAZY_READY)
        return &lp->pub;
    if (s == QUILL_P256_LAZY_EMPTY)
        return NULL;
    /* PENDING or CLAIMED: jac is stable (written before the object was
     * shared); convert it here, and publish it if no one has claimed it. */
    public_from_jacobian(scratch, &lp->jac);
    unsigned expected = QUILL_P256_LAZY_PENDING;
    if (atomic_compare_exchange_strong_explicit(&w->state, &expected, QUILL_P256_LAZY_CLAIMED,
                                                memory_order_acquire, memory_order_relaxed)) {
        w->pub = *scratch;
        atomic_store_explicit(&w->state, QUILL_P256_LAZY_READY, memory_order_release);
    }
    return scratch;
}

void quill_p256_lazy_public_set(quill_p256_lazy_public *lp, const quill_p256_public *pub) {
    quill_zeroize(&lp->jac, sizeof(lp->jac));
    lp->pub = *pub;
    atomic_store_explicit(&lp->state, QUILL_P256_LAZY_READY, memory_order_release);
}

void quill_p256_lazy_public_copy(quill_p256_lazy_public *dst, const quill_p256_lazy_public *src) {
    unsigned s = atomic_load_explicit(&src->state, memory_order_acquire);
    if (s == QUILL_P256_LAZY_READY) {
        quill_p256_lazy_public_set(dst, &src->pub);
    } else if (s == QUILL_P256_LAZY_EMPTY) {
        quill_p256_lazy_public_clear(dst);
    } else {
        dst->jac = src->jac;
        atomic_store_explicit(&dst->state, QUILL_P256_LAZY_PENDING, memory_order_release);
    }
}

void quill_p256_lazy_public_clear(quill_p256_lazy_public *lp) {
    quill_zeroize(&lp->jac, sizeof(lp->jac));
    quill_zeroize(&lp->pub, sizeof(lp->pub));
    atomic_store_explicit(&lp->state, QUILL_P256_LAZY_EMPTY, memory_order_relaxed);
}

quill_err quill_p256_keygen_lazy(uint8_t priv[32], quill_p256_lazy_public *pub,
                                 const quill_rng *rng) {
    quill_p256_jacobian r;
    if (pub == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_err err = keygen_jacobian(priv, &r, rng);
    if (err == QUILL_OK) {
        pub->jac = r;
        atomic_store_explicit(&pub->state, QUILL_P256_LAZY_PENDING, memory_order_release);
    }
    quill_zeroize(&r, sizeof(r));
    return err;
}

/* out = x^3 - 3x + b for Montgomery-domain x (the curve's right-hand side);
 * b * R mod p as in p256_point.c. */
static void curve_rhs(quill_p256_fe *out, const quill_p256_fe *x) {
    static const quill_p256_fe b = {{UINT64_C(0xd89cdf6229c4bddf), UINT64_C(0xacf005cd78843090),
                                     UINT64_C(0xe5a220abf7212ed6), UINT64_C(0xdc30061d04874834)}};
    quill_p256_fe t, x3;
    quill_p256_fe_sqr(&t, x);
    quill_p256_fe_mul(&t, &t, x);
    quill_p256_fe_add(&x3, x, x);
    quill_p256_fe_add(&x3, &x3, x);
    quill_p256_fe_sub(&t, &t, &x3);
    quill_p256_fe_add(out, &t, &b);
}

quill_err quill_p256_public_decode(quill_p256_public *pub, const uint8_t *in, size_t len) {
    quill_p256_fe_plain x, y;
    quill_p256_affine a;
    if (pub == NULL || in == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (len == QUILL_P256_PUBLIC_BYTES && in[0] == 0x04) {
        quill_word xok = quill_p256_fe_plain_from_bytes(&x, in + 1);
        quill_word yok = quill_p256_fe_plain_from_bytes(&y, in + 33);
        if (!(xok & yok))
            return QUILL_ERR_KEY_CHECK;
        quill_p256_fe_to_mont(&a.x, &x);
        quill_p256_fe_to_mont(&a.y, &y);
        if (!quill_p256_affine_on_curve(&a))
            return QUILL_ERR_KEY_CHECK;
    } else if (len == QUILL_P256_PUBLIC_COMPRESSED_BYTES && (in[0] == 0x02 || in[0] == 0x03)) {
        quill_p256_fe rhs;
        if (!quill_p256_fe_plain_from_bytes(&x, in + 1))
            return QUILL_ERR_KEY_CHECK;
        quill_p256_fe_to_mont(&a.x, &x);
        curve_rhs(&rhs, &a.x);
        if (!quill_p256_fe_sqrt_vartime(&a.y, &rhs))
            return QUILL_ERR_KEY_CHECK;
        quill_p256_fe_from_mont(&y, &a.y);
        if ((y.v[0] & 1) != (uint64_t)(in[0] & 1))
            quill_p256_fe_opp(&a.y, &a.y); /* y != 0: no point of order 2 */
        if (!quill_p256_affine_on_curve(&a))
            return QUILL_ERR_INTERNAL;
    } else {
        return QUILL_ERR_INVALID_ARGUMENT;
    }
    pub->q = a;
    return QUILL_OK;
}

quill_err quill_p256_public_encode(uint8_t *out, size_t cap, size_t *out_len,
                                   const quill_p256_public *pub, int compressed) {
    quill_p256_fe_plain x, y;
    size_t need = compressed ? QUILL_P256_PUBLIC_COMPRESSED_BYTES : QUILL_P256_PUBLIC_BYTES;
    if (out_len == NULL || pub == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    *out_len = need;
    if (out == NULL)
        return QUILL_OK;
    if (cap < need)
        return QUILL_ERR_BUFFER_TOO_SMALL;
    quill_p256_fe_from_mont(&x, &pub->q.x);
    quill_p256_fe_from_mont(&y, &pub->q.y);
    quill_p256_fe_plain_to_bytes(out + 1, &x);
    if (compressed) {
        out[0] = (uint8_t)(0x02 | (y.v[0] & 1));
    } else {
        out[0] = 0x04;
        quill_p256_fe_plain_to_bytes(out + 33, &y);
    }
    return QUILL_OK;
}
