# Constant-time validation under valgrind's memcheck (test/ct/).
#
# quill_core_ct is a second copy of the core (common, bn, rsa and the
# assembly) compiled with QUILL_CT_VALIDATION=1 at -O2 -g: secrets are
# marked undefined for memcheck, so any branch or memory address that
# depends on one is reported.  test/ct/memcheck.sh runs each program under
#   valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes
# and fails on any such report; it exits 77 (skipped) without valgrind.
#
#   ct_rsa_sign, ct_rsa_nocrt, ct_rsa_keygen, ct_rsa_check   the RSA core
#   ct_rsa_sign_nohw   ct_rsa sign with QUILL_CPU_MASK clearing every CPU
#       feature (registered only once the core has CPU dispatch)
#   ct_control_branch, ct_control_index   negative controls: a deliberate
#       leak that memcheck must report (the test fails if it does not)
#   ct_control_select   positive control: constant-time code stays clean
#
# Not registered in the sanitizer build (ASan and valgrind do not mix); the
# release build runs them.

if(QUILL_SANITIZE)
  message(STATUS "ct: constant-time validation tests skipped in the sanitizer build")
  return()
endif()

find_path(QUILL_VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
set(QUILL_CT_RUN ${CMAKE_CURRENT_SOURCE_DIR}/ct/memcheck.sh)

if(NOT QUILL_VALGRIND_INCLUDE_DIR)
  message(STATUS "ct: valgrind/memcheck.h not found; constant-time tests will report skipped")
  add_test(NAME ct_validation COMMAND sh -c "echo 'valgrind headers absent'; exit 77")
  set_tests_properties(ct_validation PROPERTIES SKIP_RETURN_CODE 77 LABELS ct)
  return()
endif()

# Options for a validation-build target: the definition, the valgrind
# headers, and -O2 -g (last -O wins over the build type's) so that valgrind
# reports file:line.
function(quill_ct_target target)
  target_compile_definitions(${target} PRIVATE QUILL_CT_VALIDATION=1)
  target_include_directories(${target} SYSTEM PRIVATE ${QUILL_VALGRIND_INCLUDE_DIR})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core)
  target_compile_options(${target} PRIVATE -O2 -g -gdwarf-4)
endfunction()

# quill_ct_add(NAME MODE PROGRAM ARGS...) registers one memcheck run.
function(quill_ct_add name mode program)
  add_test(NAME ${name} COMMAND sh ${QUILL_CT_RUN} ${mode} $<TARGET_FILE:${program}> ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS ct)
endfunction()

# Controls: they need only the core's common headers.
add_executable(ct_leak ct/ct_leak.c)
quill_ct_target(ct_leak)
quill_ct_add(ct_control_branch leak:ct_leaky_branch ct_leak branch)
quill_ct_add(ct_control_index leak:ct_leaky_index ct_leak index)
quill_ct_add(ct_control_select clean ct_leak select)

file(GLOB QUILL_CT_CORE_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/core/common/*.c
     ${PROJECT_SOURCE_DIR}/core/bn/*.c
     ${PROJECT_SOURCE_DIR}/core/rsa/*.c)
file(GLOB QUILL_CT_RSA_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/rsa/*.c)
if(NOT QUILL_CT_RSA_SOURCES)
  message(STATUS "ct: core/rsa has no sources yet; RSA constant-time tests not registered")
  return()
endif()

add_library(quill_core_ct STATIC ${QUILL_CT_CORE_SOURCES} ${QUILL_ASM_SOURCES})
set_target_properties(quill_core_ct PROPERTIES LINKER_LANGUAGE C)
quill_ct_target(quill_core_ct)

add_executable(ct_rsa ct/ct_rsa.c)
quill_ct_target(ct_rsa)
target_link_libraries(ct_rsa PRIVATE quill_core_ct quill_testutil OpenSSL::Crypto)

foreach(mode sign nocrt keygen check)
  quill_ct_add(ct_rsa_${mode} clean ct_rsa ${mode})
endforeach()

# With CPU dispatch in the core (assembly, or C kernels chosen by
# quill_cpu_has), the runs above take the native paths valgrind's virtual CPU
# reports (BMI2 and AVX2; valgrind 3.19 hides ADX, so ADX code cannot be
# validated this way).  Validate the portable path too, with every feature
# bit masked off.
set(_quill_ct_dispatch ${QUILL_ASM_SOURCES})
foreach(src ${QUILL_CT_CORE_SOURCES})
  file(STRINGS ${src} _hits REGEX "quill_cpu_has[(]")
  if(_hits)
    list(APPEND _quill_ct_dispatch ${src})
  endif()
endforeach()
if(_quill_ct_dispatch)
  quill_ct_add(ct_rsa_sign_nohw clean ct_rsa sign)
  set_property(TEST ct_rsa_sign_nohw APPEND PROPERTY ENVIRONMENT "QUILL_CPU_MASK=0xffffffff")
endif()
