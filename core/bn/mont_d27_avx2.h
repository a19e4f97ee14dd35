/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * One-lane 2048-bit Montgomery squaring in radix 2^27 with AVX2 VPMULUDQ
 * for public operands (RSA verification at the AVX2 level; issue 24,
 * docs/limits.md "A one-lane radix-2^27 AVX2 squaring for verification":
 * 0.91x the time of quill_mont_sqr_adx_public_32).  Internal to core/bn:
 * quill_mont_exp_public runs the squarings of e = 2^k + 1 here for
 * 32-limb public moduli once the context has the d27 form
 * (quill_mont_new_public with AVX2, built on the context's second use).
 *
 * The d27 form: 76 digits of 27 bits, x = sum x_k 2^(27k), x_k below
 * 2^28 + 2^10 (not carried exactly), 19 vectors of four; Montgomery's R'
 * is 2^2052, not the 2^2048 of quill_mont. */
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

#define QUILL_D27_DIGITS 76
#define QUILL_D27_RW 112 /* words of a reversed operand: 16 zeros, 76 digits, 20 zeros */

/* quill_d27_mod: m and N' = -m^-1 mod R' reversed (brev[16 + 75 - j] =
 * digit j, zeros around), each in four shifted copies (copy o at o RW holds
 * brev shifted down by o words) so that the kernel's loads are aligned.
 * Public (an RSA modulus). */
typedef struct __attribute__((aligned(32))) quill_d27_mod {
    uint64_t mrev[4 * QUILL_D27_RW];
    uint64_t nprev[4 * QUILL_D27_RW];
    /* R' R mod m = 16 R^2 mod m (quill_mont's R = 2^2048): a product by it
     * takes a into the d27 domain, a R'.  Filled by the context
     * (mont.c), not by quill_d27_mod_init. */
    quill_limb rr16[32];
} quill_d27_mod;

/* The states of a context's d27 form (quill_mont.d27_state). */
enum { QUILL_D27_UNUSED, QUILL_D27_USED_ONCE, QUILL_D27_BUILDING, QUILL_D27_READY };

/* quill_mont_d27_use: the d27 form of a public 32-limb context for one
 * exponentiation, or NULL (no form for this context, or not built yet: the
 * caller takes the MULX path).  Counts the use; the context's second use
 * builds the form (mont.c says why).  Thread-safe. */
const quill_d27_mod *quill_mont_d27_use(const quill_mont *mont);

/* quill_d27_mod_init fills md for an odd m of 32 limbs.  Variable time
 * (public m). */
void quill_d27_mod_init(quill_d27_mod *md, const quill_limb m[32]);

/* quill_d27_from_limbs: x = a (n <= 33 limbs, a < 2^2052) in the d27 form,
 * digits exact. */
void quill_d27_from_limbs(uint64_t x[QUILL_D27_DIGITS], const quill_limb *a, size_t n);

/* quill_d27_to_limbs: r (33 limbs) = the value of x (below 2^2052). */
void quill_d27_to_limbs(quill_limb r[33], const uint64_t x[QUILL_D27_DIGITS]);

#if QUILL_BN_HAVE_D27
/* quill_mont_sqr_d27_avx2_public: r = a^2 R'^-1 mod m up to multiples of m
 * (almost Montgomery: r < 0.76 2^2051 for any a < 2^2051), r may alias a;
 * r and a 32-byte aligned.  Variable time only in nothing that depends on
 * the data (fixed loops), but the stack scratch is not wiped: public
 * operands only.  Requires AVX2. */
void quill_mont_sqr_d27_avx2_public(uint64_t *r, const uint64_t *a, const quill_d27_mod *md);
#endif

#endif
