/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The NEON backend of ML-DSA's 16-bit challenge products (core/mldsa/
 * ntt16.h: the NTT mod p = 7681 on pairs of polynomials), bit-identical to
 * the portable twins of core/mldsa/ntt16.c (ntt16_body.h on 8 lanes):
 *
 *   void quill_mldsa_ntt16_neon(quill_mldsa_pair16 *pair);
 *   void quill_mldsa_mulc16_prepare_neon(quill_mldsa_chal16 *m,
 *                                        const int32_t c[256]);
 *   void quill_mldsa_mulc16_neon(int32_t out[256], const quill_mldsa_chal16 *m,
 *                                const quill_mldsa_pair16 *s_hat,
 *                                unsigned shift);
 *
 * Inputs and secrecy: every coefficient is secret (the challenge c and m,
 * the pairs made from s1, s2 and t0, the products); the pointers, shift
 * (6 or 9 in signing) and the zeta table quill_mldsa_ntt16_tab (ntt16.c)
 * are public.  Bounds as in ntt16.h / ntt16_body.h.
 *
 * Layout: a pair's vector j is 16 bytes of each half at 32 j (half 0) and
 * 32 j + 16 (half 1), so one LDP/STP of two q registers moves vector j of
 * both halves and every step below runs on both halves (16 lanes, two
 * registers), like the AVX2 build; the NTT-domain order is ntt16_body.h's.
 *
 * Arithmetic (int16 lanes).  ntt16_body.h's mont16(a, z, zq) =
 * hi(a z) - hi(t p), t = a zq mod 2^16, is SQDMULH a z, MUL, SQDMULH t p,
 * SHSUB: a z and t p have equal low halves L, SQDMULH returns 2 hi + [L >=
 * 2^15] for both (no saturation: z, p and m are at most 7681 in absolute
 * value, never -2^15), so the halving difference is exactly hi(a z) -
 * hi(t p).  barrett16(a) = a - ((hi(a 17474) + 2^10) >> 11) p is SQDMULH by
 * 17474 (floor(a 17474 / 2^15)), SRSHR #12 (the rounding shift: floor((x
 * + 2^11) / 2^12) = floor((floor(x / 2) + 2^10) / 2^11)) and MLS by p
 * (wrapping mod 2^16 like the portable product).  The butterflies, the
 * transposes (TRN1/TRN2 at .8h, .4s, .2d: an 8 x 8 transpose of each half)
 * and the final a + 2^shift b (SXTL and SMLAL by 2^shift for shift <= 14;
 * SXTL, SSHL and ADD otherwise) compute the portable formulas on the same
 * operands, so every value is equal bit for bit (test_mldsa_neon and
 * test_mldsa_ntt16 compare them).
 *
 * Registers (AAPCS64): x0-x12 pointers and counters; v0 constants (h[0] =
 * p, h[1] = 17474, h[2] = 1912, h[3] = 1912 p^-1, h[4] = p^-1 mod 2^16,
 * h[7] = 2^shift), v1/v2 zetas of levels 1-5 and their products with p^-1
 * (by element), v3/v4 a row of zetas (levels 6-8), v5-v7 temporaries,
 * v8-v31 coefficients.  v8-v15, whose low halves d8-d15 are callee-saved,
 * are saved on the stack with x29/x30 (80 bytes) and restored; nothing is
 * kept on the stack but the caller's registers.  No memory is written but
 * the output (pair, m, or out, which is also mulc16's workspace as in the
 * portable code).
 *
 * Constant time: straight-line arithmetic on the coefficients; the only
 * branches are the loop counters (fixed trip counts) and the choice of the
 * final combination on shift (public); every address depends on the
 * pointers and loop counters only.  MUL, SQDMULH, SMLAL, MLS have
 * data-independent timing on Arm cores (DIT lists them).  Required CPU
 * feature: Advanced SIMD (dispatched on QUILL_CPU_ARM_NEON,
 * quill_mldsa_neon_capable()). */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

