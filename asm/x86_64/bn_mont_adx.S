/* SPDX-License-Identifier: Apache-2.0 */
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
 * Required CPU features: BMI2 (MULX) and ADX (ADCX, ADOX); SSE2 (the
 * final selection of the fixed sizes, the wipe).
 *
 * Algorithm: the full product t = a b (2n limbs, in a stack buffer), then
 * Montgomery reduction t += U m with u_i = t_i n0 mod 2^64 (separated
 * operand scanning, Koc, Acar and Kaliski, IEEE Micro 1996).  Squaring
 * computes the cross products a_i a_j (i < j) once, doubles them and adds
 * the diagonal a_i^2 in one pass, then reduces likewise.  Every product
 * word pair is added with two carry chains (Gopal et al., "Fast and
 * constant-time implementation of modular exponentiation", Intel 2009 / the
 * ADX white paper): the low word with ADCX (CF), the high word one position
 * up with ADOX (OF).
 *
 * The fixed sizes (N = 8 .. 64) run in bands of eight rows whose
 * accumulator lives in nine registers (described at "fixed sizes" below):
 * each word of t is loaded and stored once per band, not once per row.
 * Measured on the project machine (AMD EPYC, Zen 4; rdtsc, medians of 101,
 * the range over runs on the shared machine) against the row-by-row version
 * with t in memory: 0.76-0.90x the time at 8 and 16 limbs, 0.83-0.96x at 24
 * and 32, the 48- and 64-limb squarings 0.68-0.70x (they were loops), the
 * 48- and 64-limb multiplications 0.94-1.0x.  A band column costs about K + 3 cycles for K = 8
 * products: the two extra flag operations per column (the stored word and
 * the last carry) are what separates it from one MULX per cycle.  The generic kernels (any n) keep the row-by-row form: every row
 * t[k + j] += x src[j] loads and stores t[k + j].
 *
 * Register use of the generic kernels in a row: rdx = the multiplier (b_i,
 * a_i or u_i), r10/r11 = low/high product words, r12/r13 = the current and
 * next word of t, rax = 0, rbx = the row's position in t, r14 = the carry
 * word of the reduction (into t[i + n]), rbp = b pointer, r15 = m + 8n,
 * rsi = a, r8 = n0, rdi = r, rcx = the (negative) loop index; loops are
 * closed with LEA and JRCXZ so that the carry flags survive.  The band
 * kernels' registers are listed with their macros.
 *
 * Bounds: the product never carries past t[2n - 1]; the result of the
 * reduction is t' = (t + U m)/R < 2m, held in n limbs plus a top word in
 * {0, 1}.  The final subtraction computes d = t' - m and keeps t' by mask
 * (top - borrow is all-ones exactly when t' < m; SSE2, or CMOV where the
 * fixed sizes fuse it with the reduction's last tail: the products up to 24
 * limbs, the squarings up to 16): no branch and no address depends on
 * data.
 *
 * Scratch: t (2n limbs) and, for the fixed sizes, the band multipliers (a
 * band of b or the digits u) and n0 on the stack, wiped with zeros before
 * return (they hold secret-dependent values). */

#if defined(__x86_64__) && defined(__ELF__)

        .text

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

/* r = t' - m if that does not borrow past r14, else t'; t' = N limbs at
 * (%rbx), N even.  The selection runs on SSE2 (xmm1 = the keep-t' mask in
 * both lanes), off the integer ports that the multiplications keep busy. */
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
        movq    %r14, %xmm1
        punpcklqdq %xmm1, %xmm1
        .set    rk, 0
        .rept   \N / 2
        movdqu  16*rk(%rdi), %xmm2
        movdqu  16*rk(%rbx), %xmm3
        pxor    %xmm2, %xmm3
        pand    %xmm1, %xmm3
        pxor    %xmm3, %xmm2
        movdqu  %xmm2, 16*rk(%rdi)
        .set    rk, rk + 1
        .endr
.endm

