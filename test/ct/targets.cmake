# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The constant-time validation programs, as one reusable set of targets.
# Included by test/ct.cmake (the main build: the -O2 set and the -O3 set)
# and by test/ct/CMakeLists.txt (the standalone sub-build with the other
# compiler, see test/ct.cmake), after cmake/core.cmake.
#
# The including file sets, before including:
#   QUILL_VALGRIND_INCLUDE_DIR  where valgrind/memcheck.h is
#   QUILL_CT_TESTUTIL           the test helper library target
#
# quill_ct_targets(SUFFIX OPT [MODULES module...]) then defines, each name
# with SUFFIX appended:
#   quill_core_ct      the core (the given modules, default all) compiled
#                      with QUILL_CT_VALIDATION: a variant of quill_add_core
#   ct_leak            the negative and positive controls (ct_leak.c)
#   ct_rsa             the RSA harness (ct_rsa.c)
#   ct_mldsa           the ML-DSA harness (ct_mldsa.c)
# all at optimisation level OPT (e.g. -O2) with -g, so valgrind reports
# file:line.  quill_ct_target(TARGET OPT) gives another harness (e.g.
# ct_ec) the same options.

# Options for a validation-build target: the definition, the valgrind
# headers, the optimisation level (last -O wins over the build type's) and
# DWARF 4 (valgrind 3.19 cannot read clang 14's default DWARF 5).
function(quill_ct_target target opt)
  target_compile_definitions(${target} PRIVATE QUILL_CT_VALIDATION=1)
  target_include_directories(${target} SYSTEM PRIVATE ${QUILL_VALGRIND_INCLUDE_DIR})
  target_include_directories(${target} PRIVATE ${QUILL_ROOT}/core)
  target_compile_options(${target} PRIVATE ${opt} -g -gdwarf-4)
endfunction()

function(quill_ct_targets suffix opt)
  cmake_parse_arguments(T "" "" "MODULES" ${ARGN})
  set(_dir ${QUILL_ROOT}/test/ct)
  # clang 14 takes ~80 s of CPU for core/bn/mont_kernels.c with -g (the
  # unrolled kernels; ~24 s without -g, gcc ~9 s either way): build it
  # without debug information there.  memcheck then names its functions
  # from the symbol table, without file:line.
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    set_source_files_properties(${QUILL_ROOT}/core/bn/mont_kernels.c PROPERTIES
                                COMPILE_OPTIONS -g0)
  endif()
  quill_add_core(quill_core_ct${suffix} MODULES ${T_MODULES}
                 DEFINITIONS QUILL_CT_VALIDATION=1 INCLUDES ${QUILL_VALGRIND_INCLUDE_DIR}
                 OPTIONS ${opt} -g -gdwarf-4)
  foreach(prog leak rsa mldsa)
    add_executable(ct_${prog}${suffix} ${_dir}/ct_${prog}.c)
    quill_ct_target(ct_${prog}${suffix} ${opt})
  endforeach()
  foreach(prog rsa mldsa)
    target_link_libraries(ct_${prog}${suffix} PRIVATE quill_core_ct${suffix} ${QUILL_CT_TESTUTIL}
                          OpenSSL::Crypto)
  endforeach()
endfunction()
