# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The constant-time validation programs, as one reusable set of targets.
# Included by test/ct.cmake (the main build: the -O2 set and the -O3 set)
# and by test/ct/CMakeLists.txt (the standalone sub-build with the other
# compiler, see test/ct.cmake).
#
# The including file sets, before including:
#   QUILL_CT_ROOT               the quill source tree
#   QUILL_VALGRIND_INCLUDE_DIR  where valgrind/memcheck.h is
#   QUILL_CT_ASM_SOURCES        the core's assembly (may be empty)
#   QUILL_CT_TESTUTIL           the test helper library target
#
# quill_ct_targets(SUFFIX OPT) then defines, each name with SUFFIX appended:
#   quill_core_ct      common, bn and rsa compiled with QUILL_CT_VALIDATION
#   ct_leak            the negative and positive controls (ct_leak.c)
#   ct_rsa             the RSA harness (ct_rsa.c)
#   quill_core_ct_pq, ct_mldsa   sha3 and mldsa, and the ML-DSA harness
#                      (only once core/mldsa has sources and ct_mldsa.c
#                      exists; QUILL_CT_HAVE_MLDSA is set in the caller's
#                      scope then)
# all at optimisation level OPT (e.g. -O2) with -g, so valgrind reports
# file:line.

# Options for a validation-build target: the definition, the valgrind
# headers, the optimisation level (last -O wins over the build type's) and
# DWARF 4 (valgrind 3.19 cannot read clang 14's default DWARF 5).
function(quill_ct_target target opt)
  target_compile_definitions(${target} PRIVATE QUILL_CT_VALIDATION=1)
  target_include_directories(${target} SYSTEM PRIVATE ${QUILL_VALGRIND_INCLUDE_DIR})
  target_include_directories(${target} PRIVATE ${QUILL_CT_ROOT}/core)
  target_compile_options(${target} PRIVATE ${opt} -g -gdwarf-4)
endfunction()

function(quill_ct_targets suffix opt)
  set(_dir ${QUILL_CT_ROOT}/test/ct)
  # clang 14 takes ~80 s of CPU for core/bn/mont_kernels.c with -g (the
  # unrolled kernels; ~24 s without -g, gcc ~9 s either way): build it
  # without debug information there.  memcheck then names its functions
  # from the symbol table, without file:line.
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    set_source_files_properties(${QUILL_CT_ROOT}/core/bn/mont_kernels.c PROPERTIES
                                COMPILE_OPTIONS -g0)
  endif()
  add_executable(ct_leak${suffix} ${_dir}/ct_leak.c)
  quill_ct_target(ct_leak${suffix} ${opt})

  file(GLOB _core CONFIGURE_DEPENDS
       ${QUILL_CT_ROOT}/core/common/*.c
       ${QUILL_CT_ROOT}/core/bn/*.c
       ${QUILL_CT_ROOT}/core/rsa/*.c)
  add_library(quill_core_ct${suffix} STATIC ${_core} ${QUILL_CT_ASM_SOURCES})
  set_target_properties(quill_core_ct${suffix} PROPERTIES LINKER_LANGUAGE C)
  quill_ct_target(quill_core_ct${suffix} ${opt})

  add_executable(ct_rsa${suffix} ${_dir}/ct_rsa.c)
  quill_ct_target(ct_rsa${suffix} ${opt})
  target_link_libraries(ct_rsa${suffix} PRIVATE quill_core_ct${suffix} ${QUILL_CT_TESTUTIL}
                        OpenSSL::Crypto)

  file(GLOB _mldsa CONFIGURE_DEPENDS ${QUILL_CT_ROOT}/core/mldsa/*.c)
  file(GLOB _sha3 CONFIGURE_DEPENDS ${QUILL_CT_ROOT}/core/sha3/*.c)
  if(_mldsa AND _sha3 AND EXISTS ${_dir}/ct_mldsa.c)
    add_library(quill_core_ct_pq${suffix} STATIC ${_sha3} ${_mldsa})
    quill_ct_target(quill_core_ct_pq${suffix} ${opt})
    add_executable(ct_mldsa${suffix} ${_dir}/ct_mldsa.c)
    quill_ct_target(ct_mldsa${suffix} ${opt})
    target_link_libraries(ct_mldsa${suffix} PRIVATE quill_core_ct_pq${suffix}
                          quill_core_ct${suffix} ${QUILL_CT_TESTUTIL} OpenSSL::Crypto)
    set(QUILL_CT_HAVE_MLDSA ON PARENT_SCOPE)
  else()
    set(QUILL_CT_HAVE_MLDSA OFF PARENT_SCOPE)
  endif()
endfunction()
