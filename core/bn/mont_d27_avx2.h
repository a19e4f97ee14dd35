/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * One-lane Montgomery squaring in radix 2^27 with AVX2 VPMULUDQ for public
 * 2048-, 3072- and 4096-bit operands (RSA verification at the AVX2 level;
 * issue 24, docs/limits.md "A one-lane radix-2^27 AVX2 squaring for
 * verification" and "... at 3072 and 4096 bits").  Internal to core/bn:
 * quill_mont_exp_public runs the squarings of e = 2^k + 1 here for 32-,
 * 48- and 64-limb public moduli once the context has the d27 form
 * (quill_mont_new_public with AVX2, built on the context's second use).
 *
 * The d27 form of an n-limb modulus: D = quill_d27_digits(n) digits of 27
 * bits (76, 116, 152: four per vector, 27 D >= 64 n + 4), x = sum x_k
 * 2^(27k), x_k below 2^28 + 2^10 (not carried exactly); Montgomery's R' is
 * 2^(27 D) = 2^s R with R = 2^(64 n) of quill_mont and s = 27 D - 64 n
 * (4, 60, 8). */
#ifndef QUILL_BN_MONT_D27_AVX2_H
#define QUILL_BN_MONT_D27_AVX2_H

#include <stddef.h>
#include <stdint.h>

#include "bn/internal.h"

#if !defined(QUILL_NO_ASM) && defined(__x86_64__)
#define QUILL_BN_HAVE_D27 1
#else
#define QUILL_BN_HAVE_D27 0
#endif

/* The largest digit count (4096 bits), for callers' stack arrays. */
#define QUILL_D27_MAX_DIGITS 152

/* quill_d27_digits: D for a modulus of n limbs (32, 48 or 64), else 0. */
static inline size_t quill_d27_digits(size_t n) {
    return n == 32 ? 76 : n == 48 ? 116 : n == 64 ? 152 : 0;
}

/* Words of one reversed operand: 16 zeros, D digits, 20 zeros. */
static inline size_t quill_d27_rw(size_t digits) {
    return digits + 36;
}

/* quill_d27_mod: the form of a public modulus m of n limbs (an RSA
 * modulus), quill_d27_mod_bytes(n) bytes, 32-byte aligned.  After the
 * header, w holds m and N' = -m^-1 mod R' reversed (brev[16 + D - 1 - j] =
 * digit j, zeros around), each in four shifted copies (copy o at o RW holds
 * brev shifted down by o words) so that the kernel's loads are aligned
 * (quill_d27_mrev, quill_d27_nprev); then R' R mod m = 2^s R^2 mod m, n
 * limbs (quill_d27_rr): a product by it takes a into the d27 domain, a R'.
 * rr is filled by the context (mont.c), not by quill_d27_mod_init. */
typedef struct __attribute__((aligned(32))) quill_d27_mod {
    uint32_t n, digits, rw, shift; /* n limbs, D digits, RW words, s bits */
    uint64_t pad[2];
    uint64_t w[] __attribute__((aligned(32)));
} quill_d27_mod;

static inline uint64_t *quill_d27_mrev(const quill_d27_mod *md) {
    return (uint64_t *)md->w;
}
static inline uint64_t *quill_d27_nprev(const quill_d27_mod *md) {
    return (uint64_t *)md->w + 4 * md->rw;
}
static inline quill_limb *quill_d27_rr(const quill_d27_mod *md) {
    return (quill_limb *)((uint64_t *)md->w + 8 * md->rw);
}

/* quill_d27_mod_bytes: the size of the form for n limbs (0 if n has none). */
static inline size_t quill_d27_mod_bytes(size_t n) {
    size_t d = quill_d27_digits(n);
    return d == 0 ? 0 : sizeof(quill_d27_mod) + (8 * quill_d27_rw(d) + n) * sizeof(uint64_t);
}

/* The states of a context's d27 form (quill_mont.d27_state). */
enum { QUILL_D27_UNUSED, QUILL_D27_USED_ONCE, QUILL_D27_BUILDING, QUILL_D27_READY };

/* quill_mont_d27_use: the d27 form of a public context for one
 * exponentiation, or NULL (no form for this context, or not built yet: the
 * caller takes the MULX path).  Counts the use; the context's second use
 * builds the form (mont.c says why).  Thread-safe. */
const quill_d27_mod *quill_mont_d27_use(const quill_mont *mont);

/* quill_d27_mod_init fills md (quill_d27_mod_bytes(n) bytes) for an odd m
 * of n limbs (32, 48 or 64), all but rr.  Variable time (public m). */
void quill_d27_mod_init(quill_d27_mod *md, const quill_limb *m, size_t n);

/* quill_d27_from_limbs: x (digits words) = a (n limbs, a < 2^(27 digits))
 * in the d27 form, digits exact. */
void quill_d27_from_limbs(uint64_t *x, size_t digits, const quill_limb *a, size_t n);

/* quill_d27_to_limbs: r (ceil(27 digits / 64) limbs) = the value of x
 * (below 2^(27 digits)). */
void quill_d27_to_limbs(quill_limb *r, const uint64_t *x, size_t digits);

/* quill_d27_rev: rev (4 quill_d27_rw(digits) words, 32-byte aligned) =
 * the digits d reversed between zeros in four shifted copies, the
 * multiplicand form of quill_mont_mul_d27_avx2_public (as quill_d27_mrev
 * holds m). */
void quill_d27_rev(uint64_t *rev, const uint64_t *d, size_t digits);

#if QUILL_BN_HAVE_D27
/* quill_mont_mul_d27_avx2_public: r = x b R'^-1 mod m up to multiples of m,
 * b given by quill_d27_rev of its digits (each below 2^27), x digits below
 * 2^28 + 2^10 and x < 2^(64 n + 3): r < x b / R' + 2.0001 m (for b < m,
 * below 2.51 m, and below 2.38 m for x < 6.01 2^(64 n), the squaring's
 * outputs); r may alias x; r and x 32-byte aligned.  Public operands
 * only (the scratch is not wiped).  Requires AVX2. */
void quill_mont_mul_d27_avx2_public(uint64_t *r, const uint64_t *x, const uint64_t *brev,
                                    const quill_d27_mod *md);

/* quill_mont_sqr_d27_avx2_public: r = a^2 R'^-1 mod m up to multiples of m
 * (almost Montgomery: r < 6.01 2^(64 n) < 2^(64 n + 3) for any
 * a < 2^(64 n + 3)), r may alias a; r and a (D words) 32-byte aligned.
 * Variable time only in nothing that depends on the data (fixed loops),
 * but the stack scratch is not wiped: public operands only.  Requires
 * AVX2. */
void quill_mont_sqr_d27_avx2_public(uint64_t *r, const uint64_t *a, const quill_d27_mod *md);
#endif

#endif
