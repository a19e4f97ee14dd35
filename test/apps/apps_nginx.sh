# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# apps_nginx: Debian's nginx serving HTTPS on loopback to Debian's curl,
# quill active on both sides through openssl.cnf.example (test/apps.cmake).
#
# One nginx (master and two workers, its own prefix, config, logs and pid
# file in a temporary directory) listens on two ports of 127.0.0.1: one with
# an RSA-2048 certificate, one with a P-256 certificate, both signed by a
# test RSA-2048 CA.  curl fetches a page from each with TLS 1.3 and with
# TLS 1.2 (ECDHE-RSA / ECDHE-ECDSA suites, so the server signs), verifying
# the chain against the test CA.  nginx's access log shows the protocol and
# suite of each request.  After a graceful stop (SIGQUIT: the workers exit
# and report), quill's counters must show exactly one signature by nginx per
# handshake, on the certificate's algorithm, and curl's verifications of the
# certificate (RSA, by the CA) and of the handshake signature.  A control run
# with the default provider's configuration on both sides must serve the
# same pages and leave no report at all (the counter check can fail).
#
# Skipped (77) without nginx, curl built on OpenSSL, or openssl.
# shellcheck shell=bash disable=SC2034
APPS_NAME=nginx
# shellcheck source=test/apps/apps_lib.sh
. "$(dirname "$0")/apps_lib.sh"

NGINX=${NGINX:-/usr/sbin/nginx}
[ -x "$NGINX" ] || apps_skip "nginx not found ($NGINX; Debian: apt-get install nginx-light)"
"$NGINX" -V 2>&1 | grep -q -- --with-http_ssl_module || apps_skip "$NGINX has no http_ssl_module"
apps_need_cmd curl openssl
curl -V 2>/dev/null | head -n1 | grep -q 'OpenSSL/3' || apps_skip "curl is not built on OpenSSL 3 ($(curl -V | head -n1))"

# In the sanitizer build quill.so needs the sanitizer runtimes preloaded;
# Debian 12's curl hangs at start with libasan preloaded (in setlocale, on
# glibc's locale lock, before it loads OpenSSL), so there curl runs on
# OpenSSL's default provider and only nginx's side is checked (the release
# build checks both, and apps_python checks a client under the sanitizers).
curl_quill=1
if ! apps_preload_works curl -V; then
    echo "sanitizer build: curl does not start with the sanitizer runtimes preloaded;" \
        "curl runs without quill, only nginx's counters are checked"
    curl_quill=0
fi

REQUESTS=2 # per port and protocol version
TLS12_RSA=ECDHE-RSA-AES128-GCM-SHA256
TLS12_EC=ECDHE-ECDSA-AES128-GCM-SHA256

apps_make_certs || { bad "making the test certificates"; exit 1; }
chmod 711 "$work" # nginx's workers run as nobody when we are root
mkdir -p "$work/nginx/html"
echo "quill apps test" >"$work/nginx/html/index.html"
chmod -R a+rX "$work/nginx"

# write_conf PORT_RSA PORT_EC
write_conf() {
    local user="" n=$work/nginx
    [ "$(id -u)" -eq 0 ] && user="user nobody nogroup;"
    cat >"$n/nginx.conf" <<EOF
$user
daemon off;
master_process on;
worker_processes 2;
pid $n/nginx.pid;
error_log $n/error.log notice;
events { worker_connections 64; }
http {
    log_format apps '\$server_port \$ssl_protocol \$ssl_cipher \$status';
    access_log $n/access.log apps;
    client_body_temp_path $n/body;
    proxy_temp_path $n/proxy;
    fastcgi_temp_path $n/fastcgi;
    uwsgi_temp_path $n/uwsgi;
    scgi_temp_path $n/scgi;
    default_type text/plain;
    root $n/html;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_ciphers $TLS12_RSA:$TLS12_EC;
    ssl_session_cache off;
    ssl_session_tickets off;
    server {
        listen 127.0.0.1:$1 ssl;
        ssl_certificate $work/rsa.crt;
        ssl_certificate_key $work/rsa.key;
    }
    server {
        listen 127.0.0.1:$2 ssl;
        ssl_certificate $work/ec.crt;
        ssl_certificate_key $work/ec.key;
    }
}
EOF
}

