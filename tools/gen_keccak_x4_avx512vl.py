#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# gen_keccak_x4_avx512vl.py writes asm/x86_64/keccak_x4_avx512vl.S to
# standard output: Keccak-f[1600] (FIPS 202, Section 3.3) with AVX-512VL on
# four interleaved states, lane i of the four in one ymm register
# (quill_keccak_f1600_x4_avx512vl_asm), and the same code on one state in
# the low halves of xmm registers (quill_keccak_f1600_avx512vl_asm, the
# single-state permutation on AVX-512VL).  Regenerate with
#   python3 tools/gen_keccak_x4_avx512vl.py > asm/x86_64/keccak_x4_avx512vl.S
# (the test keccak_x4_avx512vl_generated, test/sha3.cmake, checks that the
# file matches).  Options, for measuring other shapes (the checked-in file
# uses the defaults):
#   --rounds-per-iteration N   rounds in the loop body, N dividing 24
#                              (default 1; 24 unrolls all rounds)
#   --lead L                   rows that theta and rho run ahead of chi
#                              (default 2)
#
# Register allocation.  The generator allocates all 32 vector registers
# itself, with no spill, and remembers which register holds which lane
# (`loc`), the parities and D values, and which registers are free; every
# result goes where the generator says.  One round, x and y mod 5:
#   parity C[x] = A[x,0] ^ ... ^ A[x,4]: A[x,0] is copied to a free register
#          (where the lane lives on) and the column is folded into its old
#          register by two VPTERNLOGQ 0x96 (three-way XOR); columns in the
#          order 1, 4, 2, 3, 0 that the D values need them;
#   D[x] = C[x-1] ^ rol(C[x+1], 1): VPROLQ into a free register, VPXORQ;
#          in the order x = 0, 3, 2, 4, 1, which frees each C after its last
#          use, so two free registers suffice;
#   theta  A[x,y] ^= D[x] (VPXORQ in place), then rho (VPROLQ in place),
#          for the five lanes of one output row of chi, `lead` rows ahead
#          of chi, so that the rotations of later rows are older in program
#          order than the chi of the current row;
#   pi     no instruction: output row y of chi reads b[x] = A[x + 3y, x];
#   chi    o[x] = b[x] ^ (~b[x+1] & b[x+2]) is one VPTERNLOGQ per lane; a
#          destructive instruction needs copies (VMOVDQA64, removed at
#          rename) of one input into the two free registers: b[4], the
#          last rotated, so that it is the destination operand (1 cycle,
#          against ~2 for the other two) of all three outputs that read it:
#          o[2] and o[3] in its copies, o[4] over it, o[0] and o[1] over
#          b[0] and b[1]; then b[2] and b[3]'s registers are free;
#   iota   o[0] of row 0 ^= RC[i]: VPXORQ with a broadcast memory operand
#          (the .rodata table, FIPS 202 Algorithm 6, computed below).
# 95 vector ALU instructions per round (10 parity, 5 + 5 D, 25 theta, 24
# rho, 25 chi, 1 iota) and 15 copies, no load or store inside the rounds.
# The lane -> register map moves every round (pi, and the parity copies),
# so the loop body ends with copies back to the registers it started with
# (`fixup`: ~25 per iteration at one round per iteration, renamed away).
#
# Measured on Zen 4 (EPYC, 2026-12-05, shared machine; TSC ticks per
# four-way call, minimum of 2000 x 10 calls, in one process beside the C
# version, which ran 572-577; the xmm single-state code ran within 3 ticks
# of the ymm one throughout):
#   this schedule, 1 round per iteration (checked in)          499-502
#   each lane's rotation right after its XOR                   502-504
#   chi with copies of b[0] and b[1] instead (o[0], o[1] in
#     them or over them), parities in column order             510-512
#   the latter with 2, 3, 4, 6, 8 or 12 rounds per iteration   510-515
#   the latter fully unrolled (17 KB, front end bound)         556-608
#   lead 1 / 3 / 4 / 5 rows                                    514 / 520 / 525 / 525
#   chi rows right after their theta+rho (lead 0)              538-540
#   C[x] formed with row 4's lane as destination operand       512-517
#   parities accumulated during chi (VPTERNLOGQ 0x96 as rows
#     finish), theta as A ^ C[x-1] ^ rol(C[x+1]) (one
#     VPTERNLOGQ, 90 ALU instructions per round), column order   577-647
#   that with D in registers from row 3 on                     520
#   chi as VPANDNQ + VPXORQ instead of copies                  530
#   a list scheduler over a latency model (reordered body)     556
# Measured facts behind the choices (blocks of independent or chained
# instructions, this machine): VPTERNLOGQ and VPXORQ 4 per cycle; VPROLQ 2
# per cycle on two pipes and 2 cycles latency; VPSLLQ/VPSRLQ 2 per cycle on
# the other two pipes; VPTERNLOGQ latency 1 from its destination operand
# and ~1.85 from the other two, VPXORQ 1; register copies free.  Replacing
# the five rotations by 1 with loads that cut the parity -> D dependence
# (wrong results, timing only) gave ~442, and replacing every VPTERNLOGQ by
# a two-input XOR (likewise) ~465: the round's remaining cost is its 95 ALU
# instructions (~24 cycles at 4 per cycle) plus the chain from the last row
# of chi through the parities and D into the next round's rotations (~3-4
# cycles per round), which no ordering tried here shortened further.
import sys

