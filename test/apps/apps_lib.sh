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
# (none are needed in nginx.conf).  A counter location ("LOC") is a live
# statistics directory (provider/stats_file.h).
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
# shellcheck source=../common/sanitizer_preload.sh
. "$QUILL_SOURCE_DIR/test/common/sanitizer_preload.sh"
quill_sanitizer_preload || apps_skip "sanitizer build but no sanitizer runtime found for ${QUILL_CC:-gcc}"
apps_preload=$QUILL_PRELOAD
[ -z "$apps_preload" ] || echo "sanitizer build: preloading $apps_preload"

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
#
# quill's live counters: a counter location LOC is a statistics directory,
# named by the `stats` setting in a copy of openssl.cnf.example made for it
# (LOC.cnf), so the processes need no environment of quill's own (nginx's
# workers get nothing from nginx.conf).  Each process that loads quill keeps
# one memory-mapped file there, a forked child (a worker) a file of its own;
# quill-info --stats reads them.

# quill_stats_init LOC: makes LOC, an empty statistics directory, and its
# configuration LOC.cnf.
quill_stats_init() {
    rm -rf "$1" && mkdir -m 0755 "$1" || return 1
    sed "/^\[quill_sect\]/a stats = $1" \
        "$QUILL_SOURCE_DIR/openssl.cnf.example" >"$1.cnf"
    grep -q "^stats = $1\$" "$1.cnf"
}

# quill_stats_env on|off LOC: exports the environment that makes the
# processes started from this shell (use a subshell) count into LOC.  on:
# quill active through LOC.cnf (openssl.cnf.example with the stats setting);
# off: the control, the default provider's configuration only (quill.so
# still findable, so only the configuration differs).  In the sanitizer
# build it also preloads the sanitizer runtimes.
quill_stats_env() {
    if [ "$1" = on ]; then
        export OPENSSL_CONF="$2.cnf"
    else
        export OPENSSL_CONF="$work/plain.cnf"
    fi
    export OPENSSL_MODULES="$QUILL_BUILD_DIR"
    unset QUILL_STATS
    if [ -n "$apps_preload" ]; then
        export LD_PRELOAD="$apps_preload"
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    fi
}

# quill_info_stats LOC: quill-info --stats LOC, "" if LOC holds no file
# (quill-info's status 2), "malformed" on any other failure.
quill_info_stats() {
    local out status
    out=$("$QUILL_BUILD_DIR/quill-info" --stats "$1" 2>"$work/quill-info.err")
    status=$?
    case $status in
    0) echo "$out" ;;
    2) ;;
    *) echo malformed; sed 's/^/    /' "$work/quill-info.err" >&2 ;;
    esac
}

# quill_stats_field LOC SED: what the sed script SED prints of quill-info
# --stats LOC; 0 if LOC holds no file, "malformed" if quill-info cannot
# read it.
quill_stats_field() {
    local out
    out=$(quill_info_stats "$1")
    case $out in
    "") echo 0 ;;
    malformed) echo malformed ;;
    *) echo "$out" | sed -n "$2" | head -n 1 ;;
    esac
}

# quill_reports LOC: how many processes kept a file in LOC (a process that
# never loaded quill keeps none).
quill_reports() {
    quill_stats_field "$1" 's/^quill stats in .*: \([0-9]*\) process.*/\1/p'
}

# quill_live LOC: how many of them are still running.
quill_live() {
    quill_stats_field "$1" 's/^quill stats in .*: [0-9]* process.* (\([0-9]*\) live.*/\1/p'
}

# quill_count LOC NAME: counter NAME (rsa-sign, ecdsa-verify, ...) summed
# over LOC's files.
quill_count() {
    quill_stats_field "$1" "s/^total.* $2=\([0-9]*\).*/\1/p"
}

# quill_show LOC: the files, one line per process, for the log.
quill_show() {
    "$QUILL_BUILD_DIR/quill-info" --stats "$1" --per-process 2>&1 | sed 's/^/    /'
    return 0
}
