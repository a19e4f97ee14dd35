/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * One-lane exponentiation with AVX-512 IFMA for public exponents (see
 * exp_ifma.h): RSA verification, the check of a fresh signature and the
 * blinding factor r^e, which quill_mont_exp_vartime (exp.c) hands over for
 * the moduli of RSA-1024 to RSA-4096.
 *
 * Why.  On AMD Zen 4 one VPMADD52 on 512-bit vectors (eight 52 x 52-bit
 * products) issues about once per cycle, as one MULX (one 64 x 64-bit
 * product) does: 8 * 52^2 / 64^2 = 5.3 times the multiplier width per
 * cycle.  The exponentiation by 65537 at 2048 bits takes 5.9 us here
 * against 11.8 us with the MULX/ADX kernels (bn_speed exp_f4, same run).
 *
 * Representation and product.  Digit j of the number (radix 2^52) is word j
 * (exp_ifma.c interleaves two numbers instead; everything else is as
 * there): L = ceil(64 n / 52) digits in W = ceil(L / 8) vectors, zero
 * padded, R' = 2^(52 L).  amm(a, b) = (a b + Y m) / R' is the
 * almost-Montgomery product, operand scanning over the digits of b; for
 * a, b < 2m it is below 2m (4m <= R' at every supported size), so no step
 * subtracts m and only the result is reduced, once.  Step i, with s the
 * exact digit 0 (carry included) kept in a scalar register, the vector X
 * holding the other digits lazily carried:
 *   t = s + lo52(a_0 b_i),  y = t k0 mod 2^52  (k0 = -m^-1 mod 2^52)
 *   s = X_1 + lo52(a_1 b_i) + hi52(a_0 b_i) + lo52(m_1 y) + (t + m_0 y) / 2^52
 *   X = ((X + lo52(a b_i) + lo52(m y)) >> one digit) + hi52(a b_i) + hi52(m y)
 * The vector's digit 0 lacks the carry out of t + m_0 y and is never read:
 * it is shifted out, and at the end replaced by s.  A digit receives four
 * products below 2^52 per step, under 4 * 79 * 2^52 plus the carries
 * below 2^12 that s passes on, < 2^61 in all:
 * no word overflows; d52_normalise carries them back to 52 bits.
 *
 * The exponentiation is left to right, bit by bit (exponents are short:
 * 65537, 3; the time depends on the exponent, which is public), in the
 * Montgomery domain of R'.  R'^2 mod m comes from the context's R^2 mod m
 * (R = 2^(64 n)) with two products (congruences mod m; the values are
 * below 2m): amm(R^2, R^2) = 2^(256 n - 52 L), and amm of that with 2^c,
 * c = 208 L - 256 n (64, 96, 128, 192, 48 for n = 16, 24, 32, 48, 64: a
 * power of two below m, as m >= 2^(64 (n - 1)), written directly), is
 * 2^(104 L) = R'^2; the first exponentiation with a context keeps it there
 * (quill_mont_rr52_put) for the next ones.  An odd exponent's last multiplication takes the base
 * in the normal domain (a^(e-1) R' a / R' = a^e), which saves the way out
 * of the domain.
 *
 * Constant time in the base: the blinding factor is secret.  The products
 * are straight-line for a given size, the carry propagation uses opmasks
 * (as in exp_ifma.c), the final subtraction is a select; only the exponent
 * (public) steers the control flow. */
#include <stdlib.h>
#include <string.h>

#include "bn/exp_ifma.h"
#include "bn/ifma_d52.h"
#include "bn/internal.h"
#include "common/alloc.h"
#include "common/cpu.h"
#include "common/zeroize.h"

int quill_mont_exp_x1_ifma_supported_size(size_t n) {
    return n == 16 || n == 24 || n == 32 || n == 48 || n == 64;
}

#if defined(QUILL_EXP_IFMA)

#include <immintrin.h>

/* One number in radix 2^52, digit j in word j, zero padded (L <= 79). */
typedef struct {
    _Alignas(64) uint64_t d[D52_MAXW * 8];
} d52x1;

typedef struct {
    d52x1 m;
    uint64_t k0; /* -m^-1 mod 2^52 */
} mod_x1;

typedef void (*amm_x1_fn)(d52x1 *r, const d52x1 *a, const d52x1 *b, const mod_x1 *mod);

/* r = amm(a, b) for L digits in W vectors (constants after inlining); a
 * and b below 2m with normalised digits, r likewise.  r may alias a or b.
 * The products of digits 0 and 1 with b_i for the scalar part depend on b_i
 * only, so they are off the chain from one y to the next. */
IFMA_INLINE void amm_x1_body(d52x1 *r, const d52x1 *a, const d52x1 *b, const mod_x1 *mod,
                             size_t L, size_t W) {
    __m512i A[D52_MAXW], M[D52_MAXW], X[D52_MAXW];
    d52_load(A, M, X, a->d, mod->m.d, W);
    const uint64_t a0 = a->d[0], a1 = a->d[1], m0 = mod->m.d[0], m1 = mod->m.d[1];
    const uint64_t k0 = mod->k0;
    uint64_t s = 0;
    for (size_t i = 0; i < L; i++) {
        const uint64_t bi = b->d[i];
        const __m512i B = _mm512_set1_epi64((long long)bi);
        const uint64_t x1 = (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(X[0]), 1);
        const uint64_t t = s + ((a0 * bi) & D52_MASK);
        const uint64_t y = (t * k0) & D52_MASK;
        const __m512i Y = _mm512_set1_epi64((long long)y);
        s = x1 + ((a1 * bi) & D52_MASK) + (uint64_t)(((quill_u128)a0 * bi) >> 52) +
            ((m1 * y) & D52_MASK) + (uint64_t)(((quill_u128)m0 * y + t) >> 52);
        __m512i H[D52_MAXW];
        d52_products(X, H, A, M, B, Y, W);
        d52_shift_digit(X, H, W, 1);
    }
    X[0] = _mm512_mask_set1_epi64(X[0], 1, (long long)s);
    d52_normalise(X, W, 1);
    D52_UNROLL_W for (size_t v = 0; v < W; v++)
        _mm512_store_si512((void *)(r->d + 8 * v), X[v]);
}

#define AMM_X1_INSTANCE(L_, W_)                                                             \
    IFMA_TARGET static void amm_x1_##L_(d52x1 *r, const d52x1 *a, const d52x1 *b,           \
                                        const mod_x1 *mod) {                                \
        amm_x1_body(r, a, b, mod, L_, W_);                                                  \
    }