HEADER = """\
/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * GENERATED by tools/gen_keccak_x4_avx512vl.py: do not edit; regenerate
 * with  python3 tools/gen_keccak_x4_avx512vl.py > asm/x86_64/keccak_x4_avx512vl.S
 * (the generator says how the round is scheduled, how the registers are
 * allocated, and what the alternatives measured).
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3) with AVX-512VL.  C prototypes
 * (core/sha3/keccak.h):
 *
 *   void quill_keccak_f1600_x4_avx512vl_asm(uint64_t s[100]);
 *   void quill_keccak_f1600_avx512vl_asm(uint64_t s[25]);
 *
 * x4: permutes four interleaved states in place, lane i of state j at
 * s[4 i + j] (core/sha3/sha3_x4.h), lane i of the four in one ymm register.
 * The single-state routine permutes s[0..24] with lane i in the low half of
 * an xmm register (quill_keccak_f1600 runs it).  s need not be
 * aligned.
 *
 * Calling convention: System V AMD64, rdi = s; no return value.  Uses all
 * 32 vector registers (ymm0-ymm31, or their xmm halves), rax (pointer into
 * the round constants) and ecx (loop counter), all caller-saved on System
 * V; no stack, no calls; VZEROUPPER before returning.  The round constants
 * are the .rodata table below (FIPS 202, Algorithm 6, computed by the
 * generator).
 *
 * Required CPU features: AVX-512F and AVX-512VL (VPTERNLOGQ, VPROLQ, EVEX
 * registers 16-31, embedded broadcast); call only if
 * quill_keccak_f1600_x4_avx512vl_capable() returns 1.
 *
 * Secrets: the states are secret (ML-DSA key generation and signing expand
 * secret seeds with them).  No branch and no address depends on them: the
 * instruction stream is fixed, every load and store address is rdi plus a
 * constant, the round constants' addresses depend on the round number only
 * and the only branch is on the loop counter.  The vector registers still
 * hold state bits on return, as after the C backends; callers zeroise
 * their state memory. */
"""


def round_constants():
    """FIPS 202, Algorithms 5 and 6: RC[i] has bit 2^j - 1 equal to
    rc(j + 7 i) for j = 0..6, rc(t) the output of the LFSR
    x^8 + x^6 + x^5 + x^4 + 1 after t steps."""
    def rc_bit(t):
        if t % 255 == 0:
            return 1
        r = [1, 0, 0, 0, 0, 0, 0, 0]
        for _ in range(t % 255):
            r = [0] + r
            r[0] ^= r[8]
            r[4] ^= r[8]
            r[5] ^= r[8]
            r[6] ^= r[8]
            r = r[:8]
        return r[0]
    out = []
    for i in range(24):
        v = 0
        for j in range(7):
            if rc_bit(j + 7 * i):
                v |= 1 << ((1 << j) - 1)
        out.append(v)
    return out


def rho_offsets():
    """FIPS 202, Algorithm 2: lane (x, y) rotates left by
    (t + 1)(t + 2) / 2 mod 64, (x, y) the t-th point of the walk from
    (1, 0) by (x, y) -> (y, 2x + 3y); (0, 0) does not rotate."""
    r = {(0, 0): 0}
    x, y = 1, 0
    for t in range(24):
        r[(x, y)] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


RC = round_constants()
RHO = rho_offsets()
assert RC[0] == 1 and RC[1] == 0x8082 and RC[23] == 0x8000000080008008
assert RHO[(1, 0)] == 1 and RHO[(1, 1)] == 44 and RHO[(4, 4)] == 14 and RHO[(3, 0)] == 28

RCLABEL = "quill_keccak_rc_avx512vl"


