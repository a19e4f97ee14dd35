/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Multi-limb addition and subtraction with one carry chain through ADC/SBB.
 * C prototypes (core/bn/internal.h):
 *
 *   quill_limb quill_bn_add_x86_64(quill_limb *r, const quill_limb *a,
 *                                  const quill_limb *b, size_t n);
 *   quill_limb quill_bn_sub_x86_64(quill_limb *r, const quill_limb *a,
 *                                  const quill_limb *b, size_t n);
 *
 * add: r = a + b mod 2^(64 n), returns the carry out (0 or 1).
 * sub: r = a - b mod 2^(64 n), returns the borrow out (0 or 1).
 * The contracts of quill_bn_add_c and quill_bn_sub_c (core/bn/add.c), whose
 * results these match bit for bit (test_bn_basic, test_bn_abi): n may be 0;
 * r may be a or b itself (each word is read before the same word of r is
 * written), not a partial overlap.
 *
 * Why assembly: gcc 12 compiles the portable loop (a 128-bit sum per limb)
 * to two ADD/ADC pairs and a register shuffle per limb, about 17
 * instructions on one dependency chain; here a limb is a load, an ADC or
 * SBB with a memory operand and a store, four limbs per loop iteration.
 * The flag chain survives the loop control: LEA and DEC leave CF alone, and
 * JRCXZ reads no flag.  A 32-limb addition: ~23 TSC ticks against ~64
 * (Zen 4).
 *
 * Calling convention: System V AMD64, rdi = r, rsi = a, rdx = b, rcx = n;
 * returns in rax.  Uses rax, rcx, r8-r11 (caller-saved) only; no stack, no
 * calls; direction flag untouched.  Required CPU features: none beyond
 * x86-64 (dispatched on QUILL_CPU_X86_64 so that QUILL_CPU_MASK can force
 * the C twins).  Constant time: the instruction stream depends on n only. */

#if defined(__x86_64__) && defined(__ELF__)

        .text

/* ADDSUB name, op: the loop for op = adc or sbb. */
.macro ADDSUB name, op
        .globl  \name
        .hidden \name
        .type   \name, @function
        .p2align 4
\name:
        .cfi_startproc
        endbr64
        xor     %eax, %eax
        mov     %rcx, %r8
        shr     $2, %r8                 /* blocks of four limbs */
        and     $3, %ecx                /* the limbs after them */
        test    %r8, %r8                /* CF = 0 from here on: the chain */
        jz      2f
1:
        mov     (%rsi), %r9
        mov     8(%rsi), %r10
        mov     16(%rsi), %r11
        \op     (%rdx), %r9
        \op     8(%rdx), %r10
        mov     %r9, (%rdi)
        mov     24(%rsi), %r9
        \op     16(%rdx), %r11
        \op     24(%rdx), %r9
        mov     %r10, 8(%rdi)
        mov     %r11, 16(%rdi)
        mov     %r9, 24(%rdi)
        lea     32(%rsi), %rsi
        lea     32(%rdx), %rdx
        lea     32(%rdi), %rdi
        dec     %r8
        jnz     1b
2:
        jrcxz   4f
3:
        mov     (%rsi), %r9
        \op     (%rdx), %r9
        mov     %r9, (%rdi)
        lea     8(%rsi), %rsi
        lea     8(%rdx), %rdx
        lea     8(%rdi), %rdi
        dec     %rcx
        jnz     3b
4:
        adc     $0, %eax                /* the carry or borrow out */
        ret
        .cfi_endproc
        .size   \name, .-\name
.endm

        ADDSUB  quill_bn_add_x86_64, adc
        ADDSUB  quill_bn_sub_x86_64, sbb

#endif

        .section .note.GNU-stack, "", @progbits
