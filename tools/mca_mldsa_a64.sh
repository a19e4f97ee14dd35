#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# Model cycles of ML-DSA's aarch64 kernels (asm/aarch64/mldsa_ntt_neon.S,
# asm/aarch64/mldsa_ntt16_neon.S) against their portable twins
# (core/mldsa/ntt_c.c, core/mldsa/ntt16.c, core/mldsa/pack.c compiled by
# aarch64-linux-gnu-gcc -O3; asm/aarch64/mldsa_unpack_z_neon.S too), whole
# call: a static driver
# (tools/mca_mldsa_a64_driver.c) calls one function once under
# qemu-aarch64 -singlestep with -d exec,nochain filtered to that
# function's addresses, which logs every instruction it executes; the
# addresses are mapped to the instructions of the binary's disassembly and
# the resulting straight-line trace (loops unrolled as executed, branches
# as instructions) goes through llvm-mca-16 -iterations=1 for each model.
# Model estimates, not measured times.  LLVM 16 has no scheduling model of
# its own for these CPUs: -mcpu=neoverse-n1 uses Cortex-A57's tables and
# -mcpu=apple-m1 Cyclone's.  The n of the table is the dot product's n,
# mulc16's shift (9: c s1 / c s2; 6: c t0) or poly_unpack_z's gamma1_bits.
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
  "$root/core/mldsa/ntt16.c" "$root/core/common/zeroize.c" \
  "$root/core/mldsa/pack.c" "$root/core/mldsa/params.c" \
  "$root/core/mldsa/poly.c" "$root/core/mldsa/rounding.c" \
  "$root/core/common/cpu.c" "$root/asm/aarch64/mldsa_ntt_neon.S" \
  "$root/asm/aarch64/mldsa_ntt16_neon.S" "$root/asm/aarch64/mldsa_unpack_z_neon.S"
aarch64-linux-gnu-objdump -d --no-show-raw-insn "$bin" > "$out/driver.dis"

# trace fn [n]: the instructions of one call of quill_mldsa_<fn> -> $out/<fn>[n].s
# (the function's own address range, plus that of the local
# quill_mldsa_ntt16_core_neon for the NEON functions that call it)
trace() {
  syms=quill_mldsa_$1
  case $1 in ntt16_neon|mulc16_prepare_neon) syms="$syms quill_mldsa_ntt16_core_neon";; esac
  filter= ranges=
  for sym in $syms; do
    set -- $(aarch64-linux-gnu-nm -S "$bin" | awk -v s="$sym" '$4 == s {print $1, $2}')
    filter="${filter:+$filter,}0x$1+0x$2"
    ranges="$ranges $((0x$1)):$((0x$1 + 0x$2))"
  done
  set -- "$name" "${n:-}"
  log=$out/$1$2.log
  qemu-aarch64 -singlestep -d exec,nochain -dfilter "$filter" \
    -D "$log" "$bin" "$1" $2 > /dev/null
  python3 - "$out/driver.dis" "$log" $ranges <<'PY' | sed -e 's/^\(b\.[a-z]*\|b\|bl\|ret\|cbz\|cbnz\|tbz\|tbnz\) .*/nop/' -e 's/^ret$/nop/' > "$out/$1$2.s"
import re, sys
dis, log = sys.argv[1], sys.argv[2]
ranges = [tuple(int(x) for x in r.split(':')) for r in sys.argv[3:]]
ins = {}
for line in open(dis):
    m = re.match(r'^ *([0-9a-f]+):\t(.*)$', line)
    if m and any(lo <= int(m.group(1), 16) < hi for lo, hi in ranges):
        text = re.sub(r'\s*//.*$', '', m.group(2)).replace('\t', ' ')
        ins[int(m.group(1), 16)] = re.sub(r' <[^>]*>', '', text)
for line in open(log):
    m = re.match(r'^Trace [0-9]+: \S+ \[[0-9a-f]+/([0-9a-f]+)/', line)
    if m and int(m.group(1), 16) in ins:
        print(ins[int(m.group(1), 16)])
PY
}

printf '%-28s %8s %12s %12s\n' function insns neoverse-n1 apple-m1
for f in ntt invntt_tomont invntt_tomont_freeze pointwise_mont "dot_mont 4" "dot_mont 5" "dot_mont 7" \
         ntt16 mulc16_prepare "mulc16 9" "mulc16 6" "poly_unpack_z 17" "poly_unpack_z 19"; do
  set -- $f
  fn=$1 n=${2:-}
  for v in c neon; do
    name=${fn}_$v
    trace "$name"
    s=$out/$name$n.s
    n1=$(llvm-mca-16 -mtriple=aarch64 -mcpu=neoverse-n1 -iterations=1 "$s" 2>/dev/null | awk '/^Total Cycles/ {print $3}')
    m1=$(llvm-mca-16 -mtriple=aarch64 -mcpu=apple-m1 -iterations=1 "$s" 2>/dev/null | awk '/^Total Cycles/ {print $3}')
    printf '%-28s %8s %12s %12s\n' "$name${n:+ n=$n}" "$(wc -l < "$s")" "$n1" "$m1"
  done
done
