# SPDX-License-Identifier: Apache-2.0
# aarch64 test infrastructure (aarch64 builds with the assembly only).
#   test_abi_a64_selftest  the ABI checker of the aarch64 assembly's tests
#                          (test/common/abi_check_aarch64.S) catches a changed
#                          x23 and d12 and passes a routine that keeps the ABI
# The suites' own ABI tests link QUILL_ABI_A64_SOURCES.
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  set(QUILL_ABI_A64_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/common/abi_check_aarch64.S)
  quill_add_test(test_abi_a64_selftest aarch64/test_abi_a64_selftest.c ${QUILL_ABI_A64_SOURCES}
                 CORE LABELS aarch64 unit TIMEOUT 60)
endif()
