#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# Model cycles of ML-DSA's aarch64 kernels (asm/aarch64/mldsa_ntt_neon.S)
# against their portable twins (core/mldsa/ntt_c.c compiled by
# aarch64-linux-gnu-gcc -O3), whole call: a static driver
# (tools/mca_mldsa_a64_driver.c) calls one function once under
# qemu-aarch64 -singlestep with -d exec,nochain filtered to that
# function's addresses, which logs every instruction it executes; the
# addresses are mapped to the instructions of the binary's disassembly and
# the resulting straight-line trace (loops unrolled as executed, branches
# as instructions) goes through llvm-mca-16 -iterations=1 for each model.
# Model estimates, not measured times.
# Usage: tools/mca_mldsa_a64.sh [outdir]  (prints a table)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/quill-mca-mldsa}
mkdir -p "$out"
for t in aarch64-linux-gnu-gcc qemu-aarch64 llvm-mca-16 aarch64-linux-gnu-objdump; do
  command -v $t >/dev/null || { echo "mca_mldsa_a64: $t missing" >&2; exit 77; }
done
bin=$out/driver
aarch64-linux-gnu-gcc -O3 -static -std=c11 -I"$root/core" -o "$bin" \
  "$root/tools/mca_mldsa_a64_driver.c" "$root/core/mldsa/ntt.c" "$root/core/mldsa/ntt_c.c" \
  "$root/core/mldsa/ntt_zetas.c" "$root/core/mldsa/ntt_neon_tab.c" \
  "$root/core/common/cpu.c" "$root/asm/aarch64/mldsa_ntt_neon.S"
aarch64-linux-gnu-objdump -d --no-show-raw-insn "$bin" > "$out/driver.dis"

# trace fn [n]: the instructions of one call of quill_mldsa_<fn> -> $out/<fn>[n].s
trace() {
  sym=quill_mldsa_$1
  range=$(aarch64-linux-gnu-nm -S "$bin" | awk -v s="$sym" '$4 == s {print $1, $2}')
  set -- "$@" $range
  start=$((0x$3)); size=$((0x$4))
  log=$out/$1$2.log
  qemu-aarch64 -singlestep -d exec,nochain -dfilter "0x$(printf %x $start)+0x$(printf %x $size)" \
    -D "$log" "$bin" "$1" "$2" > /dev/null
  python3 - "$out/driver.dis" "$log" $start $((start + size)) <<'PY' | sed -e 's/^\(b\.[a-z]*\|b\|cbz\|cbnz\|tbz\|tbnz\) .*/nop/' > "$out/$1$2.s"
import re, sys
dis, log, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ins = {}
for line in open(dis):
    m = re.match(r'^ *([0-9a-f]+):\t(.*)$', line)
    if m and lo <= int(m.group(1), 16) < hi:
        text = re.sub(r'\s*//.*$', '', m.group(2)).replace('\t', ' ')
        ins[int(m.group(1), 16)] = re.sub(r' <[^>]*>', '', text)
for line in open(log):
    m = re.match(r'^Trace [0-9]+: \S+ \[[0-9a-f]+/([0-9a-f]+)/', line)
    if m and int(m.group(1), 16) in ins:
        print(ins[int(m.group(1), 16)])
PY
}

printf '%-28s %8s %12s %12s\n' function insns neoverse-n1 apple-m1
for f in ntt invntt_tomont invntt_tomont_freeze pointwise_mont "dot_mont 4" "dot_mont 5" "dot_mont 7"; do
  set -- $f
  for v in c neon; do
    name=${1}_$v
    trace "$name" "${2:-}"
    s=$out/$name${2:-}.s
    n1=$(llvm-mca-16 -mtriple=aarch64 -mcpu=neoverse-n1 -iterations=1 "$s" 2>/dev/null | awk '/^Total Cycles/ {print $3}')
    m1=$(llvm-mca-16 -mtriple=aarch64 -mcpu=apple-m1 -iterations=1 "$s" 2>/dev/null | awk '/^Total Cycles/ {print $3}')
    printf '%-28s %8s %12s %12s\n' "$name${2:+ n=$2}" "$(wc -l < "$s")" "$n1" "$m1"
  done
done
