/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The two point additions of P-256 verification with the field arithmetic
 * inlined, MULX/ADCX/ADOX.  C prototypes (core/ec/p256_adx.h):
 *
 *   int quill_p256_point_madd_vartime_adx(quill_p256_jacobian *out,
 *                                         const quill_p256_jacobian *a,
 *                                         const quill_p256_affine *b);
 *   int quill_p256_point_add_cached_vartime_adx(
 *           quill_p256_jacobian *out, const quill_p256_jacobian *a,
 *           const quill_p256_chudnovsky *b);
 *
 * The first is vt_madd of core/ec/p256_verify_point.h (madd-2004-hmv,
 * 8M + 3S), the second vt_add_cached (add-1998-cmo-2 with b's Z^2 and Z^3
 * given, 11M + 3S): the same operation sequences, every field operation
 * returning the unique reduced value (but Z1^2 and Z1^3, partially reduced
 * as in p256_fe_macros.h: they only feed the products Z1^3, U2 and S2), so
 * the outputs are bit-identical to those C twins.  Coordinates are four little-endian words in the
 * Montgomery domain, fully reduced; a must be finite (Z1 != 0: the caller
 * checks), b finite.  Both compute H (U2 - U1) and R (S2 - S1) first; if
 * H = 0 (a = +-b, where the caller doubles or returns infinity) they
 * return 0 without writing out; otherwise they write out and return 1.
 * out may alias a (written at the end).
 *
 * Variable time: the branch on H = 0.  For public points only (the
 * verification paths); the frame is not wiped.
 *
 * Calling convention: System V AMD64, rdi = out, rsi = a, rdx = b,
 * result in eax.  Saves and restores rbx, r12-r15 (rbp is not used); no
 * calls; a 560-byte stack frame; direction flag untouched; clobbers xmm0
 * and xmm1 (copies).  Required CPU features: BMI2 (MULX, SHLX, SHRX) and
 * ADX (ADCX, ADOX).  Field operations: the macros of p256_fe_macros.h. */

#if defined(__x86_64__) && defined(__ELF__)

#include "callee_saved.h"

#include "p256_fe_macros.h"

/* Stack frame: one 32-byte slot per field element, then the out pointer. */
#define X1      0
#define Y1      32
#define Z1      64
#define X2      96
#define Y2      128
#define Z2      160
#define ZZ2     192
#define ZZZ2    224
#define ZZ1     256
#define U1      288
#define U2      320
#define S1      352
#define S2      384
#define HH      416
#define HHH     448
#define V       480
#define X3      512
#define OUTPTR  544
#define FRAME   560

/* eax = 0 and return if H = 0, from the four words of H in h0..h3 (a
 * rare, public case: the caller doubles or returns infinity). */
.macro RETURN_IF_ZERO h0, h1, h2, h3
        mov     \h0, %rax
        or      \h1, %rax
        or      \h2, %rax
        or      \h3, %rax
        jnz     .Lnonzero\@
        .cfi_remember_state             /* rax = 0: the return value */
        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        POP_REGS_RET_NOEND
        .cfi_restore_state
.Lnonzero\@:
.endm

/* The coordinate at byte offset \off of out = t0..t3 (out from the
 * frame). */
.macro STORE_OUT off, t0, t1, t2, t3
        mov     OUTPTR(%rsp), %rdi
        mov     \t0, \off+0(%rdi)
        mov     \t1, \off+8(%rdi)
        mov     \t2, \off+16(%rdi)
        mov     \t3, \off+24(%rdi)
.endm


        .globl  quill_p256_point_madd_vartime_adx
        .hidden quill_p256_point_madd_vartime_adx
        .type   quill_p256_point_madd_vartime_adx, @function
        .p2align 5
