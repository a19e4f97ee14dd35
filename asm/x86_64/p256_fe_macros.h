/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * P-256 field operations as assembler macros for the MULX/ADCX/ADOX point
 * formulas (asm/x86_64/p256_point_adx.S, p256_double_adx.S; included after
 * the C preprocessor's #include).  Each operand is a 32-byte slot of the
 * including routine's stack frame, given as its offset from %rsp; every
 * value is four little-endian words in the Montgomery domain, fully
 * reduced, and every result is the unique reduced value (but for the
 * partially reduced products that a formula asks for, which only feed
 * other products: see FE_MUL), so a routine made of these macros is
 * bit-identical to the C formula with the same operations
 * (core/ec/p256_fe_inline.h).  No branch and no address depends
 * on the values (the reductions select with CMOV and masks).
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
 * multiplier), rsi the shift count of the reduction and scratch in
 * FE_SQR, rdi scratch in FE_SQR.  Every macro may clobber all of these and
 * the flags; none touches rbp or the slots other than its output.  The
 * macros ending in _REG take and leave their operands in registers (the
 * last result of FE_MUL and FE_SQR is in r12..r15, of FE_ADD, FE_SUB and
 * LOAD4 in r8..r11), so that a formula can chain operations without a
 * round trip through the frame.
 *
 * Latency (Zen 4, measured on chains of one operation in a loop): FE_MUL
 * reads its operand \a as the memory operand of its sixteen MULX and \b
 * with four MOV loads; when the operand computed just before (stored to
 * its slot by the previous operation) is \a, the product takes about 48
 * cycles, when it is \b about 42, so the formulas pass the value computed
 * last as \b.  FE_SQR loads its operand once into registers (39-40
 * cycles).  Of the 42: the sixteen MULX issue at about one per 1.25-1.5
 * cycles (about 24 cycles with the row chains), the four reduction steps
 * and the final addition and subtraction about 15 more.  Running the reduction steps
 * between the rows (CIOS order) or the low half of the product first was
 * slower on this core (44-53 cycles), so the reduction stays at the end.
 * Throughput (quill-p256-probe, bench/p256_fe_probe.c): two independent
 * FE_MUL chains take 35.7 cycles per product against 43 for one chain, so
 * out-of-order execution already overlaps independent products nearly as
 * far as the core's issue allows (a MULX costs ~1.65 cycles beside
 * independent ADDs).  Two products interleaved row by row in one macro
 * (FE_MUL2 in the probe: CIOS, five registers each) took 37.5 cycles per
 * product, and in the point formulas measured slower (docs/limits.md,
 * P-256): not used.
 */
#ifndef QUILL_ASM_X86_64_P256_FE_MACROS_H
#define QUILL_ASM_X86_64_P256_FE_MACROS_H

/* p1 and p3, the words of p that are neither 0 nor all ones, as memory
 * operands (one copy per including file). */
        .section .rodata
        .p2align 3
.Lp1:   .quad   0x00000000ffffffff
.Lp3:   .quad   0xffffffff00000001
.Lk0:   .quad   0x0000000000000001
.Lk1:   .quad   0xffffffff00000000
.Lk2:   .quad   0xffffffffffffffff
.Lk3:   .quad   0x00000000fffffffe
        .text

/* Slot \out = the four registers t0..t3. */
.macro STORE4 out, t0, t1, t2, t3
        mov     \t0, \out+0(%rsp)
        mov     \t1, \out+8(%rsp)
        mov     \t2, \out+16(%rsp)
        mov     \t3, \out+24(%rsp)
.endm

/* (t0..t3, carry word c) < 2p: t0..t3 = t mod p, also stored at
 * \out(%rsp) unless \out is blank; clobbers the d registers and c.
 * d = t - p; a borrow out of the five words means t < p: keep t. */
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
.ifnb \out
        STORE4  \out, \t0, \t1, \t2, \t3
