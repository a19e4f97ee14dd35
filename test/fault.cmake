# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
# Fault suites (test/fault/), label fault:
#   alloc_fail  every allocation of sign, verify, key generation, import and
#               PEM/DER decoding (RSA-2048 PKCS#1 and PSS, ECDSA P-256,
#               ML-DSA-65) failed in turn: quill's core allocations through
#               the test hook of core/common/alloc.h, OpenSSL's (and the
#               provider's OPENSSL_malloc) through CRYPTO_set_mem_functions.
#               The provider objects are linked into the test over
#               quill_core_fault, the only core variant with the hook, and
#               registered with OSSL_PROVIDER_add_builtin: quill.so has no
#               hook.  Leaks: LeakSanitizer in the QUILL_SANITIZE=ON build.
#   rsa_fault   bits of dp, dq, qinv and d flipped in a loaded key's memory
#               (the core's key structure, from a test linking quill_core):
#               every signature is refused or verifies, and no signature
#               reveals a factor of n (gcd(s^e - m, n)).
quill_add_core(quill_core_fault ALLOC_HOOK REUSE quill_core)
quill_add_test(alloc_fail fault/alloc_fail.c CORE LIBS quill_core_fault OpenSSL::Crypto
               LABELS fault TIMEOUT 900)
target_sources(alloc_fail PRIVATE $<TARGET_OBJECTS:quill_provider>)
target_link_libraries(alloc_fail PRIVATE quill_core_fault ${CMAKE_DL_LIBS})
target_compile_definitions(alloc_fail PRIVATE QUILL_ALLOC_TEST_HOOK=1)

quill_add_test(rsa_fault fault/rsa_fault.c rsa/rsa_test_common.c CORE
               LIBS quill_core_rsa quill_core_bn quill_core_common LABELS fault rsa TIMEOUT 600)
target_include_directories(rsa_fault PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/rsa)