class Gen:
    """One variant: vec = "ymm" (four states) or "xmm" (one state)."""

    def __init__(self, vec, lead):
        self.vec = vec
        self.lead = lead
        self.lines = []
        # At entry lane (x, y) is in register 5y + x; 25..31 are free.
        self.loc = {(x, y): 5 * y + x for x in range(5) for y in range(5)}
        self.free = list(range(25, 32))

    def r(self, n):
        return "%%%s%d" % (self.vec, n)

    def emit(self, s):
        self.lines.append("        " + s)

    def take(self):
        return self.free.pop(0)

    def give(self, n):
        self.free.append(n)

    def mov(self, src, dst):
        self.emit("vmovdqa64 %s, %s" % (self.r(src), self.r(dst)))

    def xor(self, src, dst):
        self.emit("vpxorq %s, %s, %s" % (self.r(src), self.r(dst), self.r(dst)))

    def tern(self, imm, c, b, a):
        """a = f(a, b, c), imm the truth table over a = 0xf0, b = 0xcc,
        c = 0xaa: 0x96 is a ^ b ^ c, 0xd2 is a ^ (~b & c)."""
        self.emit("vpternlogq $0x%02x, %s, %s, %s" % (imm, self.r(c), self.r(b), self.r(a)))

    def rol(self, n, src, dst):
        self.emit("vprolq $%d, %s, %s" % (n, self.r(src), self.r(dst)))

    def parities(self):
        """C[x] in the register that held A[x, 0]; the lane moves to a free
        register (the copy is free, and a VPTERNLOGQ into the original
        measured faster than one into a fresh copy)."""
        c = {}
        # in the order the D values below first need them
        for x in (1, 4, 2, 3, 0):
            n = self.take()
            self.mov(self.loc[(x, 0)], n)
            c[x] = self.loc[(x, 0)]
            self.loc[(x, 0)] = n
            self.tern(0x96, self.loc[(x, 2)], self.loc[(x, 1)], c[x])
            self.tern(0x96, self.loc[(x, 4)], self.loc[(x, 3)], c[x])
        return c

    def d_values(self, c):
        """D[x] = C[x-1] ^ rol(C[x+1], 1); each C is freed after its two
        uses, in an order that needs two free registers only."""
        uses = {x: 2 for x in range(5)}
        d = {}
        for x in (0, 3, 2, 4, 1):
            n = self.take()
            self.rol(1, c[(x + 1) % 5], n)
            self.xor(c[(x - 1) % 5], n)
            d[x] = n
            for u in ((x + 1) % 5, (x - 1) % 5):
                uses[u] -= 1
                if uses[u] == 0:
                    self.give(c.pop(u))
        assert not c
        return d

    @staticmethod
    def row_lanes(y):
        """The lanes A[x + 3y, x] that pi sends to row y of chi."""
        return [((x + 3 * y) % 5, x) for x in range(5)]

    def theta_rho(self, y, d):
        for lane in self.row_lanes(y):
            self.xor(d[lane[0]], self.loc[lane])
        for lane in self.row_lanes(y):
            if RHO[lane]:
                self.rol(RHO[lane], self.loc[lane], self.loc[lane])

    def chi3(self, dst, roles, regs):
        """dst = X ^ (~Y & Z) by one VPTERNLOGQ, roles naming the operand
        (a = dst, b, c) that carries X, Y and Z; regs gives the registers of
        b and c."""
        m = {"a": 0xf0, "b": 0xcc, "c": 0xaa}
        imm = (m[roles[0]] ^ (~m[roles[1]] & m[roles[2]])) & 0xff
        self.tern(imm, regs["c"], regs["b"], dst)

    def chi(self, y, new, rc_operand):
        """Row y of chi.  b[4], rotated last, is the destination operand of
        the three outputs that read it (1 cycle from it, against ~2 from
        the other operands): two copies of it take o[2] and o[3], o[4]
        overwrites it, o[0] and o[1] overwrite b[0] and b[1], and then the
        registers of b[2] and b[3] are free."""
        b = [self.loc.pop(lane) for lane in self.row_lanes(y)]
        f0, f1 = self.take(), self.take()
        self.mov(b[4], f0)
        self.mov(b[4], f1)
        self.chi3(f0, ("b", "a", "c"), {"b": b[3], "c": b[0]})    # o3 = b3 ^ (~b4 & b0)
        self.chi3(f1, ("b", "c", "a"), {"b": b[2], "c": b[3]})    # o2 = b2 ^ (~b3 & b4)
        self.chi3(b[4], ("a", "b", "c"), {"b": b[0], "c": b[1]})  # o4 = b4 ^ (~b0 & b1)
        self.chi3(b[0], ("a", "b", "c"), {"b": b[1], "c": b[2]})  # o0 = b0 ^ (~b1 & b2)
        self.chi3(b[1], ("a", "b", "c"), {"b": b[2], "c": b[3]})  # o1 = b1 ^ (~b2 & b3)
        self.give(b[2])
        self.give(b[3])
        if y == 0:
            self.emit("vpxorq %s, %s, %s" % (rc_operand, self.r(b[0]), self.r(b[0])))
        out = [b[0], b[1], f1, f0, b[4]]
        for x in range(5):
            new[(x, y)] = out[x]

    def round(self, rc_operand):
        d = self.d_values(self.parities())
        new = {}
        for y in range(min(self.lead, 5)):
            self.theta_rho(y, d)
        for y in range(5):
            if y + self.lead < 5:
                self.theta_rho(y + self.lead, d)
            if y == max(0, 4 - self.lead):
                # the last row's theta is out: D is dead
                for x in range(5):
                    self.give(d[x])
            self.chi(y, new, rc_operand)
        assert not self.loc and len(self.free) == 7
        self.loc = new

    def state(self):
        return dict(self.loc), list(self.free)

    def fixup(self, start):
        """Copies that put every lane back in its register of `start` (the
        permutation's cycles, each broken through a free register)."""
        want = start[0]
        move = {want[k]: self.loc[k] for k in want if want[k] != self.loc[k]}
        spare = [n for n in range(32) if n not in set(want.values())]
        count = 0
        while move:
            reads = set(move.values())
            ready = [dst for dst in move if dst not in reads]
            if ready:
                dst = ready[0]
                self.mov(move.pop(dst), dst)
            else:
                dst = next(iter(move))
                self.mov(dst, spare[0])
                for k in move:
                    if move[k] == dst:
                        move[k] = spare[0]
            count += 1
        self.loc, self.free = dict(start[0]), list(start[1])
        return count


