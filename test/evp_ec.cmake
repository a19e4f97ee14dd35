# SPDX-License-Identifier: Apache-2.0
# EVP-level ECDSA P-256 suites (test/evp_ec/): quill's EC key manager and
# ECDSA signature loaded by a stock OpenSSL, plus the openssl CLI
# (cli_ec.sh), with the helpers of quill_evpectest (test/CMakeLists.txt).

quill_add_test(ec_wycheproof evp_ec/ec_wycheproof.c LIBS quill_evpectest LABELS evp ec TIMEOUT 600)
quill_add_test(ec_interop evp_ec/ec_interop.c LIBS quill_evpectest LABELS evp ec TIMEOUT 600)
quill_add_test(ec_badinput evp_ec/ec_badinput.c LIBS quill_evpectest LABELS evp ec TIMEOUT 300)
quill_add_test(ec_fallback evp_ec/ec_fallback.c LIBS quill_evpectest LABELS evp ec TIMEOUT 300)
quill_add_test(ec_decoder evp_ec/ec_decoder.c LIBS quill_evpectest LABELS evp ec TIMEOUT 300)
quill_add_test(ec_threads evp_ec/ec_threads.c LIBS quill_evpectest Threads::Threads LABELS evp ec TIMEOUT 600)
quill_add_test(ec_lazy_pub evp_ec/ec_lazy_pub.c LIBS quill_evpectest Threads::Threads LABELS evp ec TIMEOUT 300)

# (cli_ec not in a cross build: the host's openssl cannot load the target's
# quill.so.)
set(QUILL_CLI_EC_CMD sh ${CMAKE_CURRENT_SOURCE_DIR}/evp_ec/cli_ec.sh)
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cli_ec COMMAND ${QUILL_CLI_EC_CMD})
  set_tests_properties(cli_ec PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}" SKIP_RETURN_CODE 77
                       TIMEOUT 300 LABELS "cli;ec")
endif()

# The vectors, the interoperability checks, the threads and the CLI again at
# the lower CPU levels where P-256's code differs (test/CMakeLists.txt,
# quill_add_levels): C field arithmetic beside the AVX2 gather, portable C.
# (P-256 has no AVX-512 code.)
foreach(suite ec_wycheproof ec_interop ec_threads ec_lazy_pub ec_decoder)
  quill_add_levels(${suite} LEVELS bmi2 portable)
endforeach()
if(NOT CMAKE_CROSSCOMPILING)
  quill_add_levels(cli_ec COMMAND ${QUILL_CLI_EC_CMD} LEVELS bmi2 portable)
endif()
quill_add_test(ec_sigalg evp_ec/ec_sigalg.c LIBS quill_evpectest LABELS evp ec TIMEOUT 300)
