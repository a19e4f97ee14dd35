/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Dedicated Montgomery squaring on aarch64 with MUL/UMULH and ADCS chains.
 * C prototype (core/bn/mont_arm64.h):
 *
 *   void quill_mont_sqr_tri_arm64(quill_limb *r, const quill_limb *a,
 *                                 const quill_limb *m, quill_limb n0,
 *                                 size_t n);
 *
 * r = a^2 R^-1 mod m, R = 2^(64 n), for n a multiple of 4 with
 * 4 <= n <= QUILL_BN_MAX_LIMBS (256); a < m, m odd, n0 = -m^-1 mod 2^64.
 * r may alias a (it is written only at the end); m must not overlap r.
 *
 * Inputs: r, a, m (pointers, public), n (public); the words of a, m and n0
 * may all be secret (a always; m and n0 for the CRT halves of RSA).
 *
 * Algorithm, on a 2n-word T in the stack frame:
 *  1. off-diagonal products: T = sum over i < j of a_i a_j 2^(64 (i + j)),
 *     one row per i (a_i times a_{i+1} .. a_{n-1}, added into T[2i + 1 ..]
 *     with the row's carry word stored into the fresh T[i + n]); a row of
 *     L = n - 1 - i products runs L mod 4 single steps, then L / 4 blocks
 *     of four (four MUL, four UMULH, two ADCS chains, the carry word in
 *     x25; T + a_i A + c < 2^320 so the carry word never overflows);
 *  2. T = 2 T + sum a_k^2 2^(128 k): one pass of EXTR (shift by one bit
 *     across words) and an ADCS chain with the diagonal squares, flags kept
 *     across the loop (SUB and CBNZ do not touch them); T = a^2 < 2^(128 n)
 *     so nothing carries out;
 *  3. Montgomery reduction word by word: for i = 0 .. n-1, u = T_i n0 mod
 *     2^64, T += m u 2^(64 i) (n / 4 blocks of four as in 1, carry word
 *     into T[i + n] with a carry bit x26 that moves up one column per row);
 *     afterwards T[n .. 2n - 1] + 2^(64 n) x26 = a^2 R^-1 mod m + (0 or m)
 *     < 2m;
 *  4. r = T - m by an SBCS chain (flags kept across the loop), then
 *     r = T where T < m (borrow set and x26 = 0) by CSEL on one flag.
 *
 * Constant time: every loop bound and every address depends only on n, the
 * row index and the pointers (public); the data enter only MUL, UMULH,
 * ADDS/ADCS/ADC, EXTR, SBCS, CSET/BIC and CSEL; no branch tests data.
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = m, x3 = n0, x4 = n.
 * Saves and restores x19-x30; no calls; no SIMD registers.  Stack: 96
 * bytes of saved registers, then a fixed frame of 4176 bytes (64 bytes of
 * spills, then T[0 .. 2n + 1]) of which 64 + 16 n are used and wiped with
 * zeros before return (T depends on secrets).  Registers: x0 = pointer into
 * the multiplicand words (a or m), x2 = pointer into T, x3 = multiplier word
 * (a_i or u), x7-x10 multiplicand words, x15/x16/x17/x19 T words, x20-x24
 * products, x25 carry word, x26 reduction carry bit (phases 3, 4), x11 = a,
 * x12 = m, x13 = n0, x14 = n, x26-x28 row state, x29 loop counter.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

#define OFF_R 0
#define OFF_T 64
/* 64 + 8 (2 QUILL_BN_MAX_LIMBS + 2) bytes */
#define STACK_HI 4096
#define STACK_LO 80

/* RB: T[x2 .. x2 + 3] += x3 (x0[0 .. 3]) + x25; x25 = the carry word.
 * Advances x0 and x2 by 32. */
.macro RB
        ldp     x7, x8, [x0], #16
        ldp     x9, x10, [x0], #16
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
        stp     x17, x19, [x2, #16]
        stp     x15, x16, [x2], #32
.endm

/* RB1: one word: T[x2] += x3 x0[0] + x25; x25 = the carry word. */
.macro RB1
        ldr     x7, [x0], #8
        ldr     x15, [x2]
        mul     x20, x7, x3
        umulh   x24, x7, x3
        adds    x15, x15, x20
        adc     x24, x24, xzr
        adds    x15, x15, x25
        adc     x25, x24, xzr
        str     x15, [x2], #8
.endm

        .globl  quill_mont_sqr_tri_arm64
        .hidden quill_mont_sqr_tri_arm64
        .type   quill_mont_sqr_tri_arm64, %function
        .p2align 4
quill_mont_sqr_tri_arm64:
        .cfi_startproc
        stp     x29, x30, [sp, #-96]!
        .cfi_def_cfa_offset 96
        .cfi_offset x29, -96
        .cfi_offset x30, -88
        stp     x19, x20, [sp, #16]
        stp     x21, x22, [sp, #32]
        stp     x23, x24, [sp, #48]
        stp     x25, x26, [sp, #64]
        stp     x27, x28, [sp, #80]
        .cfi_offset x19, -80
        .cfi_offset x20, -72
        .cfi_offset x21, -64
        .cfi_offset x22, -56
        .cfi_offset x23, -48
        .cfi_offset x24, -40
        .cfi_offset x25, -32
        .cfi_offset x26, -24
        .cfi_offset x27, -16
        .cfi_offset x28, -8
        sub     sp, sp, #STACK_HI
        .cfi_adjust_cfa_offset STACK_HI
        sub     sp, sp, #STACK_LO
        .cfi_adjust_cfa_offset STACK_LO
        str     x0, [sp, #OFF_R]
        mov     x11, x1                 /* a */
        mov     x12, x2                 /* m */
        mov     x13, x3                 /* n0 */
        mov     x14, x4                 /* n */
        /* zero T[0 .. 2n - 1] */
        add     x10, sp, #OFF_T
        mov     x9, x14
1:
        stp     xzr, xzr, [x10], #16
        sub     x9, x9, #1
        cbnz    x9, 1b

        /* 1. off-diagonal products, rows i = 0 .. n - 2 */
        mov     x26, x11                /* &a[i] */
        add     x27, sp, #OFF_T + 8     /* &T[2i + 1] */
        sub     x28, x14, #1            /* L = n - 1 - i */
2:
        ldr     x3, [x26], #8           /* a_i; x26 = &a[i + 1] */
        mov     x0, x26
        mov     x2, x27
        mov     x25, xzr
        and     x29, x28, #3
        cbz     x29, 4f
3:
        RB1
        sub     x29, x29, #1
        cbnz    x29, 3b
4:
        lsr     x29, x28, #2
        cbz     x29, 6f
5:
        RB
        sub     x29, x29, #1
        cbnz    x29, 5b
6:
        str     x25, [x2]               /* T[i + n] */
        add     x27, x27, #16
        sub     x28, x28, #1
        cbnz    x28, 2b

        /* 2. T = 2 T + the diagonal squares */
        mov     x0, x11
        add     x2, sp, #OFF_T
        mov     x24, xzr                /* the word below T[2k] */
        lsr     x29, x14, #1
        adds    xzr, xzr, xzr           /* C = 0 */
7:
        ldp     x7, x8, [x0], #16
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        mul     x20, x7, x7
        umulh   x21, x7, x7
        mul     x22, x8, x8
        umulh   x23, x8, x8
        extr    x10, x15, x24, #63
        extr    x15, x16, x15, #63
        extr    x16, x17, x16, #63
        extr    x24, x19, x17, #63
        adcs    x10, x10, x20
        adcs    x15, x15, x21
        adcs    x16, x16, x22
        adcs    x17, x24, x23
        mov     x24, x19
        stp     x10, x15, [x2], #16
        stp     x16, x17, [x2], #16
        sub     x29, x29, #1
        cbnz    x29, 7b

        /* 3. Montgomery reduction, rows i = 0 .. n - 1 */
        add     x27, sp, #OFF_T         /* &T[i] */
        mov     x28, x14
        mov     x26, xzr                /* carry bit into T[i + n] */
8:
        ldr     x3, [x27]
        mul     x3, x3, x13             /* u = T_i n0 */
        mov     x0, x12
        mov     x2, x27
        mov     x25, xzr
        lsr     x29, x14, #2
9:
        RB
        sub     x29, x29, #1
        cbnz    x29, 9b
        ldr     x15, [x2]               /* T[i + n] */
        adds    x15, x15, x25
        adc     x16, xzr, xzr
        adds    x15, x15, x26
        adc     x26, x16, xzr
        str     x15, [x2]
        add     x27, x27, #8
        sub     x28, x28, #1
        cbnz    x28, 8b

        /* 4. r = T[n ..] - m, then r = T where T < m */
        ldr     x0, [sp, #OFF_R]
        add     x11, sp, #OFF_T
        add     x11, x11, x14, lsl #3   /* &T[n] */
        mov     x6, x11
        lsr     x10, x14, #2
        mov     x13, x0
        mov     x9, x12                 /* m */
        cmp     xzr, xzr                /* C = 1: no borrow */
10:
        ldp     x15, x16, [x11], #16
        ldp     x17, x19, [x11], #16
        ldp     x20, x21, [x9], #16
        ldp     x22, x23, [x9], #16
        sbcs    x15, x15, x20
        sbcs    x16, x16, x21
        sbcs    x17, x17, x22
        sbcs    x19, x19, x23
        stp     x15, x16, [x13], #16
        stp     x17, x19, [x13], #16
        sub     x10, x10, #1
        cbnz    x10, 10b
        cset    x15, cc                 /* borrow */
        bic     x15, x15, x26
        cmp     x15, #0                 /* ne: keep T */
        lsr     x10, x14, #2
        mov     x11, x6
        mov     x13, x0
11:
        ldp     x15, x16, [x11], #16
        ldp     x17, x19, [x11], #16
        ldp     x20, x21, [x13]
        ldp     x22, x23, [x13, #16]
        csel    x20, x15, x20, ne
        csel    x21, x16, x21, ne
        csel    x22, x17, x22, ne
        csel    x23, x19, x23, ne
        stp     x20, x21, [x13], #16
        stp     x22, x23, [x13], #16
        sub     x10, x10, #1
        cbnz    x10, 11b

        /* wipe the spills and T (64 + 16 n bytes) */
        mov     x10, sp
        add     x9, x14, #4
12:
        stp     xzr, xzr, [x10], #16
        sub     x9, x9, #1
        cbnz    x9, 12b
        add     sp, sp, #STACK_LO
        .cfi_adjust_cfa_offset -STACK_LO
        add     sp, sp, #STACK_HI
        .cfi_adjust_cfa_offset -STACK_HI
        ldp     x19, x20, [sp, #16]
        ldp     x21, x22, [sp, #32]
        ldp     x23, x24, [sp, #48]
        ldp     x25, x26, [sp, #64]
        ldp     x27, x28, [sp, #80]
        ldp     x29, x30, [sp], #96
        .cfi_def_cfa_offset 0
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
        .size   quill_mont_sqr_tri_arm64, .-quill_mont_sqr_tri_arm64

#endif

        .section .note.GNU-stack, "", %progbits
