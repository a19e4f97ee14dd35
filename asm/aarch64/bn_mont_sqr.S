/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Dedicated Montgomery squaring on aarch64 with MUL/UMULH and ADCS chains.
 * C prototype (core/bn/mont_arm64.h):
 *
 *   void quill_mont_sqr_arm64(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *m, quill_limb n0,
 *                             size_t n);
 *
 * r = a^2 R^-1 mod m, R = 2^(64 n), for n a multiple of 4 with
 * 4 <= n <= QUILL_BN_MAX_LIMBS (256); a < m, m odd, n0 = -m^-1 mod 2^64.
 * r may alias a (it is written only at the end); m must not overlap r.
 *
 * Inputs: r, a, m (pointers, public), n (public); the words of a, m and n0
 * may all be secret (a always; m and n0 for the CRT halves of RSA).
 *
 * Algorithm, on a 2n-word T in the stack frame (the words read before anything writes them zeroed first):
 *  1. cross products outside the 4 x 4 diagonal tiles: for each block I
 *     of four words of a, rows 4I .. 4I + 3 (y0..y3 = a_{4I..4I+3}) times
 *     A = a_{4I+4} .. a_{n-1} (L = n - 4I - 4 words) in one four-row pass
 *     over the window T[8I + 4 .. 8I + L + 7] (see PASS4 below: blocks of
 *     four columns whose words stay in registers, row r r words behind).
 *     The window's top four words are fresh, so nothing carries out;
 *  2. T = 2 (T + X) + D, eight columns per block of a: X = the six cross
 *     products inside the block's diagonal tile (X < 2^449), D = its four
 *     squares; three ADCS chains (T + X, doubling as T + T, + D) whose
 *     carries between blocks wait in registers (x26, x27, x28; SUBS from
 *     the register restores C).  T = a^2 < 2^(128 n), nothing carries out;
 *  3. Montgomery reduction four rows per pass, pass i = 0, 4, .. over
 *     T[i .. i + n + 3] with A = m and the multipliers computed in the
 *     first block: u_{i+r} = (column i + r after rows i .. i + r - 1) n0
 *     (mod 2^64); the pass adds m (u_i + 2^64 u_{i+1} + 2^128 u_{i+2} +
 *     2^192 u_{i+3}) and the carry bit x26 of the pass below (into column
 *     i + n), and its own carry out of column i + n + 3 (0 or 1: the window
 *     plus the addend is below 2^(64 (n + 4) + 1)) becomes x26.  Afterwards
 *     T[n .. 2n - 1] + 2^(64 n) x26 = a^2 R^-1 mod m + (0 or m) < 2m;
 *  4. (PASS4_LAST, the last pass of 3) r = T - m block by block as the
 *     last pass makes the columns of T[n .. 2n - 1] final (an SBCS chain
 *     whose borrow waits in x11 between blocks); the top block keeps T and
 *     T - m in registers, CCMP turns the borrow and x26 into one flag
 *     (T < m: keep T), CSEL selects that block and then, from the top
 *     down, the blocks below (flags kept across that loop: SUB and CBNZ
 *     do not touch them), T[n .. 2n - 1] overwritten with zeros on the
 *     way (the reduction leaves T[0 .. n - 1] zero: it stores column i as
 *     T_i + m_0 u_i + .., 0 mod 2^64 by the choice of u_i).
 *
 * Constant time: every loop bound and every address depends only on n, the
 * block and pass indices and the pointers (public); the data enter only
 * MUL, UMULH, ADDS/ADCS/ADC, SUBS/SBCS, CMP, CSET, CCMP and CSEL; no branch tests
 * data.
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = m, x3 = n0, x4 = n.
 * Saves and restores x19-x30; no calls; no SIMD registers.  Stack: 96
 * bytes of saved registers, then a fixed frame of 4176 bytes (64 bytes of
 * spills: r, a, m, n0, n, L, then T[0 .. 2n - 1]); T and n0 may be
 * secret: T is all zero on return (see 4), the n0 spill is cleared.
 * Registers in a pass: x0 = &A[4k] - 8, x2 = &T[w + 4k], x3-x6 = the
 * four rows' multipliers (a words or u), x7-x10 = A_{4k..4k+3}, x12-x14 = A_{4k-3..4k-1}, x15/x16/x17/x19
 * T words, x20-x24 products, x25/x27/x28/x30 the rows' carry words, x26
 * carry bit, x29 blocks left; x1 and x11 hold the pass state (window,
 * &a[4I] or passes left); n, m, n0 and L wait in the frame.  Phase 2 uses
 * x1, x3-x11, x15-x17, x19-x30.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

        .text

