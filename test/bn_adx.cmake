# SPDX-License-Identifier: Apache-2.0
# MULX/ADCX/ADOX Montgomery kernels (asm/x86_64/bn_mont_adx.S, core/bn/mont_adx.c).
#
# The assembly is globbed into quill_core only, but the core unit tests link
# the object library quill_core_bn, whose mont_kernels.c now calls it: the
# assembly sources are therefore INTERFACE sources of quill_core_bn, compiled
# into each executable that links it (quill_core takes quill_core_bn's objects,
# not the target, so nothing is defined twice there).
if(QUILL_ASM_SOURCES)
  target_sources(quill_core_bn INTERFACE ${QUILL_ASM_SOURCES})
endif()

#   test_bn_adx   every ADX kernel against its portable twin (random and edge
#                 operands, n = 4..64 and the unrolled sizes), the dispatch
#                 with QUILL_CPU_MASK clearing ADX
#   test_bn_abi   every assembly entry point called through a trampoline that
#                 checks the callee-saved registers and the stack pointer
quill_add_test(test_bn_adx bn/test_bn_adx.c ${QUILL_BN_TEST_COMMON} CORE
               LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 600)
target_include_directories(test_bn_adx PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
add_test(NAME test_bn_adx_masked COMMAND test_bn_adx --masked)
set_tests_properties(test_bn_adx_masked PROPERTIES
  ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0x2" SKIP_RETURN_CODE 77 TIMEOUT 600
  LABELS "bn;unit")

if(QUILL_ASM_SOURCES)
  quill_add_test(test_bn_abi bn/test_abi.c bn/abi_check_test.S CORE
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
endif()

# ct_bn_adx: the ADX kernels under valgrind memcheck with their inputs marked
# undefined (test_bn_adx --ct), where valgrind and its headers are present;
# not in the sanitizer build (ASan and valgrind do not mix).
find_program(QUILL_ADX_VALGRIND valgrind)
find_path(QUILL_ADX_MEMCHECK_INCLUDE valgrind/memcheck.h)
if(NOT QUILL_SANITIZE AND QUILL_ASM_SOURCES AND QUILL_ADX_VALGRIND AND QUILL_ADX_MEMCHECK_INCLUDE)
  target_compile_definitions(test_bn_adx PRIVATE QUILL_ADX_MEMCHECK=1)
  target_include_directories(test_bn_adx SYSTEM PRIVATE ${QUILL_ADX_MEMCHECK_INCLUDE})
  add_test(NAME ct_bn_adx
           COMMAND ${QUILL_ADX_VALGRIND} --error-exitcode=1 -q $<TARGET_FILE:test_bn_adx> --ct)
  set_tests_properties(ct_bn_adx PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "bn;ct")
endif()
