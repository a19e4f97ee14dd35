/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ECDSA P-256 signing and verification (FIPS 186-5 sections 6.4.1, 6.4.2;
 * nonces per RFC 6979 section 3.2, hedged per section 3.6).  See ecdsa.h. */
#include "ec/ecdsa.h"

#include <string.h>

#include "common/ct.h"
#include "common/zeroize.h"
#include "ec/hmac_drbg.h"
#include "ec/p256_limbs.h"
#include "ec/p256_verify_precomp.h"

#define SIGN_MAX_TRIES 64

/* bits2int(h) mod n (RFC 6979 2.3.2 and 2.3.4; FIPS 186-5 6.4.1 step 3): the
 * leftmost 256 bits of the digest (a shorter digest is its own value), then
 * one conditional subtraction of n.  The digest is not secret but is
 * handled in constant time anyway. */
static void digest_to_scalar(quill_p256_scalar_plain *e, const uint8_t *digest, size_t len) {
    uint8_t buf[32] = {0};
    quill_p256_scalar_plain t;
    if (len >= 32)
        memcpy(buf, digest, 32);
    else if (len > 0)
        memcpy(buf + 32 - len, digest, len);
    (void)quill_p256_scalar_plain_from_bytes(&t, buf);
    quill_p256_scalar_plain_reduce(e, &t);
}

/* One signature attempt with nonce k (secret, in [1, n-1]).  Returns all-ones
 * (declassified) if r and s are both nonzero; writes sig. */
static quill_word sign_with_nonce(uint8_t sig[64], const quill_p256_scalar_plain *k,
                                  const quill_p256_scalar *dm, const quill_p256_scalar *em) {
    quill_p256_jacobian rj;
    quill_p256_fe zi, zi2, xm;
    quill_p256_fe_plain x;
    quill_p256_scalar_plain r, s, xr;
    quill_p256_scalar km, kinv, rm, t;

    quill_p256_point_mul_base(&rj, k); /* finite: 0 < k < n */
    /* Z^-1 mod p and k^-1 mod n in one interleaved pass (p256_scalar.h);
     * only x of the affine point is needed: x = X / Z^2. */
    quill_p256_scalar_to_mont(&km, k);
    quill_p256_inv_pair_consttime(&zi, &rj.z, &kinv, &km);
    quill_p256_fe_sqr(&zi2, &zi);
    quill_p256_fe_mul(&xm, &rj.x, &zi2);
    quill_p256_fe_from_mont(&x, &xm);
    /* r = x mod n; x < p < 2n. */
    memcpy(xr.v, x.v, sizeof(xr.v));
    quill_p256_scalar_plain_reduce(&r, &xr);
    QUILL_CT_DECLASSIFY(&r, sizeof(r)); /* r is part of the signature */
    /* s = k^-1 (e + r d) mod n, in the Montgomery domain. */
    quill_p256_scalar_to_mont(&rm, &r);
    quill_p256_scalar_mul(&t, &rm, dm);
    quill_p256_scalar_add(&t, &t, em);
    quill_p256_scalar_mul(&t, &kinv, &t);
    quill_p256_scalar_from_mont(&s, &t);
    QUILL_CT_DECLASSIFY(&s, sizeof(s)); /* s is part of the signature */
    quill_p256_scalar_plain_to_bytes(sig, &r);
    quill_p256_scalar_plain_to_bytes(sig + 32, &s);
    quill_word ok = quill_p256_scalar_plain_nonzero(&r) & quill_p256_scalar_plain_nonzero(&s);
    quill_zeroize(&rj, sizeof(rj));
    quill_zeroize(&zi, sizeof(zi));
    quill_zeroize(&zi2, sizeof(zi2));
    quill_zeroize(&xm, sizeof(xm));
    quill_zeroize(&x, sizeof(x));
    quill_zeroize(&xr, sizeof(xr));
    quill_zeroize(&km, sizeof(km));
    quill_zeroize(&kinv, sizeof(kinv));
    quill_zeroize(&t, sizeof(t));
    return ok;
}

