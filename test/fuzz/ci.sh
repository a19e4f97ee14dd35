#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The CI fuzz stage: builds the fuzz configuration (cmake/fuzz.cmake) and
# runs every harness for a while from its generated seed corpus.
#
#   test/fuzz/ci.sh SOURCE_DIR BUILD_DIR
#
# Environment: QUILL_FUZZ_SECONDS (default 30) per harness; CC (default
# clang); QUILL_FUZZ_BUILD_JOBS (default 2); QUILL_VECTORS_DIR (Wycheproof
# vectors for the seeds, else ../shared/vectors beside SOURCE_DIR).
#
# The harnesses are those the build lists in BUILD_DIR/fuzz/harnesses.txt
# (every fuzz_* executable of test/fuzz.cmake): a new harness needs no
# change here.  Seeds: test/fuzz/make_corpus.py and, for the harnesses
# over fuzz_util.c, test/fuzz/corpus_evp.sh write them into
# BUILD_DIR/fuzz/corpus/<harness>/, which libFuzzer then grows (kept
# between runs in the same build directory).  Per harness it prints the
# executions per second, libFuzzer's final cov: and ft: counts and the
# log's path; it fails if any harness exits non-zero or its log holds a
# sanitizer report (ASan, LeakSanitizer, UBSan), a libFuzzer crash, leak,
# timeout or out-of-memory, or a harness DISAGREEMENT line.  Ends with the
# stage's time.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 SOURCE_DIR BUILD_DIR" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
build=$2
seconds=${QUILL_FUZZ_SECONDS:-30}
jobs=${QUILL_FUZZ_BUILD_JOBS:-2}
start=$(date +%s)

mkdir -p "$build"
echo "== fuzz: configure and build ($build)"
CC=${CC:-clang} cmake -S "$src" -B "$build" -DQUILL_FUZZ=ON >"$build/fuzz-configure.log" 2>&1 || {
    cat "$build/fuzz-configure.log" >&2
    exit 1
}
rm -f "$build/fuzz-configure.log"
cmake --build "$build" -j"$jobs" --target fuzz
built=$(date +%s)
echo "== fuzz: build took $((built - start)) s"

list="$build/fuzz/harnesses.txt"
[ -s "$list" ] || { echo "fuzz: no harness list $list" >&2; exit 1; }
names=$(for p in $(cat "$list"); do basename "$p"; done)
python3 "$src/test/fuzz/make_corpus.py" "$build/fuzz/corpus" $names
# The EVP-level harnesses (fuzz_util.c) write their own seeds.
sh "$src/test/fuzz/corpus_evp.sh" "$build" "$build/fuzz/corpus"

export OPENSSL_MODULES="$(cd "$build" && pwd)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=""
summary=""
for prog in $(cat "$list"); do
    name=$(basename "$prog")
    log="$build/fuzz/$name.log"
    corpus="$build/fuzz/corpus/$name"
    mkdir -p "$corpus" "$build/fuzz/artifacts"
    t0=$(date +%s)
    rc=0
    "$prog" -max_total_time="$seconds" -timeout=60 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz/artifacts/$name-" "$corpus" >"$log" 2>&1 || rc=$?
    t1=$(date +%s)
    execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    verdict=ok
    if [ "$rc" -ne 0 ] || grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|libFuzzer)|DISAGREEMENT|==[0-9]+== ?ERROR' "$log"; then
        verdict=FAILED
        failed="$failed $name"
        echo "---- $name: exit $rc, log $log (last 40 lines):"
        tail -n 40 "$log"
    fi
    line=$(printf '%-22s %-6s %8s exec/s  cov: %-6s ft: %-6s runs: %-9s %3d s' "$name" "$verdict" \
        "${execs:-?}" "${cov:-?}" "${ft:-?}" "${runs:-?}" $((t1 - t0)))
    echo "$line"
    summary="$summary$line
"
done
end=$(date +%s)
echo "== fuzz: $seconds s per harness"
printf '%s' "$summary"
echo "== fuzz: stage took $((end - start)) s (build $((built - start)) s)"
if [ -n "$failed" ]; then
    echo "fuzz: FAILED:$failed (artifacts in $build/fuzz/artifacts)" >&2
    exit 1
fi
