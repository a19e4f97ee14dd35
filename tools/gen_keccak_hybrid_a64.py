#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# gen_keccak_hybrid_a64.py writes asm/aarch64/keccak_hybrid.S to standard
# output: Keccak-f[1600] on three states at once without the SHA-3
# extension, two in NEON (as keccak_neon.S) and the third in the general
# registers, the two instruction streams of a round interleaved in one loop
# so that the scalar pipes work while the NEON pipes do.  Regenerate with
#   python3 tools/gen_keccak_hybrid_a64.py > asm/aarch64/keccak_hybrid.S
# (the test keccak_hybrid_generated, test/sha3_a64.cmake, checks that the
# file matches).
#
# The NEON round (159 instructions, 161 with iota's load and EOR): theta's
# C[x] in v25..v29, D[0] and D[1] in v30, v31, D[2..4] over C[1..3]; lane 1
# is copied to v25 (the start of pi's cycle); rho and pi walk pi's one
# 24-lane cycle backwards, each lane rotated by SHL + SRI into the register
# whose lane was already moved; chi per row: five BIC into v25..v29, five
# EOR in place.
#
# The scalar round (128 instructions with iota, 152 micro-ops by
# llvm-mca's Cortex-A57 tables, where ROR is two) has 30 registers (x0..x17,
# x19..x30; x18 is the platform register) for 25 lanes, so five are left
# for theta's C[x] and nothing else: the round-constant pointer lives on the
# stack, and theta's D[x] = C[x-1] ^ rol(C[x+1], 1) are computed in place
# over the C they last need (D[1] over C[0], then D[3], D[0], D[2], D[4]
# over C[2], C[4], C[1], C[3]), C[0] being kept on the stack for D[4], each
# D applied to its column at once; rotations are EOR's ROR operand and ROR;
# lane 1 xored with D[1] goes to the register that held D[1], pi's cycle
# being walked as in NEON; chi per row: five BIC into the free registers,
# five EOR in place.
#
# Interleaving: the two streams are merged in proportion (instruction k of
# one stream goes beside instruction k * len(other) / len(this) of the
# other); iota and the loop test follow.  The schedule is otherwise left to
# the out-of-order core.
#
# Why three states and not four: by llvm-mca-16 -mcpu=neoverse-n1
# (Cortex-A57's tables: 3 micro-ops issued a cycle, two NEON pipes, two
# integer pipes and one multi-cycle pipe) a NEON round of two states keeps
# the NEON pipes busy for 80.5 cycles but issues only 161 micro-ops, leaving
# room for about half a scalar round (152).  One scalar state beside the
# NEON pair makes the loop issue-bound (7877 micro-ops, 2680 cycles for
# three states, against 4070 for two two-way NEON calls); a second scalar
# state has no registers left and must take turns through memory
# (--x4-swap, model only: 4802 cycles for the rounds alone, slower than the
# two NEON calls).
import sys

ROT = [[0, 1, 62, 28, 27], [36, 44, 6, 55, 20], [3, 10, 43, 25, 39], [41, 45, 15, 21, 8],
       [18, 2, 61, 56, 14]]

# pi moves A[x, y] to (y, 2x + 3y): walking its cycle backwards from lane 1,
# lane dst gets rol(lane src, r) where src is the lane pi sends to dst.


def pi_cycle():
    src_of = {}
    for y in range(5):
        for x in range(5):
            dx, dy = y, (2 * x + 3 * y) % 5
            src_of[dx + 5 * dy] = (x + 5 * y, ROT[y][x])
    out, dst = [], 1
    while True:
        src, r = src_of[dst]
        out.append((dst, src, r))
        if src == 1:
            break
        dst = src
    assert len(out) == 24
    return out


CYCLE = pi_cycle()

# General registers: lanes 0..24 of the scalar state, then five temporaries.
GPR = [f"x{i}" for i in range(18)] + [f"x{i}" for i in range(19, 31)]
LANE = GPR[:25]
TMP = GPR[25:]

# Stack frame: x19..x30 and d8..d15 saved, then the state pointer, the
# round-constant pointer and C[0]'s slot.
F_SAVE_X, F_SAVE_D, F_S, F_RC, F_C0, FRAME = 0, 96, 160, 168, 176, 192


