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

/* Reduction step of the multiplication on (t0, t1, t2, t3, t4), m = t0:
 * adds m p, so that (t1, t2, t3, t4) + carry 2^256 = (t + m p) / 2^64, and
 * leaves the carry in the flags (the caller's ADC takes it).  With
 * shifted = 1, m << 32 is a shifted operand instead of an LSL into u: one
 * instruction fewer, but shifted-operand instructions go to the
 * multi-cycle pipeline on Neoverse N1, which MUL and UMULH keep busy, so
 * the multiplication shifts on every other step only (llvm-mca, measured
 * before the interleaving of MUL_ROUND, Neoverse
 * N1: 43.4 cycles per call against 44.4 with no step shifted and 42.4 with
 * all four but one more cycle of latency; Apple M1: 40.2 against 41.2 and
 * 40.7).  v, lo, hi (and u) are scratch.  The ADCS chain is split by the
 * caller to interleave the next row's products. */
.macro  RED_PREP t0, t1, u, v, lo, hi, shifted
.if \shifted
        subs    \lo, \t0, \t0, lsl #32     /* lo(m p3) = m - (m << 32) */
        lsr     \v, \t0, #32
        sbc     \hi, \t0, \v               /* hi(m p3) = m - (m >> 32) - borrow */
        adds    \t1, \t1, \t0, lsl #32
.else
        lsl     \u, \t0, #32
        lsr     \v, \t0, #32
        subs    \lo, \t0, \u
        sbc     \hi, \t0, \v
        adds    \t1, \t1, \u
.endif
.endm

/* One round of the multiplication, in the frame (t0..t5), t6 the word
 * above: the reduction step with m = t0 (its ADCS chain interleaved with
 * the MULs of the next row), then (t1..t6) += a b: low product words into
 * t1..t4 (UMULHs interleaved), high words into t2..t5, the carry into t6
 * (a fresh word; t0's register may be reused for it).  t5 is the carry
 * word of the previous round (fresh = 0) or not yet written (fresh = 1).
 * Scheduled for in-order dispatch: the products are issued as soon as
 * their scratch register is free (llvm-mca, Neoverse N1: 42.4 cycles per
 * call and 59 for one call, against 43.4 and 61 with each row's
 * multiplications, additions and reduction in sequence). */
.macro  MUL_ROUND t0, t1, t2, t3, t4, t5, t6, a0, a1, a2, a3, b, u, v, lo, hi, fresh, shifted
        RED_PREP \t0, \t1, \u, \v, \lo, \hi, \shifted
        adcs    \t2, \t2, \v
        mul     \u, \a0, \b
        adcs    \t3, \t3, \lo
        mul     \v, \a1, \b
        adcs    \t4, \t4, \hi
        mul     \lo, \a2, \b
.if \fresh
        adc     \t5, xzr, xzr
.else
        adc     \t5, \t5, xzr
.endif
        mul     \hi, \a3, \b
        adds    \t1, \t1, \u
        adcs    \t2, \t2, \v
        umulh   \u, \a0, \b
        adcs    \t3, \t3, \lo
        umulh   \v, \a1, \b
        adcs    \t4, \t4, \hi
        umulh   \lo, \a2, \b
        umulh   \hi, \a3, \b
        adc     \t5, \t5, xzr
        adds    \t2, \t2, \u
        adcs    \t3, \t3, \v
        adcs    \t4, \t4, \lo
        adcs    \t5, \t5, \hi
        adc     \t6, xzr, xzr
.endm

/* out[0..3] = t - p if t = (t0..t4) >= p, else t (t < 2p).  d0..d3, p1,
 * p3 scratch. */
