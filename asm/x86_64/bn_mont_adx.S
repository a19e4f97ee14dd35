/* Copyright quill authors.
 *
 * Montgomery multiplication and squaring with MULX and the two carry chains
 * of ADCX (CF) and ADOX (OF).  C prototypes (core/bn/mont_adx.h):
 *
 *   void quill_mont_mul_adx_N(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *b, const quill_limb *m,
 *                             quill_limb n0, size_t n);  N = 8,16,24,32,48,64
 *   void quill_mont_sqr_adx_N(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *m, quill_limb n0, size_t n);
 *   void quill_mont_mul_adx(...), quill_mont_sqr_adx(...)   any n >= 2
 *
 * r = a b R^-1 mod m (r = a^2 R^-1 mod m), R = 2^(64 n), a, b < m, m odd,
 * n0 = -m^-1 mod 2^64.  r may alias a or b (it is written only at the end);
 * m must not overlap r.  The _N entry points ignore n (it must equal N).
 *
 * Calling convention: System V AMD64.  Arguments mul: rdi = r, rsi = a,
 * rdx = b, rcx = m, r8 = n0, r9 = n; sqr: rdi = r, rsi = a, rdx = m,
 * rcx = n0, r8 = n (moved to the mul layout at entry).  Saves and restores
 * rbx, rbp, r12-r15; no calls; direction flag untouched.
 * Required CPU features: BMI2 (MULX) and ADX (ADCX, ADOX); SSE2 (wipe).
 *
 * Algorithm: the full product t = a b (2n limbs, in a stack buffer) row by
 * row, then n rows of Montgomery reduction t += u_i m 2^(64 i) with
 * u_i = t_i n0 mod 2^64 (separated operand scanning, Koc, Acar and
 * Kaliski, IEEE Micro 1996).  Squaring computes the cross products
 * a_i a_j (i < j) once, doubles them and adds the diagonal a_i^2 in one
 * pass, then reduces likewise.  Every row t[k + j] += x src[j] runs two
 * carry chains (Gopal et al., "Fast and constant-time implementation of
 * modular exponentiation", Intel 2009 / the ADX white paper): the low word
 * of x src[j] is added into t[k + j] with ADCX and the high word into
 * t[k + j + 1] with ADOX, so each word of t receives one addition per chain.
 *
 * Register use in a row: rdx = the multiplier (b_i, a_i or u_i), r10/r11 =
 * low/high product words, r12/r13 = the current and next word of t, rax = 0,
 * rbx = the row's position in t, r14 = the carry word of the reduction
 * (into t[i + n]), rbp = b pointer, r15 = end marker, rsi = a, rcx = m,
 * r8 = n0, rdi = r.  In the generic kernels rcx is the (negative) loop index
 * and r15 points past the end of m, loops are closed with LEA and JRCXZ so
 * that the carry flags survive.
 *
 * Bounds: the product rows never carry past t[i + n] (a (b mod 2^(64(i+1)))
 * < 2^(64(n+i+1))); the result of the reduction is t' = (t + U m)/R < 2m,
 * held in n limbs plus a top word r14 in {0, 1}.  The final subtraction
 * computes d = t' - m and keeps t' by mask (r14 - borrow is all-ones
 * exactly when t' < m): no branch and no address depends on data.
 *
 * Scratch: the 2n-limb t on the stack, wiped with zeros before return (it
 * holds secret-dependent values). */

#if defined(__x86_64__) && defined(__ELF__)

        .text

/* ---- unrolled rows (the symbol rj is the step counter) ---- */

/* One step j of a row: the word t[tdisp] = lo(x src[sdisp]) + t[tdisp]
 * (memory operand, CF chain) + the previous high word hprev (OF chain);
 * the high word goes to hcur for the next step. */
.macro MSTEP sdisp, src, tdisp, tbase, hprev, hcur, fresh
        mulx    \sdisp(\src), %r10, \hcur
.if \fresh
        adcx    %rax, %r10
.else
        adcx    \tdisp(\tbase), %r10
.endif
        adox    \hprev, %r10
        mov     %r10, \tdisp(\tbase)
.endm

/* MROW: t[toff + j] += x src[sidx + j] for j < len, x in rdx, rax = 0 and
 * CF = OF = 0 on entry.  fresh: t[toff .. toff + len] are known to be zero
 * (not read: the first row of a product).  red: 0 for a product row (no
 * carry out of t[toff + len], which is zero before the row), 1 for a
 * reduction row (t[toff + len] is read, r14 is added into it and becomes
 * the carry into the next word).  The high words alternate between r11 and
 * r13. */
