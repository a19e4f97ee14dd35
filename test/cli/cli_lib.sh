# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# cli_lib.sh: what the CLI suites (test/cli/cli_rsa.sh, test/evp_ec/cli_ec.sh)
# share, sourced by them after setting
#   CLI_NAME      a short name for the temporary directory
#   CLI_COUNTERS  the three QUILL_STATS counters the suite follows, in the
#                 order expect() takes their flags (sign verify keygen)
# It checks the environment (QUILL_SOURCE_DIR, QUILL_BUILD_DIR, optional
# QUILL_SANITIZE and QUILL_CC; exit 77 only without an openssl binary), makes
# $work (the current directory afterwards, with a random 5000-byte "msg") and
# defines ok/bad (counting into $passed/$failed), ossl (openssl with quill
# activated through openssl.cnf.example), plain (openssl with the default
# provider only), run, stop_server, tls_handshake, sum, snap and expect.
#
# $triple is split into words on purpose.
# shellcheck shell=sh disable=SC2086
set -u

: "${QUILL_SOURCE_DIR:?}" "${QUILL_BUILD_DIR:?}" "${CLI_NAME:?}" "${CLI_COUNTERS:?}"
OPENSSL=${OPENSSL:-openssl}
command -v "$OPENSSL" >/dev/null 2>&1 || { echo "no openssl binary: skipped"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/quill-$CLI_NAME.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
stats=$work/stats
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# shellcheck source=../common/sanitizer_preload.sh
. "$QUILL_SOURCE_DIR/test/common/sanitizer_preload.sh"
quill_sanitizer_preload ||
    { echo "sanitizer build but no sanitizer runtime found for ${QUILL_CC:-gcc}" >&2; exit 1; }
preload=$QUILL_PRELOAD
[ -z "$preload" ] || echo "sanitizer build: preloading $preload"

# ossl: openssl with quill activated; plain: openssl with the default provider only.
ossl() {
    env OPENSSL_CONF="$QUILL_SOURCE_DIR/openssl.cnf.example" OPENSSL_MODULES="$QUILL_BUILD_DIR" \
        QUILL_STATS="$stats" LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
        "$OPENSSL" "$@"
}
plain() {
    env -u QUILL_STATS -u OPENSSL_MODULES OPENSSL_CONF=/dev/null "$OPENSSL" "$@"
}

# run DESC CMD...: runs a command, records pass/fail, keeps its output in $work/out.
run() {
    desc=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        ok
        return 0
    fi
    bad "$desc"
    sed 's/^/    /' "$work/out" >&2
    return 1
}

# stop_server PID: an s_server started with -naccept 1 exits by itself after
# its handshake and writes its stats line at teardown; give it up to 5 s
# (slow under the sanitizers) before killing it, or its counters are lost.
stop_server() {
    waited=0
    while [ "$waited" -lt 50 ] && kill -0 "$1" 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
    done
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

# tls_handshake DESC CERT KEY [s_client options]: s_server, with quill
# through openssl.cnf.example (and $tls_server_opts, split into words),
# signs one handshake with KEY and CERT; s_client verifies it against CERT.
# ok, or bad DESC with both ends' output; s_client's output stays in
# $work/out.
tls_handshake() {
    desc=$1
    cert=$2
    key=$3
    shift 3
    port=$((20000 + ($$ + passed + failed) % 20000))
    # Started without the ossl() wrapper so that $! is the server itself
    # (env execs openssl), which the kill below can reach.
    env OPENSSL_CONF="$QUILL_SOURCE_DIR/openssl.cnf.example" OPENSSL_MODULES="$QUILL_BUILD_DIR" \
        QUILL_STATS="$stats" LD_PRELOAD="${preload# }" ASAN_OPTIONS=detect_leaks=0 \
        "$OPENSSL" s_server -accept "$port" -cert "$cert" -key "$key" -naccept 1 -quiet \
        ${tls_server_opts:-} \
        >"$work/server.out" 2>&1 &
    server=$!
    tries=0
    connected=0
    while [ "$tries" -lt 50 ]; do
        if echo | ossl s_client -connect "127.0.0.1:$port" -CAfile "$cert" \
            -verify_return_error "$@" >"$work/out" 2>&1; then
            connected=1
            break
        fi
        grep -q "Connection refused\|connect:errno" "$work/out" || break
        tries=$((tries + 1))
        sleep 0.2
    done
    if [ "$connected" = 1 ] && grep -q "Verification: OK\|Verify return code: 0" "$work/out"; then
        ok
    else
        bad "$desc"
        sed 's/^/    /' "$work/out" "$work/server.out" >&2
    fi
    stop_server "$server"
}

# Sums one counter over all lines of the stats file; a malformed line fails.
sum() {
    [ -f "$stats" ] || { echo 0; return; }
    awk -v key="$1" '
        !/^pid=[0-9]+( [a-z0-9-]+=[0-9]+)+$/ { bad = 1 }
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) s += kv[2] } }
        END { if (bad) print "malformed"; else print s + 0 }' "$stats"
}

# snap records the suite's three counters; expect compares against them.
snap() {
    set -- $CLI_COUNTERS
    s0=$(sum "$1"); v0=$(sum "$2"); k0=$(sum "$3")
}

# expect DESC SIGN VERIFY KEYGEN: flag 1: that counter must have grown;
# 0: it must not have moved; - : not checked.
expect() {
    desc=$1
    flags="$2 $3 $4"
    set -- $CLI_COUNTERS
    c1=$1 c2=$2 c3=$3
    s1=$(sum "$c1"); v1=$(sum "$c2"); k1=$(sum "$c3")
    set -- $flags
    for triple in "$c1 $1 $s0 $s1" "$c2 $2 $v0 $v1" "$c3 $3 $k0 $k1"; do
        set -- $triple
        if [ "$3" = malformed ] || [ "$4" = malformed ]; then
            bad "$desc: malformed stats line"; cat "$stats" >&2; return
        fi
        if [ "$2" = 1 ]; then
            if [ "$4" -gt "$3" ]; then ok; else bad "$desc: quill $1 counter did not grow ($3 -> $4)"; fi
        elif [ "$2" = 0 ]; then
            if [ "$4" -eq "$3" ]; then ok; else bad "$desc: quill $1 counter grew ($3 -> $4)"; fi
        fi
    done
    echo "$desc: $c1 $s0 -> $s1, $c2 $v0 -> $v1, $c3 $k0 -> $k1"
}

cd "$work" || exit 1
[ -f "$QUILL_BUILD_DIR/quill.so" ] || { echo "no $QUILL_BUILD_DIR/quill.so" >&2; exit 1; }
head -c 5000 /dev/urandom >msg 2>/dev/null || dd if=/dev/urandom of=msg bs=1000 count=5 2>/dev/null
