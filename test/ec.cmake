# SPDX-License-Identifier: Apache-2.0
# ECDSA P-256 core (core/ec): differential suites against OpenSSL's BN / EC /
# EVP, RFC 6979 and Wycheproof vectors, the generated-table check, and the
# ec_speed timing tool (not a test).
#   ec_field     field and scalar arithmetic against BN
#   ec_point     base and double-scalar multiplication against EC_POINT_mul,
#                public-key decoding
#   ec_ecdsa     signatures both ways with EVP, RFC 6979 A.2.5, keygen, DER
#   ec_wycheproof  ecdsa_secp256r1_sha256{,_p1363}_test.json at the core level
#   ec_table_regen  tools/gen_p256_table output equals core/ec/p256_table.h
#   ct_ec_sign, _keygen, _pub, _ecdh, _adx  constant-time validation (memcheck)
set(QUILL_EC_TEST_COMMON ec/ec_test_common.c)
# core/ec calls the MULX/ADX kernels of asm/x86_64/p256_*_adx.S: whoever
# links the ec objects gets the assembly too (as test/bn_adx.cmake does for bn).
if(QUILL_ASM_SOURCES)
  target_sources(quill_core_ec INTERFACE ${QUILL_ASM_SOURCES})
endif()
foreach(t ec_field ec_point ec_ecdsa ec_wycheproof)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/ec/test_${t}.c)
    quill_add_test(test_${t} ec/test_${t}.c ${QUILL_EC_TEST_COMMON} CORE
                   LIBS quill_core_ec quill_core_common LABELS ec unit TIMEOUT 300)
    target_include_directories(test_${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
  endif()
endforeach()
if(TARGET test_ec_wycheproof)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(QUILL_EC_CJSON REQUIRED IMPORTED_TARGET libcjson)
  target_sources(test_ec_wycheproof PRIVATE common/qt_json.c)
  target_link_libraries(test_ec_wycheproof PRIVATE PkgConfig::QUILL_EC_CJSON m)
endif()

# The generator builds from the field and point sources only (not from
# quill_core_ec, which contains the table it writes).
add_executable(gen_p256_table ${PROJECT_SOURCE_DIR}/tools/gen_p256_table.c
               ${PROJECT_SOURCE_DIR}/core/ec/p256_fe.c ${PROJECT_SOURCE_DIR}/core/ec/p256_point.c
               ${QUILL_ASM_SOURCES})
target_include_directories(gen_p256_table PRIVATE ${PROJECT_SOURCE_DIR}/core)
target_link_libraries(gen_p256_table PRIVATE quill_core_common)
add_test(NAME ec_table_regen
         COMMAND sh -c "\"$1\" \"$2\" && cmp \"$2\" \"$3\"" sh
                 $<TARGET_FILE:gen_p256_table> ${CMAKE_CURRENT_BINARY_DIR}/p256_table.h
                 ${PROJECT_SOURCE_DIR}/core/ec/p256_table.h)
set_tests_properties(ec_table_regen PROPERTIES LABELS "ec" TIMEOUT 120)

if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/ec/ec_speed.c)
  add_executable(ec_speed ec/ec_speed.c)
  target_link_libraries(ec_speed PRIVATE quill_testutil quill_core_ec quill_core_common
                        OpenSSL::Crypto)
endif()

# Constant-time validation of the secret paths (sign, keygen, public from
# private) under valgrind memcheck, with a second copy of core/ec and
# core/common built with QUILL_CT_VALIDATION (test/ct/memcheck.sh).  Not in
# the sanitizer build; skipped without valgrind headers.
find_path(QUILL_EC_VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(NOT QUILL_SANITIZE AND QUILL_EC_VALGRIND_INCLUDE_DIR)
  file(GLOB QUILL_EC_CT_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/ec/*.c
       ${PROJECT_SOURCE_DIR}/core/common/*.c)
  add_executable(ct_ec ec/ct_ec.c ${QUILL_EC_CT_SOURCES} ${QUILL_ASM_SOURCES})
  target_compile_definitions(ct_ec PRIVATE QUILL_CT_VALIDATION=1)
  target_include_directories(ct_ec SYSTEM PRIVATE ${QUILL_EC_VALGRIND_INCLUDE_DIR})
  target_include_directories(ct_ec PRIVATE ${PROJECT_SOURCE_DIR}/core)
  target_compile_options(ct_ec PRIVATE -O2 -g -gdwarf-4) # valgrind 3.19 cannot read clang 14's DWARF 5
  target_link_libraries(ct_ec PRIVATE OpenSSL::Crypto)
  set(_ct_ec_modes sign keygen pub ecdh)
  if(QUILL_ASM_SOURCES)
    list(APPEND _ct_ec_modes adx)
  endif()
  foreach(mode ${_ct_ec_modes})
    add_test(NAME ct_ec_${mode}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/memcheck.sh clean $<TARGET_FILE:ct_ec> ${mode})
    set_tests_properties(ct_ec_${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "ec;ct")
  endforeach()
endif()

# The MULX/ADX kernels against the portable twins and BN, with the
# callee-saved register check; and the field/scalar and ECDSA suites again
# with BMI2 and ADX masked off (the portable paths).
quill_add_test(test_ec_adx ec/test_ec_adx.c ec/ec_abi_check.S ${QUILL_EC_TEST_COMMON} CORE
               LIBS quill_core_ec quill_core_common LABELS ec unit TIMEOUT 300)
target_include_directories(test_ec_adx PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
set_tests_properties(test_ec_adx PROPERTIES SKIP_RETURN_CODE 77)
foreach(t ec_field ec_ecdsa ec_point)
  if(TARGET test_${t})
    add_test(NAME test_${t}_portable COMMAND test_${t})
    set_tests_properties(test_${t}_portable PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=3"
                         LABELS "ec;unit;portable" TIMEOUT 300)
  endif()
endforeach()

# ec_verify_count: instruction counts of a fresh-key verification under
# callgrind (core and EVP, quill against the default provider).  Not a test.
# It links the static quill_core with quill_cpu_features wrapped, so that it
# can claim ADX under valgrind (QUILL_VC_ASSUME_ADX=1; see the file).
add_executable(ec_verify_count ec/ec_verify_count.c)
target_link_libraries(ec_verify_count PRIVATE quill_evptest quill_core OpenSSL::Crypto)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND NOT QUILL_NO_ASM)
  target_link_options(ec_verify_count PRIVATE -Wl,--wrap=quill_cpu_features)
endif()
