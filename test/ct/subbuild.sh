#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# subbuild.sh COMPILER BINARY_DIR [CMAKE_OPTION...]: configures and builds
# the standalone constant-time project (test/ct/CMakeLists.txt) with
# COMPILER into BINARY_DIR; incremental after the first run.  Run by the
# ct_<compiler>_build CTest fixture (test/ct.cmake), whose tests then run
# the programs it built under memcheck.  $CMAKE overrides the cmake binary;
# $QUILL_CT_JOBS the build parallelism (default 2).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 COMPILER BINARY_DIR [CMAKE_OPTION...]" >&2
    exit 2
fi
compiler=$1
bindir=$2
shift 2
cmake=${CMAKE:-cmake}
src=$(cd "$(dirname "$0")" && pwd)

if ! command -v "$compiler" >/dev/null 2>&1; then
    echo "$compiler not found" >&2
    exit 1
fi
start=$(date +%s)
echo "+ $cmake -S $src -B $bindir -DCMAKE_C_COMPILER=$compiler $*"
"$cmake" -S "$src" -B "$bindir" -DCMAKE_C_COMPILER="$compiler" "$@"
echo "+ $cmake --build $bindir -j${QUILL_CT_JOBS:-2}"
"$cmake" --build "$bindir" -j"${QUILL_CT_JOBS:-2}"
echo "sub-build with $compiler done in $(($(date +%s) - start)) s"