def neon_round():
    o = []

    def v(r):
        return f"v{r}.16b"

    for x in range(5):
        c = 25 + x
        o.append(f"eor     {v(c)}, {v(x)}, {v(x + 5)}")
        for y in (2, 3, 4):
            o.append(f"eor     {v(c)}, {v(c)}, {v(x + 5 * y)}")

    def theta_d(d, cm, cp, t):
        o.append(f"shl     v{t}.2d, v{cp}.2d, #1")
        o.append(f"sri     v{t}.2d, v{cp}.2d, #63")
        o.append(f"eor     {v(d)}, {v(cm)}, {v(t)}")

    def theta_col(d, x, first_to=None):
        for y in range(5):
            a = x + 5 * y
            if y == 0 and first_to is not None:
                o.append(f"eor     {v(first_to)}, {v(a)}, {v(d)}")
            else:
                o.append(f"eor     {v(a)}, {v(a)}, {v(d)}")

    theta_d(30, 29, 26, 30)          # D[0] = C[4] ^ rol(C[1])
    theta_d(31, 25, 27, 31)          # D[1] = C[0] ^ rol(C[2])
    theta_col(31, 1)
    theta_d(26, 26, 28, 31)          # D[2] over C[1]
    theta_d(27, 27, 29, 31)          # D[3] over C[2]
    theta_d(28, 28, 25, 31)          # D[4] over C[3]
    # lane 1 was xored above; it is copied for pi's cycle by the first
    # step below reading v25: move it there now.
    o.append(f"mov     {v(25)}, {v(1)}")
    theta_col(30, 0)
    theta_col(26, 2)
    theta_col(27, 3)
    theta_col(28, 4)
    for dst, src, r in CYCLE:
        s = 25 if src == 1 else src
        o.append(f"shl     v{dst}.2d, v{s}.2d, #{r}")
        o.append(f"sri     v{dst}.2d, v{s}.2d, #{64 - r}")
    for y in range(5):
        b = [x + 5 * y for x in range(5)]
        for x in range(5):
            o.append(f"bic     {v(25 + x)}, {v(b[(x + 2) % 5])}, {v(b[(x + 1) % 5])}")
        for x in range(5):
            o.append(f"eor     {v(b[x])}, {v(b[x])}, {v(25 + x)}")
    return o


def scalar_round():
    o = []
    H, T = LANE, TMP
    for x in range(5):
        o.append(f"eor     {T[x]}, {H[x]}, {H[x + 5]}")
        for y in (2, 3, 4):
            o.append(f"eor     {T[x]}, {T[x]}, {H[x + 5 * y]}")
    o.append(f"str     {T[0]}, [sp, #{F_C0}]")

    def col(d, x, lane1_to=None):
        for y in range(5):
            a = x + 5 * y
            if a == 1:
                o.append(f"eor     {lane1_to}, {H[a]}, {d}")
            else:
                o.append(f"eor     {H[a]}, {H[a]}, {d}")

    # D[1] = C[0] ^ rol(C[2], 1) over C[0] (T0); lane 1 ^ D[1] into T0
    # itself last (pi's cycle reads it there).
    o.append(f"eor     {T[0]}, {T[0]}, {T[2]}, ror #63")
    for y in range(1, 5):
        o.append(f"eor     {H[1 + 5 * y]}, {H[1 + 5 * y]}, {T[0]}")
    o.append(f"eor     {T[0]}, {H[1]}, {T[0]}")
    o.append(f"eor     {T[2]}, {T[2]}, {T[4]}, ror #63")      # D[3] over C[2]
    col(T[2], 3)
    o.append(f"eor     {T[4]}, {T[4]}, {T[1]}, ror #63")      # D[0] over C[4]
    col(T[4], 0)
    o.append(f"eor     {T[1]}, {T[1]}, {T[3]}, ror #63")      # D[2] over C[1]
    col(T[1], 2)
    o.append(f"ldr     {T[2]}, [sp, #{F_C0}]")                # C[0] again
    o.append(f"eor     {T[3]}, {T[3]}, {T[2]}, ror #63")      # D[4] over C[3]
    col(T[3], 4)
    for dst, src, r in CYCLE:
        s = T[0] if src == 1 else H[src]
        o.append(f"ror     {H[dst]}, {s}, #{64 - r}")
    for y in range(5):
        b = [H[x + 5 * y] for x in range(5)]
        for x in range(5):
            o.append(f"bic     {T[x]}, {b[(x + 2) % 5]}, {b[(x + 1) % 5]}")
        for x in range(5):
            o.append(f"eor     {b[x]}, {b[x]}, {T[x]}")
    return o


