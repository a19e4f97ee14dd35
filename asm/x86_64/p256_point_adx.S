/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 mixed point addition (Jacobian + affine, madd-2007-bl, 7M + 4S)
 * with the field arithmetic inlined, MULX/ADCX/ADOX.  C prototype
 * (core/ec/p256_adx.h):
 *
 *   void quill_p256_point_add_mixed_adx(quill_p256_jacobian *out,
 *                                       const quill_p256_jacobian *a,
 *                                       const quill_p256_affine *b);
 *
 * a = (X1, Y1, Z1) Jacobian and b = (X2, Y2) affine, each coordinate four
 * little-endian words in the Montgomery domain (x R mod p, R = 2^256) and
 * fully reduced; out = (X3, Y3, Z3), fully reduced.  The field operations
 * of point_add_mixed_raw (core/ec/p256_point.c), the portable twin, in
 * another order (see below), with Z3 as 2 Z1 H instead of (Z1 + H)^2 -
 * Z1^2 - H^2: the outputs are the unique reduced values of the same
 * formula, so they are bit-identical (Z1^2 and Z1^3 are only partially
 * reduced, p256_fe_macros.h, as they only feed products: X2 Z1^2, Z1^3 and
 * Y2 Z1^3).  No case handling (infinity, a = +-b);
 * the C caller selects around it.  out may alias a (written at the end).
 *
 * Why assembly: gcc 12 compiles the C formula (inlined 64-bit limbs) to
 * ~2750 instructions, most of them moves between the temporaries and
 * materialised carries; here it is ~1550 (most of them the 158 MULX
 * and their carry chains), every operand a stack slot or a register.
 *
 * Constant time: no branch and no address depends on the values (the
 * reductions select with CMOV and masks).  The stack frame holds secrets
 * on the signing path and is zeroed before return.
 *
 * Calling convention: System V AMD64, rdi = out, rsi = a, rdx = b.
 * Saves and restores rbx, r12-r15; no calls; direction flag untouched.
 * quill_p256_point_add_mixed_adx leaves rbp alone and uses a 624-byte stack
 * frame; the gather entry (below) also saves rbp, which holds its row
 * pointer, and uses 632 bytes.  Required CPU features: BMI2
 * (MULX) and ADX (ADCX, ADOX).
 *
 * The field operations are the macros of p256_fe_macros.h (FE_MUL, FE_SQR,
 * FE_ADD, FE_SUB on frame slots; their register use is described there).
 * Like the other assembly here, the routine leaves values derived from its
 * inputs in caller-saved registers on return.
 *
 * The second entry point, from the same macro (MADD_2007_BL), also scans a
 * table row during the addition:
 *
 *   void quill_p256_point_add_mixed_gather_adx(quill_p256_jacobian *out,
 *       const quill_p256_jacobian *a, const quill_p256_affine *b,
 *       uint64_t gxy[8], const quill_p256_affine *row, uint64_t abs);
 *
 * rcx = gxy, r8 = row (128 entries of 64 bytes), r9 = abs (secret): gxy =
 * x || y of row[abs - 1], zeros unless 1 <= abs <= 128.  Every entry is
 * loaded (two 32-byte AVX2 loads) and combined with a mask from the lane
 * comparison of a running index with abs (VPCMPEQQ, VPAND, VPOR): no
 * branch or address depends on abs.  k G (core/ec/p256_base.c) scans row
 * i + 1 in the addition of window i: the scan's 768 vector instructions
 * and 256 loads run on the vector units and load ports, which the MULX
 * chains leave idle, instead of between two additions.  Registers: rbp
 * holds row (saved and restored), ymm2-ymm9 the scan; VZEROALL before the
 * return clears them (the accumulators and the mask are secret).  Requires
 * AVX2 besides BMI2 and ADX; a 632-byte frame. */

#if defined(__x86_64__) && defined(__ELF__)

#include "callee_saved.h"

#include "p256_fe_macros.h"

