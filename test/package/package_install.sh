#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# package_install: the install rules and the uninstall target on this build
# tree, every file going under a temporary directory in the build tree:
#   1. cmake --install --prefix P: quill.so in P/lib/ossl-modules (or
#      QUILL_MODULESDIR), the programs in P/bin, the documents in
#      P/share/doc/quill, nothing else, nothing outside P; the module loads
#      from there; not stripped;
#   2. the uninstall target removes them and says so; run again, it says
#      that nothing is installed;
#   3. cmake --install --strip without --prefix (what install/strip runs)
#      under DESTDIR: the module in OpenSSL's modules directory, the programs
#      in the configured prefix's bin, all stripped; uninstall under the same
#      DESTDIR removes them;
#   4. --prefix /usr under DESTDIR: the module in OpenSSL's modules
#      directory when that lies under /usr.
# Arguments: the programs the build installs (test/package.cmake).
# shellcheck source=test/package/package_lib.sh
. "$(dirname "$0")/package_lib.sh"

: "${QUILL_CONFIGURED_PREFIX:?}"
uninstall() { "$QUILL_CMAKE" --build "$QUILL_BUILD_DIR" --target uninstall; }

# expected_moddir PREFIX GIVEN: where the documented rules put quill.so for
# the install prefix PREFIX, given at install time (GIVEN=1) or not.
expected_moddir() {
    if [ -n "${QUILL_MODULESDIR:-}" ]; then
        case "$QUILL_MODULESDIR" in
            /*) echo "$QUILL_MODULESDIR" ;;
            *) echo "$1/$QUILL_MODULESDIR" ;;
        esac
    elif [ -n "${QUILL_SYSTEM_MODULESDIR:-}" ] &&
        { [ "$2" = 0 ] || [ "${QUILL_SYSTEM_MODULESDIR#"$1"/}" != "$QUILL_SYSTEM_MODULESDIR" ]; }; then
        echo "$QUILL_SYSTEM_MODULESDIR"
    else
        echo "$1/lib/ossl-modules"
    fi
}

# expect_files ROOT PREFIX MODDIR: the files listed in the manifest, with
# ROOT in front, are exactly quill.so in MODDIR, the programs in PREFIX/bin
# and the documents in PREFIX/share/doc/quill, and they all exist.
expect_files() {
    {
        echo "$3/quill.so"
        for p in $programs; do echo "$2/bin/$p"; done
        for d in CHANGELOG.md LICENSE README.md openssl.cnf.example; do
            echo "$2/share/doc/quill/$d"
        done
    } | sort >"$work/files.expected"
    sort "$manifest" >"$work/files.actual"
    if cmp -s "$work/files.expected" "$work/files.actual"; then
        ok
    else
        bad "install_manifest.txt differs from the expected files (- expected, + listed):"
        diff "$work/files.expected" "$work/files.actual" | sed -n 's/^</-/p; s/^>/+/p'
    fi
    while IFS= read -r f; do
        if [ -f "$1$f" ]; then ok; else bad "$1$f was not installed"; fi
    done <"$work/files.expected"
}

# 1. --prefix P.
prefix=$work/prefix
moddir=$(expected_moddir "$prefix" 1)
if ! "$QUILL_CMAKE" --install "$QUILL_BUILD_DIR" --prefix "$prefix" >"$work/out" 2>&1; then
    cat "$work/out"
    echo "FAIL: cmake --install --prefix $prefix"
    exit 1
fi
expect_files "" "$prefix" "$moddir"
# Safety before uninstalling: every listed file lies in $work.
if grep -v "^$work/" "$manifest" >/dev/null; then
    echo "FAIL: install_manifest.txt lists files outside $work; not uninstalling:"
    grep -v "^$work/" "$manifest"
    exit 1
fi
if [ -n "$(find "$work/prefix" -name 'quill_portable*' -print)" ]; then
    bad "quill_portable.so was installed"
else
    ok
fi
if has_symtab "$QUILL_BUILD_DIR/quill.so"; then
    # A control for the stripped install below.
    if has_symtab "$moddir/quill.so"; then ok; else bad "plain install stripped quill.so"; fi
fi
check_loads "$moddir" "cmake --install --prefix"
if [ -x "$prefix/bin/quill-speed" ]; then
    check_version "$prefix/bin/quill-speed" "installed quill-speed"
fi

# 2. uninstall.
if uninstall >"$work/out" 2>&1 && grep -q "removed $moddir/quill.so" "$work/out"; then
    ok
else
    bad "uninstall failed or did not say it removed $moddir/quill.so:"
    cat "$work/out"
fi
left=$(find "$prefix" -type f -print)
if [ -z "$left" ]; then ok; else bad "uninstall left files: $left"; fi
if [ -d "$prefix/share/doc/quill" ]; then bad "uninstall left $prefix/share/doc/quill"; else ok; fi
if [ -e "$manifest" ]; then bad "uninstall left install_manifest.txt"; else ok; fi
if uninstall >"$work/out" 2>&1 && grep -q "nothing to uninstall" "$work/out"; then
    ok
else
    bad "a second uninstall did not say 'nothing to uninstall' and succeed:"
    cat "$work/out"
fi

# 3. The stripped plain install, under DESTDIR.
dest=$work/destdir
moddir=$(expected_moddir "$QUILL_CONFIGURED_PREFIX" 0)
if ! DESTDIR=$dest "$QUILL_CMAKE" --install "$QUILL_BUILD_DIR" --strip >"$work/out" 2>&1; then
    cat "$work/out"
    echo "FAIL: DESTDIR=$dest cmake --install --strip"
    exit 1
fi
expect_files "$dest" "$QUILL_CONFIGURED_PREFIX" "$moddir"
for f in "$moddir/quill.so" $(for p in $programs; do echo "$QUILL_CONFIGURED_PREFIX/bin/$p"; done); do
    if has_symtab "$dest$f"; then bad "--strip left $f unstripped (.symtab)"; else ok; fi
done
if DESTDIR=$dest uninstall >"$work/out" 2>&1 && [ -z "$(find "$dest" -type f -print)" ]; then
    ok
else
    bad "uninstall under DESTDIR=$dest left files: $(find "$dest" -type f -print)"
    cat "$work/out"
fi

# 4. --prefix /usr, under DESTDIR.
dest=$work/usr-destdir
moddir=$(expected_moddir /usr 1)
if DESTDIR=$dest "$QUILL_CMAKE" --install "$QUILL_BUILD_DIR" --prefix /usr >"$work/out" 2>&1 &&
    [ -f "$dest$moddir/quill.so" ] && [ -f "$dest/usr/share/doc/quill/README.md" ]; then
    ok
else
    bad "--prefix /usr under DESTDIR: no $moddir/quill.so:"
    cat "$work/out"
fi
finish
