# SPDX-License-Identifier: Apache-2.0
# libFuzzer harnesses (test/fuzz/), built only with -DQUILL_FUZZ=ON, the
# configuration cmake/fuzz.cmake sets up (clang, ASan+UBSan, coverage in
# the core and quill.so):
#   CC=clang cmake -B build-fuzz -DQUILL_FUZZ=ON
#   cmake --build build-fuzz -j2 --target fuzz
#   test/fuzz/ci.sh . build-fuzz        (or ctest --test-dir build-fuzz -L fuzz)
# test/fuzz/README.md says how to run them for hours.
#   fuzz_mldsa_verify   quill_mldsa_verify_mu on mutated / arbitrary
#                       signatures; accepted => one of the two genuine ones
#   fuzz_mldsa_priv     quill_mldsa_key_from_priv on mutated expanded keys;
#                       accepted => only K differs, and it signs
#   fuzz_mldsa_decoder  quill's ML-DSA DER decoders via OSSL_DECODER
#                       (SPKI, PrivateKeyInfo in RFC 9881's three forms);
#                       accepted => strict DER, consistent seed/priv/pub
#   fuzz_rsa_verify     RSA verification through EVP (PKCS#1 v1.5, PSS,
#                       X9.31, none, verify-recover; one-shot and streaming;
#                       2048-4096-bit keys): quill's verdict = the default
#                       provider's
#   fuzz_ecdsa_verify   ECDSA P-256 verification through EVP (DER variants,
#                       one-shot and streaming, fresh and reused keys):
#                       quill's verdict = the default provider's
#   fuzz_fromdata       EVP_PKEY_fromdata for RSA, EC P-256 and ML-DSA with
#                       fuzzed, omitted and added parameters; every accepted
#                       key signs or verifies once, checked independently
#   fuzz_decoder        OSSL_DECODER: PEM/DER PrivateKeyInfo, SPKI,
#                       EncryptedPrivateKeyInfo, EC points; key = an
#                       independent reading, acceptance = the default's
#   fuzz_mldsa_mu       ML-DSA through EVP with external mu and
#                       message-encoding 0: verdict = the core's on an
#                       independently computed mu
# Every executable target named fuzz_* in this directory is a harness: the
# `fuzz` target builds them all with quill.so, and the list is written to
# <build>/fuzz/harnesses.txt (one executable path a line) for
# test/fuzz/ci.sh, so a
# new harness needs only its lines here.  CTest runs each for a few seconds
# (label fuzz).
if(CMAKE_C_COMPILER_ID MATCHES Clang AND QUILL_FUZZ)
  # quill_add_fuzz(NAME [CORE] [EVP] [SOURCES src...]) builds the harness
  # fuzz/NAME.c (plus SOURCES) and its CTest smoke run NAME_smoke.
  #   CORE  links the ML-DSA core (harnesses that call it directly)
  #   EVP   links libcrypto and builds quill.so first (harnesses that go
  #         through OpenSSL and load quill.so)
  function(quill_add_fuzz t)
    cmake_parse_arguments(F "CORE;EVP" "" "SOURCES" ${ARGN})
    add_executable(${t} fuzz/${t}.c ${F_SOURCES})
    target_compile_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/provider)
    if(F_CORE)
      target_link_libraries(${t} PRIVATE quill_core_mldsa quill_core_sha3 quill_core_common)
    endif()
    if(F_EVP)
      target_link_libraries(${t} PRIVATE OpenSSL::Crypto)
      add_dependencies(${t} quill)
    endif()
    add_test(NAME ${t}_smoke COMMAND ${t} -max_total_time=5 -seed=1)
    set_tests_properties(${t}_smoke PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                         TIMEOUT 120 LABELS "fuzz")
  endfunction()

  quill_add_fuzz(fuzz_mldsa_verify CORE)
  quill_add_fuzz(fuzz_mldsa_priv CORE)
  quill_add_fuzz(fuzz_mldsa_decoder CORE EVP SOURCES fuzz/fuzz_mldsa_der.c)
  # EVP-level harnesses (fuzz_util.c: contexts, mutations, seed corpus).
  quill_add_fuzz(fuzz_fromdata CORE EVP SOURCES fuzz/fuzz_util.c)
  quill_add_fuzz(fuzz_decoder CORE EVP SOURCES fuzz/fuzz_util.c fuzz/fuzz_mldsa_der.c)
  quill_add_fuzz(fuzz_mldsa_mu CORE EVP SOURCES fuzz/fuzz_util.c)
  # The differential verification harnesses (quill against the default
  # provider through EVP), over fuzz/fuzz_sigcmp.c.
  quill_add_fuzz(fuzz_rsa_verify EVP SOURCES fuzz/fuzz_sigcmp.c)
  quill_add_fuzz(fuzz_ecdsa_verify EVP SOURCES fuzz/fuzz_sigcmp.c)

  # At the end of this directory: the `fuzz` target and the harness list.
  function(quill_fuzz_collect)
    get_property(targets DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
    set(harnesses)
    foreach(t ${targets})
      get_target_property(type ${t} TYPE)
      if(t MATCHES "^fuzz_" AND type STREQUAL "EXECUTABLE")
        list(APPEND harnesses ${t})
      endif()
    endforeach()
    list(SORT harnesses)
    add_custom_target(fuzz)
    add_dependencies(fuzz quill ${harnesses})
    set(text "")
    foreach(t ${harnesses})
      string(APPEND text "$<TARGET_FILE:${t}>\n")
    endforeach()
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fuzz/harnesses.txt CONTENT "${text}")
  endfunction()
  cmake_language(DEFER CALL quill_fuzz_collect)
endif()
