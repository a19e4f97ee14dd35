# SPDX-License-Identifier: Apache-2.0
# RSA core (core/rsa): suites with OpenSSL's default provider as the oracle.
#   rsa_arith   RSA's arithmetic (core/rsa/arith.c) and the constant-time
#               bignum helpers it uses (core/bn/bits.c, div.c) against BN
#   rsa_key     import rejections, getters, key check, fault detection
#   rsa_raw     raw public/private operations, CRT and non-CRT, unbalanced p/q
#   rsa_pkcs1   PKCS#1 v1.5 signatures equal to OpenSSL's, every quill_md
#   rsa_pss     PSS interoperability both ways, salt lengths 0 / hLen / max
#   rsa_keygen  key generation checked by EVP_PKEY_check and sign/verify
#   rsa_big     a modulus near 16384 bits (q a product of primes) against BN
foreach(t rsa_arith rsa_key rsa_raw rsa_pkcs1 rsa_pss rsa_keygen rsa_big)
  quill_add_test(test_${t} rsa/test_${t}.c rsa/rsa_test_common.c CORE
                 LIBS quill_core_rsa quill_core_bn quill_core_common LABELS rsa unit TIMEOUT 300)
  target_include_directories(test_${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/rsa)
endforeach()

# rsa_sign_count: instruction counts of RSA signatures and verifications
# under callgrind (the core against the default provider).  Not a test.  It
# links the static core so that it can claim ADX under valgrind
# (QUILL_RC_ASSUME_ADX=1; see the file).
add_executable(rsa_sign_count rsa/rsa_sign_count.c rsa/rsa_test_common.c)
target_link_libraries(rsa_sign_count PRIVATE quill_testutil quill_core_rsa quill_core_bn
                      quill_core_common OpenSSL::Crypto)
target_include_directories(rsa_sign_count PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/rsa)
