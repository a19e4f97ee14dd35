/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Test-only trampoline for the aarch64 assembly's ABI tests (not part of the
 * core); test/common/abi_check_aarch64.h declares it.
 *
 *   uint32_t quill_abi_a64_call(const void *fn, const uint64_t args[8],
 *                               uint64_t *ret);
 *
 * AAPCS64: loads canaries into the callee-saved registers x19-x28, x29 and
 * the low halves d8-d15 of v8-v15, passes args[0..7] to fn in x0-x7, calls
 * it, stores its x0 in *ret, and returns a mask of what fn did not
 * preserve: bit i (0..9) for x(19+i), bit 10 for x29, bits 11..18 for
 * d8..d15, bit 19 for the stack pointer.  The caller's own registers are
 * saved and restored around all of this. */

#if defined(__aarch64__) && defined(__ELF__)

/* The canary of register number r (19..29 for x, 8..15 for d): distinct,
 * with both halves and every byte non-zero. */
#define CANARY(r) (0x5a17c3e900000000 + 0x0101010101 * (r))

        .text
        .globl  quill_abi_a64_call
        .type   quill_abi_a64_call, %function
        .p2align 4
quill_abi_a64_call:
        .cfi_startproc
        /* Frame: x29/x30, x19-x28, d8-d15, then fn/args/ret and the sp. */
        stp     x29, x30, [sp, #-192]!
        .cfi_def_cfa_offset 192
        .cfi_offset x29, -192
        .cfi_offset x30, -184
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        stp     x21, x22, [sp, #32]
        stp     x23, x24, [sp, #48]
        stp     x25, x26, [sp, #64]
        stp     x27, x28, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        stp     x0, x1, [sp, #160]      /* fn, args */
        mov     x9, sp
        stp     x2, x9, [sp, #176]      /* ret, the stack pointer at the call */

        ldr     x19, =CANARY(19)
        ldr     x20, =CANARY(20)
        ldr     x21, =CANARY(21)
        ldr     x22, =CANARY(22)
        ldr     x23, =CANARY(23)
        ldr     x24, =CANARY(24)
        ldr     x25, =CANARY(25)
        ldr     x26, =CANARY(26)
        ldr     x27, =CANARY(27)
        ldr     x28, =CANARY(28)
        ldr     d8, =CANARY(8)
        ldr     d9, =CANARY(9)
        ldr     d10, =CANARY(10)
        ldr     d11, =CANARY(11)
        ldr     d12, =CANARY(12)
        ldr     d13, =CANARY(13)
        ldr     d14, =CANARY(14)
        ldr     d15, =CANARY(15)

        mov     x16, x0                 /* fn */
        ldp     x0, x1, [x1, #0]        /* x1 (args) is read last */
        ldr     x9, [sp, #168]
        ldp     x2, x3, [x9, #16]
        ldp     x4, x5, [x9, #32]
        ldp     x6, x7, [x9, #48]
        ldr     x29, =CANARY(29)
        blr     x16

        /* sp is restored by any routine that returns at all; compare it
         * with the value saved, then use the saved frame. */
        mov     x9, sp
        ldr     x10, [x9, #184]
        mov     x11, #0
        cmp     x9, x10
        cset    x12, ne
        orr     x11, x11, x12, lsl #19
        ldr     x10, [x9, #176]
        str     x0, [x10]

        /* CHECK_X reg, bit: bit set in x11 unless reg holds its canary. */
        .macro CHECK_X r, bit
        ldr     x12, =CANARY(\r)
        cmp     x\r, x12
        cset    x13, ne
        orr     x11, x11, x13, lsl #\bit
        .endm
        .macro CHECK_D r, bit
        ldr     x12, =CANARY(\r)
        fmov    x14, d\r
        cmp     x14, x12
        cset    x13, ne
        orr     x11, x11, x13, lsl #\bit
        .endm
        CHECK_X 19, 0
        CHECK_X 20, 1
        CHECK_X 21, 2
        CHECK_X 22, 3
        CHECK_X 23, 4
        CHECK_X 24, 5
        CHECK_X 25, 6
        CHECK_X 26, 7
        CHECK_X 27, 8
        CHECK_X 28, 9
        CHECK_X 29, 10
        CHECK_D 8, 11
        CHECK_D 9, 12
        CHECK_D 10, 13
        CHECK_D 11, 14
        CHECK_D 12, 15
        CHECK_D 13, 16
        CHECK_D 14, 17
        CHECK_D 15, 18

        mov     x0, x11
        ldr     x9, [sp, #184]          /* the frame, even if fn moved sp */
        mov     sp, x9
        ldp     x19, x20, [sp, #16]
        ldp     x21, x22, [sp, #32]
        ldp     x23, x24, [sp, #48]
        ldp     x25, x26, [sp, #64]
        ldp     x27, x28, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        ldp     x29, x30, [sp], #192
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .ltorg
        .size   quill_abi_a64_call, .-quill_abi_a64_call

/* Negative controls for the tests: each changes one callee-saved register
 * (x23, d12) and returns its first argument. */
        .globl  quill_abi_a64_bad_x23
        .type   quill_abi_a64_bad_x23, %function
        .p2align 2
quill_abi_a64_bad_x23:
        add     x23, x23, #1
        ret
        .size   quill_abi_a64_bad_x23, .-quill_abi_a64_bad_x23

        .globl  quill_abi_a64_bad_d12
        .type   quill_abi_a64_bad_d12, %function
        .p2align 2
quill_abi_a64_bad_d12:
        fmov    d12, xzr
        ret
        .size   quill_abi_a64_bad_d12, .-quill_abi_a64_bad_d12

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
