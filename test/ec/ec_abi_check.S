/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Test-only trampoline for test_ec_adx (not part of the core).
 *
 *   unsigned ect_abi_call3(void *fn, uint64_t a0, uint64_t a1, uint64_t a2);
 *
 * System V AMD64: rdi = fn, rsi/rdx/rcx = the three arguments passed on to
 * fn in rdi/rsi/rdx.
 *
 *   unsigned ect_abi_call6(void *fn, const uint64_t args[6]);
 *
 * the same with the six arguments args[0..5] passed on in rdi, rsi, rdx,
 * rcx, r8 and r9.  Each loads canaries into the callee-saved registers rbx,
 * rbp, r12-r15, calls fn, and returns a bit mask of what fn did not
 * preserve: bit i set for register i of (rbx, rbp, r12, r13, r14, r15),
 * bit 6 for the stack pointer, bit 7 for the direction flag left set.
 * Baseline x86-64 only. */

#if defined(__x86_64__) && defined(__ELF__)

        .text
.macro ABI_CALL name, six
        .globl  \name
        .type   \name, @function
        .p2align 4
\name:
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
        sub     $8, %rsp                /* 16-byte alignment at the call */
        .cfi_adjust_cfa_offset 8
        mov     %rsp, ect_abi_saved_rsp(%rip)
        .if \six
        mov     %rdi, %rax
        mov     %rsi, %r11
        mov     0(%r11), %rdi
        mov     8(%r11), %rsi
        mov     16(%r11), %rdx
        mov     24(%r11), %rcx
        mov     32(%r11), %r8
        mov     40(%r11), %r9
        .else
        mov     %rdi, %rax
        mov     %rsi, %rdi
        mov     %rdx, %rsi
        mov     %rcx, %rdx
        .endif
        movabs  $0x5a5a5a5a5a5a5a01, %rbx
        movabs  $0x5a5a5a5a5a5a5a02, %rbp
        movabs  $0x5a5a5a5a5a5a5a03, %r12
        movabs  $0x5a5a5a5a5a5a5a04, %r13
        movabs  $0x5a5a5a5a5a5a5a05, %r14
        movabs  $0x5a5a5a5a5a5a5a06, %r15
        call    *%rax
        xor     %eax, %eax
        xor     %ecx, %ecx
        movabs  $0x5a5a5a5a5a5a5a01, %rdx
        cmp     %rdx, %rbx
        setne   %cl
        or      %ecx, %eax
        movabs  $0x5a5a5a5a5a5a5a02, %rdx
        cmp     %rdx, %rbp
        setne   %cl
        shl     $1, %ecx
        or      %ecx, %eax
        xor     %ecx, %ecx
        movabs  $0x5a5a5a5a5a5a5a03, %rdx
        cmp     %rdx, %r12
        setne   %cl
        shl     $2, %ecx
        or      %ecx, %eax
        xor     %ecx, %ecx
        movabs  $0x5a5a5a5a5a5a5a04, %rdx
        cmp     %rdx, %r13
        setne   %cl
        shl     $3, %ecx
        or      %ecx, %eax
        xor     %ecx, %ecx
        movabs  $0x5a5a5a5a5a5a5a05, %rdx
        cmp     %rdx, %r14
        setne   %cl
        shl     $4, %ecx
        or      %ecx, %eax
        xor     %ecx, %ecx
        movabs  $0x5a5a5a5a5a5a5a06, %rdx
        cmp     %rdx, %r15
        setne   %cl
        shl     $5, %ecx
        or      %ecx, %eax
        xor     %ecx, %ecx
        cmp     ect_abi_saved_rsp(%rip), %rsp
        setne   %cl
        shl     $6, %ecx
        or      %ecx, %eax
        pushf
        pop     %rdx
        shr     $10, %edx               /* DF is bit 10 of RFLAGS */
        and     $1, %edx
        shl     $7, %edx
        or      %edx, %eax
        cld
        mov     ect_abi_saved_rsp(%rip), %rsp
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
        .size   \name, .-\name

.endm

        ABI_CALL ect_abi_call3, 0
        ABI_CALL ect_abi_call6, 1

        .bss
        .p2align 3
ect_abi_saved_rsp:
        .zero   8

#endif

        .section .note.GNU-stack, "", @progbits
