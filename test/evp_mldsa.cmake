# SPDX-License-Identifier: Apache-2.0
# EVP-level ML-DSA suites (test/evp_mldsa/): quill's ML-DSA key manager,
# signature and codecs loaded by a stock OpenSSL 3.0, through its public API
# and the openssl CLI, with the helpers of quill_evpmldsatest
# (test/CMakeLists.txt).
#   mldsa_wycheproof  all nine Wycheproof ML-DSA files through EVP
#   mldsa_badinput    wrong lengths, malformed signatures (hints, z), long
#                     contexts, bad mu, public keys for signing, corrupt
#                     DER / PEM, seed and expanded key that disagree
#   mldsa_threads     one key shared by threads that sign and verify
#   mldsa_noble       byte-for-byte cross-check with @noble/post-quantum
#                     (pinned in evp_mldsa/noble/package.json; skipped
#                     without node/npm or when the npm install fails)
#   cli_mldsa         the openssl CLI with openssl.cnf.example
# (mldsa_provider and mldsa_codec are registered by evp_mldsa_prov.cmake and
# evp_mldsa_codec.cmake.)  A quill without an ML-DSA key manager fails them.

quill_add_test(mldsa_wycheproof evp_mldsa/mldsa_wycheproof.c LIBS quill_evpmldsatest
               LABELS evp mldsa TIMEOUT 600)

# The vectors again at the lower CPU levels where ML-DSA's code differs
# (test/CMakeLists.txt, quill_add_levels): AVX2 without AVX-512, portable
# C; likewise the cross-check, the threads and the CLI below.
quill_add_levels(mldsa_wycheproof LEVELS avx2 portable)

# Cross-check with @noble/post-quantum: npm ci into the build tree at test
# time (never at build time), then the driver and node script.
add_executable(mldsa_noble evp_mldsa/noble/mldsa_noble.c)
target_link_libraries(mldsa_noble PRIVATE quill_evpmldsatest)
add_dependencies(mldsa_noble quill)
set(QUILL_NOBLE_CMD sh ${CMAKE_CURRENT_SOURCE_DIR}/evp_mldsa/noble/run_noble.sh
    $<TARGET_FILE:mldsa_noble> ${CMAKE_CURRENT_SOURCE_DIR}/evp_mldsa/noble
    ${CMAKE_CURRENT_BINARY_DIR}/noble 20)
add_test(NAME mldsa_noble COMMAND ${QUILL_NOBLE_CMD})
set_tests_properties(mldsa_noble PROPERTIES ENVIRONMENT "${QUILL_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "evp;mldsa;interop"
                     RESOURCE_LOCK quill_noble_dir)
# (One npm directory: the runs at each level take turns.)
quill_add_levels(mldsa_noble COMMAND ${QUILL_NOBLE_CMD} LEVELS avx2 portable)

quill_add_test(mldsa_badinput evp_mldsa/mldsa_badinput.c LIBS quill_evpmldsatest
               LABELS evp mldsa TIMEOUT 300)
quill_add_test(mldsa_threads evp_mldsa/mldsa_threads.c LIBS quill_evpmldsatest Threads::Threads
               LABELS evp mldsa TIMEOUT 600)
quill_add_levels(mldsa_threads LEVELS avx2 portable)

# cli_mldsa (test/cli/cli_mldsa.sh): the openssl CLI with
# openssl.cnf.example; mldsa_clitool is its EVP side.  With QUILL_SANITIZE=ON
# the script preloads the sanitizer runtimes of QUILL_CC into openssl.
add_executable(mldsa_clitool evp_mldsa/mldsa_clitool.c)
target_link_libraries(mldsa_clitool PRIVATE quill_evpmldsatest)
add_dependencies(mldsa_clitool quill)
set(QUILL_CLI_MLDSA_ENV ${QUILL_PRELOAD_TEST_ENV} "MLDSA_CLITOOL=$<TARGET_FILE:mldsa_clitool>")
set(QUILL_CLI_MLDSA_CMD sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_mldsa.sh)
# (Not in a cross build: the host's openssl cannot load the target's quill.so.)
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli_mldsa COMMAND ${QUILL_CLI_MLDSA_CMD})
  set_tests_properties(cli_mldsa PROPERTIES ENVIRONMENT "${QUILL_CLI_MLDSA_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "cli;mldsa")
  quill_add_levels(cli_mldsa COMMAND ${QUILL_CLI_MLDSA_CMD} LEVELS avx2 portable)
endif()
quill_add_test(mldsa_sigalg evp_mldsa/mldsa_sigalg.c LIBS quill_evpmldsatest LABELS evp mldsa TIMEOUT 300)
quill_add_test(mldsa_tls evp_mldsa/mldsa_tls.c LIBS quill_evpmldsatest OpenSSL::SSL LABELS evp mldsa TIMEOUT 300)