AMM_X1_INSTANCE(20, 3)
AMM_X1_INSTANCE(30, 4)
AMM_X1_INSTANCE(40, 5)
AMM_X1_INSTANCE(60, 8)
AMM_X1_INSTANCE(79, 10)

static amm_x1_fn amm_x1_pick(size_t n) {
    switch (n) {
    case 16:
        return amm_x1_20;
    case 24:
        return amm_x1_30;
    case 32:
        return amm_x1_40;
    case 48:
        return amm_x1_60;
    case 64:
        return amm_x1_79;
    default:
        return NULL;
    }
}

/* Scratch of one exponentiation; 64-byte aligned, wiped before freeing
 * (the base may be secret). */
typedef struct {
    mod_x1 mod;
    d52x1 base; /* a */
    d52x1 am;   /* a R' mod m (below 2m) */
    d52x1 acc;
    d52x1 tmp;
    quill_limb limbs[3][64 + 1]; /* radix 2^64 scratch (n <= 64) */
} x1_ws;

int quill_mont_exp_x1_ifma_capable(size_t n) {
    return quill_mont_exp_x1_ifma_supported_size(n) &&
           quill_cpu_has(QUILL_CPU_X86_AVX512VL | QUILL_CPU_X86_AVX512IFMA);
}

int quill_mont_exp_vartime_x1_ifma(quill_limb *r, const quill_limb *a, const quill_limb *e,
                                   size_t e_limbs, const quill_mont *mont) {
    const size_t n = mont->n;
    const amm_x1_fn amm = amm_x1_pick(n);
    const size_t bits = quill_bn_num_bits_public(e, e_limbs);
    if (amm == NULL || bits == 0)
        return 0;
    const size_t L = d52_digits(n);
    x1_ws *ws = quill_aligned_alloc(64, sizeof(x1_ws));
    if (ws == NULL)
        return 0;
    memset(ws, 0, sizeof(*ws));
    mod_x1 *mod = &ws->mod;
    d52_from_limbs(mod->m.d, 1, mont->m, n, L);
    mod->k0 = mont->n0 & D52_MASK;

    /* am = a R'^2 / R' with R'^2 = amm(amm(R^2, R^2), 2^c) (above), kept
     * in the context by the first exponentiation with it; R'^2 is held in
     * am until the product by the base replaces it. */
    const uint64_t *rr52 = quill_mont_rr52_get(mont);
    if (rr52 != NULL) {
        memcpy(ws->am.d, rr52, L * sizeof(uint64_t));
    } else {
        const size_t c = 208 * L - 256 * n;
        d52_from_limbs(ws->tmp.d, 1, mont->rr, n, L);
        amm(&ws->acc, &ws->tmp, &ws->tmp, mod);
        memset(&ws->tmp, 0, sizeof(ws->tmp));
        ws->tmp.d[c / 52] = (uint64_t)1 << (c % 52);
        amm(&ws->am, &ws->acc, &ws->tmp, mod);
        quill_mont_rr52_put(mont, ws->am.d, 1);
    }
    d52_from_limbs(ws->base.d, 1, a, n, L);
    amm(&ws->am, &ws->base, &ws->am, mod);

    ws->acc = ws->am;
    int out = 0; /* acc left the domain */
    for (size_t bit = bits - 1; bit-- > 0;) {
        amm(&ws->acc, &ws->acc, &ws->acc, mod);
        if ((e[bit / 64] >> (bit % 64)) & 1) {
            out = bit == 0;
            amm(&ws->acc, &ws->acc, out ? &ws->base : &ws->am, mod);
        }
    }
    if (!out) {
        memset(&ws->tmp, 0, sizeof(ws->tmp));
        ws->tmp.d[0] = 1;
        amm(&ws->acc, &ws->acc, &ws->tmp, mod);
    }
    /* acc < 2m < 2^(64 n + 1): n + 1 limbs, minus m if not below it */
    quill_limb *v = ws->limbs[0], *d = ws->limbs[1], *m = ws->limbs[2];
    d52_to_limbs(v, n + 1, ws->acc.d, 1, L);
    memcpy(m, mont->m, n * sizeof(quill_limb));
    quill_limb borrow = quill_bn_sub(d, v, m, n + 1);
    quill_bn_select(r, (quill_word)0 - borrow, v, d, n);
    quill_zeroize(ws, sizeof(*ws));
    quill_free(ws);
    return 1;
}

#else /* no IFMA code in this build */

int quill_mont_exp_x1_ifma_capable(size_t n) {
    (void)n;
    return 0;
}

int quill_mont_exp_vartime_x1_ifma(quill_limb *r, const quill_limb *a, const quill_limb *e,
                                   size_t e_limbs, const quill_mont *mont) {
    (void)r, (void)a, (void)e, (void)e_limbs, (void)mont;
    return 0;
}

#endif
