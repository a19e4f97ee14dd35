# SPDX-License-Identifier: Apache-2.0
# Constant-time validation under valgrind's memcheck (test/ct/).
#
# quill_core_ct (common, bn, rsa and the assembly) and quill_core_ct_pq
# (sha3, mldsa) are a second copy of the core compiled with
# QUILL_CT_VALIDATION=1 at -O2 -g: secrets are
# marked undefined for memcheck, so any branch or memory address that
# depends on one is reported.  test/ct/memcheck.sh runs each program under
#   valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes
# and fails on any such report; it exits 77 (skipped) without valgrind.
# The targets themselves are defined in test/ct/targets.cmake.
#
#   ct_rsa_<mode>   the RSA core (modes in test/ct/ct_rsa.c): sign (fresh
#       2048-bit key), nocrt, check, keygen (2048), sign3072, sign4096,
#       nocrt3072, unbalanced (primes of 16 and 17 limbs), keygen_small
#       (1024 bits with e = 3, 1025 bits), export (quill_rsa_key_get)
#   ct_rsa_sign_nohw   ct_rsa sign3072 with QUILL_CPU_MASK clearing every
#       CPU feature (registered only once the core has CPU dispatch)
#   ct_control_branch, ct_control_index   negative controls: a deliberate
#       leak that memcheck must report (the test fails if it does not)
#   ct_control_select   positive control: constant-time code stays clean
#   ct_mldsa_44, _65, _87   ML-DSA (test/ct/ct_mldsa.c): key from a secret
#       seed, key from a secret expanded key, deterministic and hedged
#       signing; ct_mldsa_65_nohw the same with every CPU feature masked
#
# Other code generation (label ct_codegen, e.g. ctest -LE ct_codegen to
# leave it out): the same programs compiled differently, run on the modes
# that finish fast (fixed RSA keys, the three ML-DSA sets), controls
# included:
#   ct_o3_*      another copy of those libraries in this build, at -O3
#   ct_clang_*   (ct_gcc_* when this build uses clang) the standalone
#       project test/ct/CMakeLists.txt built with the other compiler by the
#       fixture test ct_clang_build (test/ct/subbuild.sh) into
#       <build>/test/ct-clang; needs that compiler at configure time.
#
# What memcheck cannot see here: valgrind 3.19 hides ADX and AVX-512 from
# the program's CPUID, so these runs take the BMI2/AVX2 and portable paths
# (and _nohw masks everything).  The bignum MULX/ADCX/ADOX kernels are
# validated separately by ct_bn_adx (test/bn_adx.cmake), which calls them
# directly (valgrind executes ADX), and the P-256 ones by ct_ec_adx
# (test/ec.cmake) likewise; the AVX-512 IFMA exponentiation, the AVX-512VL
# NTT and the AVX-512 Keccak are not run under memcheck at all: their
# constant-time argument is that they have no branches and no addresses that
# depend on data (see each file), and ct_trace (test/ct_trace.cmake) checks
# it on random inputs by tracing their instructions and memory accesses with
# ptrace.
#
# CPU time on this machine (valgrind, gcc 12): the reference set ~95 s
# (ct_rsa_sign ~21 s of it, mostly OpenSSL's keygen under valgrind), the
# ct_codegen set ~130 s including ~32 s for the clang sub-build.
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

# quill_ct_add(NAME MODE PROGRAM [ARGS...]) registers one memcheck run of a
# target; quill_ct_add_file does the same for a program given by path.
function(quill_ct_add name mode program)
  quill_ct_add_file(${name} ${mode} $<TARGET_FILE:${program}> ${ARGN})
endfunction()
function(quill_ct_add_file name mode path)
  add_test(NAME ${name} COMMAND sh ${QUILL_CT_RUN} ${mode} ${path} ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS ct)
endfunction()

# The three controls and the fast RSA modes, for every code generation.
set(QUILL_CT_CONTROLS branch:leak:ct_leaky_branch index:leak:ct_leaky_index select:clean)
set(QUILL_CT_RSA_FAST sign3072 nocrt3072 unbalanced keygen_small)

set(QUILL_CT_ROOT ${PROJECT_SOURCE_DIR})
set(QUILL_CT_ASM_SOURCES ${QUILL_ASM_SOURCES})
set(QUILL_CT_TESTUTIL quill_testutil)
include(${CMAKE_CURRENT_SOURCE_DIR}/ct/targets.cmake)

# ---- The reference set: -O2, this build's compiler ----
quill_ct_targets("" -O2)
foreach(c ${QUILL_CT_CONTROLS})
  string(REPLACE ":" ";" c ${c})
  list(POP_FRONT c arg)
  list(JOIN c ":" mode)
  quill_ct_add(ct_control_${arg} ${mode} ct_leak ${arg})
endforeach()
foreach(mode sign nocrt check keygen sign3072 sign4096 nocrt3072 unbalanced keygen_small
             export)
  quill_ct_add(ct_rsa_${mode} clean ct_rsa ${mode})
endforeach()

