/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Montgomery contexts and domain conversions. */
#include "bn/internal.h"

#include <stdlib.h>
#include <string.h>

#include "bn/exp_ifma.h"
#include "bn/ifma_d52.h"
#include "bn/mont_d27_avx2.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/zeroize.h"

/* r = 2 r mod m for r < m, without a branch: 2r < 2m, subtract m unless
 * that borrows past the bit shifted out. */
static void mod_double(quill_limb *r, quill_limb *tmp, const quill_limb *m, size_t n) {
    quill_limb top = 0;
    quill_limb borrow = 0;
    for (size_t i = 0; i < n; i++) {
        quill_limb d = (r[i] << 1) | top;
        top = r[i] >> 63;
        r[i] = d;
        quill_dlimb s = (quill_dlimb)d - m[i] - borrow;
        tmp[i] = (quill_limb)s;
        borrow = (quill_limb)(s >> 64) & 1;
    }
    quill_limb keep = quill_value_barrier_w((quill_limb)0 - (borrow & ~top & 1));
    for (size_t i = 0; i < n; i++)
        r[i] = (r[i] & keep) | (tmp[i] & ~keep);
}

/* r = 2 r mod m for r < m and a public m: variable time (the d27 form's
 * 2^s R^2 mod m, s up to 60 doublings). */
static void mod_double_public(quill_limb *r, const quill_limb *m, size_t n) {
    quill_limb top = r[n - 1] >> 63;
    for (size_t i = n - 1; i > 0; i--)
        r[i] = (r[i] << 1) | (r[i - 1] >> 63);
    r[0] <<= 1;
    if (top == 0 && quill_bn_lt_public(r, m, n)) /* 2r < m */
        return;
    (void)quill_bn_sub(r, r, m, n); /* 2r - m < m, exact mod 2^(64 n) */
}

/* The context for m; |public_m| says that m is public (its top bit may be
 * branched on). */
static quill_mont *mont_new(const quill_limb *m, size_t n, int public_m) {
    if (m == NULL || n < 1 || n > QUILL_BN_MAX_LIMBS)
        return NULL;
    /* Public facts (declassified): the parity, the top limb being non-zero,
     * m > 1. */
    quill_word bad = quill_ct_is_zero_mask(m[0] & 1) | quill_ct_is_zero_mask(m[n - 1]);
    if (n == 1)
        bad |= quill_ct_eq_mask(m[0], 1);
    if (quill_ct_declassify_w(bad) != 0)
        return NULL;
    /* space for R'^2 of the IFMA exponentiations at their sizes */
#if defined(QUILL_EXP_IFMA)
    size_t rr52 = quill_mont_exp_x1_ifma_supported_size(n) ||
                          quill_mont_exp_x2_ifma_supported_size(n)
                      ? d52_digits(n)
                      : 0;
#else
    size_t rr52 = 0;
#endif
    size_t bytes = sizeof(quill_mont) + 4 * n * sizeof(quill_limb) + rr52 * sizeof(uint64_t);
    /* A public 2048-, 3072- or 4096-bit modulus at the AVX2 level (AVX2,
     * not the IFMA exponentiation) also gets the space of the d27 form for
     * quill_mont_exp_public (aligned to 32 bytes after the limbs). */
    size_t d27 = QUILL_BN_HAVE_D27 && public_m && quill_cpu_has(QUILL_CPU_X86_AVX2) &&
                         !quill_mont_exp_x1_ifma_capable(n)
                     ? quill_d27_mod_bytes(n)
                     : 0;
    if (d27)
        bytes += d27 + 32;
    quill_mont *mont = quill_malloc(bytes);
    if (mont == NULL)
        return NULL;
    quill_limb *limbs = (quill_limb *)(mont + 1);
    mont->d27 = NULL;
    mont->d27_state = QUILL_D27_UNUSED;
    mont->rr52 = rr52 ? (uint64_t *)(limbs + 4 * n) : NULL;
    mont->rr52_state = QUILL_RR52_EMPTY;
    if (d27) { /* the space only: quill_mont_d27_use builds it */
        uintptr_t p = (uintptr_t)(limbs + 4 * n + rr52);
        mont->d27 = (quill_d27_mod *)((p + 31) & ~(uintptr_t)31);
    }
    mont->n = n;
    mont->alloc_len = bytes;
    mont->m = limbs;
    mont->rr = limbs + n;
    mont->one = limbs + 2 * n;
    quill_limb *tmp = limbs + 3 * n;
    memcpy(mont->m, m, n * sizeof(quill_limb));
    mont->n0 = (quill_limb)0 - quill_bn_inv64(m[0]); /* -m^-1 mod 2^64 */
    quill_mont_kernels(n, &mont->mul, &mont->sqr);
    mont->sqr_public = quill_mont_kernel_sqr_public(n, mont->sqr);
    quill_mont_kernels_x2(n, &mont->mul_x2, &mont->sqr_x2);

    /* R mod m.  A public m with its top bit set (every RSA modulus, whose
     * length is a whole number of limbs) has R - m < m, so R mod m = R - m
     * = 0 - m mod R, one subtraction.  Otherwise 2^(64(n-1)) < m (the top
     * limb is non-zero and m is odd, or n = 1 and m > 1), and 64
     * constant-time doublings give 2^(64n) mod m. */
    quill_limb *x = mont->rr;
    memset(x, 0, n * sizeof(quill_limb));
    if (public_m && (m[n - 1] >> 63) != 0) {
        (void)quill_bn_sub(x, x, m, n);
    } else {
        x[n - 1] = 1;
        for (int i = 0; i < 64; i++)
            mod_double(x, tmp, mont->m, n);
    }
    memcpy(mont->one, x, n * sizeof(quill_limb));
    /* Write 64n = t 2^k.  Then t more doublings give 2^t R, the Montgomery
     * form of 2^t, and k Montgomery squarings give the form of
     * 2^(t 2^k) = R, i.e. R^2 mod m.  k stops where t would drop below
     * 16: 16 doublings and 7 squarings for RSA-2048's modulus instead of
     * 1 and 11 (with R - m above: a fresh RSA-2048 public key's context
     * in 5.3 us instead of 10.1, Zen 4; thresholds 8 to 32 measure
     * alike). */
    size_t k = 0, t = 64 * n;
    while ((t & 1) == 0 && t / 2 >= 16) {
        t /= 2;
        k++;
    }
    for (size_t i = 0; i < t; i++)
        mod_double(x, tmp, mont->m, n);
    for (size_t i = 0; i < k; i++)
        mont->sqr(x, x, mont->m, mont->n0, n);
    quill_zeroize(tmp, n * sizeof(quill_limb));
    return mont;
}

