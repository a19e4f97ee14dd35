# SPDX-License-Identifier: Apache-2.0
# ec_verify_cache (test/ec/ec_verify_evp.c): the per-key verification cache
# of quill's EC keys through EVP -- repeated verification, dup'd keys, a
# replaced public point, four threads sharing a key.
quill_add_test(ec_verify_cache ec/ec_verify_evp.c LIBS quill_evpectest Threads::Threads
               LABELS evp ec TIMEOUT 300)
target_include_directories(ec_verify_cache PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/evp_ec)
