#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# tsan_ci.sh: the ThreadSanitizer stage of CI.  Configures a
# QUILL_SANITIZE=thread build (RelWithDebInfo, warnings as errors, the C
# compiler from $CC or cmake's default: gcc 12, whose TSan runtime libtsan2
# comes with it; clang 14 needs libclang-rt-14-dev), builds only what the
# thread suites need (target threads_tests) and runs them: `ctest -L
# threads` (test/threads.cmake), 32 threads each with shared and fresh keys
# (the test environment sets QUILL_TEST_THREADS=32 and
# TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1: the first report
# fails the test).  Prints the time of each step and the total.
#
#   test/tsan_ci.sh [BUILD_DIR]     (default: build-ci-tsan in the source tree)
#
# Environment: QUILL_CI_JOBS (default 2) for the build and ctest -j.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-ci-tsan}
jobs=${QUILL_CI_JOBS:-2}

t0=$(date +%s)
step_start=$t0
step() {
    now=$(date +%s)
    echo "=== tsan: $1: $((now - step_start)) s ==="
    step_start=$now
}
run() {
    echo "+ $*" >&2
    "$@"
}

run rm -rf "$build"
run cmake -B "$build" -S "$src" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUILL_WERROR=ON \
    -DQUILL_SANITIZE=thread -DQUILL_BUILD_BENCH=OFF
step configure
run cmake --build "$build" -j"$jobs" --target threads_tests
step build

# gcc 12's and clang 14's TSan expect at most 28 bits of mmap randomness;
# kernels that use more (vm.mmap_rnd_bits = 32, Ubuntu 23.10 and later)
# make it fail at start ("unexpected memory mapping").  Then the tests run
# with address-space randomisation off (setarch -R, util-linux).
norand=""
bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)
if [ "$bits" -gt 28 ] && command -v setarch >/dev/null 2>&1; then
    echo "vm.mmap_rnd_bits=$bits: running the tests with setarch -R" >&2
    norand="setarch $(uname -m) -R"
fi
# shellcheck disable=SC2086 # norand is empty or three words
run $norand ctest --test-dir "$build" -L threads --output-on-failure -j"$jobs" </dev/null
step "ctest -L threads"
echo "=== tsan: total $(($(date +%s) - t0)) s ==="
