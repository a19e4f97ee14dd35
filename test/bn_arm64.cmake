# SPDX-License-Identifier: Apache-2.0
# aarch64 bignum kernels (asm/aarch64/bn_add.S, bn_mont.S, core/bn/mont_arm64.c;
# the assembly is part of the bn module, cmake/core.cmake).  aarch64 builds
# with the assembly only.
#   test_bn_arm64           the ADCS/SBCS add/sub loops and the Montgomery
#                           kernels against their portable twins (random,
#                           all-zero, all-ones and edge operands, every
#                           supported length) and the dispatch;
#                           test_bn_arm64_a72 the same on QEMU's Cortex-A72,
#                           test_bn_arm64_portable (--masked, QUILL_CPU_MASK
#                           clearing everything): the dispatch falls back to
#                           the portable code
#   test_bn_abi_a64         every entry point through quill_abi_a64_call: the
#                           callee-saved registers and sp survive
#   bn_mont_a64_generated   (every architecture, label lint) the checked-in
#                           asm/aarch64/bn_mont.S is exactly what
#                           tools/gen_bn_mont_a64.py prints
#   bn_mont_sqr_a64_generated (every architecture, label lint) the six
#                           macros tools/gen_bn_mont_sqr_a64.py prints appear
#                           verbatim in asm/aarch64/bn_mont_sqr.S
add_test(NAME bn_mont_a64_generated
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/generated_matches.sh bn_mont_a64_generated
                 ${PROJECT_SOURCE_DIR} tools/gen_bn_mont_a64.py asm/aarch64/bn_mont.S)
set_tests_properties(bn_mont_a64_generated PROPERTIES LABELS "lint;bn" SKIP_RETURN_CODE 77)
add_test(NAME bn_mont_sqr_a64_generated
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/generated_matches.sh bn_mont_sqr_a64_generated
                 ${PROJECT_SOURCE_DIR} tools/gen_bn_mont_sqr_a64.py asm/aarch64/bn_mont_sqr.S blocks)
set_tests_properties(bn_mont_sqr_a64_generated PROPERTIES LABELS "lint;bn" SKIP_RETURN_CODE 77)
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_bn_arm64 bn/test_bn_arm64.c bn/bn_test_common.c CORE
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 600)
  target_include_directories(test_bn_arm64 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
  quill_add_levels(test_bn_arm64 LEVELS x86_64)
  quill_add_levels(test_bn_arm64 COMMAND test_bn_arm64 --masked LEVELS portable)
  quill_add_test(test_bn_abi_a64 bn/test_bn_abi_a64.c ${QUILL_ABI_A64_SOURCES} CORE
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
  target_include_directories(test_bn_abi_a64 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
endif()

# bn_trace_a64: one kernel call between two markers, for the llvm-mca model of
# tools/mca/bn_aarch64.sh (not a test).
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  add_executable(bn_trace_a64 ${QUILL_ROOT}/tools/mca/bn_trace_a64.c)
  target_link_libraries(bn_trace_a64 PRIVATE quill_core_bn quill_core_common OpenSSL::Crypto
                        ${CMAKE_DL_LIBS})
endif()
