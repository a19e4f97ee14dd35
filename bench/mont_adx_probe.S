/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-mont-probe's instruction sequences (bench/mont_adx_probe.c): the
 * building blocks of the MULX/ADCX/ADOX Montgomery kernels of
 * asm/x86_64/bn_mont_adx.S, each repeated in a loop so that the driver can
 * time them in core cycles.  Not part of the library; the values computed
 * are meaningless, only the instruction mix and the dependencies matter.
 *
 *   void quill_probe_X(long iterations, uint64_t *buf);   (System V AMD64)
 *
 * rdi = iterations (kept at 0(%rsp) after the pushes, so that every other
 * register is free), rsi = a buffer of 96 words (the mulx memory
 * operands, the stored words the column heads add, the retirement slots;
 * word 71 is the highest touched).
 * Requires BMI2 and ADX (and the driver checks CPUID before calling). */

#if defined(__x86_64__) && defined(__ELF__)

        .text

.macro PUSHALL
        endbr64
        push    %rbp
        push    %rbx
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        push    %rdi
.endm

.macro POPALL
        pop     %rdi
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbx
        pop     %rbp
        ret
.endm

/* the window pool of the band columns: nine registers, as in the kernels */
.macro WPOOL sym, idx
        .set    widx, (\idx) % 9
        .if     widx == 0
        .set    \sym, %r8
        .elseif widx == 1
        .set    \sym, %r9
        .elseif widx == 2
        .set    \sym, %r10
        .elseif widx == 3
        .set    \sym, %r11
        .elseif widx == 4
        .set    \sym, %r12
        .elseif widx == 5
        .set    \sym, %r13
        .elseif widx == 6
        .set    \sym, %r14
        .elseif widx == 7
        .set    \sym, %r15
        .else
        .set    \sym, %rbx
        .endif
.endm

/* A band column of eight products (the kernels' BCOL), with parts chosen
 * by the bits of v: 1 the head (adox of the stored word into W[0]), 2 the
 * tail (adcx of the last CF into W[8]), 4 the load of y_j and the store of
 * the retired word, 8 two RORX (independent ALU operations, no flags),
 * 16 four more RORX.  The XOR that zeroes the retired register (and clears
 * CF and OF) is always there. */
.macro COL v
        .if     \v & 4
        mov     8*(wr % 8)(%rsi), %rdx
        .endif
        .if     \v & 1
        WPOOL   WA, wr
        adox    256(%rsi), WA
        .endif
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        WPOOL   WB, wr + bk + 1
        mulx    128+8*bk(%rsi), %rdi, %rbp
        adcx    %rdi, WA
        adox    %rbp, WB
        .set    bk, bk + 1
        .endr
        .if     \v & 2
        WPOOL   WA, wr + 8
        adcx    %rax, WA
        .endif
        .if     \v & 8
        rorx    $1, %rcx, %rcx
        rorx    $1, %rcx, %rcx
        .endif
        .if     \v & 16
        rorx    $1, %rcx, %rcx
        rorx    $1, %rcx, %rcx
        rorx    $1, %rcx, %rcx
        rorx    $1, %rcx, %rcx
        .endif
        WPOOL   WA, wr
        .if     \v & 4
        mov     WA, 512+8*(wr % 8)(%rsi)
        .endif
        xor     WA, WA
        .set    wr, wr + 1
.endm

/* 18 columns per iteration (a multiple of the nine-register rotation) */
.macro COLPROBE name, v
        .globl  \name
        .type   \name, @function
\name:
        PUSHALL
        xor     %eax, %eax
        mov     (%rsi), %rdx
        .set    wr, 0
1:
        .rept   18
        COL     \v
        .endr
        decq    (%rsp)
        jnz     1b
        POPALL
        .size   \name, .-\name
