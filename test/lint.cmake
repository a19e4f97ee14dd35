# SPDX-License-Identifier: Apache-2.0
# Source-tree checks (test/lint/), label lint:
#   license_headers  LICENSE is the Apache License 2.0 and every source,
#                    script and build file carries its SPDX line.
#   core_includes    no file under core/ includes an OpenSSL header or a
#                    header from outside core/ (the provider's).

add_test(NAME license_headers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/spdx.sh ${PROJECT_SOURCE_DIR})
add_test(NAME core_includes
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/core_includes.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(license_headers core_includes PROPERTIES LABELS lint)
