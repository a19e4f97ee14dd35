# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The fuzz configuration, one command (test/fuzz/README.md):
#
#   CC=clang cmake -B build-fuzz -DQUILL_FUZZ=ON
#   cmake --build build-fuzz -j2 --target fuzz
#
# QUILL_FUZZ=ON sets everything the libFuzzer harnesses (test/fuzz/,
# registered in test/fuzz.cmake) need, for the whole build:
#   - clang only: the configuration stops here otherwise, and also when
#     clang cannot link a libFuzzer program (Debian: libclang-rt-14-dev,
#     which apt-get --no-install-recommends does not bring with clang);
#   - AddressSanitizer and UBSan (QUILL_SANITIZE is forced on, with its
#     -fno-sanitize-recover=all: a UBSan report aborts the run, so the
#     fuzzer counts it as a crash);
#   - -fsanitize=fuzzer-no-link on every C source (the core, quill.so's
#     provider objects and the test libraries): libFuzzer's coverage
#     feedback reaches into quill.so, which the harnesses load through
#     OpenSSL; only the harness executables link libFuzzer itself;
#   - quill.so linked without -z,defs (top-level CMakeLists.txt skips it
#     for clang's sanitizer builds): the static sanitizer and libFuzzer
#     runtimes live in the executable that loads the module, so the
#     module's references to them are undefined at its own link;
#   - RelWithDebInfo (-O2 -g) unless CMAKE_BUILD_TYPE is given: optimised
#     enough for fast executions, with line numbers in the reports;
#   - no quill-speed (QUILL_BUILD_BENCH off): the fuzz target builds only
#     quill.so, the core and the harnesses.
# Two core files are compiled without their unrolling pragmas in sanitizer
# builds with clang (QUILL_PLAIN_LOOPS, at the end of this file).
option(QUILL_FUZZ "Build the libFuzzer harnesses: clang, ASan+UBSan, coverage in quill.so" OFF)

if(QUILL_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "QUILL_FUZZ=ON needs clang (libFuzzer), but the C compiler is "
            "${CMAKE_C_COMPILER_ID} (${CMAKE_C_COMPILER}).  Configure a new build directory "
            "with CC=clang, e.g.: CC=clang cmake -B build-fuzz -DQUILL_FUZZ=ON")
  endif()
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
  check_c_source_compiles([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n > 0 && d[0] == 1; }
]] QUILL_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT QUILL_HAVE_LIBFUZZER)
    message(FATAL_ERROR "QUILL_FUZZ=ON: ${CMAKE_C_COMPILER} cannot link a libFuzzer program "
            "with -fsanitize=fuzzer,address,undefined: the libFuzzer and sanitizer runtimes "
            "are missing (Debian 12: apt-get install --no-install-recommends "
            "libclang-rt-14-dev).  See CMakeFiles/CMakeError.log.")
  endif()
  if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
  endif()
  set(QUILL_SANITIZE ON)
  set(QUILL_BUILD_BENCH OFF)
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link>)
endif()

# The two slowest core files under the sanitizers with clang: bignum
# kernels laid out by unrolling pragmas (core/bn/mont_kernels.c: full
# unrolling at 8, 16 and 24 limbs, by 8 above; core/bn/exp_ifma.c: the
# 40-step AVX-512 IFMA squaring, in four instances).  Under clang 14 -O2 -g
# with ASan+UBSan exp_ifma.c took 213 CPU-seconds and mont_kernels.c had
# not finished after 152, since every limb load of the unrolled code
# carries its own sanitizer check and branch.  QUILL_PLAIN_LOOPS drops those pragmas in
# both (plain loops: about 5 and 2 CPU-seconds): the same arithmetic and
# code paths, checked by the same sanitizers, without the layout that only
# serves speed.  The comments at the pragmas in both files say the same.
if(QUILL_SANITIZE AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/core/bn/mont_kernels.c
               ${PROJECT_SOURCE_DIR}/core/bn/exp_ifma.c
               APPEND PROPERTY COMPILE_DEFINITIONS QUILL_PLAIN_LOOPS=1)
endif()