/* ---- fixed sizes: bands of eight rows with the accumulator in registers ----
 *
 * A band adds x y 2^(64 base) into t, x = x_0 .. x_7 eight words held in
 * memory (the mulx memory operands) and y streamed one word y_j at a time
 * through rdx.  Column j adds y_j x_k into t[base + j + k] (low word, CF
 * chain) and t[base + j + k + 1] (high word, OF chain), k = 0..7.  The nine
 * words t[base + j .. base + j + 8] live in the window registers W[0..8];
 * after the column t[base + j] receives nothing more from the band, so W[0]
 * is stored ("retired") and its register, zeroed, becomes the next column's
 * W[8].  Each word of t is loaded and stored once per band instead of once
 * per row, and the CF/OF chains run through registers only.
 *
 * The words already in memory (from earlier bands) are not loaded into the
 * window as it advances: the stored word t[base + j] is added at retirement,
 * at the head of the OF chain (adox into W[0] before the first product).
 * Then nothing carries out of W[8], W[8] starting at 0:
 *   W[0..7] + t[base + j] + y_j x <= (2^512 - 1) + (2^64 - 1)
 *                                    + (2^64 - 1)(2^512 - 1) = 2^576 - 1,
 * so CF = OF = 0 after every column (the final adcx of 0 into W[8] takes the
 * last CF), and the columns need no flag reset between them.  After the last
 * column W[0..7] hold t[base + len(y) .. + 7], added to memory by the band's
 * tail.
 *
 * The window is a rotation of the nine registers of WPOOL: W[k] is pool
 * register (wr + k) mod 9, and retiring a column increments wr (assembly
 * time only; the code is straight-line within a band).  Registers in the
 * band code: rdx = y_j, rdi/rbp = low/high product words (LO, HI), rax = 0,
 * rsi = the y pointer (a or m), rcx = the band's t pointer (reduction and
 * the multiplication's product), WPOOL = r8-r15, rbx.
 *
 * Multiplication: the product a b in bands x = b[8c .. 8c + 7] (copied to
 * the frame), y = a, base 8c; squaring: the cross products a_i a_j (i < j)
 * in bands x = a[8c .. 8c + 7], y = a_j for j > 8c (a triangle of short
 * columns, then full ones), doubled and the diagonal added in one pass.
 * Reduction: bands of eight Montgomery digits u_{8b} .. u_{8b+7}; the band's
 * first eight rows run row by row (u_k = t[8b + k] n0 needs the rows above
 * it), the remaining columns y = m_8 .. m_{N-1} against x = u (in the frame)
 * as above.  The tail adds the window to t[8b + N .. 8b + N + 7] with the
 * carry out of the previous band's tail (the frame word CY); after the last
 * band CY is the top word of t' = (t + U m)/R < 2m. */

        .set    LO, %rdi
        .set    HI, %rbp

/* WPOOL: sym = window pool register number idx mod 9. */
.macro WPOOL sym, idx
        .if     ((\idx) % 9) == 0
        .set    \sym, %r8
        .elseif ((\idx) % 9) == 1
        .set    \sym, %r9
        .elseif ((\idx) % 9) == 2
        .set    \sym, %r10
        .elseif ((\idx) % 9) == 3
        .set    \sym, %r11
        .elseif ((\idx) % 9) == 4
        .set    \sym, %r12
        .elseif ((\idx) % 9) == 5
        .set    \sym, %r13
        .elseif ((\idx) % 9) == 6
        .set    \sym, %r14
        .elseif ((\idx) % 9) == 7
        .set    \sym, %r15
        .else
        .set    \sym, %rbx
        .endif
.endm

/* Zero the nine window registers (also clears CF and OF); wr = 0. */
.macro WZERO
        xor     %r8d, %r8d
        xor     %r9d, %r9d
        xor     %r10d, %r10d
        xor     %r11d, %r11d
        xor     %r12d, %r12d
        xor     %r13d, %r13d
        xor     %r14d, %r14d
        xor     %r15d, %r15d
        xor     %ebx, %ebx
        .set    wr, 0
.endm

/* One band step: W[k] += lo(rdx x), W[k + 1] += hi(rdx x) on CF / OF. */
.macro BSTEP xmem, k
        WPOOL   WA, wr + \k
        WPOOL   WB, wr + \k + 1
        mulx    \xmem, LO, HI
        adcx    LO, WA
        adox    HI, WB
.endm

/* BCOL_SUM: the additions of column j of a band.  rdx = y_j = yoff(ysrc);
 * unless prev = 0, the stored word toff(tbase) is added into W[0] (head of
 * the OF chain), then W[0 .. len] += y_j (x_0 .. x_{len-1}), x_k at
 * xoff + 8k(xbase), and the last CF goes into W[len].  len = 8 but in the squaring's triangle,
 * whose short columns touch W[0 .. len] only (W[len .. 8] are zero on
 * entry).  CF = OF = 0 on entry and on exit. */