#define OFF_R 0
#define OFF_A 8
#define OFF_M 16
#define OFF_N0 24
#define OFF_N 32
#define OFF_L 40
#define OFF_T 64
/* 64 + 8 (2 QUILL_BN_MAX_LIMBS + 2) bytes */
#define STACK_HI 4096
#define STACK_LO 80

/* Four-row passes: T[w .. w + len + 3] += (y0 + 2^64 y1 + 2^128 y2 +
 * 2^192 y3) A[0 .. len - 1] + 2^(64 len) x26, y0..y3 in x3-x6, len a
 * multiple of 4.  Blocks of four columns 4k..4k+3 (words W = x15, x16,
 * x17, x19 loaded from and stored back to &T[w + 4k] = x2): row r adds
 * y_r A_{4k-r .. 4k-r+3} (r words behind, so that all four rows finish the
 * same columns), A_{4k..4k+3} in x7-x10 and A_{4k-3..4k-1} in x12-x14
 * (x0 = &A[4k] - 8); each row's products by two ADCS chains (low words;
 * then its carry word and the high words one column up), its carry word
 * (x25, x27, x28, x30) never overflows (W + y A + c < 2^320).  QFIRST: no
 * A_{-3..-1}, no carry words; QFIRST_RED computes the multipliers as the
 * Montgomery factors u_r = (column r after rows 0..r-1) n0.  QLAST: the
 * columns len..len+3, where only A_{len-3..len-1} remain (A_{len..} = 0),
 * with the carry bit x26 into column len.  Printed by
 * tools/gen_bn_mont_sqr_a64.py (the chains run through the zero words with
 * XZR). */
.macro QFIRST
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        mul     x20, x7, x3
        mul     x21, x8, x3
        mul     x22, x9, x3
        mul     x23, x10, x3
        umulh   x24, x10, x3
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x7, x3
        umulh   x21, x8, x3
        umulh   x22, x9, x3
        adds    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
        adds    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x21, x7, x4
        umulh   x22, x8, x4
        adds    x17, x17, x21
        adcs    x19, x19, x22
        adc     x27, x24, xzr
        mul     x22, x7, x5
        mul     x23, x8, x5
        umulh   x24, x8, x5
        adds    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x22, x7, x5
        adds    x19, x19, x22
        adc     x28, x24, xzr
        mul     x23, x7, x6
        umulh   x24, x7, x6
        adds    x19, x19, x23
        adc     x24, x24, xzr
        mov     x30, x24
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