/* Byte offsets in quill_mldsa_ntt16_tab (checked in ntt16.c). */
#define TAB_TOP 0
#define TAB_TOP_Q 64
#define TAB_ROWS 128
#define TAB_ROWS_Q 576
#define TAB_INV_TOP 1024
#define TAB_INV_TOP_Q 1088
#define TAB_INV_ROWS 1152
#define TAB_INV_ROWS_Q 1600

        .section .rodata
        .p2align 4
/* v0's constants: p, round(2^27 / p), 2^32 / 256 mod p = 1912 and its
 * product with p^-1 mod 2^16, p^-1 mod 2^16 = 57857 (as int16). */
.Lconsts16:
        .hword  7681, 17474, 1912, (1912 * 57857) & 0xffff, 57857, 0, 0, 0

        .text

.macro FUNC name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
        .cfi_startproc
.endm

/* SAVE / RESTORE: x29, x30 and the callee-saved d8-d15. */
.macro SAVE
        stp     x29, x30, [sp, #-80]!
        .cfi_adjust_cfa_offset 80
        .cfi_rel_offset x29, 0
        .cfi_rel_offset x30, 8
        mov     x29, sp
        SAVE_D8_D15 16
.endm

.macro RESTORE
        RESTORE_D8_D15 16
        ldp     x29, x30, [sp], #80
        .cfi_adjust_cfa_offset -80
        .cfi_restore x29
        .cfi_restore x30
.endm

/* CONSTS: v0 (above); x9 = quill_mldsa_ntt16_tab. */
.macro CONSTS
        adrp    x9, .Lconsts16
        ldr     q0, [x9, :lo12:.Lconsts16]
        adrp    x9, quill_mldsa_ntt16_tab
        add     x9, x9, :lo12:quill_mldsa_ntt16_tab
.endm

/* MONT_E r, a, i: v<r> = mont16(v<a>, v1.h[i], v2.h[i]); temps v5, v6. */
.macro MONT_E r, a, i
        mul     v5.8h, v\a\().8h, v2.h[\i]
        sqdmulh v6.8h, v\a\().8h, v1.h[\i]
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v\r\().8h, v6.8h, v5.8h
.endm

/* MONT_V r, a, z, zq: v<r> = mont16(v<a>, v<z>, v<zq>); temps v5, v6. */
.macro MONT_V r, a, z, zq
        mul     v5.8h, v\a\().8h, v\zq\().8h
        sqdmulh v6.8h, v\a\().8h, v\z\().8h
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v\r\().8h, v6.8h, v5.8h
.endm

/* Forward (Cooley-Tukey) butterflies: t = mont16(y); y = x - t; x = x + t;
 * by the zeta v1.h[i] (FWD_E) or the row v3/v4 (FWD_V). */
.macro FWD_E x, y, i
        MONT_E  7, \y, \i
        sub     v\y\().8h, v\x\().8h, v7.8h
        add     v\x\().8h, v\x\().8h, v7.8h
.endm

.macro FWD_V x, y
        MONT_V  7, \y, 3, 4
        sub     v\y\().8h, v\x\().8h, v7.8h
        add     v\x\().8h, v\x\().8h, v7.8h
.endm

/* Inverse (Gentleman-Sande) butterflies: d = x - y; x = x + y;
 * y = mont16(d). */
.macro INV_E x, y, i
        sub     v7.8h, v\x\().8h, v\y\().8h
        add     v\x\().8h, v\x\().8h, v\y\().8h
        MONT_E  \y, 7, \i
.endm

.macro INV_V x, y
        sub     v7.8h, v\x\().8h, v\y\().8h
        add     v\x\().8h, v\x\().8h, v\y\().8h
        MONT_V  \y, 7, 3, 4
.endm

/* BAR x: v<x> = barrett16(v<x>); temp v5. */
.macro BAR x
        sqdmulh v5.8h, v\x\().8h, v0.h[1]
        srshr   v5.8h, v5.8h, #12
        mls     v\x\().8h, v5.8h, v0.h[0]
.endm

.macro BAR8 a, b, c, d, e, f, g, h
        BAR     \a
        BAR     \b
        BAR     \c
        BAR     \d
        BAR     \e
        BAR     \f
        BAR     \g
        BAR     \h
.endm

/* TR8: o<e> lane i = r<i> lane e (r0-r7 are clobbered). */
.macro TR8 r0, r1, r2, r3, r4, r5, r6, r7, o0, o1, o2, o3, o4, o5, o6, o7
        trn1    v\o0\().8h, v\r0\().8h, v\r1\().8h
        trn2    v\o1\().8h, v\r0\().8h, v\r1\().8h
        trn1    v\o2\().8h, v\r2\().8h, v\r3\().8h
        trn2    v\o3\().8h, v\r2\().8h, v\r3\().8h
        trn1    v\o4\().8h, v\r4\().8h, v\r5\().8h
        trn2    v\o5\().8h, v\r4\().8h, v\r5\().8h
        trn1    v\o6\().8h, v\r6\().8h, v\r7\().8h
        trn2    v\o7\().8h, v\r6\().8h, v\r7\().8h
        trn1    v\r0\().4s, v\o0\().4s, v\o2\().4s
        trn2    v\r2\().4s, v\o0\().4s, v\o2\().4s
        trn1    v\r1\().4s, v\o1\().4s, v\o3\().4s
        trn2    v\r3\().4s, v\o1\().4s, v\o3\().4s
        trn1    v\r4\().4s, v\o4\().4s, v\o6\().4s
        trn2    v\r6\().4s, v\o4\().4s, v\o6\().4s
        trn1    v\r5\().4s, v\o5\().4s, v\o7\().4s
        trn2    v\r7\().4s, v\o5\().4s, v\o7\().4s
        trn1    v\o0\().2d, v\r0\().2d, v\r4\().2d
        trn2    v\o4\().2d, v\r0\().2d, v\r4\().2d
        trn1    v\o1\().2d, v\r1\().2d, v\r5\().2d
        trn2    v\o5\().2d, v\r1\().2d, v\r5\().2d
        trn1    v\o2\().2d, v\r2\().2d, v\r6\().2d
        trn2    v\o6\().2d, v\r2\().2d, v\r6\().2d
        trn1    v\o3\().2d, v\r3\().2d, v\r7\().2d
        trn2    v\o7\().2d, v\r3\().2d, v\r7\().2d
.endm

/* TOPZ base, x4: v1/v2 = the level 3-5 zetas of group x4 from the table
 * (z at base, zq at base + 64): lanes 0-3 = entries 16 + 4 g .. 19 + 4 g
 * (level 5), lanes 4-5 = 8 + 2 g, 9 + 2 g (level 4), lane 6 = 4 + g
 * (level 3).  Clobbers x10-x12. */
.macro TOPZ base
        add     x10, x9, #(\base + 32)
        add     x10, x10, x4, lsl #3
        ld1     {v1.d}[0], [x10]
        add     x10, x10, #64
        ld1     {v2.d}[0], [x10]
        add     x11, x9, #(\base + 16)
        add     x11, x11, x4, lsl #2
        ld1     {v1.s}[2], [x11]
        add     x11, x11, #64
        ld1     {v2.s}[2], [x11]
        add     x12, x9, #(\base + 8)
        add     x12, x12, x4, lsl #1
        ld1     {v1.h}[6], [x12]
        add     x12, x12, #64
        ld1     {v2.h}[6], [x12]
.endm

/* ROW k: v3/v4 = row k of the group's zetas (x10 = z rows, x11 = zq). */
.macro ROW k
        ldr     q3, [x10, #(16 * \k)]
        ldr     q4, [x11, #(16 * \k)]
.endm

/* quill_mldsa_ntt16_core_neon: the forward transform of both halves of the
 * pair at x0, in place (ntt16_body.h's ntt16_body).  Needs v0 and x9
 * (CONSTS); clobbers x4-x12, v1-v31.  A local symbol (not .globl) called
 * with bl by the two entries below; no stack. */
        .type   quill_mldsa_ntt16_core_neon, %function
        .p2align 4
quill_mldsa_ntt16_core_neon:
        .cfi_startproc
        ldr     q1, [x9, #TAB_TOP]      /* zetas 1-3 in lanes 1-3 */
        ldr     q2, [x9, #TAB_TOP_Q]
        mov     x5, x0
        mov     x4, #8
1:      /* levels 1 and 2 on vectors j, j + 8, j + 16, j + 24 */
        ldp     q16, q20, [x5]
        ldp     q17, q21, [x5, #256]
        ldp     q18, q22, [x5, #512]
        ldp     q19, q23, [x5, #768]
        FWD_E   16, 18, 1
        FWD_E   20, 22, 1
        FWD_E   17, 19, 1
        FWD_E   21, 23, 1
        FWD_E   16, 17, 2
        FWD_E   20, 21, 2
        FWD_E   18, 19, 3
        FWD_E   22, 23, 3
        stp     q16, q20, [x5]
        stp     q17, q21, [x5, #256]
        stp     q18, q22, [x5, #512]
        stp     q19, q23, [x5, #768]
        add     x5, x5, #32
        subs    x4, x4, #1
        b.ne    1b

        mov     x5, x0
        mov     x4, #0
2:      /* group x4: vectors 8 g .. 8 g + 7, levels 3-8 */
        ldp     q16, q24, [x5]
        ldp     q17, q25, [x5, #32]
        ldp     q18, q26, [x5, #64]
        ldp     q19, q27, [x5, #96]
        ldp     q20, q28, [x5, #128]
        ldp     q21, q29, [x5, #160]
        ldp     q22, q30, [x5, #192]
        ldp     q23, q31, [x5, #224]
        TOPZ    TAB_TOP
        FWD_E   16, 20, 6               /* level 3 */
        FWD_E   17, 21, 6
        FWD_E   18, 22, 6
        FWD_E   19, 23, 6
        FWD_E   24, 28, 6
        FWD_E   25, 29, 6
        FWD_E   26, 30, 6
        FWD_E   27, 31, 6
        FWD_E   16, 18, 4               /* level 4 */
        FWD_E   17, 19, 4
        FWD_E   24, 26, 4
        FWD_E   25, 27, 4
        FWD_E   20, 22, 5
        FWD_E   21, 23, 5
        FWD_E   28, 30, 5
        FWD_E   29, 31, 5
        BAR8    16, 17, 18, 19, 20, 21, 22, 23
        BAR8    24, 25, 26, 27, 28, 29, 30, 31
        FWD_E   16, 17, 0               /* level 5 */
        FWD_E   24, 25, 0
        FWD_E   18, 19, 1
        FWD_E   26, 27, 1
        FWD_E   20, 21, 2
        FWD_E   28, 29, 2
        FWD_E   22, 23, 3
        FWD_E   30, 31, 3
        /* half 0 -> v8-v15, half 1 -> v16-v23 */
        TR8     16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15
        TR8     24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23
        mov     x10, #112
        mul     x10, x4, x10
        add     x10, x10, x9
        add     x11, x10, #TAB_ROWS_Q
        add     x10, x10, #TAB_ROWS
        ROW     0                       /* level 6 */
        FWD_V   8, 12
        FWD_V   9, 13
        FWD_V   10, 14
        FWD_V   11, 15
        FWD_V   16, 20
        FWD_V   17, 21
        FWD_V   18, 22
        FWD_V   19, 23
        ROW     1                       /* level 7 */
        FWD_V   8, 10
        FWD_V   9, 11
        FWD_V   16, 18
        FWD_V   17, 19
        ROW     2
        FWD_V   12, 14
        FWD_V   13, 15
        FWD_V   20, 22
        FWD_V   21, 23
        ROW     3                       /* level 8 */
        FWD_V   8, 9
        FWD_V   16, 17
        ROW     4
        FWD_V   10, 11
        FWD_V   18, 19
        ROW     5
        FWD_V   12, 13
        FWD_V   20, 21
        ROW     6
        FWD_V   14, 15
        FWD_V   22, 23
        stp     q8, q16, [x5]
        stp     q9, q17, [x5, #32]
        stp     q10, q18, [x5, #64]
        stp     q11, q19, [x5, #96]
        stp     q12, q20, [x5, #128]
        stp     q13, q21, [x5, #160]
        stp     q14, q22, [x5, #192]
        stp     q15, q23, [x5, #224]
        add     x5, x5, #256
        add     x4, x4, #1
        cmp     x4, #4
        b.ne    2b
        ret
        .cfi_endproc
        .size   quill_mldsa_ntt16_core_neon, . - quill_mldsa_ntt16_core_neon

/* void quill_mldsa_ntt16_neon(quill_mldsa_pair16 *pair) */
FUNC quill_mldsa_ntt16_neon
        SAVE
        CONSTS
        bl      quill_mldsa_ntt16_core_neon
        RESTORE
        ret
        .cfi_endproc
        .size   quill_mldsa_ntt16_neon, . - quill_mldsa_ntt16_neon

/* void quill_mldsa_mulc16_prepare_neon(quill_mldsa_chal16 *m,
 *                                      const int32_t c[256])
 * m->m as the workspace: the low halves of c in both halves, the forward
 * transform, then m = mont16(c_hat, 1912), mq = m p^-1 mod 2^16. */
FUNC quill_mldsa_mulc16_prepare_neon
        SAVE
        CONSTS
        mov     x5, x0
        mov     x4, #32
1:      ldp     q16, q17, [x1], #32
        uzp1    v18.8h, v16.8h, v17.8h  /* the low halves (narrow8) */
        stp     q18, q18, [x5], #32
        subs    x4, x4, #1
        b.ne    1b
        bl      quill_mldsa_ntt16_core_neon
        mov     x5, x0                  /* m->m */
        add     x6, x0, #1024           /* m->mq */
        mov     x4, #16
2:      ldp     q16, q17, [x5]
        ldp     q18, q19, [x5, #32]
        mul     v5.8h, v16.8h, v0.h[3]
        sqdmulh v6.8h, v16.8h, v0.h[2]
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v16.8h, v6.8h, v5.8h
        mul     v5.8h, v17.8h, v0.h[3]
        sqdmulh v6.8h, v17.8h, v0.h[2]
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v17.8h, v6.8h, v5.8h
        mul     v5.8h, v18.8h, v0.h[3]
        sqdmulh v6.8h, v18.8h, v0.h[2]
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v18.8h, v6.8h, v5.8h
        mul     v5.8h, v19.8h, v0.h[3]
        sqdmulh v6.8h, v19.8h, v0.h[2]
        sqdmulh v5.8h, v5.8h, v0.h[0]
        shsub   v19.8h, v6.8h, v5.8h
        mul     v20.8h, v16.8h, v0.h[4]
        mul     v21.8h, v17.8h, v0.h[4]
        mul     v22.8h, v18.8h, v0.h[4]
        mul     v23.8h, v19.8h, v0.h[4]
        stp     q16, q17, [x5]
        stp     q18, q19, [x5, #32]
        stp     q20, q21, [x6]
        stp     q22, q23, [x6, #32]
        add     x5, x5, #64
        add     x6, x6, #64
        subs    x4, x4, #1
        b.ne    2b
        RESTORE
        ret
        .cfi_endproc
        .size   quill_mldsa_mulc16_prepare_neon, . - quill_mldsa_mulc16_prepare_neon

/* COMBINE_S g: out vector j + 8 g = sxtl(v<16+g>) + 2^shift sxtl(v<20+g>)
 * by SMLAL with v0.h[7] = 2^shift (shift <= 14); x5 = out + 32 j. */
.macro COMBINE_S a, b, off
        sxtl    v24.4s, v\a\().4h
        sxtl2   v25.4s, v\a\().8h
        smlal   v24.4s, v\b\().4h, v0.h[7]
        smlal2  v25.4s, v\b\().8h, v0.h[7]
        stp     q24, q25, [x5, #\off]
.endm

/* COMBINE_L: the same by SSHL with v4 = shift in every 32-bit lane. */
.macro COMBINE_L a, b, off
        sxtl    v24.4s, v\a\().4h
        sxtl2   v25.4s, v\a\().8h
        sxtl    v26.4s, v\b\().4h
        sxtl2   v27.4s, v\b\().8h
        sshl    v26.4s, v26.4s, v4.4s
        sshl    v27.4s, v27.4s, v4.4s
        add     v24.4s, v24.4s, v26.4s
        add     v25.4s, v25.4s, v27.4s
        stp     q24, q25, [x5, #\off]
.endm

/* COLUMN: levels 2 and 1 and the final reduction of vectors j, j + 8,
 * j + 16, j + 24 (x5 = out + 32 j): half 0 in v16-v19, half 1 in v20-v23
 * (ntt16_body.h's inv16_column); v1/v2 = inv_top[0..7]. */
.macro COLUMN
        ldp     q16, q20, [x5]
        ldp     q17, q21, [x5, #256]
        ldp     q18, q22, [x5, #512]
        ldp     q19, q23, [x5, #768]
        INV_E   16, 17, 2               /* level 2 */
        INV_E   20, 21, 2
        INV_E   18, 19, 3
        INV_E   22, 23, 3
        INV_E   16, 18, 1               /* level 1 */
        INV_E   17, 19, 1
        INV_E   20, 22, 1
        INV_E   21, 23, 1
        BAR8    16, 17, 18, 19, 20, 21, 22, 23
.endm

/* void quill_mldsa_mulc16_neon(int32_t out[256], const quill_mldsa_chal16 *m,
 *                              const quill_mldsa_pair16 *s_hat, unsigned shift)
 * x0 = out (the pair workspace, then the result), x1 = m->m, x2 = s_hat,
 * w3 = shift. */
FUNC quill_mldsa_mulc16_neon
        SAVE
        CONSTS
        mov     w10, #1
        lsl     w10, w10, w3
        mov     v0.h[7], w10            /* 2^shift (used for shift <= 14) */
        mov     w8, w3                  /* shift */
        add     x3, x1, #1024           /* m->mq */
        mov     x5, x0
        mov     x4, #0
1:      /* group x4: the pointwise product and levels 8-3 */
        ldp     q16, q24, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  16, 16, 8, 10
        MONT_V  24, 24, 9, 11
        ldp     q17, q25, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  17, 17, 8, 10
        MONT_V  25, 25, 9, 11
        ldp     q18, q26, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  18, 18, 8, 10
        MONT_V  26, 26, 9, 11
        ldp     q19, q27, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  19, 19, 8, 10
        MONT_V  27, 27, 9, 11
        ldp     q20, q28, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  20, 20, 8, 10
        MONT_V  28, 28, 9, 11
        ldp     q21, q29, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  21, 21, 8, 10
        MONT_V  29, 29, 9, 11
        ldp     q22, q30, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  22, 22, 8, 10
        MONT_V  30, 30, 9, 11
        ldp     q23, q31, [x2], #32
        ldp     q8, q9, [x1], #32
        ldp     q10, q11, [x3], #32
        MONT_V  23, 23, 8, 10
        MONT_V  31, 31, 9, 11
        mov     x10, #112
        mul     x10, x4, x10
        add     x10, x10, x9
        add     x11, x10, #TAB_INV_ROWS_Q
        add     x10, x10, #TAB_INV_ROWS
        ROW     3                       /* level 8 */
        INV_V   16, 17
        INV_V   24, 25
        ROW     4
        INV_V   18, 19
        INV_V   26, 27
        ROW     5
        INV_V   20, 21
        INV_V   28, 29
        ROW     6
        INV_V   22, 23
        INV_V   30, 31
        ROW     1                       /* level 7 */
        INV_V   16, 18
        INV_V   17, 19
        INV_V   24, 26
        INV_V   25, 27
        ROW     2
        INV_V   20, 22
        INV_V   21, 23
        INV_V   28, 30
        INV_V   29, 31
        BAR8    16, 17, 18, 19, 20, 21, 22, 23
        BAR8    24, 25, 26, 27, 28, 29, 30, 31
        ROW     0                       /* level 6 */
        INV_V   16, 20
        INV_V   17, 21
        INV_V   18, 22
        INV_V   19, 23
        INV_V   24, 28
        INV_V   25, 29
        INV_V   26, 30
        INV_V   27, 31
        /* half 0 -> v8-v15, half 1 -> v16-v23 */
        TR8     16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15
        TR8     24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23
        TOPZ    TAB_INV_TOP
        INV_E   8, 9, 0                 /* level 5 */
        INV_E   16, 17, 0
        INV_E   10, 11, 1
        INV_E   18, 19, 1
        INV_E   12, 13, 2
        INV_E   20, 21, 2
        INV_E   14, 15, 3
        INV_E   22, 23, 3
        INV_E   8, 10, 4                /* level 4 */
        INV_E   9, 11, 4
        INV_E   16, 18, 4
        INV_E   17, 19, 4
        INV_E   12, 14, 5
        INV_E   13, 15, 5
        INV_E   20, 22, 5
        INV_E   21, 23, 5
        BAR8    8, 9, 10, 11, 12, 13, 14, 15
        BAR8    16, 17, 18, 19, 20, 21, 22, 23
        INV_E   8, 12, 6                /* level 3 */
        INV_E   9, 13, 6
        INV_E   10, 14, 6
        INV_E   11, 15, 6
        INV_E   16, 20, 6
        INV_E   17, 21, 6
        INV_E   18, 22, 6
        INV_E   19, 23, 6
        stp     q8, q16, [x5]
        stp     q9, q17, [x5, #32]
        stp     q10, q18, [x5, #64]
        stp     q11, q19, [x5, #96]
        stp     q12, q20, [x5, #128]
        stp     q13, q21, [x5, #160]
        stp     q14, q22, [x5, #192]
        stp     q15, q23, [x5, #224]
        add     x5, x5, #256
        add     x4, x4, #1
        cmp     x4, #4
        b.ne    1b

        /* levels 2 and 1 by columns, then out = a + 2^shift b in place */
        ldr     q1, [x9, #TAB_INV_TOP]
        ldr     q2, [x9, #TAB_INV_TOP_Q]
        mov     x5, x0
        mov     x4, #8
        cmp     w8, #14
        b.hi    3f
2:      COLUMN
        COMBINE_S 16, 20, 0
        COMBINE_S 17, 21, 256
        COMBINE_S 18, 22, 512
        COMBINE_S 19, 23, 768
        add     x5, x5, #32
        subs    x4, x4, #1
        b.ne    2b
        .cfi_remember_state
        RESTORE
        ret
        .cfi_restore_state
3:      dup     v4.4s, w8
4:      COLUMN
        COMBINE_L 16, 20, 0
        COMBINE_L 17, 21, 256
        COMBINE_L 18, 22, 512
        COMBINE_L 19, 23, 768
        add     x5, x5, #32
        subs    x4, x4, #1
        b.ne    4b
        RESTORE
        ret
        .cfi_endproc
        .size   quill_mldsa_mulc16_neon, . - quill_mldsa_mulc16_neon

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