def function(vec, name, per_loop, lead):
    """The permutation for vec = ymm (four states, lane i at byte 32 i) or
    xmm (one state, lane i at byte 8 i): 24 / per_loop iterations of a loop
    of per_loop rounds, or straight-line code for per_loop = 24."""
    g = Gen(vec, lead)
    bcst = "{1to4}" if vec == "ymm" else "{1to2}"
    stride = 32 if vec == "ymm" else 8
    mov = "vmovdqu64" if vec == "ymm" else "vmovq"
    out = ["        .globl  %s" % name,
           "        .hidden %s" % name,
           "        .type   %s, @function" % name,
           "        .p2align 6",
           "%s:" % name,
           "        .cfi_startproc",
           "        endbr64"]
    for y in range(5):
        for x in range(5):
            g.emit("%s %d(%%rdi), %s" % (mov, stride * (5 * y + x), g.r(g.loc[(x, y)])))
    if per_loop == 24:
        for i in range(24):
            g.round("%s+%d(%%rip)%s" % (RCLABEL, 8 * i, bcst))
    else:
        assert 24 % per_loop == 0
        g.emit("leaq    %s(%%rip), %%rax" % RCLABEL)
        g.emit("movl    $%d, %%ecx" % (24 // per_loop))
        g.lines.append("        .p2align 5")
        g.lines.append("1:")
        start = g.state()
        for i in range(per_loop):
            g.round("%d(%%rax)%s" % (8 * i, bcst))
        g.fixup(start)
        g.emit("addq    $%d, %%rax" % (8 * per_loop))
        g.emit("decl    %ecx")
        g.emit("jnz     1b")
    for y in range(5):
        for x in range(5):
            g.emit("%s %s, %d(%%rdi)" % (mov, g.r(g.loc[(x, y)]), stride * (5 * y + x)))
    g.emit("vzeroupper")
    g.emit("ret")
    out += g.lines
    out += ["        .cfi_endproc",
            "        .size   %s, .-%s" % (name, name)]
    return out


def main(argv):
    per_loop, lead = 1, 2
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--rounds-per-iteration" and args:
            per_loop = int(args.pop(0))
        elif a == "--lead" and args:
            lead = int(args.pop(0))
        else:
            sys.exit("usage: gen_keccak_x4_avx512vl.py [--rounds-per-iteration N] [--lead L]")
    if per_loop < 1 or 24 % per_loop or lead < 0:
        sys.exit("gen_keccak_x4_avx512vl.py: N must divide 24, L >= 0")
    body = ["        .section .rodata",
            "        .p2align 6",
            "        .type   %s, @object" % RCLABEL,
            "%s:" % RCLABEL]
    for i in range(0, 24, 2):
        body.append("        .quad   0x%016x, 0x%016x" % (RC[i], RC[i + 1]))
    body += ["        .size   %s, 192" % RCLABEL, "", "        .text"]
    body += function("ymm", "quill_keccak_f1600_x4_avx512vl_asm", per_loop, lead)
    body.append("")
    body += function("xmm", "quill_keccak_f1600_avx512vl_asm", per_loop, lead)
    sys.stdout.write(HEADER)
    print("#if defined(__x86_64__) && defined(__ELF__)")
    print()
    print("\n".join(body))
    print()
    print("#endif")
    print()
    print('        .section .note.GNU-stack, "", @progbits')


if __name__ == "__main__":
    main(sys.argv[1:])
