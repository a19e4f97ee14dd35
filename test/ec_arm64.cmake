# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
# aarch64 P-256 kernels (aarch64 builds with the assembly only):
#   ec_arm64     asm/aarch64/p256_fe.S (field multiplication and squaring)
#                against the portable twins and BN on edge and random
#                values, aliasing, the dispatchers, and the AAPCS64
#                callee-saved registers (test/common/abi_check_aarch64.S);
#                skipped (77) when QUILL_CPU_MASK clears QUILL_CPU_ARM64
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_ec_arm64 ec/test_ec_arm64.c ec/ec_test_common.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/common/abi_check_aarch64.S CORE
                 LIBS quill_core_ec quill_core_common LABELS ec unit TIMEOUT 300)
  target_include_directories(test_ec_arm64 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
  set_tests_properties(test_ec_arm64 PROPERTIES SKIP_RETURN_CODE 77)
  # Under the Cortex-A72 model too (the a72 level), and once masked
  # (portable: it must skip, the suites then run the C twins).
  quill_add_levels(test_ec_arm64 LEVELS bmi2 portable)
endif()

#   ec_point_arm64  asm/aarch64/p256_point_arm64.S (mixed addition) and
#                p256_gather_neon.S (the fixed-base table scan) against
#                their portable twins (quill_p256_point_add_mixed_raw_c,
#                quill_p256_booth_gather_c) on edge, random, carry-heavy,
#                all-zero and all-ones values, infinity and equal inputs,
#                aliasing, the AAPCS64 callee-saved registers, and k G
#                through the dispatch; skipped (77) when QUILL_CPU_MASK
#                clears QUILL_CPU_ARM64
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_ec_point_arm64 ec/test_ec_point_arm64.c ec/ec_test_common.c
                 ${CMAKE_CURRENT_SOURCE_DIR}/common/abi_check_aarch64.S CORE
                 LIBS quill_core_ec quill_core_common LABELS ec unit TIMEOUT 300)
  target_include_directories(test_ec_point_arm64 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
  set_tests_properties(test_ec_point_arm64 PROPERTIES SKIP_RETURN_CODE 77)
  quill_add_levels(test_ec_point_arm64 LEVELS bmi2 portable)
endif()
