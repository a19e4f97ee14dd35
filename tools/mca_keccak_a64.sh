#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# mca_keccak_a64.sh [BUILD]: the llvm-mca-16 model table of the aarch64
# Keccak-f[1600] code (cycles of one call, calls back to back: Total Cycles
# of -iterations=10 over 10), for the models -mcpu=neoverse-n1 (llvm-16
# uses Cortex-A57's tables for it), apple-m1 (Cyclone's tables) and
# neoverse-v1 (Neoverse N2's tables).  BUILD is the aarch64 cross build
# (default build-arm64) with quill_core_sha3 built.  Rows:
#   c1   quill_keccak_f1600_c, the portable single permutation (gcc -O3)
#   c2   keccak_f1600_x2, the portable two-way permutation (keccak_x4.c,
#        gcc -O3 on 128-bit generic vectors, i.e. NEON), two states
#   n2   quill_keccak_f1600_x2_neon (keccak_neon.S), two states
#   s1   quill_keccak_f1600_neon_sha3 (keccak_sha3.S), one state
#   s2   quill_keccak_f1600_x2_neon_sha3, two states
#   sr   keccak_sha3_rounds, s1/s2's 24 rounds alone (no loads, stores)
#   h3   quill_keccak_f1600_x3_hybrid (keccak_hybrid.S), three states (two
#        in NEON, one in general registers, interleaved)
#   hx   model only, not built: the 24 rounds (no loads, stores) of a
#        four-state hybrid, states 2 and 3 taking turns in the general
#        registers (tools/gen_keccak_hybrid_a64.py --x4-swap)
#   oi   OpenSSL's scalar KeccakF1600 (keccak1600-armv8), whole call
#   oce  OpenSSL's KeccakF1600_ce (SHA-3 instructions), rounds alone
# The OpenSSL rows read Debian 12's libcrypto.so.3 for arm64
# (libssl3:arm64 3.0.22-1~deb12u2, stripped) at fixed addresses, checked
# against its round-constant table first.  Run from the source tree.
set -e
B=${1:-build-arm64}
T=tools/mca_loop_trace.py
O=$B/CMakeFiles/quill_core_sha3.dir
L=/usr/lib/aarch64-linux-gnu/libcrypto.so.3
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
$T sym $O/core/sha3/keccak.c.o quill_keccak_f1600_c 12 > $W/c1.s
$T sym $O/core/sha3/keccak_x4.c.o keccak_f1600_x2 12 > $W/c2.s
$T sym $O/asm/aarch64/keccak_neon.S.o quill_keccak_f1600_x2_neon 24 > $W/n2.s
$T sym $O/asm/aarch64/keccak_sha3.S.o quill_keccak_f1600_neon_sha3 0 > $W/s1.s
$T sym $O/asm/aarch64/keccak_sha3.S.o quill_keccak_f1600_x2_neon_sha3 0 > $W/s2.s
$T sym $O/asm/aarch64/keccak_sha3.S.o keccak_sha3_rounds 0 > $W/sr.s
$T sym $O/asm/aarch64/keccak_hybrid.S.o quill_keccak_f1600_x3_hybrid 24 > $W/h3.s
python3 tools/gen_keccak_hybrid_a64.py --x4-swap > $W/hx1.s
for i in $(seq 24); do cat $W/hx1.s; done > $W/hx.s
rows="c1 c2 n2 s1 s2 sr h3 hx"
# OpenSSL: iotas at 0x260b40; KeccakF1600 = 0x260e40..0x260e9c, then
# KeccakF1600_int 0x260c00..0x260e2c (24 rounds), then 0x260ea4..0x260efc;
# KeccakF1600_ce 0x261240..0x261364 (24 rounds).
if [ -r $L ] && [ "$(od -An -tx8 -j $((0x260b40)) -N 24 $L | xargs)" = \
     "0000000000000001 0000000000008082 800000000000808a" ]; then
  llvm-objdump-16 -d --no-show-raw-insn $L > $W/libcrypto.dis
  { $T range $W/libcrypto.dis 260e40 260e9c 0; $T range $W/libcrypto.dis 260c00 260e2c 24
    $T range $W/libcrypto.dis 260ea4 260efc 0; } > $W/oi.s
  $T range $W/libcrypto.dis 261240 261364 24 > $W/oce.s
  rows="$rows oi oce"
else
  echo "(not the expected $L: OpenSSL rows left out)"
fi
printf '%-5s %12s %12s %12s\n' row neoverse-n1 apple-m1 neoverse-v1
for f in $rows; do
  printf '%-5s' $f
  for cpu in neoverse-n1 apple-m1 neoverse-v1; do
    c=$(llvm-mca-16 -mtriple=aarch64 -mcpu=$cpu -mattr=+sha3 -iterations=10 $W/$f.s |
        awk '/Total Cycles/ {print $3}')
    printf ' %12d' $((c / 10))
    echo "$f $cpu $((c / 10))" >> $W/cycles
  done
  printf '\n'
done
# The four-way API without the SHA-3 instructions, by state count n: the
# portable twin (quill_keccak_f1600_x4_c: c2 once for n <= 2, twice
# otherwise), the two-way NEON path (n2 once or twice), the hybrid for
# n == 3 (h3) and the model-only four-state hybrid's rounds (hx).
echo
echo "four-way API without SHA-3, cycles per call (ratio: portable / this)"
printf '%-26s %18s %18s %18s\n' path neoverse-n1 apple-m1 neoverse-v1
cy() { awk -v f=$1 -v c=$2 '$1 == f && $2 == c {print $3}' $W/cycles; }
for p in "portable_n3_n4 2*c2" "neon_pairs_n3_n4 2*n2" "hybrid_n3 h3" "hybrid_n4_rounds_only hx"; do
  set -- $p
  printf '%-26s' $1
  for cpu in neoverse-n1 apple-m1 neoverse-v1; do
    case $2 in 2\*c2) v=$((2 * $(cy c2 $cpu)));; 2\*n2) v=$((2 * $(cy n2 $cpu)));;
               *) v=$(cy $2 $cpu);; esac
    r=$(awk -v a=$((2 * $(cy c2 $cpu))) -v b=$v 'BEGIN {printf "%.2f", a / b}')
    printf ' %11d %5sx' $v $r
  done
  printf '\n'
done
