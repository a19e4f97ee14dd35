#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# bench_svg: quill-speed --svg=FILE on two operations writes a well-formed
# SVG document with a bar per provider and operation and the ratios; an
# unwritable path fails with a message.
#   $1  the quill-speed executable
#   $2  a scratch directory
# QUILL_EMULATOR (empty, or in a cross build what runs quill-speed: see the
# top-level CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
speed=$1
dir=$2
svg=$dir/bench_svg.svg
rm -f "$svg"
${QUILL_EMULATOR:-} "$speed" --rounds 1 --seconds 0.05 --require-quill --svg="$svg" ecdsa-p256 sign > "$dir/bench_svg.txt" 2>&1 ||
    { cat "$dir/bench_svg.txt"; echo "FAIL: quill-speed --svg exited non-zero"; exit 1; }
[ -s "$svg" ] || { echo "FAIL: $svg not written"; exit 1; }
head -c 4 "$svg" | grep -q '<svg' || { echo "FAIL: not an SVG document"; exit 1; }
tail -n 1 "$svg" | grep -q '</svg>' || { echo "FAIL: SVG document not closed"; exit 1; }
bars=$(grep -c '<rect x="[0-9.]*" y="[0-9]*" width="[0-9.]*" height="[0-9]*" fill="#[0-9a-f]*"><title>' "$svg")
[ "$bars" -eq 2 ] || { echo "FAIL: $bars bars, expected 2 (default and quill for one operation)"; exit 1; }
grep -q 'ECDSA P-256 sign' "$svg" || { echo "FAIL: operation label missing"; exit 1; }
grep -q '[0-9]x</text>' "$svg" || { echo "FAIL: no ratio drawn"; exit 1; }
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$svg" ||
        { echo "FAIL: the SVG is not well-formed XML"; exit 1; }
fi
if ${QUILL_EMULATOR:-} "$speed" --rounds 1 --seconds 0.02 --svg="$dir/no/such/dir/x.svg" ecdsa-p256-sign \
        > "$dir/bench_svg_bad.txt" 2>&1; then
    echo "FAIL: an unwritable --svg path did not fail"; exit 1
fi
grep -q "cannot write the SVG" "$dir/bench_svg_bad.txt" || { echo "FAIL: no message for an unwritable path"; exit 1; }
echo "bench_svg: $bars bars, well-formed; unwritable path refused"