.macro BCOL_SUM ysrc, yoff, xbase, xoff, tbase, toff, len, prev=1
        mov     \yoff(\ysrc), %rdx
.if \prev
        WPOOL   WA, wr
        adox    \toff(\tbase), WA
.endif
        .set    bk, 0
        .rept   \len
        BSTEP   \xoff+8*bk(\xbase), bk
        .set    bk, bk + 1
        .endr
        WPOOL   WA, wr + \len
        adcx    %rax, WA
.endm

/* BCOL: a full column: BCOL_SUM, then W[0] is stored at toff(tbase) and
 * zeroed (the XOR also clears CF and OF), and wr advances. */
.macro BCOL ysrc, yoff, xbase, xoff, tbase, toff
        BCOL_SUM \ysrc, \yoff, \xbase, \xoff, \tbase, \toff, 8
        WPOOL   WA, wr
        mov     WA, \toff(\tbase)
        xor     WA, WA
        .set    wr, wr + 1
.endm

/* Store W[0..7] at toff(tbase) (the tail of a product band: that part of t
 * is not yet written). */
.macro WSTORE tbase, toff
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        mov     WA, \toff+8*bk(\tbase)
        .set    bk, bk + 1
        .endr
.endm

/* Frame of the fixed-size kernels (offsets from rsp): t (2N words), the
 * band multipliers XB (8 words: a copy of b's band or the digits u), the
 * saved r, m, n0, the carry word CY, the b (multiplication) or a (squaring)
 * pointer BP and the squaring's band number BC. */
.macro FRAME_N N
        .set    F_XB, 16*\N
        .set    F_RP, 16*\N + 64
        .set    F_MP, 16*\N + 72
        .set    F_N0, 16*\N + 80
        .set    F_CY, 16*\N + 88
        .set    F_BP, 16*\N + 96
        .set    F_BC, 16*\N + 104
        .set    F_SIZE, 16*\N + 112
.endm

/* The last band's tail fused with the final subtraction: r = t' - m if
 * that does not borrow past the top word, else t'.  Entry: rcx = t + 8(N - 8),
 * t'[0 .. N-9] final at 8N(%rsp), t'[N-8 .. N-1] = W[0..7] + t[2N-8 ..] +
 * CY (this tail), rsi = m.  The low words' borrow chain (d = t' - m into r)
 * runs before the tail in program order, so that only the eight high words'
 * SBB (on the window registers, no store and reload) follow the tail; then
 * SBB of 0 from the top word leaves ZF = 0 exactly when t' < m, and CMOVNZ
 * takes each word of t' back (its memory operand is read either way: no
 * address depends on the choice). */
.macro FINAL_FUSED N
        mov     F_RP(%rsp), %rdi
.if \N > 8
        mov     8*\N(%rsp), %rbp
        sub     (%rsi), %rbp
        mov     %rbp, (%rdi)
        .set    rk, 1
        .rept   \N - 9
        mov     8*(\N+rk)(%rsp), %rbp
        sbb     8*rk(%rsi), %rbp
        mov     %rbp, 8*rk(%rdi)
        .set    rk, rk + 1
        .endr
        sbb     %rdx, %rdx              /* -borrow of the low words */
.else
        xor     %edx, %edx
.endif
        mov     F_CY(%rsp), %rax
        add     $-1, %rax               /* CF = CY */
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        adc     8*(\N+bk)(%rcx), WA
        mov     WA, 8*(\N+bk)(%rcx)
        .set    bk, bk + 1
        .endr
        sbb     %rax, %rax
        neg     %rax                    /* the top word of t' */
        neg     %rdx                    /* CF = the low words' borrow */
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        sbb     8*(\N-8+bk)(%rsi), WA  /* W = d, high words */
        .set    bk, bk + 1
        .endr
        sbb     $0, %rax                /* ZF = 0: t' < m, keep t' */
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        cmovnz  8*(\N+bk)(%rcx), WA
        mov     WA, 8*(\N-8+bk)(%rdi)
        .set    bk, bk + 1
        .endr
        .set    rk, 0
        .rept   \N - 8
        mov     8*rk(%rdi), %rbp
        cmovnz  8*(\N+rk)(%rsp), %rbp
        mov     %rbp, 8*rk(%rdi)
        .set    rk, rk + 1
        .endr