.endif
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
 * into it cannot overflow.  The shifts are BMI2's SHLX/SHRX by rsi = 32
 * (set by REDC_STORE), which leave s0 in place: 9 instructions instead of
 * 11 with SHL/SHR and copies (a doubling 1184 -> 1128 instructions, the
 * same time; MULX for m p3 would make it 8 but cost 2% in time, Zen 4). */
.macro REDC_STEP s0, s1, s2, s3
        shlx    %rsi, \s0, %rcx         /* m << 32 (rsi = 32) */
        shrx    %rsi, \s0, %rdx         /* m >> 32 */
        mov     \s0, %rax
        sub     %rcx, %rax              /* lo(m p3) */
        sbb     %rdx, \s0               /* hi(m p3) */
        add     %rcx, \s1
        adc     %rdx, \s2
        adc     %rax, \s3
        adc     $0, \s0
.endm

/* t0..t3 = (t + s) mod p for t + s < 2p (s0..s3 registers or memory
 * operands), also stored at \out unless blank; d0..d3 scratch (they may
 * be the registers of s); clobbers rbx.  Two carry chains side by side:
 * t + s on CF (ADCX) and d = (t + s) + (2^256 - p) on OF (ADOX), one word
 * behind; t + s >= p exactly when one of them carries out (not both:
 * t + s + 2^256 - p < 2^256 + p < 2^257), and then d = t + s - p; rbx =
 * 2 CF + OF is nonzero exactly then.  In the reduction's last step
 * (REDC_STORE) this makes the mixed addition 4-5% faster than the
 * addition followed by FE_REDUCE_ONCE (one instruction more, but the two
 * chains overlap); for FE_ADD and ADD_MOD_REG it measured no better. */
.macro ADD_SELECT out, t0, t1, t2, t3, s0, s1, s2, s3, d0, d1, d2, d3
        xor     %ebx, %ebx              /* CF = OF = 0 */
        adcx    \s0, \t0
        mov     \t0, \d0
        adox    .Lk0(%rip), \d0
        adcx    \s1, \t1
        mov     \t1, \d1
        adox    .Lk1(%rip), \d1
        adcx    \s2, \t2
        mov     \t2, \d2
        adox    .Lk2(%rip), \d2
        adcx    \s3, \t3
        mov     \t3, \d3
        adox    .Lk3(%rip), \d3
        adcx    %rbx, %rbx              /* carry of t + s */
        adox    %rbx, %rbx              /* 2 CF + OF: nonzero iff t + s >= p */
        test    %rbx, %rbx
        cmovnz  \d0, \t0
        cmovnz  \d1, \t1
        cmovnz  \d2, \t2
        cmovnz  \d3, \t3
.ifnb \out
        STORE4  \out, \t0, \t1, \t2, \t3
.endif
.endm

/* The low half (r8..r11) of a product in r8..r15, reduced (clobbers rsi):
 * four steps leave u = (low + M p) / 2^256 <= p in r8..r11; u plus the
 * high half is a b R^-1 + (a multiple of p) < 2p, reduced into r12..r15
 * (ADD_SELECT) and stored at \out unless blank.  A file that defines the
 * symbol QUILL_P256_REDC_SUBTRACT gets the addition followed by
 * FE_REDUCE_ONCE instead (the doubling: 1.2% faster there). */
.macro REDC_STORE out, partial=0
        mov     $32, %esi
        REDC_STEP %r8, %r9, %r10, %r11
        REDC_STEP %r9, %r10, %r11, %r8
        REDC_STEP %r10, %r11, %r8, %r9
        REDC_STEP %r11, %r8, %r9, %r10
.if \partial
        /* u + high < 2^256 + p: subtract p (masked) on a carry out of
         * 2^256, which leaves a value below 2^256, not necessarily below
         * p (see FE_MUL) */
        add     %r8, %r12
        adc     %r9, %r13
        adc     %r10, %r14
        adc     %r11, %r15
        sbb     %rbx, %rbx              /* all ones on a carry */
        mov     %rbx, %rax
        shr     $32, %rax
        mov     .Lp3(%rip), %rdx
        and     %rbx, %rdx
        sub     %rbx, %r12
        sbb     %rax, %r13
        sbb     $0, %r14
        sbb     %rdx, %r15
