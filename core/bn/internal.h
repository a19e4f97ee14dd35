/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Private helpers of core/bn: the portable word-level routines (suffix _c,
 * always built; native versions are dispatched to from the public names),
 * the Montgomery context layout and the per-size kernels. */
#ifndef QUILL_BN_INTERNAL_H
#define QUILL_BN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bn/bn.h"

typedef unsigned __int128 quill_dlimb;

/* quill_bn_add_c / quill_bn_sub_c: portable bodies of quill_bn_add and
 * quill_bn_sub (same contracts). */
quill_limb quill_bn_add_c(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);
quill_limb quill_bn_sub_c(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);

/* The x86-64 twins (asm/x86_64/bn_add.S), used when
 * quill_bn_addsub_x86_64_capable() (QUILL_CPU_X86_64, not masked). */
#if !defined(QUILL_NO_ASM) && defined(__x86_64__) && defined(__ELF__)
#define QUILL_BN_HAVE_X86_64 1
quill_limb quill_bn_add_x86_64(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);
quill_limb quill_bn_sub_x86_64(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);
#else
#define QUILL_BN_HAVE_X86_64 0
#endif
int quill_bn_addsub_x86_64_capable(void);

/* The aarch64 twins (asm/aarch64/bn_add.S, ADCS/SBCS chains), used when
 * quill_bn_addsub_arm64_capable() (QUILL_CPU_ARM64, not masked). */
#if !defined(QUILL_NO_ASM) && defined(__aarch64__) && defined(__ELF__)
#define QUILL_BN_HAVE_ARM64 1
quill_limb quill_bn_add_arm64(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);
quill_limb quill_bn_sub_arm64(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);
#else
#define QUILL_BN_HAVE_ARM64 0
#endif
int quill_bn_addsub_arm64_capable(void);

/* quill_bn_mul_add_word_c: r[0..n) += a[0..n) * w; returns the carry word.
 * Constant time. */
quill_limb quill_bn_mul_add_word_c(quill_limb *r, const quill_limb *a, size_t n, quill_limb w);

/* quill_bn_mul_c: portable body of quill_bn_mul. */
void quill_bn_mul_c(quill_limb *r, const quill_limb *a, size_t na, const quill_limb *b,
                    size_t nb);

/* A Montgomery kernel: r = a * b * R^-1 mod m (inputs < m, r may alias). */
typedef void (*quill_mont_mul_fn)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                  const quill_limb *m, quill_limb n0, size_t n);
/* A Montgomery squaring kernel: r = a^2 * R^-1 mod m. */
typedef void (*quill_mont_sqr_fn)(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                  quill_limb n0, size_t n);

/* A two-way Montgomery kernel: r[l] = a[l] * b[l] * R^-1 mod m[l] for the
 * lanes l = 0, 1 (moduli of the same n limbs, n0[l] = -m[l]^-1 mod 2^64).
 * r[l] may alias a[l] or b[l]; the lanes must not share memory. */
typedef void (*quill_mont_mul_x2_fn)(quill_limb *const r[2], const quill_limb *const a[2],
                                     const quill_limb *const b[2], const quill_limb *const m[2],
                                     const quill_limb n0[2], size_t n);
/* A two-way Montgomery squaring kernel: r[l] = a[l]^2 * R^-1 mod m[l]. */
typedef void (*quill_mont_sqr_x2_fn)(quill_limb *const r[2], const quill_limb *const a[2],
                                     const quill_limb *const m[2], const quill_limb n0[2],
                                     size_t n);

struct quill_mont {
    size_t n;              /* limbs of m (public) */
    quill_limb n0;         /* -m^-1 mod 2^64 */
    quill_mont_mul_fn mul; /* kernel chosen for n at creation */
    quill_mont_sqr_fn sqr;
    /* sqr_public: r = a^2 R^-1 mod m up to one multiple of m, r < R, for
     * any a < R; variable time, public operands only
     * (quill_mont_exp_public).  The ADX almost-Montgomery kernel where one
     * exists for n, else sqr itself (whose one conditional subtraction
     * keeps r < R for a < R as well). */
    quill_mont_sqr_fn sqr_public;
    quill_mont_mul_x2_fn mul_x2; /* two-way kernels for n */
    quill_mont_sqr_x2_fn sqr_x2;
    /* d27: space for the radix-2^27 form of a public 32-, 48- or 64-limb
     * m (mont_d27_avx2.h) for quill_mont_exp_public at the AVX2 level, else
     * NULL; d27_state (QUILL_D27_*, atomic) says whether it is built yet:
     * quill_mont_d27_use builds it on the context's second use. */
    struct quill_d27_mod *d27;
    int d27_state;
    /* rr52: space for R'^2 mod m in radix 2^52 as the IFMA exponentiations
     * derive it (exp_ifma.h; L = ceil(64 n / 52) digits), for the sizes
     * they handle, else NULL; rr52_state (QUILL_RR52_*, atomic) says
     * whether the first of them has filled it yet (quill_mont_rr52_get,
     * quill_mont_rr52_put). */
    uint64_t *rr52;
    int rr52_state;
    quill_limb *m;  /* the modulus, n limbs */
    quill_limb *rr; /* R^2 mod m, n limbs */
    quill_limb *one; /* R mod m (1 in the Montgomery domain), n limbs */
    size_t alloc_len; /* bytes allocated for the whole context */
};

