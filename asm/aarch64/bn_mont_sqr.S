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
 * Algorithm, on a 2n-word T in the stack frame (zeroed first):
 *  1. cross products outside the 4 x 4 diagonal tiles: for each block I
 *     of four words of a, rows 4I, 4I + 1 and then rows 4I + 2, 4I + 3
 *     times A = a_{4I+4} .. a_{n-1} (L = n - 4I - 4 words), two rows per
 *     pass over the window T[w .. w + L + 1] (w = 8I + 4, 8I + 6): blocks
 *     of four columns whose words stay in registers, row 0 adding
 *     A_{4k..4k+3} y0, row 1 one word behind adding A_{4k-1..4k+2} y1
 *     (the first block has no A_{-1}); each row's products go in by two
 *     ADCS chains (low words, then high words one column up with the
 *     row's carry word: T + A y + c < 2^320, so the carry word never
 *     overflows); the last two columns take the carry words and row 1's
 *     product of A_{L-1}.  The window's top two words are fresh, so
 *     nothing carries out of it;
 *  2. T = 2 (T + X) + D, eight columns per block of a: X = the six cross
 *     products inside the block's diagonal tile (X < 2^449), D = its four
 *     squares; three ADCS chains (T + X, doubling as T + T, + D) whose
 *     carries between blocks wait in registers (x26, x27, x28; SUBS from
 *     the register restores C).  T = a^2 < 2^(128 n), nothing carries out;
 *  3. Montgomery reduction two rows per pass, pass i = 0, 2, .. over
 *     T[i .. i + n + 1] with A = m and the multipliers computed in the
 *     first block: u_i = T_i n0, and u_{i+1} = (column i + 1 after row i)
 *     n0 (mod 2^64); the pass adds m (u_i + 2^64 u_{i+1}) and the carry bit
 *     x26 of the pass below (into column i + n), and its own carry out of
 *     column i + n + 1 (0 or 1: the window plus the addend is below
 *     2^(64 (n + 2) + 1)) becomes x26.  Afterwards T[n .. 2n - 1] +
 *     2^(64 n) x26 = a^2 R^-1 mod m + (0 or m) < 2m;
 *  4. r = T - m by an SBCS chain (flags kept across the loop: ADD, SUB and
 *     CBNZ do not touch them), then r = T where T < m (borrow set and
 *     x26 = 0) by CSEL on one flag, T[n .. 2n - 1] overwritten with zeros
 *     on the way (the reduction leaves T[0 .. n - 1] zero: it stores
 *     column i as T_i + m_0 u_i + .., 0 mod 2^64 by the choice of u_i).
 *
 * Constant time: every loop bound and every address depends only on n, the
 * block and pass indices and the pointers (public); the data enter only
 * MUL, UMULH, ADDS/ADCS/ADC, SUBS/SBCS, CSET/BIC and CSEL; no branch tests
 * data.
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = m, x3 = n0, x4 = n.
 * Saves and restores x19-x30; no calls; no SIMD registers.  Stack: 96
 * bytes of saved registers, then a fixed frame of 4176 bytes (64 bytes of
 * spills: the pointers r and a, then T[0 .. 2n - 1]); T depends on secrets
 * and is all zero on return (see 4).  Registers in a pass: x0 = &A[4k] - 8,
 * x2 = &T[w + 4k], x3/x4 = the two rows' multipliers (a words or u), x7-x10
 * A words, x15/x16/x17/x19 T words, x20-x24 products, x25/x27 the rows'
 * carry words, x26 carry bit, x29 blocks left; x11 = &a[4I], x12 = m,
 * x13 = n0, x14 = n, x28/x30 pass state.  Phase 2 also uses x1, x3-x6,
 * x11 and x30 as temporaries.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

#define OFF_R 0
#define OFF_A 8
#define OFF_T 64
/* 64 + 8 (2 QUILL_BN_MAX_LIMBS + 2) bytes */
#define STACK_HI 4096
#define STACK_LO 80

