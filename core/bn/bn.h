/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Fixed-width bignums for RSA: little-endian arrays of 64-bit limbs whose
 * length (in limbs) is a public parameter.  No heap-allocated BIGNUM, no
 * BN_CTX: callers own their arrays (a few routines allocate scratch and say
 * so).  Karatsuba is deliberately absent (it does not pay at RSA sizes).
 *
 * Timing contract: unless a name ends in _vartime or _public, a function runs
 * in time that depends only on its length arguments, never on limb values,
 * and reads memory at addresses that depend only on lengths.
 *
 * Lengths: 1 <= n <= QUILL_BN_MAX_LIMBS unless stated.  Outputs may alias
 * inputs only where stated.
 *
 * Native code sits behind the same names: add and sub (portable _c bodies,
 * always built, and x86-64 twins chosen at each call) and the Montgomery
 * kernels (portable, ADX and AVX-512 IFMA, chosen when a context is made or
 * an exponentiation starts), on the CPU bits of core/common/cpu.h.  The
 * schoolbook product quill_bn_mul is portable only. */
#ifndef QUILL_BN_BN_H
#define QUILL_BN_BN_H

#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "common/ct.h"

typedef uint64_t quill_limb;

#define QUILL_LIMB_BITS 64
#define QUILL_BN_MAX_BITS 16384
#define QUILL_BN_MAX_LIMBS (QUILL_BN_MAX_BITS / QUILL_LIMB_BITS)
#define QUILL_BN_LIMBS_FOR_BITS(bits) (((bits) + QUILL_LIMB_BITS - 1) / QUILL_LIMB_BITS)

/* ---- Byte conversion (bytes.c) ---- */

/* quill_bn_from_bytes_be sets r (n limbs) to the big-endian magnitude in
 * |in|.  Leading zero bytes are allowed.  Returns 1, or 0 if the value does
 * not fit in n limbs (r is then zero).  Constant time in the contents;
 * in_len is public. */
QUILL_MUST_CHECK int quill_bn_from_bytes_be(quill_limb *r, size_t n, const uint8_t *in,
                                            size_t in_len);

/* quill_bn_to_bytes_be writes a (n limbs) as exactly out_len big-endian bytes,
 * zero-padded on the left.  Returns 1, or 0 if a does not fit in out_len
 * bytes (out is then zero).  Constant time. */
QUILL_MUST_CHECK int quill_bn_to_bytes_be(uint8_t *out, size_t out_len, const quill_limb *a,
                                          size_t n);

/* ---- Word-level arithmetic (add.c, mul.c) ---- */

/* r = a + b over n limbs; returns the carry (0 or 1).  r may alias a or b. */
quill_limb quill_bn_add(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);

/* r = a - b over n limbs; returns the borrow (0 or 1).  r may alias a or b. */
quill_limb quill_bn_sub(quill_limb *r, const quill_limb *a, const quill_limb *b, size_t n);

/* quill_bn_add_word_consttime: r (n limbs) += c for a secret c in {0, 1};
 * returns the carry out.  Constant time in r and c: written so that
 * compilers cannot turn the carry chain into branches (clang does with the
 * plain is-zero mask). */
quill_limb quill_bn_add_word_consttime(quill_limb *r, size_t n, quill_limb c);

/* r (na + nb limbs) = a (na limbs) * b (nb limbs), schoolbook.  r must not
 * alias a or b. */
void quill_bn_mul(quill_limb *r, const quill_limb *a, size_t na, const quill_limb *b, size_t nb);

/* ---- Comparisons and selection (cmp.c) ---- */

/* All-ones if a < b (n limbs each). */
quill_word quill_bn_lt_mask(const quill_limb *a, const quill_limb *b, size_t n);
/* 1 if a < b (n limbs each), else 0.  Variable time (from the top limb
 * down, stops at the first that differs): public values only. */
int quill_bn_lt_public(const quill_limb *a, const quill_limb *b, size_t n);
/* All-ones if a == 0. */
quill_word quill_bn_is_zero_mask(const quill_limb *a, size_t n);
/* All-ones if a == b. */
quill_word quill_bn_eq_mask(const quill_limb *a, const quill_limb *b, size_t n);
/* r = mask ? a : b, every limb read.  r may alias a or b. */
void quill_bn_select(quill_limb *r, quill_word mask, const quill_limb *a, const quill_limb *b,
                     size_t n);
/* Number of significant bits of a; leaks it (use on public values or where
 * the bit length is public, such as a validated modulus). */
size_t quill_bn_num_bits_public(const quill_limb *a, size_t n);

