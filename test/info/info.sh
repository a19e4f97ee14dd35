#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# quill-info against good and broken configurations (test/info.cmake).
#   $1  the case (below)     $2  quill-info     $3  quill.so
#   $4  the project version
# Environment: QUILL_SOURCE_DIR (openssl.cnf.example), QUILL_EMULATOR (empty
# or, in a cross build, what runs quill-info: test/CMakeLists.txt); OPENSSL_MODULES and
# OPENSSL_CONF are set here for each run.  Each case runs quill-info in a
# temporary directory and checks its exit status, its report and its
# stderr (one line, naming the problem); a crash (status >= 128) always
# fails.  Cases:
#   ok              the example configuration and the build's quill.so: exit
#                   0, quill active with the project version and this
#                   quill.so, each backend named (P-256's with "avx2", its
#                   divsteps kernel, exactly where ML-DSA runs AVX2 code),
#                   every signature served by quill, each one-shot test
#                   counted on quill; -v and --json agree; RSA on avx2 with
#                   AVX-512 masked (QUILL_CPU_MASK=0x30) where the native
#                   backend is avx512ifma or avx2, never with AVX2 masked
#                   too (0x34)
#   portable        QUILL_CPU_MASK=0xffffffff: every backend portable
#   buildinfo       openssl list -providers -verbose shows the same backends
#                   in quill's build info (skipped without openssl)
#   modules_empty   OPENSSL_MODULES an empty directory: module not found there
#   module_broken   OPENSSL_MODULES holding a quill.so that is no library
#   conf_missing    OPENSSL_CONF a relative name absent here, an absent
#                   file; a relative name present here works, with a warning
#   conf_noquill    a configuration with the default provider only
#   conf_notactive  quill's section without activate
#   conf_garbage    random bytes, NULs, a long line, a directory as config
#   diagnostics     config_diagnostics = 1: what OpenSSL rejects (a missing
#                   provider section) and what it does not (a missing module)
#   no_defaultprops quill active but no default_properties: RSA signatures
#                   go to the default provider
#   load            --load with a configuration that does not name quill
#   stats           two runs with QUILL_STATS=DIR, then --stats sums their
#                   files (and --per-process lists them); an empty directory
#                   fails with one line
#   options         --help, --version, bad options
# shellcheck disable=SC2086
set -u
case_name=${1:?usage: info.sh CASE QUILL_INFO QUILL_SO VERSION}
info=${2:?}
quill_so=${3:?}
version=${4:?}
: "${QUILL_SOURCE_DIR:?}"
example=$QUILL_SOURCE_DIR/openssl.cnf.example
build=$(dirname "$quill_so")
so_path=$(readlink -f "$quill_so")
# In a cross build quill-info runs under the emulator ($emu is split into
# words on purpose: SC2086 is off for the file).
emu=${QUILL_EMULATOR:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/quill-info.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1
failed=0
passed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# run CONF MODULES [args...]: quill-info with that configuration; status in
# $rc, report in out, stderr in err.
run() {
    conf=$1
    modules=$2
    shift 2
    env OPENSSL_CONF="$conf" OPENSSL_MODULES="$modules" $emu "$info" "$@" >out 2>err
    rc=$?
    if [ "$rc" -ge 128 ]; then
        bad "quill-info crashed (status $rc) with OPENSSL_CONF=$conf"
        cat out err >&2
    fi
}

# has PATTERN FILE DESC: a line of FILE matches the extended regex.
has() {
    if grep -Eq -- "$1" "$2"; then ok; else bad "$3: no line matching '$1' in $2"; sed 's/^/    /' "$2" >&2; fi
}

# fails_with PATTERN DESC: exit 1, stderr exactly one line starting with
# "quill-info: " and matching PATTERN.
fails_with() {
    if [ "$rc" -eq 1 ]; then ok; else bad "$2: exit status $rc, expected 1"; fi
    lines=$(wc -l < err)
    if [ "$lines" -eq 1 ]; then ok; else bad "$2: $lines lines on stderr, expected 1"; cat err >&2; fi
    has "^quill-info: .*$1" err "$2"
    echo "$2: $(cat err)"
}

# escape TEXT: TEXT as an extended regex matching itself.
escape() { printf '%s\n' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }

case $case_name in
ok)
    run "$example" "$build"
    [ "$rc" -eq 0 ] && ok || { bad "exit status $rc, expected 0"; cat out err >&2; }
    [ ! -s err ] && ok || bad "stderr not empty: $(cat err)"
    has "^config file +$(escape "$example") \(OPENSSL_CONF\), read$" out "config file"
    has "^config names quill +yes: quill = quill_sect in \[provider_sect\], activate = 1" out "names quill"
    has "^quill +active, version $(escape "$version") \(provider \"quill\"\)$" out "active"
    has "^module +$(escape "$so_path")$" out "module path"
    has "^backends +rsa=[a-z0-9_]+ ecdsa-p256=(adx\+avx2|adx|avx2|arm64_neon|arm64|portable) mldsa=[a-z0-9_]+ keccak=[a-z0-9_+-]+$" out "backends"
    # P-256's AVX2 divsteps kernel (core/ec/p256_inv_avx2.c) is named
    # exactly where ML-DSA's AVX2 code runs (both need only AVX2)
    if grep -Eq '^backends .* mldsa=(avx2|avx512vl) ' out; then
        has "^backends +.* ecdsa-p256=(adx\+)?avx2 " out "ecdsa-p256 names the AVX2 inversion"
    else
        has "^backends +.* ecdsa-p256=(adx|arm64_neon|arm64|portable) " out "ecdsa-p256 without AVX2"
    fi
    has "^RSA \(PKCS#1, PSS\) +signatures quill," out "RSA served"
    has "^ECDSA P-256 +signatures quill," out "ECDSA served"
    for set in 44 65 87; do
        has "^ML-DSA-$set +signatures quill, key generation quill$" out "ML-DSA-$set served"
    done
    has "^RSA-2048 PKCS#1 v1.5 +ok: signed and verified by quill \(rsa-sign \+1, rsa-verify \+1\)$" out "RSA PKCS#1 test"
    has "^RSA-2048 PSS +ok: signed and verified by quill \(rsa-sign \+1, rsa-verify \+1\)$" out "RSA PSS test"
    has "^ECDSA P-256 +ok: signed and verified by quill \(ecdsa-sign \+1, ecdsa-verify \+1\)$" out "ECDSA test"
    has "^stats +off$" out "stats off"
    has "^ML-DSA-65 +ok: signed and verified by quill \(mldsa-sign \+1, mldsa-verify \+1\)$" out "ML-DSA test"
    has "^result +ok:" out "result"
    cp out plain.txt
    # RSA-2048's halves at the AVX2 level (QUILL_CPU_MASK=0x30: no AVX-512)
    # run on the radix-2^28 AVX2 kernels wherever the native build picked
    # them or IFMA (both need AVX2), and never once AVX2 is masked too.
    rsa_native=$(sed -n 's/^backends  *rsa=\([a-z0-9_]*\) .*/\1/p' plain.txt)
    export QUILL_CPU_MASK=0x30
    run "$example" "$build"
    rsa_avx2=$(sed -n 's/^backends  *rsa=\([a-z0-9_]*\) .*/\1/p' out)
    export QUILL_CPU_MASK=0x34
    run "$example" "$build"
    unset QUILL_CPU_MASK
    rsa_noavx2=$(sed -n 's/^backends  *rsa=\([a-z0-9_]*\) .*/\1/p' out)
    case $rsa_native in
    avx512ifma | avx2) [ "$rsa_avx2" = avx2 ] && ok || bad "QUILL_CPU_MASK=0x30: rsa=$rsa_avx2, expected avx2" ;;
    *) [ "$rsa_avx2" = "$rsa_native" ] && ok || bad "QUILL_CPU_MASK=0x30: rsa=$rsa_avx2, native $rsa_native" ;;
    esac
    case $rsa_native in
    avx512ifma | avx2 | adx | x86_64)
        case $rsa_noavx2 in
        adx | x86_64 | portable) ok ;;
        *) bad "QUILL_CPU_MASK=0x34: rsa=$rsa_noavx2, expected adx, x86_64 or portable" ;;
        esac
        ;;
    *) # not x86-64 (arm64) or portable: the x86 mask bits change nothing
        [ "$rsa_noavx2" = "$rsa_native" ] && ok || bad "QUILL_CPU_MASK=0x34: rsa=$rsa_noavx2, native $rsa_native" ;;
    esac
    run "$example" "$build" -v
    [ "$rc" -eq 0 ] && ok || bad "-v: exit status $rc"
    has "^buildinfo +quill $(escape "$version") .* backends: " out "-v buildinfo"
    has "^active providers +default quill$" out "-v providers"
    run "$example" "$build" --json
    [ "$rc" -eq 0 ] && ok || bad "--json: exit status $rc"
    has '^  "ok": true,$' out "--json ok"
    has "^  \"module\": \"$(escape "$so_path")\",$" out "--json module"
    if command -v python3 >/dev/null 2>&1; then
        if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(0 if d["ok"] and d["quill"].startswith("active") else 1)'; then
            ok
        else
            bad "--json is not valid JSON or says otherwise"; cat out >&2
        fi
    fi
    ;;
