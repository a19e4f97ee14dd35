#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_smoke_mldsa: one short round of the ML-DSA-65 lines of quill-speed.
#   $1  the quill-speed executable
#   $2  where to write its JSON
# With ML-DSA in quill.so: the run succeeds, the JSON carries an RSA 2048
# yardstick and an "x_rsa2048_sign" figure for sign, verify and keygen, and
# --require-quill passes.  Without: the operations are reported skipped (exit
# 0 all the same), --require-quill fails, and the test reports skipped (77).
set -u
bin=$1
json=$2
run() { "$bin" --rounds 1 --seconds 0.05 "$@"; }

run --json="$json" mldsa65 || { echo "FAIL: quill-speed mldsa65 exited $?"; exit 1; }
if grep -q '"skipped": \[\]' "$json"; then
    yard='"yardstick": {"name": "rsa2048-sign", "provider": "default", "ops_per_sec": [0-9]'
    n=$(grep -c "$yard" "$json")
    [ "$n" -eq 3 ] || { echo "FAIL: $n of 3 rows have their yardstick in $json"; exit 1; }
    n=$(grep -c '"x_rsa2048_sign": [0-9]' "$json")
    [ "$n" -eq 3 ] || { echo "FAIL: $n of 3 rows have an x_rsa2048_sign figure"; exit 1; }
    run --require-quill mldsa65 >/dev/null || { echo "FAIL: --require-quill mldsa65"; exit 1; }
    echo "ok: ML-DSA-65 sign, verify, keygen measured on quill with the yardstick"
    exit 0
fi
grep -q '"skipped": \["mldsa65-sign", "mldsa65-verify", "mldsa65-keygen"\]' "$json" ||
    { echo "FAIL: neither measured nor reported skipped"; cat "$json"; exit 1; }
if run --require-quill mldsa65 >/dev/null 2>&1; then
    echo "FAIL: --require-quill succeeded although quill has no ML-DSA-65"
    exit 1
fi
echo "quill has no ML-DSA: the skip path behaves; reporting the test skipped"
exit 77
