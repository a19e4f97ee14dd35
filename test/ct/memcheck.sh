#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# memcheck.sh MODE PROGRAM [ARGS...]: runs PROGRAM under valgrind's memcheck
# for the constant-time validation suite (test/ct.cmake).
#
# In the validation build (QUILL_CT_VALIDATION) secrets are marked
# "undefined" for memcheck, so a branch or a memory address that depends on
# a secret is reported as "Conditional jump or move depends on uninitialised
# value(s)" or "Use of uninitialised value of size N".
#
# MODE clean      pass iff memcheck reports no error at all and PROGRAM exits 0.
# MODE leak:FUNC  negative control: pass iff memcheck reports one of those
#                 uninitialised-value errors with FUNC in its stack trace
#                 (proves the harness can fail).
#
# Exits 77 (CTest "skipped") if valgrind is absent.  $QUILL_VALGRIND overrides
# the valgrind binary.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 clean|leak:FUNC PROGRAM [ARGS...]" >&2
    exit 2
fi
mode=$1
shift
valgrind=${QUILL_VALGRIND:-valgrind}
if ! command -v "$valgrind" >/dev/null 2>&1; then
    echo "valgrind not found: constant-time validation skipped"
    exit 77
fi

log=$(mktemp "${TMPDIR:-/tmp}/quill-memcheck.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT INT TERM

echo "+ $valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes $*"
"$valgrind" --tool=memcheck --error-exitcode=1 --track-origins=yes --num-callers=40 \
    --log-file="$log" "$@"
rc=$?

secret_use='Conditional jump or move depends on uninitialised value|Use of uninitialised value of size|Syscall param .* uninitialised'
nsecret=$(grep -E -c "$secret_use" "$log")
nerrors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -n 1)
echo "memcheck: exit status $rc, ${nerrors:-?} errors, $nsecret secret-dependent branch/index reports"

case $mode in
clean)
    if [ "$rc" -eq 0 ] && [ "$nsecret" -eq 0 ] && [ "${nerrors:-1}" -eq 0 ]; then
        echo "PASS: no secret-dependent branch or memory index found"
        exit 0
    fi
    echo "FAIL: the valgrind log follows" >&2
    cat "$log" >&2
    exit 1
    ;;
leak:*)
    func=${mode#leak:}
    # Stack lines read "   at 0x...: FUNC (file:line)" (or FUNC.isra.0 ...).
    if [ "$nsecret" -gt 0 ] && grep -E -q "(at|by) 0x[0-9A-Fa-f]+: $func( |\.)" "$log"; then
        echo "PASS: memcheck caught the deliberate leak in $func"
        grep -E -A 3 "$secret_use" "$log" | head -n 12
        exit 0
    fi
    echo "FAIL: memcheck did not report the deliberate leak in $func; log follows" >&2
    cat "$log" >&2
    exit 1
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
