/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery multiplication on aarch64 with MUL/UMULH and ADCS chains.
 * Printed by tools/gen_bn_mont_a64.py (do not edit by hand: change the
 * generator and regenerate).  C prototype (core/bn/mont_arm64.h):
 *
 *   void quill_mont_mul_arm64(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *b, const quill_limb *m,
 *                             quill_limb n0, size_t n);
 *
 * r = a b R^-1 mod m, R = 2^(64 n), for n a multiple of 4 with
 * 4 <= n <= QUILL_BN_MAX_LIMBS (256); a, b < m, m odd, n0 = -m^-1 mod
 * 2^64.  r may alias a or b (it is written only at the end); m must not
 * overlap r.  (Squaring: the dedicated quill_mont_sqr_arm64 in
 * bn_mont_sqr.S.)
 *
 * Inputs: r, a, b, m (pointers, public), n (public); the words of a, b, m
 * and n0 may all be secret (a, b and, for the CRT halves, m and n0).
 *
 * Algorithm: CIOS Montgomery multiplication (Koc, Acar and Kaliski, IEEE
 * Micro 1996) by groups of four rows, skewed by one group.  Group g
 * (g = 0 .. n/4 - 1) takes B_g = b_{4g} + 2^64 b_{4g+1} + 2^128 b_{4g+2} +
 * 2^192 b_{4g+3} and U_g = u_{4g} + .. + 2^192 u_{4g+3}; with T_{-1} = 0,
 *   T_g = (T_{g-1} + a B_g + m U_g) / 2^256,
 * u_{4g+r} = (column 4g + r of T_{g-1} + a B_g + m (u_{4g} + .. +
 * 2^(64 (r-1)) u_{4g+r-1})) n0 mod 2^64, so that the division is exact; by
 * a, b < m and T_{g-1} < 2m, T_g <= (2m - 1 + (2m - 1)(2^256 - 1)) / 2^256
 * < 2m.  T lives in the frame with absolute columns (column c of the whole
 * sum at T[c]; 2n words).
 * Pass g (g = -1 .. n/4 - 1) adds, over the columns 4g + 4 .. 4g + n + 7 in
 * blocks of four columns whose words stay in registers (x15, x16, x17,
 * x19):
 *   - the rows of m U_g that remain after its first block (none in pass -1),
 *   - the rows of a B_{g+1} (none in the last pass),
 *   - and the first block of m U_{g+1} (columns 4g + 4 .. 4g + 7, complete
 *     once the two row sets above have gone into the pass's first block),
 *     where the four multipliers u_{4g+4} .. u_{4g+7} are computed (not in
 *     the last pass).
 * The multipliers of a pass are thus known before it starts; the latency
 * chain through the four new u (each a MUL by n0 of a column that needs
 * the previous u's products) is the only serial part, and nothing else in
 * the pass depends on it.  For n >= 16 it is spread so that an out-of-order
 * core overlaps it with independent products: u_{4g+4} and its row in the
 * first block (columns in registers), the rows of u_{4g+5} and u_{4g+6}
 * after the second block and that of u_{4g+7} after the third (the four
 * columns reloaded from T and stored back; zeros after the last row).  For
 * n < 16 all four rows go in the first block.
 * A row set is four rows r = 0..3 with multipliers y_r (b or u words, read
 * from the frame into x3-x6 when the row set before used the other
 * group); in the block of columns c .. c + 3 row r adds y_r A_{c - s - r ..
 * c - s - r + 3} (A = a or m, s the group's first column, the seven words
 * A_{c - s - 3 .. c - s + 3} loaded once per row set): each row by two
 * ADCS chains (the low words; then its carry word and the high words one
 * column up) and one carry word (x11-x14 for a b, x25-x28 for m u) into
 * the next block; a carry word never overflows (four words plus one word
 * times four words plus a word is below 2^320).  The generator keeps an
 * upper bound of each column across a row set's rows: a chain stops where
 * no carry can go on and sets the flags only where one can come out (this
 * shortens the rows of the fresh top blocks, where only the last row's
 * carry word can be nonzero).  Words of A outside
 * 0 .. n - 1 get no product.  The row of u_r in the first block skips the
 * product m_0 u_r: its low word is -(column) mod 2^64 by the choice of u_r,
 * so only its carry (the column is not zero) goes up, by SUBS XZR, column,
 * #1.  The top block of a pass (columns 4g + n + 4 .. + 7) is fresh: its
 * column 4g + n + 4 starts as the carry bit out of the previous pass plus
 * the m rows' carry words (single bits there, their last products being
 * inside the block below), the others as zero (read as XZR, as are all
 * columns of pass -1); the pass's carry out of its top column is 0 or 1
 * (its window plus pending carries is below 2m + 2m 2^256 <
 * 2^(64 (n + 4) + 1)) and waits in the frame.  After the last pass
 * T[n .. 2n - 1] + 2^(64 n) top = T_{n/4 - 1} < 2m.
 *
 * Scheduling (for out-of-order cores whose multiplier is the bottleneck):
 * the call loads a_0 .. a_3 and b_0 .. b_3 before it saves registers and
 * starts on the first rows before the rest of its prologue; a_0 .. a_3 wait
 * in the frame and each pass's top block loads the b words of the next
 * pass's a rows into x25-x28, so that the first products of a pass need
 * one load from sp at most.
 *
 * Final subtraction: the last pass writes r = T - m block by block as its
 * columns become final (an SBCS chain whose borrow waits in x11 between
 * blocks as 1 - borrow: CSET HS, then CMP #1 restores it) and stores
 * T[n .. 2n - 5]; the last block keeps T and T - m in registers, CCMP
 * turns the borrow and top into one flag (eq: T < m, keep T), CSEL selects
 * that block and then, from the top down, the blocks below (no instruction
 * of that loop sets the flags), overwriting T[n .. 2n - 1] with zeros.
 *
 * Constant time: every loop bound, branch and address depends only on n,
 * the block and pass indices and the pointers (public); the data enter
 * only MUL, UMULH, ADDS/ADCS/ADC, SUBS/SBCS, ADD, CSET, CMP, CCMP and CSEL;
 * no branch tests data.  The frame's secrets (T, a_0 .. a_3, the u and b
 * words, the carry words and bit, n0) are zero on return: T[0 .. n - 1] by
 * the stores of the u rows, T[n .. 2n - 1] by the final selection, the
 * spill slots explicitly (after the last pass's loop; the carry bit at the
 * end).
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = b, x3 = m, x4 = n0,
 * x5 = n.  Saves and restores x19-x30; no calls; no SIMD registers.  Stack:
 * a fixed frame of 4464 bytes: the saved registers (bytes 0 .. 95), spills
 * (r, next b pointer, last b group, m, a, n0, n, carry bit, &T of the
 * pass, &T[n]), the b words of the pass's a rows, the u words of the m
 * rows and those of the next pass, the carry words of the next pass's m
 * rows, a_0 .. a_3 (bytes 96 .. 335), then T[0 .. 2n - 1].
 * Registers in a pass: x0 = &a[c - s], x1 = &m[c - s] of the current block
 * (the last pass: x0 = r), x2 = &T[c], x3-x6 the row set's multipliers,
 * x7-x10 and x22-x24 the row set's words of A (A_{c-s .. c-s+3},
 * A_{c-s-3 .. c-s-1}), x11-x14 the carry words of the a rows (the last
 * pass: x11 1 - borrow, x12 and x22-x24 the difference, x14 the top;
 * the selection: x3-x10 and x13 blocks left), x15/x16/x17/x19 the block's
 * columns, x20 the high word of a row's top product, x21/x30 the other
 * products, x25-x28 the carry words of the m rows (the top block: the
 * next pass's b words), x29 blocks left; the rows of the new u: x24 = u,
 * x23 = n0, x22 its carry word.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

        .text

#define OFF_T 336

        .globl  quill_mont_mul_arm64
        .hidden quill_mont_mul_arm64
        .type   quill_mont_mul_arm64, %function
        .p2align 4
quill_mont_mul_arm64:
        .cfi_startproc
        /* the first rows' words first: a_0 .. a_3 (window), b_0 .. b_3 */
        ldp     x7, x8, [x1]
        ldp     x9, x10, [x1, #16]
        ldp     x11, x12, [x2]
        ldp     x13, x14, [x2, #16]
        sub     sp, sp, #4096
        .cfi_def_cfa_offset 4096
        sub     sp, sp, #336
        .cfi_def_cfa_offset 4432
        stp     x29, x30, [sp]
        .cfi_rel_offset x29, 0
        .cfi_rel_offset x30, 8
        SAVE_X19_X28 16
        cmp     x5, #16
        b.lo    .Lfirst_small
        /* a b rows, first */
        umulh   x20, x10, x11
        mul     x21, x7, x11
        mul     x30, x8, x11
        add     x15, x21, #0
        mul     x21, x9, x11
        add     x16, x30, #0
        mul     x30, x10, x11
        add     x17, x21, #0
        add     x19, x30, #0
        umulh   x21, x7, x11
        umulh   x30, x8, x11
        adds    x16, x16, x21
        umulh   x21, x9, x11
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x12
        mul     x21, x7, x12
        mul     x30, x8, x12
        adds    x16, x16, x21
        mul     x21, x9, x12
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x20, x20, xzr
        umulh   x21, x7, x12
        umulh   x30, x8, x12
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x12, x20, xzr
        umulh   x20, x8, x13
        mul     x21, x7, x13
        mul     x30, x8, x13
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x13
        adds    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x14
        mul     x21, x7, x14
        adds    x19, x19, x21
        adc     x20, x20, xzr
        add     x14, x20, #0
        stp     x7, x8, [sp, #304]
        stp     x9, x10, [sp, #320]
        /* m and n0 still in x3 and x4 */
        ldp     x7, x8, [x3, #0]
        ldp     x9, x10, [x3, #16]
        /* u_{4g+4+0} and its row */
        mul     x24, x15, x4
        umulh   x22, x10, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x15, #1
        adcs    x16, x16, x21
        mul     x21, x10, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x16, x16, x21
        umulh   x21, x9, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #272]
        str     x24, [sp, #240]
        str     x0, [sp, #96]
        str     x1, [sp, #128]
        str     x3, [sp, #120]
        str     x4, [sp, #136]
        str     x5, [sp, #144]
        add     x6, x2, x5, lsl #3
        sub     x6, x6, #32
        str     x6, [sp, #112]
        add     x20, x2, #32
        str     x20, [sp, #104]
        add     x21, sp, #OFF_T
        add     x22, x21, x5, lsl #3
        str     x22, [sp, #168]
        add     x0, x1, #0
        add     x1, x3, #0
        ldp     x3, x4, [x2]
        ldp     x5, x6, [x2, #16]
        stp     x3, x4, [sp, #176]
        stp     x5, x6, [sp, #192]
        add     x2, x21, #0
        add     x20, x21, #32
        str     x20, [sp, #160]
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        add     x15, x21, #0
        mul     x21, x9, x3
        add     x16, x30, #0
        mul     x30, x10, x3
        add     x17, x21, #0
        add     x19, x30, #0
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        /* rows 1-3 of the first block of m U_0 */
        ldp     x15, x16, [x2, #-64]
        ldp     x17, x19, [x2, #-48]
        ldp     x7, x8, [x1, #0]
        ldr     x9, [x1, #16]
        ldr     x23, [sp, #136]
        /* u_1 and its row */
        mul     x24, x16, x23
        umulh   x22, x9, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x16, #1
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        str     x22, [sp, #280]
        str     x24, [sp, #248]
        /* u_2 and its row */
        mul     x24, x17, x23
        umulh   x22, x8, x24
        mul     x21, x8, x24
        subs    xzr, x17, #1
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        adds    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #288]
        str     x24, [sp, #256]
        /* u_3 and its row */
        mul     x24, x19, x23
        umulh   x22, x7, x24
        subs    xzr, x19, #1
        adc     x22, x22, xzr
        str     x22, [sp, #296]
        str     x24, [sp, #264]
        stp     xzr, xzr, [x2, #-64]
        stp     xzr, xzr, [x2, #-48]
        ldr     x29, [sp, #144]
        lsr     x29, x29, #2
        sub     x29, x29, #2
        cbz     x29, 2f
1:
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        add     x15, x21, #0
        mul     x21, x9, x3
        add     x16, x30, #0
        mul     x30, x10, x3
        add     x17, x21, #0
        add     x19, x30, #0
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        sub     x29, x29, #1
        cbnz    x29, 1b
2:
        /* top block: a_{n-3..n-1} */
        /* the next pass's b words (the last ones again past the end of b) */
        ldr     x29, [sp, #104]
        ldr     x7, [sp, #112]
        cmp     x29, x7
        csel    x7, x29, x7, lo
        add     x29, x29, #32
        str     x29, [sp, #104]
        ldp     x25, x26, [x7]
        ldp     x27, x28, [x7, #16]
        /* a b rows, last */
        ldp     x22, x23, [x0, #-24]
        ldr     x24, [x0, #-8]
        add     x15, x11, #0
        mul     x21, x24, x4
        adds    x15, x15, x21
        cset    x16, hs
        umulh   x21, x24, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        cset    x17, hs
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adc     x17, x17, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        cset    x19, hs
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adc     x19, x19, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        cset    x14, hs
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        str     x14, [sp, #152]
        b       .Lpass
.Lfirst_small:
        /* a b rows, first */
        umulh   x20, x10, x11
        mul     x21, x7, x11
        mul     x30, x8, x11
        add     x15, x21, #0
        mul     x21, x9, x11
        add     x16, x30, #0
        mul     x30, x10, x11
        add     x17, x21, #0
        add     x19, x30, #0
        umulh   x21, x7, x11
        umulh   x30, x8, x11
        adds    x16, x16, x21
        umulh   x21, x9, x11
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x12
        mul     x21, x7, x12
        mul     x30, x8, x12
        adds    x16, x16, x21
        mul     x21, x9, x12
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x20, x20, xzr
        umulh   x21, x7, x12
        umulh   x30, x8, x12
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x12, x20, xzr
        umulh   x20, x8, x13
        mul     x21, x7, x13
        mul     x30, x8, x13
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x13
        adds    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x14
        mul     x21, x7, x14
        adds    x19, x19, x21
        adc     x20, x20, xzr
        add     x14, x20, #0
        stp     x7, x8, [sp, #304]
        stp     x9, x10, [sp, #320]
        /* m and n0 still in x3 and x4 */
        ldp     x7, x8, [x3, #0]
        ldp     x9, x10, [x3, #16]
        /* u_{4g+4+0} and its row */
        mul     x24, x15, x4
        umulh   x22, x10, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x15, #1
        adcs    x16, x16, x21
        mul     x21, x10, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x16, x16, x21
        umulh   x21, x9, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #272]
        str     x24, [sp, #240]
        /* u_{4g+4+1} and its row */
        mul     x24, x16, x4
        umulh   x22, x9, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x16, #1
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        str     x22, [sp, #280]
        str     x24, [sp, #248]
        /* u_{4g+4+2} and its row */
        mul     x24, x17, x4
        umulh   x22, x8, x24
        mul     x21, x8, x24
        subs    xzr, x17, #1
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        adds    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #288]
        str     x24, [sp, #256]
        /* u_{4g+4+3} and its row */
        mul     x24, x19, x4
        umulh   x22, x7, x24
        subs    xzr, x19, #1
        adc     x22, x22, xzr
        str     x22, [sp, #296]
        str     x24, [sp, #264]
        str     x0, [sp, #96]
        str     x1, [sp, #128]
        str     x3, [sp, #120]
        str     x4, [sp, #136]
        str     x5, [sp, #144]
        add     x6, x2, x5, lsl #3
        sub     x6, x6, #32
        str     x6, [sp, #112]
        add     x20, x2, #32
        str     x20, [sp, #104]
        add     x21, sp, #OFF_T
        add     x22, x21, x5, lsl #3
        str     x22, [sp, #168]
        add     x0, x1, #0
        add     x1, x3, #0
        ldp     x3, x4, [x2]
        ldp     x5, x6, [x2, #16]
        stp     x3, x4, [sp, #176]
        stp     x5, x6, [sp, #192]
        add     x2, x21, #0
        add     x20, x21, #32
        str     x20, [sp, #160]
        stp     xzr, xzr, [x2]
        stp     xzr, xzr, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        ldr     x29, [sp, #144]
        lsr     x29, x29, #2
        sub     x29, x29, #1
        cbz     x29, 2f
1:
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        add     x15, x21, #0
        mul     x21, x9, x3
        add     x16, x30, #0
        mul     x30, x10, x3
        add     x17, x21, #0
        add     x19, x30, #0
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        sub     x29, x29, #1
        cbnz    x29, 1b
2:
        /* top block: a_{n-3..n-1} */
        /* the next pass's b words (the last ones again past the end of b) */
        ldr     x29, [sp, #104]
        ldr     x7, [sp, #112]
        cmp     x29, x7
        csel    x7, x29, x7, lo
        add     x29, x29, #32
        str     x29, [sp, #104]
        ldp     x25, x26, [x7]
        ldp     x27, x28, [x7, #16]
        /* a b rows, last */
        ldp     x22, x23, [x0, #-24]
        ldr     x24, [x0, #-8]
        add     x15, x11, #0
        mul     x21, x24, x4
        adds    x15, x15, x21
        cset    x16, hs
        umulh   x21, x24, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        cset    x17, hs
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adc     x17, x17, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        cset    x19, hs
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adc     x19, x19, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        cset    x14, hs
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        str     x14, [sp, #152]
        b       .Lpass_small
        /* passes g = 0 .. n/4 - 2: m U_g after its first block, a B_{g+1},
           the first block of m U_{g+1} (n >= 16; then n <= 12) */
.Lpass:
        ldr     x2, [sp, #160]
        ldr     x20, [sp, #168]
        ldr     x1, [sp, #120]
        cmp     x2, x20
        b.eq    .Llast
        /* first block: columns 4g + 4 .. 4g + 7 */
        ldp     x7, x8, [sp, #304]
        ldp     x9, x10, [sp, #320]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        add     x21, x2, #32
        str     x21, [sp, #160]
        ldr     x0, [sp, #128]
        /* a b rows, first */
        umulh   x11, x10, x25
        mul     x21, x7, x25
        mul     x30, x8, x25
        adds    x15, x15, x21
        mul     x21, x9, x25
        adcs    x16, x16, x30
        mul     x30, x10, x25
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x11, x11, xzr
        umulh   x21, x7, x25
        umulh   x30, x8, x25
        adds    x16, x16, x21
        umulh   x21, x9, x25
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x11, xzr
        umulh   x12, x9, x26
        mul     x21, x7, x26
        mul     x30, x8, x26
        adds    x16, x16, x21
        mul     x21, x9, x26
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x12, xzr
        umulh   x21, x7, x26
        umulh   x30, x8, x26
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x12, x12, xzr
        umulh   x13, x8, x27
        mul     x21, x7, x27
        mul     x30, x8, x27
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x13, x13, xzr
        umulh   x21, x7, x27
        adds    x19, x19, x21
        adc     x13, x13, xzr
        umulh   x14, x7, x28
        mul     x21, x7, x28
        adds    x19, x19, x21
        adc     x14, x14, xzr
        stp     x25, x26, [sp, #176]
        stp     x27, x28, [sp, #192]
        ldp     x3, x4, [sp, #240]
        ldp     x5, x6, [sp, #256]
        stp     x3, x4, [sp, #208]
        stp     x5, x6, [sp, #224]
        ldp     x25, x26, [sp, #272]
        ldp     x27, x28, [sp, #288]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x7, x8, [x1, #0]
        ldp     x9, x10, [x1, #16]
        ldr     x23, [sp, #136]
        /* u_{4g+4+0} and its row */
        mul     x24, x15, x23
        umulh   x22, x10, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x15, #1
        adcs    x16, x16, x21
        mul     x21, x10, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x16, x16, x21
        umulh   x21, x9, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #272]
        str     x24, [sp, #240]
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldr     x29, [sp, #144]
        lsr     x29, x29, #2
        /* block 1, then rows 1, 2 of the first block of the next group */
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldp     x15, x16, [x2, #-64]
        ldp     x17, x19, [x2, #-48]
        ldp     x7, x8, [x1, #-64]
        ldr     x9, [x1, #-48]
        ldr     x23, [sp, #136]
        /* u_{4g+4+1} and its row */
        mul     x24, x16, x23
        umulh   x22, x9, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x16, #1
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        str     x22, [sp, #280]
        str     x24, [sp, #248]
        /* u_{4g+4+2} and its row */
        mul     x24, x17, x23
        umulh   x22, x8, x24
        mul     x21, x8, x24
        subs    xzr, x17, #1
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        adds    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #288]
        str     x24, [sp, #256]
        stp     x15, x16, [x2, #-64]
        stp     x17, x19, [x2, #-48]
        /* block 2, then rows 3 of the first block of the next group */
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        ldp     x3, x4, [sp, #208]
        ldp     x5, x6, [sp, #224]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldp     x15, x16, [x2, #-96]
        ldp     x17, x19, [x2, #-80]
        ldr     x7, [x1, #-96]
        ldr     x23, [sp, #136]
        /* u_{4g+4+3} and its row */
        mul     x24, x19, x23
        umulh   x22, x7, x24
        subs    xzr, x19, #1
        adc     x22, x22, xzr
        str     x22, [sp, #296]
        str     x24, [sp, #264]
        stp     xzr, xzr, [x2, #-96]
        stp     xzr, xzr, [x2, #-80]
        sub     x29, x29, #4
        /* the remaining full blocks: one if their count is odd, then pairs */
        tbz     x29, #0, 1f
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        ldp     x3, x4, [sp, #208]
        ldp     x5, x6, [sp, #224]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
1:
        lsr     x29, x29, #1
        cbz     x29, 4f
3:
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        ldp     x3, x4, [sp, #208]
        ldp     x5, x6, [sp, #224]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        sub     x29, x29, #1
        cbnz    x29, 3b
4:
        /* columns 4g + n .. 4g + n + 3: m_{n-3..n-1} u, a full */
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        add     x1, x1, #32
        /* m u rows, last */
        ldp     x22, x23, [x1, #-24]
        ldr     x24, [x1, #-8]
        adds    x15, x15, x25
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x25, hs
        mul     x21, x24, x4
        adds    x15, x15, x21
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x24, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        adc     x26, x20, xzr
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        adcs    x19, x19, xzr
        adc     x27, x20, xzr
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        /* top block */
        ldr     x15, [sp, #152]
        add     x20, x25, x26
        add     x21, x27, x28
        add     x15, x15, x20
        add     x15, x15, x21
        /* the next pass's b words (the last ones again past the end of b) */
        ldr     x29, [sp, #104]
        ldr     x7, [sp, #112]
        cmp     x29, x7
        csel    x7, x29, x7, lo
        add     x29, x29, #32
        str     x29, [sp, #104]
        ldp     x25, x26, [x7]
        ldp     x27, x28, [x7, #16]
        /* a b rows, last */
        ldp     x22, x23, [x0, #-24]
        ldr     x24, [x0, #-8]
        adds    x15, x15, x11
        cset    x16, hs
        mul     x21, x24, x4
        adds    x15, x15, x21
        adc     x16, x16, xzr
        umulh   x21, x24, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        cset    x17, hs
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adc     x17, x17, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        cset    x19, hs
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adc     x19, x19, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        cset    x14, hs
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        str     x14, [sp, #152]
        b       .Lpass
.Lpass_small:
        ldr     x2, [sp, #160]
        ldr     x20, [sp, #168]
        ldr     x1, [sp, #120]
        cmp     x2, x20
        b.eq    .Llast
        /* first block: columns 4g + 4 .. 4g + 7 */
        ldp     x7, x8, [sp, #304]
        ldp     x9, x10, [sp, #320]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        add     x21, x2, #32
        str     x21, [sp, #160]
        ldr     x0, [sp, #128]
        /* a b rows, first */
        umulh   x11, x10, x25
        mul     x21, x7, x25
        mul     x30, x8, x25
        adds    x15, x15, x21
        mul     x21, x9, x25
        adcs    x16, x16, x30
        mul     x30, x10, x25
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x11, x11, xzr
        umulh   x21, x7, x25
        umulh   x30, x8, x25
        adds    x16, x16, x21
        umulh   x21, x9, x25
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x11, xzr
        umulh   x12, x9, x26
        mul     x21, x7, x26
        mul     x30, x8, x26
        adds    x16, x16, x21
        mul     x21, x9, x26
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x12, xzr
        umulh   x21, x7, x26
        umulh   x30, x8, x26
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x12, x12, xzr
        umulh   x13, x8, x27
        mul     x21, x7, x27
        mul     x30, x8, x27
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x13, x13, xzr
        umulh   x21, x7, x27
        adds    x19, x19, x21
        adc     x13, x13, xzr
        umulh   x14, x7, x28
        mul     x21, x7, x28
        adds    x19, x19, x21
        adc     x14, x14, xzr
        stp     x25, x26, [sp, #176]
        stp     x27, x28, [sp, #192]
        ldp     x3, x4, [sp, #240]
        ldp     x5, x6, [sp, #256]
        stp     x3, x4, [sp, #208]
        stp     x5, x6, [sp, #224]
        ldp     x25, x26, [sp, #272]
        ldp     x27, x28, [sp, #288]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x7, x8, [x1, #0]
        ldp     x9, x10, [x1, #16]
        ldr     x23, [sp, #136]
        /* u_{4g+4+0} and its row */
        mul     x24, x15, x23
        umulh   x22, x10, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x15, #1
        adcs    x16, x16, x21
        mul     x21, x10, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x16, x16, x21
        umulh   x21, x9, x24
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #272]
        str     x24, [sp, #240]
        /* u_{4g+4+1} and its row */
        mul     x24, x16, x23
        umulh   x22, x9, x24
        mul     x21, x8, x24
        mul     x30, x9, x24
        subs    xzr, x16, #1
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        umulh   x30, x8, x24
        adds    x17, x17, x21
        adcs    x19, x19, x30
        adc     x22, x22, xzr
        str     x22, [sp, #280]
        str     x24, [sp, #248]
        /* u_{4g+4+2} and its row */
        mul     x24, x17, x23
        umulh   x22, x8, x24
        mul     x21, x8, x24
        subs    xzr, x17, #1
        adcs    x19, x19, x21
        adc     x22, x22, xzr
        umulh   x21, x7, x24
        adds    x19, x19, x21
        adc     x22, x22, xzr
        str     x22, [sp, #288]
        str     x24, [sp, #256]
        /* u_{4g+4+3} and its row */
        mul     x24, x19, x23
        umulh   x22, x7, x24
        subs    xzr, x19, #1
        adc     x22, x22, xzr
        str     x22, [sp, #296]
        str     x24, [sp, #264]
        stp     xzr, xzr, [x2]
        stp     xzr, xzr, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldr     x29, [sp, #144]
        lsr     x29, x29, #2
        sub     x29, x29, #2
        /* the remaining full blocks: one if their count is odd, then pairs */
        tbz     x29, #0, 1f
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        ldp     x3, x4, [sp, #208]
        ldp     x5, x6, [sp, #224]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
1:
        lsr     x29, x29, #1
        cbz     x29, 4f
3:
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        ldp     x3, x4, [sp, #208]
        ldp     x5, x6, [sp, #224]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x1, x1, #32
        add     x2, x2, #32
        sub     x29, x29, #1
        cbnz    x29, 3b
4:
        /* columns 4g + n .. 4g + n + 3: m_{n-3..n-1} u, a full */
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        add     x1, x1, #32
        /* m u rows, last */
        ldp     x22, x23, [x1, #-24]
        ldr     x24, [x1, #-8]
        adds    x15, x15, x25
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x25, hs
        mul     x21, x24, x4
        adds    x15, x15, x21
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x24, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        adc     x26, x20, xzr
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        adcs    x19, x19, xzr
        adc     x27, x20, xzr
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldp     x3, x4, [sp, #176]
        ldp     x5, x6, [sp, #192]
        /* a b rows, full */
        ldp     x22, x23, [x0, #-24]
        ldp     x24, x7, [x0, #-8]
        ldp     x8, x9, [x0, #8]
        ldr     x10, [x0, #24]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x11
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x11, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x12, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x13, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x14, x20, xzr
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x0, x0, #32
        add     x2, x2, #32
        /* top block */
        ldr     x15, [sp, #152]
        add     x20, x25, x26
        add     x21, x27, x28
        add     x15, x15, x20
        add     x15, x15, x21
        /* the next pass's b words (the last ones again past the end of b) */
        ldr     x29, [sp, #104]
        ldr     x7, [sp, #112]
        cmp     x29, x7
        csel    x7, x29, x7, lo
        add     x29, x29, #32
        str     x29, [sp, #104]
        ldp     x25, x26, [x7]
        ldp     x27, x28, [x7, #16]
        /* a b rows, last */
        ldp     x22, x23, [x0, #-24]
        ldr     x24, [x0, #-8]
        adds    x15, x15, x11
        cset    x16, hs
        mul     x21, x24, x4
        adds    x15, x15, x21
        adc     x16, x16, xzr
        umulh   x21, x24, x4
        adds    x15, x15, x12
        adcs    x16, x16, x21
        cset    x17, hs
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adc     x17, x17, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x13
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        cset    x19, hs
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adc     x19, x19, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x14
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        cset    x14, hs
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        str     x14, [sp, #152]
        b       .Lpass_small
.Llast:
        /* last pass: m U_{n/4-1} after its first block, columns n .. 2n + 3 */
        ldp     x3, x4, [sp, #240]
        ldp     x5, x6, [sp, #256]
        ldp     x25, x26, [sp, #272]
        ldp     x27, x28, [sp, #288]
        ldr     x29, [sp, #144]
        lsr     x29, x29, #2
        sub     x29, x29, #1
        ldr     x0, [sp, #96]
        mov     x11, #1
        cbz     x29, 6f
5:
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        /* m u rows, full */
        ldp     x22, x23, [x1, #8]
        ldp     x24, x7, [x1, #24]
        ldp     x8, x9, [x1, #40]
        ldr     x10, [x1, #56]
        umulh   x20, x10, x3
        mul     x21, x7, x3
        mul     x30, x8, x3
        adds    x15, x15, x21
        mul     x21, x9, x3
        adcs    x16, x16, x30
        mul     x30, x10, x3
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x7, x3
        umulh   x30, x8, x3
        adds    x15, x15, x25
        adcs    x16, x16, x21
        umulh   x21, x9, x3
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x25, x20, xzr
        umulh   x20, x9, x4
        mul     x21, x24, x4
        mul     x30, x7, x4
        adds    x15, x15, x21
        mul     x21, x8, x4
        adcs    x16, x16, x30
        mul     x30, x9, x4
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x24, x4
        umulh   x30, x7, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        umulh   x21, x8, x4
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x26, x20, xzr
        umulh   x20, x8, x5
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        mul     x21, x7, x5
        adcs    x16, x16, x30
        mul     x30, x8, x5
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        umulh   x21, x7, x5
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x27, x20, xzr
        umulh   x20, x7, x6
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        mul     x30, x7, x6
        adcs    x17, x17, x21
        adcs    x19, x19, x30
        adc     x20, x20, xzr
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        ldr     x12, [x1, #0]
        cmp     x11, #1
        sbcs    x12, x15, x12
        sbcs    x22, x16, x22
        sbcs    x23, x17, x23
        sbcs    x24, x19, x24
        cset    x11, hs
        stp     x12, x22, [x0]
        stp     x23, x24, [x0, #16]
        add     x0, x0, #32
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x1, x1, #32
        add     x2, x2, #32
        sub     x29, x29, #1
        cbnz    x29, 5b
6:
        /* the secret spills are dead (the carry bit waits): wipe */
        str     xzr, [sp, #136]
        stp     xzr, xzr, [sp, #176]
        stp     xzr, xzr, [sp, #192]
        stp     xzr, xzr, [sp, #208]
        stp     xzr, xzr, [sp, #224]
        stp     xzr, xzr, [sp, #240]
        stp     xzr, xzr, [sp, #256]
        stp     xzr, xzr, [sp, #272]
        stp     xzr, xzr, [sp, #288]
        stp     xzr, xzr, [sp, #304]
        stp     xzr, xzr, [sp, #320]
        /* the last block: T[2n - 4 ..] stays in x15-x19 (its old words wiped) */
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        stp     xzr, xzr, [x2]
        stp     xzr, xzr, [x2, #16]
        add     x1, x1, #32
        /* m u rows, last */
        ldp     x22, x23, [x1, #-24]
        ldr     x24, [x1, #-8]
        adds    x15, x15, x25
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x25, hs
        mul     x21, x24, x4
        adds    x15, x15, x21
        adcs    x16, x16, xzr
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x24, x4
        adds    x15, x15, x26
        adcs    x16, x16, x21
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        adc     x26, x20, xzr
        mul     x21, x23, x5
        mul     x30, x24, x5
        adds    x15, x15, x21
        adcs    x16, x16, x30
        adcs    x17, x17, xzr
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x23, x5
        umulh   x30, x24, x5
        adds    x15, x15, x27
        adcs    x16, x16, x21
        adcs    x17, x17, x30
        adcs    x19, x19, xzr
        adc     x27, x20, xzr
        mul     x21, x22, x6
        mul     x30, x23, x6
        adds    x15, x15, x21
        mul     x21, x24, x6
        adcs    x16, x16, x30
        adcs    x17, x17, x21
        adcs    x19, x19, xzr
        cset    x20, hs
        umulh   x21, x22, x6
        umulh   x30, x23, x6
        adds    x15, x15, x28
        adcs    x16, x16, x21
        umulh   x21, x24, x6
        adcs    x17, x17, x30
        adcs    x19, x19, x21
        adc     x28, x20, xzr
        /* top: the carry bit plus the m rows' carry bits (T < 2m: 0 or 1) */
        ldr     x14, [sp, #152]
        add     x20, x25, x26
        add     x14, x14, x27
        add     x14, x14, x20
        add     x14, x14, x28
        ldr     x12, [x1, #-32]
        cmp     x11, #1
        sbcs    x12, x15, x12
        sbcs    x22, x16, x22
        sbcs    x23, x17, x23
        sbcs    x24, x19, x24
        /* eq: T < m (a borrow and top = 0): keep T, else r = T - m */
        ccmp    x14, #0, #0, lo
        csel    x12, x15, x12, eq
        csel    x22, x16, x22, eq
        csel    x23, x17, x23, eq
        csel    x24, x19, x24, eq
        stp     x12, x22, [x0]
        stp     x23, x24, [x0, #16]
        /* the blocks below, from the top down: r = T or T - m (flags kept:
           no instruction of the loop sets them), T wiped */
        ldr     x13, [sp, #144]
        lsr     x13, x13, #2
        sub     x13, x13, #1
        cbz     x13, 7f
6:
        sub     x2, x2, #32
        sub     x0, x0, #32
        ldp     x3, x4, [x2]
        ldp     x5, x6, [x2, #16]
        ldp     x7, x8, [x0]
        ldp     x9, x10, [x0, #16]
        stp     xzr, xzr, [x2]
        stp     xzr, xzr, [x2, #16]
        csel    x7, x3, x7, eq
        csel    x8, x4, x8, eq
        csel    x9, x5, x9, eq
        csel    x10, x6, x10, eq
        stp     x7, x8, [x0]
        stp     x9, x10, [x0, #16]
        sub     x13, x13, #1
        cbnz    x13, 6b
7:
        str     xzr, [sp, #152]
        RESTORE_X19_X28 16
        ldp     x29, x30, [sp]
        .cfi_restore x29
        .cfi_restore x30
        add     sp, sp, #336
        .cfi_def_cfa_offset 4096
        add     sp, sp, #4096
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   quill_mont_mul_arm64, .-quill_mont_mul_arm64

#endif

        .section .note.GNU-stack, "", %progbits