.macro MROW src, sidx, tbase, toff, len, fresh, red
        .set    rj, 0
        .rept   \len
        .if     rj == 0
        MSTEP   8*(\sidx+rj), \src, 8*(\toff+rj), \tbase, %rax, %r11, \fresh
        .elseif (rj & 1) == 1
        MSTEP   8*(\sidx+rj), \src, 8*(\toff+rj), \tbase, %r11, %r13, \fresh
        .else
        MSTEP   8*(\sidx+rj), \src, 8*(\toff+rj), \tbase, %r13, %r11, \fresh
        .endif
        .set    rj, rj + 1
        .endr
        .if     (\len) & 1
        MROW_TAIL %r11, \tbase, \toff, \len, \red
        .else
        MROW_TAIL %r13, \tbase, \toff, \len, \red
        .endif
.endm

/* The word t[toff + len]: CF and OF pending, hlast the last high word. */
.macro MROW_TAIL hlast, tbase, toff, len, red
.if \red
        mov     8*(\toff+\len)(\tbase), %r12
        adcx    %r14, %r12
        adox    \hlast, %r12
        mov     %r12, 8*(\toff+\len)(\tbase)
        mov     %rax, %r14
        adcx    %rax, %r14
        adox    %rax, %r14
.else
        mov     %rax, %r12
        adcx    %rax, %r12
        adox    \hlast, %r12
        mov     %r12, 8*(\toff+\len)(\tbase)
.endif
.endm

/* ---- shared pieces ---- */

.macro PROLOGUE
        .cfi_startproc
        endbr64
        push    %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        push    %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -24
        push    %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        push    %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        push    %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        push    %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -56
.endm

.macro EPILOGUE
        pop     %r15
        .cfi_adjust_cfa_offset -8
        pop     %r14
        .cfi_adjust_cfa_offset -8
        pop     %r13
        .cfi_adjust_cfa_offset -8
        pop     %r12
        .cfi_adjust_cfa_offset -8
        pop     %rbx
        .cfi_adjust_cfa_offset -8
        pop     %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
.endm

/* sqr arguments (rdi, rsi, rdx = m, rcx = n0, r8 = n) to the mul layout
 * (rcx = m, r8 = n0, r9 = n) */
.macro SQR_ARGS
        mov     %r8, %r9
        mov     %rcx, %r8
        mov     %rdx, %rcx
.endm

/* Zero nbytes (a multiple of 16) at disp(base), unrolled. */
.macro ZERO16 base, disp, nbytes
        pxor    %xmm0, %xmm0
        .set    rz, 0
        .rept   (\nbytes) / 16
        movdqu  %xmm0, \disp+rz(\base)
        .set    rz, rz + 16
        .endr
.endm

/* Reduction rows for fixed N: t (2N limbs) at rsp. */
.macro REDUCE_N N
        mov     %rsp, %rbx
        xor     %r14d, %r14d
        lea     8*\N(%rsp), %r15
1:
        mov     (%rbx), %rdx
        imul    %r8, %rdx
        xor     %eax, %eax
        MROW    %rcx, 0, %rbx, 0, \N, 0, 1
        lea     8(%rbx), %rbx
        cmp     %r15, %rbx
        jne     1b
.endm

/* r = t' - m if that does not borrow past r14, else t'; t' = N limbs at
 * (%rbx). */
.macro FINAL_N N
        mov     (%rbx), %r10
        sub     (%rcx), %r10
        mov     %r10, (%rdi)
        .set    rk, 1
        .rept   \N - 1
        mov     8*rk(%rbx), %r10
        sbb     8*rk(%rcx), %r10
        mov     %r10, 8*rk(%rdi)
        .set    rk, rk + 1
        .endr
        sbb     $0, %r14
        .set    rk, 0
        .rept   \N
        mov     8*rk(%rdi), %r10
        mov     8*rk(%rbx), %r11
        xor     %r10, %r11
        and     %r14, %r11
        xor     %r11, %r10
        mov     %r10, 8*rk(%rdi)
        .set    rk, rk + 1
        .endr
.endm

/* ---- fixed sizes ---- */

.macro MONT_MUL_N N
        .globl  quill_mont_mul_adx_\N
        .hidden quill_mont_mul_adx_\N
        .type   quill_mont_mul_adx_\N, @function
        .p2align 5