.ifnb \out
        STORE4  \out, %r12, %r13, %r14, %r15
.endif
.else
.ifdef QUILL_P256_REDC_SUBTRACT
        xor     %ebx, %ebx
        add     %r8, %r12
        adc     %r9, %r13
        adc     %r10, %r14
        adc     %r11, %r15
        adc     $0, %rbx
        FE_REDUCE_ONCE \out, %r12, %r13, %r14, %r15, %rbx, %r8, %r9, %r10, %r11
.else
        ADD_SELECT \out, %r12, %r13, %r14, %r15, %r8, %r9, %r10, %r11, %r8, %r9, %r10, %r11
.endif
.endif
.endm

/* \out = \a * \b * R^-1 mod p (slot offsets); the result is also left in
 * r12..r15, and with \out blank only there (likewise FE_SQR).
 *
 * With partial = 1 (FE_MUL, FE_SQR, SQR_REGS) the result is only
 * partially reduced: congruent to a b R^-1, below 2^256, not necessarily
 * below p; the operands may then be any values below 2^256 (the sum of
 * the reduced low half u <= p and the high half < 2^256 - 1 is below
 * 2^256 + p, and one subtraction of p on its carry brings it below 2^256).
 * Such a value may only be an operand of further products, and of a fully
 * reducing one (partial = 0) only beside an operand below p: with one
 * operand below p the high half is below p and the sum below 2p, which
 * the final selection of REDC_STORE needs.  It must not reach the
 * additions and subtractions, which need reduced operands.  About 4
 * cycles shorter on the chain (Zen 4: FE_MUL 43 -> 39, FE_SQR 42.5 -> 34
 * in quill-p256-probe's loops). */
.macro FE_MUL out, a, b, partial=0
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
        REDC_STORE \out, \partial
.endm

/* \out = a^2 R^-1 mod p with a in rdx (a0), rsi, rdi, rcx (a1..a3): the
 * six cross products a_i a_j (i < j) into words 1..6, doubled (carry to
 * word 7), plus the four squares a_i^2 at words 2i, 2i + 1; ten MULX
 * instead of sixteen.  Every operand comes from a register (a0 is kept in
 * r8 until its square), so a result of the previous operation does not
 * wait for a store to reach a load. */
.macro SQR_REGS out, partial=0
        mov     %rdx, %r8
        mulx    %rsi, %r9, %r10
        mulx    %rdi, %rax, %r11
        mulx    %rcx, %rbx, %r12
        add     %rax, %r10
        adc     %rbx, %r11
        adc     $0, %r12                /* a0 (a1, a2, a3) in words 1..4 */
        mov     %rsi, %rdx
        mulx    %rdi, %rax, %rbx
        mulx    %rcx, %r14, %r13
        add     %rax, %r11
        adc     %rbx, %r12
        adc     $0, %r13
        add     %r14, %r12
        adc     $0, %r13                /* + a1 (a2, a3) at words 3..5 */
        mov     %rdi, %rdx
        mulx    %rcx, %rax, %r14
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
        mov     %r8, %rdx
        mulx    %rdx, %r8, %rax         /* a0^2 */
        mov     %rsi, %rdx
        mulx    %rdx, %rbx, %rsi        /* a1^2 */
        mov     %rdi, %rdx
        mulx    %rdx, %rdx, %rdi        /* a2^2 (low word into rdx) */
        add     %rax, %r9
        adc     %rbx, %r10
        adc     %rsi, %r11
        adc     %rdx, %r12
        adc     %rdi, %r13
        mov     %rcx, %rdx              /* MOV and MULX leave CF alone */
        mulx    %rdx, %rax, %rbx        /* a3^2 */
        adc     %rax, %r14
        adc     %rbx, %r15
        REDC_STORE \out, \partial
.endm

/* \out = \a^2 R^-1 mod p (slot offsets); the result is also left in
 * r12..r15.  Also uses rsi and rdi. */
