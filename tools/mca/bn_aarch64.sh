#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# tools/mca/bn_aarch64.sh [BUILD]: the llvm-mca table of the aarch64 bignum
# kernels.  BUILD is an aarch64 cross build (default build-arm64) with the
# target bn_trace_a64 built.  For each kernel and length, bn_trace_a64 makes
# one call under qemu-aarch64 with -d in_asm,exec,nochain; the instructions
# that call executed (the whole call: loops unrolled as they ran, the final
# subtraction and the wipe included) go to llvm-mca-16 -iterations=1 for
# -mcpu=neoverse-n1 and -mcpu=apple-m1 (LLVM 16 models these with the
# Cortex-A57 and Cyclone scheduling tables).  OpenSSL's kernel is its
# bn_mul_mont (armv8-mont: __bn_mul4x_mont for a != b, __bn_sqr8x_mont for
# a = b at these lengths) cut out of BN_mod_mul_montgomery by address range
# in Debian 12's arm64 libcrypto.so.3 (3.0.x; OSSL_LO/OSSL_HI below are the
# range of that build, override them for another).
# quill_sqr is the dedicated squaring quill_mont_sqr_arm64 (bn_mont_sqr.S),
# quill_mulsq the multiplication kernel with b = a.
# Model estimates, not measured times.
set -eu
BUILD=${1:-build-arm64}
SYSROOT=${QUILL_A64_SYSROOT:-/usr/aarch64-linux-gnu}
OSSL_LO=${OSSL_LO:-0x107aa0}
OSSL_HI=${OSSL_HI:-0x109720}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# cycles KERNEL N CPU: modelled cycles of one call
cycles() {
    out=$(qemu-aarch64 -L "$SYSROOT" -d in_asm,exec,nochain -D "$TMP/log" \
          "$BUILD/test/bn_trace_a64" "$1" "$2")
    b=$(echo "$out" | sed -n 's/.*begin=\(0x[0-9a-f]*\).*/\1/p')
    e=$(echo "$out" | sed -n 's/.*end=\(0x[0-9a-f]*\).*/\1/p')
    lib=$(echo "$out" | sed -n 's/.*lib=\(0x[0-9a-f]*\).*/\1/p')
    case $1 in
    ossl_*) range="$(printf '0x%x 0x%x' $((lib + OSSL_LO)) $((lib + OSSL_HI)))" ;;
    *) range="" ;;
    esac
    # shellcheck disable=SC2086
    python3 "$HERE/qemu_trace_mca.py" "$TMP/log" "$b" "$e" $range > "$TMP/trace.s"
    for cpu in $3; do
        c=$(llvm-mca-16 -mtriple=aarch64 -mcpu="$cpu" -iterations=1 "$TMP/trace.s" 2>/dev/null |
            sed -n 's/^Total Cycles: *//p')
        printf ' %8s' "$c"
    done
    printf ' %8s\n' "$(wc -l < "$TMP/trace.s")"
}

printf '%-11s %4s %8s %8s %8s\n' kernel n n1 m1 insns
for n in 16 24 32 48 64; do
    for k in quill_mul c_mul ossl_mul quill_sqr quill_mulsq c_sqr ossl_sqr; do
        printf '%-11s %4s' "$k" "$n"
        cycles "$k" "$n" "neoverse-n1 apple-m1"
    done
done
for n in 16 32 64; do
    for k in quill_add c_add quill_sub c_sub; do
        printf '%-11s %4s' "$k" "$n"
        cycles "$k" "$n" "neoverse-n1 apple-m1"
    done
done