quill_mont_mul_adx_\N:
        PROLOGUE
        sub     $16*\N, %rsp
        .cfi_adjust_cfa_offset 16*\N
        mov     %rdx, %rbp
        ZERO16  %rsp, 0, 8*\N
        mov     %rsp, %rbx
        lea     8*\N(%rbp), %r15
2:
        mov     (%rbp), %rdx
        lea     8(%rbp), %rbp
        xor     %eax, %eax
        MROW    %rsi, 0, %rbx, 0, \N, 0, 0
        lea     8(%rbx), %rbx
        cmp     %r15, %rbp
        jne     2b
        REDUCE_N \N
        FINAL_N \N
        ZERO16  %rsp, 0, 16*\N
        add     $16*\N, %rsp
        .cfi_adjust_cfa_offset -16*\N
        EPILOGUE
        .size   quill_mont_mul_adx_\N, .-quill_mont_mul_adx_\N
.endm

.macro MONT_SQR_N N
        .globl  quill_mont_sqr_adx_\N
        .hidden quill_mont_sqr_adx_\N
        .type   quill_mont_sqr_adx_\N, @function
        .p2align 5
quill_mont_sqr_adx_\N:
        PROLOGUE
        SQR_ARGS
        sub     $16*\N, %rsp
        .cfi_adjust_cfa_offset 16*\N
        ZERO16  %rsp, 0, 16*\N
        /* cross products: row i adds a_i a[i+1..N-1] at t[2i+1..] */
        .set    ri, 0
        .rept   \N - 1
        mov     8*ri(%rsi), %rdx
        xor     %eax, %eax
        MROW    %rsi, ri+1, %rsp, 2*ri+1, \N-1-ri, 0, 0
        .set    ri, ri + 1
        .endr
        /* t = 2 t + sum a_i^2 2^(128 i): doubling on CF, diagonal on OF */
        xor     %eax, %eax
        .set    ri, 0
        .rept   \N
        mov     8*ri(%rsi), %rdx
        mulx    %rdx, %r10, %r11
        mov     16*ri(%rsp), %r12
        mov     16*ri+8(%rsp), %r13
        adcx    %r12, %r12
        adcx    %r13, %r13
        adox    %r10, %r12
        adox    %r11, %r13
        mov     %r12, 16*ri(%rsp)
        mov     %r13, 16*ri+8(%rsp)
        .set    ri, ri + 1
        .endr
        REDUCE_N \N
        FINAL_N \N
        ZERO16  %rsp, 0, 16*\N
        add     $16*\N, %rsp
        .cfi_adjust_cfa_offset -16*\N
        EPILOGUE
        .size   quill_mont_sqr_adx_\N, .-quill_mont_sqr_adx_\N
.endm

        MONT_MUL_N 8
        MONT_SQR_N 8
        MONT_MUL_N 16
        MONT_SQR_N 16
        MONT_MUL_N 24
        MONT_SQR_N 24
        MONT_MUL_N 32
        MONT_SQR_N 32

/* ---- any size n >= 2 (loops) ---- */

/* LROW src: t[k] += x src[k] for k = rcx .. -1 (rcx < 0), addresses
 * (src,k,8) and (rbx,k,8); on exit r12 = t[0 relative to rbx] with the
 * high words added and CF pending into it.  x in rdx, rax = 0,
 * CF = OF = 0 on entry. */
.macro LROW src
        mov     (%rbx,%rcx,8), %r12
3:
        mulx    (\src,%rcx,8), %r10, %r11
        mov     8(%rbx,%rcx,8), %r13
        adcx    %r10, %r12
        adox    %r11, %r13
        mov     %r12, (%rbx,%rcx,8)
        lea     1(%rcx), %rcx
        jrcxz   5f
        mulx    (\src,%rcx,8), %r10, %r11
        mov     8(%rbx,%rcx,8), %r12
        adcx    %r10, %r13
        adox    %r11, %r12
        mov     %r13, (%rbx,%rcx,8)
        lea     1(%rcx), %rcx
        jrcxz   6f
        mulx    (\src,%rcx,8), %r10, %r11
        mov     8(%rbx,%rcx,8), %r13
        adcx    %r10, %r12
        adox    %r11, %r13
        mov     %r12, (%rbx,%rcx,8)
        lea     1(%rcx), %rcx
        jrcxz   5f
        mulx    (\src,%rcx,8), %r10, %r11
        mov     8(%rbx,%rcx,8), %r12
        adcx    %r10, %r13
        adox    %r11, %r12
        mov     %r13, (%rbx,%rcx,8)
        lea     1(%rcx), %rcx
        jrcxz   6f
        jmp     3b
