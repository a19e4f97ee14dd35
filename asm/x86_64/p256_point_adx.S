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
 * fully reduced; out = (X3, Y3, Z3), fully reduced.  The same operation
 * sequence as point_add_mixed_raw (core/ec/p256_point.c), which is the
 * portable twin: every field operation returns the unique reduced value,
 * so the outputs are bit-identical.  No case handling (infinity, a = +-b);
 * the C caller selects around it.  out may alias a (written at the end).
 *
 * Why assembly: gcc 12 compiles the C formula (inlined 64-bit limbs) to
 * ~2750 instructions, most of them moves between the temporaries and
 * materialised carries; here it is ~1700, every operand a stack slot.
 *
 * Constant time: no branch and no address depends on the values (the
 * reductions select with CMOV and masks).  The stack frame holds secrets
 * on the signing path and is zeroed before return.
 *
 * Calling convention: System V AMD64, rdi = out, rsi = a, rdx = b.
 * Saves and restores rbx, r12-r15 (rbp is not used); no calls; a 592-byte
 * stack frame; direction flag untouched.  Required CPU features: BMI2
 * (MULX) and ADX (ADCX, ADOX).
 *
 * Field multiplication (FE_MUL): the full 512-bit product t = a b by rows
 * (row i adds a b_i: ADCX takes the low product words into t_(i+j), ADOX
 * the high words into t_(i+j+1)), then four Montgomery steps on the low
 * half with m = t_0 each time (-p^-1 = 1 mod 2^64): t + m p zeroes word 0,
 * and with p0 = 2^64 - 1, p1 = 2^32 - 1, p2 = 0 that is (m << 32) into
 * word 1, (m >> 32) into word 2 and m p3 into words 3 and 4, itself made of
 * shifts and a subtraction (p3 = 2^64 - 2^32 + 1; see REDC_STEP).
 * The low half becomes u = (t_low + M p) / 2^256 <= p, added to the high
 * half: a b R^-1 + (multiple of p) < 2p, then one conditional subtraction
 * of p.  Squaring (FE_SQR) computes the cross products once, doubles them
 * and adds the squares: 10 MULX instead of 16.
 *
 * Registers inside a field operation: r8-r15 the product words, rax/rbx
 * product words and scratch, rcx and rdx scratch (rdx also the MULX
 * multiplier), rsi/rdi scratch in FE_SQR.  Like the other assembly here,
 * the routine leaves values derived from its inputs in caller-saved
 * registers on return. */

#if defined(__x86_64__) && defined(__ELF__)

#include "callee_saved.h"

        .section .rodata
        .p2align 3
.Lp1:   .quad   0x00000000ffffffff
.Lp3:   .quad   0xffffffff00000001

        .text

/* Stack frame: one 32-byte slot per field element, then the out pointer. */
#define X1      0
#define Y1      32
#define Z1      64
#define X2      96
#define Y2      128
#define Z1Z1    160
#define U2      192
#define S2      224
#define H       256
#define HH      288
#define I       320
#define J       352
#define RR      384
#define V       416
#define X3      448
#define T       480
#define Y3      512
#define Z3      544
#define SLOTS   18
#define OUTPTR  576
#define FRAME   592

/* (t0..t3, carry word c) < 2p: store t mod p at \out(%rsp); clobbers the
 * d registers and c.  d = t - p; a borrow out of the five words means
 * t < p: keep t. */
.macro FE_REDUCE_ONCE out, t0, t1, t2, t3, c, d0, d1, d2, d3
        mov     \t0, \d0
        mov     \t1, \d1
        mov     \t2, \d2
        mov     \t3, \d3
        sub     $-1, \d0                /* p0 = 2^64 - 1 */
        sbb     .Lp1(%rip), \d1
        sbb     $0, \d2                 /* p2 = 0 */
        sbb     .Lp3(%rip), \d3
        sbb     $0, \c
        cmovnc  \d0, \t0
        cmovnc  \d1, \t1
        cmovnc  \d2, \t2
        cmovnc  \d3, \t3
        mov     \t0, \out+0(%rsp)
        mov     \t1, \out+8(%rsp)
        mov     \t2, \out+16(%rsp)
        mov     \t3, \out+24(%rsp)
.endm

/* Row i >= 1 of the product: (s0..s4) += a * rdx, s4 fresh. */
.macro MUL_ROW a, s0, s1, s2, s3, s4
        xor     \s4, \s4                /* CF = OF = 0 */
        mulx    \a+0(%rsp), %rax, %rbx
        adcx    %rax, \s0
        adox    %rbx, \s1
        mulx    \a+8(%rsp), %rax, %rbx
        adcx    %rax, \s1
        adox    %rbx, \s2
        mulx    \a+16(%rsp), %rax, %rbx
        adcx    %rax, \s2
        adox    %rbx, \s3
        mulx    \a+24(%rsp), %rax, %rbx
        adcx    %rax, \s3
        adox    %rbx, \s4
        mov     $0, %eax
        adcx    %rax, \s4               /* the sum fits: no carry out */
