#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# mca_p256_fe.sh: llvm-mca model of the aarch64 P-256 field multiplication
# and squaring (asm/aarch64/p256_fe.S), whole call, against the portable C
# twin (quill_p256_fe_mul_inline / _sqr_inline as out-of-line functions,
# aarch64-linux-gnu-gcc -O3) and against OpenSSL's armv8 kernels in the
# arm64 libcrypto.so.3 (stripped: located by their first instructions,
# only disassembled, never copied): ecp_nistz256_mul_mont / _sqr_mont, the
# exported calls (frame, loads, the inner __ecp_nistz256_*_mont body, with
# the BL and the inner RET left out), and the inner body with the loads
# the wrapper does for it ("kernel").
#   usage: tools/mca_p256_fe.sh [libcrypto.so.3]
# Prints, per model (neoverse-n1, apple-m1), cycles per call for 100
# independent calls (throughput) and for one call (latency), as modelled
# by llvm-mca-16: estimates from a machine model, not measured times.
# llvm-16 models neoverse-n1 with Cortex-A57's scheduling tables and
# apple-m1 with Cyclone's (its newest models for those names).
# Needs aarch64-linux-gnu-gcc, llvm-objdump-16, llvm-mca-16, python3.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-/usr/lib/aarch64-linux-gnu/libcrypto.so.3}
for t in aarch64-linux-gnu-gcc llvm-objdump-16 llvm-mca-16 python3; do
    command -v "$t" >/dev/null || { echo "mca_p256_fe.sh: $t not found" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat > twin.c <<'C'
#include "ec/p256_fe_inline.h"
void twin_mul(quill_p256_fe *o, const quill_p256_fe *a, const quill_p256_fe *b);
void twin_sqr(quill_p256_fe *o, const quill_p256_fe *a);
void twin_mul(quill_p256_fe *o, const quill_p256_fe *a, const quill_p256_fe *b) {
    quill_p256_fe_mul_inline(o, a, b);
}
void twin_sqr(quill_p256_fe *o, const quill_p256_fe *a) {
    quill_p256_fe_sqr_inline(o, a);
}
C
aarch64-linux-gnu-gcc -O3 -I"$root/core" -c twin.c -o twin.o
aarch64-linux-gnu-gcc -c "$root/asm/aarch64/p256_fe.S" -o fe.o
aarch64-linux-gnu-gcc -O3 -I"$root/core" -c "$root/core/ec/p256_fe.c" -o disp.o

# Instructions only, one per line; PC-relative literal loads and ADRP
# targets made assemblable (the address does not matter to the model).
strip_insns() {
    awk -F'\t' '/^ *[0-9a-f]+:/ && NF >= 2 { s = $2; for (i = 3; i <= NF; i++) s = s " " $i; print s }' |
        sed 's/ *\/\/.*//; s/<.*>//; s/[ ]*$//' |
        sed 's/^ldr \(x[0-9]*\), 0x[0-9a-f]*$/ldr \1, [x30]/; s/^adrp \(x[0-9]*\), 0x[0-9a-f]*$/adrp \1, 0/'
}
# (alignment NOPs after the RET belong to no function)
sym() { llvm-objdump-16 -d --no-show-raw-insn --disassemble-symbols="$2" "$1" | strip_insns | grep -v "^nop$"; }
sym twin.o twin_mul > twin_mul.s
sym twin.o twin_sqr > twin_sqr.s
sym fe.o quill_p256_fe_mul_arm64 > quill_mul.s
sym fe.o quill_p256_fe_sqr_arm64 > quill_sqr.s
# The dispatchers quill_p256_fe_mul / _sqr (p256_fe.c) in front of the
# assembly: load the CPU word, test the bit, tail-branch (both branches
# counted).
{ sym disp.o quill_p256_fe_mul; cat quill_mul.s; } > quill_mul_disp.s
{ sym disp.o quill_p256_fe_sqr; cat quill_sqr.s; } > quill_sqr_disp.s

have_ossl=0
if [ -r "$lib" ]; then
    llvm-objdump-16 -d --no-show-raw-insn "$lib" > lib.dis
    python3 - lib.dis <<'PY' && have_ossl=1 || echo "OpenSSL's kernels not found in $lib" >&2
import re, sys
lines = []
for l in open(sys.argv[1]):
    m = re.match(r'\s*([0-9a-f]+):\s*\t(.*)', l.rstrip('\n'))
    if m:
        lines.append((int(m.group(1), 16), m.group(2).replace('\t', ' ')))
idx = {a: i for i, (a, _) in enumerate(lines)}
def clean(s):
    s = re.sub(r'\s*//.*', '', s)
    s = re.sub(r'<.*>', '', s).rstrip()
    s = re.sub(r'^ldr (x\d+), 0x[0-9a-f]+$', r'ldr \1, [x30]', s)
    return s
def find(first, second):
    for i in range(len(lines) - 1):
        if lines[i][1] == first and lines[i + 1][1] == second:
            return i
    raise SystemExit(1)
def upto_ret(i):
    out = []
    while not lines[i][1].startswith('ret'):
        out.append(clean(lines[i][1])); i += 1
    return out
def wrapper(inner_addr, sig):
    # the exported function: BL to the inner body preceded by sig
    for i, (a, s) in enumerate(lines):
        if s.startswith('bl ') and int(s.split()[1], 16) == inner_addr:
            if any(lines[j][1] == sig for j in range(i - 6, i)):
                st = i
                while not lines[st][1].startswith('paciasp'):
                    st -= 1
                en = i
                while not lines[en][1].startswith('ret'):
                    en += 1
                pre = [clean(x[1]) for x in lines[st:i]]
                post = [clean(x[1]) for x in lines[i + 1:en + 1]]
                loads = [x for x in pre if x.startswith('ldr') or x.startswith('ldp x4') or x.startswith('ldp x6')]
                return pre, post, loads
    raise SystemExit(1)
mi = find('mul x14, x4, x3', 'umulh x8, x4, x3')
si = find('mul x15, x5, x4', 'umulh x9, x5, x4')
for name, i, sig in (('mul', mi, 'ldr x3, [x2]'), ('sqr', si, 'ldp x6, x7, [x1, #0x10]')):
    body = upto_ret(i)
    pre, post, loads = wrapper(lines[i][0], sig)
    open('ossl_%s_whole.s' % name, 'w').write('\n'.join(pre + body + post) + '\n')
    open('ossl_%s_kernel.s' % name, 'w').write('\n'.join(loads + body + ['ret']) + '\n')
PY
fi

cycles() { # model iterations file -> total cycles
    llvm-mca-16 -mtriple=aarch64 -mcpu="$1" -iterations="$2" "$3" 2>/dev/null |
        awk '/^Total Cycles/ { print $3 }'
}
printf '%-12s %-18s %6s %12s %10s\n' model function insns "cyc/call" "1 call"
for cpu in neoverse-n1 apple-m1; do
    for f in quill_mul quill_mul_disp twin_mul ossl_mul_whole ossl_mul_kernel \
             quill_sqr quill_sqr_disp twin_sqr ossl_sqr_whole ossl_sqr_kernel; do
        [ -f "$f.s" ] || continue
        t=$(cycles "$cpu" 100 "$f.s")
        l=$(cycles "$cpu" 1 "$f.s")
        printf '%-12s %-18s %6d %12s %10s\n' "$cpu" "$f" "$(wc -l < "$f.s")" \
            "$(echo "scale=1; $t / 100" | bc)" "$l"
    done
done