quill_err quill_ecdsa_p256_sign(uint8_t sig[64], const uint8_t priv[32], const uint8_t *digest,
                                size_t digest_len, const quill_hash *nonce_hash,
                                quill_ecdsa_nonce_type nonce_type, const quill_rng *rng) {
    quill_p256_scalar_plain d, e, k;
    quill_p256_scalar dm, em;
    quill_hmac_drbg drbg;
    uint8_t x_oct[32], h_oct[32], extra[32], kbytes[32];
    quill_err err;
    int drbg_live = 0;

    if (sig == NULL || priv == NULL || (digest == NULL && digest_len > 0) || nonce_hash == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (nonce_type != QUILL_ECDSA_NONCE_HEDGED && nonce_type != QUILL_ECDSA_NONCE_DETERMINISTIC)
        return QUILL_ERR_INVALID_ARGUMENT;
    if (nonce_type == QUILL_ECDSA_NONCE_HEDGED && (rng == NULL || rng->fill == NULL))
        return QUILL_ERR_INVALID_ARGUMENT;
    memset(sig, 0, 64);

    memcpy(x_oct, priv, 32);
    QUILL_CT_SECRET(x_oct, sizeof(x_oct));
    quill_word dok = quill_p256_scalar_plain_from_bytes(&d, x_oct) &
                     quill_p256_scalar_plain_nonzero(&d);
    if (!quill_ct_declassify_w(dok)) {
        err = QUILL_ERR_KEY_CHECK;
        goto done;
    }
    digest_to_scalar(&e, digest, digest_len);
    quill_p256_scalar_plain_to_bytes(h_oct, &e); /* bits2octets(h1) */
    quill_p256_scalar_to_mont(&dm, &d);
    quill_p256_scalar_to_mont(&em, &e);

    /* RFC 6979 3.2 steps b-g; 3.6: the fresh random k' follows h1. */
    const uint8_t *seed[3] = {x_oct, h_oct, extra};
    size_t seed_len[3] = {32, 32, 32};
    size_t nseed = 2;
    if (nonce_type == QUILL_ECDSA_NONCE_HEDGED) {
        if (!rng->fill(rng->arg, extra, sizeof(extra))) {
            err = QUILL_ERR_RNG;
            goto done;
        }
        QUILL_CT_SECRET(extra, sizeof(extra));
        nseed = 3;
    }
    err = quill_hmac_drbg_init(&drbg, nonce_hash, seed, seed_len, nseed);
    if (err != QUILL_OK)
        goto done;
    drbg_live = 1;
    err = QUILL_ERR_INTERNAL;
    for (int tries = 0; tries < SIGN_MAX_TRIES; tries++) {
        quill_err e2;
        if (tries > 0 && (e2 = quill_hmac_drbg_update(&drbg, NULL, NULL, 0)) != QUILL_OK) {
            err = e2;
            break;
        }
        /* Step h: T = V || V' ... (qlen = 256 bits), k = bits2int(T). */
        if ((e2 = quill_hmac_drbg_generate(&drbg, kbytes, sizeof(kbytes))) != QUILL_OK) {
            err = e2;
            break;
        }
        quill_word kok = quill_p256_scalar_plain_from_bytes(&k, kbytes) &
                         quill_p256_scalar_plain_nonzero(&k);
        if (!quill_ct_declassify_w(kok)) /* rejection reveals only a discarded k */
            continue;
        if (quill_ct_declassify_w(sign_with_nonce(sig, &k, &dm, &em))) {
            err = QUILL_OK;
            break;
        }
    }
done:
    if (err != QUILL_OK)
        memset(sig, 0, 64);
    if (drbg_live)
        quill_hmac_drbg_clear(&drbg);
    quill_zeroize(&d, sizeof(d));
    quill_zeroize(&dm, sizeof(dm));
    quill_zeroize(&k, sizeof(k));
    quill_zeroize(x_oct, sizeof(x_oct));
    quill_zeroize(extra, sizeof(extra));
    quill_zeroize(kbytes, sizeof(kbytes));
    return err;
}

/* u1 = e s^-1 and u2 = r s^-1 mod n (FIPS 186-5 6.4.2 steps 4-5); 0 if
 * s = 0.  With w = s^-1 in the Montgomery domain (w R), the Montgomery
 * product of a plain value x < n and w R is x w R R^-1 = x w, already
 * plain: no conversions of e, r, u1, u2. */
static int verify_scalars(quill_p256_scalar_plain *u1, quill_p256_scalar_plain *u2,
                          const quill_p256_scalar_plain *e, const quill_p256_scalar_plain *r,
                          const quill_p256_scalar_plain *s) {
    quill_p256_scalar_plain w;
    quill_p256_scalar wm, x, t;
    if (!quill_p256_scalar_inv_vartime(&w, s))
        return 0;
    quill_p256_scalar_to_mont(&wm, &w);
    memcpy(x.v, e->v, sizeof(x.v));
    quill_p256_scalar_mul(&t, &x, &wm);
    memcpy(u1->v, t.v, sizeof(u1->v));
    memcpy(x.v, r->v, sizeof(x.v));
    quill_p256_scalar_mul(&t, &x, &wm);
    memcpy(u2->v, t.v, sizeof(u2->v));
    return 1;
}

/* Accepts if R = (X, Y, Z) (Jacobian) is finite and x(R) mod n == r:
 * x(R) = X / Z^2 mod p, so X == r Z^2 or, when r + n < p, X == (r + n) Z^2
 * (x(R) < p < 2n).  No inversion needed. */
static quill_err verify_check_x(const quill_p256_jacobian *rj, const quill_p256_scalar_plain *r) {
    static const uint64_t p_limbs[4] = {UINT64_C(0xffffffffffffffff), UINT64_C(0x00000000ffffffff),
                                        0, UINT64_C(0xffffffff00000001)};
    static const uint64_t n_limbs[4] = {UINT64_C(0xf3b9cac2fc632551), UINT64_C(0xbce6faada7179e84),
                                        UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000)};
    quill_p256_fe z2, rx, lhs;
    quill_p256_fe_plain rp;
    if (!quill_p256_fe_nonzero(&rj->z))
        return QUILL_ERR_BAD_SIGNATURE;
    quill_p256_fe_sqr(&z2, &rj->z);
    memcpy(rp.v, r->v, sizeof(rp.v));
    quill_p256_fe_to_mont(&rx, &rp);
    quill_p256_fe_mul(&lhs, &rx, &z2);
    if (quill_p256_fe_equal(&lhs, &rj->x))
        return QUILL_OK;
    uint64_t rn[4], tmp[4];
    if (quill_add4(rn, r->v, n_limbs) == 0 && quill_sub4(tmp, rn, p_limbs) == 1) {
        memcpy(rp.v, rn, sizeof(rp.v)); /* r + n < p */
        quill_p256_fe_to_mont(&rx, &rp);
        quill_p256_fe_mul(&lhs, &rx, &z2);
        if (quill_p256_fe_equal(&lhs, &rj->x))
            return QUILL_OK;
    }
    return QUILL_ERR_BAD_SIGNATURE;
}

