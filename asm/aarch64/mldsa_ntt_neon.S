/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The NEON backend of ML-DSA's polynomial arithmetic (core/mldsa/ntt.h),
 * bit-identical to the portable twins of core/mldsa/ntt_c.c:
 *
 *   void quill_mldsa_ntt_neon(int32_t a[256]);
 *   void quill_mldsa_invntt_tomont_neon(int32_t a[256]);
 *   void quill_mldsa_invntt_tomont_freeze_neon(int32_t a[256]);
 *   void quill_mldsa_pointwise_mont_neon(int32_t c[256], const int32_t a[256],
 *                                        const int32_t b[256]);
 *   void quill_mldsa_dot_mont_neon(int32_t r[256], const int32_t *a,
 *                                  const int32_t *b, unsigned n);
 *
 * Inputs and secrecy: every coefficient may be secret (s1, s2, t0, y, the
 * signature's intermediates); the pointers, n (l of the parameter set) and
 * the zeta table quill_mldsa_neon_zetas (core/mldsa/ntt_neon_tab.c) are
 * public.  Bounds as in ntt.h.
 *
 * Montgomery products.  By a zeta (the transforms), ntt_c.c's unsigned
 * form: A = a + 256 q in (0, 2^32), zp = z mod q, zq = zp q^-1 mod 2^32,
 * T = A zq mod 2^32, r = (A zp - T q) / 2^32 (exact: the low halves
 * cancel): UMULL/UMULL2 A zp into 64-bit lanes, MUL for T, UMLSL/UMLSL2
 * T q, UZP2 of the high halves: six instructions per four products.  The
 * SQDMULH route (SQDMULH, MUL, SQDMULH, SHSUB: four) gives the signed form
 * (a zp - t q) / 2^32 with t = T taken signed, which differs from the
 * portable value by zp [A >= 2^31] - q [T >= 2^31]; its correction costs
 * six more instructions, ten in all against six, so the transforms use
 * the widening form.  Between two vectors (pointwise), the portable value
 * is quill_mldsa_mont_mul's signed one, (a b - t q) / 2^32 with t = a b
 * q^-1 mod 2^32 signed: SQDMULH gives 2 hi(a b) + e and 2 hi(t q) + e with
 * the same e (the low halves of a b and t q are equal), so SHSUB of the
 * two is exactly hi(a b) - hi(t q): five instructions per four products
 * (SQDMULH, MUL, MUL, SQDMULH, SHSUB) against seven for the widening form;
 * SQDMULH saturates only for INT32_MIN * INT32_MIN, outside the bounds
 * (|a b| < 2^31 q).  The dot product keeps its exact 64-bit sums (SMLAL,
 * SMLAL2) and reduces once as quill_mldsa_mont_reduce: UZP1 (the low
 * halves), MUL by q^-1, SMLSL/SMLSL2 by q, UZP2.
 *
 * Layout and order: ntt_c.c's.  The forward transform does levels 1-3
 * (distances 128, 64, 32) on eight columns of eight vectors a[j + 32 i],
 * then levels 4-5 on each chunk of 64 coefficients in sixteen registers,
 * the 8 x 8 transposes (TRN1/TRN2 on .4s and .2d) and levels 6-8 on rows
 * with a zeta per lane; values are held biased by 256 q from the first
 * load to the last store (ntt_c.c's fwd_bf).  The inverse runs levels 8-3
 * per chunk, then levels 2 and 1 fused with the scaling (INVNTT_F,
 * INVNTT_F_Z1) on columns a[j + 64 i], with CADDQ (CMLT, AND, ADD) in the
 * _freeze variant.  Every butterfly computes the portable code's formula
 * on the same operands, so the results are equal bit for bit
 * (test_mldsa_neon compares them).
 *
 * Registers (AAPCS64): x0-x7 pointers and counters; v0-v7 temporaries,
 * v8-v13 zetas, v14 = q in every lane, v15 = 256 q in every lane, v16-v31
 * coefficients.  The transforms use v8-v15, whose low halves d8-d15 are
 * callee-saved: they are saved on the stack and restored (64 bytes); the
 * products use v0-v7 and v16-v31 only.  No other memory is written but the
 * output polynomial.
 *
 * Constant time: straight-line arithmetic on the coefficients; the only
 * branches are the loop counters (fixed trip counts, and n, public) and
 * every address depends on the pointers and loop counters only, never on
 * a coefficient.  UMULL, MUL, SQDMULH, SMLAL have data-independent timing
 * on Arm cores (DIT lists them).  Required CPU feature: Advanced SIMD
 * (dispatched on QUILL_CPU_ARM_NEON, quill_mldsa_neon_capable()). */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

#define Q 8380417            /* 0x7fe001 */
#define QINV 58728449        /* q^-1 mod 2^32, 0x3802001 */
#define BIAS 2145386752      /* 256 q, 0x7fe00100 */

/* Byte offsets in quill_mldsa_neon_zeta_table (checked in ntt_neon_tab.c). */
#define TAB_FWD_ZP 0
#define TAB_FWD_ZQ 128
#define TAB_FWD_ROWS_ZP 256
#define TAB_FWD_ROWS_ZQ 1152
#define TAB_INV_ZP 2048
#define TAB_INV_ZQ 2176
#define TAB_INV_ROWS_ZP 2304
#define TAB_INV_ROWS_ZQ 3200
#define TAB_SCALE 4096

        .text

/* FUNC name: a global hidden function symbol. */
.macro FUNC name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
.endm

/* CONSTS: v14 = q, v15 = 256 q in every lane; x1 = the zeta table. */
.macro CONSTS
        mov     w9, #(Q & 0xffff)
        movk    w9, #(Q >> 16), lsl #16
        dup     v14.4s, w9
        mov     w9, #(BIAS & 0xffff)
        movk    w9, #(BIAS >> 16), lsl #16
        dup     v15.4s, w9
        adrp    x1, quill_mldsa_neon_zetas
        add     x1, x1, :lo12:quill_mldsa_neon_zetas
.endm

/* MONT_E r, a, z, i, zq, j, t0, t1, t2: v<r> = the unsigned Montgomery
 * product of v<a> (biased: A in [0, 2^32)) by the zeta with zp = v<z>.s[i]
 * and zq = v<zq>.s[j]; t0-t2 temporaries (r may be t0). */
.macro MONT_E r, a, z, i, zq, j, t0, t1, t2
        umull   v\t0\().2d, v\a\().2s, v\z\().s[\i]
        umull2  v\t1\().2d, v\a\().4s, v\z\().s[\i]
        mul     v\t2\().4s, v\a\().4s, v\zq\().s[\j]
        umlsl   v\t0\().2d, v\t2\().2s, v14.s[0]
        umlsl2  v\t1\().2d, v\t2\().4s, v14.s[0]
        uzp2    v\r\().4s, v\t0\().4s, v\t1\().4s
.endm

/* MONT_V: the same with a zeta per lane, zp = v<z>, zq = v<zq>. */
.macro MONT_V r, a, z, zq, t0, t1, t2
        umull   v\t0\().2d, v\a\().2s, v\z\().2s
        umull2  v\t1\().2d, v\a\().4s, v\z\().4s
        mul     v\t2\().4s, v\a\().4s, v\zq\().4s
        umlsl   v\t0\().2d, v\t2\().2s, v14.s[0]
        umlsl2  v\t1\().2d, v\t2\().4s, v14.s[0]
        uzp2    v\r\().4s, v\t0\().4s, v\t1\().4s
.endm

/* Forward butterflies on biased values (ntt_c.c's fwd_bf):
 * (lo, hi) -> (lo + z hi, lo - z hi), the product of the biased hi.
 * FBF_E: a single zeta by element; FBF_V: a zeta per lane.  Temporaries
 * v<t>, v<u>, v<w> (the product lands in v<t>). */
.macro FBF_E lo, hi, z, i, zq, j, t, u, w
        MONT_E  \t, \hi, \z, \i, \zq, \j, \t, \u, \w
        sub     v\hi\().4s, v\lo\().4s, v\t\().4s
        add     v\lo\().4s, v\lo\().4s, v\t\().4s
.endm

.macro FBF_V lo, hi, z, zq, t, u, w
        MONT_V  \t, \hi, \z, \zq, \t, \u, \w
        sub     v\hi\().4s, v\lo\().4s, v\t\().4s
        add     v\lo\().4s, v\lo\().4s, v\t\().4s
.endm

/* Inverse butterflies (ntt_c.c's inv_bf): (lo, hi) -> (lo + hi,
 * z (lo - hi)), z a negated zeta, the difference biased by 256 q. */
.macro IBF_E lo, hi, z, i, zq, j, t, u, w
        sub     v\t\().4s, v\lo\().4s, v\hi\().4s
        add     v\lo\().4s, v\lo\().4s, v\hi\().4s
        add     v\t\().4s, v\t\().4s, v15.4s
        MONT_E  \hi, \t, \z, \i, \zq, \j, \u, \w, \t
.endm

.macro IBF_V lo, hi, z, zq, t, u, w
        sub     v\t\().4s, v\lo\().4s, v\hi\().4s
        add     v\lo\().4s, v\lo\().4s, v\hi\().4s
        add     v\t\().4s, v\t\().4s, v15.4s
        MONT_V  \hi, \t, \z, \zq, \u, \w, \t
.endm

/* TR4 a, b, c, d: 4 x 4 transpose in place (element j of v<a + k> <->
 * element k of v<a + j>, the four registers given in order). */
.macro TR4 a, b, c, d
        trn1    v0.4s, v\a\().4s, v\b\().4s
        trn2    v1.4s, v\a\().4s, v\b\().4s
        trn1    v2.4s, v\c\().4s, v\d\().4s
        trn2    v3.4s, v\c\().4s, v\d\().4s
        trn1    v\a\().2d, v0.2d, v2.2d
        trn2    v\c\().2d, v0.2d, v2.2d
        trn1    v\b\().2d, v1.2d, v3.2d
        trn2    v\d\().2d, v1.2d, v3.2d
.endm

/* TR_CHUNK: the 8 x 8 transposes of a chunk in v16-v31 (ntt_c.c's
 * transpose_half on each half): natural order w[k] = v<16 + k> (block i =
 * w[2i], w[2i + 1]) <-> row p of blocks 0-3 in v<16 + ROW(p)> and of
 * blocks 4-7 in v<24 + ROW(p)>, ROW(p) = 2 (p mod 4) + p / 4. */
.macro TR_CHUNK
        TR4     16, 18, 20, 22
        TR4     17, 19, 21, 23
        TR4     24, 26, 28, 30
        TR4     25, 27, 29, 31
.endm

/* BIAS16 op: op (add or sub) 256 q on v16-v31. */
.macro BIAS1 op, r
        \op     v\r\().4s, v\r\().4s, v15.4s
.endm

.macro BIAS16 op
        BIAS8   \op, 16
        BIAS8   \op, 24
.endm

/* BIAS8 op, r: op 256 q on v<r> .. v<r + 7> (r = 16 or 24). */
.macro BIAS8 op, r
        .if \r == 16
        BIAS1   \op, 16
        BIAS1   \op, 17
        BIAS1   \op, 18
        BIAS1   \op, 19
        BIAS1   \op, 20
        BIAS1   \op, 21
        BIAS1   \op, 22
        BIAS1   \op, 23
        .else
        BIAS1   \op, 24
        BIAS1   \op, 25
        BIAS1   \op, 26
        BIAS1   \op, 27
        BIAS1   \op, 28
        BIAS1   \op, 29
        BIAS1   \op, 30
        BIAS1   \op, 31
        .endif
.endm

/* CADDQ r: v<r> + q where v<r> is negative (v0 a temporary). */
.macro CADDQ r
        cmlt    v0.4s, v\r\().4s, #0
        and     v0.16b, v0.16b, v14.16b
        add     v\r\().4s, v\r\().4s, v0.4s
.endm

/* ---- quill_mldsa_ntt_neon(x0 = a) ---- */
FUNC quill_mldsa_ntt_neon
        .cfi_startproc
        PUSH_D8_D15
        CONSTS
        /* Levels 1-3 on columns j (x2 = a + j, 8 of them): v<16 + i> =
         * a[j + 32 i]; zetas 1-7 by element from v8 (zp 0-3), v9 (zp 4-7),
         * v10, v11 (zq). */
        ldp     q8, q9, [x1, #TAB_FWD_ZP]
        ldp     q10, q11, [x1, #TAB_FWD_ZQ]
        mov     x2, x0
        mov     x3, #8
1:
        ldr     q16, [x2, #0]
        ldr     q17, [x2, #128]
        ldr     q18, [x2, #256]
        ldr     q19, [x2, #384]
        ldr     q20, [x2, #512]
        ldr     q21, [x2, #640]
        ldr     q22, [x2, #768]
        ldr     q23, [x2, #896]
        BIAS8   add, 16
        FBF_E   16, 20, 8, 1, 10, 1, 0, 1, 2
        FBF_E   17, 21, 8, 1, 10, 1, 3, 4, 5
        FBF_E   18, 22, 8, 1, 10, 1, 0, 1, 2
        FBF_E   19, 23, 8, 1, 10, 1, 3, 4, 5
        FBF_E   16, 18, 8, 2, 10, 2, 0, 1, 2
        FBF_E   17, 19, 8, 2, 10, 2, 3, 4, 5
        FBF_E   20, 22, 8, 3, 10, 3, 0, 1, 2
        FBF_E   21, 23, 8, 3, 10, 3, 3, 4, 5
        FBF_E   16, 17, 9, 0, 11, 0, 0, 1, 2
        FBF_E   18, 19, 9, 1, 11, 1, 3, 4, 5
        FBF_E   20, 21, 9, 2, 11, 2, 0, 1, 2
        FBF_E   22, 23, 9, 3, 11, 3, 3, 4, 5
        str     q16, [x2, #0]
        str     q17, [x2, #128]
        str     q18, [x2, #256]
        str     q19, [x2, #384]
        str     q20, [x2, #512]
        str     q21, [x2, #640]
        str     q22, [x2, #768]
        str     q23, [x2, #896]
        add     x2, x2, #16
        subs    x3, x3, #1
        b.ne    1b

        /* Levels 4-8 per chunk g (x2 = a + 64 g; x4: single zetas of
         * the chunk: distance 16 at x4 + 32, distance 8 at x8 + 64;
         * x5/x6: its lanes of the row tables). */
        mov     x2, x0
        add     x4, x1, #TAB_FWD_ZP
        add     x8, x1, #TAB_FWD_ZP
        add     x5, x1, #TAB_FWD_ROWS_ZP
        add     x6, x1, #TAB_FWD_ROWS_ZQ
        mov     x3, #4
2:
        ld1     {v16.4s, v17.4s, v18.4s, v19.4s}, [x2]
        add     x7, x2, #64
        ld1     {v20.4s, v21.4s, v22.4s, v23.4s}, [x7], #64
        ld1     {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
        ld1     {v28.4s, v29.4s, v30.4s, v31.4s}, [x7]
        /* distance 16: zetas 8 + 2g (half 0), 9 + 2g (half 1) */
        ldr     d12, [x4, #32]
        ldr     d13, [x4, #(TAB_FWD_ZQ + 32)]
        FBF_E   16, 20, 12, 0, 13, 0, 0, 1, 2
        FBF_E   17, 21, 12, 0, 13, 0, 3, 4, 5
        FBF_E   18, 22, 12, 0, 13, 0, 0, 1, 2
        FBF_E   19, 23, 12, 0, 13, 0, 3, 4, 5
        FBF_E   24, 28, 12, 1, 13, 1, 0, 1, 2
        FBF_E   25, 29, 12, 1, 13, 1, 3, 4, 5
        FBF_E   26, 30, 12, 1, 13, 1, 0, 1, 2
        FBF_E   27, 31, 12, 1, 13, 1, 3, 4, 5
        /* distance 8: zetas 16 + 4g + m for the run of 16 number m */
        ldr     q12, [x8, #64]
        ldr     q13, [x8, #(TAB_FWD_ZQ + 64)]
        FBF_E   16, 18, 12, 0, 13, 0, 0, 1, 2
        FBF_E   17, 19, 12, 0, 13, 0, 3, 4, 5
        FBF_E   20, 22, 12, 1, 13, 1, 0, 1, 2
        FBF_E   21, 23, 12, 1, 13, 1, 3, 4, 5
        FBF_E   24, 26, 12, 2, 13, 2, 0, 1, 2
        FBF_E   25, 27, 12, 2, 13, 2, 3, 4, 5
        FBF_E   28, 30, 12, 3, 13, 3, 0, 1, 2
        FBF_E   29, 31, 12, 3, 13, 3, 3, 4, 5
        TR_CHUNK
        /* distance 4 (row 0): rows p, p + 4; lanes: blocks 8g .. 8g + 7 */
        ldp     q8, q9, [x5, #0]
        ldp     q10, q11, [x6, #0]
        FBF_V   16, 17, 8, 10, 0, 1, 2
        FBF_V   18, 19, 8, 10, 3, 4, 5
        FBF_V   20, 21, 8, 10, 0, 1, 2
        FBF_V   22, 23, 8, 10, 3, 4, 5
        FBF_V   24, 25, 9, 11, 0, 1, 2
        FBF_V   26, 27, 9, 11, 3, 4, 5
        FBF_V   28, 29, 9, 11, 0, 1, 2
        FBF_V   30, 31, 9, 11, 3, 4, 5
        /* distance 2 (rows 1, 2): rows 0/2, 1/3 and 4/6, 5/7 */
        ldp     q8, q9, [x5, #128]
        ldp     q10, q11, [x6, #128]
        FBF_V   16, 20, 8, 10, 0, 1, 2
        FBF_V   18, 22, 8, 10, 3, 4, 5
        FBF_V   24, 28, 9, 11, 0, 1, 2
        FBF_V   26, 30, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #256]
        ldp     q10, q11, [x6, #256]
        FBF_V   17, 21, 8, 10, 0, 1, 2
        FBF_V   19, 23, 8, 10, 3, 4, 5
        FBF_V   25, 29, 9, 11, 0, 1, 2
        FBF_V   27, 31, 9, 11, 3, 4, 5
        /* distance 1 (rows 3-6): rows 2s, 2s + 1 */
        ldp     q8, q9, [x5, #384]
        ldp     q10, q11, [x6, #384]
        FBF_V   16, 18, 8, 10, 0, 1, 2
        FBF_V   24, 26, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #512]
        ldp     q10, q11, [x6, #512]
        FBF_V   20, 22, 8, 10, 0, 1, 2
        FBF_V   28, 30, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #640]
        ldp     q10, q11, [x6, #640]
        FBF_V   17, 19, 8, 10, 0, 1, 2
        FBF_V   25, 27, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #768]
        ldp     q10, q11, [x6, #768]
        FBF_V   21, 23, 8, 10, 0, 1, 2
        FBF_V   29, 31, 9, 11, 3, 4, 5
        BIAS16  sub
        /* row p: blocks 0-3 then 4-7, at a + 64 g + 8 p */
        stp     q16, q24, [x2, #0]
        stp     q18, q26, [x2, #32]
        stp     q20, q28, [x2, #64]
        stp     q22, q30, [x2, #96]
        stp     q17, q25, [x2, #128]
        stp     q19, q27, [x2, #160]
        stp     q21, q29, [x2, #192]
        stp     q23, q31, [x2, #224]
        add     x2, x2, #256
        add     x4, x4, #8
        add     x8, x8, #16
        add     x5, x5, #32
        add     x6, x6, #32
        subs    x3, x3, #1
        b.ne    2b
        POP_D8_D15
        ret
        .cfi_endproc
        .size   quill_mldsa_ntt_neon, . - quill_mldsa_ntt_neon

/* INVNTT name, freeze: quill_mldsa_invntt_tomont_neon (freeze 0) and
 * quill_mldsa_invntt_tomont_freeze_neon (freeze 1), x0 = a. */
.macro INVNTT name, freeze
FUNC \name
        .cfi_startproc
        PUSH_D8_D15
        CONSTS
        /* Levels 8-3 per chunk g (x2 = a + 64 g): x5/x6 its lanes of the
         * row tables; the negated single zetas inv[k] (the table's
         * entry k) at x4 = &inv[28 - 4g] (distance 8: inv[31 - 2hc],
         * inv[30 - 2hc] for the half-chunks hc = 2g, 2g + 1), x8 =
         * &inv[14 - 2g] (distance 16: inv[15 - hc]), x10 = &inv[7 - g]
         * (distance 32); their zq 128 bytes further. */
        mov     x2, x0
        add     x5, x1, #TAB_INV_ROWS_ZP
        add     x6, x1, #TAB_INV_ROWS_ZQ
        add     x4, x1, #(TAB_INV_ZP + 4 * 28)
        add     x8, x1, #(TAB_INV_ZP + 4 * 14)
        add     x10, x1, #(TAB_INV_ZP + 4 * 7)
        mov     x3, #4
1:
        /* row p of blocks 0-3 -> v<16 + ROW(p)>, of blocks 4-7 ->
         * v<24 + ROW(p)> */
        ldp     q16, q24, [x2, #0]
        ldp     q18, q26, [x2, #32]
        ldp     q20, q28, [x2, #64]
        ldp     q22, q30, [x2, #96]
        ldp     q17, q25, [x2, #128]
        ldp     q19, q27, [x2, #160]
        ldp     q21, q29, [x2, #192]
        ldp     q23, q31, [x2, #224]
        /* distance 1 (rows 3-6): rows 2s, 2s + 1 */
        ldp     q8, q9, [x5, #384]
        ldp     q10, q11, [x6, #384]
        IBF_V   16, 18, 8, 10, 0, 1, 2
        IBF_V   24, 26, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #512]
        ldp     q10, q11, [x6, #512]
        IBF_V   20, 22, 8, 10, 0, 1, 2
        IBF_V   28, 30, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #640]
        ldp     q10, q11, [x6, #640]
        IBF_V   17, 19, 8, 10, 0, 1, 2
        IBF_V   25, 27, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #768]
        ldp     q10, q11, [x6, #768]
        IBF_V   21, 23, 8, 10, 0, 1, 2
        IBF_V   29, 31, 9, 11, 3, 4, 5
        /* distance 2 (rows 1, 2) */
        ldp     q8, q9, [x5, #128]
        ldp     q10, q11, [x6, #128]
        IBF_V   16, 20, 8, 10, 0, 1, 2
        IBF_V   18, 22, 8, 10, 3, 4, 5
        IBF_V   24, 28, 9, 11, 0, 1, 2
        IBF_V   26, 30, 9, 11, 3, 4, 5
        ldp     q8, q9, [x5, #256]
        ldp     q10, q11, [x6, #256]
        IBF_V   17, 21, 8, 10, 0, 1, 2
        IBF_V   19, 23, 8, 10, 3, 4, 5
        IBF_V   25, 29, 9, 11, 0, 1, 2
        IBF_V   27, 31, 9, 11, 3, 4, 5
        /* distance 4 (row 0): rows p, p + 4 */
        ldp     q8, q9, [x5, #0]
        ldp     q10, q11, [x6, #0]
        IBF_V   16, 17, 8, 10, 0, 1, 2
        IBF_V   18, 19, 8, 10, 3, 4, 5
        IBF_V   20, 21, 8, 10, 0, 1, 2
        IBF_V   22, 23, 8, 10, 3, 4, 5
        IBF_V   24, 25, 9, 11, 0, 1, 2
        IBF_V   26, 27, 9, 11, 3, 4, 5
        IBF_V   28, 29, 9, 11, 0, 1, 2
        IBF_V   30, 31, 9, 11, 3, 4, 5
        TR_CHUNK
        /* distance 8: lanes 3, 2 (half 0), 1, 0 (half 1) of v12/v13 */
        ldr     q12, [x4]
        ldr     q13, [x4, #128]
        IBF_E   16, 18, 12, 3, 13, 3, 0, 1, 2
        IBF_E   17, 19, 12, 3, 13, 3, 3, 4, 5
        IBF_E   20, 22, 12, 2, 13, 2, 0, 1, 2
        IBF_E   21, 23, 12, 2, 13, 2, 3, 4, 5
        IBF_E   24, 26, 12, 1, 13, 1, 0, 1, 2
        IBF_E   25, 27, 12, 1, 13, 1, 3, 4, 5
        IBF_E   28, 30, 12, 0, 13, 0, 0, 1, 2
        IBF_E   29, 31, 12, 0, 13, 0, 3, 4, 5
        /* distance 16: lane 1 (half 0), lane 0 (half 1) */
        ldr     d12, [x8]
        ldr     d13, [x8, #128]
        IBF_E   16, 20, 12, 1, 13, 1, 0, 1, 2
        IBF_E   17, 21, 12, 1, 13, 1, 3, 4, 5
        IBF_E   18, 22, 12, 1, 13, 1, 0, 1, 2
        IBF_E   19, 23, 12, 1, 13, 1, 3, 4, 5
        IBF_E   24, 28, 12, 0, 13, 0, 0, 1, 2
        IBF_E   25, 29, 12, 0, 13, 0, 3, 4, 5
        IBF_E   26, 30, 12, 0, 13, 0, 0, 1, 2
        IBF_E   27, 31, 12, 0, 13, 0, 3, 4, 5
        /* distance 32 */
        ldr     s12, [x10]
        ldr     s13, [x10, #128]
        IBF_E   16, 24, 12, 0, 13, 0, 0, 1, 2
        IBF_E   17, 25, 12, 0, 13, 0, 3, 4, 5
        IBF_E   18, 26, 12, 0, 13, 0, 0, 1, 2
        IBF_E   19, 27, 12, 0, 13, 0, 3, 4, 5
        IBF_E   20, 28, 12, 0, 13, 0, 0, 1, 2
        IBF_E   21, 29, 12, 0, 13, 0, 3, 4, 5
        IBF_E   22, 30, 12, 0, 13, 0, 0, 1, 2
        IBF_E   23, 31, 12, 0, 13, 0, 3, 4, 5
        st1     {v16.4s, v17.4s, v18.4s, v19.4s}, [x2], #64
        st1     {v20.4s, v21.4s, v22.4s, v23.4s}, [x2], #64
        st1     {v24.4s, v25.4s, v26.4s, v27.4s}, [x2], #64
        st1     {v28.4s, v29.4s, v30.4s, v31.4s}, [x2], #64
        add     x5, x5, #32
        add     x6, x6, #32
        sub     x4, x4, #16
        sub     x8, x8, #8
        sub     x10, x10, #4
        subs    x3, x3, #1
        b.ne    1b

        /* Levels 2 and 1 with the scaling, on columns j and j + 4
         * (x2 = a + j, 8 iterations): v<16 + i> = a[j + 64 i],
         * v<20 + i> = a[j + 4 + 64 i]; inv[2], inv[3] in lanes 2, 3 of
         * v8 (zp) / v9 (zq); v10 = {zp, zq} of INVNTT_F, INVNTT_F_Z1. */
        ldr     q8, [x1, #TAB_INV_ZP]
        ldr     q9, [x1, #TAB_INV_ZQ]
        ldr     q10, [x1, #TAB_SCALE]
        mov     x2, x0
        mov     x3, #8
2:
        ldp     q16, q20, [x2, #0]
        ldp     q17, q21, [x2, #256]
        ldp     q18, q22, [x2, #512]
        ldp     q19, q23, [x2, #768]
        IBF_E   16, 17, 8, 3, 9, 3, 0, 1, 2
        IBF_E   20, 21, 8, 3, 9, 3, 3, 4, 5
        IBF_E   18, 19, 8, 2, 9, 2, 0, 1, 2
        IBF_E   22, 23, 8, 2, 9, 2, 3, 4, 5
        add     v24.4s, v16.4s, v18.4s
        add     v25.4s, v17.4s, v19.4s
        sub     v26.4s, v16.4s, v18.4s
        sub     v27.4s, v17.4s, v19.4s
        add     v28.4s, v20.4s, v22.4s
        add     v29.4s, v21.4s, v23.4s
        sub     v30.4s, v20.4s, v22.4s
        sub     v31.4s, v21.4s, v23.4s
        BIAS8   add, 24
        MONT_E  24, 24, 10, 0, 10, 1, 0, 1, 2
        MONT_E  25, 25, 10, 0, 10, 1, 3, 4, 5
        MONT_E  26, 26, 10, 2, 10, 3, 0, 1, 2
        MONT_E  27, 27, 10, 2, 10, 3, 3, 4, 5
        MONT_E  28, 28, 10, 0, 10, 1, 0, 1, 2
        MONT_E  29, 29, 10, 0, 10, 1, 3, 4, 5
        MONT_E  30, 30, 10, 2, 10, 3, 0, 1, 2
        MONT_E  31, 31, 10, 2, 10, 3, 3, 4, 5
        .if \freeze
        CADDQ   24
        CADDQ   25
        CADDQ   26
        CADDQ   27
        CADDQ   28
        CADDQ   29
        CADDQ   30
        CADDQ   31
        .endif
        stp     q24, q28, [x2, #0]
        stp     q25, q29, [x2, #256]
        stp     q26, q30, [x2, #512]
        stp     q27, q31, [x2, #768]
        add     x2, x2, #32
        subs    x3, x3, #1
        b.ne    2b
        POP_D8_D15
        ret
        .cfi_endproc
        .size   \name, . - \name
.endm


        INVNTT  quill_mldsa_invntt_tomont_neon, 0
        INVNTT  quill_mldsa_invntt_tomont_freeze_neon, 1

/* PRODUCT_CONSTS: v30 = q, v31 = q^-1 mod 2^32 in every lane. */
.macro PRODUCT_CONSTS
        mov     w9, #(Q & 0xffff)
        movk    w9, #(Q >> 16), lsl #16
        dup     v30.4s, w9
        mov     w9, #(QINV & 0xffff)
        movk    w9, #(QINV >> 16), lsl #16
        dup     v31.4s, w9
.endm

/* POINTWISE4 a, b, r, t: v<r> = quill_mldsa_mont_mul(v<a>, v<b>) per lane;
 * v<t> a temporary. */
.macro POINTWISE4 a, b, r, t
        sqdmulh v\r\().4s, v\a\().4s, v\b\().4s
        mul     v\t\().4s, v\a\().4s, v\b\().4s
        mul     v\t\().4s, v\t\().4s, v31.4s
        sqdmulh v\t\().4s, v\t\().4s, v30.4s
        shsub   v\r\().4s, v\r\().4s, v\t\().4s
.endm

/* ---- quill_mldsa_pointwise_mont_neon(x0 = c, x1 = a, x2 = b) ----
 * 16 coefficients an iteration: c = SHSUB(SQDMULH(a, b),
 * SQDMULH(a b q^-1 mod 2^32, q)).  c may be a or b (each block is read
 * before it is written). */
FUNC quill_mldsa_pointwise_mont_neon
        .cfi_startproc
        PRODUCT_CONSTS
        mov     x3, #16
1:
        ld1     {v0.4s, v1.4s, v2.4s, v3.4s}, [x1], #64
        ld1     {v4.4s, v5.4s, v6.4s, v7.4s}, [x2], #64
        POINTWISE4 0, 4, 16, 20
        POINTWISE4 1, 5, 17, 21
        POINTWISE4 2, 6, 18, 22
        POINTWISE4 3, 7, 19, 23
        st1     {v16.4s, v17.4s, v18.4s, v19.4s}, [x0], #64
        subs    x3, x3, #1
        b.ne    1b
        ret
        .cfi_endproc
        .size   quill_mldsa_pointwise_mont_neon, . - quill_mldsa_pointwise_mont_neon

/* DOT_REDUCE lo, hi, t: v<t> = quill_mldsa_mont_reduce of the four exact
 * sums in v<lo>.2d (lanes 0, 1) and v<hi>.2d (lanes 2, 3): T = lo32(S)
 * q^-1 mod 2^32 taken signed, (S - T q) / 2^32 from the high halves. */
.macro DOT_REDUCE lo, hi, t
        uzp1    v\t\().4s, v\lo\().4s, v\hi\().4s
        mul     v\t\().4s, v\t\().4s, v31.4s
        smlsl   v\lo\().2d, v\t\().2s, v30.2s
        smlsl2  v\hi\().2d, v\t\().4s, v30.4s
        uzp2    v\t\().4s, v\lo\().4s, v\hi\().4s
.endm

/* ---- quill_mldsa_dot_mont_neon(x0 = r, x1 = a, x2 = b, w3 = n) ----
 * 16 coefficients an outer iteration (x4 counts 16), the n polynomials
 * (1024 bytes apart) in the inner loop; the exact sums in v16-v23 (two
 * 64-bit lanes each).  n = 0 gives 0, as the portable loop. */
FUNC quill_mldsa_dot_mont_neon
        .cfi_startproc
        PRODUCT_CONSTS
        mov     w3, w3
        mov     x4, #16
1:
        .irp    r, 16, 17, 18, 19, 20, 21, 22, 23
        movi    v\r\().2d, #0
        .endr
        mov     x5, x1
        mov     x6, x2
        mov     x7, x3
        cbz     x7, 3f
2:
        ld1     {v0.4s, v1.4s, v2.4s, v3.4s}, [x5]
        ld1     {v4.4s, v5.4s, v6.4s, v7.4s}, [x6]
        add     x5, x5, #1024
        add     x6, x6, #1024
        smlal   v16.2d, v0.2s, v4.2s
        smlal2  v17.2d, v0.4s, v4.4s
        smlal   v18.2d, v1.2s, v5.2s
        smlal2  v19.2d, v1.4s, v5.4s
        smlal   v20.2d, v2.2s, v6.2s
        smlal2  v21.2d, v2.4s, v6.4s
        smlal   v22.2d, v3.2s, v7.2s
        smlal2  v23.2d, v3.4s, v7.4s
        subs    x7, x7, #1
        b.ne    2b
3:
        DOT_REDUCE 16, 17, 24
        DOT_REDUCE 18, 19, 25
        DOT_REDUCE 20, 21, 26
        DOT_REDUCE 22, 23, 27
        st1     {v24.4s, v25.4s, v26.4s, v27.4s}, [x0], #64
        add     x1, x1, #64
        add     x2, x2, #64
        subs    x4, x4, #1
        b.ne    1b
        ret
        .cfi_endproc
        .size   quill_mldsa_dot_mont_neon, . - quill_mldsa_dot_mont_neon

        .section .note.GNU-stack, "", %progbits
#endif