.endm

/* Montgomery reduction of t (2N words at rsp) in N/8 bands; leaves
 * t' = t[N .. 2N - 1] and its top word in F_CY, or, if fuse, writes
 * r = t' mod m itself (FINAL_FUSED).  Entry: rax = 0. */
.macro REDUCE_B N, fuse
        mov     F_MP(%rsp), %rsi
        mov     %rsp, %rcx
        movq    $0, F_CY(%rsp)
1:
        /* the first eight rows, W[k] = t[8b + k] */
        .set    bk, 0
        .rept   8
        WPOOL   WA, bk
        mov     8*bk(%rcx), WA
        .set    bk, bk + 1
        .endr
        xor     %ebx, %ebx              /* W[8]; CF = OF = 0 */
        .set    wr, 0
        .set    rk, 0
        .rept   8
        WPOOL   WA, wr
        mov     WA, %rdx
        mulx    F_N0(%rsp), %rdx, HI    /* u_k = t[8b + k] n0 mod 2^64 */
        mov     %rdx, F_XB+8*rk(%rsp)
        .set    ri, 0
        .rept   8
        BSTEP   8*ri(%rsi), ri
        .set    ri, ri + 1
        .endr
        WPOOL   WA, wr + 8
        adcx    %rax, WA
        .set    wr, wr + 1              /* W[0] is now 0: the next W[8] */
        .set    rk, rk + 1
        .endr
        /* the columns m_8 .. m_{N-1} */
        .set    rj, 8
        .rept   \N - 8
        BCOL    %rsi, 8*rj, %rsp, F_XB, %rcx, 8*rj
        .set    rj, rj + 1
        .endr
        /* tail: t[8b + N .. + 7] += W[0..7] + CY; if fuse, the last
         * band's is fused with the final subtraction (public branch on the
         * band number) */
.if \fuse
        lea     8*(\N-8)(%rsp), %rdx
        cmp     %rdx, %rcx
        je      4f
.endif
        mov     F_CY(%rsp), %rdx
        add     $-1, %rdx               /* CF = CY */
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + bk
        adc     8*(\N+bk)(%rcx), WA
        mov     WA, 8*(\N+bk)(%rcx)
        .set    bk, bk + 1
        .endr
        sbb     %rdx, %rdx
        neg     %rdx
        mov     %rdx, F_CY(%rsp)
        lea     64(%rcx), %rcx
.if \fuse
        jmp     1b
4:
        FINAL_FUSED \N
.else
        lea     8*\N(%rsp), %rdx
        cmp     %rdx, %rcx
        jne     1b
.endif
.endm

/* Wipe the frame and return; r is written by REDUCE_B's last band if
 * fuse, else here. */
.macro FINISH_N N, fuse
.if \fuse == 0
        lea     8*\N(%rsp), %rbx
        mov     F_MP(%rsp), %rcx
        mov     F_RP(%rsp), %rdi
        mov     F_CY(%rsp), %r14
        FINAL_N \N
.endif
        ZERO16  %rsp, 0, F_SIZE
        add     $F_SIZE, %rsp
        .cfi_adjust_cfa_offset -F_SIZE
        EPILOGUE
.endm

.macro MONT_MUL_B N
        .globl  quill_mont_mul_adx_\N
        .hidden quill_mont_mul_adx_\N
        .type   quill_mont_mul_adx_\N, @function
        .p2align 5
quill_mont_mul_adx_\N:
        PROLOGUE
        FRAME_N \N
        sub     $F_SIZE, %rsp
        .cfi_adjust_cfa_offset F_SIZE
        mov     %rdi, F_RP(%rsp)
        mov     %rcx, F_MP(%rsp)
        mov     %r8, F_N0(%rsp)
        mov     %rdx, F_BP(%rsp)
        ZERO16  %rsp, 0, 8*\N           /* the first band adds into t[0..N-1] */
        xor     %eax, %eax
        mov     %rsp, %rcx