.endm

/* One Montgomery step with m = s0 on the frame (s0, s1, s2, s3): adds m p
 * and drops word 0, so s0 becomes the frame's new top word.  Without a
 * multiplication (MULX is the bottleneck here): m p3 = m 2^64 - m 2^32 + m
 * is hi:lo = m:m - (m >> 32):(m << 32), and hi <= p3 - 1, so the carry
 * into it cannot overflow. */
.macro REDC_STEP s0, s1, s2, s3
        mov     \s0, %rcx
        shl     $32, %rcx               /* m << 32 */
        mov     \s0, %rdx
        shr     $32, %rdx               /* m >> 32 */
        mov     \s0, %rax
        sub     %rcx, %rax              /* lo(m p3) */
        sbb     %rdx, \s0               /* hi(m p3) */
        add     %rcx, \s1
        adc     %rdx, \s2
        adc     %rax, \s3
        adc     $0, \s0
.endm

/* The low half (r8..r11) of a product in r8..r15, reduced: four steps leave
 * u = (low + M p) / 2^256 <= p in r8..r11; u plus the high half is
 * a b R^-1 + (a multiple of p) < 2p, stored reduced at \out. */
.macro REDC_STORE out
        REDC_STEP %r8, %r9, %r10, %r11
        REDC_STEP %r9, %r10, %r11, %r8
        REDC_STEP %r10, %r11, %r8, %r9
        REDC_STEP %r11, %r8, %r9, %r10
        xor     %ebx, %ebx
        add     %r8, %r12
        adc     %r9, %r13
        adc     %r10, %r14
        adc     %r11, %r15
        adc     $0, %rbx
        FE_REDUCE_ONCE \out, %r12, %r13, %r14, %r15, %rbx, %r8, %r9, %r10, %r11
.endm

/* \out = \a * \b * R^-1 mod p (slot offsets). */
.macro FE_MUL out, a, b
        mov     \b+0(%rsp), %rdx
        mulx    \a+0(%rsp), %r8, %r9
        mulx    \a+8(%rsp), %rax, %r10
        add     %rax, %r9
        mulx    \a+16(%rsp), %rax, %r11
        adc     %rax, %r10
        mulx    \a+24(%rsp), %rax, %r12
        adc     %rax, %r11
        adc     $0, %r12
        mov     \b+8(%rsp), %rdx
        MUL_ROW \a, %r9, %r10, %r11, %r12, %r13
        mov     \b+16(%rsp), %rdx
        MUL_ROW \a, %r10, %r11, %r12, %r13, %r14
        mov     \b+24(%rsp), %rdx
        MUL_ROW \a, %r11, %r12, %r13, %r14, %r15
        REDC_STORE \out
.endm

/* \out = \a^2 R^-1 mod p: the six cross products a_i a_j (i < j) into
 * words 1..6, doubled (carry to word 7), plus the four squares a_i^2 at
 * words 2i, 2i + 1; ten MULX instead of sixteen.  Also uses rsi and rdi. */
.macro FE_SQR out, a
        mov     \a+0(%rsp), %rdx
        mulx    \a+8(%rsp), %r9, %r10
        mulx    \a+16(%rsp), %rax, %r11
        mulx    \a+24(%rsp), %rbx, %r12
        add     %rax, %r10
        adc     %rbx, %r11
        adc     $0, %r12                /* a0 (a1, a2, a3) in words 1..4 */
        mov     \a+8(%rsp), %rdx
        mulx    \a+16(%rsp), %rax, %rbx
        mulx    \a+24(%rsp), %rcx, %r13
        add     %rax, %r11
        adc     %rbx, %r12
        adc     $0, %r13
        add     %rcx, %r12
        adc     $0, %r13                /* + a1 (a2, a3) at words 3..5 */
        mov     \a+16(%rsp), %rdx
        mulx    \a+24(%rsp), %rax, %r14
        add     %rax, %r13
        adc     $0, %r14                /* + a2 a3 at words 5, 6 */
        xor     %r15d, %r15d
        add     %r9, %r9
        adc     %r10, %r10
        adc     %r11, %r11
        adc     %r12, %r12
        adc     %r13, %r13
        adc     %r14, %r14
        adc     $0, %r15                /* doubled, word 7 = carry */
        mov     \a+0(%rsp), %rdx
        mulx    %rdx, %r8, %rax
        mov     \a+8(%rsp), %rdx
        mulx    %rdx, %rbx, %rcx
        mov     \a+16(%rsp), %rdx
        mulx    %rdx, %rsi, %rdi
        add     %rax, %r9
        adc     %rbx, %r10
        adc     %rcx, %r11
        adc     %rsi, %r12
        adc     %rdi, %r13
        mov     \a+24(%rsp), %rdx      /* MOV and MULX leave CF alone */
        mulx    %rdx, %rax, %rbx
        adc     %rax, %r14
        adc     %rbx, %r15
        REDC_STORE \out