/* The table to use for pub from cache, building and publishing one from
 * the second verification on; NULL for the plain path. */
static const quill_p256_verify_precomp *cache_table(quill_p256_verify_cache *cache,
                                                    const quill_p256_public *pub) {
    quill_p256_verify_precomp *t = atomic_load_explicit(&cache->table, memory_order_acquire);
    if (t == NULL) {
        /* The first verification with a key pays nothing extra: a key used
         * once (a certificate checked once) never gets a table. */
        if (atomic_fetch_add_explicit(&cache->uses, 1, memory_order_relaxed) == 0)
            return NULL;
        quill_p256_verify_precomp *fresh = quill_p256_verify_precomp_new_vartime(&pub->q);
        if (fresh == NULL)
            return NULL;
        quill_p256_verify_precomp *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&cache->table, &expected, fresh,
                                                    memory_order_acq_rel, memory_order_acquire)) {
            t = fresh;
        } else {
            quill_p256_verify_precomp_free(fresh); /* another thread won */
            t = expected;
        }
    }
    /* A cache used with another key than the one it was built for. */
    if (memcmp(&t->q, &pub->q, sizeof(pub->q)) != 0)
        return NULL;
    return t;
}

void quill_p256_verify_cache_clear(quill_p256_verify_cache *cache) {
    if (cache == NULL)
        return;
    quill_p256_verify_precomp *t = atomic_exchange_explicit(&cache->table, NULL,
                                                            memory_order_acq_rel);
    quill_p256_verify_precomp_free(t);
    atomic_store_explicit(&cache->uses, 0, memory_order_relaxed);
}

quill_err quill_ecdsa_p256_verify_cached(const quill_p256_public *pub,
                                         quill_p256_verify_cache *cache, const uint8_t *digest,
                                         size_t digest_len, const uint8_t sig[64]) {
    quill_p256_scalar_plain r, s, e, u1, u2;
    quill_p256_jacobian rj;

    if (pub == NULL || sig == NULL || (digest == NULL && digest_len > 0))
        return QUILL_ERR_INVALID_ARGUMENT;
    if (!quill_p256_scalar_plain_from_bytes(&r, sig) || !quill_p256_scalar_plain_nonzero(&r) ||
        !quill_p256_scalar_plain_from_bytes(&s, sig + 32) || !quill_p256_scalar_plain_nonzero(&s))
        return QUILL_ERR_BAD_SIGNATURE;
    digest_to_scalar(&e, digest, digest_len);
    if (!verify_scalars(&u1, &u2, &e, &r, &s))
        return QUILL_ERR_BAD_SIGNATURE;
    const quill_p256_verify_precomp *t = cache != NULL ? cache_table(cache, pub) : NULL;
    if (t != NULL)
        quill_p256_point_mul_double_precomp_vartime(&rj, &u1, &u2, t);
    else
        quill_p256_point_mul_double_vartime(&rj, &u1, &u2, &pub->q);
    return verify_check_x(&rj, &r);
}

quill_err quill_ecdsa_p256_verify(const quill_p256_public *pub, const uint8_t *digest,
                                  size_t digest_len, const uint8_t sig[64]) {
    return quill_ecdsa_p256_verify_cached(pub, NULL, digest, digest_len, sig);
}
