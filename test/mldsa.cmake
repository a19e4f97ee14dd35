# SPDX-License-Identifier: Apache-2.0
# ML-DSA core (core/mldsa), CORE tests (no quill.so):
#   mldsa_arith      zeta table, reductions, NTT round trip and products
#                    against schoolbook multiplication, rounding functions
#                    exhaustively against FIPS 204's definitions, packing
#   mldsa_wycheproof mldsa_{44,65,87}_{sign_seed,sign_noseed,verify}_test.json
#   mldsa_sign       hedged signing, API errors, key dup/equality, tampering
#   mldsa_sign_arith the fused products of signing (invntt + freeze, dot)
#                    against mont_reduce and the unfused forms, per
#                    backend; poly decompose for every r
#   mldsa_ntt16      the 16-bit challenge products (ntt16.h) against
#                    schoolbook, its tables and reductions, per backend
#   mldsa_mask       signing's mask stream and lane-0 hashes (mask.h)
#                    against ExpandMask and SHAKE256 one at a time
# mldsa_speed is a timing tool (not a test): us/op for the three sets.
set(QUILL_MLDSA_LIBS quill_core_mldsa quill_core_sha3 quill_core_common)
foreach(t mldsa_arith mldsa_sign mldsa_sign_arith mldsa_ntt16 mldsa_mask)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/mldsa/test_${t}.c)
    quill_add_test(test_${t} mldsa/test_${t}.c CORE LIBS ${QUILL_MLDSA_LIBS}
                   LABELS mldsa unit TIMEOUT 300)
  endif()
endforeach()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/mldsa/test_mldsa_wycheproof.c)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(QUILL_MLDSA_CJSON REQUIRED IMPORTED_TARGET libcjson)
  quill_add_test(test_mldsa_wycheproof mldsa/test_mldsa_wycheproof.c common/qt_json.c CORE
                 LIBS ${QUILL_MLDSA_LIBS} PkgConfig::QUILL_MLDSA_CJSON m
                 LABELS mldsa unit TIMEOUT 300)
endif()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/mldsa/mldsa_speed.c)
  add_executable(mldsa_speed mldsa/mldsa_speed.c)
  target_link_libraries(mldsa_speed PRIVATE quill_testutil ${QUILL_MLDSA_LIBS})
endif()

# The arithmetic and signing's arithmetic again with every CPU feature
# masked (the portable transforms against schoolbook, the baseline builds
# of the polynomial loops).
foreach(t mldsa_arith mldsa_sign_arith mldsa_ntt16 mldsa_mask)
  if(TARGET test_${t})
    add_test(NAME test_${t}_nohw COMMAND test_${t})
    set_tests_properties(test_${t}_nohw PROPERTIES
      ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
      SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "mldsa;unit")
  endif()
endforeach()

# The mask stream at the AVX2 level too (AVX-512VL and IFMA masked): its
# hashes then ride the AVX2 four-way permutation.
if(TARGET test_mldsa_mask)
  add_test(NAME test_mldsa_mask_avx2 COMMAND test_mldsa_mask)
  set_tests_properties(test_mldsa_mask_avx2 PROPERTIES
    ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0x30"
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "mldsa;unit")
endif()

# The vector suite again with every CPU feature masked: the portable NTT.
if(TARGET test_mldsa_wycheproof)
  add_test(NAME test_mldsa_wycheproof_nohw COMMAND test_mldsa_wycheproof)
  set_tests_properties(test_mldsa_wycheproof_nohw PROPERTIES
    ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "mldsa;unit")
endif()