5:
        mov     %r13, %r12
6:
.endm

/* Squaring for larger fixed N: the cross-product rows (of varying length)
 * as loops (LROW), the diagonal and the reduction rows unrolled.  Frame:
 * t (2N limbs) at rsp, the end marker at 16N(%rsp). */
.macro MONT_SQR_L N
        .globl  quill_mont_sqr_adx_\N
        .hidden quill_mont_sqr_adx_\N
        .type   quill_mont_sqr_adx_\N, @function
        .p2align 5
quill_mont_sqr_adx_\N:
        PROLOGUE
        SQR_ARGS
        sub     $16*\N+16, %rsp
        .cfi_adjust_cfa_offset 16*\N+16
        ZERO16  %rsp, 0, 16*\N
        mov     %rcx, %r15              /* m: rcx is the loop index below */
        mov     %rsi, %rbp
        lea     8*\N(%rsi), %rsi
        lea     -8(%rsi), %rax
        mov     %rax, 16*\N(%rsp)
        lea     8*\N(%rsp), %rbx
        /* cross rows as in quill_mont_sqr_adx */
13:
        mov     (%rbp), %rdx
        mov     %rbp, %rcx
        sub     %rsi, %rcx
        sar     $3, %rcx
        inc     %rcx
        xor     %eax, %eax
        LROW    %rsi
        adcx    %rax, %r12
        mov     %r12, (%rbx)
        lea     8(%rbx), %rbx
        lea     8(%rbp), %rbp
        cmp     16*\N(%rsp), %rbp
        jne     13b
        mov     %r15, %rcx
        xor     %eax, %eax
        .set    ri, 0
        .rept   \N
        mov     8*(ri-\N)(%rsi), %rdx
        mulx    %rdx, %r10, %r11
        mov     16*ri(%rsp), %r12
        mov     16*ri+8(%rsp), %r13
        adcx    %r12, %r12
        adcx    %r13, %r13
        adox    %r10, %r12
        adox    %r11, %r13
        mov     %r12, 16*ri(%rsp)
        mov     %r13, 16*ri+8(%rsp)
        .set    ri, ri + 1
        .endr
        REDUCE_N \N
        FINAL_N \N
        ZERO16  %rsp, 0, 16*\N
        add     $16*\N+16, %rsp
        .cfi_adjust_cfa_offset -16*\N-16
        EPILOGUE
        .size   quill_mont_sqr_adx_\N, .-quill_mont_sqr_adx_\N
.endm

        MONT_MUL_N 48
        MONT_SQR_L 48
        MONT_MUL_N 64
        MONT_SQR_L 64

/* Frame of the generic kernels: 0(%rsp) the caller's rsp, 8(%rsp) an end
 * marker, t (2n limbs) from 16(%rsp).  The frame size depends on n, so the
 * CFA is described through the saved rsp. */
.macro GFRAME
        mov     %r9, %r10
        shl     $4, %r10
        neg     %r10
        lea     -16(%rsp,%r10), %r10
        and     $-16, %r10
        mov     %rsp, %rax
        mov     %r10, %rsp
        mov     %rax, 0(%rsp)
        /* CFA = *(rsp) + 56: DW_CFA_def_cfa_expression
         * (DW_OP_breg7 0, DW_OP_deref, DW_OP_plus_uconst 56) */
        .cfi_escape 0x0f, 0x05, 0x77, 0x00, 0x06, 0x23, 0x38
        pxor    %xmm0, %xmm0
        lea     16(%rsp), %rax
        mov     %r9, %r10
4:
        movdqu  %xmm0, (%rax)
        add     $16, %rax
        dec     %r10
        jnz     4b
.endm

/* Reduction, final subtraction, wipe and return for the generic kernels.
 * Needs r15 = m + 8n, rdi = r, r8 = n0, r9 = n. */
.macro GTAIL
        lea     16(%rsp,%r9,8), %rbx
        lea     (%rbx,%r9,8), %rax
        mov     %rax, 8(%rsp)
        xor     %r14d, %r14d
