# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# sanitizer_preload.sh: sourced by the shell suites that run programs not
# built with the sanitizers (openssl, nginx, curl, python3) over the
# sanitizer build's quill.so, which needs the sanitizer runtimes loaded
# first.  Sets QUILL_PRELOAD to the runtimes of the compiler named by
# QUILL_CC (space-separated, for LD_PRELOAD): ASan's and UBSan's when
# QUILL_SANITIZE is 1 or ON, TSan's when it is "thread", and "" otherwise;
# returns 1, with QUILL_PRELOAD empty, in a sanitizer build whose compiler
# has no runtime to preload.
QUILL_PRELOAD=""
quill_sanitizer_preload() {
    local cc lib libs path
    QUILL_PRELOAD=""
    case "${QUILL_SANITIZE:-}" in
    1 | ON) libs="libasan.so libubsan.so libclang_rt.asan-x86_64.so
                  libclang_rt.ubsan_standalone-x86_64.so" ;;
    thread) libs="libtsan.so libclang_rt.tsan-x86_64.so" ;;
    *) return 0 ;;
    esac
    cc=${QUILL_CC:-gcc}
    for lib in $libs; do
        path=$("$cc" -print-file-name="$lib" 2>/dev/null)
        case "$path" in /*) [ -e "$path" ] && QUILL_PRELOAD="$QUILL_PRELOAD $path" ;; esac
    done
    QUILL_PRELOAD=${QUILL_PRELOAD# }
    [ -n "$QUILL_PRELOAD" ]
}
