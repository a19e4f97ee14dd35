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
#   mldsa_keygen_lanes  key generation with ExpandA and H(pk) sharing the
#                    four-way lanes (keygen_lanes.c) against the sequential
#                    path, 300 random seeds per set
# mldsa_speed is a timing tool (not a test): us/op for the three sets.
set(QUILL_MLDSA_LIBS quill_core_mldsa quill_core_sha3 quill_core_common)
foreach(t mldsa_arith mldsa_sign mldsa_sign_arith mldsa_ntt16 mldsa_mask mldsa_keygen_lanes)
  quill_add_test(test_${t} mldsa/test_${t}.c CORE LIBS ${QUILL_MLDSA_LIBS}
                 LABELS mldsa unit TIMEOUT 300)
endforeach()
# mldsa/mldsa_ref.c: the references the core does not need (sigDecode
# whole and its hint checks, UseHint scalar, over a whole polynomial and at
# listed indices, t row by row, Power2Round over a polynomial), built into
# the programs that use them.
foreach(t mldsa_arith mldsa_sign_arith mldsa_keygen_lanes)
  target_sources(test_${t} PRIVATE mldsa/mldsa_ref.c)
endforeach()
quill_add_test(test_mldsa_wycheproof mldsa/test_mldsa_wycheproof.c common/qt_json.c CORE
               LIBS ${QUILL_MLDSA_LIBS} PkgConfig::QUILL_CJSON m LABELS mldsa unit TIMEOUT 300)
add_executable(mldsa_speed mldsa/mldsa_speed.c)
target_link_libraries(mldsa_speed PRIVATE quill_testutil ${QUILL_MLDSA_LIBS})

# Again at the lower CPU levels (test/CMakeLists.txt, quill_add_levels):
# the arithmetic, signing's arithmetic and the vectors with every CPU
# feature masked (portable: the portable transforms against schoolbook, the
# baseline builds of the polynomial loops, the portable NTT), and the mask
# stream at the AVX2 level too (AVX-512VL and IFMA masked: its hashes then
# ride the AVX2 four-way permutation).
foreach(t mldsa_arith mldsa_sign_arith mldsa_ntt16 mldsa_wycheproof)
  quill_add_levels(test_${t} LEVELS portable)
endforeach()
quill_add_levels(test_mldsa_mask LEVELS avx2 portable)
# SampleInBall's scatter has AVX-512VL, AVX2 and portable builds
# (sample_ball.c): the AVX2 one runs in test_mldsa_sign_arith_avx2.
quill_add_levels(test_mldsa_sign_arith LEVELS avx2)
# mldsa_count: a callgrind driver (not a test) for signing and verification.
add_executable(mldsa_count mldsa/mldsa_count.c)
target_link_libraries(mldsa_count PRIVATE quill_evptest ${QUILL_MLDSA_LIBS} OpenSSL::Crypto)
add_dependencies(mldsa_count quill)
# mldsa_kernels: TSC ticks per kernel call for the ML-DSA budget (not a test).
add_executable(mldsa_kernels mldsa/mldsa_kernels.c mldsa/mldsa_ref.c)
target_link_libraries(mldsa_kernels PRIVATE quill_testutil ${QUILL_MLDSA_LIBS})
quill_add_levels(test_mldsa_keygen_lanes LEVELS avx2 portable)
