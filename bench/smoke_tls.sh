#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_smoke_tls: one short round of quill-speed's P-256 rows, among them
# the application rows: the TLS 1.3 handshake (tls13-p256) and the
# fresh-key verification (ecdsa-p256-verify-fresh).
#   $1  the quill-speed executable
#   $2  where to write its JSON
# Passes if --list names the TLS rows, the run succeeds under
# --require-quill (for the application rows: quill's own counters for its
# library context equal the signatures and verifications that the
# operations run there need), and the JSON carries both contexts' handshake
# split, the fresh-key verification's split and confirmed counters for both
# application rows.
# QUILL_EMULATOR (empty, or in a cross build what runs quill-speed: see the
# top-level CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
bin=$1
json=$2
fail() { echo "FAIL: $*"; exit 1; }

list=$(${QUILL_EMULATOR:-} "$bin" --list) || fail "quill-speed --list exited $?"
for name in tls13-rsa2048 tls13-rsa3072 tls13-p256 ecdsa-p256-verify-fresh; do
    echo "$list" | grep -qx "$name" || fail "--list does not show $name"
done
${QUILL_EMULATOR:-} "$bin" --rounds 1 --seconds 0.05 --require-quill --json="$json" p256 ||
    fail "quill-speed --require-quill p256 exited $?"
grep -q '"name": "tls13-p256"' "$json" || fail "no tls13-p256 row in $json"
n=$(grep -c '"quill_counters": {"confirmed": true' "$json")
[ "$n" -eq 2 ] || fail "$n of 2 application rows have quill's counters confirmed"
for ctx in default quill; do
    grep -q "\"$ctx\": {\"server\": [0-9][0-9.]*, \"server_key_exchange\": [0-9]" "$json" ||
        fail "no handshake split for the $ctx context"
    grep -q "\"$ctx\": {\"decode\": [0-9][0-9.]*, \"rest\": [0-9]" "$json" ||
        fail "no fresh-key verification split for the $ctx context"
done
echo "ok: TLS 1.3 P-256 handshakes and fresh-key verification measured, quill's counters confirmed"