.endm

/* r8..r11 = the four words of slot \a. */
.macro LOAD4 a
        mov     \a+0(%rsp), %r8
        mov     \a+8(%rsp), %r9
        mov     \a+16(%rsp), %r10
        mov     \a+24(%rsp), %r11
.endm

/* \out = \a + \b mod p. */
.macro FE_ADD out, a, b
        LOAD4   \a
        xor     %ebx, %ebx
        add     \b+0(%rsp), %r8
        adc     \b+8(%rsp), %r9
        adc     \b+16(%rsp), %r10
        adc     \b+24(%rsp), %r11
        adc     $0, %rbx
        FE_REDUCE_ONCE \out, %r8, %r9, %r10, %r11, %rbx, %r12, %r13, %r14, %r15
.endm

/* \out = \a - \b mod p: on a borrow add p, masked (p & mask word by word:
 * mask, mask >> 32, 0, mask & p3). */
.macro FE_SUB out, a, b
        LOAD4   \a
        sub     \b+0(%rsp), %r8
        sbb     \b+8(%rsp), %r9
        sbb     \b+16(%rsp), %r10
        sbb     \b+24(%rsp), %r11
        sbb     %rcx, %rcx              /* all ones on a borrow */
        mov     %rcx, %rax
        shr     $32, %rax
        mov     .Lp3(%rip), %rdx
        and     %rcx, %rdx
        add     %rcx, %r8
        adc     %rax, %r9
        adc     $0, %r10
        adc     %rdx, %r11
        mov     %r8, \out+0(%rsp)
        mov     %r9, \out+8(%rsp)
        mov     %r10, \out+16(%rsp)
        mov     %r11, \out+24(%rsp)
.endm

/* Copy 32 bytes between (\sbase) + \soff and (\dbase) + \doff. */
.macro COPY32 doff, dbase, soff, sbase
        movdqu  \soff(\sbase), %xmm0
        movdqu  \soff+16(\sbase), %xmm1
        movdqu  %xmm0, \doff(\dbase)
        movdqu  %xmm1, \doff+16(\dbase)
.endm

        .globl  quill_p256_point_add_mixed_adx
        .hidden quill_p256_point_add_mixed_adx
        .type   quill_p256_point_add_mixed_adx, @function
        .p2align 5
quill_p256_point_add_mixed_adx:
        PUSH_REGS
        sub     $FRAME, %rsp            /* 16-byte aligned: 5 pushes + return address + 592 */
        .cfi_adjust_cfa_offset FRAME

        mov     %rdi, OUTPTR(%rsp)
        COPY32  X1, %rsp, 0, %rsi
        COPY32  Y1, %rsp, 32, %rsi
        COPY32  Z1, %rsp, 64, %rsi
        COPY32  X2, %rsp, 0, %rdx
        COPY32  Y2, %rsp, 32, %rdx

        FE_SQR  Z1Z1, Z1                /* Z1^2 */
        FE_MUL  U2, X2, Z1Z1            /* U2 = X2 Z1^2 */
        FE_MUL  S2, Z1, Z1Z1
        FE_MUL  S2, Y2, S2              /* S2 = Y2 Z1^3 */
        FE_SUB  H, U2, X1               /* H = U2 - X1 */
        FE_SQR  HH, H
        FE_ADD  I, HH, HH
        FE_ADD  I, I, I                 /* I = 4 H^2 */
        FE_MUL  J, H, I                 /* J = H I */
        FE_SUB  RR, S2, Y1
        FE_ADD  RR, RR, RR              /* r = 2 (S2 - Y1) */
        FE_MUL  V, X1, I                /* V = X1 I */
        FE_SQR  X3, RR
        FE_SUB  X3, X3, J
        FE_SUB  X3, X3, V
        FE_SUB  X3, X3, V               /* X3 = r^2 - J - 2 V */
        FE_SUB  T, V, X3
        FE_MUL  Y3, RR, T
        FE_MUL  T, Y1, J
        FE_ADD  T, T, T
        FE_SUB  Y3, Y3, T               /* Y3 = r (V - X3) - 2 Y1 J */
        FE_ADD  Z3, Z1, H
        FE_SQR  Z3, Z3
        FE_SUB  Z3, Z3, Z1Z1
        FE_SUB  Z3, Z3, HH              /* Z3 = (Z1 + H)^2 - Z1^2 - H^2 */

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

        add     $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        POP_REGS_RET
        .size   quill_p256_point_add_mixed_adx, .-quill_p256_point_add_mixed_adx

#endif

        .section .note.GNU-stack, "", @progbits
