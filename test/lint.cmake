# SPDX-License-Identifier: Apache-2.0
# Source-tree checks (test/lint/), label lint:
#   license_headers  LICENSE is the Apache License 2.0 and every source,
#                    script and build file carries its SPDX line.
#   core_includes    no file under core/ includes an OpenSSL header or a
#                    header from outside core/ (the provider's).
#   mont_d28x2_avx2_generated  core/bn/mont_d28x2_avx2.c is exactly what
#                    tools/gen_mont_d28x2_avx2.py prints (skipped without
#                    python3).

add_test(NAME license_headers
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/spdx.sh ${PROJECT_SOURCE_DIR})
add_test(NAME core_includes
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/core_includes.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(license_headers core_includes PROPERTIES LABELS lint)
add_test(NAME mont_d28x2_avx2_generated
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/generated_matches.sh mont_d28x2_avx2_generated
                 ${PROJECT_SOURCE_DIR} tools/gen_mont_d28x2_avx2.py core/bn/mont_d28x2_avx2.c)
set_tests_properties(mont_d28x2_avx2_generated PROPERTIES LABELS "lint;bn" SKIP_RETURN_CODE 77)
