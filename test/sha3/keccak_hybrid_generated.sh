#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# keccak_hybrid_generated SRC: asm/aarch64/keccak_hybrid.S is what
# tools/gen_keccak_hybrid_a64.py writes (the file is generated and checked
# in).  Skipped (77) without python3.
src=$1
if ! command -v python3 >/dev/null 2>&1; then
    echo "keccak_hybrid_generated: no python3: skipped"
    exit 77
fi
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
python3 "$src/tools/gen_keccak_hybrid_a64.py" > "$tmp" || { echo "FAIL: the generator failed"; exit 1; }
if ! cmp -s "$tmp" "$src/asm/aarch64/keccak_hybrid.S"; then
    diff -u "$src/asm/aarch64/keccak_hybrid.S" "$tmp" | head -20
    echo "FAIL: asm/aarch64/keccak_hybrid.S differs from tools/gen_keccak_hybrid_a64.py's output;"
    echo "      regenerate: python3 tools/gen_keccak_hybrid_a64.py > asm/aarch64/keccak_hybrid.S"
    exit 1
fi
echo "keccak_hybrid_generated: asm/aarch64/keccak_hybrid.S matches its generator"
