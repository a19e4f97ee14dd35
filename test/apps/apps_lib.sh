# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# apps_lib.sh: what the real-application suites (test/apps/*.sh, label apps)
# share.  Sourced by bash after setting APPS_NAME (a short name for the
# temporary directory).  Environment (from QUILL_TEST_ENV, test/apps.cmake):
#   QUILL_SOURCE_DIR  the source tree (openssl.cnf.example)
#   QUILL_BUILD_DIR   the build directory, where quill.so is
#   QUILL_SANITIZE    1 in the sanitizer build; QUILL_CC its compiler
#
# It makes $work (the current directory afterwards), removed at exit, sets
# $apps_dir to the scripts' directory, and
# stops at exit every process registered with apps_track, also on failure.
#
# Everything about quill's counters is in the section "Counters" below and
# nowhere else: the suites configure processes with quill_stats_env, read
# counters with quill_count and quill_reports, and write nginx.conf's lines
# with quill_nginx_env.  A counter location ("LOC") is whatever those
# functions make of it: today a file named by QUILL_STATS, to which each
# process appends one line at exit (provider/stats.h).
# shellcheck shell=bash
set -u

: "${QUILL_SOURCE_DIR:?}" "${QUILL_BUILD_DIR:?}" "${APPS_NAME:?}"

apps_passed=0
apps_failed=0
apps_pids=""

ok() { apps_passed=$((apps_passed + 1)); }
bad() { apps_failed=$((apps_failed + 1)); echo "FAIL: $*" >&2; }

# check DESC EXPECTED ACTUAL: equal numbers pass.
check() {
    if [ "$3" = "$2" ]; then
        ok
        echo "ok: $1 = $3"
    else
        bad "$1: expected $2, got $3"
    fi
}

# apps_skip WHAT: a tool the suite needs is missing: one line, exit 77.
apps_skip() {
    echo "skipped: $*"
    exit 77
}

# apps_need_cmd CMD...: skip unless every command exists (on PATH or absolute).
apps_need_cmd() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || apps_skip "$c not found"
    done
}

# apps_finish: the suite's verdict as its exit status.
apps_finish() {
    echo "$APPS_NAME: $apps_passed passed, $apps_failed failed"
    [ "$apps_failed" -eq 0 ]
}

# apps_track PID: stop PID (and its children) at exit if it still runs
# (apps_cleanup).
apps_track() { apps_pids="$apps_pids $1"; }

