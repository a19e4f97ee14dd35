# SPDX-License-Identifier: Apache-2.0
# libFuzzer harnesses (test/fuzz/), built only with clang and -DQUILL_FUZZ=ON:
#   fuzz_mldsa_verify   quill_mldsa_verify_mu on mutated / arbitrary
#                       signatures; accepted => one of the two genuine ones
#   fuzz_mldsa_priv     quill_mldsa_key_from_priv on mutated expanded keys;
#                       accepted => only K differs, and it signs
#   fuzz_mldsa_decoder  quill's ML-DSA DER decoders via OSSL_DECODER
#                       (SPKI, PrivateKeyInfo in RFC 9881's three forms);
#                       accepted => strict DER, consistent seed/priv/pub
# For coverage inside the core and quill.so configure with
#   -DCMAKE_C_COMPILER=clang -DQUILL_FUZZ=ON -DQUILL_SANITIZE=ON
#   -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link
#   -DCMAKE_MODULE_LINKER_FLAGS=-Wl,-z,undefs
# (the last one because quill.so is linked with -z,defs: with clang the
# static sanitizer and fuzzer runtimes live in the executable that loads the
# module, so the module's references to them are undefined at its link)
# and run e.g. ./fuzz_mldsa_verify -max_total_time=300 corpus_dir (keep
# corpora out of git).  CTest runs each for a few seconds (label fuzz).
option(QUILL_FUZZ "Build the libFuzzer harnesses (clang only)" OFF)

if(CMAKE_C_COMPILER_ID MATCHES Clang AND QUILL_FUZZ)
  set(QUILL_FUZZ_TARGETS fuzz_mldsa_verify fuzz_mldsa_priv fuzz_mldsa_decoder
                         fuzz_fromdata fuzz_decoder fuzz_mldsa_mu)
  foreach(t ${QUILL_FUZZ_TARGETS})
    add_executable(${t} fuzz/${t}.c)
    target_compile_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${t} PRIVATE quill_core_mldsa quill_core_sha3 quill_core_common)
    add_test(NAME ${t}_smoke COMMAND ${t} -max_total_time=5 -seed=1)
    set_tests_properties(${t}_smoke PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                         TIMEOUT 120 LABELS "fuzz")
  endforeach()
  target_link_libraries(fuzz_mldsa_decoder PRIVATE OpenSSL::Crypto)
  add_dependencies(fuzz_mldsa_decoder quill)
  # EVP-level harnesses (fuzz_util.c: contexts, mutations, seed corpus).
  foreach(t fuzz_fromdata fuzz_decoder fuzz_mldsa_mu)
    target_sources(${t} PRIVATE fuzz/fuzz_util.c)
    target_link_libraries(${t} PRIVATE OpenSSL::Crypto)
    add_dependencies(${t} quill)
  endforeach()
endif()
