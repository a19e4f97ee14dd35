/* Copyright quill authors.
 *
 * Montgomery multiplication and squaring kernels (portable C, 64-bit limbs,
 * unsigned __int128 products).  One inline body with the limb count as a
 * parameter, instantiated for the sizes RSA uses so that the compiler can
 * unroll and schedule it, plus a generic instance for other sizes.
 *
 * Multiplication: CIOS (coarsely integrated operand scanning): for each
 * limb b_i, t += a * b_i, then u = t_0 * n0 and t = (t + u m) / 2^64.  With
 * a, b < m the running value stays below 2m, so t fits in n + 1 limbs (the
 * top one 0 or 1) and a final branch-free subtraction gives the result.
 *
 * Squaring: the full square with each cross product computed once, then a
 * separate Montgomery reduction of the 2n-limb product. */
#include "bn/internal.h"

#include <string.h>

QUILL_INLINE void mont_mul_body(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                const quill_limb *m, quill_limb n0, size_t n) {
    quill_limb t[QUILL_BN_MAX_LIMBS + 1];
    for (size_t j = 0; j < n; j++)
        t[j] = 0;
    quill_limb hi = 0;
    for (size_t i = 0; i < n; i++) {
        quill_limb bi = b[i];
        /* t += a * bi */
        quill_limb c = 0;
        for (size_t j = 0; j < n; j++) {
            quill_dlimb p = (quill_dlimb)a[j] * bi + t[j] + c;
            t[j] = (quill_limb)p;
            c = (quill_limb)(p >> 64);
        }
        quill_dlimb s = (quill_dlimb)hi + c;
        quill_limb t_n = (quill_limb)s;
        quill_limb t_n1 = (quill_limb)(s >> 64);
        /* t = (t + u m) / 2^64 */
        quill_limb u = t[0] * n0;
        quill_dlimb p = (quill_dlimb)m[0] * u + t[0];
        c = (quill_limb)(p >> 64);
        for (size_t j = 1; j < n; j++) {
            p = (quill_dlimb)m[j] * u + t[j] + c;
            t[j - 1] = (quill_limb)p;
            c = (quill_limb)(p >> 64);
        }
        s = (quill_dlimb)t_n + c;
        t[n - 1] = (quill_limb)s;
        hi = t_n1 + (quill_limb)(s >> 64);
    }
    /* t + hi 2^(64n) < 2m: r = t - m unless that borrows past hi. */
    quill_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        quill_dlimb d = (quill_dlimb)t[j] - m[j] - borrow;
        r[j] = (quill_limb)d;
        borrow = (quill_limb)(d >> 64) & 1;
    }
    quill_limb keep_t = quill_value_barrier_w((quill_limb)0 - (borrow & ~hi & 1));
    for (size_t j = 0; j < n; j++)
        r[j] = (t[j] & keep_t) | (r[j] & ~keep_t);
}

/* Montgomery reduction of the 2n-limb t (< m R), result into r. */
QUILL_INLINE void mont_redc_body(quill_limb *r, quill_limb *t, const quill_limb *m,
                                 quill_limb n0, size_t n) {
    quill_limb hi = 0;
    for (size_t i = 0; i < n; i++) {
        quill_limb u = t[i] * n0;
        quill_limb c = 0;
        for (size_t j = 0; j < n; j++) {
            quill_dlimb p = (quill_dlimb)m[j] * u + t[i + j] + c;
            t[i + j] = (quill_limb)p;
            c = (quill_limb)(p >> 64);
        }
        quill_dlimb s = (quill_dlimb)t[i + n] + c + hi;
        t[i + n] = (quill_limb)s;
        hi = (quill_limb)(s >> 64);
    }
    quill_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        quill_dlimb d = (quill_dlimb)t[n + j] - m[j] - borrow;
        r[j] = (quill_limb)d;
        borrow = (quill_limb)(d >> 64) & 1;
    }
    quill_limb keep_t = quill_value_barrier_w((quill_limb)0 - (borrow & ~hi & 1));
    for (size_t j = 0; j < n; j++)
        r[j] = (t[n + j] & keep_t) | (r[j] & ~keep_t);
}

