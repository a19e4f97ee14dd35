#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# generated_matches.sh NAME SRC GENERATOR FILE [blocks]: the checked-in FILE
# (a path under the source tree SRC) is exactly what the python3 script
# GENERATOR (also under SRC) prints, for generated assembly such as
# asm/aarch64/keccak_sha3.S.  With `blocks`, every `.macro ... .endm` block
# GENERATOR prints appears verbatim in FILE instead: for assembly whose
# generated macros are pasted among hand-written ones, such as
# asm/aarch64/bn_mont_sqr.S.  Skipped (77) without python3.
name=$1 src=$2 gen=$3 file=$4 mode=${5:-whole}
if ! command -v python3 >/dev/null 2>&1; then
    echo "$name: no python3: skipped"
    exit 77
fi
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
python3 "$src/$gen" > "$tmp" || { echo "FAIL: $gen failed"; exit 1; }
if [ "$mode" = blocks ]; then
    python3 - "$name" "$tmp" "$src/$file" "$gen" "$file" <<'PY'
import re
import sys

name, printed, checked, gen, rel = sys.argv[1:]
text = open(checked).read()
found = re.finditer(r'(?ms)^\.macro (\S+).*?^\.endm$', open(printed).read())
blocks = [(m.group(1), m.group(0)) for m in found]
if not blocks:
    print('FAIL: %s printed no .macro blocks' % gen)
    sys.exit(1)
missing = [n for n, b in blocks if b not in text]
for n in missing:
    print('FAIL: %s: macro %s differs from what %s prints' % (rel, n, gen))
if missing:
    print('      paste the blocks it prints over those in %s' % rel)
    sys.exit(1)
print('%s: %d macros of %s match %s' % (name, len(blocks), rel, gen))
PY
    exit $?
fi
if ! cmp -s "$tmp" "$src/$file"; then
    diff -u "$src/$file" "$tmp" | head -20
    echo "FAIL: $file differs from $gen's output;"
    echo "      regenerate: python3 $gen > $file"
    exit 1
fi
echo "$name: $file matches $gen"
