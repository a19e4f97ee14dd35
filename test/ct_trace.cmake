# SPDX-License-Identifier: Apache-2.0
# ct_trace (test/ct/ct_trace.c): the AVX-512 backends (and the ECDSA nonce's
# SHA-NI HMAC-DRBG) that memcheck cannot
# run (test/ct.cmake) traced instruction by instruction with ptrace, on
# several secret inputs each; neither the instructions executed nor the
# addresses accessed may change.  Linux on
# x86-64 with the assembly only; not in the sanitizer build, whose
# instrumentation is not the code that ships.  Skipped (77) on CPUs without
# AVX-512 IFMA and where ptrace is refused.  About a minute of CPU here.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64"
   AND NOT QUILL_NO_ASM AND NOT QUILL_SANITIZE)
  quill_add_test(ct_trace ct/ct_trace.c CORE LIBS quill_core LABELS ct TIMEOUT 900)
endif()