quill_p256_point_madd_vartime_adx:
        PUSH_REGS
        sub     $FRAME, %rsp            /* 16-byte aligned: 5 pushes + return address + 560 */
        .cfi_adjust_cfa_offset FRAME

        mov     %rdi, OUTPTR(%rsp)
        COPY32  X1, %rsp, 0, %rsi
        COPY32  Y1, %rsp, 32, %rsi
        COPY32  Z1, %rsp, 64, %rsi
        COPY32  X2, %rsp, 0, %rdx
        COPY32  Y2, %rsp, 32, %rdx

        FE_SQR  ZZ1, Z1, 1              /* Z1^2, partially reduced */
        FE_MUL  S2, Z1, ZZ1, 1          /* Z1^3, partially reduced */
        FE_MUL  , Y2, S2                /* S2 = Y2 Z1^3 */
        SUB_MOD %r12, %r13, %r14, %r15, Y1
        STORE4  S2, %r12, %r13, %r14, %r15 /* R = S2 - Y1 */
        FE_MUL  , X2, ZZ1               /* U2 = X2 Z1^2 */
        SUB_MOD %r12, %r13, %r14, %r15, X1
        RETURN_IF_ZERO %r12, %r13, %r14, %r15
        STORE4  U2, %r12, %r13, %r14, %r15 /* H = U2 - X1 */
        FE_MUL  , Z1, U2                /* Z3 = Z1 H */
        STORE_OUT 64, %r12, %r13, %r14, %r15
        FE_SQR  HH, U2                  /* H^2 */
        FE_MUL  HHH, U2, HH             /* H^3 */
        FE_MUL  V, X1, HH               /* V = X1 H^2 */
        FE_SQR  , S2                    /* R^2 */
        SUB_MOD %r12, %r13, %r14, %r15, HHH
        SUB_MOD %r12, %r13, %r14, %r15, V
        SUB_MOD %r12, %r13, %r14, %r15, V /* X3 = R^2 - H^3 - 2 V */
        STORE_OUT 0, %r12, %r13, %r14, %r15
        LOAD4   V
        SUB_MOD_REG %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
        STORE4  V, %r8, %r9, %r10, %r11 /* V - X3 */
        FE_MUL  HHH, Y1, HHH            /* Y1 H^3 */
        FE_MUL  , S2, V                 /* R (V - X3) */
        SUB_MOD %r12, %r13, %r14, %r15, HHH
        STORE_OUT 32, %r12, %r13, %r14, %r15 /* Y3 = R (V - X3) - Y1 H^3 */
        mov     $1, %eax

        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        POP_REGS_RET
        .size   quill_p256_point_madd_vartime_adx, .-quill_p256_point_madd_vartime_adx

        .globl  quill_p256_point_add_cached_vartime_adx
        .hidden quill_p256_point_add_cached_vartime_adx
        .type   quill_p256_point_add_cached_vartime_adx, @function
        .p2align 5
quill_p256_point_add_cached_vartime_adx:
        PUSH_REGS
        sub     $FRAME, %rsp            /* 16-byte aligned: 5 pushes + return address + 560 */
        .cfi_adjust_cfa_offset FRAME

        mov     %rdi, OUTPTR(%rsp)
        COPY32  X1, %rsp, 0, %rsi
        COPY32  Y1, %rsp, 32, %rsi
        COPY32  Z1, %rsp, 64, %rsi
        COPY32  X2, %rsp, 0, %rdx
        COPY32  Y2, %rsp, 32, %rdx
        COPY32  Z2, %rsp, 64, %rdx
        COPY32  ZZ2, %rsp, 96, %rdx
        COPY32  ZZZ2, %rsp, 128, %rdx

        FE_SQR  ZZ1, Z1, 1              /* Z1^2, partially reduced */
        FE_MUL  U1, X1, ZZ2             /* U1 = X1 Z2^2 */
        FE_MUL  S1, Y1, ZZZ2            /* S1 = Y1 Z2^3 */
        FE_MUL  S2, Z1, ZZ1, 1          /* Z1^3, partially reduced */
        FE_MUL  , Y2, S2                /* S2 = Y2 Z1^3 */
        SUB_MOD %r12, %r13, %r14, %r15, S1
        STORE4  S2, %r12, %r13, %r14, %r15 /* R = S2 - S1 */
        FE_MUL  , X2, ZZ1               /* U2 = X2 Z1^2 */
        SUB_MOD %r12, %r13, %r14, %r15, U1
        RETURN_IF_ZERO %r12, %r13, %r14, %r15
        STORE4  U2, %r12, %r13, %r14, %r15 /* H = U2 - U1 */
        FE_SQR  HH, U2                  /* H^2 */
        FE_MUL  HHH, U2, HH             /* H^3 */
        FE_MUL  V, U1, HH               /* V = U1 H^2 */
        FE_SQR  , S2                    /* R^2 */
        SUB_MOD %r12, %r13, %r14, %r15, HHH
        SUB_MOD %r12, %r13, %r14, %r15, V
        SUB_MOD %r12, %r13, %r14, %r15, V /* X3 = R^2 - H^3 - 2 V */
        STORE_OUT 0, %r12, %r13, %r14, %r15
        LOAD4   V
        SUB_MOD_REG %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15
        STORE4  V, %r8, %r9, %r10, %r11 /* V - X3 */
        FE_MUL  S1, S1, HHH             /* S1 H^3 */
        FE_MUL  , S2, V                 /* R (V - X3) */
        SUB_MOD %r12, %r13, %r14, %r15, S1
        STORE_OUT 32, %r12, %r13, %r14, %r15 /* Y3 = R (V - X3) - S1 H^3 */
        FE_MUL  Z1, Z1, Z2
        FE_MUL  , Z1, U2                /* Z3 = Z1 Z2 H */
        STORE_OUT 64, %r12, %r13, %r14, %r15
        mov     $1, %eax

        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        POP_REGS_RET
        .size   quill_p256_point_add_cached_vartime_adx, .-quill_p256_point_add_cached_vartime_adx

#endif

        .section .note.GNU-stack, "", @progbits
