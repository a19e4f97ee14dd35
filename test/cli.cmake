# SPDX-License-Identifier: Apache-2.0
# cli_rsa: the stock openssl CLI with quill activated via openssl.cnf.example
# (test/cli/cli_rsa.sh).  With QUILL_SANITIZE=ON the script preloads the
# sanitizer runtimes of the compiler named by QUILL_CC into openssl.  Not in a
# cross build: the host's openssl cannot load the target's quill.so.

if(CMAKE_CROSSCOMPILING)
  return()
endif()
set(QUILL_CLI_RSA_CMD sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_rsa.sh)
add_test(NAME cli_rsa COMMAND ${QUILL_CLI_RSA_CMD})
set_tests_properties(cli_rsa PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}" SKIP_RETURN_CODE 77
                     TIMEOUT 300 LABELS "cli;rsa")
quill_add_levels(cli_rsa COMMAND ${QUILL_CLI_RSA_CMD} LEVELS avx2 x86_64 portable)
