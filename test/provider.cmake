# SPDX-License-Identifier: Apache-2.0
# Provider suites (test/provider/):
#   provider_basic    quill.so through EVP: parameters, fetchability, PKCS#1 and
#                     PSS round trips served by quill, AlgorithmIdentifiers and
#                     security bits against the default provider, key import
#                     refusal and export, reason strings, QUILL_STATS lines.
#   provider_exports  quill.so exports OSSL_provider_init and nothing else.
#   provider_null_params  every string parameter quill reads, given with NULL
#                     data, is refused with quill's error (no crash).
#   provider_decline  the families provider/decline.c declines on this CPU
#                     (x86-64: none, or RSA without BMI2 and ADX, as the
#                     _bmi2 and _x86_64 copies mask them; aarch64: EC) are
#                     served end to end by the default provider; the others,
#                     and all of them with QUILL_DECLINE=none, by quill.
#   provider_capabilities  the TLS-SIGALG capability (ML-DSA on a 3.5+ core,
#                     as the default provider's), TLS-GROUP empty, libssl's view.

quill_add_test(provider_basic provider/provider_basic.c LABELS provider rsa TIMEOUT 300)
quill_add_test(provider_null_params provider/provider_null_params.c LABELS provider)

add_test(NAME provider_exports
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/provider/exports.sh $<TARGET_FILE:quill>)
set_tests_properties(provider_exports PROPERTIES LABELS provider SKIP_RETURN_CODE 77)
quill_add_test(provider_der provider/provider_der.c ${PROJECT_SOURCE_DIR}/provider/der.c CORE LABELS provider)
quill_add_test(keygen_route provider/keygen_route.c LABELS provider TIMEOUT 300)
quill_add_test(provider_capabilities provider/provider_capabilities.c LIBS OpenSSL::SSL LABELS provider)
quill_add_test(provider_decline provider/provider_decline.c LIBS quill_core_common LABELS provider aarch64 TIMEOUT 300)
target_include_directories(provider_decline PRIVATE ${PROJECT_SOURCE_DIR}/provider)
quill_add_levels(provider_decline LEVELS bmi2 x86_64 portable)
