#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# package_deb: builds the Debian package from this build tree with cpack
# (into a scratch directory of the build tree), checks its name, control
# fields and file list, unpacks it with dpkg-deb -x into a temporary root
# (nothing is installed on the system) and uses it from there: the module
# loads in the stock openssl with the project version, signs with RSA (two
# ways: -provider options, and the packaged openssl.cnf.example) as counted
# by QUILL_STATS, and the default provider verifies; the programs run
# against it.  Arguments: the programs the build installs (test/package.cmake).
# shellcheck source=test/package/package_lib.sh
. "$(dirname "$0")/package_lib.sh"

: "${QUILL_CPACK:?}" "${QUILL_DEB_MODULESDIR:?}"
command -v dpkg-deb >/dev/null 2>&1 || { echo "no dpkg-deb: skipped"; exit 77; }
[ -x "$QUILL_CPACK" ] || command -v "$QUILL_CPACK" >/dev/null 2>&1 ||
    { echo "no cpack ($QUILL_CPACK): skipped"; exit 77; }

# cpack into $work/cpack.
if ! (cd "$work" && "$QUILL_CPACK" -G DEB --config "$QUILL_BUILD_DIR/CPackConfig.cmake" \
          -B "$work/cpack") >"$work/cpack.out" 2>&1; then
    cat "$work/cpack.out"
    echo "FAIL: cpack -G DEB failed"
    exit 1
fi
# cpack leaves a real install's manifest alone (cmake/package.cmake).
if [ -e "$work/install_manifest.txt.saved" ]; then
    if cmp -s "$manifest" "$work/install_manifest.txt.saved"; then ok; else bad "cpack changed $manifest"; fi
elif [ -e "$manifest" ]; then
    bad "cpack wrote $manifest"
else
    ok
