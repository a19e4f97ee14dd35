# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# sanitizer_preload.sh: sourced by the shell suites that run programs not
# built with the sanitizers (openssl, nginx, curl, python3) over the
# sanitizer build's quill.so, which needs the sanitizer runtimes loaded
# first.  Sets QUILL_PRELOAD to the runtimes of the compiler named by
# QUILL_CC (space-separated, for LD_PRELOAD) when QUILL_SANITIZE is 1 or ON,
# and to "" otherwise; returns 1, with QUILL_PRELOAD empty, in a sanitizer
# build whose compiler has no runtime to preload.
QUILL_PRELOAD=""
quill_sanitizer_preload() {
    local cc lib path
    QUILL_PRELOAD=""
    case "${QUILL_SANITIZE:-}" in 1 | ON) ;; *) return 0 ;; esac
    cc=${QUILL_CC:-gcc}
    for lib in libasan.so libubsan.so libclang_rt.asan-x86_64.so \
               libclang_rt.ubsan_standalone-x86_64.so; do
        path=$("$cc" -print-file-name="$lib" 2>/dev/null)
        case "$path" in /*) [ -e "$path" ] && QUILL_PRELOAD="$QUILL_PRELOAD $path" ;; esac
    done
    QUILL_PRELOAD=${QUILL_PRELOAD# }
    [ -n "$QUILL_PRELOAD" ]
}
