/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3) with the ARMv8.2-A SHA-3
 * instructions (FEAT_SHA3: EOR3, RAX1, XAR, BCAX), on one state or on two
 * at once; callers check QUILL_CPU_ARM_SHA3 first (core/sha3/keccak.c,
 * keccak_x4.c).  This file alone is assembled for armv8.2-a+sha3.
 *
 *   void quill_keccak_f1600_neon_sha3(uint64_t s[25]);
 *   void quill_keccak_f1600_x2_neon_sha3(uint64_t *s);
 *
 * Inputs: x0 = s.  For the single permutation, lane i of the state is s[i]
 * (8-byte words, no alignment required).  For the two-way one, s is the
 * interleaved four-state array of sha3_x4.h (s[4i + j] is lane i of state
 * j), offset to the first of two states: lane i of the two states is the 16
 * bytes at s + 32i.  The states are permuted in place and may be secret
 * (SHAKE on keys and seeds).
 *
 * Registers: v0..v24 hold lane i = x + 5y (the single state in the low
 * 64-bit halves, the upper halves then computing garbage that is never
 * stored; two states in the two halves) for the whole permutation; v25..v31
 * are theta's C[x] and D[x] and the temporaries of pi and chi; x1 walks the
 * round constants, x2 is their end.  d8..d15 (callee-saved under AAPCS64)
 * are saved on the stack and restored.
 *
 * One round (24 of them, one per loop iteration):
 *   theta  C[x] = two EOR3 per column (v25..v29); D[x] = C[x-1] ^ rol(C[x+1],
 *          1) is one RAX1: D[0], D[1] in v30, v31, then D[2..4] over C[1..3]
 *          (each C's last use);
 *   theta's xor, rho and pi together: XAR rotates right after xoring, so
 *          lane A[x, y] ^ D[x] rotated left by r[x][y] (right by 64 - r)
 *          is one XAR written straight to its place (y, 2x + 3y mod 5).
 *          The 24 lanes other than A[0, 0] form one cycle of pi, walked
 *          backwards from lane 1 (copied to v25 first): each step writes
 *          over a lane whose old value was already used.  The (dst, src, r)
 *          list follows from pi and the rotation table of keccak_round.h;
 *   chi    per row, b[x] ^ (~b[x+1] & b[x+2]) is one BCAX; b[0] and b[1]
 *          are copied first, since rows' last two outputs need them;
 *   iota   the round constant into A[0, 0].
 *
 * Constant time: the instruction sequence is fixed (the loop runs 24 times
 * whatever the state), and the only addresses are s and the round-constant
 * table, neither derived from the state. */

#if defined(__aarch64__) && defined(__ELF__)

        .arch   armv8.2-a+sha3
        .text

/* v\c = v\a0 ^ v\a1 ^ v\a2 ^ v\a3 ^ v\a4: theta's parity of a column. */
.macro column c, a0, a1, a2, a3, a4
        eor3    v\c\().16b, v\a0\().16b, v\a1\().16b, v\a2\().16b
        eor3    v\c\().16b, v\c\().16b, v\a3\().16b, v\a4\().16b
.endm

/* v\dst = rol(v\src ^ v\d, \r), 0 < r < 64. */
.macro xar_lane dst, src, d, r
        xar     v\dst\().2d, v\src\().2d, v\d\().2d, #(64 - \r)
.endm

/* chi on the row of lanes b0..b4, with v\t0, v\t1 keeping b0, b1. */
.macro chi_row b0, b1, b2, b3, b4, t0, t1
        mov     v\t0\().16b, v\b0\().16b
        mov     v\t1\().16b, v\b1\().16b
        bcax    v\b0\().16b, v\b0\().16b, v\b2\().16b, v\b1\().16b
        bcax    v\b1\().16b, v\b1\().16b, v\b3\().16b, v\b2\().16b
        bcax    v\b2\().16b, v\b2\().16b, v\b4\().16b, v\b3\().16b
        bcax    v\b3\().16b, v\b3\().16b, v\t0\().16b, v\b4\().16b
        bcax    v\b4\().16b, v\b4\().16b, v\t1\().16b, v\t0\().16b
.endm

/* The 24 rounds on v0..v24, with the round constants from \rc. */
.macro keccak_sha3_rounds rc
        adrp    x1, \rc
        add     x1, x1, #:lo12:\rc
        add     x2, x1, #8 * 24
1:
        column  25, 0, 5, 10, 15, 20
        column  26, 1, 6, 11, 16, 21
        column  27, 2, 7, 12, 17, 22
        column  28, 3, 8, 13, 18, 23
        column  29, 4, 9, 14, 19, 24
        rax1    v30.2d, v29.2d, v26.2d
        rax1    v31.2d, v25.2d, v27.2d
        rax1    v26.2d, v26.2d, v28.2d
        rax1    v27.2d, v27.2d, v29.2d
        rax1    v28.2d, v28.2d, v25.2d
        mov     v25.16b, v1.16b
        eor     v0.16b, v0.16b, v30.16b
        xar_lane 1, 6, 31, 44
        xar_lane 6, 9, 28, 20
        xar_lane 9, 22, 26, 61
        xar_lane 22, 14, 28, 39
        xar_lane 14, 20, 30, 18
        xar_lane 20, 2, 26, 62
        xar_lane 2, 12, 26, 43
        xar_lane 12, 13, 27, 25
        xar_lane 13, 19, 28, 8
        xar_lane 19, 23, 27, 56
        xar_lane 23, 15, 30, 41
        xar_lane 15, 4, 28, 27
        xar_lane 4, 24, 28, 14
        xar_lane 24, 21, 31, 2
        xar_lane 21, 8, 27, 55
        xar_lane 8, 16, 31, 45
        xar_lane 16, 5, 30, 36
        xar_lane 5, 3, 27, 28
        xar_lane 3, 18, 27, 21
        xar_lane 18, 17, 26, 15
        xar_lane 17, 11, 31, 10
        xar_lane 11, 7, 26, 6
        xar_lane 7, 10, 30, 3
        xar_lane 10, 25, 31, 1
        chi_row 0, 1, 2, 3, 4, 25, 26
        chi_row 5, 6, 7, 8, 9, 27, 28
        chi_row 10, 11, 12, 13, 14, 29, 30
        chi_row 15, 16, 17, 18, 19, 31, 25
        chi_row 20, 21, 22, 23, 24, 26, 27
        ld1r    {v29.2d}, [x1], #8
        eor     v0.16b, v0.16b, v29.16b
        cmp     x1, x2
        b.ne    1b
.endm

/* Saves and restores d8..d15. */
.macro save_d8_d15
        stp     d8, d9, [sp, #-64]!
        .cfi_def_cfa_offset 64
        stp     d10, d11, [sp, #16]
        stp     d12, d13, [sp, #32]
        stp     d14, d15, [sp, #48]
.endm
.macro restore_d8_d15
        ldp     d10, d11, [sp, #16]
        ldp     d12, d13, [sp, #32]
        ldp     d14, d15, [sp, #48]
        ldp     d8, d9, [sp], #64
        .cfi_def_cfa_offset 0
.endm

        .globl  quill_keccak_f1600_neon_sha3
        .type   quill_keccak_f1600_neon_sha3, %function
        .p2align 4
quill_keccak_f1600_neon_sha3:
        .cfi_startproc
        save_d8_d15
        ldp     d0, d1, [x0, #0]
        ldp     d2, d3, [x0, #16]
        ldp     d4, d5, [x0, #32]
        ldp     d6, d7, [x0, #48]
        ldp     d8, d9, [x0, #64]
        ldp     d10, d11, [x0, #80]
        ldp     d12, d13, [x0, #96]
        ldp     d14, d15, [x0, #112]
        ldp     d16, d17, [x0, #128]
        ldp     d18, d19, [x0, #144]
        ldp     d20, d21, [x0, #160]
        ldp     d22, d23, [x0, #176]
        ldr     d24, [x0, #8 * 24]
        keccak_sha3_rounds .Lkeccak_sha3_rc
        stp     d0, d1, [x0, #0]
        stp     d2, d3, [x0, #16]
        stp     d4, d5, [x0, #32]
        stp     d6, d7, [x0, #48]
        stp     d8, d9, [x0, #64]
        stp     d10, d11, [x0, #80]
        stp     d12, d13, [x0, #96]
        stp     d14, d15, [x0, #112]
        stp     d16, d17, [x0, #128]
        stp     d18, d19, [x0, #144]
        stp     d20, d21, [x0, #160]
        stp     d22, d23, [x0, #176]
        str     d24, [x0, #8 * 24]
        restore_d8_d15
        ret
        .cfi_endproc
        .size   quill_keccak_f1600_neon_sha3, .-quill_keccak_f1600_neon_sha3

        .globl  quill_keccak_f1600_x2_neon_sha3
        .type   quill_keccak_f1600_x2_neon_sha3, %function
        .p2align 4
quill_keccak_f1600_x2_neon_sha3:
        .cfi_startproc
        save_d8_d15
        .irp    i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
        ldr     q\i, [x0, #32 * \i]
        .endr
        keccak_sha3_rounds .Lkeccak_sha3_rc
        .irp    i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
        str     q\i, [x0, #32 * \i]
        .endr
        restore_d8_d15
        ret
        .cfi_endproc
        .size   quill_keccak_f1600_x2_neon_sha3, .-quill_keccak_f1600_x2_neon_sha3

/* The round constants of iota (FIPS 202, Algorithm 6), as
 * quill_keccak_rc in core/sha3/keccak.c (kept local here so that the code
 * needs no GOT access in a shared object). */
        .section .rodata
        .p2align 3
.Lkeccak_sha3_rc:
        .quad   0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000
        .quad   0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009
        .quad   0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a
        .quad   0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003
        .quad   0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a
        .quad   0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008

#endif

        .section .note.GNU-stack, "", %progbits
