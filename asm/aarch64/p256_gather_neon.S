/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time read of one entry of a row of the P-256 fixed-base table
 * with NEON (Advanced SIMD).  C prototype (core/ec/p256_arm64.h):
 *
 *   void quill_p256_booth_gather_neon(uint64_t x[4], uint64_t y[4],
 *                                     const quill_p256_affine row[64],
 *                                     uint64_t abs);
 *
 * Sets (x, y) to row[abs - 1] for 1 <= abs <= 64 and to zeros for
 * abs = 0 (or any abs above 64), as its portable twin
 * quill_p256_booth_gather_c (core/ec/p256_base.c).  An entry is 64 bytes
 * (x then y, four little-endian words each).
 *
 * Secrets: abs is secret (a digit of a private scalar or nonce), and so
 * is the entry read; x, y and row are addresses (public).  Constant time:
 * every one of the 64 entries is loaded, in order, whatever abs is; the
 * loop runs a fixed 32 times (two entries per pass) and its branch depends
 * on the counter only.  The entry is kept by a mask: CMEQ of a running
 * index with abs broadcast (all-ones lanes on the wanted entry, zeros
 * elsewhere), then BIT (insert where the mask is set) into the
 * accumulators; no address and no branch depends on abs.  The vector
 * registers holding the entry and the mask are zeroed before returning.
 *
 * Calling convention: AAPCS64, x0 = x, x1 = y, x2 = row, x3 = abs.  Uses
 * x2, x4 and v0-v7, v16-v27 (all caller-saved; d8-d15 untouched), the
 * flags; no stack, no calls. */

#if defined(__aarch64__) && defined(__ELF__)

        .text

        .globl  quill_p256_booth_gather_neon
        .type   quill_p256_booth_gather_neon, %function
        .p2align 5
quill_p256_booth_gather_neon:
        .cfi_startproc
        dup     v16.2d, x3                  /* abs in both lanes */
        mov     x4, #1
        dup     v17.2d, x4                  /* index of the even entry: 1 */
        mov     x4, #2
        dup     v18.2d, x4                  /* index step */
        dup     v19.2d, x4                  /* index of the odd entry: 2 */
        movi    v0.16b, #0                  /* two accumulator sets: */
        movi    v1.16b, #0                  /* v0-v3 for even entries, */
        movi    v2.16b, #0                  /* v20-v23 for odd ones */
        movi    v3.16b, #0
        movi    v20.16b, #0
        movi    v21.16b, #0
        movi    v22.16b, #0
        movi    v23.16b, #0
        mov     x4, #32                     /* passes (public) */
1:
        /* Single-register LDR Q: one micro-op each in LLVM's Cortex-A57
         * tables (the -mcpu=neoverse-n1 model), where LD1 of four
         * registers costs four cycles of the load pipe and LDP Q three
         * micro-ops; llvm-mca-16 on this loop, cycles per entry: N1 6
         * (LD1: 8, LDP Q: 7), M1 2 (LD1: 5, LDP Q: 2.5). */
        ldr     q4, [x2]
        ldr     q5, [x2, #16]
        ldr     q6, [x2, #32]
        ldr     q7, [x2, #48]
        ldr     q24, [x2, #64]
        ldr     q25, [x2, #80]
        ldr     q26, [x2, #96]
        ldr     q27, [x2, #112]
        add     x2, x2, #128
        cmeq    v28.2d, v17.2d, v16.2d      /* mask of the even entry */
        cmeq    v29.2d, v19.2d, v16.2d      /* mask of the odd entry */
        add     v17.2d, v17.2d, v18.2d
        add     v19.2d, v19.2d, v18.2d
        bit     v0.16b, v4.16b, v28.16b
        bit     v1.16b, v5.16b, v28.16b
        bit     v2.16b, v6.16b, v28.16b
        bit     v3.16b, v7.16b, v28.16b
        bit     v20.16b, v24.16b, v29.16b
        bit     v21.16b, v25.16b, v29.16b
        bit     v22.16b, v26.16b, v29.16b
        bit     v23.16b, v27.16b, v29.16b
        subs    x4, x4, #1
        b.ne    1b
        /* At most one of the two sets holds the entry, the other zeros. */
        orr     v0.16b, v0.16b, v20.16b
        orr     v1.16b, v1.16b, v21.16b
        orr     v2.16b, v2.16b, v22.16b
        orr     v3.16b, v3.16b, v23.16b
        st1     {v0.2d, v1.2d}, [x0]
        st1     {v2.2d, v3.2d}, [x1]
        /* Wipe what held the entry or the masks. */
        movi    v0.16b, #0
        movi    v1.16b, #0
        movi    v2.16b, #0
        movi    v3.16b, #0
        movi    v4.16b, #0
        movi    v5.16b, #0
        movi    v6.16b, #0
        movi    v7.16b, #0
        movi    v16.16b, #0
        movi    v20.16b, #0
        movi    v21.16b, #0
        movi    v22.16b, #0
        movi    v23.16b, #0
        movi    v24.16b, #0
        movi    v25.16b, #0
        movi    v26.16b, #0
        movi    v27.16b, #0
        movi    v28.16b, #0
        movi    v29.16b, #0
        ret
        .cfi_endproc
        .size   quill_p256_booth_gather_neon, .-quill_p256_booth_gather_neon

#endif

        .section .note.GNU-stack, "", %progbits
