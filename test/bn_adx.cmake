# SPDX-License-Identifier: Apache-2.0
# MULX/ADCX/ADOX Montgomery kernels (asm/x86_64/bn_mont_adx.S, core/bn/mont_adx.c;
# the assembly is part of the bn module, cmake/core.cmake).
#   test_bn_adx   every ADX kernel against its portable twin (random and edge
#                 operands, n = 4..64 and the unrolled sizes), the dispatch;
#                 test_bn_adx_bmi2 (test_bn_adx --masked at the bmi2 level,
#                 ADX cleared): the dispatch falls back to the portable kernels
#   test_bn_abi   every assembly entry point called through a trampoline that
#                 checks the callee-saved registers and the stack pointer
# x86-64 builds only (on aarch64 test/bn_arm64.cmake has the native suites).
if(QUILL_ASM_ARCH STREQUAL "x86_64")
quill_add_test(test_bn_adx bn/test_bn_adx.c bn/bn_test_common.c CORE
               LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 600)
target_include_directories(test_bn_adx PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
quill_add_levels(test_bn_adx COMMAND test_bn_adx --masked LEVELS bmi2)

if(QUILL_CORE_bn_ASM)
  quill_add_test(test_bn_abi bn/test_abi.c bn/abi_check_test.S CORE
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
endif()

# ct_bn_adx: the ADX kernels under valgrind memcheck with their inputs marked
# undefined (test_bn_adx --ct), where valgrind and its headers are present;
# not in the sanitizer build (ASan and valgrind do not mix).
find_program(QUILL_ADX_VALGRIND valgrind)
find_path(QUILL_ADX_MEMCHECK_INCLUDE valgrind/memcheck.h)
if(NOT QUILL_SANITIZE AND QUILL_CORE_bn_ASM AND QUILL_ADX_VALGRIND AND QUILL_ADX_MEMCHECK_INCLUDE)
  target_compile_definitions(test_bn_adx PRIVATE QUILL_ADX_MEMCHECK=1)
  target_include_directories(test_bn_adx SYSTEM PRIVATE ${QUILL_ADX_MEMCHECK_INCLUDE})
  add_test(NAME ct_bn_adx
           COMMAND ${QUILL_ADX_VALGRIND} --error-exitcode=1 -q $<TARGET_FILE:test_bn_adx> --ct)
  set_tests_properties(ct_bn_adx PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "bn;ct")
endif()
endif()