portable)
    export QUILL_CPU_MASK=0xffffffff
    run "$example" "$build"
    unset QUILL_CPU_MASK
    [ "$rc" -eq 0 ] && ok || { bad "exit status $rc"; cat err >&2; }
    has "^backends +rsa=portable ecdsa-p256=portable mldsa=portable keccak=portable$" out "portable backends"
    has "^ML-DSA-65 +ok: signed and verified by quill" out "portable ML-DSA test"
    grep '^backends' out
    ;;
buildinfo)
    command -v openssl >/dev/null 2>&1 || { echo "no openssl binary: skipped"; exit 77; }
    run "$example" "$build"
    backends=$(sed -n 's/^backends  *//p' out)
    [ -n "$backends" ] && ok || bad "quill-info printed no backends"
    # the sanitizer build's quill.so in a program built without them
    . "$QUILL_SOURCE_DIR/test/common/sanitizer_preload.sh"
    quill_sanitizer_preload || { bad "sanitizer build but no sanitizer runtime to preload"; QUILL_PRELOAD=""; }
    env OPENSSL_CONF="$example" OPENSSL_MODULES="$build" ASAN_OPTIONS=detect_leaks=0 \
        LD_PRELOAD="$QUILL_PRELOAD" openssl list -providers -verbose >list.txt 2>&1
    has "build info: quill $(escape "$version") .*backends: $(escape "$backends")$" list.txt "openssl list buildinfo"
    has "quill-backends: pointer to a UTF8 encoded string" list.txt "gettable quill-backends"
    has "quill-module-path: pointer to a UTF8 encoded string" list.txt "gettable quill-module-path"
    grep 'build info: quill' list.txt
    ;;
