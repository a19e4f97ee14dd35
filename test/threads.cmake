# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The label `threads`: the suites in which threads share keys, for the
# ThreadSanitizer stage (test/tsan_ci.sh, a QUILL_SANITIZE=thread build that
# runs `ctest -L threads`):
#   rsa_threads, ec_threads, mldsa_threads   EVP, shared and fresh keys
#                          (test/evp_*/..._threads.c), at the native level
#                          and the portable one
#   ec_verify_cache        EVP, one fresh EC key's verification table
#   ec_lazy_pub            EVP, the first reads of a generated EC key's public
#                          point (its lazy affine conversion), native and
#                          portable
#   rsa_threads_avx2       rsa_threads at the AVX2 level, where RSA-2048
#                          verification (like 3072 and 4096, which share
#                          the code) builds its radix-2^27 form on a
#                          key's second use (core/bn/mont.c,
#                          quill_mont_d27_use) while other threads verify
#   test_rsa_raw           core, four threads sharing a key's blinding pair
#   test_ec_verify         core, four threads publishing one verification table
#   test_bn_ifma           core, four threads storing and reading the IFMA
#                          exponentiations' R'^2 in two fresh contexts
# The EVP suites take their thread count from QUILL_TEST_THREADS (8 unless
# set, 4 for ec_verify_cache; 32 in the ThreadSanitizer build, whose test
# environment sets it: test/CMakeLists.txt).
# Only the native and portable copies of the level-copied suites carry the
# label (and rsa_threads_avx2, above): ThreadSanitizer does not see inside the assembly, so the portable
# copy (C only) is the one where it sees every access, and the native one
# is what users run; the copies between them run other arithmetic kernels
# over the same shared key objects (that code works on its own buffers).
set(QUILL_THREADS_TESTS rsa_threads rsa_threads_portable rsa_threads_avx2 ec_threads ec_threads_portable
    ec_lazy_pub ec_lazy_pub_portable mldsa_threads mldsa_threads_portable ec_verify_cache
    test_rsa_raw test_ec_verify test_bn_ifma)
foreach(t ${QUILL_THREADS_TESTS})
  if(TEST ${t})
    set_property(TEST ${t} APPEND PROPERTY LABELS threads)
  endif()
endforeach()

# In the ThreadSanitizer build the portable copies of the EVP suites count
# into a live statistics directory (QUILL_STATS=DIR, provider/stats_dir.h:
# the process's memory-mapped counters file), the native ones into the
# provider context's own counters: the suites check both against the
# operations their workers made.
if(QUILL_SANITIZER STREQUAL "thread")
  set(QUILL_THREADS_STATS_DIR ${CMAKE_BINARY_DIR}/threads-stats)
  file(MAKE_DIRECTORY ${QUILL_THREADS_STATS_DIR})
  foreach(t rsa_threads_portable ec_threads_portable mldsa_threads_portable)
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "QUILL_STATS=${QUILL_THREADS_STATS_DIR}")
    endif()
  endforeach()
endif()

# threads_tests: the programs those suites run, for a build of just them
# (test/tsan_ci.sh: cmake --build ... --target threads_tests).
add_custom_target(threads_tests)
foreach(t quill rsa_threads ec_threads ec_lazy_pub mldsa_threads ec_verify_cache test_rsa_raw
         test_ec_verify test_bn_ifma)
  if(TARGET ${t})
    add_dependencies(threads_tests ${t})
  endif()
endforeach()