.endm

        COLPROBE quill_probe_col_bare, 0
        COLPROBE quill_probe_col_tail, 2
        COLPROBE quill_probe_col_kernel, 7
        COLPROBE quill_probe_col_rorx2, 8
        COLPROBE quill_probe_col_rorx6, 24

/* 32 dependent ADDs per iteration: one core cycle each (the calibration) */
        .globl  quill_probe_add_chain
        .type   quill_probe_add_chain, @function
quill_probe_add_chain:
        PUSHALL
1:
        .rept   32
        add     %rax, %rax
        .endr
        decq    (%rsp)
        jnz     1b
        POPALL
        .size   quill_probe_add_chain, .-quill_probe_add_chain

/* 32 independent MULX with memory operands per iteration */
        .globl  quill_probe_mulx
        .type   quill_probe_mulx, @function
quill_probe_mulx:
        PUSHALL
        mov     (%rsi), %rdx
1:
        .set    k, 0
        .rept   16
        mulx    8*k(%rsi), %r8, %r9
        mulx    8*k+8(%rsi), %r10, %r11
        .set    k, k + 2
        .endr
        decq    (%rsp)
        jnz     1b
        POPALL
        .size   quill_probe_mulx, .-quill_probe_mulx

/* 32 products per iteration as one CF chain and one OF chain that never
 * restart (a row with its accumulator in eight rotating registers, no
 * retirement): the best case of MULX + ADCX + ADOX */
        .globl  quill_probe_row_reg
        .type   quill_probe_row_reg, @function
quill_probe_row_reg:
        PUSHALL
        mov     (%rsi), %rdx
        xor     %eax, %eax
1:
        .set    k, 0
        .rept   4
        mulx    8*k(%rsi), %rax, %rcx
        adcx    %rax, %r8
        adox    %rcx, %r9
        mulx    8*k+8(%rsi), %rax, %rcx
        adcx    %rax, %r9
        adox    %rcx, %r10
        mulx    8*k+16(%rsi), %rax, %rcx
        adcx    %rax, %r10
        adox    %rcx, %r11
        mulx    8*k+24(%rsi), %rax, %rcx
        adcx    %rax, %r11
        adox    %rcx, %r12
        mulx    8*k+32(%rsi), %rax, %rcx
        adcx    %rax, %r12
        adox    %rcx, %r13
        mulx    8*k+40(%rsi), %rax, %rcx
        adcx    %rax, %r13
        adox    %rcx, %r14
        mulx    8*k+48(%rsi), %rax, %rcx
        adcx    %rax, %r14
        adox    %rcx, %r15
        mulx    8*k+56(%rsi), %rax, %rcx
        adcx    %rax, %r15
        adox    %rcx, %r8
        .set    k, k + 8
        .endr
        decq    (%rsp)
        jnz     1b
        POPALL
        .size   quill_probe_row_reg, .-quill_probe_row_reg

/* 32 products per iteration as one uninterrupted row over t in memory
 * (load t[k + 1], add, store t[k]: the generic kernels' LROW unrolled) */
        .globl  quill_probe_row_mem
        .type   quill_probe_row_mem, @function
quill_probe_row_mem:
        PUSHALL
        mov     (%rsi), %rdx
        xor     %eax, %eax
1:
        mov     256(%rsi), %r12
        .set    k, 0
        .rept   16
        mulx    8*k(%rsi), %r10, %r11
        mov     256+8*k+8(%rsi), %r13
        adcx    %r10, %r12
        adox    %r11, %r13
        mov     %r12, 256+8*k(%rsi)
        .set    k, k + 1
        mulx    8*k(%rsi), %r10, %r11
        mov     256+8*k+8(%rsi), %r12
        adcx    %r10, %r13
        adox    %r11, %r12
        mov     %r13, 256+8*k(%rsi)
        .set    k, k + 1
        .endr
        decq    (%rsp)
        jnz     1b
        POPALL
        .size   quill_probe_row_mem, .-quill_probe_row_mem

#endif

        .section .note.GNU-stack, "", @progbits
