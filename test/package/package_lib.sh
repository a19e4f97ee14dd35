# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# package_lib.sh: what test/package/package_deb.sh and package_install.sh
# share, sourced by them with the programs the build installs as arguments
# (an empty argument for one it lacks) and the environment of
# test/package.cmake.  It checks for openssl and readelf (exit 77 without
# them, and in the sanitizer build), makes $work, a scratch directory in the
# build tree, saves the build's install_manifest.txt and puts it back at
# exit, and defines ok/bad (counting into $passed/$failed), check, has_symtab,
# check_loads and check_version, and finish.
# shellcheck shell=sh
set -u

: "${QUILL_BUILD_DIR:?}" "${QUILL_SOURCE_DIR:?}" "${QUILL_VERSION:?}" "${QUILL_CMAKE:?}"
programs=""
for p in "$@"; do
    [ -n "$p" ] && programs="$programs $p"
done
programs=${programs# }

case "${QUILL_SANITIZE:-}" in
    ON | 1 | TRUE | on | true | address | thread)
        echo "sanitizer build: quill.so needs the sanitizer runtime inside openssl;" \
             "the package tests run in the release build: skipped"
        exit 77 ;;
esac
command -v openssl >/dev/null 2>&1 || { echo "no openssl binary: skipped"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "no readelf (binutils): skipped"; exit 77; }
[ -f "$QUILL_BUILD_DIR/quill.so" ] || { echo "FAIL: $QUILL_BUILD_DIR/quill.so missing (build first)"; exit 1; }
for p in $programs; do
    [ -x "$QUILL_BUILD_DIR/$p" ] || { echo "FAIL: $QUILL_BUILD_DIR/$p missing (build first)"; exit 1; }
done

unset DESTDIR
work=$(mktemp -d "$QUILL_BUILD_DIR/package-test.XXXXXX") || exit 1
# The build's manifests: install_manifest.txt (a real install's, what
# uninstall removes) and install_manifest_Unspecified.txt (cpack's).
# shellcheck disable=SC2034 # used by the scripts that source this one
manifest=$QUILL_BUILD_DIR/install_manifest.txt
for m in install_manifest.txt install_manifest_Unspecified.txt; do
    if [ -e "$QUILL_BUILD_DIR/$m" ]; then
        cp -p "$QUILL_BUILD_DIR/$m" "$work/$m.saved" || exit 1
    fi
done
restore() {
    for m in install_manifest.txt install_manifest_Unspecified.txt; do
        if [ -e "$work/$m.saved" ]; then
            cp -p "$work/$m.saved" "$QUILL_BUILD_DIR/$m"
        else
            rm -f "$QUILL_BUILD_DIR/$m"
        fi
    done
    rm -rf "$work"
}
trap restore EXIT
trap 'exit 1' INT TERM
mkdir "$work/empty"

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
# check COND-COMMAND... -- DESC: ok if the command succeeds, else bad DESC.
check() {
    desc=$1
    shift
    if "$@"; then ok; else bad "$desc"; fi
}

# has_symtab FILE: true if FILE has a .symtab section (is not stripped).
has_symtab() { readelf -S -W "$1" 2>/dev/null | grep -q '\.symtab'; }

# check_loads DIR WHAT: quill.so from DIR loads in the stock openssl, active,
# with the project version; and does not without DIR (negative control).
check_loads() {
    env OPENSSL_CONF=/dev/null OPENSSL_MODULES="$1" openssl list -providers -provider quill \
        >"$work/list.out" 2>&1
    if grep -q "name: quill" "$work/list.out" && grep -q "version: $QUILL_VERSION\$" "$work/list.out" &&
        grep -q "status: active" "$work/list.out"; then
        ok
    else
        bad "$2: quill from $1 is not active with version $QUILL_VERSION"
        cat "$work/list.out"
    fi
    if env OPENSSL_CONF=/dev/null OPENSSL_MODULES="$work/empty" openssl list -providers \
        -provider quill 2>/dev/null | grep -q "status: active"; then
        bad "control: quill active without a quill.so in OPENSSL_MODULES"
    else
        ok
    fi
}

# check_version PROGRAM WHAT: PROGRAM --version names the project version.
check_version() {
    out=$("$1" --version 2>&1)
    case "$out" in
        "$(basename "$1") $QUILL_VERSION"*) ok ;;
        *) bad "$2: '$1 --version' printed '$out', not '$(basename "$1") $QUILL_VERSION ...'" ;;
    esac
}

finish() {
    echo "$passed checks passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
