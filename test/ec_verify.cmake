# SPDX-License-Identifier: Apache-2.0
# ECDSA P-256 verification paths (core/ec/p256_point_vartime.c,
# p256_verify_precomp.c, the per-key cache of ecdsa.h) and their wiring in
# the provider:
#   test_ec_verify         wNAF, both double-scalar routines against
#                          EC_POINT_mul and the constant-time routines,
#                          cached verification (first/second/third call,
#                          another key, four threads racing to publish)
#   (ec_verify_cache, the provider side, is in evp_ec_verify.cmake)
#   (the 2^(64 j) G rows it uses are in core/ec/p256_table.h, checked by
#   ec_table_regen)
quill_add_test(test_ec_verify ec/test_ec_verify.c ec/ec_test_common.c CORE
               LIBS quill_core_ec quill_core_common Threads::Threads LABELS ec unit TIMEOUT 300)
target_include_directories(test_ec_verify PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
# Again with the C field arithmetic (no ADX; test/CMakeLists.txt,
# quill_add_levels).
quill_add_levels(test_ec_verify LEVELS bmi2)
