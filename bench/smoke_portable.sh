#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_smoke_portable: one short round of quill-speed --portable on RSA 2048
# and on ML-DSA-44.
#   $1  the quill-speed executable
#   $2  where to write the JSON files (and a scratch modules directory)
#   $3  quill.so
# Passes if each run succeeds under --require-quill (quill and quill_portable
# served every operation, and every signature they made verified), its JSON
# has a quill_portable result and a native gain for sign, verify and keygen,
# and --portable fails when quill_portable.so is missing (while the same run
# without --portable succeeds).
# QUILL_EMULATOR (empty, or in a cross build what runs quill-speed: see the
# top-level CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
bin=$1
dir=$2
quill_so=$3
run() { ${QUILL_EMULATOR:-} "$bin" --rounds 1 --seconds 0.05 "$@"; }

for alg in rsa2048 mldsa44; do
    json=$dir/bench_smoke_portable_$alg.json
    run --portable --require-quill --json="$json" "$alg" ||
        { echo "FAIL: quill-speed --portable --require-quill $alg exited $?"; exit 1; }
    grep -q '"portable": true' "$json" || { echo "FAIL: $json: no \"portable\": true"; exit 1; }
    n=$(grep -c '"quill_portable": {"ops_per_sec": [0-9]' "$json")
    [ "$n" -eq 3 ] || { echo "FAIL: $alg: $n of 3 rows have a quill_portable result"; exit 1; }
    n=$(grep -c '"native_gain": [0-9]' "$json")
    [ "$n" -eq 3 ] || { echo "FAIL: $alg: $n of 3 rows have a native_gain"; exit 1; }
done

# A modules directory with quill.so alone.
mods=$dir/smoke_portable_modules
rm -rf "$mods" && mkdir -p "$mods" && ln -s "$quill_so" "$mods/quill.so" || exit 1
OPENSSL_MODULES=$mods run rsa2048-verify >/dev/null ||
    { echo "FAIL: quill-speed without --portable needs only quill.so"; exit 1; }
if OPENSSL_MODULES=$mods run --portable rsa2048-verify >/dev/null 2>&1; then
    echo "FAIL: --portable succeeded without quill_portable.so"
    exit 1
fi
echo "ok: RSA 2048 and ML-DSA-44 measured on quill_portable; --portable needs quill_portable.so"