2:
        /* band c: x = b[8c .. 8c + 7] into the frame */
        mov     F_BP(%rsp), %rdx
        .set    bk, 0
        .rept   8
        mov     8*bk(%rdx), %r8
        mov     %r8, F_XB+8*bk(%rsp)
        .set    bk, bk + 1
        .endr
        lea     64(%rdx), %rdx
        mov     %rdx, F_BP(%rsp)
        WZERO
        .set    rj, 0
        .rept   \N
        BCOL    %rsi, 8*rj, %rsp, F_XB, %rcx, 8*rj
        .set    rj, rj + 1
        .endr
        WSTORE  %rcx, 8*\N
        lea     64(%rcx), %rcx
        lea     8*\N(%rsp), %rdx
        cmp     %rdx, %rcx
        jne     2b
        REDUCE_B \N, (\N <= 24)
        FINISH_N \N, (\N <= 24)
        .size   quill_mont_mul_adx_\N, .-quill_mont_mul_adx_\N
.endm

/* Cross products a_i a_j (i < j) into t[1 .. 2N - 1] (t[0] is not
 * written), in bands x = a[8c .. 8c + 7], y = a_j for j > 8c: a triangle of
 * seven short columns, then full ones.  The bands from sc_first on run as a
 * loop with one copy of the code: band c runs with rsi = a + 64c and
 * rcx = t + 128c, so that its column j' (y = a[8c + j'], j' = 1 .. N - 8c
 * - 1) retires t[16c + j'] at 8j'(rcx) whatever c is.  The columns are
 * unrolled once for the longest band and band c leaves after its column
 * j' = N - 8c - 1, where the window holds t[8c + N .. + 7] (its tail,
 * stored at 8N - 64c(rcx)).  The band number is F_BC; the exit tests sit
 * between a column's store and the XOR that clears CF and OF for the next
 * column.  Up to N = 32 band 0 runs first on its own, without the stored
 * words (there are none yet); above, where code size tells, the loop starts
 * at band 0 over a zeroed t[0 .. N - 1].  Both as fast as fully unrolled
 * bands (measured at N = 16 .. 64; the separate band 0 gains 1-2% up to
 * N = 32 and loses 1% above). */
.macro SQR_CROSS N
        mov     %rsi, F_BP(%rsp)
        mov     %rsp, %rcx
.if \N <= 32
        WZERO
        .set    rj, 1
        .rept   \N - 1
        .if     rj < 8
        .set    rl, rj
        .else
        .set    rl, 8
        .endif
        BCOL_SUM %rsi, 8*rj, %rsi, 0, %rcx, 8*rj, rl, 0
        WPOOL   WA, wr
        mov     WA, 8*rj(%rcx)
        xor     WA, WA
        .set    wr, wr + 1
        .set    rj, rj + 1
        .endr
        WSTORE  %rcx, 8*\N
        .if     \N > 8
        lea     64(%rsi), %rsi
        lea     128(%rcx), %rcx
        movq    $1, F_BC(%rsp)
        .endif
        .set    sc_first, 1
.else
        ZERO16  %rsp, 0, 8*\N
        movq    $0, F_BC(%rsp)
        .set    sc_first, 0
.endif
.if sc_first < \N / 8
1:
        WZERO
        .set    rj, 1
        .rept   \N - 1 - 8*sc_first
        .if     rj < 8
        .set    rl, rj
        .else
        .set    rl, 8
        .endif
        BCOL_SUM %rsi, 8*rj, %rsi, 0, %rcx, 8*rj, rl
        WPOOL   WA, wr
        mov     WA, 8*rj(%rcx)
        .if     ((\N - 1 - rj) % 8) == 0
        /* band c = (N - 1 - j') / 8 ends here */
        .set    rc, (\N - 1 - rj) / 8
        cmpq    $rc, F_BC(%rsp)
        jne     3f
        .set    bk, 0
        .rept   8
        WPOOL   WA, wr + 1 + bk
        mov     WA, 8*\N-64*rc+8*bk(%rcx)
        .set    bk, bk + 1
        .endr
        .if     rc == \N / 8 - 1
        jmp     2f
        .else
        lea     64(%rsi), %rsi
        lea     128(%rcx), %rcx
        incq    F_BC(%rsp)
        jmp     1b
        .endif
3:
        .endif
        WPOOL   WA, wr
        xor     WA, WA
        .set    wr, wr + 1
        .set    rj, rj + 1
        .endr
2:
.endif
        mov     F_BP(%rsp), %rsi
        xor     %eax, %eax
.endm

/* t = 2 t + sum a_i^2 2^(128 i), t[0] taken as 0: doubling on CF, the
 * diagonal on OF. */