/* Full square of a (n limbs) into t (2n limbs). */
QUILL_INLINE void sqr_body(quill_limb *t, const quill_limb *a, size_t n) {
    for (size_t i = 0; i < 2 * n; i++)
        t[i] = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        quill_limb ai = a[i];
        quill_limb c = 0;
        for (size_t j = i + 1; j < n; j++) {
            quill_dlimb p = (quill_dlimb)a[j] * ai + t[i + j] + c;
            t[i + j] = (quill_limb)p;
            c = (quill_limb)(p >> 64);
        }
        t[i + n] = c;
    }
    quill_limb top = 0;
    quill_limb carry = 0;
    for (size_t i = 0; i < n; i++) {
        quill_limb lo_w = t[2 * i], hi_w = t[2 * i + 1];
        quill_limb d_lo = (lo_w << 1) | top;
        quill_limb d_hi = (hi_w << 1) | (lo_w >> 63);
        top = hi_w >> 63;
        quill_dlimb sq = (quill_dlimb)a[i] * a[i];
        quill_dlimb s = (quill_dlimb)d_lo + (quill_limb)sq + carry;
        t[2 * i] = (quill_limb)s;
        s = (quill_dlimb)d_hi + (quill_limb)(sq >> 64) + (quill_limb)(s >> 64);
        t[2 * i + 1] = (quill_limb)s;
        carry = (quill_limb)(s >> 64);
    }
}

QUILL_INLINE void mont_sqr_body(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                quill_limb n0, size_t n) {
    quill_limb t[2 * QUILL_BN_MAX_LIMBS];
    sqr_body(t, a, n);
    mont_redc_body(r, t, m, n0, n);
}

void quill_mont_redc_c(quill_limb *r, quill_limb *t, const quill_limb *m, quill_limb n0,
                       size_t n) {
    mont_redc_body(r, t, m, n0, n);
}

#define QUILL_MONT_INSTANCE(N)                                                              \
    static void mont_mul_##N(quill_limb *r, const quill_limb *a, const quill_limb *b,       \
                             const quill_limb *m, quill_limb n0, size_t n) {                \
        (void)n;                                                                            \
        mont_mul_body(r, a, b, m, n0, N);                                                   \
    }                                                                                       \
    static void mont_sqr_##N(quill_limb *r, const quill_limb *a, const quill_limb *m,       \
                             quill_limb n0, size_t n) {                                     \
        (void)n;                                                                            \
        mont_sqr_body(r, a, m, n0, N);                                                      \
    }

QUILL_MONT_INSTANCE(8)
QUILL_MONT_INSTANCE(16)
QUILL_MONT_INSTANCE(24)
QUILL_MONT_INSTANCE(32)
QUILL_MONT_INSTANCE(48)
QUILL_MONT_INSTANCE(64)

static void mont_mul_generic(quill_limb *r, const quill_limb *a, const quill_limb *b,
                             const quill_limb *m, quill_limb n0, size_t n) {
    mont_mul_body(r, a, b, m, n0, n);
}

static void mont_sqr_generic(quill_limb *r, const quill_limb *a, const quill_limb *m,
                             quill_limb n0, size_t n) {
    mont_sqr_body(r, a, m, n0, n);
}

void quill_mont_kernels(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    switch (n) {
#define QUILL_MONT_CASE(N)                                                                  \
    case N:                                                                                 \
        *mul = mont_mul_##N;                                                                \
        *sqr = mont_sqr_##N;                                                                \
        return;
        QUILL_MONT_CASE(8)
        QUILL_MONT_CASE(16)
        QUILL_MONT_CASE(24)
        QUILL_MONT_CASE(32)
        QUILL_MONT_CASE(48)
        QUILL_MONT_CASE(64)
#undef QUILL_MONT_CASE
    default:
        *mul = mont_mul_generic;
        *sqr = mont_sqr_generic;
        return;
    }
}
