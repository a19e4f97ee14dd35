/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Test-only trampoline for test_abi (not part of the core).
 *
 *   unsigned quill_abi_check_call(const uint64_t args[6], const void *fn);
 *
 * System V AMD64: rdi = args, rsi = fn.  Fills the callee-saved registers
 * rbx, rbp, r12-r15 with canaries, calls fn(args[0], ..., args[5]) (the six
 * integer argument registers), and returns a bit mask of what fn broke:
 * bit 0 rbx, 1 rbp, 2 r12, 3 r13, 4 r14, 5 r15, 6 the stack pointer,
 * 7 the direction flag left set.  Needs no CPU feature beyond x86-64. */

#if defined(__x86_64__) && defined(__ELF__)

        .text
        .globl  quill_abi_check_call
        .type   quill_abi_check_call, @function
        .p2align 4
quill_abi_check_call:
        .cfi_startproc
        endbr64
        push    %rbx
        .cfi_adjust_cfa_offset 8
        push    %rbp
        .cfi_adjust_cfa_offset 8
        push    %r12
        .cfi_adjust_cfa_offset 8
        push    %r13
        .cfi_adjust_cfa_offset 8
        push    %r14
        .cfi_adjust_cfa_offset 8
        push    %r15
        .cfi_adjust_cfa_offset 8
        sub     $8, %rsp
        .cfi_adjust_cfa_offset 8
        mov     %rsp, saved_rsp(%rip)
        mov     %rsi, %rax
        movabs  $0x0b0b0b0b0b0b0b01, %rbx
        movabs  $0x0b0b0b0b0b0b0b02, %rbp
        movabs  $0x0b0b0b0b0b0b0b03, %r12
        movabs  $0x0b0b0b0b0b0b0b04, %r13
        movabs  $0x0b0b0b0b0b0b0b05, %r14
        movabs  $0x0b0b0b0b0b0b0b06, %r15
        mov     8(%rdi), %rsi
        mov     16(%rdi), %rdx
        mov     24(%rdi), %rcx
        mov     32(%rdi), %r8
        mov     40(%rdi), %r9
        mov     0(%rdi), %rdi
        movabs  $0x0c0c0c0c0c0c0c0c, %r10
        movabs  $0x0d0d0d0d0d0d0d0d, %r11
        call    *%rax
        xor     %eax, %eax
        movabs  $0x0b0b0b0b0b0b0b01, %r11
        cmp     %r11, %rbx
        setne   %cl
        movzbl  %cl, %ecx
        or      %ecx, %eax
        movabs  $0x0b0b0b0b0b0b0b02, %r11
        cmp     %r11, %rbp
        setne   %cl
        movzbl  %cl, %ecx
        shl     $1, %ecx
        or      %ecx, %eax
        movabs  $0x0b0b0b0b0b0b0b03, %r11
        cmp     %r11, %r12
        setne   %cl
        movzbl  %cl, %ecx
        shl     $2, %ecx
        or      %ecx, %eax
        movabs  $0x0b0b0b0b0b0b0b04, %r11
        cmp     %r11, %r13
        setne   %cl
        movzbl  %cl, %ecx
        shl     $3, %ecx
        or      %ecx, %eax
        movabs  $0x0b0b0b0b0b0b0b05, %r11
        cmp     %r11, %r14
        setne   %cl
        movzbl  %cl, %ecx
        shl     $4, %ecx
        or      %ecx, %eax
        movabs  $0x0b0b0b0b0b0b0b06, %r11
        cmp     %r11, %r15
        setne   %cl
        movzbl  %cl, %ecx
        shl     $5, %ecx
        or      %ecx, %eax
        cmp     saved_rsp(%rip), %rsp
        setne   %cl
        movzbl  %cl, %ecx
        shl     $6, %ecx
        or      %ecx, %eax
        pushf
        pop     %rcx
        shr     $10, %ecx
        and     $1, %ecx
        shl     $7, %ecx
        or      %ecx, %eax
        cld
        mov     saved_rsp(%rip), %rsp
        add     $8, %rsp
        .cfi_adjust_cfa_offset -8
        pop     %r15
        .cfi_adjust_cfa_offset -8
        pop     %r14
        .cfi_adjust_cfa_offset -8
        pop     %r13
        .cfi_adjust_cfa_offset -8
        pop     %r12
        .cfi_adjust_cfa_offset -8
        pop     %rbp
        .cfi_adjust_cfa_offset -8
        pop     %rbx
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   quill_abi_check_call, .-quill_abi_check_call

/* Negative controls: quill_abi_bad_r15 changes r15, quill_abi_bad_df
 * returns with the direction flag set; the test expects the trampoline to
 * report them. */
        .globl  quill_abi_bad_r15
        .type   quill_abi_bad_r15, @function
quill_abi_bad_r15:
        endbr64
        not     %r15
        ret
        .size   quill_abi_bad_r15, .-quill_abi_bad_r15

        .globl  quill_abi_bad_df
        .type   quill_abi_bad_df, @function
quill_abi_bad_df:
        endbr64
        std
        ret
        .size   quill_abi_bad_df, .-quill_abi_bad_df

        .local  saved_rsp
        .comm   saved_rsp, 8, 8

#endif

        .section .note.GNU-stack, "", @progbits
