#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_smoke_level: quill-speed --level (bench/speed_level.c).
#   $1  the quill-speed executable
#   $2  where to write the JSON files
#   $3  the target processor (CMAKE_SYSTEM_PROCESSOR)
# On x86-64: `--level avx2`, `bmi2` and `x86_64` each run one short round
# under --require-quill; their JSON names the level and both masks
# (QUILL_CPU_MASK 0x30 / 0x32 / 0x3f, OPENSSL_ia32cap :~0xD0230000 /
# :~0xD02B0000 / :~0xD02B0128) and quill's backends at that level: no
# AVX-512 one at avx2 (RSA on adx, ML-DSA on avx2 and Keccak on avx2+bmi1
# where the native run used those or better), no ADX one at bmi2 (RSA on
# x86_64, P-256 portable), the x86-64 scalar RSA and portable others at
# x86_64; without
# --level the JSON says native with no mask, and "differs_from_native" is
# true exactly when /proc/cpuinfo lists an AVX-512 feature the avx2 level
# masks.  On every architecture: an unknown level, a level refused because
# the environment has other masks, and a re-execution that lost its masks
# (QUILL_SPEED_LEVEL set, no mask) each exit 2 with one line on stderr and
# nothing on stdout; on aarch64 `--level avx2` is such a refusal.
# QUILL_EMULATOR (empty, or in a cross build what runs quill-speed: see the
# top-level CMakeLists.txt) is split into words on purpose.
# shellcheck disable=SC2086
set -u
bin=$1
dir=$2
arch=$3
unset QUILL_CPU_MASK OPENSSL_ia32cap QUILL_SPEED_LEVEL
run() { ${QUILL_EMULATOR:-} "$bin" --rounds 1 --seconds 0.05 "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# usage_error WHAT ARGS...: exit 2, one line on stderr, empty stdout.
usage_error() {
    what=$1
    shift
    run "$@" >"$dir/level_out.txt" 2>"$dir/level_err.txt"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2"
    [ ! -s "$dir/level_out.txt" ] || fail "$what: printed on stdout"
    n=$(wc -l <"$dir/level_err.txt")
    [ "$n" -eq 1 ] || fail "$what: $n lines on stderr, not 1: $(cat "$dir/level_err.txt")"
    echo "  $what: $(cat "$dir/level_err.txt")"
}

# backend JSON NAME: quill's backend NAME (rsa, ecdsa-p256, mldsa, keccak).
backend() {
    sed -n 's/.*"quill_backends": "\([^"]*\)".*/\1/p' "$1" | tr ' ' '\n' |
        sed -n "s/^$2=//p"
}

usage_error "unknown level" --level no-such-level rsa2048-verify
QUILL_CPU_MASK=0x10 usage_error "level against a user mask" --level native rsa2048-verify

case $arch in
x86_64 | AMD64 | amd64) ;;
*)
    usage_error "avx2 on $arch" --level avx2 rsa2048-verify
    grep -q 'x86-64 level' "$dir/level_err.txt" || fail "the refusal does not say x86-64"
    echo "ok: --level refuses unknown names, conflicting masks and x86-64 levels on $arch"
    exit 0
    ;;
esac

QUILL_CPU_MASK=0x10 usage_error "avx2 against a user mask" --level avx2 rsa2048-verify
OPENSSL_ia32cap=":~0x20" usage_error "avx2 against a user ia32cap" --level avx2 rsa2048-verify
QUILL_SPEED_LEVEL=avx2 usage_error "re-execution without masks" --level avx2 rsa2048-verify

# Native (no --level): no mask, and the backends the others are held to.
native=$dir/bench_smoke_level_native.json
run --require-quill --json="$native" rsa2048-verify || fail "quill-speed (native) exited $?"
grep -q '"level": {"name": "native", "quill_cpu_mask": null, "openssl_ia32cap": null, "differs_from_native": false}' \
    "$native" || fail "$native: no native level without masks"