modules_empty)
    mkdir empty
    run "$example" "$work/empty"
    fails_with "names quill but it is not loaded: module quill\.so not found in $(escape "$work/empty") \(OPENSSL_MODULES\)$" "empty OPENSSL_MODULES"
    has "^quill +NOT ACTIVE" out "not active"
    ;;
module_broken)
    mkdir mods
    printf 'not a shared object\n' > mods/quill.so
    run "$example" "$work/mods"
    fails_with "names quill but it is not loaded: $(escape "$work/mods/quill.so"): could not load the shared library" "broken quill.so"
    ;;
conf_missing)
    run ./openssl.cnf.example "$build"
    fails_with "config file \./openssl\.cnf\.example \(OPENSSL_CONF\) not found \(a relative OPENSSL_CONF is relative to the current directory, $(escape "$work")\)$" "relative OPENSSL_CONF"
    run "$work/absent.cnf" "$build"
    fails_with "config file $(escape "$work/absent.cnf") \(OPENSSL_CONF\): not found$" "absent OPENSSL_CONF"
    cp "$example" ./openssl.cnf.example
    run ./openssl.cnf.example "$build"
    [ "$rc" -eq 0 ] && ok || bad "relative OPENSSL_CONF present here: exit status $rc"
    has "^config file +\./openssl\.cnf\.example \(OPENSSL_CONF\), read \(relative: programs started in another directory will not find it\)$" out "relative OPENSSL_CONF warning"
    ;;
