/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Multi-limb addition and subtraction on aarch64 with one carry chain
 * through ADCS/SBCS.  C prototypes (core/bn/internal.h):
 *
 *   quill_limb quill_bn_add_arm64(quill_limb *r, const quill_limb *a,
 *                                 const quill_limb *b, size_t n);
 *   quill_limb quill_bn_sub_arm64(quill_limb *r, const quill_limb *a,
 *                                 const quill_limb *b, size_t n);
 *
 * add: r = a + b mod 2^(64 n), returns the carry out (0 or 1).
 * sub: r = a - b mod 2^(64 n), returns the borrow out (0 or 1).
 * The contracts of quill_bn_add_c and quill_bn_sub_c (core/bn/add.c), whose
 * results these match bit for bit (test_bn_arm64): n may be 0; r may be a
 * or b itself (each word is loaded before the same word of r is stored),
 * not a partial overlap.
 *
 * Inputs: r, a, b (pointers, public), n (public); the words of a and b may
 * be secret.  The carry lives in the C flag from the first word to the
 * last: the loops are closed with SUB (no flags) and CBNZ (reads no flag).
 * The n mod 4 single words go first, then blocks of four words (two LDP per
 * operand, four ADCS/SBCS, two STP).  SBCS subtracts the inverted C flag,
 * so the subtraction starts with C = 1 (no borrow) and returns NOT C.
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = b, x3 = n; returns in
 * x0.  Uses x0-x12 (caller-saved) only; no stack, no calls.  Required CPU
 * features: ARMv8.0-A (dispatched on QUILL_CPU_ARM64 so that QUILL_CPU_MASK
 * can force the C twins).
 * Constant time: the instruction stream and every address depend on n and
 * the pointers only, never on the words of a or b. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

/* ADDSUB name, op, init, ret: op = adcs or sbcs; init sets C to its
 * neutral value; ret is the condition of the returned carry/borrow. */
.macro ADDSUB name, op, init, cond
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
        .cfi_startproc
        \init
        and     x4, x3, #3              /* single words first */
        lsr     x3, x3, #2              /* then blocks of four */
        cbz     x4, 2f
1:
        ldr     x5, [x1], #8
        ldr     x6, [x2], #8
        \op     x5, x5, x6
        str     x5, [x0], #8
        sub     x4, x4, #1
        cbnz    x4, 1b
2:
        cbz     x3, 4f
3:
        ldp     x5, x6, [x1], #16
        ldp     x9, x10, [x2], #16
        ldp     x7, x8, [x1], #16
        ldp     x11, x12, [x2], #16
        \op     x5, x5, x9
        \op     x6, x6, x10
        \op     x7, x7, x11
        \op     x8, x8, x12
        stp     x5, x6, [x0], #16
        stp     x7, x8, [x0], #16
        sub     x3, x3, #1
        cbnz    x3, 3b
4:
        cset    x0, \cond
        ret
        .cfi_endproc
        .size   \name, .-\name
.endm

        /* add: C = 0 (cmn 0, 0 does not carry); returns C */
        ADDSUB  quill_bn_add_arm64, adcs, "cmn xzr, xzr", cs
        /* sub: C = 1 (cmp 0, 0 does not borrow); returns NOT C */
        ADDSUB  quill_bn_sub_arm64, sbcs, "cmp xzr, xzr", cc

#endif

        .section .note.GNU-stack, "", %progbits