/* a mod d for a small public divisor 1 < d < 2^16, constant time in a (no
 * hardware division on data: the divisor's reciprocal is used).  For trial
 * division in key generation. */
uint16_t quill_bn_mod_u16(const quill_limb *a, size_t n, uint16_t d);

/* ---- Bit lengths and shifts (bits.c) ---- */

/* quill_bn_limbs_public returns the number of limbs up to the top non-zero
 * one (0 for zero).  Variable time: public values only. */
size_t quill_bn_limbs_public(const quill_limb *a, size_t n);

/* quill_bn_num_bits_consttime returns the bit length of a (0 for zero),
 * computed without a branch or index on a: time depends on n only, and the
 * result is as secret as a (the constant-time twin of
 * quill_bn_num_bits_public). */
size_t quill_bn_num_bits_consttime(const quill_limb *a, size_t n);

/* quill_bn_ctz_consttime returns the number of trailing zero bits of a (64n
 * for zero).  Time depends on n only; the result is as secret as a. */
size_t quill_bn_ctz_consttime(const quill_limb *a, size_t n);

/* quill_bn_rshift_consttime / quill_bn_lshift_consttime: r = a >> s and
 * r = (a << s) mod 2^(64n) for a secret shift s < 2^log2_max (log2_max
 * public, at most 20).  One masked pass per bit of s: time and addresses
 * depend on n and log2_max only.  r may alias a. */
void quill_bn_rshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
                               unsigned log2_max);
void quill_bn_lshift_consttime(quill_limb *r, const quill_limb *a, size_t n, size_t s,
                               unsigned log2_max);

/* ---- Montgomery arithmetic (mont.c) ---- */

/* A Montgomery context for an odd modulus m of n limbs (top limb non-zero),
 * R = 2^(64n).  Immutable after creation: safe to share between threads. */
typedef struct quill_mont quill_mont;

/* quill_mont_new creates the context for m (n limbs).  Returns NULL if m is
 * even, its top limb is zero, m = 1, n is out of range, or memory runs out.
 * Constant time in the value of m (so it may be a secret prime); n, the
 * parity and the top limb being non-zero are public.  The context (which
 * holds m) is zeroised by quill_mont_free. */
QUILL_MUST_CHECK quill_mont *quill_mont_new(const quill_limb *m, size_t n);
/* quill_mont_new_public is quill_mont_new for a public m (an RSA modulus):
 * it may branch on m, and takes R mod m = R - m in one subtraction when m's
 * top bit is set, instead of 64 modular doublings. */
QUILL_MUST_CHECK quill_mont *quill_mont_new_public(const quill_limb *m, size_t n);
void quill_mont_free(quill_mont *mont);

size_t quill_mont_limbs(const quill_mont *mont);
const quill_limb *quill_mont_modulus(const quill_mont *mont);

/* In the following, values "mod m" are n limbs and fully reduced (< m) on
 * input and output.  r may alias any input. */

/* r = a * b * R^-1 mod m. */
void quill_mont_mul(quill_limb *r, const quill_limb *a, const quill_limb *b,
                    const quill_mont *mont);
/* r = a^2 * R^-1 mod m (a dedicated squaring). */
void quill_mont_sqr(quill_limb *r, const quill_limb *a, const quill_mont *mont);
/* quill_mont_mul_x2 computes r0 = a0 * b0 * R^-1 mod m0 and
 * r1 = a1 * b1 * R^-1 mod m1 together, two independent computations
 * interleaved in one kernel (faster than two calls when mont0 and mont1 have
 * the same limb count; otherwise it makes two calls).  r0 may alias a0 or
 * b0 and r1 may alias a1 or b1; lane 0 and lane 1 must not share memory.
 * Constant time. */
void quill_mont_mul_x2(quill_limb *r0, const quill_limb *a0, const quill_limb *b0,
                       const quill_mont *mont0, quill_limb *r1, const quill_limb *a1,
                       const quill_limb *b1, const quill_mont *mont1);
/* quill_mont_sqr_x2: r0 = a0^2 R^-1 mod m0 and r1 = a1^2 R^-1 mod m1 (as
 * quill_mont_mul_x2). */
void quill_mont_sqr_x2(quill_limb *r0, const quill_limb *a0, const quill_mont *mont0,
                       quill_limb *r1, const quill_limb *a1, const quill_mont *mont1);
/* r = a * R mod m (into the Montgomery domain). */
void quill_mont_to(quill_limb *r, const quill_limb *a, const quill_mont *mont);
/* r = a * R^-1 mod m (out of the Montgomery domain). */
void quill_mont_from(quill_limb *r, const quill_limb *a, const quill_mont *mont);

