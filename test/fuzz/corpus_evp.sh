#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# Seed corpora of the EVP-level harnesses fuzz_fromdata, fuzz_decoder and
# fuzz_mldsa_mu, written by the harnesses themselves: with
# QUILL_FUZZ_SEED_CORPUS=DIR each one writes its valid starting inputs
# (every algorithm, variant and mode, unmutated, plus a few one-byte
# mutations) into DIR at start-up and exits (fuzz_util.h).  The starting
# keys and encodings are made at run time from fixed seeds (nothing is
# copied from vector files), so the corpus is generated, never committed.
#
#   test/fuzz/corpus_evp.sh BUILD_DIR OUT_DIR
#
# writes OUT_DIR/<harness>/ for each of the three (kept if it already has
# files: libFuzzer grows it between runs).
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR OUT_DIR" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
export OPENSSL_MODULES="${OPENSSL_MODULES:-$build}"
for name in fuzz_fromdata fuzz_decoder fuzz_mldsa_mu; do
    prog=$(find "$build" -name "$name" -type f -perm -u+x | head -n 1)
    if [ -z "$prog" ]; then
        echo "corpus_evp: $name not built in $build" >&2
        exit 1
    fi
    dir="$2/$name"
    mkdir -p "$dir"
    if [ -z "$(ls -A "$dir")" ]; then
        QUILL_FUZZ_SEED_CORPUS="$dir" "$prog" >/dev/null 2>&1 || {
            echo "corpus_evp: $name failed to write its seeds" >&2
            exit 1
        }
    fi
    echo "corpus_evp: $name: $(ls "$dir" | wc -l) inputs in $dir"
done