/* PROW0 first: row 0 of a pair on the block's words W = x15, x16, x17, x19
 * (columns 4k..4k+3 of the window): W += x3 A_{4k..4k+3} (x7-x10) + x25;
 * x25 = the new carry word (first: no carry word in). */
.macro PROW0 first
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
        adds    x16, x16, x20
.else
        adds    x15, x15, x25
        adcs    x16, x16, x20
.endif
        adcs    x17, x17, x21
        adcs    x19, x19, x22
        adc     x25, x24, xzr
.endm

/* PROW1 first: row 1 of a pair, one word behind: W += x4 A_{4k-1..4k+2}
 * (x10 reloaded with A_{4k-1}, x7-x9) + x27; x27 = the new carry word.
 * With first, A_{-1} = 0 and there is no carry word in. */
.macro PROW1 first
.if !\first
        mul     x20, x10, x4
.endif
        mul     x21, x7, x4
        mul     x22, x8, x4
        mul     x23, x9, x4
        umulh   x24, x9, x4
.if \first
        adds    x16, x16, x21
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
        adds    x17, x17, x21
.else
        adds    x15, x15, x27
        adcs    x16, x16, x20
        adcs    x17, x17, x21
.endif
        adcs    x19, x19, x22
        adc     x27, x24, xzr
.endm

/* PBLK first, red: columns 4k..4k+3 of the window for both rows of a pair.
 * x0 = &A[4k] - 8, x2 = &T[w + 4k]; the words go back in place.  With red
 * and first, the multipliers are the Montgomery factors, computed here:
 * x3 = u_i = T_i n0 and, after row 0, x4 = u_{i+1} = (column 1) n0.
 * Advances x0 and x2 by 32. */
