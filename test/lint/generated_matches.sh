#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# generated_matches.sh NAME SRC GENERATOR FILE: the checked-in FILE (a path
# under the source tree SRC) is exactly what the python3 script GENERATOR
# (also under SRC) prints.  For generated assembly such as
# asm/aarch64/keccak_sha3.S.  Skipped (77) without python3.
name=$1 src=$2 gen=$3 file=$4
if ! command -v python3 >/dev/null 2>&1; then
    echo "$name: no python3: skipped"
    exit 77
fi
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
python3 "$src/$gen" > "$tmp" || { echo "FAIL: $gen failed"; exit 1; }
if ! cmp -s "$tmp" "$src/$file"; then
    diff -u "$src/$file" "$tmp" | head -20
    echo "FAIL: $file differs from $gen's output;"
    echo "      regenerate: python3 $gen > $file"
    exit 1
fi
echo "$name: $file matches $gen"
