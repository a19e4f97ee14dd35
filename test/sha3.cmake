# SPDX-License-Identifier: Apache-2.0
# SHA-3 core (core/sha3): known answers and a seeded differential against
# OpenSSL's EVP SHA3-256/512 and SHAKE128/256 (test/sha3/test_sha3.c), the
# four-way Keccak and SHAKE (core/sha3/sha3_x4.h) against the scalar ones
# (test_sha3_x4), and the sha3_speed timing tool (not a test): cycles per
# Keccak-f[1600] permutation; keccak_x4_avx512vl_generated (label lint):
# the checked-in asm/x86_64/keccak_x4_avx512vl.S is what
# tools/gen_keccak_x4_avx512vl.py prints.  (ct_sha3_*, the constant-time validation of
# core/sha3, are in ct.cmake.)
foreach(t sha3 sha3_x4)
  quill_add_test(test_${t} sha3/test_${t}.c sha3/keccak_test_common.c CORE
                 LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)
  # Again with every CPU feature masked (test/CMakeLists.txt,
  # quill_add_levels): the portable permutation.
  quill_add_levels(test_${t} LEVELS portable)
  # On aarch64 also under QEMU_CPU=cortex-a72 (test_${t}_a72): the two-way
  # NEON permutation without the SHA-3 instructions (the default copy runs
  # them; test/sha3_a64.cmake tests the aarch64 assembly itself).
  if(QUILL_ASM_ARCH STREQUAL "aarch64")
    quill_add_levels(test_${t} LEVELS avx2)
  endif()
endforeach()

add_executable(sha3_speed sha3/sha3_speed.c)
target_link_libraries(sha3_speed PRIVATE quill_testutil quill_core_sha3 quill_core_common)

add_test(NAME keccak_x4_avx512vl_generated
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/generated_matches.sh keccak_x4_avx512vl_generated
                 ${PROJECT_SOURCE_DIR} tools/gen_keccak_x4_avx512vl.py asm/x86_64/keccak_x4_avx512vl.S)
set_tests_properties(keccak_x4_avx512vl_generated PROPERTIES LABELS "lint;sha3" SKIP_RETURN_CODE 77)