.macro PBLK first, red
        ldp     x7, x8, [x0, #8]
        ldp     x9, x10, [x0, #24]
        ldp     x15, x16, [x2]
        ldp     x17, x19, [x2, #16]
.if \first && \red
        mul     x3, x15, x13
.endif
        PROW0   \first
.if !\first
        ldr     x10, [x0]
.endif
.if \first && \red
        mul     x4, x16, x13
.endif
        add     x0, x0, #32
        PROW1   \first
        stp     x15, x16, [x2]
        stp     x17, x19, [x2, #16]
        add     x2, x2, #32
.endm

/* PASS red, len: T[w .. w + len + 1] += (x3 + 2^64 x4) A[0 .. len - 1] +
 * 2^(64 len) x26 (len a multiple of 4, in register len), x0 = A - 8,
 * x2 = &T[w]; x26 = the carry out of column w + len + 1 (0 or 1). */
.macro PASS red, len
        lsr     x29, \len, #2
        PBLK    1, \red
        sub     x29, x29, #1
        cbz     x29, 2f
1:
        PBLK    0, \red
        sub     x29, x29, #1
        cbnz    x29, 1b
2:
        /* columns len and len + 1: row 0's carry word, row 1's product of
         * A_{len-1} and its carry word, the carry bit in */
        ldp     x15, x16, [x2]
        ldr     x10, [x0]
        mul     x20, x10, x4
        umulh   x21, x10, x4
        adds    x15, x15, x25
        adcs    x16, x16, xzr
        adc     x17, xzr, xzr
        adds    x15, x15, x27
        adcs    x16, x16, xzr
        adc     x17, x17, xzr
        adds    x15, x15, x20
        adcs    x16, x16, x21
        adc     x17, x17, xzr
        adds    x15, x15, x26
        adcs    x16, x16, xzr
        adc     x26, x17, xzr
        stp     x15, x16, [x2]
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
        str     x1, [sp, #OFF_A]
        mov     x11, x1                 /* a */
        mov     x12, x2                 /* m */
        mov     x13, x3                 /* n0 */
        mov     x14, x4                 /* n */
        /* zero T[0 .. 2n - 1] */
        add     x10, sp, #OFF_T
        lsr     x9, x14, #2
1:
        stp     xzr, xzr, [x10]
        stp     xzr, xzr, [x10, #16]
        stp     xzr, xzr, [x10, #32]
        stp     xzr, xzr, [x10, #48]
        add     x10, x10, #64
        sub     x9, x9, #1
        cbnz    x9, 1b

        /* 1. off-diagonal products outside the 4 x 4 diagonal tiles: for
         * each block I of four words, the rows 4I, 4I + 1 (window
         * T[8I + 4 ..]) and 4I + 2, 4I + 3 (window T[8I + 6 ..]) times
         * a_{4I + 4} .. a_{n-1} (L = n - 4I - 4 words) */
        mov     x26, xzr                /* no carry bit: the windows end in fresh words */
        add     x30, sp, #OFF_T + 32    /* &T[8I + 4] */
        sub     x28, x14, #4            /* L */
        cbz     x28, 4f
3:
        ldp     x3, x4, [x11]           /* a_{4I}, a_{4I+1} */
        add     x0, x11, #24            /* &a[4I + 4] - 8 */
        mov     x2, x30
        PASS    0, x28
        ldp     x3, x4, [x11, #16]      /* a_{4I+2}, a_{4I+3} */
        add     x0, x11, #24
        add     x2, x30, #16
        PASS    0, x28
        add     x11, x11, #32
        add     x30, x30, #64
        sub     x28, x28, #4
        cbnz    x28, 3b
4:
        /* 2. T = 2 (T + the diagonal tiles' cross products) + the squares,
         * eight columns (one block of a) at a time; the carries between
         * blocks in registers: x26 (T + X), x27 (the doubling), x28 (the
         * squares) */
        ldr     x0, [sp, #OFF_A]
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

        /* 3. Montgomery reduction, two rows (i, i + 1) per pass over
         * T[i .. i + n + 1], the carry bit x26 one column above the pass */
        add     x30, sp, #OFF_T         /* &T[i] */
        lsr     x28, x14, #1
        mov     x26, xzr
6:
        sub     x0, x12, #8
        mov     x2, x30
        PASS    1, x14
        add     x30, x30, #16
        sub     x28, x28, #1
        cbnz    x28, 6b

        /* 4. r = T[n ..] - m, then r = T where T < m, wiping T[n ..] (the
         * reduction left zeros in T[0 .. n - 1]: column i is T_i + m_0 u_i
         * = 0 mod 2^64 when row i stores it) */
        ldr     x0, [sp, #OFF_R]
        add     x11, sp, #OFF_T
        add     x11, x11, x14, lsl #3   /* &T[n] */
        mov     x6, x11
        lsr     x10, x14, #2
        mov     x13, x0
        mov     x9, x12                 /* m */
        cmp     xzr, xzr                /* C = 1: no borrow */
10:
        ldp     x15, x16, [x11]
        ldp     x17, x19, [x11, #16]
        ldp     x20, x21, [x9]
        ldp     x22, x23, [x9, #16]
        add     x11, x11, #32
        add     x9, x9, #32
        sbcs    x15, x15, x20
        sbcs    x16, x16, x21
        sbcs    x17, x17, x22
        sbcs    x19, x19, x23
        stp     x15, x16, [x13]
        stp     x17, x19, [x13, #16]
        add     x13, x13, #32
        sub     x10, x10, #1
        cbnz    x10, 10b
        cset    x15, cc                 /* borrow */
        bic     x15, x15, x26
        cmp     x15, #0                 /* ne: keep T */
        lsr     x10, x14, #2
        mov     x11, x6
        mov     x13, x0
11:
        ldp     x15, x16, [x11]
        ldp     x17, x19, [x11, #16]
        ldp     x20, x21, [x13]
        ldp     x22, x23, [x13, #16]
        stp     xzr, xzr, [x11]
        stp     xzr, xzr, [x11, #16]
        add     x11, x11, #32
        csel    x20, x15, x20, ne
        csel    x21, x16, x21, ne
        csel    x22, x17, x22, ne
        csel    x23, x19, x23, ne
        stp     x20, x21, [x13]
        stp     x22, x23, [x13, #16]
        add     x13, x13, #32
        sub     x10, x10, #1
        cbnz    x10, 11b
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
