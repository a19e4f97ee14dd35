# SPDX-License-Identifier: Apache-2.0
# ECDSA P-256 core (core/ec): differential suites against OpenSSL's BN / EC /
# EVP, RFC 6979 and Wycheproof vectors, the generated-table check, and the
# ec_speed timing tool (not a test).
#   ec_field     field and scalar arithmetic against BN
#   ec_point     base and double-scalar multiplication against EC_POINT_mul,
#                public-key decoding
#   ec_ecdsa     signatures both ways with EVP, RFC 6979 A.2.5, keygen, DER
#   ec_wycheproof  ecdsa_secp256r1_sha256{,_p1363}_test.json at the core level
#   ec_adx       the MULX/ADX kernels (asm/x86_64/p256_*_adx.S, part of the ec
#                module) against the portable twins and BN, with the
#                callee-saved register check; skipped (77) without BMI2/ADX
#   ec_sha256    the core SHA-256 (portable and SHA extensions) against
#                OpenSSL's, and the nonce's HMAC-DRBG on it against the
#                DRBG through the quill_hash callback
#   ec_table_regen  tools/gen_p256_table output equals core/ec/p256_table.h
# (ct_ec_*, the constant-time validation of core/ec, are in ct.cmake.)
foreach(t ec_field ec_point ec_ecdsa ec_wycheproof ec_adx ec_sha256)
  quill_add_test(test_${t} ec/test_${t}.c ec/ec_test_common.c CORE
                 LIBS quill_core_ec quill_core_common LABELS ec unit TIMEOUT 300)
  target_include_directories(test_${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
endforeach()
target_sources(test_ec_wycheproof PRIVATE common/qt_json.c)
target_link_libraries(test_ec_wycheproof PRIVATE PkgConfig::QUILL_CJSON m)
target_sources(test_ec_adx PRIVATE ec/ec_abi_check.S)
set_tests_properties(test_ec_adx PROPERTIES SKIP_RETURN_CODE 77)

# The field/scalar, point and ECDSA suites again at the lower CPU levels
# where P-256's code differs (test/CMakeLists.txt, quill_add_levels): the AVX2
# gather of the base-point tables instead of the AVX-512VL one (avx2), C field
# arithmetic beside the AVX2 gather (bmi2), and the C gather too (portable; the
# field suite's vector code is the paired inversion's divsteps, AVX2 at the
# native and bmi2 levels, the portable two-lane kernel at portable).
quill_add_levels(test_ec_field LEVELS bmi2 portable)
quill_add_levels(test_ec_point LEVELS avx2 bmi2 portable)
quill_add_levels(test_ec_ecdsa LEVELS avx2 bmi2 portable)
quill_add_levels(test_ec_sha256 LEVELS portable)

# The generator builds from the field and point sources only (not from
# quill_core_ec, which contains the table it writes).
add_executable(gen_p256_table ${PROJECT_SOURCE_DIR}/tools/gen_p256_table.c
               ${PROJECT_SOURCE_DIR}/core/ec/p256_fe.c ${PROJECT_SOURCE_DIR}/core/ec/p256_point.c
               ${QUILL_CORE_ec_ASM})
target_include_directories(gen_p256_table PRIVATE ${PROJECT_SOURCE_DIR}/core)
target_link_libraries(gen_p256_table PRIVATE quill_core_common)
# (The generator runs through $QUILL_EMULATOR in a cross build.)
add_test(NAME ec_table_regen
         COMMAND sh -c "$QUILL_EMULATOR \"$1\" \"$2\" && cmp \"$2\" \"$3\"" sh
                 $<TARGET_FILE:gen_p256_table> ${CMAKE_CURRENT_BINARY_DIR}/p256_table.h
                 ${PROJECT_SOURCE_DIR}/core/ec/p256_table.h)
set_tests_properties(ec_table_regen PROPERTIES LABELS "ec" TIMEOUT 120
                     ENVIRONMENT "${QUILL_TEST_ENV}")

add_executable(ec_speed ec/ec_speed.c)
target_link_libraries(ec_speed PRIVATE quill_testutil quill_core_ec quill_core_common OpenSSL::Crypto)

# ec_verify_count: instruction counts of a fresh-key verification under
# callgrind (core and EVP, quill against the default provider).  Not a test.
# It links the static quill_core, so that it can claim ADX under valgrind
# (QUILL_VC_ASSUME_ADX=1; see the file).
add_executable(ec_verify_count ec/ec_verify_count.c ec/ec_count_main.c)
target_link_libraries(ec_verify_count PRIVATE quill_evpectest quill_core OpenSSL::Crypto)
target_include_directories(ec_verify_count PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/evp_ec)

# ec_sign_count: instruction counts of P-256 key generation and signing
# under callgrind (core, and EVP with quill against the default provider).
# Not a test.  Links the static quill_core for the ADX override
# (QUILL_SC_ASSUME_ADX=1; see the file).
add_executable(ec_sign_count ec/ec_sign_count.c ec/ec_count_main.c ec/ec_test_common.c)
target_include_directories(ec_sign_count PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ec)
target_link_libraries(ec_sign_count PRIVATE quill_evptest quill_core OpenSSL::Crypto)