.macro SQR_DIAG N
        xor     %eax, %eax
        mov     (%rsi), %rdx
        mulx    %rdx, %r10, %r11
        mov     %r10, (%rsp)
        mov     8(%rsp), %r13
        adcx    %r13, %r13
        adox    %r11, %r13
        mov     %r13, 8(%rsp)
        .set    ri, 1
        .rept   \N - 1
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
.endm

.macro MONT_SQR_B N
        .globl  quill_mont_sqr_adx_\N
        .hidden quill_mont_sqr_adx_\N
        .type   quill_mont_sqr_adx_\N, @function
        .p2align 5
quill_mont_sqr_adx_\N:
        PROLOGUE
        FRAME_N \N
        sub     $F_SIZE, %rsp
        .cfi_adjust_cfa_offset F_SIZE
        mov     %rdi, F_RP(%rsp)
        mov     %rdx, F_MP(%rsp)
        mov     %rcx, F_N0(%rsp)
        xor     %eax, %eax
        SQR_CROSS \N
        SQR_DIAG \N
        xor     %eax, %eax
        REDUCE_B \N, (\N <= 16)
        FINISH_N \N, (\N <= 16)
        .size   quill_mont_sqr_adx_\N, .-quill_mont_sqr_adx_\N
.endm

/* ---- public operands: almost-Montgomery squaring, variable time ----
 *
 * quill_mont_sqr_adx_public_N (N = 16, 32, 48, 64): r = a^2 R^-1 mod m up
 * to one multiple of m, r < R, for any a < R (not only a < m), so that
 * these squarings chain without a full reduction (the "almost Montgomery"
 * bound: t' = (a^2 + U m)/R < R + m, and m is subtracted exactly when t'
 * has its top word set, leaving t' - m < R).  For public operands only
 * (RSA verification): the subtraction is a branch on the top word and the
 * frame, which holds only public values, is not wiped.  The body is the
 * constant-time kernel's (SQR_CROSS, SQR_DIAG, REDUCE_B). */
.macro FINISH_PUBLIC N
        mov     F_RP(%rsp), %rdi
        cmpq    $0, F_CY(%rsp)
        jne     7f
        .set    rk, 0
        .rept   \N / 2
        movdqu  8*\N+16*rk(%rsp), %xmm0
        movdqu  %xmm0, 16*rk(%rdi)
        .set    rk, rk + 1
        .endr
        jmp     8f
7:
        mov     F_MP(%rsp), %rcx
        mov     8*\N(%rsp), %r10
        sub     (%rcx), %r10
        mov     %r10, (%rdi)
        .set    rk, 1
        .rept   \N - 1
        mov     8*(\N+rk)(%rsp), %r10
        sbb     8*rk(%rcx), %r10
        mov     %r10, 8*rk(%rdi)
        .set    rk, rk + 1
        .endr
8:
        add     $F_SIZE, %rsp
        .cfi_adjust_cfa_offset -F_SIZE
        EPILOGUE
.endm

.macro MONT_SQR_PUBLIC N
        .globl  quill_mont_sqr_adx_public_\N
        .hidden quill_mont_sqr_adx_public_\N
        .type   quill_mont_sqr_adx_public_\N, @function
        .p2align 5
quill_mont_sqr_adx_public_\N:
        PROLOGUE
        FRAME_N \N
        sub     $F_SIZE, %rsp
        .cfi_adjust_cfa_offset F_SIZE
        mov     %rdi, F_RP(%rsp)
        mov     %rdx, F_MP(%rsp)
        mov     %rcx, F_N0(%rsp)
        xor     %eax, %eax
        SQR_CROSS \N
        SQR_DIAG \N
        xor     %eax, %eax
        REDUCE_B \N, 0
        FINISH_PUBLIC \N
        .size   quill_mont_sqr_adx_public_\N, .-quill_mont_sqr_adx_public_\N
.endm

        MONT_MUL_B 8
        MONT_SQR_B 8
        MONT_MUL_B 16
        MONT_SQR_B 16
        MONT_MUL_B 24
        MONT_SQR_B 24
        MONT_MUL_B 32
        MONT_SQR_B 32
        MONT_MUL_B 48
        MONT_SQR_B 48
        MONT_MUL_B 64
        MONT_SQR_B 64
        MONT_SQR_PUBLIC 16
        MONT_SQR_PUBLIC 32
        MONT_SQR_PUBLIC 48
        MONT_SQR_PUBLIC 64

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
