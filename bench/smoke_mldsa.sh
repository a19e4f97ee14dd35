#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_smoke_mldsa: one short round of the ML-DSA-65 lines of quill-speed.
#   $1  the quill-speed executable
#   $2  where to write its JSON
# The run succeeds, none of its operations is skipped, the JSON carries an
# RSA 2048 yardstick and an "x_rsa2048_sign" figure for sign, verify and
# keygen, and --require-quill passes.
# QUILL_EMULATOR (empty, or in a cross build what runs quill-speed: see the
# top-level CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
bin=$1
json=$2
run() { ${QUILL_EMULATOR:-} "$bin" --rounds 1 --seconds 0.05 "$@"; }

run --json="$json" mldsa65 || { echo "FAIL: quill-speed mldsa65 exited $?"; exit 1; }
grep -q '"skipped": \[\]' "$json" || { echo "FAIL: operations skipped in $json"; exit 1; }
yard='"yardstick": {"name": "rsa2048-sign", "provider": "default", "ops_per_sec": [0-9]'
n=$(grep -c "$yard" "$json")
[ "$n" -eq 3 ] || { echo "FAIL: $n of 3 rows have their yardstick in $json"; exit 1; }
n=$(grep -c '"x_rsa2048_sign": [0-9]' "$json")
[ "$n" -eq 3 ] || { echo "FAIL: $n of 3 rows have an x_rsa2048_sign figure"; exit 1; }
run --require-quill mldsa65 >/dev/null || { echo "FAIL: --require-quill mldsa65"; exit 1; }
echo "ok: ML-DSA-65 sign, verify, keygen measured on quill with the yardstick"