quill_mont *quill_mont_new(const quill_limb *m, size_t n) {
    return mont_new(m, n, 0);
}

quill_mont *quill_mont_new_public(const quill_limb *m, size_t n) {
    return mont_new(m, n, 1);
}

/* The d27 form is built on the context's second use, not when the context
 * is made: it costs about 5.6k / 11.6k / 17.5k ticks at 2048 / 3072 / 4096
 * bits (N' and four shifted copies of m and N', 2^s R^2 mod m) against
 * ~2.2k / 10.6k / 26.8k saved per exponentiation, so a key verified once (a
 * certificate in a chain, a TLS CertificateVerify) would pay more than it
 * gains.  The first call only records the use; the caller
 * that moves the state from "used once" to "building" builds the form and
 * publishes it (release); every other call meanwhile takes the MULX path.
 * The state and the form are the context's only parts written after
 * quill_mont_new_public returns, hence the cast. */
const quill_d27_mod *quill_mont_d27_use(const quill_mont *cmont) {
    quill_mont *mont = (quill_mont *)cmont;
    if (mont->d27 == NULL)
        return NULL;
    int s = __atomic_load_n(&mont->d27_state, __ATOMIC_ACQUIRE);
    if (s == QUILL_D27_READY)
        return mont->d27;
    int want = s;
    if (s == QUILL_D27_UNUSED) {
        (void)__atomic_compare_exchange_n(&mont->d27_state, &want, QUILL_D27_USED_ONCE, 0,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        return NULL;
    }
    if (s != QUILL_D27_USED_ONCE ||
        !__atomic_compare_exchange_n(&mont->d27_state, &want, QUILL_D27_BUILDING, 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return NULL; /* another thread builds it */
    size_t n = mont->n;
    quill_d27_mod_init(mont->d27, mont->m, n);
    quill_limb *rr = quill_d27_rr(mont->d27);
    memcpy(rr, mont->rr, n * sizeof(quill_limb)); /* 2^s R^2 mod m */
    for (unsigned i = 0; i < mont->d27->shift; i++)
        mod_double_public(rr, mont->m, n);
    __atomic_store_n(&mont->d27_state, QUILL_D27_READY, __ATOMIC_RELEASE);
    return mont->d27;
}

const uint64_t *quill_mont_rr52_get(const quill_mont *mont) {
    if (mont->rr52 == NULL ||
        __atomic_load_n(&mont->rr52_state, __ATOMIC_ACQUIRE) != QUILL_RR52_READY)
        return NULL;
    return mont->rr52;
}

void quill_mont_rr52_put(const quill_mont *cmont, const uint64_t *d, size_t stride) {
    quill_mont *mont = (quill_mont *)cmont;
    int want = QUILL_RR52_EMPTY;
    if (mont->rr52 == NULL ||
        !__atomic_compare_exchange_n(&mont->rr52_state, &want, QUILL_RR52_BUILDING, 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    size_t L = d52_digits(mont->n);
    for (size_t j = 0; j < L; j++)
        mont->rr52[j] = d[stride * j];
    __atomic_store_n(&mont->rr52_state, QUILL_RR52_READY, __ATOMIC_RELEASE);
}

void quill_mont_free(quill_mont *mont) {
    if (mont == NULL)
        return;
    quill_zeroize(mont, mont->alloc_len);
    quill_free(mont);
}

size_t quill_mont_limbs(const quill_mont *mont) {
    return mont->n;
}

const quill_limb *quill_mont_modulus(const quill_mont *mont) {
    return mont->m;
}

void quill_mont_mul(quill_limb *r, const quill_limb *a, const quill_limb *b,
                    const quill_mont *mont) {
    mont->mul(r, a, b, mont->m, mont->n0, mont->n);
}

void quill_mont_sqr(quill_limb *r, const quill_limb *a, const quill_mont *mont) {
    mont->sqr(r, a, mont->m, mont->n0, mont->n);
}

void quill_mont_mul_x2(quill_limb *r0, const quill_limb *a0, const quill_limb *b0,
                       const quill_mont *mont0, quill_limb *r1, const quill_limb *a1,
                       const quill_limb *b1, const quill_mont *mont1) {
    if (mont0->n != mont1->n) {
        quill_mont_mul(r0, a0, b0, mont0);
        quill_mont_mul(r1, a1, b1, mont1);
        return;
    }
    quill_limb *const r[2] = {r0, r1};
    const quill_limb *const a[2] = {a0, a1}, *const b[2] = {b0, b1};
    const quill_limb *const m[2] = {mont0->m, mont1->m};
    const quill_limb n0[2] = {mont0->n0, mont1->n0};
    mont0->mul_x2(r, a, b, m, n0, mont0->n);
}

void quill_mont_sqr_x2(quill_limb *r0, const quill_limb *a0, const quill_mont *mont0,
                       quill_limb *r1, const quill_limb *a1, const quill_mont *mont1) {
    if (mont0->n != mont1->n) {
        quill_mont_sqr(r0, a0, mont0);
        quill_mont_sqr(r1, a1, mont1);
        return;
    }
    quill_limb *const r[2] = {r0, r1};
    const quill_limb *const a[2] = {a0, a1};
    const quill_limb *const m[2] = {mont0->m, mont1->m};
    const quill_limb n0[2] = {mont0->n0, mont1->n0};
    mont0->sqr_x2(r, a, m, n0, mont0->n);
}

void quill_mont_to(quill_limb *r, const quill_limb *a, const quill_mont *mont) {
    mont->mul(r, a, mont->rr, mont->m, mont->n0, mont->n);
}

void quill_mont_from(quill_limb *r, const quill_limb *a, const quill_mont *mont) {
    size_t n = mont->n;
    quill_limb t[2 * QUILL_BN_MAX_LIMBS];
    memcpy(t, a, n * sizeof(quill_limb));
    memset(t + n, 0, n * sizeof(quill_limb));
    quill_mont_redc_c(r, t, mont->m, mont->n0, n);
    quill_zeroize(t, 2 * n * sizeof(quill_limb));
}

void quill_mont_reduce_wide(quill_limb *r, const quill_limb *a, size_t na,
                            const quill_mont *mont) {
    /* REDC(a) = a R^-1 mod m (valid since a < m R); one multiplication by
     * R^2 then gives a R^-1 R^2 R^-1 = a mod m. */
    size_t n = mont->n;
    quill_limb t[2 * QUILL_BN_MAX_LIMBS];
    if (na > 2 * n)
        na = 2 * n;
    memcpy(t, a, na * sizeof(quill_limb));
    memset(t + na, 0, (2 * n - na) * sizeof(quill_limb));
    quill_mont_redc_c(r, t, mont->m, mont->n0, n);
    mont->mul(r, r, mont->rr, mont->m, mont->n0, n);
    quill_zeroize(t, 2 * n * sizeof(quill_limb));
}