7:
        mov     %r9, %rcx
        neg     %rcx
        mov     (%rbx,%rcx,8), %rdx
        imul    %r8, %rdx
        xor     %eax, %eax
        LROW    %r15
        adcx    %r14, %r12
        mov     %r12, (%rbx)
        mov     %rax, %r14
        adcx    %rax, %r14
        adox    %rax, %r14
        lea     8(%rbx), %rbx
        cmp     8(%rsp), %rbx
        jne     7b
        /* t' = (rbx - 8n .. rbx), d = t' - m into r */
        lea     (%rdi,%r9,8), %rdi
        mov     %r9, %rcx
        neg     %rcx
        clc
8:
        mov     (%rbx,%rcx,8), %r10
        sbb     (%r15,%rcx,8), %r10
        mov     %r10, (%rdi,%rcx,8)
        lea     1(%rcx), %rcx
        jrcxz   9f
        jmp     8b
9:
        sbb     $0, %r14
        mov     %r9, %rcx
        neg     %rcx
10:
        mov     (%rdi,%rcx,8), %r10
        mov     (%rbx,%rcx,8), %r11
        xor     %r10, %r11
        and     %r14, %r11
        xor     %r11, %r10
        mov     %r10, (%rdi,%rcx,8)
        inc     %rcx
        jnz     10b
        /* wipe t */
        pxor    %xmm0, %xmm0
        lea     16(%rsp), %rax
        mov     %r9, %r10
11:
        movdqu  %xmm0, (%rax)
        add     $16, %rax
        dec     %r10
        jnz     11b
        mov     0(%rsp), %rsp
        .cfi_def_cfa %rsp, 56
        EPILOGUE
.endm

        .globl  quill_mont_mul_adx
        .hidden quill_mont_mul_adx
        .type   quill_mont_mul_adx, @function
        .p2align 5
quill_mont_mul_adx:
        PROLOGUE
        GFRAME
        mov     %rdx, %rbp
        lea     (%rsi,%r9,8), %rsi
        lea     (%rcx,%r9,8), %r15
        lea     (%rbp,%r9,8), %rax
        mov     %rax, 8(%rsp)
        lea     16(%rsp,%r9,8), %rbx
        /* product rows: t[i .. i+n] += a b_i, rbx = t + 8(i + n) */
12:
        mov     (%rbp), %rdx
        lea     8(%rbp), %rbp
        mov     %r9, %rcx
        neg     %rcx
        xor     %eax, %eax
        LROW    %rsi
        adcx    %rax, %r12
        mov     %r12, (%rbx)
        lea     8(%rbx), %rbx
        cmp     8(%rsp), %rbp
        jne     12b
        GTAIL
        .size   quill_mont_mul_adx, .-quill_mont_mul_adx

        .globl  quill_mont_sqr_adx
        .hidden quill_mont_sqr_adx
        .type   quill_mont_sqr_adx, @function
        .p2align 5
quill_mont_sqr_adx:
        PROLOGUE
        SQR_ARGS
        GFRAME
        mov     %rsi, %rbp
        lea     (%rsi,%r9,8), %rsi
        lea     (%rcx,%r9,8), %r15
        lea     -8(%rsi), %rax
        mov     %rax, 8(%rsp)
        lea     16(%rsp,%r9,8), %rbx
        /* cross rows i = 0 .. n-2: t[2i+1 .. i+n] += a_i a[i+1 .. n-1];
         * rbp = a + 8i, rbx = t + 8(i + n), rcx = i + 1 - n */
13:
        mov     (%rbp), %rdx
        mov     %rbp, %rcx
        sub     %rsi, %rcx
        sar     $3, %rcx
        inc     %rcx
        xor     %eax, %eax
        LROW    %rsi
        adcx    %rax, %r12
        mov     %r12, (%rbx)
        lea     8(%rbx), %rbx
        lea     8(%rbp), %rbp
        cmp     8(%rsp), %rbp
        jne     13b
        /* doubling and diagonal */
        lea     16(%rsp), %rbx
        mov     %r9, %rcx
        neg     %rcx
        xor     %eax, %eax
14:
        mov     (%rsi,%rcx,8), %rdx
        mulx    %rdx, %r10, %r11
        mov     (%rbx), %r12
        mov     8(%rbx), %r13
        adcx    %r12, %r12
        adcx    %r13, %r13
        adox    %r10, %r12
        adox    %r11, %r13
        mov     %r12, (%rbx)
        mov     %r13, 8(%rbx)
        lea     16(%rbx), %rbx
        lea     1(%rcx), %rcx
        jrcxz   15f
        jmp     14b
15:
        GTAIL
        .size   quill_mont_sqr_adx, .-quill_mont_sqr_adx

#endif

        .section .note.GNU-stack, "", @progbits
