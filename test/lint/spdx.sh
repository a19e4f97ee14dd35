#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# license_headers: every source, script and build file of quill carries the
# line "SPDX-License-Identifier: Apache-2.0" within its first three lines
# (LICENSE holds the text).  Files are found by their endings under the
# source tree, so files added without the line fail here.
#   $1  the source tree
set -u
src=${1:?usage: spdx.sh SOURCE_DIR}
[ -f "$src/LICENSE" ] || { echo "FAIL: $src/LICENSE is missing"; exit 1; }
grep -q "Apache License" "$src/LICENSE" || { echo "FAIL: LICENSE is not the Apache License"; exit 1; }
checked=0
failed=0
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
find "$src/CMakeLists.txt" "$src/.ci" "$src/core" "$src/asm" "$src/provider" "$src/test" \
     "$src/bench" "$src/tools" "$src/info" "$src/cmake" "$src/openssl.cnf.example" \
     \( -name node_modules -prune \) -o -type f \
     \( -name '*.c' -o -name '*.h' -o -name '*.S' -o -name '*.sh' -o -name '*.cmake' \
        -o -name '*.mjs' -o -name '*.py' -o -name '*.map' -o -name CMakeLists.txt \
        -o -name '*.example' -o -name run \) -print 2>/dev/null > "$list"
while IFS= read -r f; do
    checked=$((checked + 1))
    if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: Apache-2.0"; then
        echo "FAIL: no SPDX line in ${f#"$src"/}"
        failed=$((failed + 1))
    fi
done < "$list"
[ "$checked" -gt 100 ] || { echo "FAIL: only $checked files found under $src"; exit 1; }
echo "$checked files checked, $failed without the SPDX line"
[ "$failed" -eq 0 ]