conf_noquill)
    printf 'openssl_conf = init\n[init]\nproviders = provs\n[provs]\ndefault = dflt\n[dflt]\nactivate = 1\n' > noquill.cnf
    run "$work/noquill.cnf" "$build"
    fails_with "noquill\.cnf does not name quill: add its provider section .*openssl\.cnf\.example" "no quill"
    has "^config names quill +no: \[provs\] names only default$" out "names only default"
    printf '# nothing\n' > empty.cnf
    run "$work/empty.cnf" "$build"
    fails_with "does not name quill" "empty config"
    has "^config names quill +no: the file has no openssl_conf section" out "no openssl_conf"
    ;;
conf_notactive)
    grep -v '^activate' "$example" > notactive.cnf
    run "$work/notactive.cnf" "$build"
    fails_with "names quill \(\[quill_sect\]\) but does not activate it: add activate = 1$" "not activated"
    ;;
conf_garbage)
    head -c 4096 /dev/urandom > random.cnf
    run "$work/random.cnf" "$build"
    fails_with "config file $(escape "$work/random.cnf") \(OPENSSL_CONF\)" "random bytes"
    printf 'openssl_conf = init\000\000\n[init]\nproviders = \000\n' > nul.cnf
    run "$work/nul.cnf" "$build"
    [ "$rc" -eq 1 ] && ok || bad "NULs: exit status $rc"
    [ "$(wc -l < err)" -eq 1 ] && ok || bad "NULs: not one line on stderr"
    awk 'BEGIN { printf "openssl_conf = "; for (i = 0; i < 200000; i++) printf "x"; print "" }' > long.cnf
    run "$work/long.cnf" "$build"
    fails_with "does not name quill" "a 200000-byte line"
    printf 'openssl_conf = init\n[init]\nproviders = provs\n[provs]\nquill = nosuchsection\n' > dangling.cnf
    run "$work/dangling.cnf" "$build"
    fails_with "names quill \(quill = nosuchsection in \[provs\]\) but has no section \[nosuchsection\]$" "dangling section"
    mkdir adir
    run "$work/adir" "$build"
    fails_with "config file $(escape "$work/adir") \(OPENSSL_CONF\) is a directory$" "a directory"
    ;;
diagnostics)
    # config_diagnostics = 1 (default section) makes OpenSSL reject a
    # provider entry without its section; a missing module stays silent to
    # OpenSSL 3.0, so quill-info names it.
    printf 'config_diagnostics = 1\nopenssl_conf = init\n[init]\nproviders = provs\n[provs]\ndefault = dflt\nquill = nosuchsection\n[dflt]\nactivate = 1\n' > dangling.cnf
    run "$work/dangling.cnf" "$build"
    fails_with "OpenSSL rejects $(escape "$work/dangling.cnf") \(config_diagnostics = 1\): .*section=nosuchsection not found" "config_diagnostics, dangling section"
    { echo 'config_diagnostics = 1'; cat "$example"; } > diag.cnf
    mkdir empty
    run "$work/diag.cnf" "$work/empty"
    fails_with "names quill but it is not loaded: module quill\.so not found in $(escape "$work/empty") \(OPENSSL_MODULES\)$" "config_diagnostics, empty OPENSSL_MODULES"
    ;;