.macro FE_SQR out, a, partial=0
        mov     \a+8(%rsp), %rsi
        mov     \a+16(%rsp), %rdi
        mov     \a+24(%rsp), %rcx
        mov     \a+0(%rsp), %rdx
        SQR_REGS \out, \partial
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

/* t0..t3 -= slot \b mod p (both reduced): on a borrow add p, masked
 * (p & mask word by word: mask, mask >> 32, 0, mask & p3).  Clobbers rax,
 * rcx, rdx. */
.macro SUB_MOD t0, t1, t2, t3, b
        sub     \b+0(%rsp), \t0
        sbb     \b+8(%rsp), \t1
        sbb     \b+16(%rsp), \t2
        sbb     \b+24(%rsp), \t3
        ADD_P_IF_BORROW \t0, \t1, \t2, \t3
.endm

/* t0..t3 -= s0..s3 mod p (registers, both reduced).  Clobbers rax, rcx,
 * rdx. */
.macro SUB_MOD_REG t0, t1, t2, t3, s0, s1, s2, s3
        sub     \s0, \t0
        sbb     \s1, \t1
        sbb     \s2, \t2
        sbb     \s3, \t3
        ADD_P_IF_BORROW \t0, \t1, \t2, \t3
.endm

/* After a four-word subtraction into t0..t3 (CF = its borrow): adds p
 * back on a borrow. */
.macro ADD_P_IF_BORROW t0, t1, t2, t3
        sbb     %rcx, %rcx              /* all ones on a borrow */
        mov     %rcx, %rax
        shr     $32, %rax
        mov     .Lp3(%rip), %rdx
        and     %rcx, %rdx
        add     %rcx, \t0
        adc     %rax, \t1
        adc     $0, \t2
        adc     %rdx, \t3
.endm

/* \out = \a - \b mod p; the result is left in r8..r11 too. */
.macro FE_SUB out, a, b
        LOAD4   \a
        SUB_MOD %r8, %r9, %r10, %r11, \b
        STORE4  \out, %r8, %r9, %r10, %r11
.endm

/* t0..t3 += s0..s3 mod p (registers, both reduced), also stored at \out
 * unless blank; d0..d3 scratch; clobbers rbx. */
.macro ADD_MOD_REG out, t0, t1, t2, t3, s0, s1, s2, s3, d0, d1, d2, d3
        xor     %ebx, %ebx
        add     \s0, \t0
        adc     \s1, \t1
        adc     \s2, \t2
        adc     \s3, \t3
        adc     $0, %rbx
        FE_REDUCE_ONCE \out, \t0, \t1, \t2, \t3, %rbx, \d0, \d1, \d2, \d3
.endm

/* t0..t3 = t0..t3 / 2 mod p: t + p if t is odd (p masked by t's low bit),
 * then the 257-bit sum shifted right by one; stored at \out unless blank.
 * Clobbers rax, rbx, rcx, rdx. */
.macro HALF_REG out, t0, t1, t2, t3
        mov     \t0, %rcx
        and     $1, %ecx
        neg     %rcx                    /* all ones if t is odd */
        mov     %rcx, %rax
        shr     $32, %rax
        mov     .Lp3(%rip), %rdx
        and     %rcx, %rdx
        xor     %ebx, %ebx
        add     %rcx, \t0
        adc     %rax, \t1
        adc     $0, \t2
        adc     %rdx, \t3
        adc     $0, %rbx
        shrd    $1, \t1, \t0
        shrd    $1, \t2, \t1
        shrd    $1, \t3, \t2
        shrd    $1, %rbx, \t3
.ifnb \out
        STORE4  \out, \t0, \t1, \t2, \t3
.endif
.endm

/* Copy 32 bytes between (\sbase) + \soff and (\dbase) + \doff. */
.macro COPY32 doff, dbase, soff, sbase
        movdqu  \soff(\sbase), %xmm0
        movdqu  \soff+16(\sbase), %xmm1
        movdqu  %xmm0, \doff(\dbase)
        movdqu  %xmm1, \doff+16(\dbase)
.endm

#endif
