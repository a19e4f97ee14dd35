/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The timed loops of quill-p256-probe (bench/p256_fe_probe.c): the P-256
 * field macros of asm/x86_64/p256_fe_macros.h as a dependent chain, as two
 * independent chains, and two products interleaved row by row in one macro
 * (FE_MUL2, below: the form tried for the point formulas and not kept),
 * plus MULX beside independent ADDs.  Each routine is
 *
 *   void quill_p256probe_NAME(long iterations, const uint64_t buf[16]);
 *
 * buf: four field elements (slots A, B, C, D of the frame; values below p
 * keep the macros' contracts, the timing does not depend on them).  System
 * V AMD64; saves and restores rbx, rbp, r12-r15.  Requires BMI2 and ADX.
 * x86-64 ELF only. */

#if defined(__x86_64__) && defined(__ELF__)

#include "p256_fe_macros.h"

#define SA      0
#define SB      32
#define SC      64
#define SD      96
#define COUNT   128

.macro PROBE name
        .globl  \name
        .type   \name, @function
\name:
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $136, %rsp              /* 16-byte aligned: 6 pushes + return address + 136 */
        mov     %rdi, COUNT(%rsp)
        COPY32  SA, %rsp, 0, %rsi
        COPY32  SB, %rsp, 32, %rsi
        COPY32  SC, %rsp, 64, %rsi
        COPY32  SD, %rsp, 96, %rsi
1:
.endm

.macro PROBE_END name
        decq    COUNT(%rsp)
        jnz     1b
        add     $136, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   \name, .-\name
.endm

/* FE_MUL2: two independent field products, interleaved, so that one's
 * carry chains run while the other's wait.  Each is word-by-word
 * Montgomery (CIOS): row i adds a b_i to a five-word accumulator (four
 * words and a carry word), then one reduction step with m = its low word
 * (the shifts and subtraction of REDC_STEP) drops that word.  Invariant
 * after every step: accumulator < 2p, so the carry word is 0 or 1 and the
 * result is one conditional subtraction of p away.  Five registers per
 * product (A: r8..r12, B: r13, r14, r15, rdi, rbp, renamed from row to
 * row), rax, rbx, rcx, rdx scratch, rsi = 32 (shift count). */

/* Row 0: (w0..w4) = a * rdx with rdx = the word at \boff. */
.macro CIOS_ROW0 a, boff, w0, w1, w2, w3, w4
        mov     \boff(%rsp), %rdx
        mulx    \a+0(%rsp), \w0, \w1
        mulx    \a+8(%rsp), %rax, \w2
        add     %rax, \w1
        mulx    \a+16(%rsp), %rax, \w3
        adc     %rax, \w2
        mulx    \a+24(%rsp), %rax, \w4
        adc     %rax, \w3
        adc     $0, \w4
.endm

/* Row i >= 1: (w0..w4) += a * the word at \boff (w4 the carry word:
 * the sum fits in the five words, see above). */
.macro CIOS_ROW a, boff, w0, w1, w2, w3, w4
        mov     \boff(%rsp), %rdx
        xor     %eax, %eax              /* CF = OF = 0 */
        mulx    \a+0(%rsp), %rax, %rbx
        adcx    %rax, \w0
        adox    %rbx, \w1
        mulx    \a+8(%rsp), %rax, %rbx
        adcx    %rax, \w1
        adox    %rbx, \w2
        mulx    \a+16(%rsp), %rax, %rbx
        adcx    %rax, \w2
        adox    %rbx, \w3
        mulx    \a+24(%rsp), %rax, %rbx
        adcx    %rax, \w3
        adox    %rbx, \w4
        mov     $0, %eax
        adcx    %rax, \w4
.endm

/* One reduction step on (w0..w4) with m = w0: adds m p (REDC_STEP's
 * shifts and subtraction), so that word 0 drops; w0 becomes the carry
 * word: the accumulator is (w1, w2, w3, w4, w0) afterwards. */
.macro CIOS_REDC w0, w1, w2, w3, w4
        shlx    %rsi, \w0, %rcx         /* m << 32 (rsi = 32) */
        shrx    %rsi, \w0, %rdx         /* m >> 32 */
        mov     \w0, %rax
        sub     %rcx, %rax              /* lo(m p3) */
        sbb     %rdx, \w0               /* hi(m p3) */
        add     %rcx, \w1
        adc     %rdx, \w2
        adc     %rax, \w3
        adc     \w0, \w4
        mov     $0, \w0
        adc     $0, \w0
.endm

/* \oA = \aA \bA R^-1 mod p and \oB = \aB \bB R^-1 mod p (slot offsets;
 * an output slot may be an input of the same or the other product: both
 * are written at the end).  The results are also left in r12, r8, r9,
 * r10 (A) and rbp, r13, r14, r15 (B); with an output blank, only there.
 * Clobbers every general register but rsp. */
.macro FE_MUL2 oA, aA, bA, oB, aB, bB
        mov     $32, %esi
        CIOS_ROW0 \aA, \bA+0, %r8, %r9, %r10, %r11, %r12
        CIOS_ROW0 \aB, \bB+0, %r13, %r14, %r15, %rdi, %rbp
        CIOS_REDC %r8, %r9, %r10, %r11, %r12
        CIOS_REDC %r13, %r14, %r15, %rdi, %rbp
        CIOS_ROW \aA, \bA+8, %r9, %r10, %r11, %r12, %r8
        CIOS_ROW \aB, \bB+8, %r14, %r15, %rdi, %rbp, %r13
        CIOS_REDC %r9, %r10, %r11, %r12, %r8
        CIOS_REDC %r14, %r15, %rdi, %rbp, %r13
        CIOS_ROW \aA, \bA+16, %r10, %r11, %r12, %r8, %r9
        CIOS_ROW \aB, \bB+16, %r15, %rdi, %rbp, %r13, %r14
        CIOS_REDC %r10, %r11, %r12, %r8, %r9
        CIOS_REDC %r15, %rdi, %rbp, %r13, %r14
        CIOS_ROW \aA, \bA+24, %r11, %r12, %r8, %r9, %r10
        CIOS_ROW \aB, \bB+24, %rdi, %rbp, %r13, %r14, %r15
        CIOS_REDC %r11, %r12, %r8, %r9, %r10
        CIOS_REDC %rdi, %rbp, %r13, %r14, %r15
        FE_REDUCE_ONCE \oA, %r12, %r8, %r9, %r10, %r11, %rax, %rbx, %rcx, %rdx
        FE_REDUCE_ONCE \oB, %rbp, %r13, %r14, %r15, %rdi, %rax, %rbx, %rcx, %rdx
.endm

/* 32 dependent ADDs: one core cycle each (the calibration) */
PROBE quill_p256probe_add_chain
        .rept   32
        add     %rax, %rax
        .endr
PROBE_END quill_p256probe_add_chain

/* one FE_MUL chain: B = A B (the previous result as \b, as in the formulas) */
PROBE quill_p256probe_mul_chain
        FE_MUL  SB, SA, SB
PROBE_END quill_p256probe_mul_chain

/* two independent FE_MUL chains, one after the other in program order */
PROBE quill_p256probe_mul_two
        FE_MUL  SB, SA, SB
        FE_MUL  SD, SC, SD
PROBE_END quill_p256probe_mul_two

/* the same two chains in one FE_MUL2 */
PROBE quill_p256probe_mul_pair
        FE_MUL2 SB, SA, SB, SD, SC, SD
PROBE_END quill_p256probe_mul_pair

/* one FE_SQR chain */
PROBE quill_p256probe_sqr_chain
        FE_SQR  SB, SB
PROBE_END quill_p256probe_sqr_chain

/* 48 independent MULX and 96 ADDs on five other registers */
PROBE quill_p256probe_mulx_add
        mov     SA(%rsp), %rdx
        mov     SB(%rsp), %rbx
        .rept   24
        mulx    %rbx, %r8, %r9
        add     %rbx, %rax
        add     %rbx, %rcx
        mulx    %rbx, %r10, %r11
        add     %rbx, %rsi
        add     %rbx, %rdi
        .endr
PROBE_END quill_p256probe_mulx_add

/* 96 ADDs alone, as in quill_p256probe_mulx_add */
PROBE quill_p256probe_add_only
        mov     SB(%rsp), %rbx
        .rept   24
        add     %rbx, %rax
        add     %rbx, %rcx
        add     %rbx, %rsi
        add     %rbx, %rdi
        .endr
PROBE_END quill_p256probe_add_only

#endif

        .section .note.GNU-stack, "", @progbits
