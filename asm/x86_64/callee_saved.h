/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Prologue and epilogue macros for the x86-64 assembly (included by the
 * .S files, after the C preprocessor's #include): a function that uses the
 * callee-saved rbx and r12-r15 (System V AMD64) begins with PUSH_REGS and
 * returns with POP_REGS_RET.  PUSH_REGS opens the CFI procedure and places
 * ENDBR64 (CET indirect-branch target); POP_REGS_RET returns and closes it.
 * After PUSH_REGS the stack pointer is 16-byte aligned (the return address
 * and five pushes). */
#ifndef QUILL_ASM_X86_64_CALLEE_SAVED_H
#define QUILL_ASM_X86_64_CALLEE_SAVED_H

.macro PUSH_REGS
        .cfi_startproc
        endbr64
        push    %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -16
        push    %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -24
        push    %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -32
        push    %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -40
        push    %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -48
.endm

/* POP_REGS_RET_NOEND restores the registers and returns, leaving the CFI
 * procedure open (for a function with another return after it). */
.macro POP_REGS_RET_NOEND
        pop     %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        pop     %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        pop     %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        pop     %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        pop     %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        ret
.endm

.macro POP_REGS_RET
        POP_REGS_RET_NOEND
        .cfi_endproc
.endm

#endif