.macro QFIRST_RED
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        ldr     x6, [sp, #OFF_N0]
        mul     x3, x15, x6
        mul     x20, x7, x3
        mul     x21, x8, x3
        mul     x22, x9, x3
        mul     x23, x10, x3
        umulh   x24, x10, x3
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x7, x3
        umulh   x21, x8, x3
        umulh   x22, x9, x3
        adds    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
        mul     x4, x16, x6
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
        adds    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x21, x7, x4
        umulh   x22, x8, x4
        adds    x17, x17, x21
        adcs    x19, x19, x22
        adc     x27, x24, xzr
        mul     x5, x17, x6
        mul     x22, x7, x5
        mul     x23, x8, x5
        umulh   x24, x8, x5
        adds    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x22, x7, x5
        adds    x19, x19, x22
        adc     x28, x24, xzr
        mul     x6, x19, x6
        mul     x23, x7, x6
        umulh   x24, x7, x6
        adds    x19, x19, x23
        adc     x24, x24, xzr
        mov     x30, x24
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

.macro QMID
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldr     x12, [x0, #-16]
        ldp     x13, x14, [x0, #-8]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        mul     x20, x7, x3
        mul     x21, x8, x3
        mul     x22, x9, x3
        mul     x23, x10, x3
        umulh   x24, x10, x3
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x7, x3
        umulh   x21, x8, x3
        umulh   x22, x9, x3
        adds    x15, x15, x25
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
        mul     x20, x14, x4
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x14, x4
        umulh   x21, x7, x4
        umulh   x22, x8, x4
        adds    x15, x15, x27
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x27, x24, xzr
        mul     x20, x13, x5
        mul     x21, x14, x5
        mul     x22, x7, x5
        mul     x23, x8, x5
        umulh   x24, x8, x5
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x13, x5
        umulh   x21, x14, x5
        umulh   x22, x7, x5
        adds    x15, x15, x28
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x28, x24, xzr
        mul     x20, x12, x6
        mul     x21, x13, x6
        mul     x22, x14, x6
        mul     x23, x7, x6
        umulh   x24, x7, x6
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x12, x6
        umulh   x21, x13, x6
        umulh   x22, x14, x6
        adds    x15, x15, x30
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x30, x24, xzr
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

.macro QLAST
        ldr     x12, [x0, #-16]
        ldp     x13, x14, [x0, #-8]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        subs    xzr, x26, #1
        adcs    x15, x15, x25
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x25, cs
        mul     x20, x14, x4
        adds    x15, x15, x20
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x24, cs
        umulh   x20, x14, x4
        adds    x15, x15, x27
        adcs    x16, x16, x20
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        adc     x27, x24, xzr
        mul     x20, x13, x5
        mul     x21, x14, x5
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x24, cs
        umulh   x20, x13, x5
        umulh   x21, x14, x5
        adds    x15, x15, x28
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, xzr
        adc     x28, x24, xzr
        mul     x20, x12, x6
        mul     x21, x13, x6
        mul     x22, x14, x6
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, xzr
        cset    x24, cs
        umulh   x20, x12, x6
        umulh   x21, x13, x6
        umulh   x22, x14, x6
        adds    x15, x15, x30
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x30, x24, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

/* PASS4 red, len: one four-row pass over T[w ..] (x2 = &T[w], x0 = A - 8);
 * afterwards x26 = the carry out of column w + len + 3 (the sum of the
 * last carry words: 0 or 1 by the bound of the pass). */
/* QFIRST_F, QMID_F: QFIRST and QMID for step 1's first window, whose
 * columns are all zero before it: no loads of T, row 0's low words go
 * straight into the columns (nothing can carry out of them). */
.macro QFIRST_F
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        mul     x15, x7, x3
        mul     x16, x8, x3
        mul     x17, x9, x3
        mul     x19, x10, x3
        umulh   x24, x10, x3
        umulh   x20, x7, x3
        umulh   x21, x8, x3
        umulh   x22, x9, x3
        adds    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
        adds    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x21, x7, x4
        umulh   x22, x8, x4
        adds    x17, x17, x21
        adcs    x19, x19, x22
        adc     x27, x24, xzr
        mul     x22, x7, x5
        mul     x23, x8, x5
        umulh   x24, x8, x5
        adds    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x22, x7, x5
        adds    x19, x19, x22
        adc     x28, x24, xzr
        mul     x23, x7, x6
        umulh   x24, x7, x6
        adds    x19, x19, x23
        adc     x24, x24, xzr
        mov     x30, x24
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

.macro QMID_F
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldr     x12, [x0, #-16]
        ldp     x13, x14, [x0, #-8]
        mul     x15, x7, x3
        mul     x16, x8, x3
        mul     x17, x9, x3
        mul     x19, x10, x3
        umulh   x24, x10, x3
        umulh   x20, x7, x3
        umulh   x21, x8, x3
        umulh   x22, x9, x3
        adds    x15, x15, x25
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
        mul     x20, x14, x4
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x14, x4
        umulh   x21, x7, x4
        umulh   x22, x8, x4
        adds    x15, x15, x27
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x27, x24, xzr
        mul     x20, x13, x5
        mul     x21, x14, x5
        mul     x22, x7, x5
        mul     x23, x8, x5
        umulh   x24, x8, x5
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x13, x5
        umulh   x21, x14, x5
        umulh   x22, x7, x5
        adds    x15, x15, x28
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x28, x24, xzr
        mul     x20, x12, x6
        mul     x21, x13, x6
        mul     x22, x14, x6
        mul     x23, x7, x6
        umulh   x24, x7, x6
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x12, x6
        umulh   x21, x13, x6
        umulh   x22, x14, x6
        adds    x15, x15, x30
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x30, x24, xzr
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

/* QLAST_F: QLAST for the cross products of step 1, whose windows end in
 * four fresh words (zero) and take no carry bit: the columns start as
 * zeros (no loads), and the ADCS chains stop where no carry can go on
 * (column c of the block holds at most c + 1 carries' worth before the
 * rows that reach it).  Nothing carries out of the window (its value is
 * below 2^(64 L) + (2^256 - 1)(2^(64 L) - 1) < 2^(64 (L + 4))), so the
 * carry words end here and x26 stays zero. */
.macro QLAST_F
        ldr     x12, [x0, #-16]
        ldp     x13, x14, [x0, #-8]
        add     x15, x25, #0            /* row 0: its carry word only */
        mul     x20, x14, x4            /* row 1 */
        umulh   x21, x14, x4
        adds    x15, x15, x20
        cset    x16, hs
        adds    x15, x15, x27
        adcs    x16, x16, x21
        cset    x17, hs
        mul     x20, x13, x5            /* row 2 */
        mul     x21, x14, x5
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adc     x17, x17, xzr
        umulh   x20, x13, x5
        umulh   x21, x14, x5
        adds    x15, x15, x28
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        cset    x19, hs
        mul     x20, x12, x6            /* row 3 */
        mul     x21, x13, x6
        mul     x22, x14, x6
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adc     x19, x19, xzr
        umulh   x20, x12, x6
        umulh   x21, x13, x6
        umulh   x22, x14, x6
        adds    x15, x15, x30
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adc     x19, x19, x22
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

.macro PASS4 red, len, fresh=0
        lsr     x29, \len, #2
.if \red
        QFIRST_RED
.elseif \fresh
        QFIRST_F
.else
        QFIRST
.endif
        sub     x29, x29, #1
        cbz     x29, 2f
1:
.if \fresh
        QMID_F
.else
        QMID
.endif
        sub     x29, x29, #1
        cbnz    x29, 1b
2:
.if \red
        QLAST
        add     x26, x25, x27
        add     x26, x26, x28
        add     x26, x26, x30
.else
        QLAST_F
.endif
.endm

/* XPASS fresh: step 1 for block I (x11 = &a[4I], x1 = &T[8I + 4], x9 =
 * L = n - 4I - 4 > 0, also in the frame); x11, x1 and x9 advanced to the
 * next block.  fresh: the first window (I = 0), whose columns are zero. */
.macro XPASS fresh
        ldp     x3, x4, [x11]           /* a_{4I} .. a_{4I+3} */
        ldp     x5, x6, [x11, #16]
        add     x0, x11, #24            /* &a[4I + 4] - 8 */
        mov     x2, x1
        PASS4   0, x9, \fresh
        add     x11, x11, #32
        add     x1, x1, #64
        ldr     x9, [sp, #OFF_L]
        sub     x9, x9, #4
        str     x9, [sp, #OFF_L]
.endm

/* PASS4_LAST: the last reduction pass (PASS4 1, n at x9) with the final
 * subtraction: as each block's columns T[n + 4k - 4 .. n + 4k - 1] become
 * final, r[4k - 4 ..] = those - m[4k - 4 ..] (the window's x12-x14 are
 * m[4k - 3 .. 4k - 1]; an SBCS chain whose borrow waits in x11 as
 * 1 - borrow: CSET HS, CMP #1 restores it; x1 = r).  The top block keeps
 * T and T - m in registers; CCMP turns the borrow and top (x26) into one
 * flag, eq: T < m, keep T; CSEL selects that block, then from the top down
 * the blocks below (nothing in that loop sets the flags), overwriting
 * T[n .. 2n - 1] with zeros. */
.macro PASS4_LAST
        lsr     x29, x9, #2
        QFIRST_RED
        mov     x11, #1                 /* 1 - borrow: none yet */
        ldr     x1, [sp, #OFF_R]
        sub     x29, x29, #1
        cbz     x29, 2f
1:
        QMID
        ldur    x20, [x0, #-56]         /* m[4k - 4] */
        cmp     x11, #1                 /* C = no borrow */
        sbcs    x20, x15, x20
        sbcs    x21, x16, x12
        sbcs    x22, x17, x13
        sbcs    x23, x19, x14
        cset    x11, hs
        stp     x20, x21, [x1]
        stp     x22, x23, [x1, #16]
        add     x1, x1, #32
        sub     x29, x29, #1
        cbnz    x29, 1b
2:
        QLAST
        add     x26, x25, x27
        add     x26, x26, x28
        add     x26, x26, x30           /* top: 0 or 1 */
        ldur    x20, [x0, #-24]         /* m[n - 4] */
        stp     xzr, xzr, [x2, #-32]
        stp     xzr, xzr, [x2, #-16]
        sub     x2, x2, #32
        cmp     x11, #1
        sbcs    x20, x15, x20
        sbcs    x21, x16, x12
        sbcs    x22, x17, x13
        sbcs    x23, x19, x14
        ccmp    x26, #0, #0, lo         /* eq: T < m, keep T */
        csel    x20, x15, x20, eq
        csel    x21, x16, x21, eq
        csel    x22, x17, x22, eq
        csel    x23, x19, x23, eq
        stp     x20, x21, [x1]
        stp     x22, x23, [x1, #16]
        ldr     x13, [sp, #OFF_N]
        lsr     x13, x13, #2
        sub     x13, x13, #1
        cbz     x13, 7f
6:
        sub     x2, x2, #32
        sub     x1, x1, #32
        ldp     x3, x4, [x2]
        ldp     x5, x6, [x2, #16]
        ldp     x7, x8, [x1]
        ldp     x9, x10, [x1, #16]
        stp     xzr, xzr, [x2]
        stp     xzr, xzr, [x2, #16]
        csel    x7, x3, x7, eq
        csel    x8, x4, x8, eq
        csel    x9, x5, x9, eq
        csel    x10, x6, x10, eq
        stp     x7, x8, [x1]
        stp     x9, x10, [x1, #16]
        sub     x13, x13, #1
        cbnz    x13, 6b
7:
.endm

        .globl  quill_mont_sqr_arm64
        .hidden quill_mont_sqr_arm64
        .type   quill_mont_sqr_arm64, %function
        .p2align 4
quill_mont_sqr_arm64:
        .cfi_startproc
        stp     x29, x30, [sp, #-96]!
        .cfi_def_cfa_offset 96
        .cfi_offset x29, -96
        .cfi_offset x30, -88
        SAVE_X19_X28 16
        sub     sp, sp, #STACK_HI
        .cfi_adjust_cfa_offset STACK_HI
        sub     sp, sp, #STACK_LO
        .cfi_adjust_cfa_offset STACK_LO
        str     x0, [sp, #OFF_R]
        str     x1, [sp, #OFF_A]
        str     x2, [sp, #OFF_M]
        str     x3, [sp, #OFF_N0]
        str     x4, [sp, #OFF_N]
        mov     x11, x1                 /* a */
        mov     x12, x2                 /* m */
        mov     x13, x3                 /* n0 */
        mov     x14, x4                 /* n */
        /* zero the words of T that step 2 reads and step 1 does not write:
         * T[0 .. 3] and T[2n - 4 .. 2n - 1] (step 1's first window writes
         * T[4 .. n + 3] fresh, every later one its top four words) */
        add     x10, sp, #OFF_T
        stp     xzr, xzr, [x10]
        stp     xzr, xzr, [x10, #16]
        add     x10, x10, x14, lsl #4
        stp     xzr, xzr, [x10, #-32]
        stp     xzr, xzr, [x10, #-16]

        /* 1. cross products outside the diagonal tiles: for each block I
         * of four words, rows 4I .. 4I + 3 (window T[8I + 4 ..]) times
         * a_{4I + 4} .. a_{n-1} (L = n - 4I - 4 words) */
        mov     x26, xzr                /* no carry bit: the windows end in fresh words */
        add     x1, sp, #OFF_T + 32     /* &T[8I + 4] */
        sub     x9, x14, #4             /* L */
        str     x9, [sp, #OFF_L]
        cbz     x9, 4f
        XPASS   1                       /* I = 0: the window is fresh */
        cbz     x9, 4f
3:
        XPASS   0
        cbnz    x9, 3b
4:
        /* 2. T = 2 (T + the diagonal tiles' cross products) + the squares,
         * eight columns (one block of a) at a time; the carries between
         * blocks in registers: x26 (T + X), x27 (the doubling), x28 (the
         * squares) */
        ldr     x0, [sp, #OFF_A]
        ldr     x14, [sp, #OFF_N]
        add     x2, sp, #OFF_T
        mov     x26, xzr
        mov     x27, xzr
        mov     x28, xzr
        lsr     x29, x14, #2
5:
        ldp     x7, x8, [x0], #16
        ldp     x9, x10, [x0], #16
        /* X = the cross products of a0..a3 (x7-x10), words 1..6:
         * x20, x21, x23, x25, x1, x24 (X < 2^449) */
        mul     x20, x7, x8
        umulh   x21, x7, x8
        mul     x22, x7, x9
        umulh   x23, x7, x9
        mul     x24, x7, x10
        umulh   x25, x7, x10
        adds    x21, x21, x22
        adcs    x23, x23, x24
        adc     x25, x25, xzr
        mul     x22, x8, x9
        umulh   x24, x8, x9
        mul     x30, x8, x10
        umulh   x1, x8, x10
        adds    x24, x24, x30
        adc     x1, x1, xzr
        adds    x23, x23, x22
        adcs    x25, x25, x24
        adc     x1, x1, xzr
        mul     x22, x9, x10
        umulh   x24, x9, x10
        adds    x1, x1, x22
        adc     x24, x24, xzr
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        ldp     x3, x4, [x2, #32]
        ldp     x5, x6, [x2, #48]
        /* T + X + x26 */
        subs    xzr, x26, #1            /* C = x26 */
        adcs    x15, x15, xzr
        adcs    x16, x16, x20
        adcs    x17, x17, x21
        adcs    x19, x19, x23
        adcs    x3, x3, x25
        adcs    x4, x4, x1
        adcs    x5, x5, x24
        adcs    x6, x6, xzr
        cset    x26, cs
        /* doubled: + itself, the bit shifted out of the block below in */
        subs    xzr, x27, #1            /* C = x27 */
        adcs    x15, x15, x15
        adcs    x16, x16, x16
        adcs    x17, x17, x17
        adcs    x19, x19, x19
        adcs    x3, x3, x3
        adcs    x4, x4, x4
        adcs    x5, x5, x5
        adcs    x6, x6, x6
        cset    x27, cs
        /* + the squares */
        mul     x20, x7, x7
        umulh   x21, x7, x7
        mul     x22, x8, x8
        umulh   x23, x8, x8
        mul     x24, x9, x9
        umulh   x25, x9, x9
        mul     x30, x10, x10
        umulh   x1, x10, x10
        subs    xzr, x28, #1            /* C = x28 */
        adcs    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adcs    x3, x3, x24
        adcs    x4, x4, x25
        adcs    x5, x5, x30
        adcs    x6, x6, x1
        cset    x28, cs
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        stp     x3, x4, [x2, #32]
        stp     x5, x6, [x2, #48]
        add     x2, x2, #64
        sub     x29, x29, #1
        cbnz    x29, 5b

        /* 3. Montgomery reduction, four rows (i .. i + 3) per pass over
         * T[i .. i + n + 3], the carry bit x26 into the pass's column n;
         * 4. in the last pass, r = T[n ..] - m as the blocks become final,
         * then r = T where T < m, wiping T[n ..] (the reduction left zeros
         * in T[0 .. n - 1]: column i is T_i + m_0 u_i = 0 mod 2^64 when
         * row i stores it) */
        add     x1, sp, #OFF_T          /* &T[i] */
        lsr     x11, x14, #2
        sub     x11, x11, #1
        mov     x26, xzr
        cbz     x11, 8f
6:
        ldr     x0, [sp, #OFF_M]
        sub     x0, x0, #8
        mov     x2, x1
        ldr     x9, [sp, #OFF_N]
        PASS4   1, x9
        add     x1, x1, #32
        sub     x11, x11, #1
        cbnz    x11, 6b
8:
        ldr     x0, [sp, #OFF_M]
        sub     x0, x0, #8
        mov     x2, x1
        ldr     x9, [sp, #OFF_N]
        PASS4_LAST
        str     xzr, [sp, #OFF_N0]      /* n0 may be secret */
        add     sp, sp, #STACK_LO
        .cfi_adjust_cfa_offset -STACK_LO
        add     sp, sp, #STACK_HI
        .cfi_adjust_cfa_offset -STACK_HI
        RESTORE_X19_X28 16
        ldp     x29, x30, [sp], #96
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .size   quill_mont_sqr_arm64, .-quill_mont_sqr_arm64

#endif

        .section .note.GNU-stack, "", %progbits