# start_nginx on|off LOC: starts nginx in the foreground of a background
# job ($nginx_pid is the master), on two free ports ($port_rsa, $port_ec):
# random ports, tried again on "Address already in use" (up to 8 times).
# Ready once the pid file exists (written after the sockets are bound).
# (nginx itself tries a taken port 5 times, 0.5 s apart, before it exits.)
start_nginx() {
    local tries=0 i
    while [ "$tries" -lt 8 ]; do
        tries=$((tries + 1))
        port_rsa=$((20000 + RANDOM % 40000))
        port_ec=$((port_rsa + 1))
        write_conf "$port_rsa" "$port_ec"
        rm -f "$work/nginx/nginx.pid" "$work/nginx/error.log"
        quill_stats_init "$2" # a master that failed to bind has reported
        (
            quill_stats_env "$1" "$2"
            exec "$NGINX" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log"
        ) </dev/null >"$work/nginx/stdout.log" 2>&1 &
        nginx_pid=$!
        apps_track "$nginx_pid"
        i=0
        while [ "$i" -lt 100 ]; do
            if [ -s "$work/nginx/nginx.pid" ]; then
                return 0
            fi
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
            i=$((i + 1))
        done
        apps_wait "$nginx_pid" QUIT
        if grep -q "Address already in use" "$work/nginx/error.log" 2>/dev/null; then
            continue
        fi
        break
    done
    echo "nginx did not start:" >&2
    cat "$work/nginx/error.log" "$work/nginx/stdout.log" >&2 2>/dev/null
    return 1
}

# stop_nginx: graceful stop (SIGQUIT), waited for; the workers report on exit.
stop_nginx() {
    local status=0
    apps_wait "$nginx_pid" QUIT || status=$?
    check "nginx stopped gracefully, exit status" 0 "$status"
}

# fetch on|off LOC 1.2|1.3 rsa|ec: one curl request, checked.
fetch() {
    local port=$port_rsa suite=$TLS12_RSA
    if [ "$4" = ec ]; then
        port=$port_ec
        suite=$TLS12_EC
    fi
    set -- "$1" "$2" "$3" "$4" --tlsv"$3" --tls-max "$3"
    [ "$3" = 1.2 ] && set -- "$@" --ciphers "$suite"
    rm -f "$work/body"
    if (
        if [ "$curl_quill" = 1 ]; then
            quill_stats_env "$1" "$2"
        else
            quill_stats_env off "$2"
            apps_no_preload
        fi
        shift 4
        exec curl -q -sS --fail --noproxy '*' --connect-timeout 5 --max-time 10 \
            --cacert "$work/ca.crt" "$@" -o "$work/body" "https://127.0.0.1:$port/index.html"
    ) </dev/null 2>"$work/curl.err" && [ "$(cat "$work/body")" = "quill apps test" ]; then
        ok
    else
        bad "curl TLS $3 $4 (quill $1): $(cat "$work/curl.err")"
    fi
}