avx2=$dir/bench_smoke_level_avx2.json
run --level avx2 --require-quill --json="$avx2" rsa2048-sign ||
    fail "quill-speed --level avx2 --require-quill rsa2048-sign exited $?"
grep -q '"level": {"name": "avx2", "quill_cpu_mask": "0x30", "openssl_ia32cap": ":~0xD0230000", "differs_from_native": \(true\|false\)}' \
    "$avx2" || fail "$avx2: the avx2 level and its masks are not reported"
grep -q '"quill_backends": "rsa=' "$avx2" || fail "$avx2: no quill_backends"
! grep '"quill_backends"' "$avx2" | grep -q avx512 || fail "$avx2: an AVX-512 backend at avx2"
case $(backend "$native" rsa) in
avx512ifma | avx2) [ "$(backend "$avx2" rsa)" = avx2 ] || fail "$avx2: RSA not on avx2" ;;
esac
case $(backend "$native" mldsa) in
avx512vl | avx2) [ "$(backend "$avx2" mldsa)" = avx2 ] || fail "$avx2: ML-DSA not on avx2" ;;
esac
case $(backend "$native" keccak) in
avx512vl | avx2+bmi1) [ "$(backend "$avx2" keccak)" = avx2+bmi1 ] ||
    fail "$avx2: Keccak not on avx2+bmi1" ;;
esac
# The AVX-512 features of OpenSSL's mask, as /proc/cpuinfo spells them
# (only meaningful when quill-speed runs on this CPU, not under an emulator).
if [ -z "${QUILL_EMULATOR:-}" ] && [ -r /proc/cpuinfo ]; then
    if grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
        grep -qxE 'avx512(f|dq|ifma|cd|bw|vl)'; then
        want=true
    else
        want=false
    fi
    grep -q "\"differs_from_native\": $want}" "$avx2" ||
        fail "$avx2: differs_from_native is not $want"
fi

bmi2=$dir/bench_smoke_level_bmi2.json
run --level bmi2 --require-quill --json="$bmi2" ecdsa-p256-verify ||
    fail "quill-speed --level bmi2 exited $?"
grep -q '"level": {"name": "bmi2", "quill_cpu_mask": "0x32", "openssl_ia32cap": ":~0xD02B0000", ' \
    "$bmi2" || fail "$bmi2: the bmi2 level and its masks are not reported"
# 0x32 keeps AVX2 (ML-DSA's backend tells whether the CPU has it): P-256
# runs its C field code with the AVX2 divsteps kernel, and RSA-2048's
# halves the radix-2^28 AVX2 kernels; without AVX2, portable and x86_64.
if [ "$(backend "$bmi2" mldsa)" = avx2 ]; then
    p256_want=avx2 rsa_want=avx2
else
    p256_want=portable rsa_want=x86_64
fi
[ "$(backend "$bmi2" ecdsa-p256)" = $p256_want ] || fail "$bmi2: P-256 not on $p256_want"
case $(backend "$native" rsa) in
portable) ;;
*) [ "$(backend "$bmi2" rsa)" = $rsa_want ] || fail "$bmi2: RSA not on $rsa_want" ;;
esac

x64=$dir/bench_smoke_level_x86_64.json
run --level x86_64 --require-quill --json="$x64" rsa2048-verify ||
    fail "quill-speed --level x86_64 exited $?"
grep -q '"level": {"name": "x86_64", "quill_cpu_mask": "0x3f", "openssl_ia32cap": ":~0xD02B0128", ' \
    "$x64" || fail "$x64: the x86_64 level and its masks are not reported"
for b in ecdsa-p256 mldsa keccak; do
    [ "$(backend "$x64" $b)" = portable ] || fail "$x64: $b not portable"
done
case $(backend "$native" rsa) in
portable) ;;
*) [ "$(backend "$x64" rsa)" = x86_64 ] || fail "$x64: RSA not on x86_64" ;;
esac
echo "ok: --level avx2, bmi2 and x86_64 report their masks and backends ($(backend "$avx2" rsa)," \
    "$(backend "$x64" rsa)); bad levels and conflicting masks exit 2 with one line"
