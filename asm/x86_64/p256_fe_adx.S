/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 Montgomery multiplication modulo p and modulo the group order n
 * with MULX and the two carry chains of ADCX (CF) and ADOX (OF).
 * C prototypes (core/ec/p256_adx.h):
 *
 *   void quill_p256_fe_mul_adx(uint64_t out[4], const uint64_t a[4],
 *                              const uint64_t b[4]);
 *   void quill_p256_fe_sqr_adx(uint64_t out[4], const uint64_t a[4]);
 *   void quill_p256_scalar_mul_adx(uint64_t out[4], const uint64_t a[4],
 *                                  const uint64_t b[4]);
 *
 * fe:     out = a b 2^-256 mod p, p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
 * scalar: out = a b 2^-256 mod n (the P-256 group order).
 * In: a, b < modulus.  Out: fully reduced (< modulus).  out may alias a or
 * b (written only at the end).  Constant time: no branch and no address
 * depends on the values (the final subtraction selects with CMOV).
 *
 * Calling convention: System V AMD64, rdi = out, rsi = a, rdx = b (moved
 * to rcx at entry, rdx being MULX's implicit operand).  Saves and restores
 * rbx, r12-r15; no calls, no stack buffer; direction flag untouched.
 * Required CPU features: BMI2 (MULX) and ADX (ADCX, ADOX).
 *
 * Algorithm: word-by-word Montgomery multiplication (CIOS, Koc, Acar and
 * Kaliski, IEEE Micro 1996).  Each of the four rows adds a b_i to the
 * five-word accumulator s (ADCX takes the low product words into s_j, ADOX
 * the high words into s_(j+1)), then adds m times the modulus so that word
 * 0 becomes zero, and drops that word.  Invariant: s < 2 * modulus after
 * every row ((s + a b_i + m M) / 2^64 < (2M + 2 (2^64 - 1) M) / 2^64 < 2M),
 * so the fifth word is 0 or 1.
 *
 * Modulo p: -p^-1 = 1 mod 2^64 (p0 = 2^64 - 1), so m = s_0; and
 * s_0 + m p0 = m 2^64, whose carry m plus m p1 = m (2^32 - 1) at word 1 is
 * m 2^32: (m << 32) into word 1, (m >> 32) into word 2; p2 = 0; only m p3
 * (p3 = 2^64 - 2^32 + 1, kept in r15) needs a multiplication.
 * Modulo n: m = s_0 n0 mod 2^64 with n0 = -n^-1 mod 2^64, and the full row
 * m n is added with MULX/ADCX/ADOX.
 *
 * Registers: rsi = a, rcx = b, rdi = out, rdx = the multiplier, rax/rbx =
 * product words, r8-r13 = the accumulator words (renamed from row to row),
 * r14 = scratch, r15 = p3 (fe) or free (scalar). */

#if defined(__x86_64__) && defined(__ELF__)

#include "callee_saved.h"

        .section .rodata
        .p2align 5
.Lsc_n:
        .quad   0xf3b9cac2fc632551, 0xbce6faada7179e84
        .quad   0xffffffffffffffff, 0xffffffff00000000
.Lsc_n0:
        .quad   0xccd1c8aaee00bc4f

        .text

/* s0..s4 += a * rdx, carries into s5 (zeroed here).  Clobbers rax, rbx,
 * flags. */
.macro ROW_MULADD s0, s1, s2, s3, s4, s5
        xor     %eax, %eax              /* CF = OF = 0 */
        mov     $0, \s5
        mulx    0(%rsi), %rax, %rbx
        adcx    %rax, \s0
        adox    %rbx, \s1
        mulx    8(%rsi), %rax, %rbx
        adcx    %rax, \s1
        adox    %rbx, \s2
        mulx    16(%rsi), %rax, %rbx
        adcx    %rax, \s2
        adox    %rbx, \s3
        mulx    24(%rsi), %rax, %rbx
        adcx    %rax, \s3
        adox    %rbx, \s4
        mov     $0, %eax
        adcx    %rax, \s4
        adox    %rax, \s5
        adcx    %rax, \s5
.endm

/* One reduction step modulo p with m = s0 (see the header comment); s0 is
 * zero afterwards and dropped by the caller. */
.macro FE_REDUCE s0, s1, s2, s3, s4, s5
        mov     \s0, %rdx
        mulx    %r15, %rax, %rbx        /* m p3 */
        mov     \s0, %r14
        shl     $32, %r14
        shr     $32, \s0
        add     %r14, \s1
        adc     \s0, \s2
        adc     %rax, \s3
        adc     %rbx, \s4
        adc     $0, \s5
.endm

/* One reduction step modulo n: m = s0 n0, s += m n. */
.macro SC_REDUCE s0, s1, s2, s3, s4, s5
        mov     \s0, %rdx
        imul    .Lsc_n0(%rip), %rdx
        xor     %eax, %eax
        mulx    .Lsc_n+0(%rip), %rax, %rbx
        adcx    %rax, \s0
        adox    %rbx, \s1
        mulx    .Lsc_n+8(%rip), %rax, %rbx
        adcx    %rax, \s1
        adox    %rbx, \s2
        mulx    .Lsc_n+16(%rip), %rax, %rbx
        adcx    %rax, \s2
        adox    %rbx, \s3
        mulx    .Lsc_n+24(%rip), %rax, %rbx
        adcx    %rax, \s3
        adox    %rbx, \s4
        mov     $0, %eax
        adcx    %rax, \s4
        adox    %rax, \s5
        adcx    %rax, \s5
.endm

/* Final subtraction modulo p of (t0..t4) < 2p, result to (rdi). */
.macro FE_FINAL t0, t1, t2, t3, t4
        mov     $0xffffffff, %r14d      /* p1 */
        mov     \t0, %rax
        mov     \t1, %rbx
        mov     \t2, %rdx
        mov     \t3, %rcx
        sub     $-1, %rax               /* p0 = 2^64 - 1 */
        sbb     %r14, %rbx
        sbb     $0, %rdx                /* p2 = 0 */
        sbb     %r15, %rcx
        sbb     $0, \t4
        /* borrow (CF = 1): t < p, keep t; else take t - p */
        cmovnc  %rax, \t0
        cmovnc  %rbx, \t1
        cmovnc  %rdx, \t2
        cmovnc  %rcx, \t3
        mov     \t0, 0(%rdi)
        mov     \t1, 8(%rdi)
        mov     \t2, 16(%rdi)
        mov     \t3, 24(%rdi)
.endm

/* The whole field product out = a b R^-1 mod p with b at (rcx). */
.macro FE_MUL_BODY
        movabs  $0xffffffff00000001, %r15
        /* row 0: s = a b_0 */
        mov     0(%rcx), %rdx
        mulx    0(%rsi), %r8, %r9
        mulx    8(%rsi), %rax, %r10
        add     %rax, %r9
        mulx    16(%rsi), %rbx, %r11
        adc     %rbx, %r10
        mulx    24(%rsi), %rax, %r12
        adc     %rax, %r11
        adc     $0, %r12
        xor     %r13d, %r13d
        FE_REDUCE %r8, %r9, %r10, %r11, %r12, %r13
        /* rows 1..3 */
        mov     8(%rcx), %rdx
        ROW_MULADD %r9, %r10, %r11, %r12, %r13, %r8
        FE_REDUCE %r9, %r10, %r11, %r12, %r13, %r8
        mov     16(%rcx), %rdx
        ROW_MULADD %r10, %r11, %r12, %r13, %r8, %r9
        FE_REDUCE %r10, %r11, %r12, %r13, %r8, %r9
        mov     24(%rcx), %rdx
        ROW_MULADD %r11, %r12, %r13, %r8, %r9, %r10
        FE_REDUCE %r11, %r12, %r13, %r8, %r9, %r10
        FE_FINAL %r12, %r13, %r8, %r9, %r10
.endm

        .globl  quill_p256_fe_mul_adx
        .hidden quill_p256_fe_mul_adx
        .type   quill_p256_fe_mul_adx, @function
        .p2align 5
quill_p256_fe_mul_adx:
        PUSH_REGS
        mov     %rdx, %rcx
        FE_MUL_BODY
        POP_REGS_RET
        .size   quill_p256_fe_mul_adx, .-quill_p256_fe_mul_adx

/* Squaring as the product a a (b = a). */
        .globl  quill_p256_fe_sqr_adx
        .hidden quill_p256_fe_sqr_adx
        .type   quill_p256_fe_sqr_adx, @function
        .p2align 5
quill_p256_fe_sqr_adx:
        PUSH_REGS
        mov     %rsi, %rcx
        FE_MUL_BODY
        POP_REGS_RET
        .size   quill_p256_fe_sqr_adx, .-quill_p256_fe_sqr_adx

        .globl  quill_p256_scalar_mul_adx
        .hidden quill_p256_scalar_mul_adx
        .type   quill_p256_scalar_mul_adx, @function
        .p2align 5
quill_p256_scalar_mul_adx:
        PUSH_REGS
        mov     %rdx, %rcx
        /* row 0: s = a b_0 */
        mov     0(%rcx), %rdx
        mulx    0(%rsi), %r8, %r9
        mulx    8(%rsi), %rax, %r10
        add     %rax, %r9
        mulx    16(%rsi), %rbx, %r11
        adc     %rbx, %r10
        mulx    24(%rsi), %rax, %r12
        adc     %rax, %r11
        adc     $0, %r12
        xor     %r13d, %r13d
        SC_REDUCE %r8, %r9, %r10, %r11, %r12, %r13
        mov     8(%rcx), %rdx
        ROW_MULADD %r9, %r10, %r11, %r12, %r13, %r8
        SC_REDUCE %r9, %r10, %r11, %r12, %r13, %r8
        mov     16(%rcx), %rdx
        ROW_MULADD %r10, %r11, %r12, %r13, %r8, %r9
        SC_REDUCE %r10, %r11, %r12, %r13, %r8, %r9
        mov     24(%rcx), %rdx
        ROW_MULADD %r11, %r12, %r13, %r8, %r9, %r10
        SC_REDUCE %r11, %r12, %r13, %r8, %r9, %r10
        /* final subtraction of n from (r12, r13, r8, r9, r10) < 2n */
        mov     %r12, %rax
        mov     %r13, %rbx
        mov     %r8, %rdx
        mov     %r9, %rcx
        sub     .Lsc_n+0(%rip), %rax
        sbb     .Lsc_n+8(%rip), %rbx
        sbb     .Lsc_n+16(%rip), %rdx
        sbb     .Lsc_n+24(%rip), %rcx
        sbb     $0, %r10
        cmovnc  %rax, %r12
        cmovnc  %rbx, %r13
        cmovnc  %rdx, %r8
        cmovnc  %rcx, %r9
        mov     %r12, 0(%rdi)
        mov     %r13, 8(%rdi)
        mov     %r8, 16(%rdi)
        mov     %r9, 24(%rdi)
        POP_REGS_RET
        .size   quill_p256_scalar_mul_adx, .-quill_p256_scalar_mul_adx

#endif

        .section .note.GNU-stack, "", @progbits
