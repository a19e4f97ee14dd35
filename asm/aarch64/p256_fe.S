/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 field multiplication and squaring in the Montgomery domain for
 * ARMv8.0-A (MUL/UMULH, ADDS/ADCS chains).  C prototypes
 * (core/ec/p256_arm64.h):
 *
 *   void quill_p256_fe_mul_arm64(uint64_t out[4], const uint64_t a[4],
 *                                const uint64_t b[4]);
 *   void quill_p256_fe_sqr_arm64(uint64_t out[4], const uint64_t a[4]);
 *
 * out = a b 2^-256 mod p (resp. a^2 2^-256 mod p),
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1.  In: a, b < p (four 64-bit words,
 * little-endian).  Out: fully reduced (< p), bit-identical to the portable
 * twins quill_p256_fe_mul_inline / _sqr_inline (core/ec/p256_fe_inline.h).
 * out may alias a or b: it is written only at the end.
 *
 * Secrets: a and b may be secret (private scalars' multiples, nonces'
 * points); out, a and b are addresses (public).  Constant time: the code is
 * straight-line (no branch at all), the only memory accesses are the loads
 * of a and b and the store of out at fixed offsets from the argument
 * pointers, and the final conditional subtraction selects with CSEL on the
 * borrow of a subtraction.  Every instruction used (LDP/STP, MUL, UMULH,
 * ADDS/ADCS/ADC, SUBS/SBCS/SBC, LSL/LSR, shifted-register ADDS/SUBS, MOV,
 * NEG, CSEL) is in the list of Arm's data-independent-timing extension
 * (FEAT_DIT); like OpenSSL's kernels, this code does not set PSTATE.DIT
 * itself.
 *
 * Calling convention: AAPCS64, x0 = out, x1 = a, x2 = b.  Uses only the
 * caller-saved x1-x17 (x18, the platform register, is not touched) and the
 * flags; no stack, no calls; leaf, so x30 stays put.
 *
 * Reduction (the special form of p): -p^-1 = 1 mod 2^64 because
 * p0 = 2^64 - 1, so the Montgomery factor of a step is m = t0 itself.
 * Adding m p clears word 0: t0 + m p0 = m 2^64, whose carry m plus
 * m p1 = m (2^32 - 1) at word 1 is m 2^32, i.e. (m << 32) at word 1 and
 * (m >> 32) at word 2; p2 = 0; and m p3 with p3 = 2^64 - 2^32 + 1 is
 * m 2^64 - m 2^32 + m = (m - (m >> 32)) 2^64 + (m - (m << 32)), two words
 * from one SUBS and one SBC (the borrow of the low word taken from the
 * high; the high word never underflows since m p3 >= 0).  So a step costs
 * two shifts, SUBS/SBC and an ADDS/ADCS chain: no multiplication.
 *
 * Multiplication: word-by-word (operand scanning), one row a b_i added to
 * a five-word accumulator, then one reduction step and the word dropped
 * (each reduction's ADCS chain interleaved with the next row's MULs);
 * after every row the accumulator is < 2p (the invariant of
 * p256_fe_inline.h), so its fifth word is 0 or 1.
 * Squaring: the six cross products once, doubled, the four squares added
 * (the 512-bit square), then four reduction steps on the low half alone
 * (result <= p) and the high half added (< 2p), as in the C twin.
 * Both end with one conditional subtraction of p. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

#include "p256_fe_macros.inc"

/* The field multiplication: FE_MUL with x0 = out, x1 = a, x2 = b. */
        .globl  quill_p256_fe_mul_arm64
        .type   quill_p256_fe_mul_arm64, %function
        .p2align 5
quill_p256_fe_mul_arm64:
        .cfi_startproc
        FE_MUL  x0, 0, x1, 0, x2, 0
        ret
        .cfi_endproc
        .size   quill_p256_fe_mul_arm64, .-quill_p256_fe_mul_arm64

/* The field squaring: FE_SQR with x0 = out, x1 = a. */
        .globl  quill_p256_fe_sqr_arm64
        .type   quill_p256_fe_sqr_arm64, %function
        .p2align 5
quill_p256_fe_sqr_arm64:
        .cfi_startproc
        FE_SQR  x0, 0, x1, 0
        ret
        .cfi_endproc
        .size   quill_p256_fe_sqr_arm64, .-quill_p256_fe_sqr_arm64

#endif

        .section .note.GNU-stack, "", %progbits
