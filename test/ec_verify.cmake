# SPDX-License-Identifier: Apache-2.0
# ECDSA P-256 verification paths (core/ec/p256_point_vartime.c,
# p256_verify_precomp.c, the per-key cache of ecdsa.h) and their wiring in
# the provider:
#   test_ec_verify         wNAF, both double-scalar routines against
#                          EC_POINT_mul and the constant-time routines,
#                          cached verification (first/second/third call,
#                          another key, four threads racing to publish)
#   (ec_verify_cache, the provider side, is in evp_ec_verify.cmake: it needs
#   quill_evpectest from evp_ec.cmake, included after this file)
#   (the 2^(64 j) G rows it uses are in core/ec/p256_table.h, checked by
#   ec_table_regen)
find_package(Threads REQUIRED)
quill_add_test(test_ec_verify ec/test_ec_verify.c ${QUILL_EC_TEST_COMMON} CORE
               LIBS quill_core_ec quill_core_common Threads::Threads LABELS ec unit TIMEOUT 300)
target_include_directories(test_ec_verify PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
add_test(NAME test_ec_verify_portable COMMAND test_ec_verify)
set_tests_properties(test_ec_verify_portable PROPERTIES
                     ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=3"
                     LABELS "ec;unit;portable" TIMEOUT 300)
