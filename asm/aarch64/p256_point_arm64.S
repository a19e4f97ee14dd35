/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 mixed point addition (Jacobian + affine, madd-2007-bl, 7M + 4S)
 * for ARMv8.0-A, the field operations inlined from p256_fe_macros.inc on a
 * stack frame: no calls, no C between them.  C prototype
 * (core/ec/p256_arm64.h):
 *
 *   void quill_p256_point_add_mixed_arm64(quill_p256_jacobian *out,
 *                                         const quill_p256_jacobian *a,
 *                                         const quill_p256_affine *b);
 *
 * out = a + b by the formula of quill_p256_point_add_mixed_raw_c
 * (core/ec/p256_point.c, its portable twin), operation by operation, so the
 * result is bit-identical, without case handling (the caller selects for
 * infinity; a = +-b is excluded by the fixed-base comb).  Coordinates are
 * Montgomery-domain field elements of four 64-bit words, fully reduced
 * (< p); out = (X3, Y3, Z3), a = (X1, Y1, Z1) at offsets 0, 32, 64,
 * b = (X2, Y2) at 0, 32.  out may alias a: X3 and Y3 are stored after the
 * last read of X1 and Y1, Z3 after the last read of Z1.
 *
 * Secrets: every coordinate of a and b may be secret (the multiples of G
 * a private scalar or a nonce selects); out, a and b are addresses
 * (public).  Constant time: straight-line code (no branch), every load and
 * store at a fixed offset from sp or from the argument pointers, the data
 * reaching only MUL/UMULH, ADDS/ADCS/SBCS/SBC chains, shifts, AND and CSEL
 * (see p256_fe.S).  The frame, which holds secret temporaries, is
 * overwritten with zeros before returning.
 *
 * Calling convention: AAPCS64, x0 = out, x1 = a, x2 = b.  Uses x0-x17 and
 * the flags; x19, x20 (a and b across the macros, which clobber x1-x17)
 * are saved in the frame and restored.  x18 is not touched.  Leaf: x30
 * stays put.  Frame: 448 bytes, the 13 temporaries at sp + 0 .. 415, the
 * saved x19, x20 at sp + 416. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

#include "p256_fe_macros.inc"

/* Frame slots (32 bytes each). */
#define Z1Z1    0
#define U2      32
#define S2      64
#define H       96
#define HH      128
#define I       160
#define J       192
#define RR      224
#define V       256
#define T       288
#define X3      320
#define Y3      352
#define Z3      384
#define FRAME   448

/* Coordinates of the points. */
#define PX      0
#define PY      32
#define PZ      64

        .globl  quill_p256_point_add_mixed_arm64
        .type   quill_p256_point_add_mixed_arm64, %function
        .p2align 5
quill_p256_point_add_mixed_arm64:
        .cfi_startproc
        sub     sp, sp, #FRAME
        .cfi_def_cfa_offset FRAME
        stp     x19, x20, [sp, #416]
        .cfi_offset x19, -32
        .cfi_offset x20, -24
        mov     x19, x1                     /* a */
        mov     x20, x2                     /* b */
        FE_SQR  sp, Z1Z1, x19, PZ           /* Z1Z1 = Z1^2 */
        FE_MUL  sp, U2, x20, PX, sp, Z1Z1   /* U2 = X2 Z1Z1 */
        FE_MUL  sp, S2, x19, PZ, sp, Z1Z1   /* Z1 Z1Z1 */
        FE_MUL  sp, S2, x20, PY, sp, S2     /* S2 = Y2 Z1 Z1Z1 */
        FE_SUB  sp, H, sp, U2, x19, PX      /* H = U2 - X1 */
        FE_SQR  sp, HH, sp, H               /* HH = H^2 */
        FE_ADD  sp, I, sp, HH, sp, HH
        FE_ADD  sp, I, sp, I, sp, I         /* I = 4 HH */
        FE_MUL  sp, J, sp, H, sp, I         /* J = H I */
        FE_SUB  sp, RR, sp, S2, x19, PY
        FE_ADD  sp, RR, sp, RR, sp, RR      /* r = 2 (S2 - Y1) */
        FE_MUL  sp, V, x19, PX, sp, I       /* V = X1 I (last read of X1) */
        FE_SQR  sp, X3, sp, RR
        FE_SUB  sp, X3, sp, X3, sp, J
        FE_SUB  sp, X3, sp, X3, sp, V
        FE_SUB  x0, PX, sp, X3, sp, V       /* X3 = r^2 - J - 2 V */
        FE_SUB  sp, T, sp, V, x0, PX
        FE_MUL  sp, Y3, sp, RR, sp, T       /* r (V - X3) */
        FE_MUL  sp, T, x19, PY, sp, J       /* Y1 J (last read of Y1) */
        FE_ADD  sp, T, sp, T, sp, T
        FE_SUB  x0, PY, sp, Y3, sp, T       /* Y3 = r (V - X3) - 2 Y1 J */
        FE_ADD  sp, Z3, x19, PZ, sp, H      /* Z1 + H (last read of Z1) */
        FE_SQR  sp, Z3, sp, Z3
        FE_SUB  sp, Z3, sp, Z3, sp, Z1Z1
        FE_SUB  x0, PZ, sp, Z3, sp, HH      /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
        /* Wipe the temporaries (X3 and Y3's slots hold partial values). */
        stp     xzr, xzr, [sp, #0]
        stp     xzr, xzr, [sp, #16]
        stp     xzr, xzr, [sp, #32]
        stp     xzr, xzr, [sp, #48]
        stp     xzr, xzr, [sp, #64]
        stp     xzr, xzr, [sp, #80]
        stp     xzr, xzr, [sp, #96]
        stp     xzr, xzr, [sp, #112]
        stp     xzr, xzr, [sp, #128]
        stp     xzr, xzr, [sp, #144]
        stp     xzr, xzr, [sp, #160]
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
        stp     xzr, xzr, [sp, #336]
        stp     xzr, xzr, [sp, #352]
        stp     xzr, xzr, [sp, #368]
        stp     xzr, xzr, [sp, #384]
        stp     xzr, xzr, [sp, #400]
        ldp     x19, x20, [sp, #416]
        add     sp, sp, #FRAME
        .cfi_restore x19
        .cfi_restore x20
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   quill_p256_point_add_mixed_arm64, .-quill_p256_point_add_mixed_arm64

#endif

        .section .note.GNU-stack, "", %progbits
