#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# mca_loop_trace.py: the straight-line instruction trace of one call of a
# function with one counted loop, for llvm-mca (which does not follow
# branches): the code before the loop, the loop body COUNT times, the code
# after it; branches, returns, calls and PAC/BTI hints dropped.
#
#   mca_loop_trace.py sym OBJ FUNC COUNT        FUNC from an object file,
#                                                calls to other functions of
#                                                OBJ inlined
#   mca_loop_trace.py range DIS START END COUNT  the hex address range
#                                                START..END (inclusive) of a
#                                                llvm-objdump-16 -d
#                                                --no-show-raw-insn listing
#                                                (stripped libraries)
#
# The loop is the last backward branch in the code; COUNT 0 copies the code
# once as it is.  Used for the aarch64 Keccak model figures, e.g.
#   tools/mca_loop_trace.py sym keccak_sha3.S.o quill_keccak_f1600_neon_sha3 24 > t.s
#   llvm-mca-16 -mtriple=aarch64 -mcpu=apple-m1 -mattr=+sha3 -iterations=10 t.s
# (Total Cycles / 10 is one call's modelled cycles, back to back).
import re
import subprocess
import sys

SKIP = ("ret", "b", "bl", "blr", "br", "cbnz", "cbz", "tbz", "tbnz", "paciasp", "autiasp",
        "pacibsp", "autibsp", "nop", "hint", "bti")


def parse(listing, lo=None, hi=None):
    ins = []
    for line in listing.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if lo is not None and not lo <= addr <= hi:
            continue
        ins.append((addr, m.group(2).split("//")[0].strip()))
    return ins


def inline(listing, func):
    """FUNC's instructions from a whole object's listing, with each BL to
    a function of the same object replaced by that function's body (the
    local routine of keccak_sha3.S)."""
    funcs, cur = {}, None
    for line in listing.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            cur = m.group(2)
            funcs[cur] = []
        elif cur is not None:
            funcs[cur].extend(parse(line))
    starts = {seq[0][0]: name for name, seq in funcs.items() if seq}

    def flat(name, depth):
        out = []
        for addr, text in funcs[name]:
            m = re.match(r"bl\s+0x([0-9a-f]+)", text.replace("\t", " "))
            if m and int(m.group(1), 16) in starts and depth < 4:
                out.extend(flat(starts[int(m.group(1), 16)], depth + 1))
            else:
                out.append((addr, text))
        return out

    if func not in funcs:
        sys.exit("mca_loop_trace.py: no function " + func)
    return flat(func, 0)


def emit(seq):
    for _, text in seq:
        op = text.split()[0]
        if op in SKIP or op.startswith("b."):
            continue
        print(re.sub(r"\s*<.*?>", "", text).replace("\t", " "))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "sym":
        out = subprocess.run(["llvm-objdump-16", "-d", "--no-show-raw-insn", sys.argv[2]],
                             capture_output=True, text=True, check=True).stdout
        ins, count = inline(out, sys.argv[3]), int(sys.argv[4])
    elif len(sys.argv) == 6 and sys.argv[1] == "range":
        with open(sys.argv[2]) as f:
            ins = parse(f.read(), int(sys.argv[3], 16), int(sys.argv[4], 16))
        count = int(sys.argv[5])
    else:
        sys.exit("usage: mca_loop_trace.py sym OBJ FUNC COUNT | range DIS START END COUNT")
    if not ins:
        sys.exit("mca_loop_trace.py: no instructions found")
    loop = None
    for i, (addr, text) in enumerate(ins):
        m = re.match(r"(b\.\w+|cbnz|cbz|b)\s+(?:\w+,\s*)?0x([0-9a-f]+)", text.replace("\t", " "))
        if m and int(m.group(2), 16) <= addr:
            target = [j for j, (a, _) in enumerate(ins) if a == int(m.group(2), 16)]
            if target:
                loop = (target[0], i)
    if loop is None or count == 0:
        emit(ins)
        return
    emit(ins[:loop[0]])
    for _ in range(count):
        emit(ins[loop[0]:loop[1] + 1])
    emit(ins[loop[1] + 1:])


main()