# run_phase on|off SERVER_LOC CLIENT_LOC
run_phase() {
    local key v r port suite12
    quill_stats_init "$3"
    : >"$work/nginx/access.log" 2>/dev/null
    start_nginx "$1" "$2" || { bad "starting nginx (quill $1)"; return 1; }
    for key in rsa ec; do
        for v in 1.3 1.2; do
            r=0
            while [ "$r" -lt "$REQUESTS" ]; do
                fetch "$1" "$3" "$v" "$key"
                r=$((r + 1))
            done
        done
    done
    if [ "$1" = on ]; then
        # live: the workers' counts are there while nginx still runs (the
        # master and its two workers, each with a file of its own)
        check "live, nginx running: rsa-sign" "$((2 * REQUESTS))" "$(quill_count "$2" rsa-sign)"
        check "live, nginx running: ecdsa-sign" "$((2 * REQUESTS))" "$(quill_count "$2" ecdsa-sign)"
        check "live, nginx running: live processes" 3 "$(quill_live "$2")"
    fi
    stop_nginx
    # nothing went wrong in nginx: no alert or worse in its error log (a
    # worker that crashed: "worker process N exited on signal S"), no
    # sanitizer report (nginx sends its stderr to the error log too), and
    # nothing on the stderr it had before
    if grep '\[\(alert\|crit\|emerg\)\]\|Sanitizer\|runtime error' "$work/nginx/error.log" >&2; then
        bad "quill $1: nginx's error log has the errors above"
    else
        ok
    fi
    check "quill $1: nginx stderr bytes" 0 "$(wc -c <"$work/nginx/stdout.log")"
    # the access log: one line per request, protocol and suite as asked
    for key in rsa ec; do
        port=$port_rsa
        suite12=$TLS12_RSA
        if [ "$key" = ec ]; then
            port=$port_ec
            suite12=$TLS12_EC
        fi
        check "quill $1: $key TLS 1.3 requests logged" "$REQUESTS" \
            "$(grep -c "^$port TLSv1.3 TLS_[A-Z0-9_]* 200\$" "$work/nginx/access.log")"
        check "quill $1: $key TLS 1.2 $suite12 requests logged" "$REQUESTS" \
            "$(grep -c "^$port TLSv1.2 $suite12 200\$" "$work/nginx/access.log")"
    done
}

srv=$work/stats-nginx
cli=$work/stats-curl
hs=$((2 * REQUESTS)) # handshakes per certificate

if [ "$curl_quill" = 1 ]; then
    echo "== quill active in nginx and curl"
else
    echo "== quill active in nginx"
fi
run_phase on "$srv" "$cli"
echo "nginx reports:"
quill_show "$srv"
echo "curl reports:"
quill_show "$cli"
# nginx: the master and its two workers report (the master loaded quill).
check "nginx: processes reporting" 3 "$(quill_reports "$srv")"
check "nginx: rsa-sign (one per RSA handshake)" "$hs" "$(quill_count "$srv" rsa-sign)"
check "nginx: ecdsa-sign (one per P-256 handshake)" "$hs" "$(quill_count "$srv" ecdsa-sign)"
check "nginx: rsa-verify" 0 "$(quill_count "$srv" rsa-verify)"
check "nginx: ecdsa-verify" 0 "$(quill_count "$srv" ecdsa-verify)"
# curl: one process per request; each verifies the certificate's signature
# (RSA, by the CA) and the handshake signature (the certificate's key).
if [ "$curl_quill" = 1 ]; then
    check "curl: processes reporting" $((2 * hs)) "$(quill_reports "$cli")"
    check "curl: rsa-verify (2 per RSA handshake, 1 per P-256 one)" $((3 * hs)) "$(quill_count "$cli" rsa-verify)"
    check "curl: ecdsa-verify (1 per P-256 handshake)" "$hs" "$(quill_count "$cli" ecdsa-verify)"
    check "curl: rsa-sign" 0 "$(quill_count "$cli" rsa-sign)"
    check "curl: ecdsa-sign" 0 "$(quill_count "$cli" ecdsa-sign)"
else
    check "curl (without quill): reports" 0 "$(quill_reports "$cli")"
fi

echo "== control: the default provider's configuration on both sides"
run_phase off "$srv" "$cli"
check "control: nginx reports" 0 "$(quill_reports "$srv")"
check "control: curl reports" 0 "$(quill_reports "$cli")"

apps_finish
