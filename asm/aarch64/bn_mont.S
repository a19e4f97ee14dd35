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
 * Kaliski, IEEE Micro 1996) two rows at a time.  A running value T of
 * n + 1 words (zero at the start) takes the rows of b in pairs (b_i,
 * b_{i+1}):
 *   u_i     = (T_0 + a_0 b_i) n0 mod 2^64,
 *   u_{i+1} = (column 1 of T + a b_i + m u_i, plus a_0 b_{i+1}) n0,
 *   T = (T + a b_i + m u_i + 2^64 (a b_{i+1} + m u_{i+1})) / 2^128,
 * exact by the choice of the u, and T < 2m after every pair (T < 2m,
 * a (b_i + 2^64 b_{i+1}) < m 2^128 and m (u_i + 2^64 u_{i+1}) < m 2^128).
 * A pair runs over blocks of four columns 4k..4k+3 whose words stay in
 * registers: row i adds a_{4k..4k+3} b_i and m_{4k..4k+3} u_i, then row
 * i + 1 adds a_{4k-1..4k+2} b_{i+1} and m_{4k-1..4k+2} u_{i+1} (one word
 * behind, so that both rows finish the same four columns; the first block
 * has no a_{-1}, m_{-1} products and starts its chains one column up).
 * The loads of a, m and T and the stores of T thus serve two rows.  Each
 * row's products go in by four ADCS chains of four words: the low words,
 * then the high words one column up with the carry word of the block
 * before (ca for a b, cm for m u); the chains' carries go into the last
 * high word, which becomes the new carry word.  A carry word never
 * overflows: four words of T plus four words of a times one word plus one
 * word is at most (2^256 - 1) 2^64 + 2^64 - 1 < 2^320, whose top word is
 * exactly the carry word (likewise for m u).  The finished columns are
 * stored two words down (T[4k - 2 ..]; the two zero columns of the first
 * block land in two dummy words below T).  After the last block, columns
 * n and n + 1 take the carries, T_n and row i + 1's products of a_{n-1}
 * and m_{n-1}; the carry out is the new T_n (0 or 1).  Flags never cross
 * a loop branch: every chain ends in ADC into a register.
 *
 * Final subtraction: r = T - m (SBCS chain, flags kept across the loop by
 * SUB and CBNZ), then r = T where T < m (the borrow set and T_n = 0) by
 * CSEL on one flag computed from the borrow and T_n: no branch and no
 * address depends on data.
 *
 * Squaring is the multiplication with b = a (quill_mont_sqr_arm64 moves
 * its arguments and branches into it).
 *
 * Calling convention: AAPCS64.  mul: x0 = r, x1 = a, x2 = b, x3 = m,
 * x4 = n0, x5 = n; sqr: x0 = r, x1 = a, x2 = m, x3 = n0, x4 = n.
 * Saves and restores x19-x30; no calls; no SIMD registers.  Stack: 96
 * bytes of saved registers, then a fixed frame of 2144 bytes of which
 * 8 n + 96 are used (spills, then T[-2 .. n]) and wiped with zeros before
 * return (T depends on secrets).  Registers in a block: x0 = a + 8 (4k - 1),
 * x1 = m + 8 (4k - 1), x2 = &T[4k], x3/x4 = b_i/b_{i+1}, x5/x6 =
 * u_i/u_{i+1}, x7-x10 = a words, x11-x14 = m words, x15/x16/x17/x19 = the
 * four columns, x20-x24 = products, x25/x26 = ca/cm of row i, x27/x28 =
 * ca/cm of row i + 1, x29 = blocks left, x30 = a - 8.  r, the b pointer
 * and its end, n0, n and m - 8 wait in the frame.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

/* The stack frame below the saved registers: spills, then the data. */
#define OFF_R 0
#define OFF_B 8
#define OFF_N0 16
#define OFF_N 24
#define OFF_BEND 32
#define OFF_M 40
#define OFF_T 64
/* The frame below the saved registers: 64 + 8 (QUILL_BN_MAX_LIMBS + 4) =
 * 2144 bytes for 256 limbs. */
#define STACK_SIZE 2144

