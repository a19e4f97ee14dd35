# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# apps_python: Python's ssl module (Debian's /usr/bin/python3 on the
# system's libssl3) as TLS server and client on loopback, quill active on
# both sides through openssl.cnf.example (test/apps.cmake).
#
# For each certificate (RSA-2048 and P-256, signed by a test RSA-2048 CA) a
# server process (test/apps/apps_tls.py serve, on a port the kernel picks)
# serves a client process (apps_tls.py connect) that verifies the chain and
# the name: TLS 1.3, then TLS 1.2 with an ECDHE-RSA / ECDHE-ECDSA suite, so
# that the server signs.  Server and client count into separate locations:
# quill must have made exactly one signature per handshake in the server,
# on the certificate's algorithm, and the client's verifications of the
# certificate (RSA, by the CA) and of the handshake signature.  A control
# run with the default provider's configuration must connect the same way
# and leave no report (the counter check can fail).
#
# Skipped (77) without python3 (PYTHON, default /usr/bin/python3) with an
# ssl module on OpenSSL 3, or without openssl.
# shellcheck shell=bash disable=SC2034
APPS_NAME=python
# shellcheck source=test/apps/apps_lib.sh
. "$(dirname "$0")/apps_lib.sh"

PYTHON=${PYTHON:-/usr/bin/python3}
TLS_PY=$apps_dir/apps_tls.py
[ -x "$PYTHON" ] || apps_skip "python3 not found ($PYTHON; Debian: apt-get install python3)"
pyssl=$(plain "$PYTHON" -c 'import ssl; print(ssl.OPENSSL_VERSION)' 2>/dev/null) ||
    apps_skip "$PYTHON has no ssl module"
case "$pyssl" in
"OpenSSL 3."*) echo "$PYTHON: $pyssl" ;;
*) apps_skip "$PYTHON's ssl module is not on OpenSSL 3 ($pyssl)" ;;
esac
apps_need_cmd openssl

REQUESTS=2 # per certificate and protocol version
TLS12_RSA=ECDHE-RSA-AES128-GCM-SHA256
TLS12_EC=ECDHE-ECDSA-AES128-GCM-SHA256

apps_make_certs || { bad "making the test certificates"; exit 1; }

# run_pair on|off SERVER_LOC CLIENT_LOC rsa|ec: one server process, and one
# client process per protocol version.
run_pair() {
    local suite=$TLS12_RSA v i=0 status=0 server_pid port
    [ "$4" = ec ] && suite=$TLS12_EC
    rm -f "$work/port"
    (
        quill_stats_env "$1" "$2"
        exec "$PYTHON" "$TLS_PY" serve "$work/$4.crt" "$work/$4.key" "$work/port" $((2 * REQUESTS))
    ) </dev/null >"$work/server.log" 2>&1 &
    server_pid=$!
    apps_track "$server_pid"
    while [ "$i" -lt 100 ] && [ ! -s "$work/port" ] && kill -0 "$server_pid" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    if [ ! -s "$work/port" ]; then
        bad "python server ($4, quill $1) did not start: $(cat "$work/server.log")"
        apps_wait "$server_pid" TERM
        return
    fi
    port=$(cat "$work/port")
    for v in 1.3 1.2; do
        if (
            quill_stats_env "$1" "$3"
            exec "$PYTHON" "$TLS_PY" connect "$work/ca.crt" "$port" "$v" "$suite" "$REQUESTS"
        ) </dev/null >"$work/client.log" 2>&1; then
            ok
        else
            bad "python client TLS $v $4 (quill $1):"
        fi
        sed "s/^/    $4: /" "$work/client.log"
    done
    # the server exits by itself after its connections
    apps_wait "$server_pid" || status=$?
    check "python server $4 (quill $1) exit status" 0 "$status"
    [ "$status" = 0 ] || cat "$work/server.log" >&2
}

srv=$work/stats-server
cli=$work/stats-client
hs=$((2 * REQUESTS)) # handshakes per certificate

echo "== quill active in the Python server and client"
quill_stats_init "$srv"
quill_stats_init "$cli"
run_pair on "$srv" "$cli" rsa
run_pair on "$srv" "$cli" ec
echo "server reports:"
quill_show "$srv"
echo "client reports:"
quill_show "$cli"
check "server: processes reporting" 2 "$(quill_reports "$srv")"
check "server: rsa-sign (one per RSA handshake)" "$hs" "$(quill_count "$srv" rsa-sign)"
check "server: ecdsa-sign (one per P-256 handshake)" "$hs" "$(quill_count "$srv" ecdsa-sign)"
check "server: rsa-verify" 0 "$(quill_count "$srv" rsa-verify)"
check "server: ecdsa-verify" 0 "$(quill_count "$srv" ecdsa-verify)"
# the client verifies the certificate's signature (RSA, by the CA) and the
# handshake signature (the certificate's key)
check "client: processes reporting" 4 "$(quill_reports "$cli")"
check "client: rsa-verify (2 per RSA handshake, 1 per P-256 one)" $((3 * hs)) "$(quill_count "$cli" rsa-verify)"
check "client: ecdsa-verify (1 per P-256 handshake)" "$hs" "$(quill_count "$cli" ecdsa-verify)"
check "client: rsa-sign" 0 "$(quill_count "$cli" rsa-sign)"
check "client: ecdsa-sign" 0 "$(quill_count "$cli" ecdsa-sign)"

echo "== control: the default provider's configuration on both sides"
quill_stats_init "$srv"
quill_stats_init "$cli"
run_pair off "$srv" "$cli" rsa
run_pair off "$srv" "$cli" ec
check "control: server reports" 0 "$(quill_reports "$srv")"
check "control: client reports" 0 "$(quill_reports "$cli")"

apps_finish
