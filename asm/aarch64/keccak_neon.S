/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3) on two states at once with
 * ARMv8.0-A Advanced SIMD (NEON), for quill_keccak_f1600_x4 (core/sha3/
 * keccak_x4.c), which calls it on states 0 and 1 and on states 2 and 3 of
 * its interleaved layout.
 *
 *   void quill_keccak_f1600_x2_neon(uint64_t *s);
 *
 * Input: x0 = s, the interleaved four-state array of sha3_x4.h (s[4i + j]
 * is lane i of state j), offset to the first of the two states: lane i of
 * the two states is the 16 bytes at s + 32i (no alignment required).  Both
 * states are permuted in place.  The states may be secret (ExpandS and
 * ExpandMask seeds).
 *
 * Registers: v0..v24 hold lane i = x + 5y of both states (state 0 in the
 * low 64-bit half, state 1 in the high half) for the whole permutation;
 * v25..v31 are theta's column parities C[x] and D[x] and the temporaries of
 * rho, pi and chi; x1 walks the round constants, x2 is their end.  d8..d15
 * (the low halves of v8..v15, callee-saved under AAPCS64) are saved on the
 * stack and restored; no other callee-saved register is used.
 *
 * One round (24 of them, one per loop iteration):
 *   theta  C[x] = xor of column x; D[x] = C[x-1] ^ rol(C[x+1], 1); every
 *          lane gets D[x] xored in (rotations are SHL then SRI, the shift
 *          right and insert filling the low bits);
 *   rho and pi together: lane A[x, y] rotated left by r[x][y] goes to
 *          (y, 2x + 3y mod 5).  The 24 lanes other than A[0, 0] form one
 *          cycle of pi, walked backwards from lane 1 (saved in v25 first):
 *          each step writes rol(old src, r) over a lane whose old value was
 *          already used.  The (dst, src, r) list below follows from pi and
 *          the rotation table of keccak_round.h;
 *   chi    per row: T[x] = b[x+2] & ~b[x+1] (BIC) into v25..v29, then
 *          b[x] ^= T[x];
 *   iota   the round constant into A[0, 0].
 *
 * Constant time: the instruction sequence is fixed (the loop runs 24 times
 * whatever the state), and the only addresses are s and the round-constant
 * table, neither derived from the state. */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

/* The round constants of iota: quill_keccak_rc (core/sha3/keccak.c), hidden
 * in the module, so PC-relative ADRP/ADD reach it without a GOT entry. */
        .hidden quill_keccak_rc

        .text

/* v\dst = rol(v\src, \r) on each 64-bit lane, 0 < r < 64. */
.macro rol_lane dst, src, r
        shl     v\dst\().2d, v\src\().2d, #\r
        sri     v\dst\().2d, v\src\().2d, #(64 - \r)
.endm

/* v\c = v\a0 ^ v\a1 ^ v\a2 ^ v\a3 ^ v\a4: theta's parity of a column. */
.macro column c, a0, a1, a2, a3, a4
        eor     v\c\().16b, v\a0\().16b, v\a1\().16b
        eor     v\c\().16b, v\c\().16b, v\a2\().16b
        eor     v\c\().16b, v\c\().16b, v\a3\().16b
        eor     v\c\().16b, v\c\().16b, v\a4\().16b
.endm

/* v\d = v\cm ^ rol(v\cp, 1) through the temporary v\t (d may equal cm). */
.macro theta_d d, cm, cp, t
        shl     v\t\().2d, v\cp\().2d, #1
        sri     v\t\().2d, v\cp\().2d, #63
        eor     v\d\().16b, v\cm\().16b, v\t\().16b
.endm

/* v\a ^= v\d for the five lanes a0..a4 of a column. */
.macro theta_col d, a0, a1, a2, a3, a4
        eor     v\a0\().16b, v\a0\().16b, v\d\().16b
        eor     v\a1\().16b, v\a1\().16b, v\d\().16b
        eor     v\a2\().16b, v\a2\().16b, v\d\().16b
        eor     v\a3\().16b, v\a3\().16b, v\d\().16b
        eor     v\a4\().16b, v\a4\().16b, v\d\().16b
.endm