/* Stack frame: one 32-byte slot per field element, then the out pointer. */
#define X1      0
#define Y1      32
#define Z1      64
#define X2      96
#define Y2      128
#define Z1Z1    160
#define U2      192     /* unused: U2 stays in registers */
#define S2      224
#define H       256
#define HH      288     /* unused: H^2 stays in registers */
#define I       320
#define J       352
#define RR      384
#define V       416
#define X3      448
#define T       480
#define Y3      512
#define Z3      544
#define T2      576
#define SLOTS   19
#define OUTPTR  608
#define GXYPTR  616     /* the _gather variant only */
#define FRAME   624

/* GATHER_ENTRIES n: n steps of the row scan of the _gather variant (below),
 * entry GOFF / 64 onwards: the mask of the entry is the lane comparison of
 * the running index (ymm5) with abs (ymm4), then x and y of the entry,
 * ANDed with it, are ORed into ymm2 and ymm3.  Every entry is loaded and
 * combined the same way whatever abs is.  Nothing when \on is 0. */
.macro GATHER_ENTRIES on, n
        .if \on
        .rept \n
        vpcmpeqq %ymm5, %ymm4, %ymm7
        vpaddq  %ymm6, %ymm5, %ymm5
        vpand   GOFF(%rbp), %ymm7, %ymm8
        vpor    %ymm8, %ymm2, %ymm2
        vpand   GOFF+32(%rbp), %ymm7, %ymm9
        vpor    %ymm9, %ymm3, %ymm3
        .set    GOFF, GOFF + 64
        .endr
        .endif
.endm

/* MADD_2007_BL name, gather: the routine |name|; with gather = 1 the scan
 * of the next window's row is spread between its field operations. */
.macro MADD_2007_BL name, gather
        .globl  \name
        .hidden \name
        .type   \name, @function
        .p2align 5