/* r (n limbs) = a mod m for a wide a of na <= 2n limbs with a < m * R.  That
 * holds for every a < N when m is a prime factor of N = m * q and q has at
 * most n limbs (a < m * q < m * R): the CRT reduction of RSA.  Constant time;
 * a is not modified. */
void quill_mont_reduce_wide(quill_limb *r, const quill_limb *a, size_t na,
                            const quill_mont *mont);

/* ---- Division, remainders and gcd (div.c) ---- */

/* quill_bn_divmod_consttime: q = a / m (na limbs, q may be NULL) and
 * r = a mod m (nm limbs) for any m != 0 (secret or public, even or odd), by
 * bit-serial long division: time and addresses depend on na and nm only.
 * Outputs must not alias inputs.  Returns 1, or 0 on allocation failure
 * (outputs zero). */
QUILL_MUST_CHECK int quill_bn_divmod_consttime(quill_limb *q, quill_limb *r, const quill_limb *a,
                                               size_t na, const quill_limb *m, size_t nm);

/* quill_bn_mod_consttime: r = a mod m (m's n limbs) for a of any length na,
 * with m the modulus of |mont|, by Horner's rule over chunks of n limbs
 * (each step one quill_mont_reduce_wide).  Time depends on na and n only;
 * a and m may be secret.  r must not alias a. */
void quill_bn_mod_consttime(quill_limb *r, const quill_limb *a, size_t na,
                            const quill_mont *mont);

/* quill_bn_gcd_consttime: g = gcd(a, b) (n limbs each, both non-zero,
 * secret).  Binary gcd with a fixed iteration count (128 n): time depends
 * on n only.  g may not alias a or b. */
void quill_bn_gcd_consttime(quill_limb *g, const quill_limb *a, const quill_limb *b, size_t n);

/* ---- Exponentiation (exp.c) ---- */

/* r = a^e mod m, a < m in the normal domain, e of e_limbs limbs (secret).
 * Fixed window; every table lookup reads every entry.  Time depends on
 * e_limbs and n only.  Returns 1, or 0 on allocation failure. */
QUILL_MUST_CHECK int quill_mont_exp_consttime(quill_limb *r, const quill_limb *a,
                                              const quill_limb *e, size_t e_limbs,
                                              const quill_mont *mont);

/* quill_mont_exp_consttime_x2 computes r0 = a0^e0 mod m0 and
 * r1 = a1^e1 mod m1 (the two CRT halves of RSA) in lockstep with the
 * two-way kernels: same fixed window for both, every table lookup reads
 * every entry.  e0 and e1 (secret) both have e_limbs limbs (public).  When
 * the moduli differ in limb count it runs quill_mont_exp_consttime twice.
 * Time depends on e_limbs and the limb counts only.  Returns 1, or 0 on
 * allocation failure.  Outputs must not alias each other or the inputs of
 * the other lane. */
QUILL_MUST_CHECK int quill_mont_exp_consttime_x2(quill_limb *r0, const quill_limb *a0,
                                                 const quill_limb *e0, const quill_mont *mont0,
                                                 quill_limb *r1, const quill_limb *a1,
                                                 const quill_limb *e1, const quill_mont *mont1,
                                                 size_t e_limbs);

/* r = a^e mod m for a public exponent e (any value, e.g. an RSA public
 * exponent up to the modulus size).  Variable time in e; a may be secret
 * only in the sense that no table is indexed by it.  Returns 1, or 0 on
 * allocation failure. */
QUILL_MUST_CHECK int quill_mont_exp_vartime(quill_limb *r, const quill_limb *a,
                                            const quill_limb *e, size_t e_limbs,
                                            const quill_mont *mont);

/* quill_mont_exp_public is quill_mont_exp_vartime for a public base a < m
 * as well (RSA verification: a is the signature): its squarings may also
 * take variable time in a (an almost-Montgomery kernel that subtracts m
 * only when the top word is set, quill_mont's sqr_public).  Same result and
 * return value. */
QUILL_MUST_CHECK int quill_mont_exp_public(quill_limb *r, const quill_limb *a,
                                           const quill_limb *e, size_t e_limbs,
                                           const quill_mont *mont);

/* ---- Inversion (inv.c) ---- */

/* r = a^-1 mod m for an odd modulus m (n limbs, public or secret), a < m
 * (n limbs).  Constant time in a and m (the iteration count depends on n
 * only).  Returns all-ones if a was invertible, zero otherwise (r is then
 * zero).  Used for RSA blinding and key generation. */
QUILL_MUST_CHECK quill_word quill_bn_inv_mod_odd_consttime(quill_limb *r, const quill_limb *a,
                                                           const quill_limb *m, size_t n);

#endif
