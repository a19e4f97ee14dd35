# SPDX-License-Identifier: Apache-2.0
# SHA-3 core (core/sha3): known answers and a seeded differential against
# OpenSSL's EVP SHA3-256/512 and SHAKE128/256 (test/sha3/test_sha3.c), and the
# sha3_speed timing tool (not a test): cycles per Keccak-f[1600] permutation.
quill_add_test(test_sha3 sha3/test_sha3.c CORE
               LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)

add_executable(sha3_speed sha3/sha3_speed.c)
target_link_libraries(sha3_speed PRIVATE quill_testutil quill_core_sha3 quill_core_common)

# The same suite with every CPU feature masked: the sponge runs on the
# portable permutation.
add_test(NAME test_sha3_nohw COMMAND test_sha3)
set_tests_properties(test_sha3_nohw PROPERTIES
  ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "sha3;unit")

# The four-way Keccak and SHAKE (core/sha3/sha3_x4.h) against the scalar
# ones, with the CPU's vector backend and with every feature masked.
quill_add_test(test_sha3_x4 sha3/test_sha3_x4.c CORE
               LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)
add_test(NAME test_sha3_x4_nohw COMMAND test_sha3_x4)
set_tests_properties(test_sha3_x4_nohw PROPERTIES
  ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "sha3;unit")

# Constant-time validation (valgrind memcheck via test/ct/memcheck.sh): a
# copy of core/sha3 and core/common built with QUILL_CT_VALIDATION hashes
# inputs marked secret; any branch or index on them fails the test.  The
# scalar mode runs again with every CPU feature masked (portable
# permutation).  Not in the sanitizer build; skipped without valgrind.
find_path(QUILL_SHA3_VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(NOT QUILL_SANITIZE AND QUILL_SHA3_VALGRIND_INCLUDE_DIR)
  file(GLOB QUILL_SHA3_CT_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/sha3/*.c
       ${PROJECT_SOURCE_DIR}/core/common/*.c)
  add_executable(ct_sha3 sha3/ct_sha3.c ${QUILL_SHA3_CT_SOURCES})
  target_compile_definitions(ct_sha3 PRIVATE QUILL_CT_VALIDATION=1)
  target_include_directories(ct_sha3 SYSTEM PRIVATE ${QUILL_SHA3_VALGRIND_INCLUDE_DIR})
  target_include_directories(ct_sha3 PRIVATE ${PROJECT_SOURCE_DIR}/core)
  target_compile_options(ct_sha3 PRIVATE -O2 -g -gdwarf-4) # valgrind 3.19 reads DWARF 4
  foreach(mode scalar x4)
    add_test(NAME ct_sha3_${mode}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/memcheck.sh clean $<TARGET_FILE:ct_sha3> ${mode})
    set_tests_properties(ct_sha3_${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                         LABELS "sha3;ct")
  endforeach()
  add_test(NAME ct_sha3_scalar_nohw
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/memcheck.sh clean $<TARGET_FILE:ct_sha3> scalar)
  set_tests_properties(ct_sha3_scalar_nohw PROPERTIES ENVIRONMENT "QUILL_CPU_MASK=0xffffffff"
                       SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "sha3;ct")
endif()
