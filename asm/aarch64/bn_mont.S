/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery multiplication on aarch64 with MUL/UMULH and ADCS chains.
 * C prototypes (core/bn/mont_arm64.h):
 *
 *   void quill_mont_mul_arm64(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *b, const quill_limb *m,
 *                             quill_limb n0, size_t n);
 *   void quill_mont_sqr_arm64(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *m, quill_limb n0, size_t n);
 *
 * r = a b R^-1 mod m (r = a^2 R^-1 mod m), R = 2^(64 n), for n a multiple
 * of 4 with 4 <= n <= QUILL_BN_MAX_LIMBS; a, b < m, m odd, n0 = -m^-1 mod
 * 2^64.  r may alias a or b (it is written only at the end); m must not
 * overlap r.
 *
 * Inputs: r, a, b, m (pointers, public), n (public); the words of a, b, m
 * and n0 may all be secret (a, b and, for the CRT halves, m and n0).
 *
 * Algorithm: coarsely integrated operand scanning (CIOS; Koc, Acar and
 * Kaliski, IEEE Micro 1996).  A running value t of n + 1 words (on the
 * stack, zero at the start) takes one row per word b_i of b:
 *   u = (t_0 + a_0 b_i) n0 mod 2^64,  t = (t + a b_i + m u) / 2^64,
 * where the division is exact by the choice of u, and t < 2m after every
 * row.  A row runs over blocks of four words j..j+3: four MUL/UMULH pairs
 * for a_j b_i, four for m_j u, and four ADCS chains of four words each:
 *   t_j += lo(a_j b_i)      the chain's carry goes into hi(a_{j+3} b_i)
 *   t_j += hi(a_{j-1} b_i)  (with the carry word ca of the block before;
 *                            the carry out and hi(a_{j+3} b_i) form the new
 *                            ca)
 *   t_j += lo(m_j u), t_j += hi(m_{j-1} u)   likewise into cm.
 * A carry word never overflows: the four-word block of t plus the block of
 * a times b_i plus one word is at most (2^256 - 1) 2^64 + 2^64 - 1 <
 * 2^320, and its top word is exactly ca (the same for m u and cm).  The
 * block's words are stored one word down (t_{j-1}); word 0 of the row is
 * zero by the choice of u and lands in a dummy slot below t.  The row ends
 * with t_{n-1} = ca + cm + t_n and its carry as the new t_n (0 or 1).
 * Flags never cross a loop branch: the chains end in ADC into a register.
 *
 * Final subtraction: r = t - m (SBCS chain over the whole of t, flags kept
 * across the loop by SUB and CBNZ), then r = t where t < m (the borrow set
 * and t_n = 0) by CSEL on one flag computed from the borrow and t_n: no
 * branch and no address depends on data.
 *
 * Squaring is the multiplication with b = a (quill_mont_sqr_arm64 moves
 * its arguments and falls into it).
 *
 * Calling convention: AAPCS64.  mul: x0 = r, x1 = a, x2 = b, x3 = m,
 * x4 = n0, x5 = n; sqr: x0 = r, x1 = a, x2 = m, x3 = n0, x4 = n.
 * Saves and restores x19-x28, x29 (frame pointer) and x30; no calls; no
 * SIMD registers.  Stack: 128 bytes of frame plus 8 n + 16 bytes for t,
 * wiped with zeros before return (t depends on secrets).
 * Registers of a row: x1 = a, x2 = b pointer (next b_i), x3 = m, x6 = t,
 * x7 = b_i, x8 = u, x9 = rows left, x10 = blocks left, x11/x12/x13 = the
 * block pointers into a, m and t, x14-x17 = a_j..a_{j+3} (then the low
 * product words, then hi(m_j u)), x19-x22 = m_j..m_{j+3} (then the low
 * product words), x23-x26 = t_j..t_{j+3}, x27 = ca, x28 = cm,
 * x0/x4/x5/x30 = hi(a_j b_i); r, n0 and n wait in the frame.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