.macro  FINAL_SUB out, t0, t1, t2, t3, t4, d0, d1, d2, d3, p1, p3
        mov     \p1, #0xffffffff            /* p1 = 2^32 - 1 */
        neg     \p3, \p1                    /* p3 = 2^64 - 2^32 + 1 = -p1 */
        adds    \d0, \t0, #1                /* t0 - p0 = t0 + 1 - 2^64: the
                                               carry is the no-borrow flag */
        sbcs    \d1, \t1, \p1
        sbcs    \d2, \t2, xzr               /* p2 = 0 */
        sbcs    \d3, \t3, \p3
        sbcs    xzr, \t4, xzr
        /* C set: no borrow, t >= p: take the difference. */
        csel    \t0, \d0, \t0, cs
        csel    \t1, \d1, \t1, cs
        csel    \t2, \d2, \t2, cs
        csel    \t3, \d3, \t3, cs
        stp     \t0, \t1, [\out]
        stp     \t2, \t3, [\out, #16]
.endm

/* Registers (mul): x3-x6 = a0..a3; x7, x8, x1, x2 = b0..b3 (x1, x2 reused
 * once the pointers are read); x9-x14 = the accumulator words, renamed from
 * row to row; x15-x17 and each b_i once used = scratch. */
        .globl  quill_p256_fe_mul_arm64
        .type   quill_p256_fe_mul_arm64, %function
        .p2align 5
quill_p256_fe_mul_arm64:
        .cfi_startproc
        ldp     x3, x4, [x1]
        ldp     x7, x8, [x2]
        ldp     x5, x6, [x1, #16]
        /* Row 0: (x9..x13) = a b0. */
        umulh   x15, x3, x7
        mul     x10, x4, x7
        umulh   x16, x4, x7
        mul     x11, x5, x7
        umulh   x17, x5, x7
        mul     x12, x6, x7
        umulh   x13, x6, x7
        mul     x9, x3, x7
        ldp     x1, x2, [x2, #16]
        adds    x10, x10, x15
        adcs    x11, x11, x16
        adcs    x12, x12, x17
        adc     x13, x13, xzr
        /* Reduction 0 and row 1 (b1 = x8): accumulator (x10..x14, x9). */
        MUL_ROUND x9, x10, x11, x12, x13, x14, x9, x3, x4, x5, x6, x8, x15, x16, x17, x7, 1, 0
        /* Reduction 1 and row 2 (b2 = x1): (x11, x12, x13, x14, x9, x10). */
        MUL_ROUND x10, x11, x12, x13, x14, x9, x10, x3, x4, x5, x6, x1, x15, x16, x17, x7, 0, 1
        /* Reduction 2 and row 3 (b3 = x2): (x12, x13, x14, x9, x10, x11). */
        MUL_ROUND x11, x12, x13, x14, x9, x10, x11, x3, x4, x5, x6, x2, x15, x16, x17, x7, 0, 0
        /* Reduction 3: (x13, x14, x9, x10, x11) < 2p. */
        RED_PREP x12, x13, x15, x16, x17, x7, 1
        adcs    x14, x14, x16
        adcs    x9, x9, x17
        adcs    x10, x10, x7
        adc     x11, x11, xzr
        FINAL_SUB x0, x13, x14, x9, x10, x11, x15, x16, x17, x7, x8, x1
        ret
        .cfi_endproc
        .size   quill_p256_fe_mul_arm64, .-quill_p256_fe_mul_arm64

/* One reduction step on the low half alone: (t1, t2, t3, top) =
 * (t0..t3 + m p) / 2^64 with m = t0, top = hi + carry (hi <= p3 - 1, no
 * overflow).  m << 32 as a shifted operand on every step: the squaring has
 * fewer multiplications to share Neoverse N1's multi-cycle pipeline with
 * (llvm-mca: 35.2 cycles against 40.2 with LSL, Apple M1 33.2 against
 * 34.2). */
.macro  REDC_LOW t0, t1, t2, t3, top, v, lo, hi
        lsr     \v, \t0, #32
        subs    \lo, \t0, \t0, lsl #32
        sbc     \hi, \t0, \v
        adds    \t1, \t1, \t0, lsl #32
        adcs    \t2, \t2, \v
        adcs    \t3, \t3, \lo
        adc     \top, \hi, xzr
.endm

/* Registers (sqr): x2-x5 = a0..a3; x6-x13 = the square's words t0..t7;
 * x1, x14-x17 and a_i after their last use = scratch. */
        .globl  quill_p256_fe_sqr_arm64
        .type   quill_p256_fe_sqr_arm64, %function
        .p2align 5
quill_p256_fe_sqr_arm64:
        .cfi_startproc
        ldp     x2, x3, [x1]
        ldp     x4, x5, [x1, #16]
        /* Cross products a_i a_j (i < j) into t1..t6 (x7..x12). */
        mul     x7, x2, x3                  /* t1 = lo(a0 a1) */
        umulh   x8, x2, x3                  /* t2 = hi(a0 a1) */
        mul     x14, x2, x4                 /* lo(a0 a2) */
        umulh   x15, x2, x4                 /* hi(a0 a2) */
        mul     x16, x2, x5                 /* lo(a0 a3) */
        umulh   x17, x2, x5                 /* hi(a0 a3) */
        mul     x1, x3, x5                  /* lo(a1 a3) */
        umulh   x11, x3, x5                 /* hi(a1 a3) */
        mul     x13, x4, x5                 /* lo(a2 a3) */
        umulh   x12, x4, x5                 /* hi(a2 a3) */
        adds    x8, x8, x14
        adcs    x9, x15, x16
        adcs    x10, x17, x1
        adcs    x11, x11, x13
        adc     x12, x12, xzr
        mul     x14, x3, x4                 /* lo(a1 a2) */
        umulh   x15, x3, x4                 /* hi(a1 a2) */
        adds    x9, x9, x14
        adcs    x10, x10, x15
        adcs    x11, x11, xzr
        adc     x12, x12, xzr
        /* Double (carry into t7 = x13), then add the squares. */
        adds    x7, x7, x7
        adcs    x8, x8, x8
        adcs    x9, x9, x9
        adcs    x10, x10, x10
        adcs    x11, x11, x11
        adcs    x12, x12, x12
        adc     x13, xzr, xzr
        mul     x6, x2, x2                  /* t0 = lo(a0^2) */
        umulh   x14, x2, x2
        mul     x15, x3, x3
        umulh   x16, x3, x3
        mul     x17, x4, x4
        umulh   x1, x4, x4
        mul     x2, x5, x5
        umulh   x3, x5, x5
        adds    x7, x7, x14
        adcs    x8, x8, x15
        adcs    x9, x9, x16
        adcs    x10, x10, x17
        adcs    x11, x11, x1
        adcs    x12, x12, x2
        adc     x13, x13, x3
        /* Reduce the low half (x6..x9): the window rotates to (x6..x9)
         * again after four steps. */
        REDC_LOW x6, x7, x8, x9, x6, x15, x16, x17
        REDC_LOW x7, x8, x9, x6, x7, x15, x16, x17
        REDC_LOW x8, x9, x6, x7, x8, x15, x16, x17
        REDC_LOW x9, x6, x7, x8, x9, x15, x16, x17
        /* Add the high half (x10..x13): < 2p. */
        adds    x6, x6, x10
        adcs    x7, x7, x11
        adcs    x8, x8, x12
        adcs    x9, x9, x13
        adc     x10, xzr, xzr
        FINAL_SUB x0, x6, x7, x8, x9, x10, x14, x15, x16, x17, x1, x2
        ret
        .cfi_endproc
        .size   quill_p256_fe_sqr_arm64, .-quill_p256_fe_sqr_arm64

#endif

        .section .note.GNU-stack, "", %progbits