def merge(a, b):
    """a and b interleaved in proportion, each in its own order."""
    out, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if j >= len(b) or (i < len(a) and i * len(b) <= j * len(a)):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


HEADER = r'''/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * GENERATED by tools/gen_keccak_hybrid_a64.py (which explains the schedule);
 * do not edit: python3 tools/gen_keccak_hybrid_a64.py > asm/aarch64/keccak_hybrid.S
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3) on three states at once with
 * ARMv8.0-A: states 0 and 1 in NEON registers (as keccak_neon.S), state 2
 * in general registers, the two rounds interleaved instruction by
 * instruction in one loop so that the scalar and the vector pipes work at
 * the same time.  For quill_keccak_f1600_x4_some with n == 3 on CPUs
 * without the SHA-3 extension (core/sha3/keccak_x4.c).
 *
 *   void quill_keccak_f1600_x3_hybrid(uint64_t *s);
 *
 * Input: x0 = s, the interleaved four-state array of sha3_x4.h (s[4i + j]
 * is lane i of state j); states 0, 1 and 2 are permuted in place, state 3
 * is neither read nor written.  No alignment required.  The states may be
 * secret (SHAKE on seeds).
 *
 * Registers: v0..v24 hold lane i of states 0 and 1 (low and high 64-bit
 * halves), v25..v31 theta's C and D and chi's temporaries; x0..x17 and
 * x19..x25 hold lane 0..24 of state 2, x26..x30 theta's C and D, the copy
 * of lane 1 for pi and chi's temporaries (x18, the platform register, is
 * not used).  x19..x30 and d8..d15 are saved on the stack and restored;
 * the stack also holds s, the round-constant pointer and theta's C[0]
 * for a moment each round.
 *
 * Constant time: the instruction sequence is fixed (the loop runs 24 times
 * whatever the states), and the only addresses are s, the stack and the
 * round-constant table, none derived from the states. */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

/* The round constants of iota: quill_keccak_rc (core/sha3/keccak.c), hidden
 * in the module, so PC-relative ADRP/ADD reach it without a GOT entry. */
        .hidden quill_keccak_rc

        .text
        .globl  quill_keccak_f1600_x3_hybrid
        .type   quill_keccak_f1600_x3_hybrid, %function
        .p2align 4
quill_keccak_f1600_x3_hybrid:
        .cfi_startproc
'''

TRAILER = r'''
#endif

        .section .note.GNU-stack, "", %progbits
'''


def x4_swap_stream():
    """The scalar stream of the four-state variant (--x4-swap): state 2's
    round and iota, swap to state 3 through s, its round and iota, swap
    back."""
    t, o = TMP, []

    def iota():
        o.append(f"ldr     {t[0]}, [sp, #{F_RC}]")
        o.append(f"ldr     {t[1]}, [{t[0]}]")
        o.append(f"eor     {LANE[0]}, {LANE[0]}, {t[1]}")

    def swap(out_off, in_off):
        o.append(f"ldr     {t[0]}, [sp, #{F_S}]")
        for i in range(25):
            o.append(f"str     {LANE[i]}, [{t[0]}, #{32 * i + out_off}]")
        for i in range(25):
            o.append(f"ldr     {LANE[i]}, [{t[0]}, #{32 * i + in_off}]")

    o += scalar_round()
    iota()
    swap(16, 24)
    o += scalar_round()
    iota()
    swap(24, 16)
    return o


