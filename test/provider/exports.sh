#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fails unless OSSL_provider_init is the only symbol quill.so defines in its
# dynamic symbol table (the linker's own markers aside).
# Usage: exports.sh path/to/quill.so
so="$1"
if ! command -v nm >/dev/null 2>&1; then
    echo "nm not found"; exit 77
fi
if [ ! -f "$so" ]; then
    echo "FAIL: $so does not exist"; exit 1
fi
syms=$(nm -D --defined-only "$so" | awk '{print $NF}') || { echo "FAIL: nm"; exit 1; }
status=0
found=0
for s in $syms; do
    case "$s" in
        OSSL_provider_init) found=1 ;;
        _init|_fini|_edata|_end|__bss_start) ;;
        *) echo "FAIL: unexpected exported symbol: $s"; status=1 ;;
    esac
done
if [ "$found" != 1 ]; then
    echo "FAIL: OSSL_provider_init is not exported"; status=1
fi
[ "$status" = 0 ] && echo "exports: OSSL_provider_init only (1 passed, 0 failed)"
exit $status