/* ROW0 bv, uv, ca, cm, first: row i (b_i in bv, u_i in uv) on the block's
 * words W = x15, x16, x17, x19 (columns 4k..4k+3) with a_{4k..4k+3} in
 * x7-x10 and m_{4k..4k+3} in x11-x14; temporaries x20-x24.  With first,
 * u_i = W_0 n0 is computed after the a products (column 0 is then
 * complete but for m_0 u_i). */
.macro ROW0 first
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
.if \first
        adds    x16, x16, x20           /* ca = 0 */
.else
        adds    x15, x15, x25
        adcs    x16, x16, x20
.endif
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
.if \first
        ldr     x20, [sp, #OFF_N0]
        mul     x5, x15, x20
.endif
        mul     x20, x11, x5
        mul     x21, x12, x5
        mul     x22, x13, x5
        mul     x23, x14, x5
        umulh   x24, x14, x5
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
        umulh   x20, x11, x5
        umulh   x21, x12, x5
        umulh   x22, x13, x5
.if \first
        adds    x16, x16, x20           /* cm = 0 */
.else
        adds    x15, x15, x26
        adcs    x16, x16, x20
.endif
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x26, x24, xzr
.endm

/* ROW1 first: row i + 1 (b_{i+1} in x4, u_{i+1} in x6) on the same
 * columns, one word behind: a_{4k-1} (x10, loaded over a_{4k+3}), a_{4k},
 * a_{4k+1}, a_{4k+2} and likewise m.  With first, a_{-1} = m_{-1} = 0 (no
 * products) and u_{i+1} = W_1 n0 after the a products. */
.macro ROW1 first
.if !\first
        mul     x20, x10, x4
.endif
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
.if \first
        adds    x16, x16, x21           /* a_{-1} = 0: column 0 unchanged */
.else
        adds    x15, x15, x20
        adcs    x16, x16, x21
.endif
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
.if !\first
        umulh   x20, x10, x4
.endif
        umulh   x21, x7, x4
        umulh   x22, x8, x4
.if \first
        adds    x17, x17, x21           /* ca = 0, a_{-1} = 0 */
.else
        adds    x15, x15, x27
        adcs    x16, x16, x20
        adcs    x17, x17, x21
.endif
        adcs    x19, x19, x22
        adc     x27, x24, xzr
.if \first
        ldr     x20, [sp, #OFF_N0]
        mul     x6, x16, x20
.else
        mul     x20, x14, x6
.endif
        mul     x21, x11, x6
        mul     x22, x12, x6
        mul     x23, x13, x6
        umulh   x24, x13, x6
.if \first
        adds    x16, x16, x21           /* m_{-1} = 0 */
.else
        adds    x15, x15, x20
        adcs    x16, x16, x21
.endif
        adcs    x17, x17, x22
        adcs    x19, x19, x23
        adc     x24, x24, xzr
.if !\first
        umulh   x20, x14, x6
.endif
        umulh   x21, x11, x6
        umulh   x22, x12, x6
.if \first
        adds    x17, x17, x21           /* cm = 0, m_{-1} = 0 */
.else
        adds    x15, x15, x28
        adcs    x16, x16, x20
        adcs    x17, x17, x21
.endif
        adcs    x19, x19, x22
        adc     x28, x24, xzr
.endm

/* BLOCK first: columns 4k..4k+3 for both rows.  x0 = &A'[4k] (A'[j + 1] =
 * a_j, A'[0] = 0), x1 = &M'[4k], x2 = &T[4k]; the outputs go two words
 * down (T[4k - 2 .. 4k + 1]), after this block's reads of T[4k .. 4k + 3].
 * Advances x0, x1, x2 by 32. */
.macro BLOCK first
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldp     x11, x12, [x1, #8]
        ldp     x13, x14, [x1, #24]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
        ROW0    \first
.if !\first
        ldr     x10, [x0]
        ldr     x14, [x1]
.endif
        add     x0, x0, #32
        add     x1, x1, #32
        ROW1    \first
        stp     x15, x16, [x2, #-16]
        stp     x17, x19, [x2]
        add     x2, x2, #32
.endm

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
        /* A fixed frame of STACK_SIZE bytes (so that the CFA stays a
         * constant offset from sp); 64 + 8 (n + 4) of them are used:
         * spills, then T[-2 .. n] (n + 3 words) */
        sub     sp, sp, #STACK_SIZE
        .cfi_adjust_cfa_offset STACK_SIZE
        str     x0, [sp, #OFF_R]
        str     x4, [sp, #OFF_N0]
        str     x5, [sp, #OFF_N]
        add     x10, x2, x5, lsl #3
        str     x10, [sp, #OFF_BEND]
        str     x2, [sp, #OFF_B]
        sub     x30, x1, #8             /* a - 8 */
        sub     x3, x3, #8
        str     x3, [sp, #OFF_M]        /* m - 8 */
        /* zero T[-2 .. n] (n + 3 words; n + 4 cleared) */
        add     x10, sp, #OFF_T
        lsr     x9, x5, #1
        add     x9, x9, #2
1:
        stp     xzr, xzr, [x10], #16
        sub     x9, x9, #1
        cbnz    x9, 1b

.Lpair:
        ldr     x9, [sp, #OFF_B]
        ldp     x3, x4, [x9], #16       /* b_i, b_{i+1} */
        str     x9, [sp, #OFF_B]
        mov     x0, x30                 /* a - 8 */
        ldr     x1, [sp, #OFF_M]        /* m - 8 */
        add     x2, sp, #OFF_T + 16     /* T */
        ldr     x29, [sp, #OFF_N]
        lsr     x29, x29, #2
        BLOCK   1
        sub     x29, x29, #1
        cbz     x29, 4f
3:
        BLOCK   0
        sub     x29, x29, #1
        cbnz    x29, 3b
4:
        /* columns n and n + 1: T_n, the carries of row i, and row i + 1's
         * products of a_{n-1} and m_{n-1} with its carries */
        ldr     x20, [x2]
        adds    x15, x20, x25
        adc     x16, xzr, xzr
        adds    x15, x15, x26
        adc     x16, x16, xzr
        ldr     x10, [x0]
        ldr     x14, [x1]
        mul     x20, x10, x4
        umulh   x21, x10, x4
        mul     x22, x14, x6
        umulh   x23, x14, x6
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adc     x17, xzr, xzr
        adds    x15, x15, x27
        adcs    x16, x16, xzr
        adc     x17, x17, xzr
        adds    x15, x15, x22
        adcs    x16, x16, x23
        adc     x17, x17, xzr
        adds    x15, x15, x28
        adcs    x16, x16, xzr
        adc     x17, x17, xzr
        stp     x15, x16, [x2, #-16]
        str     x17, [x2]
        ldr     x9, [sp, #OFF_B]
        ldr     x10, [sp, #OFF_BEND]
        cmp     x9, x10
        b.ne    .Lpair

        /* r = T - m */
        ldr     x0, [sp, #OFF_R]
        ldr     x5, [sp, #OFF_N]
        ldr     x12, [sp, #OFF_M]
        add     x12, x12, #8            /* m */
        add     x11, sp, #OFF_T + 16    /* T */
        mov     x6, x11
        lsr     x10, x5, #2
        mov     x13, x0
        cmp     xzr, xzr                /* C = 1: no borrow */
5:
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
        cbnz    x10, 5b
        /* keep T where T < m: the borrow set and T_n = 0 */
        ldr     x14, [x11]              /* T_n */
        cset    x15, cc                 /* borrow */
        bic     x15, x15, x14
        cmp     x15, #0                 /* ne: keep T */
        lsr     x10, x5, #2
        mov     x11, x6
        mov     x13, x0
6:
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
        cbnz    x10, 6b

        /* wipe the spills and T (64 + 8 (n + 4) bytes) */
        mov     x10, sp
        lsr     x9, x5, #1
        add     x9, x9, #6
7:
        stp     xzr, xzr, [x10], #16
        sub     x9, x9, #1
        cbnz    x9, 7b
        add     sp, sp, #STACK_SIZE
        .cfi_adjust_cfa_offset -STACK_SIZE
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
        .size   quill_mont_mul_arm64, .-quill_mont_mul_arm64

#endif

        .section .note.GNU-stack, "", %progbits
