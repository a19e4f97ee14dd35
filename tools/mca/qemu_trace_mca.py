#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# qemu_trace_mca.py LOG BEGIN END [LO HI]: the instructions a program
# executed between the translation blocks at addresses BEGIN and END (the
# markers of tools/mca/bn_trace_a64.c), in execution order, as assembly text
# for llvm-mca on stdout.  LOG is the output of
#   qemu-aarch64 -d in_asm,exec,nochain -D LOG prog ...
# (every block disassembled once with its encodings, then one "Trace" line
# per executed block).  With LO HI only the instructions at LO <= pc < HI
# are kept (OpenSSL's bn_mul_mont inside BN_mod_mul_montgomery).  The
# marker caller's own instructions (main's call sequence) and the call
# instructions BL/BLR (llvm-mca would charge each 100 cycles) are left out.  The
# encodings are disassembled by llvm-mc-16, so the text is exactly what the
# program ran, loops and branches unrolled as executed.
import re
import subprocess
import sys


def main():
    log, begin, end = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    lo, hi = (int(sys.argv[4], 16), int(sys.argv[5], 16)) if len(sys.argv) > 5 else (0, 1 << 64)
    blocks = {}
    trace = []
    cur = None
    insn = re.compile(r'^0x([0-9a-f]+):\s+([0-9a-f]{8})\s')
    tline = re.compile(r'^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/')
    with open(log, errors='replace') as f:
        for line in f:
            m = insn.match(line)
            if m:
                if cur is not None:
                    cur.append((int(m.group(1), 16), int(m.group(2), 16)))
                continue
            if line.startswith('IN:'):
                cur = []
                continue
            m = tline.match(line)
            if m:
                if cur:
                    blocks[cur[0][0]] = cur
                cur = None
                trace.append(int(m.group(1), 16))
                continue
            if not line.strip() and cur:
                blocks[cur[0][0]] = cur
                cur = None
    def is_call(w):
        return (w & 0xfc000000) == 0x94000000 or (w & 0xfffffc1f) == 0xd63f0000

    # state 0: before the begin marker; 1: main's code up to the call of the
    # kernel (the block that ends in BL/BLR); 2: inside the call, until it
    # returns to main (the address after that BL) or the end marker runs.
    words = []
    state = 0
    ret_addr = None
    for pc in trace:
        if state == 0:
            if pc == begin:
                state = 1
            continue
        if pc == end or pc == ret_addr:
            break
        if state == 1:
            addr, last = blocks[pc][-1]
            if is_call(last):
                state, ret_addr = 2, addr + 4
            continue
        for addr, w in blocks[pc]:
            if lo <= addr < hi and not is_call(w):
                words.append(w)
    if state == 0 or not words:
        sys.exit('qemu_trace_mca: marker or instructions not found')
    data = '\n'.join(' '.join('0x%02x' % ((w >> (8 * i)) & 0xff) for i in range(4))
                     for w in words)
    out = subprocess.run(['llvm-mc-16', '--disassemble', '-triple=aarch64',
                          '-mattr=+v8.2a'], input=data, capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        line = line.strip()
        if not line or line.startswith('.'):
            continue
        print(line)


main()