# apps_children PID: the direct children of PID (read from /proc by parent
# id, never by name).
apps_children() {
    local stat line parent child
    for stat in /proc/[0-9]*/stat; do
        line=$(cat "$stat" 2>/dev/null) || continue
        # the name (field 2) may hold spaces: the state and the parent come
        # after its closing parenthesis
        read -r _ parent _ <<<"${line##*) }"
        if [ "$parent" = "$1" ]; then
            child=${stat#/proc/}
            echo "${child%/stat}"
        fi
    done
}

# apps_wait PID [SIGNAL]: sends SIGNAL (if given) to PID, a child of this
# shell, and waits up to 10 s for it to exit; then kills it and its
# children.  Returns PID's exit status if it exited in time, else 1.
apps_wait() {
    local pid=$1 i=0 status
    local -a kids
    mapfile -t kids < <(apps_children "$pid")
    [ $# -gt 1 ] && kill -"$2" "$pid" 2>/dev/null
    # a child that has exited stays a zombie (state Z) until waited for
    while [ "$i" -lt 100 ] && kill -0 "$pid" 2>/dev/null &&
        [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if [ "$i" -ge 100 ]; then
        echo "$APPS_NAME: process $pid did not exit within 10 s, killed" >&2
        kill -KILL "$pid" "${kids[@]}" 2>/dev/null
        wait "$pid" 2>/dev/null
        return 1
    fi
    wait "$pid" 2>/dev/null
    status=$?
    return "$status"
}

# At exit: each tracked process still running gets SIGTERM (nginx's master
# then stops and reaps its workers) and is killed with its children if it
# has not exited 10 s later.
apps_cleanup() {
    local p
    for p in $apps_pids; do
        kill -0 "$p" 2>/dev/null && apps_wait "$p" TERM
    done
    cd / && rm -rf "$work"
}

# shellcheck disable=SC2034 # used by the suites
apps_dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/quill-$APPS_NAME.XXXXXX") || exit 1
trap 'apps_cleanup' EXIT
trap 'exit 1' INT TERM HUP
cd "$work" || exit 1
[ -f "$QUILL_BUILD_DIR/quill.so" ] || { echo "no $QUILL_BUILD_DIR/quill.so" >&2; exit 1; }

# The sanitizer build's quill.so needs the sanitizer runtimes loaded first
# in applications that were not built with them (as in test/cli/cli_lib.sh).
apps_preload=""
if [ "${QUILL_SANITIZE:-}" = "1" ] || [ "${QUILL_SANITIZE:-}" = "ON" ]; then
    apps_cc=${QUILL_CC:-gcc}
    for lib in libasan.so libubsan.so libclang_rt.asan-x86_64.so libclang_rt.ubsan_standalone-x86_64.so; do
        apps_lib_path=$("$apps_cc" -print-file-name="$lib" 2>/dev/null)
        case "$apps_lib_path" in
        /*) [ -e "$apps_lib_path" ] && apps_preload="$apps_preload $apps_lib_path" ;;
        esac
    done
    [ -n "$apps_preload" ] || apps_skip "sanitizer build but no sanitizer runtime found for $apps_cc"
    apps_preload=${apps_preload# }
    echo "sanitizer build: preloading $apps_preload"
fi

# apps_preload_works CMD...: whether CMD (a quick command such as
# "curl -V") runs with the sanitizer runtimes preloaded, within 3 s; always
# true outside the sanitizer build.
apps_preload_works() {
    [ -z "$apps_preload" ] ||
        timeout 3 env LD_PRELOAD="$apps_preload" ASAN_OPTIONS=detect_leaks=0 "$@" >/dev/null 2>&1
}

# apps_no_preload: drops the sanitizer runtimes from the environment (for a
# process that cannot take them and so runs without quill).
apps_no_preload() {
    unset LD_PRELOAD ASAN_OPTIONS
}

# plain.cnf: OpenSSL with its default provider only (certificates are made
# with it, and the control runs use it); quill.cnf: openssl.cnf.example,
# which activates quill beside the default provider.
cat >"$work/plain.cnf" <<'EOF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
[default_sect]
activate = 1
[req]
distinguished_name = dn
[dn]
EOF

# plain CMD...: CMD with the default provider only, no counters.
plain() {
    env -u QUILL_STATS OPENSSL_CONF="$work/plain.cnf" "$@"
}

# apps_make_certs: a test CA (RSA-2048, self-signed) and two server
# certificates it signs, for IP 127.0.0.1 and DNS localhost: rsa.crt
# (RSA-2048) and ec.crt (P-256), keys rsa.key and ec.key, in $work.
apps_make_certs() {
    local t
    cat >"$work/ca.ext" <<'EOF'
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
    cat >"$work/leaf.ext" <<'EOF'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
authorityKeyIdentifier = keyid
EOF
    printf '[req]\ndistinguished_name = dn\n[dn]\n[ca_ext]\n' >"$work/ca.cnf"
    cat "$work/ca.ext" >>"$work/ca.cnf"
    plain openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.crt" \
        -subj "/CN=quill test CA" -days 2 -sha256 -config "$work/ca.cnf" -extensions ca_ext \
        >"$work/certs.log" 2>&1 || { cat "$work/certs.log" >&2; return 1; }
    plain openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/rsa.key" \
        >>"$work/certs.log" 2>&1 || { cat "$work/certs.log" >&2; return 1; }
    plain openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/ec.key" \
        >>"$work/certs.log" 2>&1 || { cat "$work/certs.log" >&2; return 1; }
    for t in rsa ec; do
        if ! plain openssl req -new -key "$work/$t.key" -subj "/CN=localhost" -out "$work/$t.csr" \
            >>"$work/certs.log" 2>&1 ||
            ! plain openssl x509 -req -in "$work/$t.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" \
                -CAcreateserial -days 2 -sha256 -extfile "$work/leaf.ext" -out "$work/$t.crt" \
                >>"$work/certs.log" 2>&1 ||
            ! plain openssl verify -CAfile "$work/ca.crt" "$work/$t.crt" >>"$work/certs.log" 2>&1; then
            cat "$work/certs.log" >&2
            return 1
        fi
    done
    chmod 644 "$work"/*.crt
}

# ---- Counters ----

# quill_stats_init LOC: makes the counter location LOC, empty, writable by
# every user (nginx's workers run as nobody when the test runs as root).
quill_stats_init() {
    : >"$1" && chmod 666 "$1"
}

# quill_stats_env on|off LOC: exports the environment that makes the
# processes started from this shell (use a subshell) count into LOC.  on:
# quill active through openssl.cnf.example; off: the control, the same
# environment with the default provider's configuration only (quill.so still
# findable, so only the configuration differs).  In the sanitizer build it
# also preloads the sanitizer runtimes.
quill_stats_env() {
    if [ "$1" = on ]; then
        export OPENSSL_CONF="$QUILL_SOURCE_DIR/openssl.cnf.example"
    else
        export OPENSSL_CONF="$work/plain.cnf"
    fi
    export OPENSSL_MODULES="$QUILL_BUILD_DIR"
    export QUILL_STATS="$2"
    if [ -n "$apps_preload" ]; then
        export LD_PRELOAD="$apps_preload"
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    fi
}

# quill_nginx_env: the lines nginx.conf needs so that its workers (whose
# environment nginx clears) keep quill's configuration and counters.
quill_nginx_env() {
    echo "env OPENSSL_CONF;"
    echo "env OPENSSL_MODULES;"
    echo "env QUILL_STATS;"
}

# quill_reports LOC: how many process reports LOC holds (a process that never
# loaded quill reports nothing); "malformed" if any line is not a report.
quill_reports() {
    [ -s "$1" ] || { echo 0; return; }
    awk '!/^pid=[0-9]+( [a-z0-9-]+=[0-9]+)+$/ { bad = 1 } END { if (bad) print "malformed"; else print NR }' "$1"
}

# quill_count LOC NAME: counter NAME (rsa-sign, ecdsa-verify, ...) summed
# over LOC; "malformed" if any line is not a report.
quill_count() {
    [ -s "$1" ] || { echo 0; return; }
    awk -v key="$2" '
        !/^pid=[0-9]+( [a-z0-9-]+=[0-9]+)+$/ { bad = 1 }
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) s += kv[2] } }
        END { if (bad) print "malformed"; else print s + 0 }' "$1"
}

# quill_show LOC: the reports, for the log.
quill_show() {
    [ -s "$1" ] && sed 's/^/    /' "$1"
    return 0
}