/* The IFMA exponentiations' R'^2 mod m, kept in the context once one of
 * them has computed it (R' = 2^(52 L), L = ceil(64 n / 52); the value as
 * amm(amm(R^2, R^2), 2^c) gives it: L digits below 2^52, below 2m).
 * quill_mont_rr52_get returns the L digits, or NULL until they are there
 * (and for sizes without IFMA code).  quill_mont_rr52_put stores the L
 * digits d[0], d[stride], ... unless they are there or another thread is
 * storing them; with the d27 form these are the only writes to a context
 * after it is made (an atomic state, then a release store).  The state is
 * public; the digits are as secret as m and are wiped with the context. */
enum { QUILL_RR52_EMPTY, QUILL_RR52_BUILDING, QUILL_RR52_READY };
const uint64_t *quill_mont_rr52_get(const quill_mont *mont);
void quill_mont_rr52_put(const quill_mont *mont, const uint64_t *d, size_t stride);

/* quill_mont_redc_c: r (n limbs) = t * R^-1 mod m for t of 2n limbs with
 * t < m * R.  t is overwritten (it is scratch).  Constant time. */
void quill_mont_redc_c(quill_limb *r, quill_limb *t, const quill_limb *m, quill_limb n0,
                       size_t n);

/* quill_mont_kernels picks the multiplication and squaring kernels for n. */
void quill_mont_kernels(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr);

/* quill_mont_kernel_sqr_public picks the squaring of public operands for n
 * (quill_mont's sqr_public): a native variable-time kernel where one
 * exists, else |sqr| (the constant-time kernel chosen for n). */
quill_mont_sqr_fn quill_mont_kernel_sqr_public(size_t n, quill_mont_sqr_fn sqr);

/* quill_mont_kernels_c picks the portable kernels for n (what
 * quill_mont_kernels returns without native code; defined in
 * mont_kernels.c).  The oracle of the native kernels' tests. */
void quill_mont_kernels_c(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr);

/* quill_mont_kernels_x2 picks the two-way kernels for n. */
void quill_mont_kernels_x2(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr);

/* quill_bn_inv64 returns m0^-1 mod 2^64 for odd m0 by Newton's iteration
 * x <- x (2 - m0 x), which doubles the number of correct low bits: x = m0
 * is correct to 3 bits (m0^2 = 1 mod 8), so five steps give 96 >= 64.
 * Constant time. */
static inline quill_limb quill_bn_inv64(quill_limb m0) {
    quill_limb x = m0;
    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return x;
}

/* quill_bn_bits returns bits [pos, pos + w) of a (n limbs), 0 < w < 64;
 * positions beyond the top read as zero.  pos and w are public, the value
 * need not be: no branch on it.  The exponentiations' windows and the
 * conversions into the digit forms (radix 2^27, 2^28, 2^52, 2^62). */
static inline quill_limb quill_bn_bits(const quill_limb *a, size_t n, size_t pos, unsigned w) {
    size_t word = pos / 64, shift = pos % 64;
    quill_limb v = 0;
    if (word < n)
        v = a[word] >> shift;
    if (shift + w > 64 && word + 1 < n)
        v |= a[word + 1] << (64 - shift);
    return v & (((quill_limb)1 << w) - 1);
}

/* quill_exp_consttime_window is the fixed window width for a secret
 * exponent of |bits| bits (public); every constant-time backend uses it. */
static inline unsigned quill_exp_consttime_window(size_t bits) {
    if (bits > 768)
        return 5;
    if (bits > 160)
        return 4;
    if (bits > 24)
        return 3;
    return 1;
}

#endif