no_defaultprops)
    grep -v '^default_properties' "$example" > noprops.cnf
    run "$work/noprops.cnf" "$build"
    fails_with "quill is active but RSA signatures go to the default provider: the configuration sets no default_properties" "no default_properties"
    ;;
load)
    printf 'openssl_conf = init\n[init]\nproviders = provs\n[provs]\ndefault = dflt\n[dflt]\nactivate = 1\n' > noquill.cnf
    run "$work/noquill.cnf" "$build" --load
    [ "$rc" -eq 0 ] && ok || { bad "--load: exit status $rc"; cat out err >&2; }
    has "^quill +active \(loaded by --load, not by the configuration\)" out "--load active"
    has "^ML-DSA-65 +ok: signed and verified by quill" out "--load ML-DSA test"
    mkdir empty
    run "$work/noquill.cnf" "$work/empty" --load
    fails_with "--load: quill could not be loaded" "--load, no module"
    ;;
stats)
    # Two quill-info runs sign with a statistics directory (QUILL_STATS=DIR);
    # quill-info --stats then sums the files of both exited processes.
    mkdir stats
    for i in 1 2; do
        env QUILL_STATS="$work/stats" OPENSSL_CONF="$example" OPENSSL_MODULES="$build" \
            $emu "$info" >out 2>err
        rc=$?
        [ "$rc" -eq 0 ] && ok || { bad "run $i with QUILL_STATS=DIR: exit status $rc"; cat out err >&2; }
        has "^stats +live: $(escape "$work/stats")" out "run $i: stats state"
    done
    $emu "$info" --stats "$work/stats" >out 2>err; rc=$?
    [ "$rc" -eq 0 ] && ok || { bad "--stats: exit status $rc"; cat out err >&2; }
    has "^quill stats in .*: 2 processes \(0 live, 2 exited\)" out "--stats processes"
    # Each run signed and verified RSA twice (PKCS#1, PSS), ECDSA and ML-DSA once.
    has "^total rsa-sign=4 rsa-verify=4 .*ecdsa-sign=2 ecdsa-verify=2 .*mldsa-sign=2 mldsa-verify=2" out "--stats totals"
    $emu "$info" --stats "$work/stats" --per-process >out 2>err; rc=$?
    [ "$rc" -eq 0 ] && ok || bad "--stats --per-process: exit status $rc"
    [ "$(grep -c '^pid=[0-9]* exited ' out)" -eq 2 ] && ok || { bad "--per-process: not two exited processes"; cat out >&2; }
    mkdir nostats
    $emu "$info" --stats "$work/nostats" >out 2>err; rc=$?
    [ "$rc" -eq 2 ] && ok || bad "--stats on an empty directory: exit status $rc, expected 2"
    [ "$(wc -l < err)" -eq 1 ] && ok || { bad "--stats on an empty directory: not one line"; cat err >&2; }
    has "^quill-info: no quill stats files in " err "--stats on an empty directory"
    ;;
options)
    $emu "$info" --help >out 2>err; rc=$?
    [ "$rc" -eq 0 ] && ok || bad "--help: exit status $rc"
    has "^usage: quill-info" out "--help usage"
    $emu "$info" --version >out 2>err; rc=$?
    [ "$rc" -eq 0 ] && ok || bad "--version: exit status $rc"
    has "^quill-info $(escape "$version")$" out "--version"
    $emu "$info" --frobnicate >out 2>err; rc=$?
    [ "$rc" -eq 2 ] && ok || bad "unknown option: exit status $rc, expected 2"
    [ "$(wc -l < err)" -eq 1 ] && ok || bad "unknown option: not one line"
    $emu "$info" --stats >out 2>err; rc=$?
    [ "$rc" -eq 2 ] && ok || bad "--stats without a directory: exit status $rc, expected 2"
    $emu "$info" --per-process >out 2>err; rc=$?
    [ "$rc" -eq 2 ] && ok || bad "--per-process alone: exit status $rc, expected 2"
    ;;
*)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac

echo "$case_name: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
