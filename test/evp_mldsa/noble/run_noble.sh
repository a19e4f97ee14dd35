#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# mldsa_noble: cross-checks quill's ML-DSA against @noble/post-quantum (an
# independent JavaScript implementation), byte for byte.
#   run_noble.sh DRIVER NOBLE_SRC_DIR WORK_DIR [N]
# DRIVER is the mldsa_noble program, NOBLE_SRC_DIR this directory
# (package.json and package-lock.json pin the versions), WORK_DIR where npm
# installs them (the build tree), N the cases per parameter set (20).
#   1. `npm ci` into WORK_DIR (skipped when the pinned version is there);
#   2. mldsa_noble gen: quill's keys and signatures for N seeds per set;
#   3. noble_check.mjs: noble's keys and signatures equal quill's, quill's
#      verify with noble, and noble's hedged signatures are written out;
#   4. mldsa_noble check: quill verifies noble's signatures.
# Exit 77 (skipped, said loudly) without node or npm, with a node older than
# the package needs, or when the npm install fails (e.g. offline).
# QUILL_EMULATOR (empty, or in a cross build what runs the driver:
# test/CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
driver=${1:?driver}
src=${2:?noble source dir}
work=${3:?work dir}
n=${4:-20}

skip() { echo "SKIPPED: $*"; exit 77; }

command -v node >/dev/null 2>&1 || skip "node is not installed: the noble cross-check did not run"
command -v npm >/dev/null 2>&1 || skip "npm is not installed: the noble cross-check did not run"

# The pinned package states the oldest node it runs on (">= 20.19.0" in
# package-lock.json); an older node (Debian 12's own is 18) is a skip.
need=$(node -e '
const l = require(process.argv[1]);
const e = (l.packages["node_modules/@noble/post-quantum"].engines || {}).node || "";
const m = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(e.trim());
const want = m ? m.slice(1).map(Number) : [0, 0, 0];
const have = process.versions.node.split(".").map(Number);
const cmp = have[0] - want[0] || have[1] - want[1] || have[2] - want[2];
console.log(cmp >= 0 ? "ok" : want.join("."));' "$src/package-lock.json") || exit 1
[ "$need" = ok ] || skip "node $(node --version) is older than $need, which @noble/post-quantum needs: the noble cross-check did not run"

mkdir -p "$work" || exit 1
pinned=$(node -e 'const p=require(process.argv[1]);console.log(p.dependencies["@noble/post-quantum"])' \
    "$src/package.json") || exit 1
have=$(node -e 'try{console.log(require(process.argv[1]).version)}catch(e){console.log("none")}' \
    "$work/node_modules/@noble/post-quantum/package.json")
if [ "$have" != "$pinned" ] || ! cmp -s "$src/package-lock.json" "$work/package-lock.json"; then
    cp "$src/package.json" "$src/package-lock.json" "$work/" || exit 1
    echo "npm ci @noble/post-quantum $pinned into $work"
    if ! (cd "$work" && timeout 300 npm ci --no-audit --no-fund --ignore-scripts) >"$work/npm.log" 2>&1; then
        sed 's/^/    /' "$work/npm.log" | tail -20
        rm -f "$work/package-lock.json" # retry next time
        skip "npm ci failed (offline?): the noble cross-check did not run"
    fi
fi
echo "node $(node --version), @noble/post-quantum $pinned"

${QUILL_EMULATOR:-} "$driver" gen "$work/cases.json" "$n"
rc=$?
[ "$rc" -eq 0 ] || { echo "mldsa_noble gen failed ($rc)"; exit 1; }
node "$src/noble_check.mjs" "$work" "$work/cases.json" "$work/noble.json" || {
    echo "noble_check failed"
    exit 1
}
${QUILL_EMULATOR:-} "$driver" check "$work/noble.json" || { echo "mldsa_noble check failed"; exit 1; }
echo "mldsa_noble: quill and @noble/post-quantum $pinned agree on $n cases per set"
