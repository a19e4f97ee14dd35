# SPDX-License-Identifier: Apache-2.0
# Constant-time validation under valgrind's memcheck (test/ct/).
#
# quill_core_ct is a second copy of the core (a variant of quill_add_core,
# cmake/core.cmake) compiled with QUILL_CT_VALIDATION=1 at -O2 -g: secrets
# are marked undefined for memcheck, so any branch or memory address that
# depends on one is reported.  test/ct/memcheck.sh runs each program under
#   valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes
# and fails on any such report; it exits 77 (skipped) without valgrind.
# The targets themselves are defined in test/ct/targets.cmake.
#
#   ct_rsa_<mode>   the RSA core (modes in test/ct/ct_rsa.c): sign (fresh
#       2048-bit key), nocrt, check, keygen (2048), sign3072, sign4096,
#       nocrt3072, unbalanced (primes of 16 and 17 limbs), keygen_small
#       (1024 bits with e = 3, 1025 bits), export (quill_rsa_key_get)
#   ct_rsa_sign3072_portable   ct_rsa sign3072 with every CPU feature
#       masked (the portable level of quill_add_levels, test/CMakeLists.txt)
#   ct_control_branch, ct_control_index   negative controls: a deliberate
#       leak that memcheck must report (the test fails if it does not)
#   ct_control_select   positive control: constant-time code stays clean
#   ct_mldsa_44, _65, _87   ML-DSA (test/ct/ct_mldsa.c): key from a secret
#       seed, key from a secret expanded key, deterministic and hedged
#       signing; ct_mldsa_65_portable the same with every CPU feature masked
#   ct_ec_<mode>    P-256 (test/ec/ct_ec.c): sign, keygen, pub (public from
#       private), ecdh; adx (the MULX/ADX kernels called directly: valgrind
#       executes ADX but hides it from CPUID) where the assembly is built
#   ct_bn   the bignum core (test/bn/test_bn_ct.c): comparisons, products,
#       Montgomery arithmetic, exponentiation, inversion on secret operands
#   ct_sha3_scalar, _x4   SHA-3 and SHAKE, scalar and four-way
#       (test/sha3/ct_sha3.c), on secret inputs; ct_sha3_scalar_portable
#       the scalar mode with every CPU feature masked
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
# (and _portable masks everything).  The bignum MULX/ADCX/ADOX kernels are
# validated separately by ct_bn_adx (test/bn_adx.cmake), which calls them
# directly (valgrind executes ADX), and the P-256 ones by ct_ec_adx
# likewise; the AVX-512 IFMA exponentiation, the AVX-512VL
# NTT and the AVX-512 Keccak are not run under memcheck at all: their
# constant-time argument is that they have no branches and no addresses that
# depend on data (see each file), and ct_trace (test/ct_trace.cmake) checks
# it on random inputs by tracing their instructions and memory accesses with
# ptrace.
#
# CPU time on this machine (valgrind, gcc 12): the reference set ~95 s
# (ct_rsa_sign ~21 s of it, mostly OpenSSL's keygen under valgrind), the
# ct_codegen set ~190 s including ~32 s for the clang sub-build (sign4096
# ~30 s of it per compiler).
#
# Not registered in the sanitizer build (ASan and valgrind do not mix; the
# release build runs them) nor in a cross build.

if(QUILL_SANITIZE)
  message(STATUS "ct: constant-time validation tests skipped in the sanitizer build")
  return()
endif()
# Nor in a cross build: the host's valgrind cannot run the target's
# programs (an aarch64 build's constant-time argument is in its .S headers,
# and its portable C is validated here on x86-64), and the other-compiler
# sub-build would build for the host.
if(CMAKE_CROSSCOMPILING)
  message(STATUS "ct: constant-time validation tests not registered in a cross build")
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

# quill_ct_add(NAME MODE PROGRAM [ARGS...]) registers one memcheck run of
# the program at path PROGRAM (test/ct/memcheck.sh MODE: clean, or leak:SYMBOL
# for a negative control).
function(quill_ct_add name mode program)
  add_test(NAME ${name} COMMAND sh ${QUILL_CT_RUN} ${mode} ${program} ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS ct)
endfunction()

# quill_ct_suite(PREFIX LEAK RSA MLDSA RSA_MODE...) registers, for the
# programs at the paths LEAK, RSA and MLDSA (ct_leak, ct_rsa and ct_mldsa of
# one code generation), the three controls PREFIX_control_<branch, index,
# select>, PREFIX_rsa_<mode> for each RSA_MODE and PREFIX_mldsa_<44, 65,
# 87>; QUILL_CT_NAMES lists them in the caller's scope.
function(quill_ct_suite prefix leak rsa mldsa)
  set(names)
  foreach(c branch:leak:ct_leaky_branch index:leak:ct_leaky_index select:clean)
    string(REPLACE ":" ";" c ${c})
    list(POP_FRONT c arg)
    list(JOIN c ":" mode)
    quill_ct_add(${prefix}_control_${arg} ${mode} ${leak} ${arg})
    list(APPEND names ${prefix}_control_${arg})
  endforeach()
  foreach(mode ${ARGN})
    quill_ct_add(${prefix}_rsa_${mode} clean ${rsa} ${mode})
    list(APPEND names ${prefix}_rsa_${mode})
  endforeach()
  foreach(set 44 65 87)
    quill_ct_add(${prefix}_mldsa_${set} clean ${mldsa} ${set})
    list(APPEND names ${prefix}_mldsa_${set})
  endforeach()
  set(QUILL_CT_NAMES ${names} PARENT_SCOPE)