fi
set -- "$work"/cpack/*.deb
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    cat "$work/cpack.out"
    echo "FAIL: cpack made no single .deb in $work/cpack: $*"
    exit 1
fi
deb=$1
echo "package: $(basename "$deb"), $(wc -c <"$deb") bytes"

# Name and control fields.
field() { dpkg-deb -f "$deb" "$1"; }
arch=$(field Architecture)
if command -v dpkg >/dev/null 2>&1; then
    check "Architecture '$arch' is not dpkg's '$(dpkg --print-architecture)'" \
        [ "$arch" = "$(dpkg --print-architecture)" ]
fi
check "file name $(basename "$deb") is not quill_${QUILL_VERSION}_$arch.deb" \
    [ "$(basename "$deb")" = "quill_${QUILL_VERSION}_$arch.deb" ]
check "Package is '$(field Package)', not quill" [ "$(field Package)" = quill ]
check "Version is '$(field Version)', not $QUILL_VERSION" [ "$(field Version)" = "$QUILL_VERSION" ]
depends=$(field Depends)
echo "Depends: $depends"
# libssl3, or a renamed libssl3t64 (Debian 13), at version 3.0 or later.
if echo "$depends" | grep -Eq '(^|, )libssl3[a-z0-9]* \(>= 3\.0'; then
    ok
else
    bad "Depends '$depends' has no libssl3 (>= 3.0...)"
fi
if field Maintainer | grep -Eq '^[^<]+ <[^>]+@[^>]+>$'; then
    ok
else
    bad "Maintainer '$(field Maintainer)' is not 'Name <address>'"
fi
for f in Section Priority Description; do
    check "no $f field" [ -n "$(field $f)" ]
done

# The files: exactly these (regular files; directories aside).
{
    echo "./usr/$QUILL_DEB_MODULESDIR/quill.so"
    for p in $programs; do echo "./usr/bin/$p"; done
    for d in CHANGELOG.md README.md copyright openssl.cnf.example; do
        echo "./usr/share/doc/quill/$d"
    done
} | sort >"$work/files.expected"
dpkg-deb -c "$deb" | awk '$1 ~ /^-/ { print $NF }' | sort >"$work/files.actual"
if cmp -s "$work/files.expected" "$work/files.actual"; then
    ok
else
    bad "file list differs from the expected one (- expected, + in the .deb):"
    diff "$work/files.expected" "$work/files.actual" | sed -n 's/^</-/p; s/^>/+/p'
fi
if dpkg-deb -c "$deb" | grep -q quill_portable; then
    bad "quill_portable.so is in the package"
else
    ok
fi

# Unpacked into a temporary root.
root=$work/root
dpkg-deb -x "$deb" "$root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
moddir=$root/usr/$QUILL_DEB_MODULESDIR
for f in "$moddir/quill.so" $(for p in $programs; do echo "$root/usr/bin/$p"; done); do
    if has_symtab "$f"; then bad "${f#"$root"} is not stripped (.symtab present)"; else ok; fi
done
if cmp -s "$root/usr/share/doc/quill/copyright" "$QUILL_SOURCE_DIR/LICENSE"; then
    ok
else
    bad "/usr/share/doc/quill/copyright is not LICENSE"
fi

# The module, loaded from the unpacked root.
check_loads "$moddir" "unpacked .deb"

# RSA-2048 signatures on it, counted by QUILL_STATS and checked by the
# default provider alone.
plain() { env -u QUILL_STATS -u OPENSSL_MODULES OPENSSL_CONF=/dev/null openssl "$@"; }
{ plain genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/key.pem" &&
    plain pkey -in "$work/key.pem" -pubout -out "$work/pub.pem" &&
    head -c 1000 /dev/urandom >"$work/msg" &&
    plain dgst -sha256 -binary -out "$work/digest" "$work/msg"; } >"$work/out" 2>&1 ||
    { cat "$work/out"; echo "FAIL: making the RSA key"; exit 1; }
# sign_check WHAT OPENSSL_CONF [OPTION...]: pkeyutl -sign with quill.so from
# the unpacked root.
sign_check() {
    what=$1
    conf=$2
    shift 2
    rm -f "$work/stats" "$work/sig"
    if env OPENSSL_CONF="$conf" OPENSSL_MODULES="$moddir" QUILL_STATS="$work/stats" \
           openssl pkeyutl -sign "$@" -inkey "$work/key.pem" -in "$work/digest" \
           -pkeyopt digest:sha256 -out "$work/sig" >"$work/out" 2>&1; then
        ok
    else
        bad "$what: pkeyutl -sign failed"
        cat "$work/out"
        return
    fi
    if grep -q " rsa-sign=1 " "$work/stats" 2>/dev/null; then
        ok
    else
        bad "$what: QUILL_STATS does not count one RSA signature by quill: $(cat "$work/stats" 2>&1)"
    fi
    if plain pkeyutl -verify -pubin -inkey "$work/pub.pem" -in "$work/digest" \
           -sigfile "$work/sig" -pkeyopt digest:sha256 >"$work/out" 2>&1; then
        ok
    else
        bad "$what: the default provider does not verify quill's signature"
        cat "$work/out"
    fi
}
# quill first: its signature is the one fetched.
sign_check "-provider quill -provider default" /dev/null -provider quill -provider default
sign_check "packaged openssl.cnf.example" "$root/usr/share/doc/quill/openssl.cnf.example"

# The programs, from the unpacked root.
if [ -x "$root/usr/bin/quill-speed" ]; then
    check_version "$root/usr/bin/quill-speed" "packaged quill-speed"
    # One short round against the unpacked module: quill served every
    # operation and its signatures verified with the default provider.
    if env OPENSSL_CONF=/dev/null OPENSSL_MODULES="$moddir" "$root/usr/bin/quill-speed" \
           --rounds 1 --seconds 0.02 --require-quill rsa2048-sign >"$work/out" 2>&1 &&
        grep -q "^quill: $QUILL_VERSION ($moddir)" "$work/out"; then
        ok
    else
        bad "packaged quill-speed did not run on the unpacked module"
        cat "$work/out"
    fi
    # Without OPENSSL_MODULES an installed copy looks in OpenSSL's modules
    # directory, not in the build tree.
    osslmods=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
    env -u OPENSSL_MODULES OPENSSL_CONF=/dev/null "$root/usr/bin/quill-speed" --rounds 1 \
        --seconds 0.01 rsa2048-verify >"$work/out" 2>&1
    if [ -n "$osslmods" ] && grep -q "$osslmods" "$work/out" &&
        ! grep -q "$QUILL_BUILD_DIR" "$work/out"; then
        ok
    else
        bad "packaged quill-speed without OPENSSL_MODULES did not look in $osslmods:"
        cat "$work/out"
    fi
fi
finish
