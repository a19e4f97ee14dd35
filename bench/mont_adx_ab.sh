#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# Same-process A/B of two versions of asm/x86_64/bn_mont_adx.S (e.g. the
# committed one, `git show HEAD:asm/x86_64/bn_mont_adx.S > /tmp/old.S`, and
# the working copy): assembles both, renames their symbols with objcopy
# --prefix-symbols (A_, B_), links them with bench/mont_adx_ab.c and runs
# it (outputs compared first, then timed; see that file).  Not a test.
#
#   bench/mont_adx_ab.sh A.S B.S [ROUNDS [N]]
set -e
[ $# -ge 2 ] || { echo "usage: $0 A.S B.S [ROUNDS [N]]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
a=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
b=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-gcc}
$cc -c -o "$tmp/a.o" "$a" && objcopy --prefix-symbols=A_ "$tmp/a.o"
$cc -c -o "$tmp/b.o" "$b" && objcopy --prefix-symbols=B_ "$tmp/b.o"
$cc -O2 -Wall -o "$tmp/ab" "$here/mont_adx_ab.c" "$tmp/a.o" "$tmp/b.o"
"$tmp/ab" "${3:-31}" "${4:--1}"