# With CPU dispatch in the core (assembly, or C kernels chosen by
# quill_cpu_has), the runs above take the native paths valgrind's virtual CPU
# reports (BMI2 and AVX2; valgrind 3.19 hides ADX, so ADX code is validated
# by ct_bn_adx instead).  Validate the portable path too, with every feature
# bit masked off.
set(_quill_ct_dispatch ${QUILL_ASM_SOURCES})
file(GLOB _quill_ct_sources ${PROJECT_SOURCE_DIR}/core/common/*.c
     ${PROJECT_SOURCE_DIR}/core/bn/*.c ${PROJECT_SOURCE_DIR}/core/rsa/*.c)
foreach(src ${_quill_ct_sources})
  file(STRINGS ${src} _hits REGEX "quill_cpu_has[(]")
  if(_hits)
    list(APPEND _quill_ct_dispatch ${src})
  endif()
endforeach()
if(_quill_ct_dispatch)
  quill_ct_add(ct_rsa_sign_nohw clean ct_rsa sign3072)
  set_property(TEST ct_rsa_sign_nohw APPEND PROPERTY ENVIRONMENT "QUILL_CPU_MASK=0xffffffff")
endif()

# ML-DSA: key generation, expanded-key import and signing per set, and the
# portable NTT and Keccak (every CPU feature masked) for ML-DSA-65.
set(QUILL_CT_MLDSA_SETS 44 65 87)
if(QUILL_CT_HAVE_MLDSA)
  foreach(set ${QUILL_CT_MLDSA_SETS})
    quill_ct_add(ct_mldsa_${set} clean ct_mldsa ${set})
  endforeach()
  quill_ct_add(ct_mldsa_65_nohw clean ct_mldsa 65)
  set_property(TEST ct_mldsa_65_nohw APPEND PROPERTY ENVIRONMENT "QUILL_CPU_MASK=0xffffffff")
else()
  message(STATUS "ct: core/mldsa or test/ct/ct_mldsa.c absent; ML-DSA constant-time tests not registered")
endif()

# ---- Other code generation ----
# quill_ct_codegen_tests(PREFIX DIR_OR_EMPTY SUFFIX) registers the controls
# and the fast modes for the programs <name><SUFFIX> (targets, or files in
# DIR when DIR is given).
function(quill_ct_codegen_tests prefix dir suffix)
  set(_names)
  foreach(c ${QUILL_CT_CONTROLS})
    string(REPLACE ":" ";" c ${c})
    list(POP_FRONT c arg)
    list(JOIN c ":" mode)
    list(APPEND _names ${prefix}_control_${arg})
    if(dir)
      quill_ct_add_file(${prefix}_control_${arg} ${mode} ${dir}/ct_leak ${arg})
    else()
      quill_ct_add(${prefix}_control_${arg} ${mode} ct_leak${suffix} ${arg})
    endif()
  endforeach()
  foreach(mode ${QUILL_CT_RSA_FAST})
    list(APPEND _names ${prefix}_rsa_${mode})
    if(dir)
      quill_ct_add_file(${prefix}_rsa_${mode} clean ${dir}/ct_rsa ${mode})
    else()
      quill_ct_add(${prefix}_rsa_${mode} clean ct_rsa${suffix} ${mode})
    endif()
  endforeach()
  if(QUILL_CT_HAVE_MLDSA)
    foreach(set ${QUILL_CT_MLDSA_SETS})
      list(APPEND _names ${prefix}_mldsa_${set})
      if(dir)
        quill_ct_add_file(${prefix}_mldsa_${set} clean ${dir}/ct_mldsa ${set})
      else()
        quill_ct_add(${prefix}_mldsa_${set} clean ct_mldsa${suffix} ${set})
      endif()
    endforeach()
  endif()
  set_tests_properties(${_names} PROPERTIES LABELS "ct;ct_codegen")
  set(QUILL_CT_CODEGEN_NAMES ${_names} PARENT_SCOPE)
endfunction()

# -O3 with this build's compiler, in this build.
quill_ct_targets(_o3 -O3)
quill_ct_codegen_tests(ct_o3 "" _o3)

# The other compiler, as a sub-build run by a fixture test.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  set(_quill_ct_other clang)
else()
  set(_quill_ct_other gcc)
endif()
find_program(QUILL_CT_OTHER_CC ${_quill_ct_other})
if(NOT QUILL_CT_OTHER_CC)
  message(STATUS "ct: ${_quill_ct_other} not found; ct_${_quill_ct_other}_* not registered")
  return()
endif()
set(_quill_ct_subdir ${CMAKE_CURRENT_BINARY_DIR}/ct-${_quill_ct_other})
set(_quill_ct_opts -DCMAKE_BUILD_TYPE=Release -DQUILL_WERROR=${QUILL_WERROR}
    -DQUILL_NO_ASM=${QUILL_NO_ASM})
add_test(NAME ct_${_quill_ct_other}_build
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/subbuild.sh ${QUILL_CT_OTHER_CC}
                 ${_quill_ct_subdir} ${_quill_ct_opts})
set_tests_properties(ct_${_quill_ct_other}_build PROPERTIES
                     ENVIRONMENT "CMAKE=${CMAKE_COMMAND}" TIMEOUT 600
                     LABELS "ct;ct_codegen" FIXTURES_SETUP ct_${_quill_ct_other}_build)
quill_ct_codegen_tests(ct_${_quill_ct_other} ${_quill_ct_subdir} "")
set_tests_properties(${QUILL_CT_CODEGEN_NAMES} PROPERTIES
                     FIXTURES_REQUIRED ct_${_quill_ct_other}_build)
