#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# bench_limits_smoke: tools/limits.py --quick --no-count --check over the
# quill-limits of this build.  Passes when the table comes out with every
# figure positive and no operation below its port floor; a timing is never
# judged.  Usage: smoke_limits.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
for tool in python3 objdump; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "bench_limits_smoke: $tool not found, skipped"
        exit 77
    fi
done
out=$(python3 "$src/tools/limits.py" --build "$build" --quick --no-count --check)
printf '%s\n' "$out"
# The table has a row per operation of the README's Limits section.
for op in "RSA-2048 sign" "RSA-4096 verify" "P-256 sign" "P-256 verify (same key)" \
          "ML-DSA-44 keygen" "ML-DSA-87 verify"; do
    if ! printf '%s\n' "$out" | grep -q "^| $op | [0-9]"; then
        echo "bench_limits_smoke: no measured row for $op" >&2
        exit 1
    fi
done
echo "bench_limits_smoke: ok"