#define FRAME 128
#define OFF_R 96
#define OFF_N0 104
#define OFF_N 112

        .globl  quill_mont_sqr_arm64
        .hidden quill_mont_sqr_arm64
        .type   quill_mont_sqr_arm64, %function
        .p2align 4
quill_mont_sqr_arm64:
        .cfi_startproc
        mov     x5, x4                  /* n */
        mov     x4, x3                  /* n0 */
        mov     x3, x2                  /* m */
        mov     x2, x1                  /* b = a */
        b       quill_mont_mul_arm64
        .cfi_endproc
        .size   quill_mont_sqr_arm64, .-quill_mont_sqr_arm64

        .globl  quill_mont_mul_arm64
        .hidden quill_mont_mul_arm64
        .type   quill_mont_mul_arm64, %function
        .p2align 4
quill_mont_mul_arm64:
        .cfi_startproc
        stp     x29, x30, [sp, #-FRAME]!
        .cfi_def_cfa_offset FRAME
        .cfi_offset x29, -FRAME
        .cfi_offset x30, -FRAME+8
        mov     x29, sp
        .cfi_def_cfa_register x29
        stp     x19, x20, [sp, #16]
        stp     x21, x22, [sp, #32]
        stp     x23, x24, [sp, #48]
        stp     x25, x26, [sp, #64]
        stp     x27, x28, [sp, #80]
        .cfi_offset x19, -FRAME+16
        .cfi_offset x20, -FRAME+24
        .cfi_offset x21, -FRAME+32
        .cfi_offset x22, -FRAME+40
        .cfi_offset x23, -FRAME+48
        .cfi_offset x24, -FRAME+56
        .cfi_offset x25, -FRAME+64
        .cfi_offset x26, -FRAME+72
        .cfi_offset x27, -FRAME+80
        .cfi_offset x28, -FRAME+88
        str     x0, [sp, #OFF_R]
        str     x4, [sp, #OFF_N0]
        str     x5, [sp, #OFF_N]

        /* t[-1 .. n]: n + 2 words, 8 n + 16 bytes (n is a multiple of 4, so
         * the stack stays 16-byte aligned); zero t[-1 .. n]. */
        lsl     x9, x5, #3
        add     x9, x9, #16
        sub     sp, sp, x9
        mov     x13, sp
1:
        stp     xzr, xzr, [x13], #16
        subs    x9, x9, #16
        b.ne    1b
        add     x6, sp, #8              /* t */
        mov     x9, x5                  /* rows */

.Lrow:
        ldr     x7, [x2], #8            /* b_i */
        /* u = (t_0 + a_0 b_i) n0 mod 2^64 */
        ldr     x14, [x1]
        ldr     x15, [x6]
        ldr     x16, [x29, #OFF_N0]
        mul     x14, x14, x7
        add     x14, x14, x15
        mul     x8, x14, x16
        mov     x11, x1
        mov     x12, x3
        mov     x13, x6
        mov     x27, xzr                /* ca */
        mov     x28, xzr                /* cm */
        ldr     x10, [x29, #OFF_N]
        lsr     x10, x10, #2            /* blocks */
.Lblock:
        ldp     x14, x15, [x11], #16
        ldp     x16, x17, [x11], #16
        ldp     x19, x20, [x12], #16
        ldp     x21, x22, [x12], #16
        ldp     x23, x24, [x13]
        ldp     x25, x26, [x13, #16]
        /* a_j b_i: hi into x0, x4, x5, x30, lo in place */
        umulh   x0, x14, x7
        mul     x14, x14, x7
        umulh   x4, x15, x7
        mul     x15, x15, x7
        umulh   x5, x16, x7
        mul     x16, x16, x7
        umulh   x30, x17, x7
        mul     x17, x17, x7
        /* t += lo */
        adds    x23, x23, x14
        adcs    x24, x24, x15
        adcs    x25, x25, x16
        adcs    x26, x26, x17
        adc     x30, x30, xzr
        /* t += hi one word up, ca in */
        adds    x23, x23, x27
        adcs    x24, x24, x0
        adcs    x25, x25, x4
        adcs    x26, x26, x5
        adc     x27, x30, xzr
        /* m_j u: hi into x14-x17, lo in place */
        umulh   x14, x19, x8
        mul     x19, x19, x8
        umulh   x15, x20, x8
        mul     x20, x20, x8
        umulh   x16, x21, x8
        mul     x21, x21, x8
        umulh   x17, x22, x8
        mul     x22, x22, x8
        adds    x23, x23, x19
        adcs    x24, x24, x20
        adcs    x25, x25, x21
        adcs    x26, x26, x22
        adc     x17, x17, xzr
        adds    x23, x23, x28
        adcs    x24, x24, x14
        adcs    x25, x25, x15
        adcs    x26, x26, x16
        adc     x28, x17, xzr
        /* one word down */
        stp     x23, x24, [x13, #-8]
        stp     x25, x26, [x13, #8]
        add     x13, x13, #32
        sub     x10, x10, #1
        cbnz    x10, .Lblock
        /* t_{n-1} = ca + cm + t_n, t_n = its carry */
        ldr     x14, [x13]
        adds    x27, x27, x28
        adc     x15, xzr, xzr
        adds    x27, x27, x14
        adc     x15, x15, xzr
        stp     x27, x15, [x13, #-8]
        sub     x9, x9, #1
        cbnz    x9, .Lrow

        /* r = t - m */
        ldr     x0, [x29, #OFF_R]
        ldr     x5, [x29, #OFF_N]
        lsr     x10, x5, #2
        mov     x11, x6
        mov     x12, x3
        mov     x13, x0
        cmp     xzr, xzr                /* C = 1: no borrow */
2:
        ldp     x14, x15, [x11], #16
        ldp     x16, x17, [x11], #16
        ldp     x19, x20, [x12], #16
        ldp     x21, x22, [x12], #16
        sbcs    x14, x14, x19
        sbcs    x15, x15, x20
        sbcs    x16, x16, x21
        sbcs    x17, x17, x22
        stp     x14, x15, [x13], #16
        stp     x16, x17, [x13], #16
        sub     x10, x10, #1
        cbnz    x10, 2b
        /* keep t where t < m: the borrow set and t_n = 0 */
        ldr     x14, [x11]              /* t_n */
        cset    x15, cc                 /* borrow */
        bic     x15, x15, x14
        cmp     x15, #0                 /* ne: keep t */
        lsr     x10, x5, #2
        mov     x11, x6
        mov     x13, x0
3:
        ldp     x14, x15, [x11], #16
        ldp     x16, x17, [x11], #16
        ldp     x19, x20, [x13]
        ldp     x21, x22, [x13, #16]
        csel    x19, x14, x19, ne
        csel    x20, x15, x20, ne
        csel    x21, x16, x21, ne
        csel    x22, x17, x22, ne
        stp     x19, x20, [x13], #16
        stp     x21, x22, [x13], #16
        sub     x10, x10, #1
        cbnz    x10, 3b

        /* wipe t[-1 .. n] */
        lsl     x9, x5, #3
        add     x9, x9, #16
        mov     x13, sp
4:
        stp     xzr, xzr, [x13], #16
        subs    x9, x9, #16
        b.ne    4b
        mov     sp, x29
        ldp     x19, x20, [sp, #16]
        ldp     x21, x22, [sp, #32]
        ldp     x23, x24, [sp, #48]
        ldp     x25, x26, [sp, #64]
        ldp     x27, x28, [sp, #80]
        stp     xzr, xzr, [sp, #OFF_R]  /* r, n0 */
        str     xzr, [sp, #OFF_N]
        ldp     x29, x30, [sp], #FRAME
        .cfi_def_cfa sp, 0
        .cfi_restore x29
        .cfi_restore x30
        .cfi_restore x19
        .cfi_restore x20
        .cfi_restore x21
        .cfi_restore x22
        .cfi_restore x23
        .cfi_restore x24
        .cfi_restore x25
        .cfi_restore x26
        .cfi_restore x27
        .cfi_restore x28
        ret
        .cfi_endproc
        .size   quill_mont_mul_arm64, .-quill_mont_mul_arm64

#endif

        .section .note.GNU-stack, "", %progbits