\name:
        PUSH_REGS
        .if \gather
        push    %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -56
        sub     $FRAME+8, %rsp          /* 16-byte aligned: 6 pushes + return address + 632 */
        .cfi_adjust_cfa_offset FRAME+8
        .else
        sub     $FRAME, %rsp            /* 16-byte aligned: 5 pushes + return address + 624 */
        .cfi_adjust_cfa_offset FRAME
        .endif

        mov     %rdi, OUTPTR(%rsp)
        COPY32  X1, %rsp, 0, %rsi
        COPY32  Y1, %rsp, 32, %rsi
        COPY32  Z1, %rsp, 64, %rsi
        COPY32  X2, %rsp, 0, %rdx
        COPY32  Y2, %rsp, 32, %rdx
        .if \gather
        /* The scan: rbp = row, ymm4 = abs in every lane, ymm5 = the
         * running index (1 for the first entry), ymm6 = 1s, ymm2 and
         * ymm3 the x and y accumulators. */
        mov     %rcx, GXYPTR(%rsp)
        mov     %r8, %rbp
        vmovq   %r9, %xmm4
        vpbroadcastq %xmm4, %ymm4
        vpcmpeqq %ymm6, %ymm6, %ymm6
        vpsrlq  $63, %ymm6, %ymm6
        vmovdqa %ymm6, %ymm5
        vpxor   %ymm2, %ymm2, %ymm2
        vpxor   %ymm3, %ymm3, %ymm3
        .set    GOFF, 0
        .endif

        /* The operations of madd-2007-bl in an order that puts
         * independent products next to each other, so that the
         * out-of-order core (whose scheduler holds about one field
         * operation ahead) overlaps them; the critical path is five
         * products (Z1^2, Z1^3, S2, r^2, r (V - X3)), of which the first
         * two are only partially reduced (FE_MUL's partial = 1: Z1^2 and
         * Z1^3 only feed products; madd 375.6 -> 369.2 ticks, k G -1.5%),
         * and Z3 = 2 Z1 H a product and a doubling, not a squaring and
         * three additions (neutral alone, but Z1^2 is then no
         * subtrahend).  A subtraction or
         * addition that follows the operation it depends on takes that
         * result from the registers (the _REG macros, SUB_MOD) instead of
         * reloading it from the frame: a load of a word stored just
         * before waits for the store.  The scan steps (vector units and
         * loads, which the field operations leave idle) are independent
         * of them: 12 entries after each of the first ten field
         * operations, 8 after the last. */
        FE_SQR  Z1Z1, Z1, 1             /* Z1^2, partially reduced */
        GATHER_ENTRIES \gather, 12
        FE_MUL  S2, Z1, Z1Z1, 1         /* Z1^3, partially reduced */
        GATHER_ENTRIES \gather, 12
        FE_MUL  , X2, Z1Z1              /* U2 = X2 Z1^2 */
        SUB_MOD %r12, %r13, %r14, %r15, X1
        STORE4  H, %r12, %r13, %r14, %r15 /* H = U2 - X1 */
        GATHER_ENTRIES \gather, 12
        FE_MUL  , Y2, S2                /* S2 = Y2 Z1^3 */
        SUB_MOD %r12, %r13, %r14, %r15, Y1
        /* r = 2 (S2 - Y1) */
        ADD_MOD_REG RR, %r12, %r13, %r14, %r15, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        GATHER_ENTRIES \gather, 12
        FE_SQR  , H                     /* H^2; I = 4 H^2 below */
        ADD_MOD_REG , %r12, %r13, %r14, %r15, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        ADD_MOD_REG I, %r12, %r13, %r14, %r15, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        GATHER_ENTRIES \gather, 12
        FE_SQR  X3, RR                  /* r^2 */
        GATHER_ENTRIES \gather, 12
        FE_MUL  V, X1, I                /* V = X1 I */
        GATHER_ENTRIES \gather, 12
        FE_MUL  J, H, I                 /* J = H I */
        GATHER_ENTRIES \gather, 12
        LOAD4   X3
        SUB_MOD %r8, %r9, %r10, %r11, J
        SUB_MOD %r8, %r9, %r10, %r11, V
        SUB_MOD %r8, %r9, %r10, %r11, V
        STORE4  X3, %r8, %r9, %r10, %r11 /* X3 = r^2 - J - 2 V */
        mov     V+0(%rsp), %r12
        mov     V+8(%rsp), %r13
        mov     V+16(%rsp), %r14
        mov     V+24(%rsp), %r15
        SUB_MOD_REG %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        STORE4  T, %r12, %r13, %r14, %r15 /* T = V - X3 */
        FE_MUL  , Y1, J
        /* T2 = 2 Y1 J */
        ADD_MOD_REG T2, %r12, %r13, %r14, %r15, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        GATHER_ENTRIES \gather, 12
        FE_MUL  , RR, T
        SUB_MOD %r12, %r13, %r14, %r15, T2
        STORE4  Y3, %r12, %r13, %r14, %r15 /* Y3 = r (V - X3) - 2 Y1 J */
        GATHER_ENTRIES \gather, 12
        FE_MUL  , Z1, H
        /* Z3 = 2 Z1 H (= (Z1 + H)^2 - Z1^2 - H^2) */
        ADD_MOD_REG Z3, %r12, %r13, %r14, %r15, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11
        GATHER_ENTRIES \gather, 8

        .if \gather
        .if GOFF != 128 * 64
        .error "the scan must cover the 128 entries of the row"
        .endif
        /* The selected entry to gxy; VZEROALL clears the accumulators,
         * the mask and the index (secret) and the upper halves before
         * the SSE copies below. */
        mov     GXYPTR(%rsp), %rcx
        vmovdqu %ymm2, (%rcx)
        vmovdqu %ymm3, 32(%rcx)
        vzeroall
        .endif

        mov     OUTPTR(%rsp), %rdi
        COPY32  0, %rdi, X3, %rsp
        COPY32  32, %rdi, Y3, %rsp
        COPY32  64, %rdi, Z3, %rsp

        /* wipe the frame (and the two vector registers used for copies) */
        pxor    %xmm0, %xmm0
        pxor    %xmm1, %xmm1
        .set    off, 0
        .rept   SLOTS * 2
        movdqa  %xmm0, off(%rsp)
        .set    off, off + 16
        .endr

        .if \gather
        add     $FRAME+8, %rsp
        .cfi_adjust_cfa_offset -(FRAME+8)
        pop     %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        .else
        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        .endif
        POP_REGS_RET
        .size   \name, .-\name
.endm

        MADD_2007_BL quill_p256_point_add_mixed_adx, 0
        MADD_2007_BL quill_p256_point_add_mixed_gather_adx, 1

#endif

        .section .note.GNU-stack, "", @progbits
