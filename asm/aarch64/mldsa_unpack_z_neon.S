/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The NEON twin of quill_mldsa_poly_unpack_z_c (core/mldsa/pack.c, pack.h):
 * BitUnpack(in, gamma1 - 1, gamma1) of one polynomial, also ExpandMask's,
 * bit-identical to the portable code:
 *
 *   void quill_mldsa_poly_unpack_z_neon(int32_t z[256], const uint8_t *in,
 *                                       unsigned gamma1_bits, int32_t gamma1);
 *
 * gamma1_bits is 17 (18-bit fields, 576 bytes) or 19 (20-bit fields, 640
 * bytes); any other value is taken as 19.  z_i = gamma1 - field_i.
 *
 * Inputs and secrecy: the bytes of in are secret (the mask y comes from
 * ExpandMask); z, in, gamma1_bits and gamma1 are public (the parameter
 * set).  Method, per group of 8 coefficients (18 or 20 bytes): two 16-byte
 * loads, at the group's start (coefficients 0-3) and 2 (18-bit) or 4
 * (20-bit) bytes on (coefficients 4-7), so the last group's loads end
 * exactly at the encoding's end and nothing past it is read; TBL puts the
 * three bytes holding coefficient i into 32-bit lane i (index 0xff gives a
 * zero byte), USHL by a negative count per lane drops the bits below the
 * field, AND the bits above it, SUB from gamma1 (the portable code's
 * formula, lane by lane).
 *
 * Registers (AAPCS64): x0 = z, x1 = in, w2 = gamma1_bits, w3 = gamma1;
 * x4, x9-x12 scratch; v0, v1 data; v3 the field mask, v4/v5 the byte
 * picks of the two halves, v6 the shifts, v7 = gamma1 in every lane.  No
 * callee-saved register is used; no stack.
 *
 * Constant time: the only branches are on gamma1_bits (public) and the
 * fixed loop count; every address depends on the pointers and the loop
 * counter only; TBL indexes a register by the constant pick vectors, never
 * by data.  Required CPU feature: Advanced SIMD (quill_mldsa_neon_capable()). */

#if defined(__aarch64__) && defined(__ELF__)

        .section .rodata
        .p2align 4
/* gamma1_bits = 17: field i at bits 18 i: bytes (9 i) / 4 .. + 2, shifted
 * right by 2 (i mod 4); the upper half loaded from byte 2 on. */
.Lunz17:
        .byte   0, 1, 2, 0xff, 2, 3, 4, 0xff, 4, 5, 6, 0xff, 6, 7, 8, 0xff
        .byte   7, 8, 9, 0xff, 9, 10, 11, 0xff, 11, 12, 13, 0xff, 13, 14, 15, 0xff
        .word   0, -2, -4, -6
/* gamma1_bits = 19: field i at bits 20 i: bytes (5 i) / 2 .. + 2, shifted
 * right by 4 (i odd); the upper half loaded from byte 4 on. */
.Lunz19:
        .byte   0, 1, 2, 0xff, 2, 3, 4, 0xff, 5, 6, 7, 0xff, 7, 8, 9, 0xff
        .byte   6, 7, 8, 0xff, 8, 9, 10, 0xff, 11, 12, 13, 0xff, 13, 14, 15, 0xff
        .word   0, -4, 0, -4

        .text
        .globl  quill_mldsa_poly_unpack_z_neon
        .hidden quill_mldsa_poly_unpack_z_neon
        .type   quill_mldsa_poly_unpack_z_neon, %function
        .p2align 4
quill_mldsa_poly_unpack_z_neon:
        dup     v7.4s, w3
        adrp    x9, .Lunz17
        add     x9, x9, :lo12:.Lunz17
        mov     x10, #18                /* bytes per group */
        mov     x11, #2                 /* offset of the upper load */
        mov     w12, #0x3ffff
        cmp     w2, #17
        b.eq    1f
        add     x9, x9, #48             /* .Lunz19 */
        mov     x10, #20
        mov     x11, #4
        mov     w12, #0xfffff
1:      ld1     {v4.16b, v5.16b, v6.16b}, [x9]
        dup     v3.4s, w12
        add     x11, x1, x11
        mov     x4, #32
2:      ldr     q0, [x1]
        ldr     q1, [x11]
        add     x1, x1, x10
        add     x11, x11, x10
        tbl     v0.16b, {v0.16b}, v4.16b
        tbl     v1.16b, {v1.16b}, v5.16b
        ushl    v0.4s, v0.4s, v6.4s
        ushl    v1.4s, v1.4s, v6.4s
        and     v0.16b, v0.16b, v3.16b
        and     v1.16b, v1.16b, v3.16b
        sub     v0.4s, v7.4s, v0.4s
        sub     v1.4s, v7.4s, v1.4s
        stp     q0, q1, [x0], #32
        subs    x4, x4, #1
        b.ne    2b
        ret
        .size   quill_mldsa_poly_unpack_z_neon, . - quill_mldsa_poly_unpack_z_neon

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