def main():
    if sys.argv[1:] == ["--x4-swap"]:
        return main_x4_swap()
    w = sys.stdout.write
    ind = "        "
    w(HEADER)
    # Prologue: frame, callee-saved registers (x19..x30 in pairs, d8..d15).
    w(f"{ind}sub     sp, sp, #{FRAME}\n{ind}.cfi_def_cfa_offset {FRAME}\n")
    w(f"{ind}SAVE_X19_X28 {F_SAVE_X}\n")
    w(f"{ind}stp     x29, x30, [sp, #{F_SAVE_X + 80}]\n")
    w(f"{ind}.cfi_rel_offset x29, {F_SAVE_X + 80}\n")
    w(f"{ind}.cfi_rel_offset x30, {F_SAVE_X + 88}\n")
    w(f"{ind}SAVE_D8_D15 {F_SAVE_D}\n")
    w(f"{ind}str     x0, [sp, #{F_S}]\n")
    w(f"{ind}adrp    x1, quill_keccak_rc\n{ind}add     x1, x1, #:lo12:quill_keccak_rc\n")
    w(f"{ind}str     x1, [sp, #{F_RC}]\n")
    for i in range(25):
        w(f"{ind}ldr     q{i}, [x0, #{32 * i}]\n")
    # Scalar lanes last to first, so that x0 (lane 0) is loaded last.
    for i in reversed(range(25)):
        w(f"{ind}ldr     {LANE[i]}, [x0, #{32 * i + 16}]\n")
    w(".Lkeccak_hybrid_round:\n")
    for ins in merge(neon_round(), scalar_round()):
        w(f"{ind}{ins}\n")
    # iota and the loop test (the temporaries are free after chi).
    t = TMP
    w(f"{ind}ldr     {t[0]}, [sp, #{F_RC}]\n")
    w(f"{ind}ld1r    {{v25.2d}}, [{t[0]}]\n")
    w(f"{ind}ldr     {t[1]}, [{t[0]}], #8\n")
    w(f"{ind}adrp    {t[2]}, quill_keccak_rc + 192\n")
    w(f"{ind}add     {t[2]}, {t[2]}, #:lo12:quill_keccak_rc + 192\n")
    w(f"{ind}str     {t[0]}, [sp, #{F_RC}]\n")
    w(f"{ind}eor     v0.16b, v0.16b, v25.16b\n")
    w(f"{ind}eor     {LANE[0]}, {LANE[0]}, {t[1]}\n")
    w(f"{ind}cmp     {t[0]}, {t[2]}\n")
    w(f"{ind}b.ne    .Lkeccak_hybrid_round\n")
    # Epilogue: store, restore.
    w(f"{ind}ldr     {t[0]}, [sp, #{F_S}]\n")
    for i in range(25):
        w(f"{ind}str     q{i}, [{t[0]}, #{32 * i}]\n")
    for i in range(25):
        w(f"{ind}str     {LANE[i]}, [{t[0]}, #{32 * i + 16}]\n")
    w(f"{ind}RESTORE_D8_D15 {F_SAVE_D}\n")
    w(f"{ind}RESTORE_X19_X28 {F_SAVE_X}\n")
    w(f"{ind}ldp     x29, x30, [sp, #{F_SAVE_X + 80}]\n")
    w(f"{ind}.cfi_restore x29\n{ind}.cfi_restore x30\n")
    w(f"{ind}add     sp, sp, #{FRAME}\n{ind}.cfi_def_cfa_offset 0\n")
    w(f"{ind}ret\n{ind}.cfi_endproc\n")
    w(f"{ind}.size   quill_keccak_f1600_x3_hybrid, .-quill_keccak_f1600_x3_hybrid\n")
    w(TRAILER)


def main_x4_swap():
    """Model only (not built): the round loop of a four-state variant,
    states 2 and 3 taking turns in the general registers through s, for
    llvm-mca (tools/mca_keccak_a64.sh); 24 iterations of it are one call's
    rounds."""
    w = sys.stdout.write
    for ins in merge(neon_round(), x4_swap_stream()):
        w(f"{ins}\n")
    t = TMP
    for ins in (f"ldr     {t[0]}, [sp, #{F_RC}]", f"ld1r    {{v25.2d}}, [{t[0]}]",
                f"add     {t[0]}, {t[0]}, #8", f"str     {t[0]}, [sp, #{F_RC}]",
                "eor     v0.16b, v0.16b, v25.16b", f"cmp     {t[0]}, {t[2]}"):
        w(ins + "\n")


main()
