/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 repeated point doubling (Jacobian, a = -3, dbl-2001-b as 4M + 4S)
 * with the field arithmetic inlined, MULX/ADCX/ADOX.  C prototype
 * (core/ec/p256_adx.h):
 *
 *   void quill_p256_point_double_n_adx(quill_p256_jacobian *out,
 *                                      const quill_p256_jacobian *a,
 *                                      size_t n);
 *
 * out = 2^n a for n >= 1 (n = 0 is not allowed).  Coordinates are four
 * little-endian words in the Montgomery domain, fully reduced.  Each of
 * the n rounds is the operation sequence of quill_p256_point_double
 * (core/ec/p256_point.c), the portable twin: every field operation returns
 * the unique reduced value, so the outputs are bit-identical, including
 * for Z = 0 (the point at infinity stays at Z = 0, as in the C).  out may
 * alias a (written at the end).
 *
 * Constant time in the coordinates (no branch or address depends on them;
 * the loop runs n times).  The frame is not wiped: the callers are the
 * variable-time verification paths, whose values are public.
 *
 * Calling convention: System V AMD64, rdi = out, rsi = a, rdx = n.  Saves
 * and restores rbx, r12-r15 (rbp is not used); no calls; a 336-byte stack
 * frame; direction flag untouched; clobbers xmm0 and xmm1 (copies).
 * Required CPU features: BMI2 (MULX) and ADX (ADCX, ADOX).  Field
 * operations: the macros of p256_fe_macros.h. */

#if defined(__x86_64__) && defined(__ELF__)

#include "callee_saved.h"

#include "p256_fe_macros.h"

/* The products end with the addition and FE_REDUCE_ONCE rather than
 * ADD_SELECT (REDC_STORE): 241.8 against 244.7 ticks per doubling. */
        .set    QUILL_P256_REDC_SUBTRACT, 1

/* Stack frame: one 32-byte slot per field element, then out and n. */
#define X       0
#define Y       32
#define Z       64
#define DELTA   96
#define Y2      128
#define G4      160
#define B4      192
#define T0      224
#define T1      256
#define ALPHA   288
#define OUTPTR  320
#define COUNT   328
#define FRAME   336

        .globl  quill_p256_point_double_n_adx
        .hidden quill_p256_point_double_n_adx
        .type   quill_p256_point_double_n_adx, @function
        .p2align 5
quill_p256_point_double_n_adx:
        PUSH_REGS
        sub     $FRAME, %rsp            /* 16-byte aligned: 5 pushes + return address + 336 */
        .cfi_adjust_cfa_offset FRAME

        mov     %rdi, OUTPTR(%rsp)
        mov     %rdx, COUNT(%rsp)
        COPY32  X, %rsp, 0, %rsi
        COPY32  Y, %rsp, 32, %rsi
        COPY32  Z, %rsp, 64, %rsi

.Ldouble:
        FE_SQR  DELTA, Z                /* delta = Z^2 */
        FE_ADD  Y2, Y, Y                /* Y2 = 2 Y */
        FE_SQR  G4, Y2                  /* gamma4 = 4 Y^2 */
        FE_MUL  B4, X, G4               /* beta4 = 4 X Y^2 */
        FE_SUB  T0, X, DELTA
        FE_ADD  T1, X, DELTA
        /* alpha = 3 (X - delta)(X + delta): the product in r12..r15 only,
         * doubled and added to itself as (a + a) + a, like the C */
        FE_MUL  , T0, T1
        mov     %r12, %r8
        mov     %r13, %r9
        mov     %r14, %r10
        mov     %r15, %r11
        ADD_MOD_REG , %r8, %r9, %r10, %r11, %r8, %r9, %r10, %r11, %rax, %rcx, %rdx, %rsi
        ADD_MOD_REG ALPHA, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %rax, %rcx, %rdx, %rsi
        FE_MUL  Z, Y2, Z                /* Z3 = 2 Y Z */
        /* X3 = alpha^2 - beta4 - beta4, in r12..r15 */
        FE_SQR  , ALPHA
        SUB_MOD %r12, %r13, %r14, %r15, B4
        SUB_MOD %r12, %r13, %r14, %r15, B4
        STORE4  X, %r12, %r13, %r14, %r15
        /* T0 = beta4 - X3 */
        LOAD4   B4
        SUB_MOD_REG %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
        STORE4  T0, %r8, %r9, %r10, %r11
        /* T1 = gamma4^2 / 2 = 8 Y^4 */
        FE_SQR  , G4
        HALF_REG T1, %r12, %r13, %r14, %r15
        /* Y3 = alpha (beta4 - X3) - 8 Y^4 */
        FE_MUL  , ALPHA, T0
        SUB_MOD %r12, %r13, %r14, %r15, T1
        STORE4  Y, %r12, %r13, %r14, %r15
        decq    COUNT(%rsp)
        jnz     .Ldouble

        mov     OUTPTR(%rsp), %rdi
        COPY32  0, %rdi, X, %rsp
        COPY32  32, %rdi, Y, %rsp
        COPY32  64, %rdi, Z, %rsp

        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        POP_REGS_RET
        .size   quill_p256_point_double_n_adx, .-quill_p256_point_double_n_adx

#endif

        .section .note.GNU-stack, "", @progbits