/* chi on the row of lanes b0..b4: T[x] = b[x+2] & ~b[x+1] in v25..v29,
 * then b[x] ^= T[x]. */
.macro chi_row b0, b1, b2, b3, b4
        bic     v25.16b, v\b2\().16b, v\b1\().16b
        bic     v26.16b, v\b3\().16b, v\b2\().16b
        bic     v27.16b, v\b4\().16b, v\b3\().16b
        bic     v28.16b, v\b0\().16b, v\b4\().16b
        bic     v29.16b, v\b1\().16b, v\b0\().16b
        eor     v\b0\().16b, v\b0\().16b, v25.16b
        eor     v\b1\().16b, v\b1\().16b, v26.16b
        eor     v\b2\().16b, v\b2\().16b, v27.16b
        eor     v\b3\().16b, v\b3\().16b, v28.16b
        eor     v\b4\().16b, v\b4\().16b, v29.16b
.endm

        .globl  quill_keccak_f1600_x2_neon
        .type   quill_keccak_f1600_x2_neon, %function
        .p2align 4
quill_keccak_f1600_x2_neon:
        .cfi_startproc
        PUSH_D8_D15
        .irp    i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
        ldr     q\i, [x0, #32 * \i]
        .endr
        adrp    x1, quill_keccak_rc
        add     x1, x1, #:lo12:quill_keccak_rc
        add     x2, x1, #8 * 24
.Lkeccak_neon_round:
        /* theta: C[x] in v25..v29; D[0] in v30, D[1] in v31, applied to
         * column 1 at once (lane 1 lands in v25 for pi's cycle) so that v31
         * can serve D[2..4], which go over C[1..3] (each C's last use). */
        column  25, 0, 5, 10, 15, 20
        column  26, 1, 6, 11, 16, 21
        column  27, 2, 7, 12, 17, 22
        column  28, 3, 8, 13, 18, 23
        column  29, 4, 9, 14, 19, 24
        theta_d 30, 29, 26, 30
        theta_d 31, 25, 27, 31
        theta_col 31, 1, 6, 11, 16, 21
        theta_d 26, 26, 28, 31
        theta_d 27, 27, 29, 31
        theta_d 28, 28, 25, 31
        mov     v25.16b, v1.16b
        theta_col 30, 0, 5, 10, 15, 20
        theta_col 26, 2, 7, 12, 17, 22
        theta_col 27, 3, 8, 13, 18, 23
        theta_col 28, 4, 9, 14, 19, 24
        /* rho and pi: the cycle from lane 1 (saved in v25). */
        rol_lane 1, 6, 44
        rol_lane 6, 9, 20
        rol_lane 9, 22, 61
        rol_lane 22, 14, 39
        rol_lane 14, 20, 18
        rol_lane 20, 2, 62
        rol_lane 2, 12, 43
        rol_lane 12, 13, 25
        rol_lane 13, 19, 8
        rol_lane 19, 23, 56
        rol_lane 23, 15, 41
        rol_lane 15, 4, 27
        rol_lane 4, 24, 14
        rol_lane 24, 21, 2
        rol_lane 21, 8, 55
        rol_lane 8, 16, 45
        rol_lane 16, 5, 36
        rol_lane 5, 3, 28
        rol_lane 3, 18, 21
        rol_lane 18, 17, 15
        rol_lane 17, 11, 10
        rol_lane 11, 7, 6
        rol_lane 7, 10, 3
        rol_lane 10, 25, 1
        /* chi, then iota. */
        chi_row 0, 1, 2, 3, 4
        chi_row 5, 6, 7, 8, 9
        chi_row 10, 11, 12, 13, 14
        chi_row 15, 16, 17, 18, 19
        chi_row 20, 21, 22, 23, 24
        ld1r    {v25.2d}, [x1], #8
        eor     v0.16b, v0.16b, v25.16b
        cmp     x1, x2
        b.ne    .Lkeccak_neon_round

        .irp    i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
        str     q\i, [x0, #32 * \i]
        .endr
        POP_D8_D15
        ret
        .cfi_endproc
        .size   quill_keccak_f1600_x2_neon, .-quill_keccak_f1600_x2_neon

#endif

        .section .note.GNU-stack, "", %progbits
