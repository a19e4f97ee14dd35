#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# core_includes: core/ builds without OpenSSL and without the provider, so no
# file under core/ may include an OpenSSL header (<openssl/...>) or any
# quoted header that is not itself under core/ (the provider's headers, or
# anything reached with ../).  A quoted include must name a file of core/,
# relative to the including file or to core/ (the core's include path).
#   $1  the source tree
set -u
src=${1:?usage: core_includes.sh SOURCE_DIR}
core=$(cd "$src/core" && pwd -P) || { echo "FAIL: $src/core is missing"; exit 1; }
checked=0
failed=0
list=$(mktemp) || exit 1
trap 'rm -f "$list" "$list.out"' EXIT
find "$core" -type f \( -name '*.c' -o -name '*.h' \) -print > "$list"
while IFS= read -r f; do
    checked=$((checked + 1))
    rel=${f#"$core"/}
    # "#include <x>" and '#include "x"', with any spacing after the '#'.
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$f" |
    while IFS= read -r inc; do
        name=${inc#?}
        name=${name%?}
        case $inc in
        \<openssl/*)
            echo "FAIL: core/$rel includes $inc (core/ never includes OpenSSL)"
            echo x ;;
        \"*)
            found=""
            for base in "$(dirname "$f")" "$core"; do
                if [ -f "$base/$name" ]; then
                    found=$(cd "$(dirname "$base/$name")" && pwd -P)/$(basename "$name")
                    break
                fi
            done
            case $found in
            "$core"/*) ;;
            *)  echo "FAIL: core/$rel includes $inc, which is not a header of core/"
                echo x ;;
            esac ;;
        esac
    done > "$list.out"
    if grep -q '^FAIL' "$list.out"; then
        grep '^FAIL' "$list.out"
        failed=$((failed + $(grep -c '^x$' "$list.out")))
    fi
done < "$list"
rm -f "$list.out"
echo "core_includes: $checked files under core/, $failed forbidden includes"
[ "$checked" -gt 0 ] || { echo "FAIL: no files under core/"; exit 1; }
[ "$failed" -eq 0 ]