endfunction()

# The fast RSA modes (fixed keys), for the other code generations;
# sign4096 for the 2048-bit radix-2^27 kernels (exp_d27x2_32.c, one of
# exp_dx2_body.h's instantiations; ~30 s each under memcheck).
set(QUILL_CT_RSA_FAST sign3072 sign4096 nocrt3072 unbalanced keygen_small)

set(QUILL_CT_TESTUTIL quill_testutil)
include(${CMAKE_CURRENT_SOURCE_DIR}/ct/targets.cmake)

# ---- The reference set: -O2, this build's compiler ----
quill_ct_targets("" -O2)
quill_ct_suite(ct $<TARGET_FILE:ct_leak> $<TARGET_FILE:ct_rsa> $<TARGET_FILE:ct_mldsa>
               sign nocrt check keygen sign3072 sign4096 nocrt3072 unbalanced keygen_small export)

# P-256 and SHA-3, over the same copy of the core.
foreach(prog ec sha3)
  add_executable(ct_${prog} ${prog}/ct_${prog}.c)
  quill_ct_target(ct_${prog} -O2)
  target_link_libraries(ct_${prog} PRIVATE quill_core_ct)
endforeach()
target_link_libraries(ct_ec PRIVATE OpenSSL::Crypto)
set(_ct_ec_modes sign keygen pub ecdh)
if(QUILL_CORE_ec_ASM)
  list(APPEND _ct_ec_modes adx)
endif()
foreach(mode ${_ct_ec_modes})
  quill_ct_add(ct_ec_${mode} clean $<TARGET_FILE:ct_ec> ${mode})
  set_property(TEST ct_ec_${mode} APPEND PROPERTY LABELS ec)
endforeach()
foreach(mode scalar x4)
  quill_ct_add(ct_sha3_${mode} clean $<TARGET_FILE:ct_sha3> ${mode})
  set_property(TEST ct_sha3_${mode} APPEND PROPERTY LABELS sha3)
endforeach()

# The bignum core's secret paths (test/bn/test_bn_ct.c, also run as the unit
# test test_bn_ct): comparisons, selection, products, Montgomery contexts and
# arithmetic, exponentiation, inversion, byte conversion, on secret operands
# of 1..64 limbs.
add_executable(ct_bn bn/test_bn_ct.c bn/bn_test_common.c)
quill_ct_target(ct_bn -O2)
target_include_directories(ct_bn PRIVATE bn)
target_link_libraries(ct_bn PRIVATE quill_core_ct quill_testutil OpenSSL::Crypto)
quill_ct_add(ct_bn clean $<TARGET_FILE:ct_bn>)
set_property(TEST ct_bn APPEND PROPERTY LABELS bn)

# The runs above take the native paths valgrind's virtual CPU reports (BMI2
# and AVX2; valgrind 3.19 hides ADX, so ADX code is validated by ct_bn_adx
# and ct_ec_adx instead).  The portable paths too, with every feature bit
# masked (test/CMakeLists.txt, quill_add_levels): RSA-3072 signing, ML-DSA-65
# (the portable NTT and Keccak), scalar SHA-3 and ECDSA signing.
quill_add_levels(ct_rsa_sign3072 COMMAND sh ${QUILL_CT_RUN} clean $<TARGET_FILE:ct_rsa> sign3072
                 LEVELS portable)
quill_add_levels(ct_mldsa_65 COMMAND sh ${QUILL_CT_RUN} clean $<TARGET_FILE:ct_mldsa> 65
                 LEVELS portable)
quill_add_levels(ct_sha3_scalar COMMAND sh ${QUILL_CT_RUN} clean $<TARGET_FILE:ct_sha3> scalar
                 LEVELS portable)
# ECDSA signing on the portable paths: the paired inversion's two-lane
# divsteps kernel (core/ec/p256_inv.h) in place of the AVX2 one.
quill_add_levels(ct_ec_sign COMMAND sh ${QUILL_CT_RUN} clean $<TARGET_FILE:ct_ec> sign
                 LEVELS portable)
set_property(TEST ct_ec_sign_portable APPEND PROPERTY LABELS ec)

# ---- Other code generation (label ct_codegen) ----
# -O3 with this build's compiler, in this build.
quill_ct_targets(_o3 -O3 MODULES common bn rsa mldsa sha3)
quill_ct_suite(ct_o3 $<TARGET_FILE:ct_leak_o3> $<TARGET_FILE:ct_rsa_o3> $<TARGET_FILE:ct_mldsa_o3>
               ${QUILL_CT_RSA_FAST})
set_tests_properties(${QUILL_CT_NAMES} PROPERTIES LABELS "ct;ct_codegen")

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
quill_ct_suite(ct_${_quill_ct_other} ${_quill_ct_subdir}/ct_leak ${_quill_ct_subdir}/ct_rsa
               ${_quill_ct_subdir}/ct_mldsa ${QUILL_CT_RSA_FAST})
set_tests_properties(${QUILL_CT_NAMES} PROPERTIES LABELS "ct;ct_codegen"
                     FIXTURES_REQUIRED ct_${_quill_ct_other}_build)
